//! A room's standing: what the odds are worked out from, taken from the room by its task.

use snl_analysis::exact;
use snl_engine::{BoardSpec, Rules};

use crate::room::Room;

/// What the odds are worked out from: taken from a room by its task, cheap to copy.
#[derive(Clone, Debug)]
pub(crate) struct Standing {
    pub(crate) seq: u64,
    pub(crate) board: BoardSpec,
    pub(crate) rules: Rules,
    pub(crate) names: Vec<Option<String>>,
    /// Where each token stands.
    pub(crate) positions: Vec<u32>,
    /// Where each seat still playing begins its next turn (the current seat: where its turn
    /// began), with its shield and pending skip, who plays next, and in a race (or once the
    /// game clock has run out) the turns each seat has left.
    pub(crate) from: exact::Standing,
    /// Who won, once someone has.
    pub(crate) winner: Option<usize>,
}

/// The standing of `room` after event `seq`.
pub(crate) fn standing(room: &Room, seq: u64) -> Standing {
    let setup = &room.setup;
    let seats = setup.seats.len();
    let start = setup.rules.start_position();
    let mut standing = Standing {
        seq,
        board: setup.board.clone(),
        rules: setup.rules,
        names: room.names().to_vec(),
        positions: vec![start; seats],
        from: exact::Standing::at_start(seats, &setup.rules),
        winner: None,
    };
    if let Some(game) = room.session().map(snl_session::Session::game) {
        standing.positions = game.positions();
        standing.winner = game.ranking().first().copied();
        standing.from = exact::Standing::of(game);
    }
    standing
}
