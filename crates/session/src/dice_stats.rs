//! Dice statistics, counted once for every front end: each seat's faces in a game from its
//! history ([`game_faces`]), and each player's faces over the games recorded in a database
//! ([`recorded_faces`], the newest [`HISTORY_GAMES`] at most). The test of the counts is
//! [`FaceCounts::test`]; its words are [`snl_words::dice_line`].
//!
//! ```
//! use snl_engine::{Board, Game, Preset, Rules, Seat, SeatKind};
//! use snl_session::dice_stats::game_faces;
//!
//! let rules = Rules::default();
//! let board = Board::new(&Preset::Classic.spec(), &rules)?;
//! let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Human)];
//! let game = Game::new(board, rules, seats)?;
//! let faces = game_faces(game.rules(), game.seats().len(), game.history());
//! assert_eq!(faces.len(), 2);
//! assert_eq!(faces[0].counts(), &[0, 0, 0, 0, 0, 0]);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;

use snl_analysis::fairness::FaceCounts;
use snl_engine::{MoveRecord, Rules};
use snl_store::{Database, DbError, DiceState, GameId};

/// Most recorded games a player's dice history reads: the newest this many that player played
/// (or, for everyone, the newest this many games).
pub const HISTORY_GAMES: usize = 1_000;

/// How the bound is said, after "over": the same words in every front end.
pub const HISTORY_BOUND: &str = "the newest 1,000 recorded games";

/// Games read from the database at once while looking for a player's.
const PAGE: usize = 250;

/// Each seat's faces in a game, from its history (each roll's dice, by the seat that rolled),
/// for a game of `seats` seats under `rules`. Faces the die does not have are not counted.
pub fn game_faces(rules: &Rules, seats: usize, history: &[MoveRecord]) -> Vec<FaceCounts> {
    let faces = die_faces(rules);
    let mut counts = vec![FaceCounts::new(faces); seats];
    for m in history {
        if let Some(seat) = counts.get_mut(m.seat) {
            for &face in m.roll.dice() {
                seat.add(face);
            }
        }
    }
    counts
}

/// The faces of the die the game throws under `rules`.
pub fn die_faces(rules: &Rules) -> u8 {
    u8::try_from(rules.thrown_dice().faces()).unwrap_or(u8::MAX)
}

/// One player's faces of one kind of die over recorded games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// The player's name.
    pub player: String,
    /// Each face's count.
    pub counts: FaceCounts,
}

/// Players' faces over recorded games with seeded dice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    /// By player, then by the die's faces.
    pub tallies: Vec<Tally>,
    /// The games read (at most [`HISTORY_GAMES`]).
    pub games: usize,
    /// Of those, the games whose rolls were given by hand (`--rolls`), not counted.
    pub skipped: usize,
}

impl Recorded {
    /// `player`'s faces of a die of `faces` faces, if any were recorded.
    pub fn of(&self, player: &str, faces: u8) -> Option<&FaceCounts> {
        self.tallies
            .iter()
            .find(|t| t.player == player && t.counts.faces() == faces)
            .map(|t| &t.counts)
    }
}

/// Each player's faces (or `player`'s alone) over the newest [`HISTORY_GAMES`] recorded games
/// (that `player` played, when given) whose dice were seeded; games whose rolls were given by
/// hand are read but not counted; game `except` (the one being played, recorded as it goes) is
/// left out.
///
/// # Errors
///
/// Whatever the database reports reading a game.
pub fn recorded_faces(
    db: &Database,
    player: Option<&str>,
    except: Option<GameId>,
) -> Result<Recorded, DbError> {
    let mut tallies: BTreeMap<(String, u8), FaceCounts> = BTreeMap::new();
    let mut recorded = Recorded::default();
    let mut before: Option<GameId> = None;
    'pages: loop {
        let page = db.games_page(before, PAGE)?;
        for game in &page {
            if recorded.games == HISTORY_GAMES {
                break 'pages;
            }
            if Some(game.id) == except
                || player.is_some_and(|p| !game.seats.iter().any(|s| s.name == p))
            {
                continue;
            }
            recorded.games += 1;
            let save = db.load(game.id)?;
            if !matches!(save.dice, DiceState::Seeded { .. }) {
                recorded.skipped += 1;
                continue;
            }
            let state = &save.game;
            let faces = die_faces(&state.rules);
            let counts = game_faces(&state.rules, state.seats.len(), &state.history);
            for (seat, counts) in state.seats.iter().zip(counts) {
                if player.is_some_and(|p| p != seat.name) || counts.counts().iter().all(|&c| c == 0)
                {
                    continue;
                }
                tallies
                    .entry((seat.name.clone(), faces))
                    .or_insert_with(|| FaceCounts::new(faces))
                    .merge(&counts);
            }
        }
        match page.last() {
            Some(last) if page.len() == PAGE => before = Some(last.id),
            _ => break,
        }
    }
    recorded.tallies =
        tallies.into_iter().map(|((player, _), counts)| Tally { player, counts }).collect();
    Ok(recorded)
}
