//! `GET /api/rooms/{room}/dice`: each seat's faces in the room's game and over its player's
//! recorded games in the server's database, each against even chances (Pearson's chi-square,
//! its p-value and the verdict in words). The counting is [`snl_session::dice_stats`], the test
//! [`FaceCounts::test`], the words [`snl_words::dice_line`]: the same as `snl stats --dice` and
//! the full-screen game. A player's history is read on the blocking pool through a read-only
//! connection of its own, and kept until a newer game of that player's is recorded.

use std::{
    collections::HashMap,
    path::PathBuf,
    sync::{Arc, Mutex, PoisonError},
};

use snl_analysis::fairness::FaceCounts;
use snl_session::dice_stats::{HISTORY_BOUND, Recorded, die_faces, game_faces, recorded_faces};
use snl_store::{Database, DbError};
use snl_wire::api::{DiceAnswer, DiceSeat, DiceTest};

use crate::room::Room;

/// Players whose histories are kept; past it all are dropped.
const KEPT_PLAYERS: usize = 4_096;

/// A player's history, with the newest game of theirs when it was read.
type Kept = (Option<i64>, Arc<Recorded>);

/// A room's faces, taken from the room by its task.
#[derive(Clone, Debug)]
pub(crate) struct RoomFaces {
    seq: u64,
    faces: u8,
    names: Vec<Option<String>>,
    game: Vec<FaceCounts>,
}

/// The faces of `room`'s game after event `seq`, seat by seat.
pub(crate) fn room_faces(room: &Room, seq: u64) -> RoomFaces {
    let faces = die_faces(&room.setup.rules);
    let game = match room.session().map(snl_session::Session::game) {
        Some(game) => game_faces(game.rules(), game.seats().len(), game.history()),
        None => vec![FaceCounts::new(faces); room.setup.seats.len()],
    };
    RoomFaces { seq, faces, names: room.names().to_vec(), game }
}

/// The server's reader of players' dice histories.
#[derive(Debug)]
pub(crate) struct Histories {
    path: PathBuf,
    db: Mutex<Option<Database>>,
    /// Each player's history, with the newest game of theirs when it was read.
    kept: Mutex<HashMap<String, Kept>>,
}

impl Histories {
    pub(crate) fn new(path: PathBuf) -> Histories {
        Histories { path, db: Mutex::new(None), kept: Mutex::default() }
    }

    /// `player`'s faces over the recorded games (blocking).
    fn of(&self, player: &str) -> Result<Arc<Recorded>, DbError> {
        let mut db = self.db.lock().unwrap_or_else(PoisonError::into_inner);
        if db.is_none() {
            *db = Some(Database::open_existing(&self.path)?);
        }
        let db = db.as_ref().expect("opened above");
        // A player's history changes only with a new game of theirs.
        let newest = db.newest_game_of(player)?.map(|id| id.0);
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((at, recorded)) = kept.get(player)
            && *at == newest
        {
            return Ok(recorded.clone());
        }
        let recorded = Arc::new(recorded_faces(db, Some(player), None)?);
        if kept.len() >= KEPT_PLAYERS {
            kept.clear();
        }
        kept.insert(player.to_owned(), (newest, recorded.clone()));
        Ok(recorded)
    }

    /// The answer for `room` from its faces (blocking): a history that cannot be read is said
    /// in `history_over`, its seats' histories empty.
    pub(crate) fn answer(&self, room: &str, faces: &RoomFaces) -> DiceAnswer {
        let mut history_over = format!("{HISTORY_BOUND} each player played");
        let mut seats = Vec::with_capacity(faces.game.len());
        for (seat, (name, game)) in faces.names.iter().zip(&faces.game).enumerate() {
            let (counts, history_games) = match name.as_deref().map(|n| self.of(n)) {
                Some(Ok(recorded)) => (
                    recorded.of(name.as_deref().unwrap_or_default(), faces.faces).cloned(),
                    recorded.games,
                ),
                Some(Err(e)) => {
                    history_over = format!("no recorded history: the game database {e}");
                    (None, 0)
                }
                None => (None, 0),
            };
            let history = counts.unwrap_or_else(|| FaceCounts::new(faces.faces));
            seats.push(DiceSeat {
                seat,
                name: name.clone(),
                game: dice_test(game),
                history: dice_test(&history),
                history_games,
            });
        }
        DiceAnswer {
            room: room.to_owned(),
            seq: faces.seq,
            faces: faces.faces,
            history_over,
            seats,
        }
    }
}

/// `counts` and their test, with its words.
pub(crate) fn dice_test(counts: &FaceCounts) -> DiceTest {
    let test = counts.test();
    DiceTest {
        counts: counts.counts().to_vec(),
        throws: test.throws,
        expected: test.expected,
        chi_square: test.chi_square,
        p_value: test.p_value,
        p_text: snl_words::p_text(test.p_value),
        verdict: snl_words::dice_verdict(test.p_value).to_owned(),
        text: snl_words::dice_line(counts.counts(), test.expected, test.p_value),
    }
}
