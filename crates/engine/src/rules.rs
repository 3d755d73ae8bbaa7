// Long because every rule option is a documented enum; ~45 lines are unit tests.
//! The rule options of a game (SPEC §3), their named sets, and how a single move resolves.

use std::{fmt, num::NonZeroU32, str::FromStr};

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, DiceError};

/// Declares a closed set of options with their command-line spelling, parsing and display.
macro_rules! options {
    ($(#[$meta:meta])* $name:ident, $what:literal { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "&'static str")]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            /// Every value, in the order of SPEC §3.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The spelling used on the command line and in files.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = RulesError;
            fn from_str(s: &str) -> Result<$name, RulesError> {
                match s.trim() {
                    $($text => Ok($name::$variant),)+
                    _ => Err(RulesError::UnknownValue {
                        option: $what,
                        value: s.to_owned(),
                        expected: vec![$($text),+].join(", "),
                    }),
                }
            }
        }

        impl TryFrom<String> for $name {
            type Error = RulesError;
            fn try_from(s: String) -> Result<$name, RulesError> {
                s.parse()
            }
        }

        impl From<$name> for &'static str {
            fn from(v: $name) -> &'static str {
                v.as_str()
            }
        }
    };
}

options! {
    /// Where every token starts.
    Start, "start" {
        /// Position 0, off the board: the first roll enters it.
        #[default]
        OffBoard = "off-board",
        /// Cell 1.
        FirstCell = "first-cell",
    }
}

options! {
    /// What a roll that would pass cell N does.
    Overshoot, "overshoot" {
        /// No move; the turn is used.
        #[default]
        Stay = "stay",
        /// Move back from N by the excess.
        Bounce = "bounce",
        /// Finish anyway.
        Win = "win",
    }
}

options! {
    /// How many jumps one move may take.
    JumpMode, "jumps" {
        /// At most one jump per move.
        #[default]
        Single = "single",
        /// Keep following jumps while landing on a jump's start.
        Chain = "chain",
    }
}

options! {
    /// Whether some rolls earn another roll in the same turn.
    Bonus, "bonus" {
        /// Never.
        #[default]
        None = "none",
        /// A roll on which every die shows its top face earns one more roll.
        TopFace = "top-face",
    }
}

options! {
    /// What the capped (K-th consecutive) top-face roll does.
    OnMax, "on-max" {
        /// It is moved normally and the turn ends.
        #[default]
        Pass = "pass",
        /// It is not moved and the whole turn is undone.
        Void = "void",
    }
}

options! {
    /// When the game ends.
    Finish, "finish" {
        /// The first player to finish wins; the game ends.
        #[default]
        First = "first",
        /// Finishers leave the rotation with ranks; the game ends when one player is left.
        All = "all",
    }
}

options! {
    /// Which decisions the rules give a player.
    Choice, "choice" {
        /// None: every roll is moved.
        #[default]
        None = "none",
        /// After seeing the roll the player may decline to move.
        MayPass = "may-pass",
        /// Roll two dice and move by either one.
        PickDie = "pick-die",
    }
}

/// A cap on consecutive top-face rolls in one turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MaxBonus {
    /// No cap.
    #[default]
    Unlimited,
    /// The K-th consecutive top-face roll is handled by [`OnMax`].
    Limit(NonZeroU32),
}

impl MaxBonus {
    /// The cap, if any.
    pub fn limit(self) -> Option<u32> {
        match self {
            MaxBonus::Unlimited => None,
            MaxBonus::Limit(k) => Some(k.get()),
        }
    }
}

impl fmt::Display for MaxBonus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaxBonus::Unlimited => f.write_str("unlimited"),
            MaxBonus::Limit(k) => write!(f, "{k}"),
        }
    }
}

