// Long because a series is one loop shared by `play --games` and `resume` (set-up, standings, the series row); a third is its tests.
//! `snl play --games K`: a series, the best of K games between the same seats.
//!
//! Each game is a new game set up as `snl play` sets one (the same options), played at the
//! table ([`crate::play::at_table`]) and recorded as any game, plus one `series` row
//! that links them. The seats rotate who starts: game g (1, 2, …) is started by seat
//! (g − 1) mod n of the seats as given. Game g is seeded S + g − 1 (wrapping) where S is the
//! series' seed (`--seed`, or a fresh one that is told at the end), so game 1 of a series is the
//! game `snl play --seed S` plays with the same seats; scripted `--rolls` are used in order
//! across the games. The series stops as soon as no other seat can catch the leader: when the
//! leader's wins exceed every other seat's wins plus the games left.

use std::{
    io::Write,
    sync::{Arc, Mutex},
};

use clap::Args;
use serde::{Deserialize, Serialize};
use snl_engine::{
    Board, Game, Preset, RandomBoard, Rules, Scripted, ScriptedDice, Seat, SeatKind, Status,
};
use snl_session::{
    Kept as Told, Recorder, Session,
    series::{decided, leader, order, score, so_far, starter},
};
use snl_store::{Database, DiceState, GameId, NewSeries, SeriesSummary};
use snl_words::{series_intro, series_standing};

use crate::{
    common::{CmdResult, Failure, OrFail, default_computer_seats, fresh_seed, parse_seats},
    format::{Align, Table},
    play::{PlayArgs, Start, at_table},
    session::{keep, now_ms, warn_unrecorded},
    table::{TableArgs, game_json},
};
use snl_tui::{console::Console, seated::Seated};

/// The most games a series may be the best of.
pub(crate) const MAX_GAMES: u64 = 1_000_000;

/// The series option of `snl play`.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Series")]
pub(crate) struct SeriesArgs {
    /// Play a series, the best of K games (1 to 1000000) between the same seats: game g is
    /// started by seat (g - 1) mod n in the order given and seeded S + g - 1, S being --seed
    /// (scripted --rolls are used in order across the games). The series stops as soon as no
    /// other seat can catch the leader (the leader's wins exceed every other seat's wins plus
    /// the games left); the seat with most wins takes it, and one that ends level is drawn.
    /// Standings are shown after each game (--json: one object with each game's result and the
    /// final standings); the games and the series are recorded in the game database. Not with
    /// --load, --save, --stop-after or --setup, which are about one game.
    #[arg(long, value_name = "K")]
    pub(crate) games: Option<u64>,
}

/// A series being played: its seats as given, where it stands, and where it is recorded.
struct Series {
    seats: Vec<Seat>,
    best_of: u32,
    seed: Option<u64>,
    /// The database the series is recorded in, if it is.
    record: Option<Database>,
    /// The series' row: numbered once its first game is recorded (in the same transaction).
    row: NewSeries,
    wins: Vec<u64>,
    /// Each finished game's result object, in order.
    results: Vec<serde_json::Value>,
    /// Games finished.
    played: u32,
    over: bool,
}

/// A new game of a series: the game, its dice and what its board is called.
type NewGame = (Game, DiceState, String);

/// Sets up a new game of a series from its seats (rotated) and its seed.
type NewGames<'a> =
    dyn FnMut(&[Seat], Option<u64>, &mut Console) -> CmdResult<Option<NewGame>> + 'a;

/// Plays the series `args` asks for, the best of `games`.
pub(crate) fn run(args: &PlayArgs, games: u64, console: &mut Console) -> CmdResult {
    let best_of = check(args, games)?;
    let seats = seats_of(args, console)?;
    let scripted = args.rolls.is_some();
    let seed = (!scripted).then(|| args.game.seed.unwrap_or_else(fresh_seed));
    let db_path = if args.no_record {
        None
    } else {
        let path = args.table.db.path();
        if path.is_none() {
            snl_tui::stderr_line!(
                "snl: warning: no game database (HOME is not set); this series is not recorded"
            );
        }
        path
    };
    let record = db_path.as_deref().and_then(|path| {
        let opened = Database::open(path);
        opened.map_err(|e| warn_unrecorded(path, &e, "this series is not recorded")).ok()
    });
    let setup = RandomSetup::of(args).map(|s| s.to_text());
    let mut series = Series {
        wins: vec![0; seats.len()],
        seats,
        best_of,
        seed,
        record,
        row: NewSeries { id: None, best_of, seed, setup },
        results: Vec::new(),
        played: 0,
        over: false,
    };
    let mut new_game = |players: &[Seat], seed: Option<u64>, console: &mut Console| {
        let mut one = args.clone();
        one.series.games = None;
        one.setup = false;
        one.players = players.iter().map(seat_text).collect();
        one.game.seed = seed;
        let start = Start::new_game(&one, console, false)?;
        Ok(start.map(|s| (s.game, s.dice, s.board_name)))
    };
    let tell_seed = args.game.seed.is_none() && !scripted;
    if !play_games(&mut series, 1, None, &mut new_game, &args.table, console)? {
        return Ok(());
    }
    finish(&series, tell_seed, &args.table, console)
}

