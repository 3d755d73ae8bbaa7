// Long because a room's task, its clocks and store-then-send are one loop; about a third is its tests.
//! One task owns each room: commands come in on a channel, the room changes, the changes are
//! stored, and only then are the events sent on the room's broadcast channel to every
//! connection. The task also keeps the room's clocks: a computer seat's pause
//! (`--bot-delay-ms`), a person's turn clock (`turn_time`) and the game clock (`game_time`,
//! started when the last seat is taken; after a restart it starts again in full, as nobody could
//! play while the server was down). A clock's expiry is a command in the room's log, so a
//! restored room replays it where it came.
//!
//! (Long because its tests sit with it: they drive the clocks on tokio's paused clock.)

use std::{sync::Arc, time::Duration};

use axum::extract::ws::Utf8Bytes;
use snl_store::{RoomWrite, Save, StoredRoom};
use snl_wire::rooms::{LobbyEntry, RoomState, RoomStatus, SeatEntry};
use snl_words::room_traits;
use tokio::{
    sync::{broadcast, mpsc, oneshot, watch},
    time::Instant,
};

use crate::{
    frames::{ClientFrame, ErrorCode, MAX_CHAT, ServerFrame},
    policy::{Job, Policies},
    recent::Recent,
    room::{Act, ClaimProblem, Command, Kept, Refusal, Room, Told, Waiting},
    setup::{RoomSetup, check_name},
    store::Writer,
    token::{self, TokenHash},
};

/// Batches of frames kept for a connection that reads slowly; one that falls further behind is
/// closed (it reconnects with `since` and misses nothing). A batch is one change of the room
/// (an intent and the computers' moves after it), so a connection served at all keeps up with
/// a few; each slot is 32 bytes of every room (issue 31's memory per player).
const BACKLOG: usize = 16;

/// The frames one change of a room sends, in order.
pub(crate) type Batch = Arc<Vec<Utf8Bytes>>;

/// What a room's task is asked.
#[derive(Debug)]
pub(crate) enum Msg {
    /// A connection said hello.
    Join {
        token: Option<String>,
        since: Option<u64>,
        /// With `since` none, how many of the last events the connection asks for.
        recent: Option<u64>,
        reply: oneshot::Sender<Result<Joined, Refusal>>,
    },
    /// A seated connection closed.
    Leave { seat: usize },
    /// An intent from a connection (`seat` none for a spectator).
    Do { seat: Option<usize>, frame: ClientFrame, reply: oneshot::Sender<Result<(), Refusal>> },
    /// `POST …/seats/{seat}`.
    Claim {
        seat: usize,
        name: String,
        seed: Option<String>,
        reply: oneshot::Sender<Result<String, ClaimError>>,
    },
    /// `GET /api/rooms/{room}/save`: the game once over, its dice's secret revealed.
    Save { reply: oneshot::Sender<Result<Save, String>> },
    /// `GET /api/rooms/{room}`.
    View { reply: oneshot::Sender<RoomState> },
    /// `GET /api/rooms/{room}/odds`: where the tokens stand.
    Standing { reply: oneshot::Sender<crate::standing::Standing> },
    /// `GET /api/rooms/{room}/dice`: each seat's faces in the game.
    Dice { reply: oneshot::Sender<crate::dice::RoomFaces> },
    /// `POST /api/rooms/{room}/next`: the next game of the series, to open or already open.
    NextPlan { reply: oneshot::Sender<Result<NextPlan, Refusal>> },
    /// The next game of the series is open in `room` (none: opening it failed).
    NextOpened { room: Option<String>, reply: oneshot::Sender<Result<(), Refusal>> },
    /// A seat of a series' next game taken by the person who held `hash`'s token in the game
    /// before (the same token holds it).
    Carry {
        seat: usize,
        name: String,
        hash: TokenHash,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
}

/// What `POST /api/rooms/{room}/next` finds.
#[derive(Debug)]
pub(crate) enum NextPlan {
    /// The next game is open already, in this room.
    Open(String),
    /// To open: its setup, and each seat a person carries there (seat, name, token hash).
    New {
        setup: Box<crate::setup::RoomSetup>,
        carried: Vec<(usize, String, TokenHash)>,
        /// Whether this room drew a secret for its dice (the next one draws its own).
        secret: bool,
    },
}

/// Why a seat was not given.
#[derive(Debug)]
pub(crate) enum ClaimError {
    /// The seat cannot be taken.
    Problem(ClaimProblem),
    /// The name is not acceptable.
    BadName(String),
    /// The server failed.
    Server(String),
}

/// What a connection gets for its hello.
#[derive(Debug)]
pub(crate) struct Joined {
    pub(crate) seat: Option<usize>,
    pub(crate) welcome: Utf8Bytes,
    /// The events the connection missed or asked for, `(after, upto)`, older than those the
    /// room keeps: the connection reads them from the storage, a page at a time.
    pub(crate) missed: Option<(u64, u64)>,
    /// The events after those, to the welcome's seq, from the room's memory.
    pub(crate) kept: Vec<Utf8Bytes>,
    pub(crate) events: broadcast::Receiver<Batch>,
}

/// What every room's task shares: the storage, the computers' pause and the pool that computes
/// the hard strategy's policies.
#[derive(Clone, Debug)]
pub(crate) struct Context {
    pub(crate) writer: Writer,
    pub(crate) bot_delay: Duration,
    pub(crate) policies: Arc<Policies>,
    /// Rooms replayed at once after a restart or a take-over (on the blocking pool).
    pub(crate) restores: Arc<tokio::sync::Semaphore>,
    /// How long a finished room stays in memory before its task ends.
    pub(crate) linger: Duration,
    /// How long a room may wait for its seats to be taken before it expires.
    pub(crate) open_for: Duration,
    /// Chat lines each seat and each room may send.
    pub(crate) chat: crate::ChatLimit,
    /// How long a dropped person's seat is kept before the computer plays it (`--grace`).
    pub(crate) grace: Duration,
}

impl Context {
    /// This context for a room held under epoch `lease` (its writes carry it).
    pub(crate) fn under(&self, lease: u64) -> Context {
        Context { writer: self.writer.under(lease), ..self.clone() }
    }

    /// A context whose policies have `policy_time` each, finished rooms lingering `linger`.
    pub(crate) fn new(
        writer: Writer,
        bot_delay: Duration,
        policy_time: Duration,
        (linger, open_for): (Duration, Duration),
    ) -> Context {
        Context {
            writer,
            bot_delay,
            policies: Arc::new(Policies::new(policy_time)),
            restores: Arc::new(tokio::sync::Semaphore::new(RESTORES)),
            linger,
            open_for,
            chat: crate::ChatLimit::default(),
            grace: Duration::from_secs(crate::DEFAULT_GRACE_SECS),
        }
    }
}

/// Rooms replayed at once after a restart: the others wait their turn, their messages queued.
const RESTORES: usize = 2;

/// A room's inbox, as those who write to it hold it. Each message is boxed: the channel makes
/// its first block of 32 slots with the room, and 32 pointers are 256 bytes where 32 messages
/// were 2.5 KB (issue 31's memory per player).
#[derive(Clone, Debug)]
pub(crate) struct Inbox(mpsc::Sender<Box<Msg>>);

impl Inbox {
    /// Sends `msg`, waiting while the inbox is full.
    ///
    /// # Errors
    ///
    /// The room's task has ended.
    pub(crate) async fn send(&self, msg: Msg) -> Result<(), mpsc::error::SendError<Box<Msg>>> {
        self.0.send(Box::new(msg)).await
    }

