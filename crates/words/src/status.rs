//! The status lines around a game: where a race stands, where each seat stands (ranked by
//! position at a race's or the game clock's end, or finished), what the cell effects left on it.

use snl_engine::Board;

use crate::{CellKind, ordinal};

/// Where a race stands: `race · round 2 of 5` while it runs, `race over after 5 rounds` once it
/// has ended; `rounds` is K, `done` the rounds completed.
pub fn race_status(rounds: u32, done: u32, over: bool) -> String {
    if over {
        let s = if done == 1 { "" } else { "s" };
        format!("race over after {done} round{s}")
    } else {
        format!("race · round {} of {rounds}", (done + 1).min(rounds))
    }
}

/// Where a seat stands, telling a seat that finished from one ranked by position when a race
/// or the game clock ended the game: "finished 2nd", "2nd, on 41", "on 41", "at the start".
pub fn standing_at(rank: Option<u32>, position: u32, finished: bool) -> String {
    match (rank, position) {
        (Some(rank), _) if finished => format!("finished {}", ordinal(rank)),
        (Some(rank), 0) => format!("{}, at the start", ordinal(rank)),
        (Some(rank), at) => format!("{}, on {at}", ordinal(rank)),
        (None, 0) => "at the start".to_owned(),
        (None, at) => format!("on {at}"),
    }
}

/// A clock's time as it counts: `4:05`, `0:09`, `1:02:03` from an hour.
pub fn clock(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 { format!("{h}:{m:02}:{s:02}") } else { format!("{m}:{s:02}") }
}

/// What sets a room's game apart, for the lobby: `race of 3 rounds · game clock 10:00 · turn
/// clock 0:30`, each part only when it applies (empty for a classic game without clocks).
pub fn room_traits(rounds: Option<u32>, turn_time: Option<u64>, game_time: Option<u64>) -> String {
    let mut parts = Vec::new();
    if let Some(k) = rounds {
        parts.push(format!("race of {k} round{}", if k == 1 { "" } else { "s" }));
    }
    if let Some(t) = game_time {
        parts.push(format!("game clock {}", clock(t)));
    }
    if let Some(t) = turn_time {
        parts.push(format!("turn clock {}", clock(t)));
    }
    parts.join(" · ")
}

/// One line of a board's legend: a kind of cell present on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegendLine {
    /// Its kind.
    pub kind: CellKind,
    /// Its name ("snake", "shield").
    pub name: &'static str,
    /// The glyph the full-screen game draws.
    pub glyph: &'static str,
    /// What it does.
    pub meaning: &'static str,
}

/// The legend of `board`: each kind of cell on it (snakes, ladders, each effect), in
/// [`CellKind::ALL`]'s order, without the ends of jumps (drawn with their start).
pub fn legend(board: &Board) -> Vec<LegendLine> {
    CellKind::ALL
        .into_iter()
        .filter(|k| !matches!(k, CellKind::SnakeTail | CellKind::LadderTop) && k.on(board))
        .map(|kind| {
            let p = kind.picture();
            LegendLine { kind, name: p.name, glyph: p.glyph, meaning: p.meaning }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use snl_engine::{Preset, Rules};

    use super::*;

    #[test]
    fn a_race_says_its_round_while_it_runs_and_how_many_rounds_it_lasted_once_over() {
        assert_eq!(race_status(3, 0, false), "race · round 1 of 3");
        assert_eq!(race_status(3, 2, false), "race · round 3 of 3");
        assert_eq!(race_status(3, 3, false), "race · round 3 of 3");
        assert_eq!(race_status(3, 3, true), "race over after 3 rounds");
        assert_eq!(race_status(1, 1, true), "race over after 1 round");
    }

    #[test]
    fn a_room_says_its_mode_and_clocks_and_nothing_when_it_is_plain() {
        assert_eq!(room_traits(None, None, None), "");
        assert_eq!(
            room_traits(Some(3), Some(30), Some(600)),
            "race of 3 rounds · game clock 10:00 · turn clock 0:30"
        );
        assert_eq!(room_traits(Some(1), None, Some(3723)), "race of 1 round · game clock 1:02:03");
    }

    #[test]
    fn a_seat_ranked_by_position_is_not_said_to_have_finished() {
        assert_eq!(standing_at(Some(2), 100, true), "finished 2nd");
        assert_eq!(standing_at(Some(1), 41, false), "1st, on 41");
        assert_eq!(standing_at(Some(3), 0, false), "3rd, at the start");
        assert_eq!(standing_at(None, 41, false), "on 41");
        assert_eq!(standing_at(None, 0, false), "at the start");
    }

    #[test]
    fn the_legend_lists_the_kinds_on_the_board_only() {
        let party = Board::new(&Preset::Party.spec(), &Rules::default()).unwrap();
        let names: Vec<&str> = legend(&party).iter().map(|l| l.name).collect();
        assert_eq!(names, ["snake", "ladder", "skip", "extra", "shield", "wormhole"]);
        let classic = Board::new(&Preset::Classic.spec(), &Rules::default()).unwrap();
        let names: Vec<&str> = legend(&classic).iter().map(|l| l.name).collect();
        assert_eq!(names, ["snake", "ladder"]);
    }
}
