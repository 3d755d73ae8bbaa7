//! Save files: one game as versioned JSON — board, rules, seats, positions, history and the dice
//! generator's exact state — written atomically and read back through one checked door.

use std::{fs, io, path::Path};

use serde::{Deserialize, Serialize};
use snl_engine::{Game, GameState, ParseRollsError, RestoreError};

use crate::{atomic::write_atomically, dice::DiceState};

/// What the `format` field of every save file says.
pub const SAVE_FORMAT: &str = "snl-save";

/// The save format this build writes, and the newest it reads.
pub const SAVE_VERSION: u32 = 1;

/// One game as plain data, ready to be written or just read. Not necessarily valid:
/// [`Save::restore`] is the door to a playable [`Game`].
///
/// ```
/// use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind};
/// use snl_store::{DiceState, Save};
///
/// let rules = Rules::default();
/// let board = Board::new(&Preset::Classic.spec(), &rules)?;
/// let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
/// let mut game = Game::new(board, rules, seats)?;
/// let mut dice = DiceState::seeded(3);
/// game.play_turn(&mut dice, &mut FirstOption, &mut ())?;
///
/// let text = Save::new(&game, &dice, "classic").to_json();
/// let back = Save::from_json(text.as_bytes())?;
/// assert_eq!(back.restore()?.positions(), game.positions());
/// assert_eq!(back.dice, dice);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Save {
    /// What the board was called when the game began (`classic`, a file name), for people.
    pub board_name: String,
    /// The game.
    pub game: GameState,
    /// The dice, where they stand.
    pub dice: DiceState,
}

/// The file's JSON shape: [`Save`] with the format name and version first.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    format: String,
    version: u32,
    board_name: String,
    game: GameState,
    dice: DiceState,
}

