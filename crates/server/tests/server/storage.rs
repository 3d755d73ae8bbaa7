//! One storage suite, run against both stores the server keeps its rooms in: the SQLite game
//! database and PostgreSQL (a throwaway cluster started for the test). Then what only a shared
//! store does: leases that one node holds at a time, and that a dead node's connection lets go.

use std::{path::PathBuf, sync::Arc};

use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind};
use snl_server::storage::{Location, Notice, PgStorage, Storage, StorageError};
use snl_store::{DiceState, RoomWrite, Save};

use crate::support::pg;

fn create(room: &str) -> RoomWrite {
    RoomWrite::Create { room: room.into(), setup: format!("setup {room}"), now_ms: 1 }
}

fn event(room: &str, seq: u64) -> RoomWrite {
    RoomWrite::Event { room: room.into(), seq, event: format!("{room} e{seq}") }
}

async fn open(at: &Location) -> Arc<dyn Storage> {
    at.open().await.unwrap()
}

async fn rooms_come_back_with_seats_log_and_events_until_over(at: Location) {
    let storage = open(&at).await;
    let seat =
        RoomWrite::Seat { room: "a".into(), seat: 1, name: "Ann".into(), token_hash: vec![7; 32] };
    let log = RoomWrite::Log { room: "a".into(), number: 1, command: "roll".into() };
    let writes = vec![create("a"), create("b"), seat, log, event("a", 1), event("a", 2)];
    storage.write(writes, None).await.unwrap();
    storage.write(vec![RoomWrite::Over { room: "b".into() }], None).await.unwrap();
    drop(storage);
    let storage = open(&at).await;
    let rooms = storage.unfinished().await.unwrap();
    assert_eq!(rooms.len(), 1, "{rooms:?}");
    assert_eq!(rooms[0].id, "a");
    assert_eq!(rooms[0].setup, "setup a");
    assert_eq!(rooms[0].seats, [(1, "Ann".to_owned(), vec![7; 32])]);
    assert_eq!(rooms[0].log, ["roll"]);
    assert_eq!(rooms[0].events, ["a e1", "a e2"]);
    assert_eq!(storage.room("a").await.unwrap().as_ref(), Some(&rooms[0]));
    let over = storage.room("b").await.unwrap().expect("a room over is still kept");
    assert_eq!(over.setup, "setup b");
    assert_eq!(storage.room("c").await.unwrap(), None);
}

async fn a_batch_with_a_repeated_sequence_number_writes_nothing(at: Location) {
    let storage = open(&at).await;
    storage.write(vec![create("a")], None).await.unwrap();
    let error = storage.write(vec![create("b"), event("a", 1), event("a", 2), event("a", 2)], None);
    assert!(matches!(error.await, Err(StorageError::Db(_))));
    assert!(storage.room("a").await.unwrap().unwrap().events.is_empty());
    assert_eq!(storage.room("b").await.unwrap(), None);
}

async fn an_event_is_never_stored_twice(at: Location) {
    let storage = open(&at).await;
    storage.write(vec![create("a"), event("a", 1)], None).await.unwrap();
    let again = RoomWrite::Event { room: "a".into(), seq: 1, event: "another".into() };
    assert!(matches!(storage.write(vec![again], None).await, Err(StorageError::Db(_))));
    let log = |number| RoomWrite::Log { room: "a".into(), number, command: "c".into() };
    storage.write(vec![log(1)], None).await.unwrap();
    assert!(storage.write(vec![log(1)], None).await.is_err());
    let room = storage.room("a").await.unwrap().unwrap();
    assert_eq!((room.events, room.log), (vec!["a e1".to_owned()], vec!["c".to_owned()]));
}

async fn one_writers_refused_batch_fails_no_other_writer(at: Location) {
    let storage = open(&at).await;
    let rooms: Vec<String> = (0..64).map(|i| format!("r{i}")).collect();
    storage.write(rooms.iter().map(|r| create(r)).collect(), None).await.unwrap();
    storage.write(vec![event("r7", 1)], None).await.unwrap();
    // Every room writes its first event at once (so the writes are grouped); r7's is a repeat.
    let writes = rooms.iter().map(|room| {
        let storage = storage.clone();
        let room = room.clone();
        tokio::spawn(async move { (storage.write(vec![event(&room, 1)], None).await, room) })
    });
    let mut refused = Vec::new();
    for write in writes.collect::<Vec<_>>() {
        let (result, room) = write.await.unwrap();
        if result.is_err() {
            refused.push(room);
        }
    }
    assert_eq!(refused, ["r7"]);
    for room in &rooms {
        assert_eq!(storage.room(room).await.unwrap().unwrap().events.len(), 1, "{room}");
    }
}

fn finished_game(seed: u64) -> Save {
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Robo", SeatKind::Hard)];
    let mut game = Game::new(board, rules, seats).unwrap();
    let mut dice = DiceState::seeded(seed);
    game.play_to_end(&mut dice, &mut FirstOption, &mut ()).unwrap();
    Save::new(&game, &dice, "classic")
}

