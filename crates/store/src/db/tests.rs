// Long because it is the store's unit tests, one per behaviour of the database.
//! The database recorded and read back: every game, status, statistic, schema and failure.

use std::fs;

use rusqlite::Connection;
use snl_engine::{Board, FirstOption, Game, Preset, Rules, ScriptedDice, Seat, SeatKind, Status};

use super::*;
use crate::{dice::DiceState, save::Save, test_dir::TestDir};

struct Table {
    game: Game,
    dice: DiceState,
}

impl Table {
    fn new(names: &[&str], dice: DiceState) -> Table {
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = names.iter().map(|n| Seat::new(*n, SeatKind::Easy)).collect();
        Table { game: Game::new(board, rules, seats).unwrap(), dice }
    }

    fn save(&self) -> Save {
        Save::new(&self.game, &self.dice, "classic")
    }

    fn turn(&mut self, db: &mut Database, id: GameId) {
        let mut events = Vec::new();
        self.game.play_turn(&mut self.dice, &mut FirstOption, &mut events).unwrap();
        db.record(id, Action::Turn, &self.save(), &events, 1_000).unwrap();
    }

    fn play_out(&mut self, db: &mut Database, id: GameId) {
        while self.game.status() != Status::Finished {
            self.turn(db, id);
        }
    }
}

/// On the classic board — Ann: 0→6⇒25 (ladder), 31, 37, 43, 46⇒90 (ladder), 94, 99⇒54 (snake,
/// 45 down), 60⇒85 (ladder), 91, 97, 100 in 11 rolls; Bob: 5, 10, 16, 17⇒69 (ladder), 70⇒55
/// (snake, 15 down), 56, 57, 58, 59, 60⇒85 (ladder).
const FIRST_SEAT_WINS: &str = "6,5,6,5,6,6,6,1,3,1,4,1,5,1,6,1,6,1,6,1,3";

fn scripted(rolls: &str) -> DiceState {
    DiceState::Scripted(ScriptedDice::parse(rolls, snl_engine::Dice::D6).unwrap())
}

#[test]
fn a_recorded_game_loads_back_as_it_stood_after_each_turn() {
    let dir = TestDir::new("db-record");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let mut table = Table::new(&["Ann", "Bob"], DiceState::seeded(9));
    let id = db.new_game(&table.save(), 0).unwrap();
    for _ in 0..5 {
        table.turn(&mut db, id);
        assert_eq!(db.load(id).unwrap(), table.save());
    }
    assert_eq!(db.status(id).unwrap(), GameStatus::Playing);
    assert_eq!(db.latest_unfinished().unwrap(), Some(id));
    table.play_out(&mut db, id);
    assert_eq!(db.status(id).unwrap(), GameStatus::Finished);
    assert_eq!(db.latest_unfinished().unwrap(), None);
    let moves = db.moves(id, None).unwrap();
    assert_eq!(moves, MoveRow::from_history(&table.game.state()));
    let bob = db.moves(id, Some("Bob")).unwrap();
    assert!(bob.iter().all(|m| m.player == "Bob") && !bob.is_empty());
}

#[test]
fn the_list_shows_seats_winner_and_status_newest_first() {
    let dir = TestDir::new("db-list");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let mut first = Table::new(&["Ann", "Bob"], scripted("6,1,1,1"));
    let a = db.new_game(&first.save(), 10).unwrap();
    first.turn(&mut db, a);
    db.mark_stopped(a, 20).unwrap();
    let mut second = Table::new(&["Cy", "Di"], DiceState::seeded(1));
    let b = db.new_game(&second.save(), 30).unwrap();
    second.play_out(&mut db, b);
    let games = db.games().unwrap();
    assert_eq!(games.iter().map(|g| g.id).collect::<Vec<_>>(), [b, a]);
    assert_eq!(games[1].status, GameStatus::Stopped);
    assert_eq!(games[1].turns, 1);
    assert_eq!(games[1].seats[0], Seat::new("Ann", SeatKind::Easy));
    assert_eq!(games[0].status, GameStatus::Finished);
    let winner = &second.game.seats()[second.game.ranking()[0]].name;
    assert_eq!(games[0].winner.as_ref(), Some(winner));
    assert_eq!(games[0].board, "classic");
    assert_eq!(
        db.actions(a).unwrap(),
        [("start".into(), 0), ("turn".into(), 1), ("stop".into(), 1)]
    );
}

