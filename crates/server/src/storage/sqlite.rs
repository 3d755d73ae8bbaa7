//! The game database on one machine: one thread owns the SQLite connection. Rooms hand it
//! batches of writes and wait until they are committed; batches that arrive while a commit is
//! under way are committed together in one transaction (group commit), so the cost of a commit
//! is shared by every room that wrote in that moment. A group the database refuses is written
//! again batch by batch, so one room's bad batch fails that room alone.

use std::{path::Path, sync::mpsc, thread};

use snl_store::{DbError, GameId, RoomStore, RoomWrite, Save, StoredRoom};
use tokio::sync::oneshot;

use super::{Pending, Storage, StorageError};

/// Most batches committed in one transaction.
const GROUP: usize = 512;

type Read = Box<dyn FnOnce(&mut RoomStore) + Send>;

#[expect(clippy::large_enum_variant, reason = "a job lives for one commit; most are writes")]
enum Job {
    Write {
        writes: Vec<RoomWrite>,
        finished: Option<Save>,
        done: oneshot::Sender<Result<(), StorageError>>,
    },
    Read(Read),
}

/// The SQLite game database, its writer thread behind it; cheap to share.
#[derive(Debug)]
pub struct SqliteStorage {
    jobs: mpsc::Sender<Job>,
}

fn db_error(store: &mut RoomStore, error: &DbError) -> StorageError {
    StorageError::Db(format!("{} {error}", store.database().path().display()))
}

impl SqliteStorage {
    /// Opens (creating if needed) the database at `path`; `fsync` waits for the disk at every
    /// commit; `clock` gives milliseconds since the Unix epoch (when finished games are
    /// recorded).
    ///
    /// # Errors
    ///
    /// [`StorageError::Db`] when the database cannot be opened or upgraded.
    pub fn open(
        path: &Path,
        fsync: bool,
        clock: fn() -> u64,
    ) -> Result<SqliteStorage, StorageError> {
        let error = |e: DbError| StorageError::Db(e.to_string());
        let mut store = RoomStore::open(path).map_err(error)?;
        store.set_fsync(fsync).map_err(error)?;
        Ok(SqliteStorage::start(store, clock))
    }

    /// Starts the writer thread on `store`.
    ///
    /// # Panics
    ///
    /// When the operating system cannot start a thread.
    pub fn start(mut store: RoomStore, clock: fn() -> u64) -> SqliteStorage {
        checkpoint_beside(&mut store);
        let (jobs, rx) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("snl-db-writer".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut group = Vec::new();
                    let mut next = Some(first);
                    while let Some(job) = next.take() {
                        match job {
                            Job::Read(read) => {
                                // Reads see every write queued before them.
                                commit(&mut store, std::mem::take(&mut group), clock);
                                read(&mut store);
                            }
                            Job::Write { writes, finished, done } => {
                                group.push((writes, finished, done));
                            }
                        }
                        if group.len() < GROUP {
                            next = rx.try_recv().ok();
                        }
                    }
                    commit(&mut store, group, clock);
                }
            })
            .expect("the operating system starts a thread");
        SqliteStorage { jobs }
    }

    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&mut RoomStore) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, StorageError> {
        let (done, wait) = oneshot::channel();
        let stopped = || StorageError::Db("writer has stopped".into());
        self.jobs
            .send(Job::Read(Box::new(move |store| {
                let _ = done.send(read(store));
            })))
            .map_err(|_| stopped())?;
        wait.await.map_err(|_| stopped())?
    }
}

/// Copies the WAL into the database on a thread of its own, so no commit — and no room waiting
/// for one — waits for a checkpoint (copying thousands of pages took tens of milliseconds, the
/// slowest moments of a busy server). The thread ends with the writer's connection.
fn checkpoint_beside(store: &mut RoomStore) {
    let (kick, kicked) = mpsc::sync_channel::<()>(1);
    let checkpointer = match store.checkpoint_elsewhere(snl_store::CHECKPOINT_PAGES, move || {
        let _ = kick.try_send(());
    }) {
        Ok(checkpointer) => checkpointer,
        Err(e) => {
            eprintln!("snl serve: checkpoints are left to the commits: {e}");
            return;
        }
    };
    let started = thread::Builder::new().name("snl-db-checkpoint".into()).spawn(move || {
        while kicked.recv().is_ok() {
            if let Err(e) = checkpointer.run() {
                eprintln!("snl serve: a checkpoint failed (the next commit asks again): {e}");
            }
        }
    });
    if let Err(e) = started {
        eprintln!("snl serve: checkpoints are left to the commits: {e}");
    }
}

