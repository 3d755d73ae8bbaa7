//! A game under way as the wire shows it, in the words of every front end (`snl_words`): each
//! seat's line, what is awaited with its options' labels, the board's legend. An online room
//! (`snl serve`) and a game on the page (the browser's engine) show their games through these.

use snl_engine::{Board, Game, Pending};
use snl_words::{carried_marks, describe_option, legend, standing};

use crate::{Awaited, AwardLine, LegendEntry, SeatLine};

/// Each seat's words now: where it stands, what the cell effects left it.
pub fn seat_lines(game: &Game) -> Vec<SeatLine> {
    let last = game.board().size();
    game.seat_states()
        .iter()
        .enumerate()
        .map(|(i, s)| SeatLine {
            standing: standing(s.rank, s.cell, last),
            carried: carried_marks(game.has_shield(i), game.skips_next_turn(i))
                .into_iter()
                .map(str::to_owned)
                .collect(),
        })
        .collect()
}

/// The award of `achievement` (its key) to `seat`, with its words (`snl_words::earned`).
pub fn award_line(seat: usize, achievement: &str) -> AwardLine {
    AwardLine { seat, achievement: achievement.to_owned(), text: snl_words::earned(achievement) }
}

/// What `game` awaits, the input having id `input`: a roll or a choice (its options labelled)
/// from a seat, or none once the game is over.
pub fn awaited(game: &Game, input: u64) -> Option<Awaited> {
    match game.pending() {
        // A wormhole's draw is awaited only when the dice could not give it: the seat's next
        // roll asks again.
        Pending::Roll { seat, .. } | Pending::Draw { seat, .. } => {
            Some(Awaited::Roll { seat, input })
        }
        Pending::Choice(d) => Some(Awaited::Choice {
            seat: d.seat,
            labels: d.options.iter().map(|o| describe_option(game, &d, o)).collect(),
            options: d.options.clone(),
            input,
        }),
        Pending::Over => None,
    }
}

/// The legend of `board` as the wire carries it (`snl_words::legend`).
pub fn legend_entries(board: &Board) -> Vec<LegendEntry> {
    legend(board)
        .into_iter()
        .map(|l| LegendEntry {
            kind: l.name.to_owned(),
            name: l.name.to_owned(),
            meaning: l.meaning.to_owned(),
        })
        .collect()
}
