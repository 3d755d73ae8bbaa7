//! Fair play anyone can check: `snl verify` re-derives a recorded game's rolls from its seed, and
//! `snl stats --dice` counts each player's faces against even chances (docs/fairness.md).

use std::{collections::BTreeMap, path::Path};

use clap::Args;
use snl_analysis::fairness::{FaceCounts, FaceTest};
use snl_engine::{SeededDice, check_rolls};
use snl_session::{
    dice_stats::{HISTORY_BOUND, HISTORY_GAMES, Recorded, Tally, recorded_faces},
    fairness::check_room,
};
use snl_store::{DiceState, Save, SaveError};
use snl_tui::{ClientError, RoomUrl, console::Console, room_save};
use snl_words::{dice_verdict, dice_verified, p_text};

use crate::{
    common::{CmdResult, Failure, OrFail},
    format::{VALUE_SHOWN, shown, shown_name},
    records::{StatsArgs, open_read, read_rows, table},
    replay::read_game,
    session::DbArgs,
};

/// Options of `snl verify`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "Exit 0 when every roll and wormhole draw is what the game's seed gives \
(ChaCha8, docs/fairness.md) and, for an online room's game, the seed is what its revealed secret \
(whose SHA-256 is the commitment published before the first roll) and its seats' seeds give; 1 \
when one is not, or the rolls were given by hand (--rolls); 2 when the game cannot be read or \
the room's game is not over.\n\nLimits: a save file of at most 268435456 bytes (256 MiB); ID at \
most 9223372036854775807.")]
pub(crate) struct VerifyArgs {
    /// An online room's address (http://HOST:PORT/room/ID, once its game is over), a game's
    /// number in the game database (see `snl games`), or a save file.
    #[arg(value_name = "ROOM_URL|ID|FILE")]
    pub(crate) game: String,
    #[command(flatten)]
    pub(crate) db: DbArgs,
}

/// `snl verify`: every roll and wormhole draw of the game re-derived from its seed, and an
/// online room's seed from its revealed secret and its seats' seeds.
pub(crate) fn verify(args: &VerifyArgs, console: &mut Console) -> CmdResult {
    // A save whose dice do not agree with its history is refused by the reader: that is the
    // answer here, not a file that cannot be read.
    let path = Path::new(&args.game);
    if let Some(Err(SaveError::DiceHistory(why))) = path.is_file().then(|| Save::read(path)) {
        let name = shown(&args.game, VALUE_SHOWN);
        return Err(Failure::other(anyhow::anyhow!("the save file {name} is not verified: {why}")));
    }
    let (save, from) = if args.game.starts_with("http://") || args.game.starts_with("https://") {
        let url: RoomUrl =
            args.game.parse().map_err(|e: ClientError| Failure::bad(anyhow::anyhow!("{e}")))?;
        let save = room_save(&url).map_err(|e| {
            let failure = anyhow::anyhow!("room {url}: {e}");
            if e.is_bad_input() { Failure::bad(failure) } else { Failure::other(failure) }
        })?;
        (save, format!("room {url}"))
    } else {
        let (save, from) = read_game(&args.game, &args.db)?;
        (save, from.to_string())
    };
    let not_verified =
        |why: String| Failure::other(anyhow::anyhow!("{from} is not verified: {why}"));
    let seed = match &save.dice {
        DiceState::Seeded { seed, .. } => *seed,
        DiceState::Scripted(_) => {
            return Err(not_verified(
                "its rolls were given by hand (--rolls), so no seed stands behind them".into(),
            ));
        }
    };
    if let Some(room) = save.dice.room() {
        check_room(room, seed).map_err(not_verified)?;
    }
    // The rolls first: a changed roll is the answer even when the rest no longer replays.
    save.dice.agrees_with(&save.game).map_err(not_verified)?;
    match save.restore() {
        Ok(_) => {}
        Err(SaveError::DiceHistory(why)) => return Err(not_verified(why)),
        Err(e) => return Err(Failure::bad(anyhow::anyhow!("{from} cannot be read: {e}"))),
    }
    let state = &save.game;
    let checked =
        check_rolls(&state.board, &state.rules, &state.history, &mut SeededDice::new(seed))
            .map_err(|e| not_verified(format!("seed {seed} {e}")))?;
    let room = save.dice.room().map(|r| (r.commitment.as_str(), r.seat_seeds.len()));
    writeln!(console.out, "{from}: {}", dice_verified(checked.rolls, checked.draws, seed, room))
        .or_other()
}

