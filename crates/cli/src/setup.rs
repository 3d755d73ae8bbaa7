//! The short setup of SPEC §7: board, number of seats, names and kinds, each with a default.

use std::{io::Write, path::Path};

use snl_engine::{Preset, SeatKind};

use snl_tui::{Choices, console::Console};

use crate::{
    common::{CmdResult, OrFail},
    format::{VALUE_SHOWN, shown},
};

/// The short setup of SPEC §7: board, number of seats, names and kinds, each with a default.
pub(crate) fn setup_questions(args: &mut Choices, console: &mut Console) -> CmdResult {
    let ask = |console: &mut Console, q: &str, d: &str| console.ask(q, d);
    loop {
        let board = ask(
            console,
            "Board (classic, milton-bradley, kids, party, empty, random, or a .toml file)",
            "classic",
        )?;
        let is_file = Path::new(&board).extension().is_some_and(|e| e.eq_ignore_ascii_case("toml"));
        if is_file || board.parse::<Preset>().is_ok() {
            args.board = board;
            break;
        }
        let board = shown(&board, VALUE_SHOWN);
        writeln!(console.out, "  '{board}' is not a board name or a .toml file; try again.")
            .or_other()?;
    }
    let count = loop {
        let answer = ask(console, "How many players", "2")?;
        match answer.parse::<usize>() {
            Ok(n) if n >= 2 => break n,
            _ => writeln!(
                console.out,
                "  '{}' is not a number of players (2 or more); try again.",
                shown(&answer, VALUE_SHOWN)
            )
            .or_other()?,
        }
    };
    args.players.clear();
    for i in 1..=count {
        let (default_name, default_kind) = if i == 1 {
            ("You".to_owned(), "human")
        } else {
            (format!("Computer {}", i - 1), "hard")
        };
        let default_name = if count == 2 && i == 2 { "Computer".to_owned() } else { default_name };
        let name = loop {
            let name = ask(console, &format!("Player {i} name"), &default_name)?;
            let taken =
                args.players.iter().any(|p| p.rsplit_once(':').is_some_and(|(n, _)| n == name));
            if taken || name.contains(':') {
                let name = shown(&name, VALUE_SHOWN);
                writeln!(console.out, "  '{name}' is taken or contains ':'; pick another name.")
                    .or_other()?;
            } else {
                break name;
            }
        };
        let kind = loop {
            let kind = ask(
                console,
                &format!("Who plays {name}: human, easy, greedy or hard"),
                default_kind,
            )?;
            match kind.parse::<SeatKind>() {
                Ok(k) => break k,
                Err(e) => writeln!(console.out, "  {e}; try again.").or_other()?,
            }
        };
        args.players.push(format!("{name}:{kind}"));
    }
    Ok(())
}
