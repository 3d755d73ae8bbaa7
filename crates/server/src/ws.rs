//! One WebSocket connection: hello, then welcome and the events missed, then live events and
//! intents. Every frame is checked at this edge: its size, the connection's rate (a token
//! bucket), its shape. A refused frame gets an error frame and changes nothing; a connection
//! that keeps flooding is closed.

use std::sync::{Arc, atomic::Ordering};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{
    SinkExt, StreamExt,
    stream::{SplitSink, SplitStream},
};
use snl_wire::rooms::RoomStatus;
use tokio::{
    sync::{broadcast::error::RecvError, oneshot},
    time::Instant,
};

use crate::{
    Limits, Shared,
    actor::{Handle, Joined, Msg},
    frames::{ClientFrame, ErrorCode, ServerFrame},
    room::Refusal,
};

/// The room's task read back from the storage, if it can be (for a hello that meets a room
/// just gone from memory).
pub(crate) type ReadBack =
    std::pin::Pin<Box<dyn std::future::Future<Output = Option<Handle>> + Send>>;

/// The reason of the close frame a connection gets when its room leaves memory after its game
/// ended ([`crate::Config::linger`]).
pub(crate) const GAME_OVER: &str = "the game is over";

/// One connection counted against `--max-connections` while it lives.
#[derive(Debug)]
pub(crate) struct Held(pub(crate) Arc<Shared>);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.connections.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A token bucket: `burst` frames at once, refilled at `rate` frames per second. Every frame a
/// client sends takes from it, pings and pongs too: the protocol layer answers a ping by itself,
/// so pings would otherwise be work a client makes the server do without limit.
#[derive(Debug)]
pub(crate) struct Bucket {
    tokens: f64,
    at: Instant,
    limits: Limits,
    /// Frames refused in a row for the rate.
    strikes: u32,
}

impl Bucket {
    pub(crate) fn new(limits: Limits) -> Bucket {
        Bucket { tokens: f64::from(limits.burst), at: Instant::now(), limits, strikes: 0 }
    }

    pub(crate) fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * f64::from(self.limits.rate);
        self.tokens = (self.tokens + refill).min(f64::from(self.limits.burst));
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.strikes = 0;
            true
        } else {
            self.strikes += 1;
            false
        }
    }
}

type Sink = SplitSink<WebSocket, Message>;

/// Sends an error frame, waiting at most `time` for the client to take it.
async fn send_error(
    sink: &mut Sink,
    time: std::time::Duration,
    code: ErrorCode,
    message: impl Into<String>,
) -> bool {
    let frame = ServerFrame::error(code, message).to_text();
    let sent = tokio::time::timeout(time, sink.send(Message::Text(frame.into())));
    matches!(sent.await, Ok(Ok(())))
}

/// Where a connection's frames go, and how long a page of them may take.
struct Out<'a> {
    sink: Sink,
    room: &'a str,
    time: std::time::Duration,
}

impl Out<'_> {
    /// Sends `frames` and waits until the socket took them: false when it is closed, or when
    /// the client read nothing for [`crate::Limits::send_time`] (told on standard error).
    async fn send(&mut self, frames: impl IntoIterator<Item = Utf8Bytes>) -> bool {
        let sink = &mut self.sink;
        let sent = tokio::time::timeout(self.time, async move {
            for frame in frames {
                sink.feed(Message::Text(frame)).await?;
            }
            sink.flush().await
        });
        if let Ok(done) = sent.await {
            return done.is_ok();
        }
        eprintln!(
            "snl serve: a connection to room {} is cut off: it read nothing for {} s",
            self.room,
            self.time.as_secs_f64()
        );
        false
    }
}

/// What a frame from the client turned out to be.
enum Frame {
    /// A protocol frame.
    Good(ClientFrame),
    /// Refused with this error (the connection stays).
    Refused(ErrorCode, String),
    /// Nothing to do (ping, pong).
    Skip,
    /// The connection is over.
    End,
}

