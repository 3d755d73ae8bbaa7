//! The dice of a game where they stand, so that a saved game goes on with exactly the same rolls.

use serde::{Deserialize, Serialize};
use snl_engine::{
    Dice, GameState, ParseRollsError, Roll, RollError, RollMismatch, RollSource, Rules,
    ScriptedDice, SeededDice, check_rolls,
};

/// The material an online room's seed comes from (docs/fairness.md, "Online rooms"): the
/// commitment published before any roll, each seat's own seed in seating order (empty when
/// none), and the secret once revealed. `snl_session::fairness` derives and checks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomDice {
    /// SHA-256 of the secret, lowercase hex.
    pub commitment: String,
    /// Each seat's own seed, in seating order.
    pub seat_seeds: Vec<String>,
    /// The secret, lowercase hex (32 bytes).
    pub secret: String,
}

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
        /// How an online room drew `seed` (commit–reveal, docs/fairness.md); none for a local
        /// game, whose seed is its own proof.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<RoomDice>,
    },
    /// Rolls given in advance (`--rolls`), and how many are used.
    Scripted(ScriptedDice),
}

impl DiceState {
    /// Fresh fair dice for `seed`.
    pub fn seeded(seed: u64) -> DiceState {
        DiceState::Seeded { seed, generator: SeededDice::new(seed), room: None }
    }

    /// Fresh fair dice for `seed`, drawn by an online room as `room` tells.
    pub fn of_room(seed: u64, room: RoomDice) -> DiceState {
        DiceState::Seeded { seed, generator: SeededDice::new(seed), room: Some(room) }
    }

    /// How an online room drew the seed, for its seeded dice.
    pub fn room(&self) -> Option<&RoomDice> {
        match self {
            DiceState::Seeded { room, .. } => room.as_ref(),
            DiceState::Scripted(_) => None,
        }
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

impl DiceState {
    /// Checks that these dice are where the game's history leaves them, so a saved game goes on
    /// with exactly the rolls it would have had: seeded dice must be the seed's generator (key and
    /// stream), give every roll of the history in turn, and stand where those draws leave it;
    /// scripted dice must have given the history's rolls, and as many as it has.
    ///
    /// # Errors
    ///
    /// A sentence naming the first thing that disagrees.
    pub fn agrees_with(&self, state: &GameState) -> Result<(), String> {
        let dice = state.rules.thrown_dice();
        let rolls = state.history.len();
        match self {
            DiceState::Seeded { seed, generator, .. } => {
                let mut fresh = SeededDice::new(*seed);
                let (saved, derived) = (Parts::of(generator), Parts::of(&fresh));
                if saved.key != derived.key {
                    return Err(format!("its generator's key is not the one seed {seed} gives"));
                }
                if saved.stream != derived.stream {
                    return Err(format!(
                        "its generator's stream is {}, but seed {seed} gives stream {}",
                        saved.stream, derived.stream
                    ));
                }
                replay_source(&mut fresh, state, &format!("seed {seed}"))?;
                if fresh != *generator {
                    return Err(format!(
                        "its generator stands at word {}, but seed {seed} after the history's \
                         {rolls} rolls stands at word {}",
                        saved.position,
                        Parts::of(&fresh).position
                    ));
                }
            }
            DiceState::Scripted(list) => {
                let mut fresh = ScriptedDice::new(list.rolls().to_vec());
                if state.board.cells.is_empty() {
                    if list.used() != rolls {
                        return Err(format!(
                            "{} scripted rolls are marked used, but the history has {rolls} rolls",
                            list.used()
                        ));
                    }
                    for (i, m) in state.history.iter().enumerate() {
                        let roll = fresh.roll(m.seat, dice).map_err(|e| e.to_string())?;
                        if roll != m.roll {
                            return Err(format!(
                                "scripted roll {} is {roll:?}, but move {} of the history has {:?}",
                                i + 1,
                                i + 1,
                                m.roll
                            ));
                        }
                    }
                } else {
                    // Wormhole draws are items of the list too (`w2`).
                    replay_source(&mut fresh, state, "the scripted list")?;
                    if list.used() != fresh.used() {
                        return Err(format!(
                            "{} scripted items are marked used, but the history used {}",
                            list.used(),
                            fresh.used()
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// A seeded generator's key, stream and position (in 32-bit words drawn), as its serde form
/// shows them (`rand_chacha` keeps them private otherwise).
struct Parts {
    key: serde_json::Value,
    stream: serde_json::Value,
    position: serde_json::Value,
}

impl Parts {
    fn of(generator: &SeededDice) -> Parts {
        let value = serde_json::to_value(generator).unwrap_or_default();
        let rng = &value["rng"];
        Parts {
            key: rng["seed"].clone(),
            stream: rng["stream"].clone(),
            position: rng["word_pos"].clone(),
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

    fn draw(&mut self, seat: usize, count: u32) -> Result<u32, RollError> {
        match self {
            DiceState::Seeded { generator, .. } => generator.draw(seat, count),
            DiceState::Scripted(list) => list.draw(seat, count),
        }
    }
}

/// Gives every roll and wormhole draw of a history, in order, from `source` ([`check_rolls`]),
/// and says where one differs from the history's: `what` names the source in the sentence.
fn replay_source(
    source: &mut impl RollSource,
    state: &GameState,
    what: &str,
) -> Result<(), String> {
    match check_rolls(&state.board, &state.rules, &state.history, source) {
        Ok(_) => Ok(()),
        Err(e @ (RollMismatch::Roll { .. } | RollMismatch::Draw { .. })) => {
            Err(format!("{what} {e}"))
        }
        Err(e) => Err(e.to_string()),
    }
}
