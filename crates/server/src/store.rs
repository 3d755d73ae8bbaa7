//! The one writer of the database: rooms hand it batches of writes and wait until they are
//! committed, and only then send their events ("stored before sent"). Batches that arrive while
//! a commit is under way are committed together in one transaction (group commit), so the cost
//! of a commit is shared by every room that wrote in that moment.

use std::{sync::mpsc, thread};

use snl_store::{RoomStore, RoomWrite, Save};
use tokio::sync::oneshot;

/// Most batches committed in one transaction.
const GROUP: usize = 512;

/// A finished game to record in the game tables, as `snl play` does.
pub(crate) type Finished = Save;

struct Job {
    writes: Vec<RoomWrite>,
    finished: Option<Finished>,
    done: oneshot::Sender<Result<(), String>>,
}

/// A handle to the writer thread; cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job").field("writes", &self.writes.len()).finish_non_exhaustive()
    }
}

impl Writer {
    /// Starts the writer thread on `store`; `clock` gives milliseconds since the Unix epoch.
    pub(crate) fn start(mut store: RoomStore, clock: fn() -> u64) -> Writer {
        let (jobs, rx) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("snl-db-writer".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut group = vec![first];
                    while group.len() < GROUP {
                        match rx.try_recv() {
                            Ok(job) => group.push(job),
                            Err(_) => break,
                        }
                    }
                    let writes: Vec<RoomWrite> =
                        group.iter_mut().flat_map(|j| std::mem::take(&mut j.writes)).collect();
                    let result = store.write(&writes).map_err(|e| {
                        format!("the database {} {e}", store.database().path().display())
                    });
                    if result.is_ok() {
                        for save in group.iter_mut().filter_map(|j| j.finished.take()) {
                            if let Err(e) = store.database().new_game(&save, clock()) {
                                eprintln!("snl serve: a finished game was not recorded: {e}");
                            }
                        }
                    }
                    for job in group {
                        let _ = job.done.send(result.clone());
                    }
                }
            })
            .expect("the operating system starts a thread");
        Writer { jobs }
    }

    /// Writes `writes` (and records `finished`) and waits until they are committed.
    ///
    /// # Errors
    ///
    /// One sentence when the database refused the batch; nothing of it is stored.
    pub(crate) async fn write(
        &self,
        writes: Vec<RoomWrite>,
        finished: Option<Finished>,
    ) -> Result<(), String> {
        let (done, wait) = oneshot::channel();
        self.jobs
            .send(Job { writes, finished, done })
            .map_err(|_| "the database writer has stopped".to_owned())?;
        wait.await.map_err(|_| "the database writer has stopped".to_owned())?
    }
}