#[test]
fn the_list_comes_in_pages_newest_first() {
    let dir = TestDir::new("db-pages");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let ids: Vec<GameId> = (0..5)
        .map(|i| db.new_game(&Table::new(&["Ann", "Bob"], DiceState::seeded(i)).save(), i).unwrap())
        .collect();
    let ids_of = |page: Vec<GameSummary>| page.iter().map(|g| g.id).collect::<Vec<_>>();
    assert_eq!(ids_of(db.games_page(None, 2).unwrap()), [ids[4], ids[3]]);
    assert_eq!(ids_of(db.games_page(Some(ids[3]), 2).unwrap()), [ids[2], ids[1]]);
    assert_eq!(ids_of(db.games_page(Some(ids[1]), 2).unwrap()), [ids[0]]);
    assert_eq!(db.games_page(None, usize::MAX).unwrap(), db.games().unwrap());
}

#[test]
fn an_undo_deletes_the_taken_back_moves_and_a_redo_puts_them_back() {
    let dir = TestDir::new("db-undo");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let mut table = Table::new(&["Ann", "Bob"], DiceState::seeded(2));
    let id = db.new_game(&table.save(), 0).unwrap();
    table.turn(&mut db, id);
    let back = table.save();
    table.turn(&mut db, id);
    table.turn(&mut db, id);
    let ahead = table.save();
    db.record(id, Action::Undo, &back, &[], 5).unwrap();
    assert_eq!(db.moves(id, None).unwrap().len(), 1);
    assert_eq!(db.load(id).unwrap(), back);
    db.record(id, Action::Redo, &ahead, &[], 6).unwrap();
    assert_eq!(db.moves(id, None).unwrap().len(), 3);
    let log: Vec<String> = db.actions(id).unwrap().into_iter().map(|(a, _)| a).collect();
    assert_eq!(log, ["start", "turn", "turn", "turn", "undo", "redo"]);
}

#[test]
fn stats_count_finished_games_wins_rolls_snakes_ladders_and_the_longest_slide() {
    let dir = TestDir::new("db-stats");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let mut game = Table::new(&["Ann", "Bob"], scripted(FIRST_SEAT_WINS));
    let id = db.new_game(&game.save(), 0).unwrap();
    game.play_out(&mut db, id);
    assert_eq!(game.game.ranking(), [0, 1], "{:?}", game.game.history());
    // An unfinished game does not count.
    let mut cut = Table::new(&["Ann", "Bob"], DiceState::seeded(3));
    let other = db.new_game(&cut.save(), 0).unwrap();
    cut.turn(&mut db, other);

    let stats = db.stats(None).unwrap();
    let ann = &stats[0];
    assert_eq!((ann.name.as_str(), ann.games, ann.wins, ann.finished), ("Ann", 1, 1, 1));
    assert_eq!(ann.average_rolls_to_finish, Some(f64::from(game.game.rolls_of(0))));
    assert_eq!((ann.snakes, ann.ladders, ann.longest_slide), (1, 3, 45));
    let bob = &stats[1];
    assert_eq!((bob.wins, bob.finished, bob.average_rolls_to_finish), (0, 0, None));
    assert_eq!((bob.snakes, bob.ladders, bob.longest_slide), (1, 2, 15));
    assert_eq!(db.stats(Some("Bob")).unwrap(), std::slice::from_ref(bob));
    assert!(db.stats(Some("Zed")).unwrap().is_empty());
}

#[test]
fn the_leaderboard_ranks_by_wins_then_win_rate() {
    let dir = TestDir::new("db-board");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let wins_for = |db: &mut Database, names: &[&str]| {
        let mut t = Table::new(names, scripted(FIRST_SEAT_WINS));
        let id = db.new_game(&t.save(), 0).unwrap();
        t.play_out(db, id);
        assert_eq!(t.game.ranking()[0], 0);
    };
    wins_for(&mut db, &["Ann", "Bob"]);
    wins_for(&mut db, &["Ann", "Cy"]);
    wins_for(&mut db, &["Bob", "Ann"]);
    wins_for(&mut db, &["Cy", "Di"]);
    let board: Vec<(String, u32, u32)> =
        db.leaderboard().unwrap().into_iter().map(|p| (p.name, p.wins, p.games)).collect();
    // Ann 2 of 3; Cy 1 of 2 and Bob 1 of 2 (tied: by name); Di 0 of 1.
    assert_eq!(
        board,
        [("Ann".into(), 2, 3), ("Bob".into(), 1, 2), ("Cy".into(), 1, 2), ("Di".into(), 0, 1)]
    );
}

