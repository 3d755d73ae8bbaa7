//! The status words of a game as a whole: where a race stands ([`race_status`]), the clocks
//! ([`clock_status`]), where a seat stands ([`standing`]), what sets a room apart
//! ([`room_traits`]) and a board's [`legend`].

use snl_engine::{Board, Game, Reach, SeatKind, Status};

use crate::{CellKind, sentences::ordinal};

/// Where a race stands, for a header or a status line: "race · round 2 of 5", and "race over
/// after 5 rounds" once it has ended; `None` for a classic game. While it runs, `rounds_done` is
/// [`Game::rounds`] (rounds completed) and the round shown is the one in play, never past the
/// last; once over, it is the rounds played.
pub fn race_status(rounds: Option<u32>, rounds_done: u32, over: bool) -> Option<String> {
    let rounds = rounds?;
    Some(if over {
        let s = if rounds_done == 1 { "" } else { "s" };
        format!("race over after {rounds_done} round{s}")
    } else {
        format!("race · round {} of {rounds}", (rounds_done + 1).min(rounds))
    })
}

/// [`race_status`] of a game.
pub fn race_status_of(game: &Game) -> Option<String> {
    let over = game.status() == Status::Finished;
    let rounds = game.rules().mode.rounds()?;
    let done = if over {
        // The race's last round ends the game before it is counted: the rounds played are
        // those the seats began.
        game.seat_states().iter().map(|s| s.turns).max().unwrap_or(0).min(rounds)
    } else {
        game.rounds()
    };
    race_status(Some(rounds), done, over)
}

/// Where a series stands as a game of it begins: "Game 2 of a best of 3: Bob starts. Wins so
/// far: Ann 1, Bob 0." (`so_far` as `snl_session::series::so_far` writes it, none before any
/// game is won).
pub fn series_intro(game: u32, best_of: u32, starter: &str, so_far: Option<&str>) -> String {
    let intro = format!("Game {game} of a best of {best_of}: {starter} starts.");
    match so_far {
        Some(so_far) => format!("{intro} Wins so far: {so_far}."),
        None => intro,
    }
}

/// Where a series stands after a game: "Ann wins the series 2-1.", "The series is drawn 1-1."
/// once decided, else "After game 2 of a best of 3: Ann 1, Bob 1."
pub fn series_standing(
    (game, best_of): (u32, u32),
    decided: Option<Option<&str>>,
    score: &str,
    so_far: &str,
) -> String {
    match decided {
        Some(Some(winner)) => {
            format!("{} the series {score}.", crate::agree(winner, "wins", "win"))
        }
        Some(None) => format!("The series is drawn {score}."),
        None => format!("After game {game} of a best of {best_of}: {so_far}."),
    }
}

/// Milliseconds left on a clock as the clocks show them: "1:05" (a part of a second counted as a
/// whole one, so 0:00 is only shown when the time is out): see [`clock`].
pub fn clock_time(left_ms: u64) -> String {
    clock(left_ms.div_ceil(1000))
}

/// A clock's time as it counts: `4:05`, `0:09`, `1:02:03` from an hour.
pub fn clock(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 { format!("{h}:{m:02}:{s:02}") } else { format!("{m}:{s:02}") }
}