impl FromStr for MaxBonus {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<MaxBonus, RulesError> {
        let s = s.trim();
        if s == "unlimited" {
            return Ok(MaxBonus::Unlimited);
        }
        s.parse::<u32>().ok().and_then(NonZeroU32::new).map(MaxBonus::Limit).ok_or_else(|| {
            RulesError::UnknownValue {
                option: "max-bonus",
                value: s.to_owned(),
                expected: "unlimited, or a whole number 1 or more".to_owned(),
            }
        })
    }
}

impl Serialize for MaxBonus {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            MaxBonus::Unlimited => s.serialize_str("unlimited"),
            MaxBonus::Limit(k) => s.serialize_u32(k.get()),
        }
    }
}

impl<'de> Deserialize<'de> for MaxBonus {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<MaxBonus, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(i64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Int(k) => k.to_string().parse().map_err(serde::de::Error::custom),
            Raw::Text(t) => t.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// A complete, valid set of rule options. Every field is a closed set or a checked number, so any
/// value of this type is playable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Rules {
    /// Where tokens start.
    pub start: Start,
    /// The dice thrown (with [`Choice::PickDie`], two dice of these faces are thrown instead).
    pub dice: Dice,
    /// What a roll past cell N does.
    pub overshoot: Overshoot,
    /// Single or chained jumps.
    pub jumps: JumpMode,
    /// Bonus rolls.
    pub bonus: Bonus,
    /// Cap on consecutive bonus-earning rolls.
    pub max_bonus: MaxBonus,
    /// What the capped roll does.
    pub on_max: OnMax,
    /// When the game ends.
    pub finish: Finish,
    /// Decisions offered to players.
    pub choice: Choice,
    /// Classic (reach N) or race (the game also ends after K rounds); not written when classic,
    /// so classic games save exactly as before.
    #[serde(default, skip_serializing_if = "Mode::is_classic")]
    pub mode: Mode,
}

/// How a game ends besides a player reaching N (SPEC §3b, `--mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Mode {
    /// Reach N.
    #[default]
    Classic,
    /// The game also ends after round `rounds`: every player still playing has had that many
    /// turns (a skipped turn counts). Unfinished players are then ranked by position, ties by
    /// seating order.
    Race {
        /// K ≥ 1.
        rounds: NonZeroU32,
    },
}

impl Mode {
    /// True for [`Mode::Classic`].
    pub fn is_classic(&self) -> bool {
        *self == Mode::Classic
    }

    /// The rounds of a race.
    pub fn rounds(self) -> Option<u32> {
        match self {
            Mode::Classic => None,
            Mode::Race { rounds } => Some(rounds.get()),
        }
    }

    /// `classic` or `race`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Classic => "classic",
            Mode::Race { .. } => "race",
        }
    }
}

options! {
    /// The named rule sets of SPEC §3.
    RuleSet, "rule set" {
        /// The defaults.
        #[default]
        Standard = "standard",
        /// Bonus roll on a top face, unlimited.
        BonusSix = "bonus-six",
        /// Start on cell 1, bonus on a top face, the third in a row passes, everyone finishes.
        ThreeSixes = "three-sixes",
        /// Bonus on a top face, the third in a row voids the turn.
        StrictSixes = "strict-sixes",
    }
}

impl RuleSet {
    /// The options this set stands for.
    pub fn rules(self) -> Rules {
        const THREE: NonZeroU32 = NonZeroU32::new(3).unwrap();
        let three = MaxBonus::Limit(THREE);
        let base = Rules::default();
        match self {
            RuleSet::Standard => base,
            RuleSet::BonusSix => Rules { bonus: Bonus::TopFace, ..base },
            RuleSet::ThreeSixes => Rules {
                start: Start::FirstCell,
                bonus: Bonus::TopFace,
                max_bonus: three,
                on_max: OnMax::Pass,
                finish: Finish::All,
                ..base
            },
            RuleSet::StrictSixes => {
                Rules { bonus: Bonus::TopFace, max_bonus: three, on_max: OnMax::Void, ..base }
            }
        }
    }
}

