//! A long game between two computer seats, played by the engine alone or through a session, with
//! its time and the process's peak memory: the session adds no memory that grows with the game
//! (no undo timeline without a person at the table, recorders that append).
//!
//! ```text
//! cargo run --release -p snl-session --example long_game -- session 20000 0 0 1
//! cargo run --release -p snl-session --example long_game -- engine 20000 0 0 1
//! cargo run --release -p snl-session --example long_game -- session 1000000 5000 5000 1
//! ```
//!
//! Arguments: `engine|session SIZE SNAKES LADDERS SEED`. Prints one line: turns, rolls,
//! seconds, peak resident memory (from /proc/self/status, Linux).

use std::time::Instant;

use snl_engine::{Board, FirstOption, Game, RandomBoard, Rules, Seat, SeatKind, SeededDice};
use snl_session::{Awaiting, Session};
use snl_store::DiceState;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, size, snakes, ladders, seed] = args.as_slice() else {
        return Err("usage: long_game engine|session SIZE SNAKES LADDERS SEED".into());
    };
    let seed: u64 = seed.parse()?;
    let rules = Rules::default();
    let spec = RandomBoard {
        size: size.parse()?,
        snakes: snakes.parse()?,
        ladders: ladders.parse()?,
        seed,
        min_jump: 1,
    }
    .spec(&rules);
    let board = Board::new(&spec, &rules)?;
    let seats = vec![Seat::new("Red", SeatKind::Easy), Seat::new("Blue", SeatKind::Easy)];
    let mut game = Game::new(board, rules, seats)?;
    let start = Instant::now();
    let (turns, rolls) = match mode.as_str() {
        "engine" => {
            game.play_to_end(&mut SeededDice::new(seed), &mut FirstOption, &mut ())?;
            (game.turns(), game.rolls())
        }
        "session" => {
            let mut session = Session::new(game, DiceState::seeded(seed), "random");
            while let Awaiting::Computer { .. } = session.awaiting() {
                session.play_computer()?;
            }
            (session.game().turns(), session.game().rolls())
        }
        other => return Err(format!("unknown mode '{other}': engine or session").into()),
    };
    let seconds = start.elapsed().as_secs_f64();
    println!("{mode}: {turns} turns, {rolls} rolls, {seconds:.3} s, peak {} KB", peak_kb());
    Ok(())
}

/// The process's peak resident memory in KB (`VmHWM`), or 0 where /proc is not there.
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}
