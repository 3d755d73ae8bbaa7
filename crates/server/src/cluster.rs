//! Several nodes on one shared storage (PostgreSQL): a node acts for a room only while it holds
//! the room's lease, and every write it makes for the room carries the lease's epoch. Asked for
//! a room it does not hold, a node takes the lease (asking the holder to let it go, if there is
//! one whose own lease runs), loads the room from its stored events and goes on. Told to let a
//! room go, or losing every lease (its own lapsed, or its connection broke), a node stops the
//! room's task at once: its connections close and their clients reconnect to the room's new
//! node with `since`, missing nothing. The lobby lists every node's rooms: each node publishes
//! its rooms' entries and keeps the others' as they are told (`LISTEN`/`NOTIFY`), and tells its
//! lobby streams each change, its own rooms' and the others' alike.
//!
//! Alone on a SQLite database, a node holds every room and none of this runs but the lobby
//! streams' watch on its rooms.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError, RwLock},
    time::Duration,
};

use axum::http::StatusCode;
use snl_wire::rooms::{LobbyEntry, RoomStatus};
use tokio::sync::{Mutex as AsyncMutex, broadcast::error::RecvError};

use crate::http::{ApiError, ApiResult};
use crate::{
    Shared,
    actor::{self, Handle},
    storage::Notice,
};

/// How long a node waits for a room's holder to let it go, each time it asks (a holder that
/// died lets go without telling: its key's lock goes as PostgreSQL sees its connection end; a
/// holder stalled past its lease is passed over once the lease has expired, within
/// [`ASKS`] asks).
const RELEASE_WAIT: Duration = Duration::from_millis(500);
/// How many times a node asks a room's holder to let it go before it gives up.
const ASKS: u32 = 10;
/// The shortest time between two lobby entries a room publishes while only its turn count
/// changes.
const LOBBY_PACE: Duration = Duration::from_secs(1);

/// What a node of a cluster keeps beside its rooms.
#[derive(Debug, Default)]
pub(crate) struct Cluster {
    /// One gate per room being loaded, so one request loads it and the others wait for it.
    gates: Mutex<HashMap<String, Arc<AsyncMutex<()>>>>,
    /// The lobby entries of rooms other nodes hold, by room.
    remote: RwLock<HashMap<String, LobbyEntry>>,
}

impl Cluster {
    fn gate(&self, room: &str) -> Arc<AsyncMutex<()>> {
        let mut gates = self.gates.lock().unwrap_or_else(PoisonError::into_inner);
        gates.entry(room.to_owned()).or_default().clone()
    }

    fn ungate(&self, room: &str) {
        let mut gates = self.gates.lock().unwrap_or_else(PoisonError::into_inner);
        if gates.get(room).is_some_and(|g| Arc::strong_count(g) == 1) {
            gates.remove(room);
        }
    }

    /// The other nodes' lobby entries, but for rooms in `local`.
    pub(crate) fn remote_lobby(&self, local: &HashMap<String, Handle>) -> Vec<LobbyEntry> {
        let remote = self.remote.read().unwrap_or_else(PoisonError::into_inner);
        remote
            .iter()
            .filter(|(room, _)| !local.contains_key(*room))
            .map(|(_, entry)| entry.clone())
            .collect()
    }
}

/// The live task of `room` on this node, if there is one (none while the node's lease has
/// lapsed: it stops every room as it finds out, and serves none from memory meanwhile).
fn live(shared: &Shared, room: &str) -> Option<Handle> {
    if !shared.writer.storage().leased() {
        return None;
    }
    let rooms = shared.rooms.read().unwrap_or_else(PoisonError::into_inner);
    rooms.get(room).filter(|h| !h.tx.is_closed()).cloned()
}