/// `snl stats --dice`: each player's faces of each kind of die, over the newest recorded games
/// with seeded dice ([`recorded_faces`]), against even chances.
pub(crate) fn dice_stats(args: &StatsArgs, console: &mut Console) -> CmdResult {
    let (player, json, db) = (args.player.as_deref(), args.json, &args.db);
    if let Some(name) = player {
        let known = match open_read(db)? {
            Some(db) => read_rows(&db, db.has_player(name))?,
            None => false,
        };
        if !known {
            return Err(Failure::bad(anyhow::anyhow!(
                "no recorded game has a player named '{}'",
                shown(name, VALUE_SHOWN)
            )));
        }
    }
    let recorded = match open_read(db)? {
        Some(db) => read_rows(&db, recorded_faces(&db, player, None))?,
        None => Recorded::default(),
    };
    let (skipped, bounded) = (recorded.skipped, recorded.games == HISTORY_GAMES);
    let mut rows = recorded.tallies;
    // Everyone's together, per kind of die, after the players (with more than one player).
    if player.is_none() && rows.len() > 1 {
        let mut all: BTreeMap<u8, FaceCounts> = BTreeMap::new();
        for row in &rows {
            all.entry(row.counts.faces())
                .or_insert_with(|| FaceCounts::new(row.counts.faces()))
                .merge(&row.counts);
        }
        rows.extend(all.into_values().map(|counts| Tally { player: "everyone".into(), counts }));
    }
    let out = console.out.as_mut();
    if json {
        let items: Vec<serde_json::Value> =
            rows.iter().map(|r| row_json(r, &r.counts.test())).collect();
        return writeln!(out, "{}", serde_json::json!(items)).or_other();
    }
    if rows.is_empty() {
        let whose = player.map_or_else(String::new, |p| format!(" of {}", shown(p, VALUE_SHOWN)));
        return writeln!(out, "No roll{whose} with seeded dice has been recorded yet.").or_other();
    }
    let lines = rows.iter().map(|r| {
        let test = r.counts.test();
        vec![
            shown_name(&r.player),
            format!("d{}", r.counts.faces()),
            test.throws.to_string(),
            faces_text(&r.counts),
            format!("{:.1}", test.expected),
            format!("{:.2}", test.chi_square),
            p_text(test.p_value),
            dice_verdict(test.p_value).to_owned(),
        ]
    });
    let header =
        ["PLAYER", "DIE", "THROWS", "FACES 1, 2, …", "EACH EXPECTED", "CHI²", "P", "VERDICT"];
    let right = [false, false, true, false, true, true, true, false];
    write!(out, "{}", table(&header, &right, lines)).or_other()?;
    writeln!(
        out,
        "P: the chance that fair dice look at least this uneven (Pearson's chi-square test).{}{}",
        if skipped > 0 {
            format!(" {skipped} game(s) with rolls given by hand (--rolls) are not counted.")
        } else {
            String::new()
        },
        if bounded { format!(" Counted over {HISTORY_BOUND}.") } else { String::new() }
    )
    .or_other()
}

/// Each face's count, or for a die of many faces the fewest and the most.
fn faces_text(counts: &FaceCounts) -> String {
    let c = counts.counts();
    if c.len() <= 12 {
        c.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
    } else {
        let (low, high) = (c.iter().min().unwrap_or(&0), c.iter().max().unwrap_or(&0));
        format!("{low} to {high} a face")
    }
}

fn row_json(row: &Tally, test: &FaceTest) -> serde_json::Value {
    serde_json::json!({
        "player": row.player,
        "faces": row.counts.faces(),
        "throws": test.throws,
        "counts": row.counts.counts(),
        "expected": test.expected,
        "chi_square": test.chi_square,
        "freedom": test.freedom,
        "p_value": test.p_value,
        "verdict": dice_verdict(test.p_value),
    })
}