fn read(message: Option<Result<Message, axum::Error>>, bucket: &mut Bucket) -> Frame {
    let message = match message {
        None | Some(Err(_) | Ok(Message::Close(_))) => return Frame::End,
        Some(Ok(message)) => message,
    };
    if !bucket.take() {
        if bucket.strikes > bucket.limits.flood {
            return Frame::End;
        }
        let what =
            if matches!(message, Message::Ping(_) | Message::Pong(_)) { "pings" } else { "frames" };
        return Frame::Refused(ErrorCode::RateLimited, format!("too many {what}: slow down"));
    }
    let text = match message {
        Message::Ping(_) | Message::Pong(_) => return Frame::Skip,
        Message::Binary(_) => {
            return Frame::Refused(
                ErrorCode::BadMessage,
                "frames are JSON text, not binary".into(),
            );
        }
        Message::Close(_) => return Frame::End,
        Message::Text(text) => text,
    };
    if text.len() > bucket.limits.max_text {
        let max = bucket.limits.max_text;
        return Frame::Refused(ErrorCode::TooLarge, format!("a frame has at most {max} bytes"));
    }
    match serde_json::from_str::<ClientFrame>(text.as_str()) {
        Ok(frame) => Frame::Good(frame),
        Err(e) => {
            Frame::Refused(ErrorCode::BadMessage, format!("not a frame of the protocol: {e}"))
        }
    }
}

async fn ask<T>(handle: &Handle, msg: impl FnOnce(oneshot::Sender<T>) -> Msg) -> Option<T> {
    let (reply, answer) = oneshot::channel();
    handle.tx.send(msg(reply)).await.ok()?;
    answer.await.ok()
}

/// The events numbered `after + 1 ..= upto` of `room`, read from the storage, where every
/// event is before it is sent; an error frame's code and sentence when they cannot be had.
async fn missed(
    held: &Held,
    room: &str,
    (after, upto): (u64, u64),
) -> Result<Vec<String>, (ErrorCode, String)> {
    let events = held.0.writer.storage().events_between(room, after, upto).await;
    match events {
        Ok(events) if events.len() as u64 == upto - after => Ok(events),
        Ok(events) => Err((
            ErrorCode::ServerError,
            format!(
                "room {room}'s events {} to {upto} are not all stored ({} found): reconnect",
                after + 1,
                events.len()
            ),
        )),
        Err(e) => Err((ErrorCode::ServerError, format!("the missed events cannot be read: {e}"))),
    }
}

/// Reads the connection's hello and joins the room (asking `read_back` for it again when
/// its task has just ended), answering a frame that is not a good hello with an error; none
/// when the connection or the room is gone first.
async fn hello(
    out: &mut Out<'_>,
    stream: &mut SplitStream<WebSocket>,
    bucket: &mut Bucket,
    mut handle: Handle,
    read_back: &impl Fn() -> ReadBack,
) -> Option<(Handle, Joined)> {
    loop {
        let refusal = match read(stream.next().await, bucket) {
            Frame::End => return None,
            Frame::Skip => continue,
            Frame::Refused(code, message) => Refusal::new(code, message),
            Frame::Good(ClientFrame::Hello { token, since, recent }) => {
                let join = |token| move |reply| Msg::Join { token, since, recent, reply };
                let mut joined = ask(&handle, join(token.clone())).await;
                if joined.is_none() {
                    // The room left memory as the connection came (its game over): read back.
                    if let Some(again) = read_back().await {
                        handle = again;
                        joined = ask(&handle, join(token)).await;
                    }
                }
                match joined? {
                    Ok(joined) => return Some((handle, joined)),
                    Err(refusal) => refusal,
                }
            }
            Frame::Good(_) => Refusal::new(
                ErrorCode::BadMessage,
                r#"say hello first: {"type": "hello", "token": null, "since": null}"#,
            ),
        };
        if !send_error(&mut out.sink, out.time, refusal.code, refusal.message).await {
            return None;
        }
    }
}

/// Sends a joined connection its welcome, the events it missed (read from the storage a page
/// at a time) and those the room keeps after them; false when the connection is gone.
async fn catch_up(
    out: &mut Out<'_>,
    held: &Held,
    (welcome, missed_range, kept): (Utf8Bytes, Option<(u64, u64)>, Vec<Utf8Bytes>),
) -> bool {
    let mut ok = out.send([welcome]).await;
    if let Some((mut after, upto)) = missed_range {
        while ok && after < upto {
            let page = (after, upto.min(after + crate::PAGE));
            match missed(held, out.room, page).await {
                Ok(frames) => ok = out.send(frames.into_iter().map(Utf8Bytes::from)).await,
                Err((code, message)) => {
                    let _ = send_error(&mut out.sink, out.time, code, message).await;
                    ok = false;
                }
            }
            after = page.1;
        }
    }
    ok && out.send(kept).await
}

