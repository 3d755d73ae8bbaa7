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

/// An administrator's connection to `url`, for what only the test does to the nodes.
async fn admin(url: &str) -> tokio_postgres::Client {
    let (admin, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    admin
}

/// The node key that holds `room` in the database, and its epoch.
async fn owner(admin: &tokio_postgres::Client, room: &str) -> (i64, i64) {
    let row = admin
        .query_one("SELECT node, epoch FROM room_leases WHERE room = $1", &[&room])
        .await
        .unwrap();
    (row.get(0), row.get(1))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_is_held_by_one_node_at_a_time_and_a_dead_nodes_rooms_are_free() {
    let postgres = pg::Postgres::start("leases");
    let url = postgres.database("leases").await;
    let (one, two) =
        (PgStorage::connect(&url).await.unwrap(), PgStorage::connect(&url).await.unwrap());
    assert!(one.leased() && two.leased(), "a node holds a lease from its start");

    // A room is its creator's, under epoch 1: the other node can neither take it nor write
    // for it.
    one.write(vec![create("a"), event("a", 1)], None).await.unwrap();
    assert_eq!(one.acquire("a").await.unwrap(), Some(1), "the creator holds it");
    assert_eq!(two.acquire("a").await.unwrap(), None);
    assert_eq!(two.write(vec![event("a", 2)], None).await, Err(StorageError::NotHeld("a".into())));

    // Let go, it is the other's under the next epoch, and the first may no longer write.
    assert!(one.release("a").await.unwrap());
    assert!(!one.release("a").await.unwrap(), "only a room held is let go");
    assert_eq!(two.acquire("a").await.unwrap(), Some(2));
    assert_eq!(one.write(vec![event("a", 2)], None).await, Err(StorageError::NotHeld("a".into())));
    assert_eq!(
        one.write_under(1, vec![event("a", 2)], None).await,
        Err(StorageError::NotHeld("a".into())),
        "nor under its old epoch"
    );
    two.write_under(2, vec![event("a", 2)], None).await.unwrap();

    // The holder's connection dies (as when its process is killed): it is told it lost every
    // lease, its writes are refused, and the room is free for the first node at once (its
    // lease has not expired: its key's lock is gone).
    let admin = admin(&url).await;
    let (holder, _) = owner(&admin, "a").await;
    let mut told = two.notices().unwrap();
    let killed = admin
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_locks
             WHERE locktype = 'advisory' AND granted
               AND ((classid::bigint << 32) | objid::bigint) = $1",
            &[&holder],
        )
        .await
        .unwrap();
    assert_eq!(killed.get::<_, i64>(0), 1, "one connection is the node");
    loop {
        if told.recv().await.unwrap() == Notice::Lost {
            break;
        }
    }
    assert!(two.write_under(2, vec![event("a", 3)], None).await.is_err());
    // Wait for PostgreSQL to let the key go (it does as the killed connection ends).
    admin.execute("SELECT pg_advisory_lock($1)", &[&holder]).await.unwrap();
    admin.execute("SELECT pg_advisory_unlock($1)", &[&holder]).await.unwrap();
    assert_eq!(one.acquire("a").await.unwrap(), Some(3));
    one.write_under(3, vec![event("a", 3)], None).await.unwrap();
    assert_eq!(one.room("a").await.unwrap().unwrap().events, ["a e1", "a e2", "a e3"]);
    let epochs: Vec<i64> = admin
        .query("SELECT epoch FROM room_events WHERE room = 'a' ORDER BY seq", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(epochs, [1, 2, 3], "each event is stored with the epoch it was written under");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_refuses_a_write_under_an_old_epoch_and_takes_a_stalled_nodes_rooms() {
    let postgres = pg::Postgres::start("fence");
    let url = postgres.database("fence").await;
    let (one, two) =
        (PgStorage::connect(&url).await.unwrap(), PgStorage::connect(&url).await.unwrap());
    one.write(vec![create("a"), event("a", 1), create("b")], None).await.unwrap();
    two.write(vec![create("c")], None).await.unwrap();
    let lease = one.acquire("a").await.unwrap().unwrap();
    let admin = admin(&url).await;
    let (other, _) = owner(&admin, "c").await;

    // Room a changes hands in the database behind node one's back (as when one stalled and
    // another node took it): one still counts itself the holder, so its batch — an event of
    // room b, which it does hold, and one of room a — reaches the database, which refuses
    // it whole.
    admin
        .execute("UPDATE room_leases SET node = $1, epoch = epoch + 1 WHERE room = 'a'", &[&other])
        .await
        .unwrap();
    let stale = one.write_under(lease, vec![event("b", 1), event("a", 2)], None).await;
    assert!(
        matches!(&stale, Err(StorageError::Fenced(m)) if m.contains("room a is no longer held")),
        "{stale:?}"
    );
    assert!(one.room("b").await.unwrap().unwrap().events.is_empty(), "nothing of it is stored");
    assert_eq!(one.room("a").await.unwrap().unwrap().events, ["a e1"]);
    // Fenced once, the room is forgotten: it is not taken back from a live holder.
    assert_eq!(one.acquire("a").await.unwrap(), None);
    assert_eq!(
        one.write_under(lease, vec![event("a", 2)], None).await,
        Err(StorageError::NotHeld("a".into()))
    );

    // Node one stalls past its lease: it expires in the database, its connection living on
    // as a paused process's does. Node two takes its room b under the next epoch; one may no
    // longer renew, is told it lost every lease, and writes nothing more.
    let mut told = one.notices().unwrap();
    let (holder, epoch) = owner(&admin, "b").await;
    admin
        .execute(
            "UPDATE snl_nodes SET expires = clock_timestamp() - interval '1 s' WHERE node = $1",
            &[&holder],
        )
        .await
        .unwrap();
    assert_eq!(two.acquire("b").await.unwrap(), Some(epoch.cast_unsigned() + 1));
    let late = one.write(vec![event("b", 1)], None).await;
    assert!(matches!(late, Err(StorageError::NotHeld(_) | StorageError::Fenced(_))), "{late:?}");
    loop {
        if told.recv().await.unwrap() == Notice::Lost {
            break;
        }
    }
    assert!(!one.leased(), "a node that lost its lease acts for no room");
    two.write_under(epoch.cast_unsigned() + 1, vec![event("b", 1)], None).await.unwrap();
    assert_eq!(two.room("b").await.unwrap().unwrap().events, ["b e1"]);
}