/// What a roll does to its turn under the bonus rules: see [`Rules::after_roll`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AfterRoll {
    /// The roll is moved and the turn ends (unless an effect gives another roll).
    End,
    /// The roll is moved and earns another roll in the same turn (a player who finishes rolls no
    /// more).
    Again,
    /// The roll is not moved and the whole turn is undone: the token goes back where the turn
    /// began.
    Void,
}

impl Rules {
    /// The rules of a named set.
    ///
    /// # Errors
    ///
    /// [`RulesError::UnknownValue`] naming `name` when it is not a rule set.
    pub fn named(name: &str) -> Result<Rules, RulesError> {
        Ok(name.parse::<RuleSet>()?.rules())
    }

    /// The dice actually thrown each roll: two dice of the same faces under [`Choice::PickDie`].
    pub fn thrown_dice(&self) -> Dice {
        match self.choice {
            Choice::PickDie => self.dice.pair(),
            _ => self.dice,
        }
    }

    /// The position every token starts on.
    pub fn start_position(&self) -> u32 {
        match self.start {
            Start::OffBoard => 0,
            Start::FirstCell => 1,
        }
    }

    /// What a roll does to its turn under the bonus rules (bonus, max-bonus, on-max), given the
    /// top-face rolls already made in the turn (`streak`) and whether this roll, as played, shows
    /// every top face. Returns the verdict and the streak after the roll.
    ///
    /// This is the one place the rule is decided: the game, the exact chains, the solver, the
    /// simulation kernels and the strategies all ask it.
    ///
    /// ```
    /// use snl_engine::{AfterRoll, Rules};
    /// let strict = Rules::named("strict-sixes")?; // bonus on a 6, at most 3 in a row, void
    /// assert_eq!(strict.after_roll(0, false), (AfterRoll::End, 0));
    /// assert_eq!(strict.after_roll(1, true), (AfterRoll::Again, 2));
    /// assert_eq!(strict.after_roll(2, true), (AfterRoll::Void, 3));
    /// # Ok::<_, snl_engine::RulesError>(())
    /// ```
    #[inline]
    pub fn after_roll(&self, streak: u32, top_face: bool) -> (AfterRoll, u32) {
        if self.bonus != Bonus::TopFace || !top_face {
            return (AfterRoll::End, streak);
        }
        let streak = streak + 1;
        let verdict = match (self.max_bonus.limit() == Some(streak), self.on_max) {
            (false, _) => AfterRoll::Again,
            (true, OnMax::Pass) => AfterRoll::End,
            (true, OnMax::Void) => AfterRoll::Void,
        };
        (verdict, streak)
    }

    /// Every distinct number of cells one roll may move a token (before the overshoot rule).
    pub fn step_values(&self) -> std::ops::RangeInclusive<u32> {
        match self.choice {
            Choice::PickDie => 1..=self.dice.faces(),
            _ => self.dice.totals(),
        }
    }

    /// Applies every option set in `spec`, leaving the others as they are.
    ///
    /// A `set` in the spec replaces all options first; the single options then override it.
    ///
    /// # Errors
    ///
    /// [`RulesError`] naming the first option whose value is not understood.
    pub fn apply(&mut self, spec: &RuleSpec) -> Result<(), RulesError> {
        if let Some(set) = &spec.set {
            // A rule set says how turns play, not how the game ends: the mode stays.
            *self = Rules { mode: self.mode, ..Rules::named(set)? };
        }
        if let Some(v) = &spec.start {
            self.start = v.parse()?;
        }
        if let Some(v) = &spec.dice {
            self.dice = v.parse()?;
        }
        if let Some(v) = &spec.overshoot {
            self.overshoot = v.parse()?;
        }
        if let Some(v) = &spec.jumps {
            self.jumps = v.parse()?;
        }
        if let Some(v) = &spec.bonus {
            self.bonus = v.parse()?;
        }
        if let Some(v) = spec.max_bonus {
            self.max_bonus = v;
        }
        if let Some(v) = &spec.on_max {
            self.on_max = v.parse()?;
        }
        if let Some(v) = &spec.finish {
            self.finish = v.parse()?;
        }
        if let Some(v) = &spec.choice {
            self.choice = v.parse()?;
        }
        self.apply_mode(spec.mode.as_deref(), spec.rounds)
    }

