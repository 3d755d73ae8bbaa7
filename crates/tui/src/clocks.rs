//! The clocks of `snl play` (SPEC §3b): `--turn-time`, a person's time to act, and
//! `--game-time`, the whole game's. The console and the full-screen game each own a [`Clocks`]
//! and ask it, between inputs, whether one ran out; an expiry becomes an input of the session
//! ([`Session::time_out`], [`Session::time_up`]) — as a room of `snl serve` does with its clocks —
//! so what it caused is in the game's history and replays alike.
//!
//! The time is read from a [`Clock`]: the real one, or a pretend one for tests (`--test-clock
//! MS`, hidden) that stands still except at each wait for a person's key, when it moves on by
//! its step. A test then says after how many waits a clock runs out, without sleeping.

use std::time::{Duration, Instant};

use snl_engine::Numbered;
use snl_session::{Awaiting, Session, SessionError};

/// Where the time comes from.
#[derive(Clone, Debug)]
pub enum Clock {
    /// The time since the clocks were made.
    Real(Instant),
    /// A pretend time: `now`, moved on by `step` at each wait for a key ([`Clock::waited`]).
    Pretend { now: Duration, step: Duration },
}

impl Clock {
    /// The time since the start.
    pub fn now(&self) -> Duration {
        match self {
            Clock::Real(start) => start.elapsed(),
            Clock::Pretend { now, .. } => *now,
        }
    }

    /// A wait for a person's key happened: pretend time moves on by its step.
    pub fn waited(&mut self) {
        if let Clock::Pretend { now, step } = self {
            *now += *step;
        }
    }

    /// Whether time passes only at waits (a test's clock).
    pub fn is_pretend(&self) -> bool {
        matches!(self, Clock::Pretend { .. })
    }
}

/// What ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    /// The person at `seat` did not act in time.
    TimeOut { seat: usize },
    /// The game clock.
    TimeUp,
}

/// What a person's turn clock is timing: the seat, the rolls made so far and whether a choice
/// is awaited — a new roll or a choice starts the clock again (as a room's clock does).
type Awaited = (usize, u32, bool);

/// The turn clock and the game clock of one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    clock: Clock,
    turn_time: Option<Duration>,
    game_time: Option<Duration>,
    /// When the game clock runs out, once it started (the first look at a game under way).
    game_end: Option<Duration>,
    /// The person timed and when their time runs out.
    turn_end: Option<(Awaited, Duration)>,
    /// The person's turn clock held with this much left ([`Clocks::hold_turn`]).
    held: Option<(Awaited, Duration)>,
}

impl Clocks {
    /// The clocks of `--turn-time S` and `--game-time S` (seconds); `test_step` (ms) asks for
    /// the pretend clock. `None` when neither clock is asked for.
    pub fn new(
        turn_time: Option<u64>,
        game_time: Option<u64>,
        test_step: Option<u64>,
    ) -> Option<Clocks> {
        if turn_time.is_none() && game_time.is_none() {
            return None;
        }
        let clock = match test_step {
            Some(ms) => Clock::Pretend { now: Duration::ZERO, step: Duration::from_millis(ms) },
            None => Clock::Real(Instant::now()),
        };
        Some(Clocks {
            clock,
            turn_time: turn_time.map(Duration::from_secs),
            game_time: game_time.map(Duration::from_secs),
            game_end: None,
            turn_end: None,
            held: None,
        })
    }