/// Why a save file could not be read or used. Messages complete the sentence "cannot load the
/// save file NAME: …".
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The file could not be read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// Not JSON: cut short or damaged.
    #[error("it is cut short or damaged ({0})")]
    Corrupt(String),
    /// JSON, but not an snl save.
    #[error("it is not an snl save file (no \"format\": \"{SAVE_FORMAT}\")")]
    NotASave,
    /// Written by a newer snl.
    #[error(
        "it was written by a newer snl (save format {found}, this snl reads up to {supported}): \
         upgrade snl to load it"
    )]
    Newer {
        /// The file's version.
        found: u64,
        /// [`SAVE_VERSION`].
        supported: u32,
    },
    /// A save, but a field is missing, unknown or has an unknown value (an unknown rule).
    #[error("{0}")]
    Shape(String),
    /// Well formed, but not a game that could have been played.
    #[error("the game in it does not add up: {0}")]
    Invalid(#[from] RestoreError),
    /// Scripted dice that the game's rules cannot throw.
    #[error("its scripted rolls do not fit the rules: {0}")]
    Dice(#[from] ParseRollsError),
}

impl Save {
    /// The save of `game` with its `dice`.
    pub fn new(game: &Game, dice: &DiceState, board_name: &str) -> Save {
        Save { board_name: board_name.to_owned(), game: game.state(), dice: dice.clone() }
    }

    /// The file's text: pretty JSON, format and version first.
    ///
    /// # Panics
    ///
    /// Never: every save has a JSON form.
    pub fn to_json(&self) -> String {
        let wire = Wire {
            format: SAVE_FORMAT.to_owned(),
            version: SAVE_VERSION,
            board_name: self.board_name.clone(),
            game: self.game.clone(),
            dice: self.dice.clone(),
        };
        let mut text = serde_json::to_string_pretty(&wire).expect("a save is always JSON");
        text.push('\n');
        text
    }

    /// Reads a file's text, checking its format and version before its shape, so that a file
    /// from a newer snl is refused as such. The game is not checked yet: see [`Save::restore`].
    ///
    /// # Errors
    ///
    /// [`SaveError::Corrupt`], [`SaveError::NotASave`], [`SaveError::Newer`] or
    /// [`SaveError::Shape`].
    pub fn from_json(bytes: &[u8]) -> Result<Save, SaveError> {
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| SaveError::Corrupt(e.to_string()))?;
        if value.get("format").and_then(serde_json::Value::as_str) != Some(SAVE_FORMAT) {
            return Err(SaveError::NotASave);
        }
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(found) if found > u64::from(SAVE_VERSION) => {
                return Err(SaveError::Newer { found, supported: SAVE_VERSION });
            }
            Some(1..) => {}
            _ => return Err(SaveError::Shape("its \"version\" is not a format number".into())),
        }
        let wire: Wire =
            serde_json::from_value(value).map_err(|e| SaveError::Shape(e.to_string()))?;
        Ok(Save { board_name: wire.board_name, game: wire.game, dice: wire.dice })
    }

    /// Reads the save file at `path` (see [`Save::from_json`]).
    ///
    /// # Errors
    ///
    /// [`SaveError::Io`] when it cannot be read, else as [`Save::from_json`].
    pub fn read(path: &Path) -> Result<Save, SaveError> {
        Save::from_json(&fs::read(path)?)
    }

    /// Writes the save to `path` atomically: a crash leaves the old file or the new one.
    ///
    /// # Errors
    ///
    /// Any I/O error; the file at `path` is then as it was.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        write_atomically(path, self.to_json().as_bytes())
    }

    /// The game, checked: board, rules and seats as a new game would be, the history replayed to
    /// give exactly the saved positions, ranking and turn (see [`Game::restore`]), and scripted
    /// dice that the rules can throw.
    ///
    /// # Errors
    ///
    /// [`SaveError::Invalid`] or [`SaveError::Dice`] naming the first problem.
    pub fn restore(&self) -> Result<Game, SaveError> {
        let game = Game::restore(&self.game)?;
        self.dice.check(game.rules())?;
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use snl_engine::{Board, FirstOption, Preset, Rules, ScriptedDice, Seat, SeatKind};

    use super::*;

    fn played(turns: usize) -> (Game, DiceState) {
        let rules = Rules::named("bonus-six").unwrap();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Hard)];
        let mut game = Game::new(board, rules, seats).unwrap();
        let mut dice = DiceState::seeded(21);
        for _ in 0..turns {
            game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
        }
        (game, dice)
    }

    fn save_text(turns: usize) -> String {
        let (game, dice) = played(turns);
        Save::new(&game, &dice, "classic").to_json()
    }

    fn refused(text: &str) -> String {
        match Save::from_json(text.as_bytes()).and_then(|s| s.restore().map(|_| s)) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_save_goes_on_with_the_same_rolls_as_the_game_would() {
        let (mut game, mut dice) = played(7);
        let back =
            Save::from_json(Save::new(&game, &dice, "classic").to_json().as_bytes()).unwrap();
        let (mut restored, mut restored_dice) = (back.restore().unwrap(), back.dice.clone());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        game.play_to_end(&mut dice, &mut FirstOption, &mut a).unwrap();
        restored.play_to_end(&mut restored_dice, &mut FirstOption, &mut b).unwrap();
        assert_eq!(a, b);
        assert_eq!(restored.state(), game.state());
    }

    #[test]
    fn the_file_names_its_format_and_version_first() {
        let text = save_text(2);
        assert!(text.starts_with("{\n  \"format\": \"snl-save\",\n  \"version\": 1,\n"), "{text}");
        assert!(text.contains("\"generator\""), "{text}");
    }

    #[test]
    fn a_truncated_file_is_cut_short() {
        let text = save_text(3);
        let e = refused(&text[..text.len() / 2]);
        assert!(e.starts_with("it is cut short or damaged (EOF while parsing"), "{e}");
    }

    #[test]
    fn a_newer_format_is_refused_by_version_before_anything_else() {
        let text = save_text(1).replace("\"version\": 1", "\"version\": 9");
        let text = text.replace("\"board_name\"", "\"something_new\": true,\n  \"board_name\"");
        assert_eq!(
            refused(&text),
            "it was written by a newer snl (save format 9, this snl reads up to 1): upgrade snl to load it"
        );
    }

    #[test]
    fn other_json_is_not_a_save() {
        assert!(refused("{\"size\": 100}").starts_with("it is not an snl save file"));
        assert!(refused("[1, 2]").starts_with("it is not an snl save file"));
    }

    #[test]
    fn an_unknown_rule_is_named() {
        let text = save_text(2).replace("\"overshoot\": \"stay\"", "\"overshoot\": \"sideways\"");
        assert_eq!(
            refused(&text),
            "unknown overshoot 'sideways': expected one of stay, bounce, win"
        );
    }

    #[test]
    fn an_inconsistent_position_is_named() {
        let (game, dice) = played(4);
        let mut save = Save::new(&game, &dice, "classic");
        save.game.positions[1] = 99;
        let e = refused(&save.to_json());
        assert!(
            e.starts_with("the game in it does not add up: the saved position of Bob is 99"),
            "{e}"
        );
    }

    #[test]
    fn scripted_rolls_the_rules_cannot_throw_are_refused() {
        let (game, _) = played(0);
        let dice = DiceState::Scripted(ScriptedDice::new(vec![snl_engine::Scripted::Total(9)]));
        let e = refused(&Save::new(&game, &dice, "classic").to_json());
        assert!(e.starts_with("its scripted rolls do not fit the rules: roll '9'"), "{e}");
    }
}