/// The clocks in one line: "turn 0:25 · game 9:41", "turn 0:25 paused" while the person awaited
/// is away and their turn clock held; `None` when neither runs.
pub fn clock_status(
    turn_left_ms: Option<u64>,
    turn_paused: bool,
    game_left_ms: Option<u64>,
) -> Option<String> {
    let paused = if turn_paused { " paused" } else { "" };
    let turn = turn_left_ms.map(|ms| format!("turn {}{paused}", clock_time(ms)));
    let game = game_left_ms.map(|ms| format!("game {}", clock_time(ms)));
    let parts: Vec<String> = [turn, game].into_iter().flatten().collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// The clocks as a prompt ends: ", 0:25 to act, 9:41 of the game left" (empty when neither
/// runs), after "press Enter to roll (q to quit".
pub fn clock_prompt(turn_left_ms: Option<u64>, game_left_ms: Option<u64>) -> String {
    let turn = turn_left_ms.map(|ms| format!(", {} to act", clock_time(ms)));
    let game = game_left_ms.map(|ms| format!(", {} of the game left", clock_time(ms)));
    [turn, game].into_iter().flatten().collect()
}

/// What plays a seat and how it stands, as the players' list says it after the name:
/// "hard", "human, autopilot, you, away, seat kept 1:02" — the kind, then autopilot (a
/// computer playing for a person), whether it is this screen's seat, whether its person is
/// away, and how long their seat is kept for them before the computer takes it.
pub fn seat_label(
    kind: SeatKind,
    autopilot: bool,
    yours: bool,
    away: bool,
    kept_left_ms: Option<u64>,
) -> String {
    let mut label = kind.as_str().to_owned();
    for (on, word) in [(autopilot, "autopilot"), (yours, "you"), (away, "away")] {
        if on {
            label.push_str(", ");
            label.push_str(word);
        }
    }
    if let Some(ms) = kept_left_ms {
        label.push_str(", seat kept ");
        label.push_str(&clock_time(ms));
    }
    label
}

/// The name a seat is given when nobody names it, by what plays it: the seat at `index`
/// (0-based) is "You" (a person at seat 1) or "Player 3", or "Computer (hard)" (at seat 2),
/// "Computer 3 (easy)" — every seat's default name differs from the others'.
pub fn seat_default_name(index: usize, kind: SeatKind) -> String {
    match (kind, index) {
        (SeatKind::Human, 0) => "You".to_owned(),
        (SeatKind::Human, i) => format!("Player {}", i + 1),
        (kind, 1) => format!("Computer ({})", kind.as_str()),
        (kind, i) => format!("Computer {} ({})", i.max(1), kind.as_str()),
    }
}

/// The fewest rolls a seat still needs, as every front end says it: "1 roll", "4 rolls",
/// "finished" (on the last cell), "cannot finish" (`None`: the last cell is out of reach).
pub fn fewest_rolls(rolls: Option<u32>) -> String {
    match rolls {
        None => "cannot finish".to_owned(),
        Some(0) => "finished".to_owned(),
        Some(1) => "1 roll".to_owned(),
        Some(k) => format!("{k} rolls"),
    }
}

/// [`fewest_rolls`] where no heading says what the number is: "4 rolls at best".
pub fn fewest_rolls_at_best(rolls: Option<u32>) -> String {
    match rolls {
        Some(k) if k > 0 => format!("{} at best", fewest_rolls(rolls)),
        _ => fewest_rolls(rolls),
    }
}

/// A chance to win as every front end shows it: whole percents, "<1%" for a chance that is not
/// nothing, ">99%" for one that is not certain, "0%" and "100%" only when they are exact.
pub fn chance(p: f64) -> String {
    let pct = p * 100.0;
    if p <= 0.0 {
        "0%".to_owned()
    } else if pct < 1.0 {
        "<1%".to_owned()
    } else if pct > 99.0 && p < 1.0 {
        ">99%".to_owned()
    } else {
        format!("{pct:.0}%")
    }
}

/// Where a seat stands, in words for a list of players: "finished 2nd" (it reached the last
/// cell), "2nd on 41" (ranked by position when a race or the game clock ended the game before it
/// finished), "at the start", "on 41".
pub fn standing(rank: Option<u32>, position: u32, board_size: u32) -> String {
    match (rank, position) {
        (Some(rank), at) if at >= board_size => format!("finished {}", ordinal(rank)),
        (Some(rank), 0) => format!("{} at the start", ordinal(rank)),
        (Some(rank), at) => format!("{} on {at}", ordinal(rank)),
        (None, 0) => "at the start".to_owned(),
        (None, at) => format!("on {at}"),
    }
}

/// Whether a ranked seat finished (reached the last cell) rather than being ranked by position
/// at the end of a race or of the game clock.
pub fn finished(game: &Game, seat: usize) -> bool {
    game.ranks()[seat].is_some() && game.position(seat) >= game.board().size()
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

/// What a board holds, in words: "100 cells, 8 snakes, 1 ladder" and ", 4 cell effects" when
/// it has effects (`snl board validate`, `board generate -o`, the editor and the lobby).
pub fn board_summary(board: &Board) -> String {
    let snakes = board.jumps().iter().filter(|j| j.is_snake()).count();
    let ladders = board.jumps().len() - snakes;
    let mut parts = vec![
        counted(board.size() as usize, "cell", "cells"),
        counted(snakes, "snake", "snakes"),
        counted(ladders, "ladder", "ladders"),
    ];
    if !board.effects().is_empty() {
        parts.push(counted(board.effects().len(), "cell effect", "cell effects"));
    }
    parts.join(", ")
}

/// "1 snake", "3 snakes", "0 snakes".
pub fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
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

/// What a valid board's check adds when it cannot be played through (`snl board validate`, the
/// editor): ", but cell N cannot be reached …" or ", but a token can be trapped on P …"; empty
/// when every token can finish. `size` is the board's last cell.
pub fn reach_verdict(reach: &Reach, size: u32) -> String {
    if !reach.finish_reachable {
        format!(
            ", but cell {size} cannot be reached from the start: it can be analysed, not played"
        )
    } else if let Some(p) = reach.trapped.first() {
        format!(", but a token can be trapped on {p}, from where cell {size} cannot be reached")
    } else {
        String::new()
    }
}

/// What a check of a game's dice found when every roll agreed (`snl verify`, the replay page):
/// `all 57 rolls and 2 wormhole draws verified: each is what seed 5 gives (ChaCha8,
/// docs/fairness.md)`; for an online room, `room` is its commitment and its number of seats.
pub fn dice_verified(rolls: usize, draws: usize, seed: u64, room: Option<(&str, usize)>) -> String {
    let rolls_word = if rolls == 1 { "roll" } else { "rolls" };
    let wormholes = match draws {
        0 => String::new(),
        1 => " and 1 wormhole draw".to_owned(),
        n => format!(" and {n} wormhole draws"),
    };
    let source = match room {
        Some((commitment, seats)) => format!(
            "seed {seed} gives, the seed its revealed secret (SHA-256 {commitment}, the \
             commitment published before the first roll) and its {seats} seats' seeds derive"
        ),
        None => format!("seed {seed} gives"),
    };
    format!(
        "all {rolls} {rolls_word}{wormholes} verified: each is what {source} (ChaCha8, \
         docs/fairness.md)"
    )
}

#[cfg(test)]
mod tests {
    use snl_engine::{Preset, Rules};

    use super::*;

    #[test]
    fn a_race_tells_its_round_of_how_many_and_when_it_is_over() {
        assert_eq!(race_status(None, 3, false), None);
        assert_eq!(race_status(Some(5), 0, false).as_deref(), Some("race · round 1 of 5"));
        assert_eq!(race_status(Some(5), 4, false).as_deref(), Some("race · round 5 of 5"));
        assert_eq!(race_status(Some(5), 5, false).as_deref(), Some("race · round 5 of 5"));
        assert_eq!(race_status(Some(5), 5, true).as_deref(), Some("race over after 5 rounds"));
        assert_eq!(race_status(Some(1), 1, true).as_deref(), Some("race over after 1 round"));
    }

    #[test]
    fn the_clocks_count_whole_seconds_up() {
        assert_eq!(clock_status(None, false, None), None);
        assert_eq!(clock_status(Some(25_000), false, None).as_deref(), Some("turn 0:25"));
        assert_eq!(clock_status(Some(25_000), true, None).as_deref(), Some("turn 0:25 paused"));
        assert_eq!(
            clock_status(Some(1), false, Some(581_000)).as_deref(),
            Some("turn 0:01 · game 9:41")
        );
        assert_eq!(clock_prompt(None, None), "");
        assert_eq!(
            clock_prompt(Some(25_000), Some(581_000)),
            ", 0:25 to act, 9:41 of the game left"
        );
        assert_eq!(clock_time(0), "0:00");
        assert_eq!(clock_time(3_722_001), "1:02:03");
    }

    #[test]
    fn a_seat_label_says_what_plays_it_then_how_it_stands() {
        assert_eq!(seat_label(SeatKind::Hard, false, false, false, None), "hard");
        assert_eq!(
            seat_label(SeatKind::Human, true, true, true, Some(61_500)),
            "human, autopilot, you, away, seat kept 1:02"
        );
    }

    #[test]
    fn a_default_name_says_what_plays_the_seat_and_no_two_are_alike() {
        assert_eq!(seat_default_name(0, SeatKind::Human), "You");
        assert_eq!(seat_default_name(1, SeatKind::Hard), "Computer (hard)");
        assert_eq!(seat_default_name(2, SeatKind::Easy), "Computer 2 (easy)");
        assert_eq!(seat_default_name(2, SeatKind::Human), "Player 3");
        let kinds = [SeatKind::Hard, SeatKind::Human];
        let mut names: Vec<String> =
            (0..8).flat_map(|i| kinds.map(|k| seat_default_name(i, k))).collect();
        names.sort();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count, "{names:?}");
    }

    #[test]
    fn fewest_rolls_are_counted_in_words() {
        let said: Vec<String> = [None, Some(0), Some(1), Some(4)].map(fewest_rolls).to_vec();
        assert_eq!(said, ["cannot finish", "finished", "1 roll", "4 rolls"]);
        assert_eq!(fewest_rolls_at_best(Some(4)), "4 rolls at best");
        assert_eq!(fewest_rolls_at_best(Some(0)), "finished");
    }

    #[test]
    fn chances_are_whole_percents_and_never_round_to_certain() {
        let shown: Vec<String> = [0.0, 0.004, 0.5449, 0.995, 1.0].map(chance).to_vec();
        assert_eq!(shown, ["0%", "<1%", "54%", ">99%", "100%"]);
    }

    #[test]
    fn only_a_seat_on_the_last_cell_is_said_to_have_finished() {
        assert_eq!(standing(Some(1), 100, 100), "finished 1st");
        assert_eq!(standing(Some(2), 41, 100), "2nd on 41");
        assert_eq!(standing(Some(3), 0, 100), "3rd at the start");
        assert_eq!(standing(None, 0, 100), "at the start");
        assert_eq!(standing(None, 7, 100), "on 7");
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
    fn a_board_is_summed_up_in_counted_words() {
        let party = Board::new(&Preset::Party.spec(), &Rules::default()).unwrap();
        assert!(board_summary(&party).starts_with("100 cells, "), "{}", board_summary(&party));
        assert!(board_summary(&party).ends_with(" cell effects"), "{}", board_summary(&party));
        let spec = snl_engine::BoardSpec::from_toml(
            "size = 30\n[[snake]]\nhead = 27\ntail = 5\n[[ladder]]\nfoot = 3\ntop = 16\n",
        )
        .unwrap();
        let one = Board::new(&spec, &Rules::default()).unwrap();
        assert_eq!(board_summary(&one), "30 cells, 1 snake, 1 ladder");
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