    /// The clock read.
    pub fn clock(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// Starts, keeps or stops each clock for what `session` awaits now: the game clock runs from
    /// the first look until time is called or the game ends; a person's clock starts when their
    /// roll or choice is first awaited.
    fn arm(&mut self, session: &Session) {
        let now = self.clock.now();
        let game = session.game();
        let running = game.status() != snl_engine::Status::Finished && game.time_up().is_none();
        match (running, self.game_time) {
            (true, Some(time)) => {
                self.game_end.get_or_insert(now + time);
            }
            _ => self.game_end = None,
        }
        let rolls = game.rolls();
        let awaited = match session.awaiting() {
            Awaiting::Roll { seat } => Some((seat, rolls, false)),
            Awaiting::Choice(d) => Some((d.seat, rolls, true)),
            Awaiting::Computer { .. } | Awaiting::Over => None,
        };
        if self.held.is_some_and(|(timed, _)| Some(timed) != awaited) {
            self.held = None;
        }
        match (awaited, self.turn_time) {
            (Some(awaited), Some(time)) => {
                if self.turn_end.is_none_or(|(timed, _)| timed != awaited) {
                    self.turn_end = Some((awaited, now + time));
                }
            }
            _ => self.turn_end = None,
        }
    }

    /// The clock that ran out for what `session` awaits now, if one did: the game clock first.
    pub fn due(&mut self, session: &Session) -> Option<Expiry> {
        self.arm(session);
        let now = self.clock.now();
        if self.game_end.is_some_and(|end| now >= end) {
            return Some(Expiry::TimeUp);
        }
        match self.turn_end {
            Some(((seat, ..), end)) if now >= end => Some(Expiry::TimeOut { seat }),
            _ => None,
        }
    }

    /// Plays `expiry` in `session`: the rest of the person's turn by the computer, or the end of
    /// the game after this round.
    ///
    /// # Errors
    ///
    /// What the session refuses of the expiry.
    pub fn fire(
        &mut self,
        session: &mut Session,
        expiry: Expiry,
    ) -> Result<Vec<Numbered<usize>>, SessionError> {
        let told = match expiry {
            Expiry::TimeOut { seat } => session.time_out(seat),
            Expiry::TimeUp => session.time_up(),
        };
        self.arm(session);
        told
    }

    /// How long until the next clock runs out, for what `session` awaits now (`None`: no clock
    /// is running).
    pub fn until_next(&mut self, session: &Session) -> Option<Duration> {
        self.arm(session);
        let now = self.clock.now();
        let ends = [self.game_end, self.turn_end.map(|(_, end)| end)];
        ends.into_iter().flatten().min().map(|end| end.saturating_sub(now))
    }

    /// Looks at what `session` awaits now, starting, keeping or stopping each clock as
    /// [`Clocks::due`] does, without asking whether one ran out: for a screen that shows a
    /// room's clocks (`snl join`, `snl watch`), whose server plays their expiries.
    pub(crate) fn look(&mut self, session: &Session) {
        self.arm(session);
    }

    /// Takes the time left as a room's server tells it (a welcome's `turn_left_ms` and
    /// `game_left_ms`, in milliseconds) for what `session` awaits now: a screen that joins
    /// mid-turn counts from there rather than from the whole time.
    pub(crate) fn told_left(
        &mut self,
        session: &Session,
        turn_left_ms: Option<u64>,
        game_left_ms: Option<u64>,
    ) {
        self.arm(session);
        let now = self.clock.now();
        if let (Some((awaited, _)), Some(ms)) = (self.turn_end, turn_left_ms) {
            self.turn_end = Some((awaited, now + Duration::from_millis(ms)));
        }
        if let (Some(_), Some(ms)) = (self.game_end, game_left_ms) {
            self.game_end = Some(now + Duration::from_millis(ms));
        }
    }

    /// Holds the person's turn clock where it stands while `hold` (a room's person dropped and
    /// is in their grace: the server pauses it), and lets it run on from there after: for a
    /// screen that shows a room's clocks.
    pub(crate) fn hold_turn(&mut self, hold: bool) {
        let now = self.clock.now();
        if hold {
            if let (None, Some((awaited, end))) = (self.held, self.turn_end) {
                self.held = Some((awaited, end.saturating_sub(now)));
            }
        } else if let Some((awaited, rest)) = self.held.take()
            && self.turn_end.is_some_and(|(timed, _)| timed == awaited)
        {
            self.turn_end = Some((awaited, now + rest));
        }
    }

    /// Whether the person's turn clock is held (`hold_turn`, for a room's screen).
    pub fn turn_held(&self) -> bool {
        self.held.is_some()
    }

    /// The time left to the person timed, and to the game, as of the last look ([`Clocks::due`]),
    /// for the screen.
    pub fn left(&self) -> (Option<Duration>, Option<Duration>) {
        let now = self.clock.now();
        let left = |end: Duration| end.saturating_sub(now);
        let turn = self.held.map(|(_, rest)| rest).or(self.turn_end.map(|(_, end)| left(end)));
        (turn, self.game_end.map(left))
    }
}

/// A time left in whole milliseconds, as the words module takes it.
pub fn millis(left: Duration) -> u64 {
    u64::try_from(left.as_millis()).unwrap_or(u64::MAX)
}

/// `m:ss` for a time left, rounded up to the second (so 0:00 means it ran out).
pub fn minutes_seconds(left: Duration) -> String {
    snl_words::clock_time(millis(left))
}

#[cfg(test)]
mod tests {
    use snl_engine::{Board, Event, Game, Preset, Rules, Seat, SeatKind};
    use snl_session::Intent;
    use snl_store::DiceState;

