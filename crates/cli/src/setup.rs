//! The short setup of SPEC §7: board, number of seats, names and kinds, each with a default; then,
//! when asked for, what the full-screen form also offers: a random board's size and cell effects,
//! the rules, the choice rule, a race and its rounds, the turn and game clocks, and the seed.

use std::{io::Write, path::Path};

use snl_engine::{Choice, Preset, RuleSet, SeatKind};

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
                &format!("Who plays {name}: human, easy, greedy, hard or win"),
                default_kind,
            )?;
            match kind.parse::<SeatKind>() {
                Ok(k) => break k,
                Err(e) => writeln!(console.out, "  {e}; try again.").or_other()?,
            }
        };
        args.players.push(format!("{name}:{kind}"));
    }
    more_questions(args, console)
}

/// Asks `question` until `parse` takes the answer (an empty one takes `default`); each refusal is
/// one sentence and the question again.
fn ask_until<T>(
    console: &mut Console,
    question: &str,
    default: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> CmdResult<T> {
    loop {
        let answer = console.ask(question, default)?;
        match parse(&answer) {
            Ok(value) => return Ok(value),
            Err(why) => writeln!(console.out, "  {why}; try again.").or_other()?,
        }
    }
}

/// `lo` to `hi`, or the sentence that says it is not.
fn number_in<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    answer: &str,
    lo: T,
    hi: T,
    what: &str,
) -> Result<T, String> {
    match answer.parse::<T>() {
        Ok(n) if n >= lo && n <= hi => Ok(n),
        _ => Err(format!("'{}' is not {what} ({lo} to {hi})", shown(answer, VALUE_SHOWN))),
    }
}

/// A clock in seconds, or none.
fn clock(answer: &str, hi: u64) -> Result<Option<u64>, String> {
    if answer.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    number_in(answer, 1, hi, "a number of seconds, or none").map(Some)
}

/// The rest of the setup, when asked for (the end of input here keeps the defaults).
fn more_questions(args: &mut Choices, console: &mut Console) -> CmdResult {
    let question = "Change the rules, play a race, set clocks or the seed (yes/no)";
    let Some(more) = console.ask_or_end(question, "no")? else { return Ok(()) };
    if !matches!(more.to_ascii_lowercase().as_str(), "y" | "yes") {
        return Ok(());
    }
    if args.board == "random" {
        let size = args.size.to_string();
        args.size = ask_until(console, "Cells on the random board", &size, |a| {
            number_in(a, 10, 10_000, "a number of cells")
        })?;
        let effects = args.effects.to_string();
        args.effects = ask_until(
            console,
            "Cell effects on it (skip, extra, shield, wormhole)",
            &effects,
            |a| number_in(a, 0, args.size / 4, "a number of effect cells"),
        )?;
    }
    let sets: Vec<&str> = RuleSet::ALL.iter().map(|s| s.as_str()).collect();
    let rules = args.rules.clone().unwrap_or_else(|| "standard".to_owned());
    let set = ask_until(console, &format!("Rules ({})", sets.join(", ")), &rules, |a| {
        a.parse::<RuleSet>().map(RuleSet::as_str).map_err(|e| e.to_string())
    })?;
    args.rules = Some(set.to_owned());
    let choices: Vec<&str> = Choice::ALL.iter().map(|c| c.as_str()).collect();
    let choice = args.choice.clone().unwrap_or_else(|| "none".to_owned());
    let choice =
        ask_until(console, &format!("Choice rule ({})", choices.join(", ")), &choice, |a| {
            a.parse::<Choice>().map(Choice::as_str).map_err(|e| e.to_string())
        })?;
    args.choice = Some(choice.to_owned());
    let asked_mode = args.mode.clone().unwrap_or_else(|| "classic".to_owned());
    let race = ask_until(
        console,
        "Mode (classic, or race: the game ends after its rounds)",
        &asked_mode,
        |a| match a {
            "classic" => Ok(false),
            "race" => Ok(true),
            other => {
                Err(format!("'{}' is not a mode (classic or race)", shown(other, VALUE_SHOWN)))
            }
        },
    )?;
    if race {
        let rounds = args.rounds.unwrap_or(10).to_string();
        args.rounds = Some(ask_until(console, "Rounds of the race", &rounds, |a| {
            number_in(a, 1, 1_000_000, "a number of rounds")
        })?);
        args.mode = Some("race".to_owned());
    } else {
        args.mode = None;
        args.rounds = None;
    }
    let shown_clock = |t: Option<u64>| t.map_or_else(|| "none".to_owned(), |s| s.to_string());
    args.turn_time = ask_until(
        console,
        "Turn clock: seconds a person has for each roll, or none",
        &shown_clock(args.turn_time),
        |a| clock(a, 86_400),
    )?;
    args.game_time = ask_until(
        console,
        "Game clock: seconds the whole game lasts, or none",
        &shown_clock(args.game_time),
        |a| clock(a, 604_800),
    )?;
    let seed = args.seed.map_or_else(|| "fresh".to_owned(), |s| s.to_string());
    args.seed = ask_until(console, "Dice seed (a number, or fresh)", &seed, |a| {
        if a == "fresh" {
            return Ok(None);
        }
        a.parse::<u64>().map(Some).map_err(|_| {
            format!("'{}' is not a seed (a whole number, or fresh)", shown(a, VALUE_SHOWN))
        })
    })?;
    Ok(())
}