/// The task of `room`: this node's, or — on a shared storage — taken over from the stored
/// room. `Ok(None)` when there is no such room.
///
/// # Errors
///
/// One sentence when the room cannot be taken over (its holder does not let it go, the
/// storage fails, or the stored room does not replay).
pub(crate) async fn handle(shared: &Arc<Shared>, room: &str) -> Result<Option<Handle>, String> {
    let storage = shared.writer.storage().clone();
    if let Some(handle) = live(shared, room) {
        return Ok(Some(handle));
    }
    let gate = shared.cluster.gate(room);
    let taken = {
        let _one_at_a_time = gate.lock().await;
        match live(shared, room) {
            Some(handle) => Ok(Some(handle)),
            None if storage.shared() => take_over(shared, room).await,
            None => read_back(shared, room).await,
        }
    };
    drop(gate);
    shared.cluster.ungate(room);
    taken
}

async fn take_over(shared: &Arc<Shared>, room: &str) -> Result<Option<Handle>, String> {
    let storage = shared.writer.storage().clone();
    let mut notices = storage.notices();
    let mut asked = 0;
    let lease = loop {
        if let Some(lease) = storage.acquire(room).await.map_err(|e| e.to_string())? {
            break lease;
        }
        if asked == ASKS {
            return Err(format!("room {room} is held by another node that does not let it go"));
        }
        asked += 1;
        storage.notify(Notice::Release(room.to_owned())).await.map_err(|e| e.to_string())?;
        if let Some(notices) = notices.as_mut() {
            let released = async {
                loop {
                    match notices.recv().await {
                        Ok(Notice::Released(r)) if r == room => return,
                        Err(RecvError::Closed) => return,
                        _ => {}
                    }
                }
            };
            let _ = tokio::time::timeout(RELEASE_WAIT, released).await;
        }
    };
    let loaded = async {
        let Some(stored) = storage.room(room).await.map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        actor::restore(stored, shared.context.under(lease)).map(Some)
    };
    let handle = match loaded.await {
        Ok(Some(handle)) => handle,
        other => {
            let _ = storage.release(room).await;
            return other;
        }
    };
    hold(shared, room, &handle);
    Ok(Some(handle))
}

/// A room of this node's own storage that is not in memory (its game ended and it left, or the
/// server restarted since, or it was closed by a storage failure): read back and rebuilt, as
/// long as the storage has it.
async fn read_back(shared: &Arc<Shared>, room: &str) -> Result<Option<Handle>, String> {
    let storage = shared.writer.storage().clone();
    let Some(stored) = storage.room(room).await.map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    // An open room that expired is no room any more.
    let Some(handle) = actor::load(stored, shared.context.clone()).await? else {
        return Ok(None);
    };
    hold(shared, room, &handle);
    Ok(Some(handle))
}

/// Keeps `handle` as this node's task for `room`, and tells its lobby entry (see [`watch`]).
pub(crate) fn hold(shared: &Arc<Shared>, room: &str, handle: &Handle) {
    let previous = shared
        .rooms
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(room.to_owned(), handle.clone());
    if let Some(previous) = previous {
        previous.task.abort();
    }
    if shared.writer.storage().shared() {
        shared.cluster.remote.write().unwrap_or_else(PoisonError::into_inner).remove(room);
    }
    watch(shared, room, handle);
}

/// Tells `room`'s lobby entry whenever it changes (its turn count at most once per
/// [`LOBBY_PACE`]), for as long as its task lives: to this node's lobby streams, and — on a
/// shared storage — to the other nodes.
pub(crate) fn watch(shared: &Shared, room: &str, handle: &Handle) {
    let storage = shared.writer.storage().clone();
    let lobby = shared.lobby.clone();
    let mut summary = handle.summary.clone();
    let room = room.to_owned();
    tokio::spawn(async move {
        // What the entry last told was: a fingerprint of its text, one of its status and
        // seats, and whether it was over (fingerprints, not the texts, so that every room's
        // watch stays small).
        let mut told: Option<(u64, u64, bool)> = None;
        loop {
            let entry = summary.borrow_and_update().clone();
            let text = serde_json::to_string(&entry).unwrap_or_default();
            let key = fingerprint(&format!("{:?} {:?}", entry.status, entry.seats));
            let print = fingerprint(&text);
            let new = told.is_none_or(|(t, _, _)| t != print);
            if new {
                lobby.tell(&entry);
            }
            let over = entry.status == RoomStatus::Over;
            drop(entry);
            if new {
                let only_turns = told.is_some_and(|(_, k, _)| k == key);
                if storage.shared()
                    && let Err(e) = storage.publish(&room, &text).await
                {
                    eprintln!("snl serve: room {room}'s lobby entry was not published: {e}");
                }
                told = Some((print, key, over));
                if only_turns {
                    // Turn counts are told at a pace; the changes meanwhile are told at once after.
                    tokio::time::sleep(LOBBY_PACE).await;
                }
            }
            drop(text);
            if summary.changed().await.is_err() {
                // The task ended: an open or running room left (it expired, or a storage
                // failure closed it); one over is gone from the lobby already.
                let over = told.is_some_and(|(_, _, over)| over);
                if !over && !storage.shared() {
                    lobby.gone(&room);
                }
                return;
            }
        }
    });
}