/// Goes on with the series game `id` belongs to, as game `number` of `summary`, from the resumed
/// game in `seated` (`snl resume`): that game is played on, then the rest of the series on the
/// same board with the same rules, seats rotating and seeded as `snl play --games` does, the
/// standings counting the series' earlier games, all recorded in the same series.
pub(crate) fn go_on(
    summary: &SeriesSummary,
    number: u32,
    mut seated: Seated,
    opts: &TableArgs,
    console: &mut Console,
) -> CmdResult {
    let game = seated.session.game();
    let n = game.seats().len();
    let first = (number as usize).saturating_sub(1) % n;
    // The game's seats are the series' rotated: the series' seats are these turned back.
    let back = (n - first) % n;
    let given = game.seats();
    let seats: Vec<Seat> = given[back..].iter().chain(&given[..back]).cloned().collect();
    let (board, rules, board_name) =
        (game.board().clone(), *game.rules(), seated.session.board_name().to_owned());
    let mut series = series_again(summary, seats, seated.kept.db.as_deref());
    if let Some(db) = &series.record {
        let (done, current) = (&mut series.results, seated.kept.game_id);
        earlier_games(done, &mut series.wins, &series.seats, db, summary, current)?;
        series.played = u32::try_from(series.results.len()).unwrap_or(u32::MAX);
    }
    let intro = seated.intro.take().unwrap_or_default();
    let who = &series.seats[first].name;
    seated.intro =
        Some(format!("{intro} Game {number} of a best of {}: {who} started it.", summary.best_of));
    let random = summary.setup.as_deref().and_then(RandomSetup::from_text);
    let mut new_game = games_like(board, rules, board_name, random);
    play_games(&mut series, number, Some(seated), &mut new_game, opts, console)?;
    finish(&series, false, opts, console)
}

/// Goes on with series `summary`, cut off between two games (`snl resume` of a series whose
/// games are all over, killed before its next game was recorded or its standing was): its next
/// game is set up as the last one's (seats rotated, seeded, its own board when random), or the
/// series ends when it is decided.
pub(crate) fn go_on_between(
    summary: &SeriesSummary,
    db: &Database,
    opts: &TableArgs,
    console: &mut Console,
) -> CmdResult {
    let path = db.path().to_owned();
    let failed = |e: &snl_store::DbError| crate::records::db_failure(&path, e);
    let last = *summary.games.last().ok_or_else(|| {
        Failure::bad(anyhow::anyhow!("series {} has no game to go on from", summary.id))
    })?;
    let save = db.load(last).map_err(|e| failed(&e))?;
    let game = save.restore().map_err(|e| {
        Failure::bad(anyhow::anyhow!("game {last} of series {} cannot be read: {e}", summary.id))
    })?;
    let number = db.series_of(last).map_err(|e| failed(&e))?.map_or(1, |(_, g)| g);
    let n = game.seats().len().max(1);
    let back = (n - (number as usize).saturating_sub(1) % n) % n;
    let given = game.seats();
    let seats: Vec<Seat> = given[back..].iter().chain(&given[..back]).cloned().collect();
    let mut series = series_again(summary, seats, Some(&path));
    if let Some(db) = &series.record {
        earlier_games(&mut series.results, &mut series.wins, &series.seats, db, summary, None)?;
    }
    series.played = u32::try_from(series.results.len()).unwrap_or(u32::MAX);
    let left = u64::from(summary.best_of.saturating_sub(number));
    series.over = decided(&series.wins, left);
    let text = !opts.json && opts.events.is_none();
    if text {
        writeln!(console.out, "Going on with series {}, after game {number}.", summary.id)
            .or_other()?;
    }
    if series.over {
        record_standing(&mut series);
    } else {
        let random = summary.setup.as_deref().and_then(RandomSetup::from_text);
        let (board, rules) = (game.board().clone(), *game.rules());
        let mut new_game = games_like(board, rules, save.board_name.clone(), random);
        play_games(&mut series, number + 1, None, &mut new_game, opts, console)?;
    }
    finish(&series, false, opts, console)
}

