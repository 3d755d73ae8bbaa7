//! Recording that costs the same at turn 10,000 as at turn 10: a turn appends its new moves and
//! its log line, and rewrites only the game's small *head* (positions, ranking, whose turn, the
//! dice where they stand) — never the history or the whole save. `load` puts the game back
//! together from the save written when the game began (board, rules, seats, the dice as they
//! began), the `moves` rows and the head.

use std::borrow::Cow;

use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};
use serde::Serialize;
use snl_engine::{Game, GameState, Numbered, Status};

use super::{
    Action, Database, DbError, GameId, GameStatus,
    query::bad,
    runs::{SeatRow, int, write_moves_and_seats},
    write::{log_at, next_seq},
};
use crate::{
    dice::DiceState,
    head::{Head, HeadDice},
    save::Save,
};

/// One line of a game's log, ready to be written: what was done, the turns played after it, its
/// events and when.
#[derive(Clone, Debug)]
pub struct Logged {
    action: Action,
    turns: u32,
    /// A JSON array, written as `serde_json` writes it (so UTF-8).
    events: Option<Vec<u8>>,
    at_ms: u64,
}

impl Logged {
    /// The line for `action`, after which the game had played `turns` turns.
    ///
    /// The events are kept numbered (`{"seq": 7, "type": "moved", …}`): the session's numbers,
    /// as `--events jsonl` and the network give them.
    pub fn new<P: Serialize>(
        action: Action,
        turns: u32,
        events: &[Numbered<P>],
        at_ms: u64,
    ) -> Logged {
        let mut line = Logged { action, turns, events: None, at_ms };
        add_events(&mut line.events, events);
        line
    }

    /// Adds a further turn to this line when it is a `turn` line (turns played one after
    /// another are one line of the log: the events of them all, the turn count and time of the
    /// last); false, and nothing added, for any other line.
    pub fn add_turn<P: Serialize>(
        &mut self,
        turns: u32,
        events: &[Numbered<P>],
        at_ms: u64,
    ) -> bool {
        if self.action != Action::Turn {
            return false;
        }
        self.turns = turns;
        self.at_ms = at_ms;
        add_events(&mut self.events, events);
        true
    }

    /// Whether this is a `turn` line.
    pub fn is_turn(&self) -> bool {
        self.action == Action::Turn
    }
}

/// Appends `events` to the JSON array `all` (none yet: `None`).
fn add_events<P: Serialize>(all: &mut Option<Vec<u8>>, events: &[Numbered<P>]) {
    if events.is_empty() {
        return;
    }
    let text = all.get_or_insert_with(|| b"[]".to_vec());
    text.pop();
    for event in events {
        if text.len() > 1 {
            text.push(b',');
        }
        serde_json::to_writer(&mut *text, event).expect("events are always JSON");
    }
    text.push(b']');
}

/// `lines` with each stretch of turn lines made one line: the events of them all, in order, the
/// turn count and time of the last. Lines are copied only where they are joined.
fn merged(lines: &[Logged]) -> Vec<Cow<'_, Logged>> {
    let mut out: Vec<Cow<'_, Logged>> = Vec::with_capacity(1);
    for line in lines {
        match out.last_mut() {
            Some(last) if last.is_turn() && line.is_turn() => {
                let last = last.to_mut();
                last.turns = line.turns;
                last.at_ms = line.at_ms;
                if let Some(more) = &line.events {
                    let all = last.events.get_or_insert_with(|| b"[]".to_vec());
                    all.pop();
                    if all.len() > 1 {
                        all.push(b',');
                    }
                    all.extend_from_slice(&more[1..]);
                }
            }
            _ => out.push(Cow::Borrowed(line)),
        }
    }
    out
}

impl Database {
    /// Records what was just done to game `id` — a turn played, an undo, a redo, a resume — as
    /// the game now stands: the moves added since the last record (or, after an undo, the moves
    /// taken back), the seats, the head and the log line, in one transaction. The cost is that
    /// of what changed, whatever the game's length. `events` are the action's events as the
    /// session numbered them (the line's), and `seq` the number of the last event told.
    ///
    /// When this fails the game is marked [`GameStatus::Incomplete`] if the database lets that
    /// mark be written.
    ///
    /// # Errors
    ///
    /// [`DbError::Locked`], [`DbError::ReadOnly`], and whatever SQLite reports.
    pub fn record_turn(
        &mut self,
        id: GameId,
        line: &Logged,
        game: &Game,
        dice: &DiceState,
        seq: u64,
        now_ms: u64,
    ) -> Result<(), DbError> {
        self.record_turns(id, game, dice, seq, std::slice::from_ref(line), now_ms)
    }