async fn finished_games_are_recorded_as_played(at: Location) {
    let storage = open(&at).await;
    assert!(storage.games().await.unwrap().is_empty());
    let (first, second) = (finished_game(1), finished_game(2));
    let over = |room: &str| vec![create(room), RoomWrite::Over { room: room.into() }];
    storage.write(over("a"), Some(first.clone())).await.unwrap();
    storage.write(over("b"), Some(second.clone())).await.unwrap();
    drop(storage);
    let games = open(&at).await.games().await.unwrap();
    assert_eq!(games, [first, second]);
}

/// Runs every check of the suite, each on a fresh store that `fresh` makes.
macro_rules! suite {
    ($fresh:expr, $($check:ident),+ $(,)?) => {
        $( $check($fresh(stringify!($check)).await).await; )+
    };
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_store_passes_the_storage_suite() {
    let dir = std::env::temp_dir().join(format!("snl-storage-suite-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fresh = |name: &str| {
        let path: PathBuf = dir.join(format!("{name}.db"));
        async move { Location::Sqlite(path) }
    };
    suite!(
        fresh,
        rooms_come_back_with_seats_log_and_events_until_over,
        a_batch_with_a_repeated_sequence_number_writes_nothing,
        an_event_is_never_stored_twice,
        one_writers_refused_batch_fails_no_other_writer,
        finished_games_are_recorded_as_played,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_online_game_awards_its_achievements_in_the_sqlite_game_database() {
    let dir = std::env::temp_dir().join(format!("snl-storage-awards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.db");
    let storage = open(&Location::Sqlite(path.clone())).await;
    let save = finished_game(1);
    let game = save.restore().unwrap();
    let winner = game.seats()[game.ranking()[0]].name.clone();
    let over = vec![create("a"), RoomWrite::Over { room: "a".into() }];
    storage.write(over, Some(save)).await.unwrap();
    drop(storage);
    let db = snl_store::Database::open_existing(&path).unwrap();
    let earned = db.achievements(&winner).unwrap();
    assert!(earned.iter().any(|e| e.achievement == "first_win"), "{earned:?}");
    assert_eq!(
        earned.len(),
        snl_session::achievements::named(&game).iter().filter(|a| a.0 == winner).count()
    );
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_store_passes_the_storage_suite() {
    let postgres = pg::Postgres::start("suite");
    let fresh = |name: &str| {
        let postgres = &postgres;
        let name = name.to_owned();
        async move { Location::Postgres(postgres.database(&name).await) }
    };
    suite!(
        fresh,
        rooms_come_back_with_seats_log_and_events_until_over,
        a_batch_with_a_repeated_sequence_number_writes_nothing,
        an_event_is_never_stored_twice,
        one_writers_refused_batch_fails_no_other_writer,
        finished_games_are_recorded_as_played,
    );
}

/// The advisory lock key of `room`, as the store takes it.
const KEY: &str = "hashtextextended($1::text, 0)";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_is_held_by_one_node_at_a_time_and_a_dead_nodes_rooms_are_free() {
    let postgres = pg::Postgres::start("leases");
    let url = postgres.database("leases").await;
    let (one, two) =
        (PgStorage::connect(&url).await.unwrap(), PgStorage::connect(&url).await.unwrap());

    // A room is its creator's: the other node can neither take it nor write for it.
    one.write(vec![create("a"), event("a", 1)], None).await.unwrap();
    assert!(one.acquire("a").await.unwrap(), "the creator holds it");
    assert!(!two.acquire("a").await.unwrap());
    assert_eq!(two.write(vec![event("a", 2)], None).await, Err(StorageError::NotHeld("a".into())));

    // Let go, it is the other's, and the first may no longer write.
    assert!(one.release("a").await.unwrap());
    assert!(!one.release("a").await.unwrap(), "only a room held is let go");
    assert!(two.acquire("a").await.unwrap());
    assert_eq!(one.write(vec![event("a", 2)], None).await, Err(StorageError::NotHeld("a".into())));
    two.write(vec![event("a", 2)], None).await.unwrap();

    // The holder's connection dies (as when its process is killed): it is told it lost every
    // lease, its writes are refused, and the room is free for the first node.
    let mut told = two.notices().unwrap();
    let (admin, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let killed = admin
        .query_one(
            &format!(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_locks
                 WHERE locktype = 'advisory' AND granted
                   AND ((classid::bigint << 32) | objid::bigint) = (SELECT {KEY})"
            ),
            &[&"a"],
        )
        .await
        .unwrap();
    assert_eq!(killed.get::<_, i64>(0), 1, "one connection held the room");
    loop {
        if told.recv().await.unwrap() == Notice::Lost {
            break;
        }
    }
    assert!(two.write(vec![event("a", 3)], None).await.is_err());
    // Wait for PostgreSQL to let the lock go (it does as the killed connection ends).
    admin.execute(&format!("SELECT pg_advisory_lock({KEY})"), &[&"a"]).await.unwrap();
    admin.execute(&format!("SELECT pg_advisory_unlock({KEY})"), &[&"a"]).await.unwrap();
    assert!(one.acquire("a").await.unwrap());
    one.write(vec![event("a", 3)], None).await.unwrap();
    assert_eq!(one.room("a").await.unwrap().unwrap().events, ["a e1", "a e2", "a e3"]);
}
