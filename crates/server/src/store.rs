//! The server's storage seam: rooms hand the [`Writer`] batches of writes and wait until they
//! are committed, and only then send their events ("stored before sent"). Where they are kept
//! is a [`Storage`]: the SQLite game database (its writer thread commits the batches that
//! arrive together in one transaction) or PostgreSQL shared by a cluster's nodes.

use std::sync::Arc;

use snl_store::{RoomWrite, Save};

use crate::storage::Storage;

/// A finished game to record in the game tables, as `snl play` does.
pub(crate) type Finished = Save;

/// A handle to the storage; cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct Writer {
    storage: Arc<dyn Storage>,
    /// The epoch of the room's lease this writer writes under (a room's task has one).
    lease: Option<u64>,
}

impl Writer {
    /// Starts the SQLite writer thread on `store`; `clock` gives milliseconds since the Unix
    /// epoch.
    #[cfg(test)]
    pub(crate) fn start(store: snl_store::RoomStore, clock: fn() -> u64) -> Writer {
        Writer::new(Arc::new(crate::storage::SqliteStorage::start(store, clock)))
    }

    /// Writes through `storage`.
    pub(crate) fn new(storage: Arc<dyn Storage>) -> Writer {
        Writer { storage, lease: None }
    }

    /// This writer for a room held under epoch `lease`: its writes are refused once another
    /// node took the room.
    pub(crate) fn under(&self, lease: u64) -> Writer {
        Writer { storage: self.storage.clone(), lease: Some(lease) }
    }

    /// The storage behind.
    pub(crate) fn storage(&self) -> &Arc<dyn Storage> {
        &self.storage
    }

    /// Writes `writes` (and records `finished`) and waits until they are committed.
    ///
    /// # Errors
    ///
    /// One sentence when the storage refused the batch; nothing of it is stored.
    pub(crate) async fn write(
        &self,
        writes: Vec<RoomWrite>,
        finished: Option<Finished>,
    ) -> Result<(), String> {
        let written = match self.lease {
            Some(lease) => self.storage.write_under(lease, writes, finished),
            None => self.storage.write(writes, finished),
        };
        written.await.map_err(|e| e.to_string())
    }
}