    use super::*;

    fn session(seats: &[(&str, SeatKind)]) -> Session {
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = seats.iter().map(|(n, k)| Seat::new(*n, *k)).collect();
        Session::new(Game::new(board, rules, seats).unwrap(), DiceState::seeded(5), "classic")
    }

    fn advance(clocks: &mut Clocks, seconds: u64) {
        if let Clock::Pretend { now, .. } = clocks.clock() {
            *now += Duration::from_secs(seconds);
        }
    }

    #[test]
    fn no_clock_asked_no_clocks() {
        assert!(Clocks::new(None, None, None).is_none());
    }

    #[test]
    fn a_person_who_does_not_act_in_time_has_the_turn_played_for_them() {
        let mut s = session(&[("Ann", SeatKind::Human), ("Bob", SeatKind::Human)]);
        let mut clocks = Clocks::new(Some(30), None, Some(0)).unwrap();
        assert_eq!(clocks.due(&s), None);
        advance(&mut clocks, 29);
        assert_eq!(clocks.due(&s), None);
        assert_eq!(clocks.left().0, Some(Duration::from_secs(1)));
        s.act(0, Intent::Roll).unwrap();
        // Bob's clock starts when his roll is awaited (the front end looks after each input).
        assert_eq!(clocks.due(&s), None);
        advance(&mut clocks, 29);
        assert_eq!(clocks.due(&s), None);
        advance(&mut clocks, 1);
        assert_eq!(clocks.due(&s), Some(Expiry::TimeOut { seat: 1 }));
        let told = clocks.fire(&mut s, Expiry::TimeOut { seat: 1 }).unwrap();
        assert_eq!(told[0].event, Event::TimedOut { player: 1 });
        assert!(told.iter().any(|n| matches!(n.event, Event::DiceRolled { player: 1, .. })));
        assert_eq!(s.game().turns(), 2);
        assert_eq!(s.awaiting(), Awaiting::Roll { seat: 0 });
        assert_eq!(clocks.due(&s), None, "Ann's clock starts again in full");
        assert_eq!(clocks.left().0, Some(Duration::from_secs(30)));
    }

    #[test]
    fn the_game_clock_calls_time_and_the_round_is_completed() {
        let mut s = session(&[("Ann", SeatKind::Human), ("Bob", SeatKind::Easy)]);
        let mut clocks = Clocks::new(None, Some(60), Some(0)).unwrap();
        assert_eq!(clocks.due(&s), None);
        s.act(0, Intent::Roll).unwrap();
        advance(&mut clocks, 60);
        // Bob, a computer, is awaited: the game clock does not wait for him.
        assert_eq!(clocks.due(&s), Some(Expiry::TimeUp));
        let told = clocks.fire(&mut s, Expiry::TimeUp).unwrap();
        assert_eq!(told[0].event, Event::TimeUp {});
        assert_eq!(clocks.due(&s), None, "time is called once");
        let told = s.play_computer().unwrap();
        assert!(matches!(told.last().unwrap().event, Event::GameEnded { .. }), "{told:?}");
        assert_eq!(s.awaiting(), Awaiting::Over);
    }

    #[test]
    fn a_computer_is_never_timed() {
        let s = session(&[("Robo", SeatKind::Hard), ("Bob", SeatKind::Easy)]);
        let mut clocks = Clocks::new(Some(1), None, Some(0)).unwrap();
        advance(&mut clocks, 100);
        assert_eq!(clocks.due(&s), None);
        assert_eq!(clocks.until_next(&s), None);
    }

    #[test]
    fn time_left_reads_in_minutes_and_seconds_rounded_up() {
        assert_eq!(minutes_seconds(Duration::from_millis(59_001)), "1:00");
        assert_eq!(minutes_seconds(Duration::from_mins(10)), "10:00");
        assert_eq!(minutes_seconds(Duration::ZERO), "0:00");
    }
}