type Batch = (Vec<RoomWrite>, Option<Save>, oneshot::Sender<Result<(), StorageError>>);

/// Commits `group` in one transaction, or batch by batch when the database refuses it whole.
fn commit(store: &mut RoomStore, group: Vec<Batch>, clock: fn() -> u64) {
    if group.is_empty() {
        return;
    }
    let all = group.iter().flat_map(|(w, _, _)| w.iter());
    let together = store.write_all(all).map_err(|e| db_error(store, &e));
    let alone = group.len() == 1;
    for (writes, finished, done) in group {
        let result = if together.is_ok() || alone {
            together.clone()
        } else {
            store.write(&writes).map_err(|e| db_error(store, &e))
        };
        if result.is_ok()
            && let Some(save) = finished
        {
            match store.database().new_game(&save, clock()) {
                Ok(id) => {
                    award(store, id, &save, clock());
                    link_room(store, id, &writes);
                }
                Err(e) => eprintln!("snl serve: a finished game was not recorded: {e}"),
            }
        }
        let _ = done.send(result);
    }
}

/// Awards the achievements of finished game `id` (`save`), as `snl play` does for its games.
fn award(store: &mut RoomStore, id: GameId, save: &Save, now_ms: u64) {
    let Ok(game) = save.restore() else { return };
    let awards = snl_session::achievements::named(&game);
    if !awards.is_empty()
        && let Err(e) = store.database().award(id, &awards, now_ms)
    {
        eprintln!("snl serve: the achievements of a finished game were not recorded: {e}");
    }
}

/// Links finished game `id` to the room `writes` ends, so that its replay reads the chat
/// from the room's events (where it is kept already).
fn link_room(store: &mut RoomStore, id: GameId, writes: &[RoomWrite]) {
    let Some(room) = writes.iter().find_map(|w| match w {
        RoomWrite::Over { room } => Some(room),
        _ => None,
    }) else {
        return;
    };
    if let Err(e) = store.link_game(id, room) {
        eprintln!("snl serve: the chat of a finished game was not linked to it: {e}");
    }
}

impl Storage for SqliteStorage {
    fn write(&self, writes: Vec<RoomWrite>, finished: Option<Save>) -> Pending<'_, ()> {
        Box::pin(async move {
            let (done, wait) = oneshot::channel();
            let stopped = || StorageError::Db("writer has stopped".into());
            self.jobs.send(Job::Write { writes, finished, done }).map_err(|_| stopped())?;
            wait.await.map_err(|_| stopped())?
        })
    }

    fn unfinished(&self) -> Pending<'_, Vec<StoredRoom>> {
        Box::pin(self.read(|store| store.unfinished().map_err(|e| db_error(store, &e))))
    }

    fn room<'a>(&'a self, id: &'a str) -> Pending<'a, Option<StoredRoom>> {
        let id = id.to_owned();
        Box::pin(self.read(move |store| store.room(&id).map_err(|e| db_error(store, &e))))
    }

    fn events_between<'a>(
        &'a self,
        id: &'a str,
        after: u64,
        upto: u64,
    ) -> Pending<'a, Vec<String>> {
        let id = id.to_owned();
        Box::pin(self.read(move |store| {
            store.events_between(&id, after, upto).map_err(|e| db_error(store, &e))
        }))
    }

    fn games(&self) -> Pending<'_, Vec<Save>> {
        Box::pin(self.read(|store| {
            let games = store.database().games();
            let mut ids: Vec<GameId> =
                games.map_err(|e| db_error(store, &e))?.iter().map(|g| g.id).collect();
            ids.sort_by_key(|id| id.0);
            ids.into_iter()
                .map(|id| store.database().load(id).map_err(|e| db_error(store, &e)))
                .collect()
        }))
    }
}