    /// `mode` and `rounds` as written: `race` needs rounds (given here or already in force),
    /// and rounds need race.
    fn apply_mode(&mut self, mode: Option<&str>, rounds: Option<u32>) -> Result<(), RulesError> {
        let rounds = match rounds {
            None => None,
            Some(k) => Some(NonZeroU32::new(k).ok_or(RulesError::Rounds {
                problem: "rounds 0 is not allowed: a race lasts 1 round or more".to_owned(),
            })?),
        };
        let race = match mode.map(str::trim) {
            None => !self.mode.is_classic(),
            Some("classic") => false,
            Some("race") => true,
            Some(other) => {
                return Err(RulesError::UnknownValue {
                    option: "mode",
                    value: other.to_owned(),
                    expected: "classic, race".to_owned(),
                });
            }
        };
        self.mode = match (
            race,
            rounds.or(match self.mode {
                Mode::Race { rounds } => Some(rounds),
                Mode::Classic => None,
            }),
        ) {
            (false, _) if rounds.is_some() => {
                return Err(RulesError::Rounds {
                    problem: format!(
                        "rounds {} only apply to mode race: add --mode race",
                        rounds.map_or(0, NonZeroU32::get)
                    ),
                });
            }
            (false, _) => Mode::Classic,
            (true, Some(rounds)) => Mode::Race { rounds },
            (true, None) => {
                return Err(RulesError::Rounds {
                    problem: "mode race needs the number of rounds: add --rounds K".to_owned(),
                });
            }
        };
        Ok(())
    }

    /// The options as a spec with every field set (for files and saves).
    pub fn to_spec(&self) -> RuleSpec {
        RuleSpec {
            set: None,
            start: Some(self.start.to_string()),
            dice: Some(self.dice.to_string()),
            overshoot: Some(self.overshoot.to_string()),
            jumps: Some(self.jumps.to_string()),
            bonus: Some(self.bonus.to_string()),
            max_bonus: Some(self.max_bonus),
            on_max: Some(self.on_max.to_string()),
            finish: Some(self.finish.to_string()),
            choice: Some(self.choice.to_string()),
            mode: self.mode.rounds().map(|_| self.mode.as_str().to_owned()),
            rounds: self.mode.rounds(),
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "start {}, dice {}, overshoot {}, jumps {}, bonus {}",
            self.start, self.dice, self.overshoot, self.jumps, self.bonus
        )?;
        if self.bonus == Bonus::TopFace {
            write!(f, " (max {}, on-max {})", self.max_bonus, self.on_max)?;
        }
        write!(f, ", finish {}, choice {}", self.finish, self.choice)?;
        if let Some(k) = self.mode.rounds() {
            write!(f, ", race of {k} round{}", if k == 1 { "" } else { "s" })?;
        }
        Ok(())
    }
}

/// Rule options as written in a file's `[rules]` table or on the command line: each may be absent.
/// Values stay text until [`Rules::apply`] checks them, so the error can name the value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct RuleSpec {
    /// A named rule set applied before the single options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<String>,
    /// `off-board` or `first-cell`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// `NdF`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
    /// `stay`, `bounce` or `win`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overshoot: Option<String>,
    /// `single` or `chain`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jumps: Option<String>,
    /// `none` or `top-face`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<String>,
    /// `unlimited` or K ≥ 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bonus: Option<MaxBonus>,
    /// `pass` or `void`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_max: Option<String>,
    /// `first` or `all`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish: Option<String>,
    /// `none`, `may-pass` or `pick-die`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<String>,
    /// `classic` or `race`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The rounds of a race.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
}