/// A 64-bit fingerprint of `value`, to tell whether it changed.
fn fingerprint(value: &impl std::hash::Hash) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(value)
}

/// Answers what the other nodes say, for as long as the server runs: lets rooms go when asked,
/// stops every room when the leases are lost, keeps the other nodes' lobby entries.
pub(crate) fn listen(shared: &Arc<Shared>) {
    let storage = shared.writer.storage().clone();
    let Some(mut notices) = storage.notices() else { return };
    let shared = Arc::downgrade(shared);
    tokio::spawn(async move {
        if let Some(shared) = shared.upgrade() {
            match storage.lobby().await {
                Ok(entries) => {
                    let mut remote =
                        shared.cluster.remote.write().unwrap_or_else(PoisonError::into_inner);
                    for (room, entry) in entries {
                        if let Ok(entry) = serde_json::from_str::<LobbyEntry>(&entry) {
                            remote.insert(room, entry.clone());
                            // Told after it is kept: a stream that reads the list before
                            // this is told it.
                            shared.lobby.tell(&entry);
                        }
                    }
                }
                Err(e) => eprintln!("snl serve: the lobby of the other nodes was not read: {e}"),
            }
        }
        loop {
            let notice = match notices.recv().await {
                Ok(notice) => notice,
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            };
            let Some(shared) = shared.upgrade() else { return };
            match notice {
                Notice::Release(room) => {
                    let gate = shared.cluster.gate(&room);
                    let guard = gate.lock().await;
                    let handle =
                        shared.rooms.write().unwrap_or_else(PoisonError::into_inner).remove(&room);
                    if let Some(handle) = handle {
                        handle.task.abort();
                    }
                    // Writes the task queued before this are committed first; any later one is
                    // refused.
                    if storage.release(&room).await.unwrap_or(false) {
                        let _ = storage.notify(Notice::Released(room.clone())).await;
                    }
                    drop(guard);
                    drop(gate);
                    shared.cluster.ungate(&room);
                }
                Notice::Lost => {
                    eprintln!(
                        "snl serve: the connection to the database broke: every room here stops"
                    );
                    let rooms: Vec<(String, Handle)> = shared
                        .rooms
                        .write()
                        .unwrap_or_else(PoisonError::into_inner)
                        .drain()
                        .collect();
                    for (room, handle) in rooms {
                        handle.task.abort();
                        // No node lists it until one takes it over.
                        shared.lobby.gone(&room);
                    }
                }
                Notice::Lobby(entry) => {
                    let Ok(entry) = serde_json::from_str::<LobbyEntry>(&entry) else { continue };
                    let room = entry.room.clone();
                    {
                        let mut remote =
                            shared.cluster.remote.write().unwrap_or_else(PoisonError::into_inner);
                        if entry.status == RoomStatus::Over {
                            remote.remove(&room);
                        } else {
                            remote.insert(room, entry.clone());
                        }
                    }
                    // Told after it is kept (see the lobby's first read).
                    shared.lobby.tell(&entry);
                }
                Notice::Released(_) => {}
            }
        }
    });
}

/// The room's actor for a request, or the HTTP error that says why not (`404`, `503`).
pub(crate) async fn room_handle(shared: &Arc<Shared>, room: &str) -> ApiResult<Handle> {
    match handle(shared, room).await {
        Ok(handle) => handle.ok_or_else(|| ApiError::no_room(room)),
        Err(message) => {
            Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", message))
        }
    }
}