    /// Whether the room's task has ended.
    pub(crate) fn is_closed(&self) -> bool {
        self.0.is_closed()
    }
}

/// A room's inbox and its receiving end.
fn inbox() -> (Inbox, mpsc::Receiver<Box<Msg>>) {
    let (tx, rx) = mpsc::channel(256);
    (Inbox(tx), rx)
}

/// A room's task, as the rest of the server holds it.
#[derive(Clone, Debug)]
pub(crate) struct Handle {
    pub(crate) tx: Inbox,
    /// The room as the lobby lists it.
    pub(crate) summary: watch::Receiver<LobbyEntry>,
    /// Stops the task (its connections close): the room is another node's now.
    pub(crate) task: tokio::task::AbortHandle,
}

/// A room's task.
#[derive(Debug)]
struct Actor {
    room: Room,
    hashes: Vec<Option<TokenHash>>,
    /// The events sent so far (the last one's seq). The events themselves are in the storage
    /// (the last few in `recent` too): a connection resuming with `since` reads what it missed
    /// from there, so a room's memory does not grow with its game.
    seq: u64,
    recent: Recent,
    /// The input awaited: its id (the last event's `seq` when it became awaited), and what
    /// the room waited for then (the id changes when that does).
    input: (u64, Waiting),
    log_len: u64,
    online: Vec<u32>,
    out: broadcast::Sender<Batch>,
    summary: watch::Sender<LobbyEntry>,
    writer: Writer,
    bot_delay: Duration,
    policies: Arc<Policies>,
    /// A computer input or a turn clock's expiry that waits for the hard strategy's policy.
    due: Option<Command>,
    /// How long the room stays in memory once over, and when it leaves.
    linger: Duration,
    leave_at: Option<Instant>,
    /// How long the room waits for its seats, and when it expires (restarted by each seat
    /// taken).
    open_for: Duration,
    expire_at: Option<(Instant, usize)>,
    bot_at: Option<Instant>,
    deadline: Option<(Instant, usize, (u32, bool))>,
    /// When the game clock runs out.
    game_end: Option<Instant>,
    /// How long a dropped person's seat is kept, and when each seat's grace runs out.
    grace: Duration,
    graces: Vec<Option<Instant>>,
    /// The turn clock's time left, kept while the awaited person is in their grace: the seat,
    /// the input's key and the time.
    paused: Option<(usize, (u32, bool), Duration)>,
    recorded: bool,
    /// While the next game of the series is being opened (`Msg::NextPlan` answered `New`),
    /// those who asked for it since, answered once it is open.
    next_pending: Option<Vec<oneshot::Sender<Result<NextPlan, Refusal>>>>,
    broken: bool,
    /// What the last awaiting frame announced.
    announced: Option<Waiting>,
    /// The chat lines each seat sent, counted against the limits.
    chat: crate::chat::Chat,
    /// The lobby entry's status and seats taken when it was last built in full.
    summarized: (RoomStatus, usize),
}

/// A room's clocks, in the order a tie between them is settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Clock {
    /// A computer's move is due (`--bot-delay-ms` after its turn began).
    Computer,
    /// The turn clock ran out.
    Turn,
    /// A dropped person's grace ran out.
    Grace,
    /// The game clock ran out.
    Game,
    /// The finished room's time in memory is over.
    Leave,
    /// Nobody took the open seats in time.
    Expire,
}

/// What a room's task does after a clock rang.
#[derive(Debug, PartialEq, Eq)]
enum Ring {
    Stay,
    Leave,
}

/// Starts the task of a new room (already stored).
pub(crate) fn spawn(room: Room, context: Context) -> Handle {
    let seats = room.setup.seats.len();
    let input = (0, room.waiting());
    let (tx, rx) = inbox();
    let (summary, summary_rx) = watch::channel(summary_of(&room));
    let hashes = vec![None; seats];
    let recent = Recent::default();
    let replayed = Replayed { room, hashes, seq: 0, input, log_len: 0, recent };
    let task = tokio::spawn(Box::new(start(replayed, context, summary)).run(rx)).abort_handle();
    Handle { tx, summary: summary_rx, task }
}

/// Rebuilds a stored room (a finished one too) on the blocking pool and starts its task, for a
/// request that asks for a room not in memory: it left after its game ended, or the server
/// restarted since.
///
/// # Errors
///
/// One sentence naming the room and what does not replay.
pub(crate) async fn load(stored: StoredRoom, context: Context) -> Result<Option<Handle>, String> {
    let id = stored.id.clone();
    let turn = context.restores.clone().acquire_owned().await.map_err(|e| e.to_string())?;
    let replayed = tokio::task::spawn_blocking(move || replay(stored))
        .await
        .map_err(|e| format!("room {id}: {e}"))??;
    drop(turn);
    if replayed.room.is_expired() {
        return Ok(None);
    }
    let (tx, rx) = inbox();
    let (summary, summary_rx) = watch::channel(summary_of(&replayed.room));
    let task = tokio::spawn(Box::new(start(replayed, context, summary)).run(rx)).abort_handle();
    Ok(Some(Handle { tx, summary: summary_rx, task }))
}

/// A stored room rebuilt from its log.
#[derive(Debug)]
pub(crate) struct Replayed {
    room: Room,
    hashes: Vec<Option<TokenHash>>,
    /// The last event's number.
    seq: u64,
    input: (u64, Waiting),
    log_len: u64,
    recent: Recent,
}

/// Starts the task of a stored room at once, and rebuilds the room in it by replaying its log
/// on the blocking pool ([`RESTORES`] rooms at a time): the server serves meanwhile, and what
/// is asked of the room waits in its queue until it is rebuilt. A room whose log does not
/// replay is told on standard error and closed (it answers 410).
///
/// # Errors
///
/// One sentence naming the room when its stored setup cannot be read.
pub(crate) fn restore(stored: StoredRoom, context: Context) -> Result<Handle, String> {
    let setup: RoomSetup = serde_json::from_str(&stored.setup)
        .map_err(|e| format!("room {}: its stored setup cannot be read: {e}", stored.id))?;
    // The lobby lists the room as created until it is rebuilt.
    let (summary, summary_rx) = watch::channel(summary_of(&Room::new(stored.id.clone(), setup)));
    let (tx, rx) = inbox();
    let task = tokio::spawn(async move {
        let Ok(turn) = context.restores.clone().acquire_owned().await else { return };
        let id = stored.id.clone();
        match tokio::task::spawn_blocking(move || replay(stored)).await {
            Ok(Ok(replayed)) => {
                let actor = Box::new(start(replayed, context, summary));
                actor.tell_summary_now();
                drop(turn);
                actor.run(rx).await;
            }
            Ok(Err(message)) => eprintln!("snl serve: cannot restore {message}"),
            Err(e) => eprintln!("snl serve: cannot restore room {id}: {e}"),
        }
    })
    .abort_handle();
    Ok(Handle { tx, summary: summary_rx, task })
}

