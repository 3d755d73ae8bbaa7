//! How much one seat may say: its chat lines are counted per seat, across all the seat's
//! connections (a token bucket and a total), and per room, so twenty connections of one seat
//! say no more than one.

use tokio::time::Instant;

use crate::{frames::ErrorCode, room::Refusal};

/// Chat lines a seat and a room may send.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChatLimit {
    /// Lines a second, sustained, per seat.
    pub rate: f64,
    /// Lines at once, per seat.
    pub burst: u32,
    /// Lines one seat may send in all.
    pub per_seat: u32,
    /// Lines a room may hold in all.
    pub per_room: u32,
}

impl Default for ChatLimit {
    fn default() -> ChatLimit {
        ChatLimit { rate: 0.5, burst: 5, per_seat: 300, per_room: 2000 }
    }
}

/// A room's chat counts.
#[derive(Debug)]
pub(crate) struct Chat {
    limit: ChatLimit,
    /// Each seat's tokens, when they were counted, and its lines sent.
    seats: Vec<(f64, Instant, u32)>,
    lines: u32,
}

impl Chat {
    pub(crate) fn new(limit: ChatLimit, seats: usize) -> Chat {
        Chat { limit, seats: vec![(f64::from(limit.burst), Instant::now(), 0); seats], lines: 0 }
    }

    /// Counts a line from `seat`, or says why it is refused.
    pub(crate) fn take(&mut self, seat: usize) -> Result<(), Refusal> {
        let limit = self.limit;
        let Some((tokens, at, said)) = self.seats.get_mut(seat) else { return Ok(()) };
        if self.lines >= limit.per_room {
            let text = format!(
                "this room's chat is full ({} lines): nothing more is said",
                limit.per_room
            );
            return Err(Refusal::new(ErrorCode::RateLimited, text));
        }
        if *said >= limit.per_seat {
            let text = format!("a seat says at most {} chat lines in a room", limit.per_seat);
            return Err(Refusal::new(ErrorCode::RateLimited, text));
        }
        let now = Instant::now();
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * limit.rate)
            .min(f64::from(limit.burst));
        *at = now;
        if *tokens < 1.0 {
            let text = format!(
                "too many chat lines from this seat: {} at once, then one every {} s",
                limit.burst,
                1.0 / limit.rate
            );
            return Err(Refusal::new(ErrorCode::RateLimited, text));
        }
        *tokens -= 1.0;
        *said += 1;
        self.lines += 1;
        Ok(())
    }
}
