//! `snl replay` of a game played online: the room's game, recorded by `snl serve` in its
//! database, replays at the terminal in the words the seat was told while it played.

use crate::online::{room, serve};
use crate::util::snl_with_input;

#[test]
fn an_online_game_replays_at_the_terminal_as_its_seat_was_told_it() {
    let served = serve();
    let (url, _) = room(&served, 23);
    let joined = snl_with_input(&["join", &url, "--name", "Ann"], &"\n".repeat(2000));
    assert_eq!(joined.code, 0, "{}", joined.stderr);
    let games = snl_with_input(&["games", "--db", &served.db], "");
    assert!(games.stdout.contains("Ann (human), Robo (hard)"), "{}", games.stdout);
    let replay =
        snl_with_input(&["replay", "--plain", "--speed", "0", "--db", &served.db, "1"], "");
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    // The story, without the boards the replay draws: the seat's own lines, in order.
    let story = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.is_empty() && !l.starts_with(['|', '+']))
            .filter(|l| !["Snakes ", "Ladders ", "Off the board"].iter().any(|p| l.starts_with(p)))
            .map(str::to_owned)
            .collect()
    };
    // Who came and went is told to the seat, not kept in the game's history.
    let mut told = story(&joined.stdout);
    told.retain(|l| !(l.starts_with('(') && l.ends_with(')')));
    // What the game earned is told at the seat's end; a replay awards nothing.
    if let Some(at) = told.iter().position(|l| l == "Achievements earned:") {
        told.truncate(at);
    }
    assert!(told.len() > 10 && told.iter().any(|l| l == "Final ranking:"), "{told:?}");
    let replayed = story(&replay.stdout);
    let from = replayed.iter().position(|l| l.starts_with("New game on a board")).expect("a story");
    eqnice!(replayed[from..].join("\n"), told.join("\n"));
}