/// Rebuilds a stored room by replaying its log and checks that it tells exactly the events
/// stored (blocking work: a computer's choice may compute the hard strategy's policy).
///
/// # Errors
///
/// One sentence naming the room and what does not replay.
pub(crate) fn replay(stored: StoredRoom) -> Result<Replayed, String> {
    let id = stored.id;
    let setup: RoomSetup = serde_json::from_str(&stored.setup)
        .map_err(|e| format!("room {id}: its stored setup cannot be read: {e}"))?;
    let mut hashes = vec![None; setup.seats.len()];
    for (seat, _, hash) in stored.seats {
        let slot = hashes.get_mut(seat).ok_or_else(|| format!("room {id}: no seat {seat}"))?;
        *slot = Some(
            TokenHash::try_from(hash.as_slice())
                .map_err(|_| format!("room {id}: seat {seat}'s token hash is not 32 bytes"))?,
        );
    }
    let mut room = Room::new(id.clone(), setup);
    let mut seq = 0;
    let mut input = (0, room.waiting());
    for (i, text) in stored.log.iter().enumerate() {
        let mut command: Command = serde_json::from_str(text)
            .map_err(|e| format!("room {id}: command {} cannot be read: {e}", i + 1))?;
        if let Command::Chat { text, .. } = &mut command {
            // Logged without its line, which the event it told keeps (a log stored before
            // that has it in both).
            if text.is_empty() {
                *text = said(stored.events.get(seq as usize)).ok_or_else(|| {
                    format!("room {id}: event {} does not replay to what was stored", seq + 1)
                })?;
            }
        }
        let events = room.apply(&command).map_err(|r| {
            format!("room {id}: command {} is refused on replay: {}", i + 1, r.message)
        })?;
        for told in events {
            let number = told.seq;
            if number != seq + 1 || !stored.events.get(seq as usize).is_some_and(|s| tells(s, told))
            {
                return Err(format!(
                    "room {id}: event {} does not replay to what was stored",
                    seq + 1
                ));
            }
            seq += 1;
        }
        // As `Actor::log` keeps it.
        if room.waiting() != input.1 {
            input = (room.seq(), room.waiting());
        }
    }
    if seq != stored.events.len() as u64 {
        return Err(format!(
            "room {id}: {} events are stored but its log replays to {seq}",
            stored.events.len(),
        ));
    }
    let recent = Recent::of_stored(&stored.events);
    Ok(Replayed { room, hashes, seq, input, log_len: stored.log.len() as u64, recent })
}

/// The line of chat that `stored`, an event frame as stored, tells, if it tells one.
fn said(stored: Option<&String>) -> Option<String> {
    match serde_json::from_str::<ServerFrame>(stored?) {
        Ok(ServerFrame::Event { event: snl_engine::Event::Chat { text, .. }, .. }) => Some(text),
        _ => None,
    }
}

/// Whether `stored`, an event frame as stored, is what `told` says: the same frame, or one
/// stored before frames carried sentences (the same number and event, no sentence).
fn tells(stored: &str, told: Told) -> bool {
    let frame = told.frame();
    if stored == frame.to_text() {
        return true;
    }
    let (
        ServerFrame::Event { seq, event, .. },
        Ok(ServerFrame::Event { seq: s, event: e, text: None }),
    ) = (frame, serde_json::from_str::<ServerFrame>(stored))
    else {
        return false;
    };
    seq == s && event == e
}

fn start(replayed: Replayed, context: Context, summary: watch::Sender<LobbyEntry>) -> Actor {
    let Replayed { room, hashes, seq, input, log_len, recent } = replayed;
    let (out, _) = broadcast::channel(BACKLOG);
    let online = vec![0; room.setup.seats.len()];
    let graces = vec![None; online.len()];
    let recorded = room.is_over();
    let announced = Some(room.waiting());
    let summarized = summary_key(&room);
    let chat = crate::chat::Chat::new(context.chat, room.setup.seats.len());
    Actor {
        chat,
        room,
        hashes,
        seq,
        recent,
        input,
        log_len,
        online,
        out,
        summary,
        writer: context.writer,
        bot_delay: context.bot_delay,
        policies: context.policies,
        due: None,
        linger: context.linger,
        leave_at: None,
        open_for: context.open_for,
        expire_at: None,
        bot_at: None,
        deadline: None,
        game_end: None,
        grace: context.grace,
        graces,
        paused: None,
        recorded,
        next_pending: None,
        broken: false,
        announced,
        summarized,
    }
}

/// What changes a lobby entry besides its turn count: its status and the seats taken.
fn summary_key(room: &Room) -> (RoomStatus, usize) {
    (room.status(), room.names().iter().flatten().count())
}