/// Serves one connection to `room` (its task's `handle`, asked again of `read_back` when it
/// has just gone) until either side closes it.
///
/// A plain function returning the connection's future, not an `async fn`: an `async fn` keeps
/// its arguments twice in its future (as given and as moved into its body), and each
/// connection's task holds this future for its whole life (issue 31's memory per player).
pub(crate) fn connection(
    socket: WebSocket,
    (room, handle): (String, Handle),
    limits: Limits,
    held: Held,
    read_back: impl Fn() -> ReadBack,
) -> impl Future<Output = ()> {
    let (sink, mut stream) = socket.split();
    async move {
        let mut bucket = Bucket::new(limits);
        // The hello and the catching up are boxed: on the heap while they run, not in the
        // connection's task for its whole life.
        let mut out = Out { sink, room: &room, time: limits.send_time };
        let hello = Box::pin(hello(&mut out, &mut stream, &mut bucket, handle, &read_back)).await;
        let Some((handle, joined)) = hello else { return };
        let seat = joined.seat;
        let mut events = joined.events;
        // The events missed are read while live ones after them wait in the subscription (a
        // room running far ahead meanwhile only makes the connection fall behind, and
        // reconnect).
        let caught_up = (joined.welcome, joined.missed, joined.kept);
        let mut ok = Box::pin(catch_up(&mut out, &held, caught_up)).await;
        // Each wait below but the loop's own is boxed, on the heap only while it runs: the
        // connection's task then holds little more than its state between frames.
        // The heartbeat: a ping every `heartbeat`; a connection silent for `silence` is gone.
        let mut beat = tokio::time::interval(limits.heartbeat);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        beat.tick().await;
        let mut heard = Instant::now();
        while ok {
            tokio::select! {
                _ = beat.tick() => {
                    if heard.elapsed() >= limits.silence {
                        let gone = limits.silence.as_secs_f64();
                        eprintln!("snl serve: a connection to room {room} was silent for {gone:.1} s: closed");
                        break;
                    }
                    let ping = out.sink.send(Message::Ping(axum::body::Bytes::new()));
                    ok = Box::pin(tokio::time::timeout(out.time, ping)).await.is_ok_and(|sent| sent.is_ok());
                }
                event = events.recv() => match event {
                    Ok(batch) => ok = Box::pin(out.send(batch.iter().cloned())).await,
                    Err(RecvError::Lagged(_)) => {
                        let text = "this connection fell behind the room's events: reconnect with since";
                        let _ = Box::pin(send_error(&mut out.sink, out.time, ErrorCode::TooLarge, text)).await;
                        ok = false;
                    }
                    Err(RecvError::Closed) => {
                        if handle.summary.borrow().status == RoomStatus::Over {
                            // The room left memory after its game ended: nothing more will come,
                            // and the page need not reconnect (code 1000, this reason).
                            let close = CloseFrame { code: 1000, reason: GAME_OVER.into() };
                            let close = out.sink.send(Message::Close(Some(close)));
                            let _ = Box::pin(tokio::time::timeout(out.time, close)).await;
                            drop(held);
                            return;
                        }
                        ok = false;
                    }
                },
                message = stream.next() => {
                    heard = Instant::now();
                    let refusal = match read(message, &mut bucket) {
                        Frame::End => break,
                        Frame::Skip => continue,
                        Frame::Refused(code, message) => Some(Refusal::new(code, message)),
                        Frame::Good(frame) => match Box::pin(ask(&handle, |reply| Msg::Do { seat, frame, reply })).await {
                            None => break,
                            Some(result) => result.err(),
                        },
                    };
                    if let Some(refusal) = refusal {
                        ok = Box::pin(send_error(&mut out.sink, out.time, refusal.code, refusal.message)).await;
                    }
                }
            }
        }
        if let Some(seat) = seat {
            let _ = Box::pin(handle.tx.send(Msg::Leave { seat })).await;
        }
        let _ = Box::pin(tokio::time::timeout(out.time, out.sink.send(Message::Close(None)))).await;
        drop(held);
    }
}
