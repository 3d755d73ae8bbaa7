//! The dice of a game where they stand, so that a saved game goes on with exactly the same rolls.

use serde::{Deserialize, Serialize};
use snl_engine::{
    Dice, ParseRollsError, Roll, RollError, RollSource, Rules, ScriptedDice, SeededDice,
};

/// Where a game's rolls come from, and how far along they are.
///
/// Seeded dice keep the whole generator state (ChaCha8's key, stream and position), not only the
/// seed: the next roll after a load is the roll that would have come without the break.
///
/// ```
/// use snl_engine::{Dice, RollSource};
/// use snl_store::DiceState;
/// let mut dice = DiceState::seeded(7);
/// dice.roll(0, Dice::D6)?;
/// let mut copy: DiceState = serde_json::from_str(&serde_json::to_string(&dice)?)?;
/// assert_eq!(copy.roll(1, Dice::D6)?, dice.roll(1, Dice::D6)?);
/// assert_eq!(copy.seed(), Some(7));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[expect(clippy::large_enum_variant, reason = "one per game, copied once per turn at most")]
pub enum DiceState {
    /// Fair dice from a seed.
    Seeded {
        /// The seed the game began with (to tell people; the generator is what rolls).
        seed: u64,
        /// The generator where it stands.
        generator: SeededDice,
    },
    /// Rolls given in advance (`--rolls`), and how many are used.
    Scripted(ScriptedDice),
}

impl DiceState {
    /// Fresh fair dice for `seed`.
    pub fn seeded(seed: u64) -> DiceState {
        DiceState::Seeded { seed, generator: SeededDice::new(seed) }
    }

    /// The seed, for seeded dice.
    pub fn seed(&self) -> Option<u64> {
        match self {
            DiceState::Seeded { seed, .. } => Some(*seed),
            DiceState::Scripted(_) => None,
        }
    }

    /// Checks dice read back from a file against the rules they will roll for.
    ///
    /// # Errors
    ///
    /// [`ParseRollsError`] naming a scripted roll the rules' dice cannot show.
    pub fn check(&self, rules: &Rules) -> Result<(), ParseRollsError> {
        match self {
            DiceState::Seeded { .. } => Ok(()),
            DiceState::Scripted(list) => list.check(rules.thrown_dice()),
        }
    }
}

impl RollSource for DiceState {
    fn roll(&mut self, seat: usize, dice: Dice) -> Result<Roll, RollError> {
        match self {
            DiceState::Seeded { generator, .. } => generator.roll(seat, dice),
            DiceState::Scripted(list) => list.roll(seat, dice),
        }
    }
}