fn summary_of(room: &Room) -> LobbyEntry {
    let seats = room
        .setup
        .seats
        .iter()
        .zip(room.names())
        .enumerate()
        .map(|(i, (s, name))| SeatEntry {
            seat: i,
            kind: s.kind,
            name: name.clone(),
            open: name.is_none(),
        })
        .collect();
    LobbyEntry {
        room: room.id.clone(),
        status: room.status(),
        board_name: room.setup.board_name.clone(),
        seats,
        turns: room.session().map_or(0, |s| s.game().turns()),
        about: room_traits(
            room.setup.rules.mode.rounds(),
            room.setup.turn_time,
            room.setup.game_time,
        ),
        commitment: room.commitment().map(str::to_owned),
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

impl Actor {
    async fn run(mut self: Box<Self>, mut rx: mpsc::Receiver<Box<Msg>>) {
        Box::pin(self.resume()).await;
        let mut job: Option<Job> = None;
        while !self.broken {
            if job.is_none() && self.room.wants_policy() {
                job = Some(self.start_policy());
            }
            let time = self.policies.time();
            let computed = async {
                match job.as_mut() {
                    None => std::future::pending().await,
                    Some(job) => {
                        match tokio::time::timeout_at(job.deadline, &mut job.outcome).await {
                            Ok(Ok(outcome)) => outcome,
                            Ok(Err(_)) => Err("its computation stopped".to_owned()),
                            Err(_) => Err(format!(
                                "it takes longer than {} s on this board",
                                time.as_secs_f64()
                            )),
                        }
                    }
                }
            };
            // One timer for all of the room's clocks (a room's task holds it inline while it
            // waits, so one rather than six keeps every room smaller).
            let alarm = self.alarm(rx.is_empty());
            tokio::select! {
                outcome = computed => {
                    job = None;
                    Box::pin(self.settle(outcome)).await;
                }
                msg = rx.recv() => match msg {
                    Some(msg) => Box::pin(self.handle(*msg)).await,
                    None => break,
                },
                () = sleep_until(alarm.map(|(at, _)| at)) => {
                    if let Some((_, clock)) = alarm
                        && Box::pin(self.ring(clock)).await == Ring::Leave
                    {
                        break;
                    }
                }
            }
        }
    }

    /// Starts the room where it stood: after a restart nobody is connected, which is told.
    async fn resume(&mut self) {
        for seat in 0..self.room.present().len() {
            // A grace told before a restart starts again in full (nobody could come back while
            // the server was down).
            if self.room.kept()[seat] == Kept::Grace {
                self.graces[seat] = Some(Instant::now() + self.grace);
            }
            if self.room.present()[seat] {
                let _ = self.execute(Some(Command::Presence { seat, online: false }), vec![]).await;
                Box::pin(self.start_grace(seat)).await;
            }
        }
        let _ = self.execute(None, vec![]).await;
    }

    /// The room's next clock to run out, and when: the first of them in time (a tie goes to
    /// the first in [`Clock`]'s order). A finished room's leaving and an open room's expiry
    /// wait for its inbox to be `empty`.
    fn alarm(&self, empty: bool) -> Option<(Instant, Clock)> {
        let grace = self.graces.iter().flatten().min().copied();
        [
            (self.bot_at, Clock::Computer),
            (self.deadline.map(|d| d.0), Clock::Turn),
            (grace, Clock::Grace),
            (self.game_end, Clock::Game),
            (self.leave_at.filter(|_| empty), Clock::Leave),
            (self.expire_at.map(|e| e.0).filter(|_| empty), Clock::Expire),
        ]
        .into_iter()
        .filter_map(|(at, clock)| Some((at?, clock)))
        .min_by_key(|&(at, clock)| (at, clock))
    }

    /// Does what `clock` running out asks; [`Ring::Leave`] when the room's task is to end.
    async fn ring(&mut self, clock: Clock) -> Ring {
        match clock {
            Clock::Computer => {
                self.bot_at = None;
                let _ = self.execute(Some(Command::Computer), vec![]).await;
            }
            Clock::Turn => {
                if let Some((_, seat, _)) = self.deadline.take() {
                    let _ = self.execute(Some(Command::TimeOut { seat }), vec![]).await;
                }
            }
            Clock::Grace => {
                let now = Instant::now();
                for seat in 0..self.graces.len() {
                    if self.graces[seat].is_some_and(|at| at <= now) {
                        self.graces[seat] = None;
                        let _ = self.execute(Some(Command::Autoplay { seat }), vec![]).await;
                    }
                }
            }
            Clock::Game => {
                self.game_end = None;
                let _ = self.execute(Some(Command::TimeUp), vec![]).await;
            }
            // The game is over and stored: the room leaves memory (its connections are
            // closed; a request for it reads it back from the storage).
            Clock::Leave => return Ring::Leave,
            // Nobody took the open seats in time: closed for good.
            Clock::Expire => {
                let write = RoomWrite::Over { room: self.room.id.clone() };
                if self.execute(Some(Command::Expire), vec![write]).await.is_ok() {
                    return Ring::Leave;
                }
                self.expire_at = None;
            }
        }
        Ring::Stay
    }

    /// Keeps `seat`, whose person's last connection went, for the grace while the game runs:
    /// told to everyone (`grace_started`); the turn clock pauses (`arm_clocks`) and when the
    /// grace runs out the computer plays the seat (`Command::Autoplay`).
    async fn start_grace(&mut self, seat: usize) {
        if !self.room.in_play() || self.room.kept()[seat] != Kept::Held {
            return;
        }
        let seconds = self.grace.as_secs();
        if self.execute(Some(Command::Grace { seat, seconds }), vec![]).await.is_ok() {
            self.graces[seat] = Some(Instant::now() + self.grace);
            self.arm_clocks();
        }
    }

    /// Starts computing the hard strategy's policy for the room's board and rules.
    fn start_policy(&self) -> Job {
        let key = serde_json::to_string(&(&self.room.setup.board, &self.room.setup.rules))
            .unwrap_or_default();
        let game = self.room.session().map(snl_session::Session::game);
        match game {
            Some(game) => self.policies.start(game.board(), game.rules(), key),
            // `wants_policy` holds only once the game has begun.
            None => unreachable!("a policy is wanted only once the game has begun"),
        }
    }

    /// The policy is ready (the hard strategy plays with it) or not in time (greedy plays
    /// instead, told in the chat); then the input that waited for it is played.
    async fn settle(&mut self, outcome: crate::policy::Outcome) {
        match outcome {
            Ok(policy) => self.room.give_policy(policy),
            Err(why) => {
                let _ = self.execute(Some(Command::Greedy { why }), vec![]).await;
            }
        }
        let due = self.due.take();
        let _ = self.execute(due, vec![]).await;
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Join { token, since, recent, reply } => {
                let _ = reply.send(self.join(token, since, recent).await);
            }
            Msg::Leave { seat } => {
                self.online[seat] = self.online[seat].saturating_sub(1);
                if self.online[seat] == 0 {
                    let online = false;
                    let _ = self.execute(Some(Command::Presence { seat, online }), vec![]).await;
                    self.start_grace(seat).await;
                }
            }
            Msg::Do { seat, frame, reply } => {
                let result = match seat {
                    None => Err(Refusal::new(
                        ErrorCode::NotAPlayer,
                        "a spectator cannot roll, choose, hand over or chat: take a seat first",
                    )),
                    Some(seat) => {
                        match self.stale(&frame).map_or_else(|| command_of(seat, frame), Err) {
                            Ok(Command::Chat { seat, text }) => match self.chat.take(seat) {
                                Ok(()) => {
                                    self.execute(Some(Command::Chat { seat, text }), vec![]).await
                                }
                                Err(refusal) => Err(refusal),
                            },
                            Ok(command) => self.execute(Some(command), vec![]).await,
                            Err(refusal) => Err(refusal),
                        }
                    }
                };
                let _ = reply.send(result);
            }
            Msg::Claim { seat, name, seed, reply } => {
                let _ = reply.send(self.claim(seat, &name, seed).await);
            }
            Msg::Save { reply } => {
                let _ = reply.send(self.room.finished_save());
            }
            Msg::View { reply } => {
                let _ = reply.send(self.view(self.seq));
            }
            Msg::Standing { reply } => {
                let _ = reply.send(crate::standing::standing(&self.room, self.seq));
            }
            Msg::Dice { reply } => {
                let _ = reply.send(crate::dice::room_faces(&self.room, self.seq));
            }
            Msg::NextPlan { reply } => match &mut self.next_pending {
                // Asked while it is being opened: answered with it once it is.
                Some(waiting) => waiting.push(reply),
                None => {
                    let _ = reply.send(self.next_plan());
                }
            },
            Msg::NextOpened { room, reply } => {
                let waiting = self.next_pending.take().unwrap_or_default();
                let result = match room {
                    Some(room) => self.next_opened(room.clone()).await.map(|()| room),
                    None => Err(Refusal::new(ErrorCode::ServerError, "the next game did not open")),
                };
                for waiter in waiting {
                    let _ = waiter.send(result.clone().map(NextPlan::Open));
                }
                let _ = reply.send(result.map(|_| ()));
            }
            Msg::Carry { seat, name, hash, reply } => {
                let write = RoomWrite::Seat {
                    room: self.room.id.clone(),
                    seat,
                    name: name.clone(),
                    token_hash: hash.to_vec(),
                };
                let claim = Command::Claim { seat, name, seed: None };
                let result = self.execute(Some(claim), vec![write]).await;
                if result.is_ok() {
                    self.hashes[seat] = Some(hash);
                }
                let _ = reply.send(result);
            }
        }
    }

    /// The next game of the series: open already, or what to open (then it is pending until
    /// `Msg::NextOpened`, those who ask meanwhile waiting for it).
    fn next_plan(&mut self) -> Result<NextPlan, Refusal> {
        if let Some(room) = self.room.next_room() {
            return Ok(NextPlan::Open(room.to_owned()));
        }
        let (setup, carried) =
            self.room.next_plan().map_err(|why| Refusal::new(ErrorCode::Refused, why))?;
        let carried = carried
            .into_iter()
            .filter_map(|(there, here, name)| self.hashes[here].map(|hash| (there, name, hash)))
            .collect();
        self.next_pending = Some(Vec::new());
        let secret = self.room.setup.secret.is_some();
        Ok(NextPlan::New { setup: Box::new(setup), carried, secret })
    }

    /// Logs that the next game is open in `room` and tells every connection (a `next` frame).
    async fn next_opened(&mut self, room: String) -> Result<(), Refusal> {
        self.execute(Some(Command::Next { room: room.clone() }), vec![]).await?;
        let frame = ServerFrame::Next { room }.to_text().into();
        let _ = self.out.send(Arc::new(vec![frame]));
        Ok(())
    }

    async fn join(
        &mut self,
        token: Option<String>,
        since: Option<u64>,
        recent: Option<u64>,
    ) -> Result<Joined, Refusal> {
        let seat = match token {
            None => None,
            Some(token) => {
                let hash = token::hash(&token);
                let seat = self.hashes.iter().position(|h| h.as_ref() == Some(&hash));
                Some(seat.ok_or_else(|| {
                    Refusal::new(ErrorCode::BadToken, "the token holds no seat in this room")
                })?)
            }
        };
        let last = self.seq;
        if let Some(since) = since.filter(|&s| s > last) {
            return Err(Refusal::new(
                ErrorCode::BadMessage,
                format!("since {since} is past the room's last event, {last}"),
            ));
        }
        if let Some(seat) = seat {
            self.online[seat] += 1;
            if self.online[seat] == 1 {
                self.graces[seat] = None;
                self.execute(Some(Command::Presence { seat, online: true }), vec![]).await?;
            }
        }
        let seq = self.seq;
        let events = self.out.subscribe();
        let after = since.unwrap_or_else(|| {
            seq.saturating_sub(recent.unwrap_or(0).min(snl_wire::frames::MAX_RECENT))
        });
        let (missed, kept) = self.recent.after(after, seq);
        let state = Box::new(self.view(seq));
        let welcome = ServerFrame::Welcome { seat, seq, state }.to_text().into();
        Ok(Joined { seat, welcome, missed, kept, events })
    }

    async fn claim(
        &mut self,
        seat: usize,
        name: &str,
        seed: Option<String>,
    ) -> Result<String, ClaimError> {
        let name = check_name(name).map_err(ClaimError::BadName)?;
        self.room.check_claim(seat, &name).map_err(ClaimError::Problem)?;
        let token = token::fresh()
            .map_err(|e| ClaimError::Server(format!("no randomness for a token: {e}")))?;
        let hash = token::hash(&token);
        let write = RoomWrite::Seat {
            room: self.room.id.clone(),
            seat,
            name: name.clone(),
            token_hash: hash.to_vec(),
        };
        self.execute(Some(Command::Claim { seat, name, seed }), vec![write])
            .await
            .map_err(|r| ClaimError::Server(r.message))?;
        self.hashes[seat] = Some(hash);
        Ok(token)
    }

    /// [`Actor::execute_now`], its future on the heap while it runs: a room's task then holds
    /// only what lives across its awaits (the actor itself), not the largest future it awaits
    /// kept inline for the room's whole life (5.4 KB of the task's 7.8 KB before; a room of
    /// two people then cost 2.7 KB more each).
    fn execute(
        &mut self,
        first: Option<Command>,
        writes: Vec<RoomWrite>,
    ) -> std::pin::Pin<Box<dyn Future<Output = Result<(), Refusal>> + Send + '_>> {
        Box::pin(self.execute_now(first, writes))
    }

    /// Applies `first` (if any), then every computer input due now; stores the commands and
    /// their events with `writes` in one batch; then sends the events.
    async fn execute_now(
        &mut self,
        first: Option<Command>,
        mut writes: Vec<RoomWrite>,
    ) -> Result<(), Refusal> {
        let mut frames = Vec::new();
        if let Some(command) = first {
            if matches!(command, Command::Computer | Command::TimeOut { .. })
                && self.room.wants_policy()
            {
                // Played once the policy is ready, or given up.
                self.due = Some(command);
                self.arm_clocks();
                return Ok(());
            }
            let events = self.room.apply(&command)?;
            if !events.is_empty()
                || matches!(
                    command,
                    Command::Claim { .. }
                        | Command::Greedy { .. }
                        | Command::Expire
                        | Command::Next { .. }
                )
            {
                self.log(&command, events, &mut writes, &mut frames);
            }
        }
        while self.bot_delay.is_zero()
            && self.room.waiting() == Waiting::Computer
            && !self.room.wants_policy()
        {
            let Ok(events) = self.room.apply(&Command::Computer) else { break };
            self.log(&Command::Computer, events, &mut writes, &mut frames);
        }
        if !writes.is_empty() {
            let sent = frames.len() as u64;
            let mut finished = None;
            if self.room.is_over() && !self.recorded {
                self.recorded = true;
                writes.push(RoomWrite::Over { room: self.room.id.clone() });
                finished =
                    self.room.session().map(|s| Save::new(s.game(), s.dice(), s.board_name()));
            }
            if let Err(message) = self.writer.write(writes, finished).await {
                eprintln!("snl serve: room {} is closed: {message}", self.room.id);
                self.broken = true;
                return Err(Refusal::new(ErrorCode::ServerError, message));
            }
            self.seq += sent;
            // A new input awaited is announced once; presence and chat change nothing awaited.
            let waiting = self.room.waiting();
            if self.announced.replace(waiting) != Some(waiting) {
                let seq = self.seq;
                // The clocks set for the input now awaited, so the frame tells the turn's time.
                self.arm_clocks();
                let awaiting = ServerFrame::Awaiting {
                    seq,
                    awaiting: self.room.awaiting(self.input.0),
                    seats: self.room.seat_lines(),
                    race: self.room.race_line(),
                    awards: self.room.award_lines(),
                    series: self.room.series_line().filter(|_| self.room.is_over()),
                    turn_left_ms: self.turn_left_ms(),
                };
                frames.push(awaiting.to_text().into());
            }
            let _ = self.out.send(Arc::new(frames));
            self.tell_summary();
        }
        self.arm_clocks();
        Ok(())
    }

    /// Tells the lobby entry in full (a restored room, once rebuilt).
    fn tell_summary_now(&self) {
        self.summary.send_replace(summary_of(&self.room));
    }

    /// Updates the lobby entry: in full when its status or seats changed, else only its turn
    /// count, in place (once a turn while a game runs: building the entry anew each time
    /// cost as much as playing the roll), and not at all when nothing changed.
    fn tell_summary(&mut self) {
        let key = summary_key(&self.room);
        if key != self.summarized {
            self.summarized = key;
            self.summary.send_replace(summary_of(&self.room));
            return;
        }
        let turns = self.room.session().map_or(0, |s| s.game().turns());
        self.summary.send_if_modified(|entry| {
            let changed = entry.turns != turns;
            entry.turns = turns;
            changed
        });
    }

    fn log(
        &mut self,
        command: &Command,
        events: Vec<Told>,
        writes: &mut Vec<RoomWrite>,
        frames: &mut Vec<Utf8Bytes>,
    ) {
        self.log_len += 1;
        let room = &self.room.id;
        let text = serde_json::to_string(command).unwrap_or_default();
        writes.push(RoomWrite::Log { room: room.clone(), number: self.log_len, command: text });
        // Numbered by the room's session: the number stored and sent.
        for told in events {
            let seq = told.seq;
            debug_assert_eq!(seq, self.seq + frames.len() as u64 + 1, "numbers without gaps");
            let text = told.frame().to_text();
            // The copy is the one kept (in memory while the room keeps it): a copy is as long as
            // its text, the original has the room it grew into.
            let frame = Utf8Bytes::from(text.clone());
            writes.push(RoomWrite::Event { room: room.clone(), seq, event: text });
            self.recent.push(frame.clone());
            frames.push(frame);
        }
        // A new input awaited gets a new id: the last event's number now.
        let waiting = self.room.waiting();
        if waiting != self.input.1 {
            self.input = (self.room.seq(), waiting);
        }
    }

    /// Why `frame`, a roll or a choice answering an input that is no longer awaited (its `input`
    /// is not the id of the one awaited now), is refused; none when it is not stale.
    fn stale(&self, frame: &ClientFrame) -> Option<Refusal> {
        let (ClientFrame::Roll { input: Some(input) }
        | ClientFrame::Choose { input: Some(input), .. }) = *frame
        else {
            return None;
        };
        let now = self.input.0;
        (input != now).then(|| {
            Refusal::new(
                ErrorCode::Refused,
                format!("input {input} is no longer awaited (the room awaits input {now}): nothing changed"),
            )
        })
    }

    /// The room's public state, with the milliseconds left of the turn clock (`turn_left_ms`:
    /// null when no person's turn is timed) and of the game clock (`game_left_ms`), so a page or
    /// `snl join` that joins mid-game shows the time left.
    fn view(&self, seq: u64) -> RoomState {
        let mut state = self.room.view(seq, &self.online, self.input.0);
        state.turn_left_ms = self.turn_left_ms();
        state.game_left_ms = self.game_end.map(millis_left);
        for (seat, at) in state.seats.iter_mut().zip(&self.graces) {
            seat.grace_left_ms = at.map(millis_left);
        }
        state
    }

    /// The milliseconds left of the person's turn awaited (running, or held in their grace);
    /// `None` when nobody's turn is timed.
    fn turn_left_ms(&self) -> Option<u64> {
        self.deadline.map(|(at, _, _)| millis_left(at)).or_else(|| {
            self.paused.map(|(_, _, rest)| u64::try_from(rest.as_millis()).unwrap_or(u64::MAX))
        })
    }

    fn arm_clocks(&mut self) {
        let now = Instant::now();
        if self.recorded {
            self.leave_at.get_or_insert(now + self.linger);
        }
        let taken = self.room.names().iter().flatten().count();
        self.expire_at = match (self.room.waiting(), self.expire_at) {
            (Waiting::Seats, Some((at, n))) if n == taken => Some((at, n)),
            (Waiting::Seats, _) => Some((now + self.open_for, taken)),
            _ => None,
        };
        let running = self
            .room
            .session()
            .map(snl_session::Session::game)
            .filter(|g| g.status() != snl_engine::Status::Finished && g.time_up().is_none());
        match (running, self.room.setup.game_time) {
            (Some(_), Some(seconds)) => {
                self.game_end.get_or_insert(now + Duration::from_secs(seconds));
            }
            _ => self.game_end = None,
        }
        match self.room.waiting() {
            Waiting::Computer if !self.bot_delay.is_zero() => {
                self.deadline = None;
                self.bot_at.get_or_insert(now + self.bot_delay);
            }
            Waiting::Person { seat, key } => {
                self.bot_at = None;
                let Some(seconds) = self.room.setup.turn_time else { return };
                if self.graces[seat].is_some() {
                    // Paused in the person's grace: what was left is kept for their return.
                    if let Some((at, s, k)) = self.deadline.take()
                        && (s, k) == (seat, key)
                    {
                        self.paused = Some((seat, key, at.saturating_duration_since(now)));
                    }
                    return;
                }
                if let Some((s, k, rest)) = self.paused.take()
                    && (s, k) == (seat, key)
                {
                    self.deadline = Some((now + rest, seat, key));
                }
                if self.deadline.is_none_or(|(_, s, k)| (s, k) != (seat, key)) {
                    self.deadline = Some((now + Duration::from_secs(seconds), seat, key));
                }
            }
            _ => {
                self.bot_at = None;
                self.deadline = None;
            }
        }
        if self.due.is_some() || self.room.wants_policy() {
            // The computer waits for its policy; then `settle` plays on.
            self.bot_at = None;
            if matches!(self.due, Some(Command::TimeOut { .. })) {
                self.deadline = None;
            }
        }
        if self.bot_delay.is_zero()
            && self.room.waiting() == Waiting::Computer
            && self.due.is_none()
            && self.room.wants_policy()
        {
            self.due = Some(Command::Computer);
        }
    }
}