#[test]
fn an_old_schema_is_upgraded_and_keeps_its_games() {
    let dir = TestDir::new("db-migrate");
    let path = dir.path().join("games.db");
    let table = Table::new(&["Ann", "Bob"], DiceState::seeded(1));
    // The database as version 1 left it: no indexes, no heads, no chosen options, a row per move.
    let db = Database::open_at(&path, 1).unwrap();
    assert_eq!(db.schema_version().unwrap(), 1);
    write_v1_to_v3(&db, &table.save(), &table.save(), None);
    drop(db);
    let db = Database::open(&path).unwrap();
    assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
    let indexes: u32 = db
        .conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'seats_by_name'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(indexes, 1);
    assert_eq!(db.load(GameId(1)).unwrap(), table.save());
}

/// A count as SQLite's integer.
fn n(count: usize) -> i64 {
    i64::try_from(count).unwrap()
}

/// Writes game 1 as schemas 1 to 3 kept it: the games row with `start` (and, from schema 3, the
/// `head` of the game now), the seats as `now` leaves them, a row per move with its snakes,
/// ladders and longest slide, and one log line per turn.
fn write_v1_to_v3(db: &Database, start: &Save, now: &Save, head: Option<&str>) {
    let game = &now.game;
    let (finished, turns) = (game.status == Status::Finished, game.turns);
    let winner = finished.then(|| game.seats[game.ranking[0]].name.clone());
    let save = if head.is_some() { start.to_json() } else { now.to_json() };
    let status = if finished { "finished" } else { "playing" };
    let head_column = if head.is_some() { ", head" } else { "" };
    let head_value = if head.is_some() { ", ?6" } else { "" };
    let sql = format!(
        "INSERT INTO games (id, started_ms, updated_ms, board, board_size, rules, seed, status,
                            turns, winner, save{head_column})
         VALUES (1, 0, 9, 'classic', 100, ?1, NULL, ?2, ?3, ?4, ?5{head_value})"
    );
    let rules = start.game.rules.to_string();
    match &head {
        Some(head) => {
            db.conn.execute(&sql, rusqlite::params![rules, status, turns, winner, save, head])
        }
        None => db.conn.execute(&sql, rusqlite::params![rules, status, turns, winner, save]),
    }
    .unwrap();
    for (seat, s) in game.seats.iter().enumerate() {
        let rank = game.ranking.iter().position(|&r| r == seat).map(|r| r + 1);
        let rolls = game.history.iter().filter(|m| m.seat == seat).count();
        db.conn
            .execute(
                "INSERT INTO seats (game_id, seat, name, kind, position, rank, finished, rolls)
                 VALUES (1, ?1, ?2, 'easy', ?3, ?4, ?5, ?6)",
                rusqlite::params![
                    n(seat),
                    s.name,
                    game.seat_states[seat].cell(),
                    rank.map(n),
                    game.seat_states[seat].cell() == 100,
                    n(rolls)
                ],
            )
            .unwrap();
    }
    let chosen = if head.is_some() { ", chosen" } else { "" };
    let chosen_value = if head.is_some() { ", NULL" } else { "" };
    for (i, m) in game.history.iter().enumerate() {
        let snakes = m.jumps.iter().filter(|j| j.is_snake()).count();
        let slide = m.jumps.iter().filter(|j| j.is_snake()).map(|j| j.from - j.to).max();
        let dice: Vec<String> = m.roll.dice().iter().map(u8::to_string).collect();
        db.conn
            .execute(
                &format!(
                    "INSERT INTO moves (game_id, number, turn, seat, roll, dice, from_pos, to_pos,
                                        kind, jumps, snakes, ladders, longest_slide,
                                        time_ms{chosen})
                     VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13{chosen_value})"
                ),
                rusqlite::params![
                    n(i + 1),
                    m.turn,
                    n(m.seat),
                    m.roll.total(),
                    dice.join("+"),
                    m.from,
                    m.to,
                    serde_json::to_value(m.kind).unwrap().as_str().unwrap(),
                    serde_json::to_string(&m.jumps).unwrap(),
                    n(snakes),
                    n(m.jumps.len() - snakes),
                    slide.unwrap_or(0),
                    m.time_ms.map(u64::cast_signed),
                ],
            )
            .unwrap();
    }
    for turn in 0..=turns {
        let action = if turn == 0 { "start" } else { "turn" };
        db.conn
            .execute(
                "INSERT INTO actions (game_id, seq, action, turns, at_ms) VALUES (1, ?1, ?2, ?1 - 1, 0)",
                rusqlite::params![turn + 1, action],
            )
            .unwrap();
    }
}