impl RuleSpec {
    /// True if and only if no option is set.
    pub fn is_empty(&self) -> bool {
        *self == RuleSpec::default()
    }
}

/// A rule option that could not be understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// A value outside the option's closed set.
    #[error("unknown {option} '{value}': expected one of {expected}")]
    UnknownValue {
        /// The option.
        option: &'static str,
        /// The value given.
        value: String,
        /// The accepted values.
        expected: String,
    },
    /// Bad dice.
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// Race mode without rounds, rounds without race mode, or rounds 0.
    #[error("{problem}")]
    Rounds {
        /// What is wrong, in words.
        problem: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_sets_match_the_spec() {
        let r = Rules::named("three-sixes").unwrap();
        assert_eq!(r.start, Start::FirstCell);
        assert_eq!(r.max_bonus.limit(), Some(3));
        assert_eq!((r.on_max, r.finish), (OnMax::Pass, Finish::All));
        let r = Rules::named("strict-sixes").unwrap();
        assert_eq!((r.bonus, r.on_max, r.finish), (Bonus::TopFace, OnMax::Void, Finish::First));
        assert_eq!(Rules::named("bonus-six").unwrap().max_bonus, MaxBonus::Unlimited);
        assert_eq!(Rules::named("standard").unwrap(), Rules::default());
    }

    #[test]
    fn unknown_names_are_named_in_the_error() {
        let e = Rules::named("snakes-only").unwrap_err().to_string();
        assert!(e.contains("'snakes-only'") && e.contains("strict-sixes"), "{e}");
        let e = "sideways".parse::<Overshoot>().unwrap_err().to_string();
        assert_eq!(e, "unknown overshoot 'sideways': expected one of stay, bounce, win");
        assert!("0".parse::<MaxBonus>().is_err());
    }

    #[test]
    fn single_options_override_a_set() {
        let mut r = Rules::default();
        let spec = RuleSpec {
            set: Some("three-sixes".into()),
            finish: Some("first".into()),
            ..RuleSpec::default()
        };
        r.apply(&spec).unwrap();
        assert_eq!((r.start, r.finish), (Start::FirstCell, Finish::First));
    }

    #[test]
    fn race_needs_rounds_and_rounds_need_race() {
        let spec = |mode: Option<&str>, rounds: Option<u32>| RuleSpec {
            mode: mode.map(str::to_owned),
            rounds,
            ..RuleSpec::default()
        };
        let mut r = Rules::default();
        r.apply(&spec(Some("race"), Some(5))).unwrap();
        assert_eq!(r.mode.rounds(), Some(5));
        assert!(r.to_string().ends_with(", race of 5 rounds"), "{r}");
        r.apply(&spec(None, Some(7))).unwrap();
        assert_eq!(r.mode.rounds(), Some(7));
        let e = Rules::default().apply(&spec(Some("race"), None)).unwrap_err().to_string();
        assert_eq!(e, "mode race needs the number of rounds: add --rounds K");
        let e = Rules::default().apply(&spec(None, Some(3))).unwrap_err().to_string();
        assert_eq!(e, "rounds 3 only apply to mode race: add --mode race");
        let e = Rules::default().apply(&spec(Some("race"), Some(0))).unwrap_err().to_string();
        assert!(e.starts_with("rounds 0 is not allowed"), "{e}");
        let e = Rules::default().apply(&spec(Some("sprint"), Some(3))).unwrap_err().to_string();
        assert_eq!(e, "unknown mode 'sprint': expected one of classic, race");
        let mut back = Rules::default();
        back.apply(&r.to_spec()).unwrap();
        assert_eq!(back, r);
        assert_eq!(Rules::default().to_spec().mode, None);
    }

    #[test]
    fn rules_round_trip_through_a_spec() {
        let r = Rules::named("strict-sixes").unwrap();
        let mut back = Rules::default();
        back.apply(&r.to_spec()).unwrap();
        assert_eq!(back, r);
    }
}