/// The milliseconds from now until `at` (0 once it has passed).
fn millis_left(at: Instant) -> u64 {
    u64::try_from(at.saturating_duration_since(Instant::now()).as_millis()).unwrap_or(u64::MAX)
}

/// The command for a seated connection's frame.
fn command_of(seat: usize, frame: ClientFrame) -> Result<Command, Refusal> {
    let act = |act| Ok(Command::Act { seat, act });
    match frame {
        ClientFrame::Hello { .. } => {
            Err(Refusal::new(ErrorCode::BadMessage, "hello was said already on this connection"))
        }
        ClientFrame::Roll { .. } => act(Act::Roll),
        ClientFrame::Choose { option, .. } => act(Act::Choose { option }),
        ClientFrame::Autopilot { on } => act(Act::Autopilot { on }),
        ClientFrame::Chat { text } => {
            let count = text.chars().count();
            if count == 0 || count > MAX_CHAT || text.chars().any(char::is_control) {
                return Err(Refusal::new(
                    ErrorCode::BadMessage,
                    format!("a chat line has 1 to {MAX_CHAT} characters and no control characters"),
                ));
            }
            Ok(Command::Chat { seat, text })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{CheckRoom, CreateRoom};
    use serde_json::{Value, json};
    use snl_store::RoomStore;
    use tokio::sync::broadcast::error::TryRecvError;

    async fn ask<T>(handle: &Handle, msg: impl FnOnce(oneshot::Sender<T>) -> Msg) -> T {
        let (reply, answer) = oneshot::channel();
        handle.tx.send(msg(reply)).await.unwrap();
        answer.await.unwrap()
    }

    /// A room stored and started, as `POST /api/rooms` does.
    async fn room(id: &str, request: &str, bot_delay: Duration) -> (Handle, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("snl-server-{id}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let writer = Writer::start(RoomStore::open(&dir.join("games.db")).unwrap(), || 0);
        let setup = serde_json::from_str::<CreateRoom>(request).unwrap().check(1).unwrap();
        let setup_text = serde_json::to_string(&setup).unwrap();
        let create = RoomWrite::Create { room: id.into(), setup: setup_text, now_ms: 0 };
        writer.write(vec![create], None).await.unwrap();
        (
            spawn(
                Room::new(id.into(), setup),
                Context::new(
                    writer,
                    bot_delay,
                    Duration::from_secs(5),
                    (Duration::from_hours(1), Duration::from_hours(1000)),
                ),
            ),
            dir,
        )
    }

    fn events(batch: &Batch) -> Vec<Value> {
        batch
            .iter()
            .map(|f| serde_json::from_str::<Value>(f.as_str()).unwrap())
            .filter(|f| f["type"] == "event")
            .map(|f| f["event"].clone())
            .collect()
    }

    /// Every room's task holds its future for the room's life, and every room holds a block of
    /// its inbox: both are kept small (issue 31's memory per player). The actor itself is on
    /// the heap, once; the loop's waits add little to it.
    #[tokio::test]
    async fn a_rooms_task_and_inbox_stay_small_while_it_waits() {
        let dir = std::env::temp_dir().join(format!("snl-server-small-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let writer = Writer::start(RoomStore::open(&dir.join("games.db")).unwrap(), || 0);
        let request = r#"{"seats":[{"kind":"human"},{"kind":"human"}],"seed":1}"#;
        let setup = serde_json::from_str::<CreateRoom>(request).unwrap().check(1).unwrap();
        let room = Room::new("small".into(), setup);
        let (summary, _watching) = watch::channel(summary_of(&room));
        let input = (0, room.waiting());
        let recent = Recent::default();
        let replayed = Replayed { room, hashes: vec![None; 2], seq: 0, input, log_len: 0, recent };
        let context = Context::new(
            writer,
            Duration::ZERO,
            Duration::from_secs(5),
            (Duration::from_secs(1), Duration::from_secs(1)),
        );
        let actor = Box::new(start(replayed, context, summary));
        let (tx, rx) = inbox();
        // The inbox's slots are pointers: its channel carries boxed messages (this does not
        // compile if it carries them whole again).
        let _: &mpsc::Sender<Box<Msg>> = &tx.0;
        let task = actor.run(rx);
        // As an `async fn` taking the actor by value the task was 5,952 bytes: the actor kept
        // twice, and six timers.
        let size = std::mem::size_of_val(&task);
        assert!(size <= 1024, "a room's task is {size} bytes");
        drop(task);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(start_paused = true)]
    async fn an_idle_persons_turn_is_played_by_the_computer_when_the_clock_runs_out() {
        let request = r#"{"seats":[{"kind":"human"},{"kind":"human"}],"turn_time":30,"seed":1}"#;
        let (handle, dir) = room("clock", request, Duration::ZERO).await;
        for (seat, name) in [(0, "Ann"), (1, "Bob")] {
            let name = name.to_owned();
            ask(&handle, |reply| Msg::Claim { seat, name, seed: None, reply }).await.unwrap();
        }
        let joined =
            ask(&handle, |reply| Msg::Join { token: None, since: None, recent: None, reply }).await;
        let mut rx = joined.unwrap().events;

        // Ann acts within her 30 seconds: nothing times out.
        tokio::time::advance(Duration::from_secs(29)).await;
        assert_eq!(rx.try_recv().unwrap_err(), TryRecvError::Empty);
        let frame = ClientFrame::ROLL;
        ask(&handle, |reply| Msg::Do { seat: Some(0), frame, reply }).await.unwrap();
        let told = events(&rx.recv().await.unwrap());
        assert!(told.iter().all(|e| e["type"] != "timed_out"), "{told:?}");
        assert!(told.iter().any(|e| e["type"] == "dice_rolled" && e["player"] == "Ann"));

        // Bob does not: his clock started when Ann's turn ended, and runs out 30 s later.
        tokio::time::advance(Duration::from_secs(29)).await;
        assert_eq!(rx.try_recv().unwrap_err(), TryRecvError::Empty);
        tokio::time::advance(Duration::from_secs(2)).await;
        let batch = rx.recv().await.unwrap();
        let told = events(&batch);
        assert_eq!(told[0], json!({"type": "timed_out", "player": "Bob"}));
        assert!(told.iter().any(|e| e["type"] == "dice_rolled" && e["player"] == "Bob"));
        let awaiting: Value = serde_json::from_str(batch.last().unwrap().as_str()).unwrap();
        let seq = awaiting["seq"].clone();
        assert_eq!(awaiting["awaiting"], json!({"type": "roll", "seat": 0, "input": seq}));

        // Bob's late roll is refused: it is Ann's turn again.
        let frame = ClientFrame::ROLL;
        let late = ask(&handle, |reply| Msg::Do { seat: Some(1), frame, reply }).await;
        assert_eq!(late.unwrap_err().code, ErrorCode::NotYourTurn);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(start_paused = true)]
    async fn a_dropped_persons_turn_clock_pauses_in_the_grace_and_runs_on_from_there_on_return() {
        let request = r#"{"seats":[{"kind":"human"},{"kind":"human"}],"turn_time":30,"seed":1}"#;
        let (handle, dir) = room("grace-clock", request, Duration::ZERO).await;
        let mut tokens = Vec::new();
        for (seat, name) in [(0, "Ann"), (1, "Bob")] {
            let name = name.to_owned();
            let token = ask(&handle, |reply| Msg::Claim { seat, name, seed: None, reply }).await;
            tokens.push(token.unwrap());
        }
        let join = |token: Option<String>| {
            let handle = handle.clone();
            async move {
                ask(&handle, |reply| Msg::Join { token, since: None, recent: None, reply })
                    .await
                    .unwrap()
            }
        };
        let view = || async { json!(ask(&handle, |reply| Msg::View { reply }).await) };
        let mut rx = join(None).await.events;
        let mut told = Vec::new();
        let mut hear = |rx: &mut broadcast::Receiver<Batch>| {
            while let Ok(batch) = rx.try_recv() {
                told.extend(events(&batch));
            }
            told.clone()
        };
        assert_eq!(join(Some(tokens[0].clone())).await.seat, Some(0));

        // Ann's page goes 10 s into her turn: her clock stops with 20 s left for her grace.
        tokio::time::advance(Duration::from_secs(10)).await;
        handle.tx.send(Msg::Leave { seat: 0 }).await.unwrap();
        // Answered after the leave: the grace has started.
        assert_eq!(view().await["seats"][0]["grace_left_ms"], 120_000);
        tokio::time::advance(Duration::from_secs(100)).await;
        let state = view().await;
        assert_eq!(state["turn_left_ms"], 20_000, "{state}");
        assert_eq!(state["seats"][0]["grace_left_ms"], 20_000, "{state}");
        let heard = hear(&mut rx);
        assert!(heard.contains(&json!({"type": "grace_started", "player": "Ann", "seconds": 120})));
        assert!(heard.iter().all(|e| e["type"] != "timed_out"), "{heard:?}");

        // She is back within the grace: her turn runs on from 20 s.
        assert_eq!(join(Some(tokens[0].clone())).await.seat, Some(0));
        let state = view().await;
        assert_eq!(state["turn_left_ms"], 20_000, "{state}");
        assert_eq!(state["seats"][0]["grace_left_ms"], Value::Null, "{state}");
        tokio::time::advance(Duration::from_secs(19)).await;
        assert_eq!(view().await["turn_left_ms"], 1_000);
        tokio::time::advance(Duration::from_secs(2)).await;
        let mut late = hear(&mut rx);
        while !late.contains(&json!({"type": "timed_out", "player": "Ann"})) {
            late.extend(events(&rx.recv().await.unwrap()));
        }
        assert!(late.contains(&json!({"type": "seat_returned", "player": "Ann"})));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(start_paused = true)]
    async fn a_welcome_mid_turn_tells_the_time_left_of_the_turn_clock_and_the_game_clock() {
        let request = r#"{"seats":[{"kind":"human"},{"kind":"human"}],"turn_time":30,
            "game_time":600,"seed":1}"#;
        let (handle, dir) = room("clock-left", request, Duration::ZERO).await;
        let welcome = |handle: Handle| async move {
            let joined =
                ask(&handle, |reply| Msg::Join { token: None, since: None, recent: None, reply })
                    .await;
            let text = joined.unwrap().welcome;
            serde_json::from_str::<Value>(text.as_str()).unwrap()["state"].clone()
        };
        // Seats open: no turn is timed.
        assert_eq!(welcome(handle.clone()).await["turn_left_ms"], Value::Null);
        assert_eq!(welcome(handle.clone()).await["game_left_ms"], Value::Null);
        for (seat, name) in [(0, "Ann"), (1, "Bob")] {
            let name = name.to_owned();
            ask(&handle, |reply| Msg::Claim { seat, name, seed: None, reply }).await.unwrap();
        }
        assert_eq!(welcome(handle.clone()).await["turn_left_ms"], 30_000);
        tokio::time::advance(Duration::from_millis(12_500)).await;
        assert_eq!(welcome(handle.clone()).await["turn_left_ms"], 17_500);
        assert_eq!(welcome(handle.clone()).await["game_left_ms"], 587_500);
        let view = json!(ask(&handle, |reply| Msg::View { reply }).await);
        assert_eq!(view["turn_left_ms"], 17_500, "GET /api/rooms/{{room}} tells it too");
        // Ann rolls: Bob's turn has its whole 30 seconds, as the frame announcing it says.
        let mut rx =
            ask(&handle, |reply| Msg::Join { token: None, since: None, recent: None, reply })
                .await
                .unwrap()
                .events;
        let frame = ClientFrame::ROLL;
        ask(&handle, |reply| Msg::Do { seat: Some(0), frame, reply }).await.unwrap();
        assert_eq!(welcome(handle.clone()).await["turn_left_ms"], 30_000);
        let batch = rx.recv().await.unwrap();
        let frames: Vec<Value> =
            batch.iter().map(|f| serde_json::from_str(f.as_str()).unwrap()).collect();
        let awaiting = frames.iter().find(|f| f["type"] == "awaiting").unwrap();
        assert_eq!(awaiting["awaiting"]["seat"], 1, "{awaiting}");
        assert_eq!(awaiting["turn_left_ms"], 30_000, "{awaiting}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(start_paused = true)]
    async fn when_the_game_clock_runs_out_the_round_is_completed_and_the_game_ends() {
        let request = r#"{"seats":[{"kind":"human"},{"kind":"human"},{"kind":"easy","name":"Robo"}],
            "game_time":600,"seed":3}"#;
        let (handle, dir) = room("game-clock", request, Duration::ZERO).await;
        let joined =
            ask(&handle, |reply| Msg::Join { token: None, since: None, recent: None, reply }).await;
        let mut rx = joined.unwrap().events;
        // The clock starts when the last seat is taken, not before.
        tokio::time::advance(Duration::from_hours(1)).await;
        for (seat, name) in [(0, "Ann"), (1, "Bob")] {
            let name = name.to_owned();
            ask(&handle, |reply| Msg::Claim { seat, name, seed: None, reply }).await.unwrap();
        }
        let roll = |seat| {
            let handle = handle.clone();
            async move {
                let frame = ClientFrame::ROLL;
                ask(&handle, |reply| Msg::Do { seat: Some(seat), frame, reply }).await
            }
        };
        // Round 1 whole (Robo plays at once), then Ann opens round 2.
        roll(0).await.unwrap();
        roll(1).await.unwrap();
        roll(0).await.unwrap();
        while rx.try_recv().is_ok() {}

        tokio::time::advance(Duration::from_secs(599)).await;
        assert_eq!(rx.try_recv().unwrap_err(), TryRecvError::Empty);
        tokio::time::advance(Duration::from_secs(1)).await;
        let told = events(&rx.recv().await.unwrap());
        assert_eq!(told, vec![json!({"type": "time_up"})], "the round goes on");

        // Bob and Robo complete round 2: the game ends, ranked by position.
        roll(1).await.unwrap();
        let mut told = Vec::new();
        while let Ok(batch) = rx.try_recv() {
            told.extend(events(&batch));
        }
        let ended = told.last().unwrap();
        assert_eq!(ended["type"], "game_ended", "{told:?}");
        let view = json!(ask(&handle, |reply| Msg::View { reply }).await);
        assert_eq!(view["status"], "over");
        assert_eq!(view["time_up"], true);
        let mut by_position: Vec<(u64, usize)> =
            (0..3).map(|i| (view["seats"][i]["position"].as_u64().unwrap(), i)).collect();
        by_position.sort_by_key(|&(p, i)| (std::cmp::Reverse(p), i));
        let names = ["Ann", "Bob", "Robo"];
        let expected: Vec<&str> = by_position.iter().map(|&(_, i)| names[i]).collect();
        assert_eq!(ended["ranking"], json!(expected));
        let late = roll(0).await.unwrap_err();
        assert_eq!(late.code, ErrorCode::GameOver);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(start_paused = true)]
    async fn computer_seats_wait_the_bot_delay_before_each_input() {
        let request = r#"{"seats":[{"kind":"easy"},{"kind":"greedy"}],"seed":2}"#;
        let (handle, dir) = room("bots", request, Duration::from_millis(500)).await;
        let joined =
            ask(&handle, |reply| Msg::Join { token: None, since: None, recent: None, reply }).await;
        let (mut rx, seq) = {
            let joined = joined.unwrap();
            let welcome: Value = serde_json::from_str(joined.welcome.as_str()).unwrap();
            (joined.events, welcome["seq"].as_u64().unwrap())
        };
        assert_eq!(seq, 0, "nothing is played before the first pause");
        tokio::time::advance(Duration::from_millis(499)).await;
        assert_eq!(rx.try_recv().unwrap_err(), TryRecvError::Empty);
        tokio::time::advance(Duration::from_millis(1)).await;
        let told = events(&rx.recv().await.unwrap());
        assert_eq!(told[0]["type"], "game_started");
        assert!(
            told.iter().all(|e| e["player"] != "Computer (greedy)"),
            "one input per pause: {told:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test]
    async fn the_lobby_entry_follows_seats_status_and_turns() {
        let request = r#"{"seats":[{"kind":"human"},{"kind":"human"}],"seed":3}"#;
        let (handle, dir) = room("summary", request, Duration::ZERO).await;
        assert_eq!(json!(*handle.summary.borrow())["status"], "open");
        for (seat, name) in [(0, "Ann"), (1, "Bob")] {
            let name = name.to_owned();
            ask(&handle, |reply| Msg::Claim { seat, name, seed: None, reply }).await.unwrap();
        }
        assert_eq!(json!(*handle.summary.borrow())["seats"][1]["name"], "Bob");
        let mut turns_seen = 0;
        loop {
            let view = json!(ask(&handle, |reply| Msg::View { reply }).await);
            let entry = json!(*handle.summary.borrow());
            assert_eq!((&entry["status"], &entry["turns"]), (&view["status"], &view["turns"]));
            turns_seen = turns_seen.max(entry["turns"].as_u64().unwrap());
            let Some(seat) = view["awaiting"]["seat"].as_u64() else { break };
            let frame = ClientFrame::ROLL;
            let seat = Some(seat as usize);
            ask(&handle, |reply| Msg::Do { seat, frame, reply }).await.unwrap();
        }
        assert_eq!(json!(*handle.summary.borrow())["status"], "over");
        assert!(turns_seen > 2, "{turns_seen}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Ann and a computer's room after `log`: its setup and the event frames it told.
    fn told_after(log: &[Command]) -> (RoomSetup, Vec<String>) {
        let request = r#"{"seats":[{"kind":"human"},{"kind":"easy","name":"Robo"}],"seed":4}"#;
        let setup = serde_json::from_str::<CreateRoom>(request).unwrap().check(1).unwrap();
        let mut room = Room::new("r".into(), setup.clone());
        let mut events = Vec::new();
        for command in log {
            for told in room.apply(command).unwrap() {
                events.push(told.frame().to_text());
            }
        }
        (setup, events)
    }

    #[test]
    fn a_stored_room_whose_events_do_not_replay_is_refused_naming_the_event() {
        let log = [
            Command::Claim { seat: 0, name: "Ann".into(), seed: None },
            Command::Act { seat: 0, act: Act::Roll },
        ];
        let (setup, events) = told_after(&log);
        let stored = |events: Vec<String>| StoredRoom {
            id: "r".into(),
            setup: serde_json::to_string(&setup).unwrap(),
            seats: vec![(0, "Ann".into(), vec![1; 32])],
            log: log.iter().map(|c| serde_json::to_string(c).unwrap()).collect(),
            events,
        };
        assert!(replay(stored(events.clone())).is_ok());
        let mut tampered = events.clone();
        tampered[1] = tampered[1].replace("Ann", "Eve");
        let error = replay(stored(tampered)).unwrap_err();
        assert_eq!(error, "room r: event 2 does not replay to what was stored");
        let mut more = events;
        more.push("{}".into());
        let error = replay(stored(more)).unwrap_err();
        assert!(error.contains("events are stored but its log replays to"), "{error}");
    }

    #[test]
    fn a_chat_line_is_logged_by_who_said_it_and_replayed_from_the_event_that_keeps_it() {
        let log = [
            Command::Claim { seat: 0, name: "Ann".into(), seed: None },
            Command::Chat { seat: 0, text: "good luck, Robo".into() },
            Command::Act { seat: 0, act: Act::Roll },
        ];
        let (setup, events) = told_after(&log);
        let logged: Vec<String> = log.iter().map(|c| serde_json::to_string(c).unwrap()).collect();
        assert_eq!(logged[1], r#"{"do":"chat","seat":0}"#, "the line is not in the log");
        assert_eq!(events.iter().filter(|e| e.contains("good luck, Robo")).count(), 1);
        let stored = |log: Vec<String>, events: Vec<String>| StoredRoom {
            id: "r".into(),
            setup: serde_json::to_string(&setup).unwrap(),
            seats: vec![(0, "Ann".into(), vec![1; 32])],
            log,
            events,
        };
        let replayed = replay(stored(logged.clone(), events.clone())).unwrap();
        assert_eq!(replayed.seq, events.len() as u64);
        // A log stored before kept the line in the command too: it replays the same.
        let mut older = logged.clone();
        older[1] = r#"{"do":"chat","seat":0,"text":"good luck, Robo"}"#.into();
        assert_eq!(replay(stored(older, events.clone())).unwrap().seq, events.len() as u64);
        // A chat command whose event tells no line does not replay.
        let mut lost = events;
        let chat = lost.iter().position(|e| e.contains("good luck")).unwrap();
        lost[chat] = lost[chat + 1].clone();
        let error = replay(stored(logged, lost)).unwrap_err();
        assert_eq!(error, format!("room r: event {} does not replay to what was stored", chat + 1));
    }
}