    /// As [`Database::record_turn`] for several actions at once (recorded as one transaction):
    /// `log_lines` holds each action's line, and `game` and `dice` are where they left the game.
    /// Turns played one after another are one line of the log (a `turn` line with the events of
    /// them all, and the turn count after the last), so that a write adds one log row.
    ///
    /// # Errors
    ///
    /// As [`Database::record_turn`].
    ///
    /// # Panics
    ///
    /// Never: a head always has a JSON form, and JSON is written as UTF-8.
    pub fn record_turns(
        &mut self,
        id: GameId,
        game: &Game,
        dice: &DiceState,
        seq: u64,
        log_lines: &[Logged],
        now_ms: u64,
    ) -> Result<(), DbError> {
        let head =
            serde_json::to_string(&Head::of(game, dice, seq)).expect("a head is always JSON");
        let lines = merged(log_lines);
        let recorded = self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            write_progress(&tx, id, game, &head, now_ms)?;
            let first = next_seq(&tx, id)?;
            for (seq, line) in (first..).zip(&lines) {
                let events = line.events.as_deref().map(std::str::from_utf8).transpose();
                let events = events.expect("serde_json writes UTF-8");
                let action = line.action.as_str();
                log_at(&tx, id, seq, action, line.turns, line.at_ms, events)?;
            }
            tx.commit()
        });
        if recorded.is_err() {
            let _ = self.mark_incomplete(id, now_ms);
        }
        recorded
    }

    /// Puts game `id` back together from its start, its moves and its head; `None` when the game
    /// has no head (it was recorded whole, as before this form: its save holds everything).
    pub(super) fn load_progress(&self, id: GameId, base: &Save) -> Result<Option<Save>, DbError> {
        let head: Option<String> = self
            .conn
            .query_row("SELECT head FROM games WHERE id = ?1", [id.0], |r| r.get(0))
            .optional()?
            .flatten();
        let Some(head) = head else { return Ok(None) };
        let head: Head = serde_json::from_str(&head)
            .map_err(|e| bad(id, "games row", format!("has a head that cannot be read ({e})")))?;
        let dice = match (head.dice, &base.dice) {
            (HeadDice::Seeded { generator }, DiceState::Seeded { seed, room, .. }) => {
                DiceState::Seeded { seed: *seed, generator, room: room.clone() }
            }
            (HeadDice::Scripted { used }, DiceState::Scripted(list)) => {
                let mut list = list.clone();
                if used > list.rolls().len() {
                    return Err(bad(
                        id,
                        "games row",
                        format!(
                            "says {used} scripted rolls were used, but it has only {}",
                            list.rolls().len()
                        ),
                    ));
                }
                list.rewind_to(used);
                DiceState::Scripted(list)
            }
            _ => return Err(bad(id, "games row", "has dice of another kind than its start")),
        };
        let game = GameState {
            history: self.stored_history(id)?,
            status: head.status,
            turns: head.turns,
            current: head.current,
            seat_states: head.seat_states,
            ranking: head.ranking,
            pending_roll: head.pending_roll,
            time_up: head.time_up,
            timed_out: head.timed_out,
            ..base.game.clone()
        };
        Ok(Some(Save { board_name: base.board_name.clone(), game, dice, seq: head.seq }))
    }
}

/// Brings game `id`'s rows in line with `game`, touching only what changed: runs of moves past
/// the history are deleted (taken back), missing moves added as one run; the seats and the games
/// row updated.
fn write_progress(
    tx: &Transaction<'_>,
    id: GameId,
    game: &Game,
    head: &str,
    now_ms: u64,
) -> rusqlite::Result<()> {
    let finished = game.status() == Status::Finished;
    let status = if finished { GameStatus::Finished } else { GameStatus::Playing };
    let winner =
        finished.then(|| game.ranking().first().map(|&s| game.seats()[s].name.clone())).flatten();
    let changed = tx
        .prepare_cached(
            "UPDATE games SET updated_ms = ?2, status = ?3, turns = ?4, winner = ?5, head = ?6
         WHERE id = ?1",
        )?
        .execute(params![id.0, int(now_ms), status.as_str(), game.turns(), winner, head])?;
    if changed == 0 {
        return Err(rusqlite::Error::QueryReturnedNoRows);
    }
    let size = game.board().size();
    let seats: Vec<SeatRow> = game.seat_states().iter().map(|s| SeatRow::of(s, size)).collect();
    let wormholes: Vec<u32> = game
        .board()
        .effects()
        .iter()
        .filter(|e| !e.effect.exits().is_empty())
        .map(|e| e.at)
        .collect();
    write_moves_and_seats(tx, id, game.history(), &wormholes, &seats)
}

/// The head `record_turns` wrote for `game` before the number of the last event was kept (tests
/// write schema-3 rows with it).
#[cfg(test)]
pub(super) fn head_text(game: &Game, dice: &DiceState) -> String {
    let head = Head { seq: None, ..Head::of(game, dice, 0) };
    serde_json::to_string(&head).expect("a head is always JSON")
}