/// A recorded series set up again to go on (`snl resume`), its standing still to be read.
fn series_again(
    summary: &SeriesSummary,
    seats: Vec<Seat>,
    db_path: Option<&std::path::Path>,
) -> Series {
    let record = db_path.and_then(|path| {
        let opened = Database::open(path);
        opened.map_err(|e| warn_unrecorded(path, &e, "the series' standing is not recorded")).ok()
    });
    Series {
        wins: vec![0; seats.len()],
        seats,
        best_of: summary.best_of,
        seed: summary.seed,
        record,
        row: NewSeries {
            id: Some(summary.id),
            best_of: summary.best_of,
            seed: summary.seed,
            setup: summary.setup.clone(),
        },
        results: Vec::new(),
        played: 0,
        over: false,
    }
}

/// New games of a resumed series: on `board` with `rules`, or on a random board of `random`'s
/// drawn from each game's seed as `play --games` draws it.
fn games_like(
    board: Board,
    rules: Rules,
    board_name: String,
    random: Option<RandomSetup>,
) -> impl FnMut(&[Seat], Option<u64>, &mut Console) -> CmdResult<Option<NewGame>> {
    move |players: &[Seat], seed: Option<u64>, _: &mut Console| {
        let board = match &random {
            Some(random) => random.board(seed.unwrap_or(0), &rules)?,
            None => board.clone(),
        };
        let mut game = Game::new(board, rules, players.to_vec()).or_bad()?;
        game.set_clock(now_ms);
        let dice = DiceState::seeded(seed.unwrap_or_else(fresh_seed));
        Ok(Some((game, dice, board_name.clone())))
    }
}

/// A random board's parameters, kept with its series (the series' setup, as JSON) so that the
/// games after a resumed one are each dealt their own board, drawn from their own seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct RandomSetup {
    size: u32,
    snakes: u32,
    ladders: u32,
    effects: u32,
    min_jump: u32,
}

impl RandomSetup {
    /// The random board `--board random` asks for, if it does.
    fn of(args: &PlayArgs) -> Option<RandomSetup> {
        let game = &args.game;
        (game.board.parse::<Preset>().ok()? == Preset::Random).then_some(RandomSetup {
            size: game.size,
            snakes: game.snakes,
            ladders: game.ladders,
            effects: game.effects,
            min_jump: game.min_jump,
        })
    }

    fn to_text(&self) -> String {
        serde_json::json!({"board": "random", "random": self}).to_string()
    }

    fn from_text(text: &str) -> Option<RandomSetup> {
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        serde_json::from_value(value.get("random")?.clone()).ok()
    }

    /// The board of the game seeded `seed`.
    fn board(&self, seed: u64, rules: &Rules) -> CmdResult<Board> {
        let params = RandomBoard {
            size: self.size,
            snakes: self.snakes,
            ladders: self.ladders,
            seed,
            min_jump: self.min_jump,
        };
        params.check().or_bad()?;
        Board::new(&params.spec_with_effects(rules, self.effects), rules).or_bad()
    }
}

/// The results of the series' finished games but the one resumed (`current`), and the wins
/// they gave `seats`.
fn earlier_games(
    results: &mut Vec<serde_json::Value>,
    wins: &mut [u64],
    seats: &[Seat],
    db: &Database,
    summary: &SeriesSummary,
    current: Option<GameId>,
) -> CmdResult {
    let path = db.path().to_owned();
    for &id in summary.games.iter().filter(|&&id| Some(id) != current) {
        let failed = |e: &snl_store::DbError| crate::records::db_failure(&path, e);
        let save = db.load(id).map_err(|e| failed(&e))?;
        if save.game.status != Status::Finished {
            continue;
        }
        let game = save.restore().map_err(|e| {
            Failure::bad(anyhow::anyhow!("game {id} of series {} cannot be read: {e}", summary.id))
        })?;
        let number = db.series_of(id).map_err(|e| failed(&e))?.map_or(0, |(_, g)| g);
        let Some(&winner) = game.ranking().first() else { continue };
        let name = &game.seats()[winner].name;
        if let Some(seat) = seats.iter().position(|s| &s.name == name) {
            wins[seat] += 1;
        }
        let mut result = game_json(&game, save.dice.seed());
        result["game"] = serde_json::json!(number);
        result["game_id"] = serde_json::json!(id);
        result["first"] = serde_json::json!(game.seats()[0].name);
        result["seed"] = serde_json::json!(save.dice.seed());
        results.push(result);
    }
    Ok(())
}

