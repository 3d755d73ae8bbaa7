//! The full-screen game's dice panel (`d`): each seat's faces this game, counted from the game's
//! history, and over its player's recorded games in the database the game records into, each
//! against even chances — the counting of [`snl_session::dice_stats`], the test of
//! [`FaceCounts::test`] and the words of [`snl_words::dice_line`], as `snl stats --dice` and the
//! room page show them.

use snl_analysis::fairness::FaceCounts;
use snl_session::dice_stats::{HISTORY_BOUND, die_faces, game_faces, recorded_faces};
use snl_store::Database;

use crate::app::{App, DiceHistory};

/// The histories of `app`'s players, from the database its game records into (blocking: read
/// once, when the panel opens).
pub(crate) fn history(app: &App) -> DiceHistory {
    let game = app.session.game();
    let nothing = |over: String| DiceHistory { seats: vec![None; game.seats().len()], over };
    if app.mode.room().is_some() {
        return nothing("No recorded history on this screen: the room's page shows it.".into());
    }
    if app.mode.replay().is_some() {
        return nothing(
            "In a replay, this game up to here; snl stats --dice counts each player's history."
                .into(),
        );
    }
    let Some(path) = &app.kept.db else {
        return nothing("No recorded history: this game is recorded nowhere.".into());
    };
    let db = match Database::open_existing(path) {
        Ok(db) => db,
        Err(e) => return nothing(format!("No recorded history: the game database {e}.")),
    };
    let faces = die_faces(game.rules());
    let mut seats = Vec::with_capacity(game.seats().len());
    for seat in game.seats() {
        match recorded_faces(&db, Some(&seat.name), app.kept.game_id) {
            Ok(recorded) => {
                let counts =
                    recorded.of(&seat.name, faces).cloned().unwrap_or(FaceCounts::new(faces));
                seats.push(Some((counts, recorded.games)));
            }
            Err(e) => return nothing(format!("No recorded history: the game database {e}.")),
        }
    }
    DiceHistory {
        seats,
        over: format!("DiceHistory: over {HISTORY_BOUND} each player played, this game left out."),
    }
}

/// One seat's two lines in words: this game, and its player's history.
pub(crate) fn seat_lines(app: &App, history: &DiceHistory) -> Vec<(String, String)> {
    let game = app.session.game();
    let now = game_faces(game.rules(), game.seats().len(), game.history());
    now.iter()
        .zip(&history.seats)
        .map(|(counts, recorded)| {
            let this = line(counts);
            let before = match recorded {
                Some((_, 0)) => "no recorded game".to_owned(),
                Some((counts, games)) => {
                    let word = if *games == 1 { "game" } else { "games" };
                    format!("{games} recorded {word}: {}", line(counts))
                }
                None => "no recorded history".to_owned(),
            };
            (this, before)
        })
        .collect()
}

fn line(counts: &FaceCounts) -> String {
    let test = counts.test();
    snl_words::dice_line(counts.counts(), test.expected, test.p_value)
}