#[test]
fn a_schema_3_database_is_read_with_every_move_and_tally_read_only_or_upgraded() {
    let dir = TestDir::new("db-schema3");
    let path = dir.path().join("games.db");
    let mut table = Table::new(&["Ann", "Bob"], scripted(FIRST_SEAT_WINS));
    let start = table.save();
    while table.game.status() != Status::Finished {
        table.game.play_turn(&mut table.dice, &mut FirstOption, &mut ()).unwrap();
    }
    let db = Database::open_at(&path, 3).unwrap();
    write_v1_to_v3(
        &db,
        &start,
        &table.save(),
        Some(&progress::head_text(&table.game, &table.dice)),
    );
    drop(db);
    let check = |db: &Database| {
        let id = GameId(1);
        assert_eq!(db.load(id).unwrap(), table.save());
        assert_eq!(db.status(id).unwrap(), GameStatus::Finished);
        assert_eq!(db.moves(id, None).unwrap(), MoveRow::from_history(&table.game.state()));
        let stats = db.stats(None).unwrap();
        assert_eq!((stats[0].snakes, stats[0].ladders, stats[0].longest_slide), (1, 3, 45));
        assert_eq!((stats[1].snakes, stats[1].ladders, stats[1].longest_slide), (1, 2, 15));
        assert_eq!(db.games().unwrap()[0].winner.as_deref(), Some("Ann"));
    };

    // Read-only, it is read as it is.
    let mut perms = fs::metadata(&path).unwrap().permissions();
    perms.set_readonly(true);
    fs::set_permissions(&path, perms.clone()).unwrap();
    let db = Database::open_existing(&path).unwrap();
    assert_eq!(db.schema_version().unwrap(), 3);
    check(&db);
    drop(db);
    #[expect(clippy::permissions_set_readonly_false, reason = "the test's own file, again")]
    perms.set_readonly(false);
    fs::set_permissions(&path, perms).unwrap();

    // Writable, it is upgraded first, and every reader sees the same game.
    let db = Database::open_existing(&path).unwrap();
    check(&db);
    assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
    let old_table: u32 = db
        .conn
        .query_row("SELECT COUNT(*) FROM sqlite_master WHERE name = 'moves'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(old_table, 0, "the moves are in runs now");
    drop(db);

    // And recording goes on in it.
    let mut db = Database::open(&path).unwrap();
    let mut next = Table::new(&["Ann", "Cy"], scripted(FIRST_SEAT_WINS));
    let other = db.new_game(&next.save(), 0).unwrap();
    next.play_out(&mut db, other);
    assert_eq!(db.load(other).unwrap(), next.save());
    assert_eq!(db.stats(Some("Ann")).unwrap()[0].snakes, 2);
}

#[test]
fn a_schema_4_database_is_read_without_series_read_only_or_upgraded_to_keep_them() {
    let dir = TestDir::new("db-schema4");
    let path = dir.path().join("games.db");
    let mut db = Database::open_at(&path, 4).unwrap();
    let mut table = Table::new(&["Ann", "Bob"], scripted(FIRST_SEAT_WINS));
    let id = db.new_game(&table.save(), 0).unwrap();
    table.play_out(&mut db, id);
    drop(db);
    let check = |db: &Database| {
        assert_eq!(db.load(id).unwrap(), table.save());
        let games = db.games().unwrap();
        assert_eq!((games[0].winner.as_deref(), games[0].series), (Some("Ann"), None));
        let stats = db.stats(Some("Ann")).unwrap();
        assert_eq!((stats[0].wins, stats[0].series, stats[0].series_won), (1, 0, 0));
        assert_eq!(db.achievements("Ann").unwrap(), vec![]);
    };

    // Read-only, it is read as it is: no series, no achievements.
    let mut perms = fs::metadata(&path).unwrap().permissions();
    perms.set_readonly(true);
    fs::set_permissions(&path, perms.clone()).unwrap();
    let db = Database::open_existing(&path).unwrap();
    assert_eq!(db.schema_version().unwrap(), 4);
    check(&db);
    drop(db);
    #[expect(clippy::permissions_set_readonly_false, reason = "the test's own file, again")]
    perms.set_readonly(false);
    fs::set_permissions(&path, perms).unwrap();

    // Writable, it is upgraded on first opening, keeps its game, and takes series.
    let db = Database::open_existing(&path).unwrap();
    assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
    check(&db);
    drop(db);
    let mut db = Database::open(&path).unwrap();
    let series = db.new_series(3, Some(7), 5).unwrap();
    db.add_to_series(series, id, 1).unwrap();
    db.update_series(series, 1, true, Some("Ann"), 6).unwrap();
    let games = db.games().unwrap();
    assert_eq!((games[0].series, games[0].series_game), (Some(series), Some(1)));
    let stats = db.stats(Some("Ann")).unwrap();
    assert_eq!((stats[0].series, stats[0].series_won), (1, 1));
    assert_eq!((db.stats(Some("Bob")).unwrap()[0].series_won), 0);
}

#[test]
fn a_series_links_its_games_and_counts_once_over() {
    let dir = TestDir::new("db-series");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let series = db.new_series(5, Some(u64::MAX), 10).unwrap();
    let mut ids = Vec::new();
    for number in 1..=2 {
        let mut table = Table::new(&["Ann", "Bob"], scripted(FIRST_SEAT_WINS));
        let id = db.new_game(&table.save(), 20).unwrap();
        db.add_to_series(series, id, number).unwrap();
        table.play_out(&mut db, id);
        db.update_series(series, number, false, None, 30).unwrap();
        ids.push(id);
    }
    let standing = db.series(series).unwrap();
    assert_eq!((standing.played, standing.finished, standing.seed), (2, false, Some(u64::MAX)));
    assert_eq!(standing.games, ids);
    // A series under way counts for nobody yet.
    assert_eq!(db.stats(Some("Ann")).unwrap()[0].series, 0);
    db.update_series(series, 2, true, Some("Ann"), 40).unwrap();
    let ann = &db.stats(Some("Ann")).unwrap()[0];
    assert_eq!((ann.games, ann.series, ann.series_won), (2, 1, 1));
    let bob = &db.stats(Some("Bob")).unwrap()[0];
    assert_eq!((bob.series, bob.series_won), (1, 0));
    assert_eq!(db.series_of(ids[1]).unwrap(), Some((series, 2)));
    assert_eq!(db.series(series).unwrap().winner.as_deref(), Some("Ann"));
}

#[test]
fn an_achievement_is_earned_once_with_its_first_game_and_date() {
    let dir = TestDir::new("db-achievements");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let mut ids = Vec::new();
    for _ in 0..2 {
        let mut table = Table::new(&["Ann", "Bob"], scripted(FIRST_SEAT_WINS));
        let id = db.new_game(&table.save(), 0).unwrap();
        table.play_out(&mut db, id);
        ids.push(id);
    }
    let award = |who: &str, what: &str| (who.to_owned(), what.to_owned());
    let first = db.award(ids[0], &[award("Ann", "first_win"), award("Bob", "long_ladder")], 100);
    assert_eq!(first.unwrap().len(), 2);
    let again = db.award(ids[1], &[award("Ann", "first_win"), award("Ann", "long_ladder")], 200);
    assert_eq!(again.unwrap(), vec![award("Ann", "long_ladder")]);
    let ann = db.achievements("Ann").unwrap();
    assert_eq!(
        ann,
        vec![
            Earned { achievement: "first_win".into(), game: ids[0], at_ms: 100 },
            Earned { achievement: "long_ladder".into(), game: ids[1], at_ms: 200 },
        ]
    );
    assert_eq!(db.achievements("Zed").unwrap(), vec![]);
}

#[test]
fn turns_written_together_are_one_run_and_one_log_line_and_an_undo_cuts_the_run() {
    let dir = TestDir::new("db-runs");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let mut table = Table::new(&["Ann", "Bob"], scripted(FIRST_SEAT_WINS));
    let id = db.new_game(&table.save(), 0).unwrap();
    let mut lines = Vec::new();
    let mut saves = vec![table.save()];
    let mut seq = 0;
    for _ in 0..10 {
        let mut events = Vec::new();
        table.game.play_turn(&mut table.dice, &mut FirstOption, &mut events).unwrap();
        let named: Vec<_> = events
            .iter()
            .map(|e| {
                seq += 1;
                snl_engine::Numbered { seq, event: e.named(table.game.seats()) }
            })
            .collect();
        lines.push(Logged::new(Action::Turn, table.game.turns(), &named, 7));
        saves.push(table.save());
    }
    db.record_turns(id, &table.game, &table.dice, seq, &lines, 7).unwrap();
    let runs: u32 = db.conn.query_row("SELECT COUNT(*) FROM move_runs", [], |r| r.get(0)).unwrap();
    assert_eq!(runs, 1);
    assert_eq!(db.actions(id).unwrap(), [("start".into(), 0), ("turn".into(), 10)]);
    let events: String = db
        .conn
        .query_row("SELECT events FROM actions WHERE action = 'turn'", [], |r| r.get(0))
        .unwrap();
    let events: Vec<snl_engine::Numbered> = serde_json::from_str(&events).unwrap();
    let turns_started =
        events.iter().filter(|e| matches!(e.event, snl_engine::Event::TurnStarted { .. })).count();
    assert_eq!(turns_started, 10);
    // The log keeps the session's numbers, and the head the last of them.
    assert!(events.iter().map(|e| e.seq).eq(1..=seq), "{events:?}");
    assert_eq!(db.load(id).unwrap(), Save::numbered(&table.game, &table.dice, "classic", seq));
    // Ann's snake (99⇒54) is on her seventh roll, the thirteenth of the game: back to turn 4, it
    // is gone from her tally, and the run holds the first four moves only.
    let back = &saves[4];
    db.record(id, Action::Undo, back, &[], 8).unwrap();
    assert_eq!(db.moves(id, None).unwrap(), MoveRow::from_history(&back.game));
    let ann = |db: &Database| {
        db.conn
            .query_row("SELECT snakes, ladders FROM seats WHERE seat = 0", [], |r| {
                Ok((r.get::<_, u32>(0)?, r.get::<_, u32>(1)?))
            })
            .unwrap()
    };
    assert_eq!(ann(&db), (0, 1));
    db.record(id, Action::Redo, &saves[10], &[], 9).unwrap();
    assert_eq!(db.moves(id, None).unwrap(), MoveRow::from_history(&saves[10].game));
    assert_eq!(ann(&db), (0, 2));
    assert_eq!(db.load(id).unwrap(), saves[10]);
}

#[test]
fn a_database_from_a_newer_snl_is_refused_with_its_version() {
    let dir = TestDir::new("db-newer");
    let path = dir.path().join("games.db");
    Connection::open(&path).unwrap().execute_batch("PRAGMA user_version = 9;").unwrap();
    let e = Database::open(&path).unwrap_err();
    assert_eq!(
        e.to_string(),
        "was written by a newer snl (schema 9, this snl knows up to 6): upgrade snl to use it"
    );
    assert!(matches!(Database::open_existing(&path), Err(DbError::Newer { found: 9, .. })));
}

#[test]
fn a_read_only_file_is_refused_for_writing_but_can_be_read() {
    let dir = TestDir::new("db-readonly");
    let path = dir.path().join("games.db");
    let mut db = Database::open(&path).unwrap();
    let table = Table::new(&["Ann", "Bob"], DiceState::seeded(1));
    let id = db.new_game(&table.save(), 0).unwrap();
    drop(db);
    let mut perms = fs::metadata(&path).unwrap().permissions();
    perms.set_readonly(true);
    fs::set_permissions(&path, perms).unwrap();
    assert!(matches!(Database::open(&path), Err(DbError::ReadOnly)));
    let db = Database::open_existing(&path).unwrap();
    assert_eq!(db.games().unwrap().len(), 1);
    assert_eq!(db.load(id).unwrap(), table.save());
}

#[test]
fn a_locked_database_says_so() {
    let dir = TestDir::new("db-locked");
    let path = dir.path().join("games.db");
    let mut db = Database::open(&path).unwrap();
    // A program that keeps the lock longer than a writer waits (shortened here from 30 s).
    db.set_busy_timeout(std::time::Duration::from_millis(100)).unwrap();
    let holder = Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE;").unwrap();
    let table = Table::new(&["Ann", "Bob"], DiceState::seeded(1));
    let e = db.new_game(&table.save(), 0).unwrap_err();
    assert!(matches!(e, DbError::Locked), "{e}");
    assert_eq!(e.to_string(), "is locked by another program");
    holder.execute_batch("ROLLBACK;").unwrap();
    assert!(db.new_game(&table.save(), 0).is_ok());
}

#[test]
fn a_missing_database_is_not_created_just_to_read_it() {
    let dir = TestDir::new("db-missing");
    let path = dir.path().join("games.db");
    assert!(matches!(Database::open_existing(&path), Err(DbError::Missing)));
    assert!(!path.exists());
}

#[test]
fn a_big_seed_is_kept_bit_for_bit() {
    let dir = TestDir::new("db-seed");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let table = Table::new(&["Ann", "Bob"], DiceState::seeded(u64::MAX - 1));
    let id = db.new_game(&table.save(), 0).unwrap();
    let seed: i64 =
        db.conn.query_row("SELECT seed FROM games WHERE id = ?1", [id.0], |r| r.get(0)).unwrap();
    assert_eq!(seed as u64, u64::MAX - 1);
}

#[test]
fn writers_on_four_connections_at_once_queue_and_lose_nothing() {
    let dir = TestDir::new("db-writers");
    let path = dir.path().join("games.db");
    let finals: Vec<(GameId, Save)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4_u64)
            .map(|seed| {
                let path = &path;
                scope.spawn(move || {
                    let mut db = Database::open(path).unwrap();
                    let mut table = Table::new(&["Ann", "Bob"], DiceState::seeded(seed));
                    let id = db.new_game(&table.save(), 0).unwrap();
                    table.play_out(&mut db, id);
                    (id, table.save())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let db = Database::open_existing(&path).unwrap();
    assert_eq!(db.games().unwrap().len(), 4);
    for (id, save) in finals {
        assert_eq!(db.status(id).unwrap(), GameStatus::Finished);
        assert_eq!(db.load(id).unwrap(), save);
        assert_eq!(db.moves(id, None).unwrap(), MoveRow::from_history(&save.game));
    }
}

/// Issue 29, finding 12: with the WAL left to grow to 32 MiB, every process that opened the
/// database read it all through first, so recording slowed as the log filled.
#[test]
fn a_writer_closing_with_a_wal_past_4_mib_empties_it_into_the_database() {
    let dir = TestDir::new("db-wal");
    let path = dir.path().join("games.db");
    let wal = dir.path().join("games.db-wal");
    let wal_len = || fs::metadata(&wal).map_or(0, |m| m.len());
    let mut db = Database::open(&path).unwrap();
    let mut games = Vec::new();
    for seed in 0.. {
        if wal_len() > WAL_CHECKPOINT_AT_CLOSE {
            break;
        }
        let mut table = Table::new(&["Ann", "Bob", "Cy", "Di"], DiceState::seeded(seed));
        let id = db.new_game(&table.save(), 0).unwrap();
        table.play_out(&mut db, id);
        games.push((id, table.save()));
    }
    drop(db);
    assert_eq!(wal_len(), 0, "the WAL is copied into the database and emptied");
    let db = Database::open_existing(&path).unwrap();
    for (id, save) in games {
        assert_eq!(db.load(id).unwrap(), save);
    }
    drop(db);

    // A small WAL is left as it is: the next writer appends to it.
    let mut db = Database::open(&path).unwrap();
    let table = Table::new(&["Ann", "Bob"], DiceState::seeded(1));
    db.new_game(&table.save(), 0).unwrap();
    drop(db);
    assert!(wal_len() > 0, "a game's few pages stay in the WAL");
}

#[test]
fn a_game_whose_recording_stopped_is_marked_incomplete_and_is_not_resumable() {
    let dir = TestDir::new("db-cut");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let mut table = Table::new(&["Ann", "Bob"], DiceState::seeded(4));
    let id = db.new_game(&table.save(), 0).unwrap();
    table.turn(&mut db, id);
    // The disk refuses new moves from now on (as a full disk would); the log still takes a line.
    db.conn
        .execute_batch(
            "CREATE TEMP TRIGGER refuse BEFORE INSERT ON move_runs
             BEGIN SELECT RAISE(ABORT, 'no room'); END;",
        )
        .unwrap();
    let mut events = Vec::new();
    table.game.play_turn(&mut table.dice, &mut FirstOption, &mut events).unwrap();
    let e = db.record(id, Action::Turn, &table.save(), &events, 2).unwrap_err();
    assert!(e.to_string().contains("no room"), "{e}");
    assert_eq!(db.status(id).unwrap(), GameStatus::Incomplete);
    assert_eq!(db.games().unwrap()[0].status, GameStatus::Incomplete);
    assert_eq!(db.latest_unfinished().unwrap(), None, "not offered to resume");
    assert_eq!(db.actions(id).unwrap().last(), Some(&("cut".to_owned(), 1)));
    // A record that gets through later makes it whole again.
    db.conn.execute_batch("DROP TRIGGER refuse").unwrap();
    db.record(id, Action::Turn, &table.save(), &events, 3).unwrap();
    assert_eq!(db.status(id).unwrap(), GameStatus::Playing);
}

/// SQL that sets value `at` (0 turn, 1 seat, 2 dice, 3 from, 4 to, 5 kind, 6 jumps, 7 `time_ms`,
/// 8 chosen) of move `number` to `value`, in the run that holds it.
fn set_in_move(number: u32, at: u32, value: &str) -> String {
    format!(
        "UPDATE move_runs SET moves = json_set(moves, '$[' || ({number} - first) || '][{at}]', {value})
         WHERE first <= {number} AND first + count > {number}"
    )
}

/// A database with one game of two turns, whose rows a test then damages with `sql` (check
/// constraints off, as a hand edit or another program would).
fn damaged(name: &str, sql: &str) -> (TestDir, Database, GameId) {
    let dir = TestDir::new(name);
    let path = dir.path().join("games.db");
    let mut db = Database::open(&path).unwrap();
    let mut table = Table::new(&["Ann", "Bob"], DiceState::seeded(8));
    let id = db.new_game(&table.save(), 0).unwrap();
    table.turn(&mut db, id);
    table.turn(&mut db, id);
    db.conn.execute_batch(&format!("PRAGMA ignore_check_constraints = ON; {sql}")).unwrap();
    drop(db);
    let db = Database::open_existing(&path).unwrap();
    (dir, db, id)
}

#[test]
fn an_unknown_status_seat_kind_or_move_kind_is_named_with_its_game_and_row() {
    let (_d, db, id) = damaged("db-bad-status", "UPDATE games SET status = 'paused'");
    let e = db.status(id).unwrap_err();
    assert_eq!(
        e.to_string(),
        "holds game 1, but its games row has an unknown status 'paused' (edited or damaged)"
    );
    assert!(e.is_bad_input());
    assert!(matches!(db.games(), Err(DbError::BadRow { .. })));

    let (_d, db, _) = damaged("db-bad-kind", "UPDATE seats SET kind = 'wizard' WHERE seat = 1");
    assert_eq!(
        db.games().unwrap_err().to_string(),
        "holds game 1, but its seat 1 has an unknown kind 'wizard' (edited or damaged)"
    );

    let (_d, db, id) = damaged("db-bad-move", &set_in_move(2, 5, "'flew'"));
    assert_eq!(
        db.moves(id, None).unwrap_err().to_string(),
        "holds game 1, but its move 2 has an unknown kind 'flew' (edited or damaged)"
    );
    let (_d, db, id) = damaged("db-bad-dice", &set_in_move(1, 2, "'0'"));
    assert_eq!(
        db.moves(id, None).unwrap_err().to_string(),
        "holds game 1, but its move 1 has dice '0', which no throw shows (edited or damaged)"
    );
    let (_d, db, id) = damaged("db-bad-time", &set_in_move(1, 7, "-5"));
    assert_eq!(
        db.moves(id, None).unwrap_err().to_string(),
        "holds game 1, but its move 1 has -5 as its time_ms, which is out of range (edited or damaged)"
    );
    let (_d, db, id) = damaged("db-bad-turn", &set_in_move(1, 0, "'six'"));
    let e = db.moves(id, None).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "holds game 1, but its moves 1 to 1 cannot be read (invalid type: string \"six\""
        ),
        "{e}"
    );
}

#[test]
fn a_file_that_is_not_a_database_is_damaged_for_reading_and_for_writing() {
    let dir = TestDir::new("db-garbage");
    let path = dir.path().join("games.db");
    let garbage: Vec<u8> = (0..4096_u32).map(|i| (i * 7 + 3) as u8).collect();
    fs::write(&path, &garbage).unwrap();
    for e in [Database::open_existing(&path).unwrap_err(), Database::open(&path).unwrap_err()] {
        assert!(matches!(e, DbError::Damaged(_)), "{e:?}");
        assert!(e.is_bad_input());
        assert_eq!(e.to_string(), "is damaged or is not a game database (file is not a database)");
    }
    assert_eq!(fs::read(&path).unwrap(), garbage, "left as it was");
}

#[test]
fn reading_an_empty_file_leaves_it_empty() {
    let dir = TestDir::new("db-empty");
    let path = dir.path().join("games.db");
    fs::write(&path, b"").unwrap();
    assert!(matches!(Database::open_existing(&path), Err(DbError::Empty)));
    assert_eq!(fs::metadata(&path).unwrap().len(), 0, "no schema written");
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["games.db"]);
}

#[test]
fn reading_never_writes_to_the_database() {
    let dir = TestDir::new("db-read");
    let path = dir.path().join("games.db");
    let mut db = Database::open(&path).unwrap();
    let table = Table::new(&["Ann", "Bob"], DiceState::seeded(1));
    let id = db.new_game(&table.save(), 0).unwrap();
    drop(db);
    let db = Database::open_existing(&path).unwrap();
    assert!(db.conn.is_readonly("main").unwrap());
    assert_eq!(db.load(id).unwrap(), table.save());
}

#[test]
fn a_turn_clock_expiry_is_kept_in_the_head_and_loads_back() {
    let dir = TestDir::new("db-timed-out");
    let mut db = Database::open(&dir.path().join("games.db")).unwrap();
    let mut table = Table::new(&["Ann", "Bob"], DiceState::seeded(4));
    let id = db.new_game(&table.save(), 0).unwrap();
    table.turn(&mut db, id);
    let events = table.game.apply(snl_engine::Input::TurnTimeUp).unwrap();
    db.record(id, Action::Turn, &table.save(), &events, 1_000).unwrap();
    table.turn(&mut db, id);
    let loaded = db.load(id).unwrap();
    assert_eq!(loaded.game.timed_out, vec![1]);
    assert_eq!(loaded, table.save());
    let mut told = Vec::new();
    Game::replay(&loaded.game, &mut told).unwrap();
    assert!(told.contains(&snl_engine::Event::TimedOut { player: 1 }), "{told:?}");
}