/// Plays games `from` to the series' last (or until it is decided, or a game is stopped):
/// game `from` is `resumed` when given (recorded and linked already), the others come from
/// `new_game` (their seats rotated, their seed), each recorded and linked to the series, with
/// the standings after each. False when a new game's setup was given up (nothing more to say).
fn play_games(
    series: &mut Series,
    from: u32,
    mut resumed: Option<Seated>,
    new_game: &mut NewGames<'_>,
    table: &TableArgs,
    console: &mut Console,
) -> CmdResult<bool> {
    let best_of = series.best_of;
    let seats = series.seats.clone();
    let n = seats.len().max(1);
    // Each game is played as `play` plays one: on the full screen in a terminal (the standings
    // so far open each next game's log, and are printed between the games), else the console.
    let opts = table.clone();
    let text = !opts.json && opts.events.is_none();
    let mut rest: Option<Vec<Scripted>> = None;
    for g in from..=best_of {
        let first = starter(g, n);
        let mut seated = if let Some(seated) = resumed.take() {
            seated
        } else {
            let players: Vec<Seat> =
                seats[first..].iter().chain(&seats[..first]).cloned().collect();
            let seed = series.seed.map(|s| s.wrapping_add(u64::from(g) - 1));
            let Some((game, mut dice, board_name)) = new_game(&players, seed, console)? else {
                return Ok(false);
            };
            if let Some(rolls) = rest.take() {
                dice = DiceState::Scripted(ScriptedDice::new(rolls));
            }
            let mut session = Session::new(game, dice, &board_name);
            let recorded = series.record.as_ref().map(Database::path).and_then(|path| {
                // The game's own connection, recorded with its link to the series (and the
                // series with its first game) in one transaction.
                let started = Database::open(path).and_then(|mut db| {
                    let id =
                        db.new_game_in_series(&session.save(), &mut series.row, g, now_ms())?;
                    Ok((db, id))
                });
                started.map_err(|e| warn_unrecorded(path, &e, "this game is not recorded")).ok()
            });
            let kept = keep(&mut session, None, None, recorded)?;
            let names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
            let so_far = (series.played > 0).then(|| so_far(&names, &series.wins));
            let intro = series_intro(g, best_of, &seats[first].name, so_far.as_deref());
            Seated { session, kept, tell_seed: false, intro: Some(intro) }
        };
        let script = match seated.session.dice() {
            DiceState::Scripted(s) => Some(s.rolls().to_vec()),
            DiceState::Seeded { .. } => None,
        };
        let game_seed = seated.session.dice().seed();
        let game_id = seated.kept.game_id;
        let outcome = Arc::new(Mutex::new(Outcome::default()));
        seated.session.record_with(Box::new(Tracker(Arc::clone(&outcome))));
        let played_out = if opts.json {
            // Each game's own result object is not printed: the series prints one at the end.
            let out = std::mem::replace(&mut console.out, Box::new(std::io::sink()));
            let mut quiet = opts.clone();
            quiet.json = true;
            let played_out = at_table(seated, &quiet, console);
            console.out = out;
            played_out
        } else {
            at_table(seated, &opts, console)
        };
        played_out?;
        let outcome = outcome.lock().map(|o| o.clone()).unwrap_or_default();
        let Some(winner) = outcome.ranking.first() else {
            // Stopped on purpose before its end: the series stops with it.
            if text {
                writeln!(console.out, "The series stopped during game {g}.").or_other()?;
            }
            break;
        };
        if let Some(seat) = seats.iter().position(|s| &s.name == winner) {
            series.wins[seat] += 1;
        }
        if let Some(script) = script {
            rest = Some(script[outcome.used_rolls.min(script.len())..].to_vec());
        }
        series.played += 1;
        let mut result = outcome.result.clone();
        result["game"] = serde_json::json!(g);
        result["game_id"] = serde_json::json!(game_id);
        result["first"] = serde_json::json!(seats[first].name);
        result["seed"] = serde_json::json!(game_seed);
        series.results.push(result);
        let wins = &series.wins;
        series.over = decided(wins, u64::from(best_of - g));
        if text {
            writeln!(console.out, "\nStandings after game {g} of a best of {best_of}:")
                .or_other()?;
            standings(&seats, wins).write(console.out.as_mut()).or_other()?;
        }
        record_standing(series);
        if series.over {
            break;
        }
    }
    Ok(true)
}

/// Records where the series stands (games played, over or not, who won it).
fn record_standing(series: &mut Series) {
    let leader = series.over.then(|| leader(&series.wins)).flatten();
    let leader = leader.map(|s| series.seats[s].name.as_str());
    if let (Some(db), Some(id)) = (&mut series.record, series.row.id)
        && let Err(e) = db.update_series(id, series.played, series.over, leader, now_ms())
    {
        warn_unrecorded(db.path(), &e, "the series' standing is not recorded");
    }
}

/// The series' end: its result object (`--json`), or who won it.
fn finish(series: &Series, tell_seed: bool, opts: &TableArgs, console: &mut Console) -> CmdResult {
    let (seats, wins) = (&series.seats, &series.wins);
    let text = !opts.json && opts.events.is_none();
    let leader = series.over.then(|| leader(wins)).flatten();
    let out = console.out.as_mut();
    if opts.json {
        let standing: Vec<serde_json::Value> = order(wins)
            .into_iter()
            .map(|s| serde_json::json!({"name": seats[s].name, "wins": wins[s]}))
            .collect();
        let value = serde_json::json!({
            "series_id": series.row.id,
            "best_of": series.best_of,
            "seed": series.seed,
            "played": series.played,
            "over": series.over,
            "winner": leader.map(|s| &seats[s].name),
            "standings": standing,
            "games": series.results,
        });
        writeln!(out, "{value}").or_other()?;
    } else if text && series.over {
        let winner = leader.map(|s| seats[s].name.as_str());
        let said = series_standing((series.played, series.best_of), Some(winner), &score(wins), "");
        writeln!(out, "{said}").or_other()?;
        if let (true, Some(seed)) = (tell_seed, series.seed) {
            writeln!(out, "This series was seed {seed}: play it again with --seed {seed}.")
                .or_other()?;
        }
    }
    Ok(())
}

/// The number of games, checked, and the options a series cannot take refused.
fn check(args: &PlayArgs, games: u64) -> CmdResult<u32> {
    let refuse = |why: String| Err(Failure::bad(anyhow::anyhow!(why)));
    if !(1..=MAX_GAMES).contains(&games) {
        return refuse(format!(
            "--games {games} is not a number of games for a series: use 1 to {MAX_GAMES}"
        ));
    }
    if args.load.is_some() {
        return refuse(
            "--games plays a new series and cannot go on with a saved game (--load)".into(),
        );
    }
    if args.table.save.is_some() {
        return refuse(
            "--save keeps one game, not a series: the series is kept in the game database".into(),
        );
    }
    if args.table.stop_after.is_some() {
        return refuse("--stop-after stops one game and cannot stop a series (--games)".into());
    }
    if args.setup {
        return refuse("--setup asks about one game: give a series its seats with --player".into());
    }
    Ok(games as u32)
}

/// The seats as given (or the default ones).
fn seats_of(args: &PlayArgs, console: &Console) -> CmdResult<Vec<Seat>> {
    if !args.players.is_empty() {
        return parse_seats(&args.players);
    }
    let interactive = console.stdin_tty && console.stdout_tty;
    Ok(if interactive && !args.table.json && args.table.events.is_none() {
        vec![
            Seat::new("You", SeatKind::Human),
            Seat::new(snl_words::seat_default_name(1, SeatKind::Hard), SeatKind::Hard),
        ]
    } else {
        default_computer_seats()
    })
}

fn seat_text(seat: &Seat) -> String {
    format!("{}:{}", seat.name, seat.kind)
}

fn standings(seats: &[Seat], wins: &[u64]) -> Table {
    let mut table = Table::new(&[("PLAYER", Align::Left), ("WINS", Align::Right)]);
    for s in order(wins) {
        table.row([seats[s].name.clone(), wins[s].to_string()]);
    }
    table
}

/// How a game of the series ended, as its tracker saw it.
#[derive(Clone, Debug, Default)]
struct Outcome {
    /// The ranking by name, once the game is over (empty before).
    ranking: Vec<String>,
    /// The game's result object (`play --json`'s), once it is over.
    result: serde_json::Value,
    /// Scripted rolls the game used.
    used_rolls: usize,
}

/// A recorder that keeps nothing but tells the series how its game ended.
#[derive(Debug)]
struct Tracker(Arc<Mutex<Outcome>>);

impl Recorder for Tracker {
    fn keep(&mut self, kept: &Told<'_>) -> Result<(), String> {
        let Ok(mut outcome) = self.0.lock() else { return Ok(()) };
        if let DiceState::Scripted(s) = kept.dice {
            outcome.used_rolls = s.used();
        }
        let game = kept.game;
        if game.status() == Status::Finished {
            outcome.ranking =
                game.ranking().iter().map(|&s| game.seats()[s].name.clone()).collect();
            outcome.result = game_json(game, kept.dice.seed());
        } else {
            outcome.ranking.clear();
        }
        Ok(())
    }

    fn stopped(&mut self) -> Result<(), String> {
        Ok(())
    }
}
