// Long because a room's state machine and its command log replay together; a fifth is tests.
//! A room as a state machine with no I/O: its seats, its [`Session`] once every seat is taken,
//! and the [`Command`]s that change it. Every command that changes the room is logged; replaying
//! the log on a new room rebuilds it exactly, event for event — which is how a room comes back
//! after the server restarts.

use serde::{Deserialize, Serialize};
use snl_engine::{Board, Event, Numbered, Pending, SeatKind, Status};
use snl_session::fairness::{commitment, room_seed, unhex};
use snl_session::{Awaiting, Intent, Session, SessionError};
use snl_store::{DiceState, RoomDice};
use snl_words::{Sentences, race_status, race_status_of, standing};

use snl_wire::{
    frames::{Awaited, ErrorCode, ServerFrame},
    rooms::{
        AwardLine, LegendEntry, RoomFairness, RoomState, RoomStatus, SeatLine, SeatState,
        SeriesLine,
    },
};

use crate::setup::RoomSetup;

/// What changes a room; logged, so that replaying the log rebuilds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub(crate) enum Command {
    /// A person takes an open seat, adding a seed of their own to the room's dice (none: the
    /// empty string).
    Claim {
        seat: usize,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<String>,
    },
    /// A seated person's intent.
    Act { seat: usize, act: Act },
    /// The computer seat awaited plays its next input.
    Computer,
    /// The person awaited ran out of time: their seat's computer plays the rest of the turn.
    TimeOut { seat: usize },
    /// A line of chat. The log keeps only who said it: the line is kept once, in the event
    /// that tells it, and a replay reads it from there (`actor::replay`).
    Chat {
        seat: usize,
        #[serde(default, skip_serializing)]
        text: String,
    },
    /// A seat's first connection came, or its last went.
    Presence { seat: usize, online: bool },
    /// The game clock ran out: the round in play is completed, then the game ends.
    TimeUp,
    /// The hard strategy's policy was not ready in time (`why`): greedy plays in its place,
    /// and each hard computer says so in the chat.
    Greedy { why: String },
    /// Nobody took the room's open seats in time: the room is closed for good.
    Expire,
    /// A seated person's last connection dropped while the game runs: the seat is kept for
    /// `seconds` (`snl serve --grace`).
    Grace { seat: usize, seconds: u64 },
    /// The grace of `seat` ran out with its person away: the computer (hard) plays the seat.
    Autoplay { seat: usize },
    /// The next game of the room's series is open in `room`.
    Next { room: String },
}

/// A person's intent for the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "intent", rename_all = "snake_case")]
pub(crate) enum Act {
    Roll,
    Choose { option: usize },
    Autopilot { on: bool },
}

/// Why a command was refused: the room is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) code: ErrorCode,
    pub(crate) message: String,
}

impl Refusal {
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }
}

/// Why a seat cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ClaimProblem {
    #[error("there is no seat {0} in this room")]
    NoSuchSeat(usize),
    #[error("seat {0} is not open: it is taken or a computer's")]
    NotOpen(usize),
    #[error("name '{0}' is taken in this room")]
    NameTaken(String),
    #[error("name '{0}' looks like '{1}', whose seat is taken in this room")]
    LooksLike(String, String),
}

/// What a room waits for (the server's clocks and computer players look at it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Waiting {
    /// Seats are open.
    Seats,
    /// A person: `key` changes whenever the awaited input changes (the turn clock restarts).
    Person { seat: usize, key: (u32, bool) },
    /// A computer seat (or a person on autopilot).
    Computer,
    /// The game is over.
    Over,
}

/// A room: see the module documentation.
#[derive(Debug)]
pub(crate) struct Room {
    pub(crate) id: String,
    pub(crate) setup: RoomSetup,
    /// Each seat's name: a computer's from the start, a person's once taken.
    names: Vec<Option<String>>,
    session: Option<Session>,
    /// The last event's number before the session began (presence while seats were open);
    /// then the session numbers every event.
    seq: u64,
    /// Whether each seat was last told online.
    present: Vec<bool>,
    /// The sentence of each event, following the game (once it has begun).
    sentences: Option<Sentences>,
    /// Whether the room expired with seats open ([`Command::Expire`]).
    expired: bool,
    /// Each seat's own seed for the dice: a computer's empty from the start, a person's as
    /// given when the seat was taken; none while the seat is open.
    seat_seeds: Vec<Option<String>>,
    /// SHA-256 of the room's secret, when it has one (`RoomSetup::secret`).
    commitment: Option<String>,
    /// Whether each seat is in its grace ([`Command::Grace`]) or played by the computer after
    /// it ([`Command::Autoplay`]) until its person takes it back.
    kept: Vec<Kept>,
    /// The room of the next game of its series, once opened ([`Command::Next`]).
    next: Option<String>,
}

/// The seats people carry into a series' next game: (seat there, seat here, name).
pub(crate) type Carried = Vec<(usize, usize, String)>;

/// Where a person's seat stands while its person is away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kept {
    /// Its person holds it (here or not yet dropped).
    Held,
    /// Dropped: kept for its person until the grace runs out.
    Grace,
    /// The grace ran out: the computer plays it until its person takes it back.
    Autoplayed,
}

/// One event of the room, numbered, players by name, with its sentence: what is stored and
/// sent as an event frame.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Told {
    /// Its number.
    pub(crate) seq: u64,
    /// The event.
    pub(crate) event: Event<String>,
    /// Its sentence, when it has one of its own.
    pub(crate) text: Option<String>,
}

impl Told {
    /// The event frame that stores and sends it.
    pub(crate) fn frame(self) -> ServerFrame {
        ServerFrame::Event { seq: self.seq, event: self.event, text: self.text }
    }
}

impl Room {
    /// A new room: its game starts at once when no seat is a person's.
    pub(crate) fn new(id: String, setup: RoomSetup) -> Room {
        let names = setup.seats.iter().map(|s| s.name.clone()).collect();
        let seats = setup.seats.len();
        let seat_seeds =
            setup.seats.iter().map(|s| (s.kind != SeatKind::Human).then(String::new)).collect();
        let commitment = setup.secret.as_deref().map(|s| commitment(&unhex(s).unwrap_or_default()));
        let mut room = Room {
            id,
            setup,
            names,
            session: None,
            seq: 0,
            present: vec![false; seats],
            sentences: None,
            expired: false,
            seat_seeds,
            commitment,
            kept: vec![Kept::Held; seats],
            next: None,
        };
        room.start_when_full();
        room
    }

    fn start_when_full(&mut self) {
        if self.session.is_some() || self.names.iter().any(Option::is_none) {
            return;
        }
        let names: Vec<String> = self.names.iter().flatten().cloned().collect();
        // Checked when the room was created, with the names checked distinct when taken.
        if let Ok(game) = self.setup.game(&names) {
            let dice = self.dice();
            // Online rooms offer no undo (SPEC §9): no mark is kept at each turn.
            let session = Session::at(game, dice, &self.setup.board_name, self.seq).without_undo();
            self.sentences = Some(Sentences::new(session.game()));
            self.session = Some(session);
        }
    }

    /// The room's dice, once every seat is taken: from its secret and the seats' own seeds
    /// (docs/fairness.md), or the seed its request named.
    fn dice(&self) -> DiceState {
        let (Some(secret), Some(commitment)) = (&self.setup.secret, &self.commitment) else {
            return DiceState::seeded(self.setup.seed);
        };
        let seat_seeds: Vec<String> = self.seat_seeds.iter().flatten().cloned().collect();
        let seed = room_seed(&unhex(secret).unwrap_or_default(), &seat_seeds);
        let room = RoomDice { commitment: commitment.clone(), seat_seeds, secret: secret.clone() };
        DiceState::of_room(seed, room)
    }

    /// SHA-256 of the room's secret, published from its creation; none for a room whose
    /// request named its seed.
    pub(crate) fn commitment(&self) -> Option<&str> {
        self.commitment.as_deref()
    }

    /// How the room's dice can be checked: the secret and the seed once the game is over.
    fn fairness(&self) -> Option<RoomFairness> {
        let commitment = self.commitment.clone()?;
        let revealed = self.session.as_ref().filter(|_| self.is_over());
        Some(RoomFairness {
            commitment,
            seat_seeds: self.seat_seeds.clone(),
            secret: revealed.and(self.setup.secret.clone()),
            seed: revealed.and_then(|s| s.dice().seed()),
        })
    }

    /// The game as a save keeps it, its dice's secret revealed, once it is over.
    ///
    /// # Errors
    ///
    /// One sentence when the game is not over.
    pub(crate) fn finished_save(&self) -> Result<snl_store::Save, String> {
        match &self.session {
            Some(session) if self.is_over() => Ok(session.save()),
            _ => Err(format!(
                "the game of room {} is not over: its dice's secret is revealed at the end",
                self.id
            )),
        }
    }

    /// The session, once the game has begun.
    pub(crate) fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// The last event's number (0 before any): the session's once the game has begun.
    pub(crate) fn seq(&self) -> u64 {
        self.session.as_ref().map_or(self.seq, Session::seq)
    }

    /// Numbers an event of the room that is no part of the game (presence, chat).
    fn tell(&mut self, event: Event<String>) -> Told {
        let Some(session) = &mut self.session else {
            self.seq += 1;
            return Told { seq: self.seq, event, text: None };
        };
        let text = event
            .indexed(session.game().seats())
            .and_then(|e| self.sentences.as_mut().and_then(|s| s.sentence(&e)));
        let Numbered { seq, event } = session.tell_aside(event);
        Told { seq, event, text }
    }

    /// Each seat's name, if it has one yet.
    pub(crate) fn names(&self) -> &[Option<String>] {
        &self.names
    }

    /// The session's `events` as the room tells them: players by name, each with its sentence.
    fn told(&mut self, events: Vec<Numbered<usize>>) -> Vec<Told> {
        let Some(session) = &self.session else { return Vec::new() };
        let seats = session.game().seats();
        events
            .into_iter()
            .map(|Numbered { seq, event }| Told {
                seq,
                text: self.sentences.as_mut().and_then(|s| s.sentence(&event)),
                event: event.named(seats),
            })
            .collect()
    }

    /// Whether seat `seat` is a person's seat still open.
    pub(crate) fn is_open(&self, seat: usize) -> bool {
        self.names.get(seat).is_some_and(Option::is_none)
    }

    /// What the room waits for.
    pub(crate) fn waiting(&self) -> Waiting {
        let Some(session) = &self.session else { return Waiting::Seats };
        let rolls = session.game().rolls();
        match session.awaiting() {
            Awaiting::Over => Waiting::Over,
            Awaiting::Computer { .. } => Waiting::Computer,
            Awaiting::Roll { seat } => Waiting::Person { seat, key: (rolls, false) },
            Awaiting::Choice(d) => Waiting::Person { seat: d.seat, key: (rolls, true) },
        }
    }

    /// Applies `command`; returns the events it caused, players by name, numbered by the
    /// session (the room's own numbers before it began).
    ///
    /// # Errors
    ///
    /// [`Refusal`] when the command is not possible now; the room is unchanged.
    pub(crate) fn apply(&mut self, command: &Command) -> Result<Vec<Told>, Refusal> {
        match command {
            Command::Claim { seat, name, seed } => {
                self.check_claim(*seat, name)
                    .map_err(|p| Refusal::new(ErrorCode::Refused, p.to_string()))?;
                self.names[*seat] = Some(name.clone());
                self.seat_seeds[*seat] = Some(seed.clone().unwrap_or_default());
                self.start_when_full();
                Ok(Vec::new())
            }
            Command::Presence { seat, online } => {
                let name = self.name(*seat)?;
                if std::mem::replace(&mut self.present[*seat], *online) == *online {
                    return Ok(Vec::new());
                }
                let mut told =
                    vec![self.tell(Event::Presence { player: name.clone(), online: *online })];
                // Back within the grace: the seat is theirs again at once.
                if *online && self.kept[*seat] == Kept::Grace {
                    self.kept[*seat] = Kept::Held;
                    told.push(self.tell(Event::SeatReturned { player: name }));
                }
                Ok(told)
            }
            Command::Grace { seat, seconds } => {
                let player = self.name(*seat)?;
                if self.kept[*seat] != Kept::Held || !self.in_play() {
                    return Err(Refusal::new(ErrorCode::Refused, "no grace: nothing to keep"));
                }
                self.kept[*seat] = Kept::Grace;
                Ok(vec![self.tell(Event::GraceStarted { player, seconds: *seconds })])
            }
            Command::Autoplay { seat } => {
                let player = self.name(*seat)?;
                if self.kept[*seat] != Kept::Grace || !self.in_play() {
                    return Err(Refusal::new(ErrorCode::Refused, "the seat is not in its grace"));
                }
                self.kept[*seat] = Kept::Autoplayed;
                let mut told = vec![self.tell(Event::SeatAutoplayed { player })];
                let session = self.started()?;
                let events = session
                    .act(*seat, Intent::Autopilot { on: true })
                    .map_err(|e| refusal(&e, session))?;
                told.extend(self.told(events));
                Ok(told)
            }
            Command::Chat { seat, text } => {
                let player = self.name(*seat)?;
                Ok(vec![self.tell(Event::Chat { player, text: text.clone() })])
            }
            Command::Act { seat, act } => {
                let intent = match *act {
                    Act::Roll => Intent::Roll,
                    Act::Choose { option } => Intent::Choose { option },
                    Act::Autopilot { on } => Intent::Autopilot { on },
                };
                let session = self.started()?;
                let events = session.act(*seat, intent).map_err(|e| refusal(&e, session))?;
                let mut told = self.told(events);
                // Taken back from the computer that played it after the grace: one click.
                if *act == (Act::Autopilot { on: false }) && self.kept[*seat] != Kept::Held {
                    self.kept[*seat] = Kept::Held;
                    let player = self.name(*seat)?;
                    told.push(self.tell(Event::SeatReturned { player }));
                }
                Ok(told)
            }
            Command::Computer => {
                let session = self.started()?;
                let events = session.play_computer().map_err(|e| refusal(&e, session))?;
                Ok(self.told(events))
            }
            Command::TimeOut { seat } => self.time_out(*seat),
            Command::TimeUp => {
                let session = self.started()?;
                let events = session.time_up().map_err(|e| refusal(&e, session))?;
                Ok(self.told(events))
            }
            Command::Next { room } => {
                self.next_plan().map_err(|why| Refusal::new(ErrorCode::Refused, why))?;
                self.next = Some(room.clone());
                Ok(Vec::new())
            }
            Command::Expire => {
                if self.session.is_some() {
                    return Err(Refusal::new(ErrorCode::Refused, "the game has begun"));
                }
                self.expired = true;
                Ok(Vec::new())
            }
            Command::Greedy { why } => {
                self.started()?.policy_unavailable();
                let hard =
                    self.setup.seats.iter().enumerate().filter(|(_, s)| s.kind == SeatKind::Hard);
                let speakers: Vec<usize> = hard.map(|(i, _)| i).collect();
                let text = format!("My hard strategy is not ready ({why}): I play greedy instead.");
                let mut told = Vec::new();
                for seat in speakers {
                    let player = self.name(seat)?;
                    told.push(self.tell(Event::Chat { player, text: text.clone() }));
                }
                Ok(told)
            }
        }
    }

    /// Whether the next computer input must wait for the hard strategy's policy
    /// ([`Session::wants_policy`]).
    pub(crate) fn wants_policy(&self) -> bool {
        self.session.as_ref().is_some_and(Session::wants_policy)
    }

    /// The hard strategy plays with `policy` (not a command: a replay computes it again).
    pub(crate) fn give_policy(
        &mut self,
        policy: std::sync::Arc<snl_analysis::strategy::HardPolicy>,
    ) {
        if let Some(session) = &mut self.session {
            session.give_policy(policy);
        }
    }

    /// Why `name` cannot take `seat`, if it cannot.
    pub(crate) fn check_claim(&self, seat: usize, name: &str) -> Result<(), ClaimProblem> {
        if seat >= self.names.len() {
            return Err(ClaimProblem::NoSuchSeat(seat));
        }
        if !self.is_open(seat) {
            return Err(ClaimProblem::NotOpen(seat));
        }
        if self.names.iter().flatten().any(|n| n == name) {
            return Err(ClaimProblem::NameTaken(name.to_owned()));
        }
        let look = crate::setup::looks(name);
        if let Some(taken) = self.names.iter().flatten().find(|n| crate::setup::looks(n) == look) {
            return Err(ClaimProblem::LooksLike(name.to_owned(), taken.clone()));
        }
        Ok(())
    }

    fn name(&self, seat: usize) -> Result<String, Refusal> {
        self.names
            .get(seat)
            .cloned()
            .flatten()
            .ok_or_else(|| Refusal::new(ErrorCode::NotAPlayer, format!("seat {seat} is not taken")))
    }

    fn started(&mut self) -> Result<&mut Session, Refusal> {
        self.session.as_mut().ok_or_else(|| {
            Refusal::new(ErrorCode::NotStarted, "seats are still open: the game has not begun")
        })
    }

    /// Plays the rest of `seat`'s turn with the hard strategy, after telling it timed out
    /// ([`Session::time_out`]).
    fn time_out(&mut self, seat: usize) -> Result<Vec<Told>, Refusal> {
        if !matches!(self.waiting(), Waiting::Person { seat: s, .. } if s == seat) {
            return Err(Refusal::new(
                ErrorCode::NotYourTurn,
                format!("seat {seat} is not awaited"),
            ));
        }
        self.name(seat)?;
        let session = self.session.as_mut().expect("a person is awaited, so the game has begun");
        let events = session.time_out(seat).map_err(|e| refusal(&e, session))?;
        Ok(self.told(events))
    }

    /// Where the room stands.
    pub(crate) fn status(&self) -> RoomStatus {
        match self.waiting() {
            Waiting::Seats => RoomStatus::Open,
            Waiting::Over => RoomStatus::Over,
            _ => RoomStatus::Running,
        }
    }

    /// The room's public state, the input awaited having id `input`: never a token (the turn
    /// clock's time left is the caller's).
    pub(crate) fn view(&self, seq: u64, online: &[u32], input: u64) -> RoomState {
        let session = self.session.as_ref();
        let game = session.map(Session::game);
        let lines = self.seat_lines();
        let seats = self
            .setup
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatState {
                seat: i,
                kind: s.kind,
                name: self.names[i].clone(),
                open: self.names[i].is_none(),
                online: online.get(i).is_some_and(|&n| n > 0),
                autopilot: session.is_some_and(|s| s.on_autopilot(i)),
                grace_left_ms: None,
                autoplayed: self.kept[i] == Kept::Autoplayed,
                position: game.map_or(0, |g| g.positions()[i]),
                rank: game.and_then(|g| g.ranks()[i]),
                standing: lines[i].standing.clone(),
                carried: lines[i].carried.clone(),
            })
            .collect();
        let ranking = game.map_or_else(Vec::new, |g| {
            g.ranking().iter().map(|&s| g.seats()[s].name.clone()).collect()
        });
        RoomState {
            room: self.id.clone(),
            status: self.status(),
            board_name: self.setup.board_name.clone(),
            board: self.setup.board.clone(),
            rules: self.setup.rules,
            turn_time: self.setup.turn_time,
            game_time: self.setup.game_time,
            time_up: game.is_some_and(|g| g.time_up().is_some()),
            seats,
            awaiting: self.awaiting(input),
            turns: game.map_or(0, snl_engine::Game::turns),
            ranking,
            seq,
            turn_left_ms: None,
            game_left_ms: None,
            race: self.race_line(),
            legend: self.legend(),
            awards: self.award_lines(),
            fairness: self.fairness(),
            thrown_dice: Some(self.setup.rules.thrown_dice().count()),
            series: self.series_line(),
        }
    }

    /// The winner's seat once the game is over (none while it runs).
    fn winner(&self) -> Option<usize> {
        let game = self.session.as_ref().filter(|_| self.is_over())?.game();
        game.ranking().first().copied()
    }

    /// Each seat's wins in the series, this game's counted once it is over; and whether the
    /// series is decided then.
    fn series_wins(&self) -> Option<(Vec<u64>, bool)> {
        let series = self.setup.series.as_ref()?;
        let mut wins = series.wins.clone();
        let Some(winner) = self.winner() else { return Some((wins, false)) };
        if let Some(w) = wins.get_mut(winner) {
            *w += 1;
        }
        let left = u64::from(series.best_of.saturating_sub(series.game));
        let decided = snl_session::series::decided(&wins, left);
        Some((wins, decided))
    }

    /// Where the room's series stands, for a room that plays one of its games.
    pub(crate) fn series_line(&self) -> Option<SeriesLine> {
        let series = self.setup.series.as_ref()?;
        let (wins, decided) = self.series_wins()?;
        let names: Vec<String> = (0..wins.len())
            .map(|i| self.names[i].clone().unwrap_or_else(|| format!("Seat {}", i + 1)))
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let so_far = snl_session::series::so_far(&names, &wins);
        let text = if self.is_over() {
            let leader = snl_session::series::leader(&wins).map(|s| names[s]);
            let score = snl_session::series::score(&wins);
            snl_words::series_standing(
                (series.game, series.best_of),
                decided.then_some(leader),
                &score,
                &so_far,
            )
        } else {
            let earlier = wins.iter().any(|&w| w > 0).then_some(so_far.as_str());
            snl_words::series_intro(series.game, series.best_of, names[0], earlier)
        };
        Some(SeriesLine {
            best_of: series.best_of,
            game: series.game,
            wins,
            decided,
            next_room: self.next.clone(),
            text,
        })
    }

    /// The next game of the room's series: its setup and, for each of its seats a person holds
    /// here, that seat there, this seat here and the name (the caller carries the token).
    ///
    /// # Errors
    ///
    /// One sentence when there is no next game: no series, the game not over, the series
    /// decided, or the next game already open.
    pub(crate) fn next_plan(&self) -> Result<(RoomSetup, Carried), String> {
        let Some((_, decided)) = self.series_wins() else {
            return Err("this room plays one game, not a series".into());
        };
        if !self.is_over() {
            return Err("the game is not over: the next one opens at its end".into());
        }
        if decided {
            let said = self.series_line().map(|l| l.text).unwrap_or_default();
            return Err(format!("the series is over: {said}"));
        }
        if let Some(room) = &self.next {
            return Err(format!("the next game is open already, in room {room}"));
        }
        let setup = self.setup.next_game(self.winner()).ok_or("no series")?;
        let n = self.setup.seats.len();
        let carried = (0..n)
            .filter_map(|there| {
                let here = (there + 1) % n;
                let person = self.setup.seats[here].kind == SeatKind::Human;
                person.then(|| self.names[here].clone().map(|name| (there, here, name))).flatten()
            })
            .collect();
        Ok((setup, carried))
    }

    /// The room of the next game of its series, once opened.
    pub(crate) fn next_room(&self) -> Option<&str> {
        self.next.as_deref()
    }

    /// Each seat's words now: where it stands, what the cell effects left it.
    pub(crate) fn seat_lines(&self) -> Vec<SeatLine> {
        let Some(game) = self.session.as_ref().map(Session::game) else {
            let start = self.setup.rules.start_position();
            let line = SeatLine { standing: standing(None, start, u32::MAX), carried: vec![] };
            return vec![line; self.setup.seats.len()];
        };
        snl_wire::views::seat_lines(game)
    }

    /// A race's status line now (none in a classic game).
    pub(crate) fn race_line(&self) -> Option<String> {
        match &self.session {
            Some(session) => race_status_of(session.game()),
            None => race_status(self.setup.rules.mode.rounds(), 0, false),
        }
    }

    /// Once the game is over, the achievements it earned each seat (none while it runs).
    pub(crate) fn award_lines(&self) -> Vec<AwardLine> {
        match &self.session {
            Some(session) if session.game().status() == Status::Finished => {
                snl_session::achievements::of_game(session.game())
                    .into_iter()
                    .map(|a| snl_wire::views::award_line(a.seat, a.achievement.key()))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// The board's legend: each kind of cell on it.
    fn legend(&self) -> Vec<LegendEntry> {
        let built;
        let board = match self.session.as_ref() {
            Some(s) => s.game().board(),
            None => match Board::new(&self.setup.board, &self.setup.rules) {
                Ok(board) => {
                    built = board;
                    &built
                }
                Err(_) => return Vec::new(),
            },
        };
        legend_entries(board)
    }

    /// What the game awaits, the input having id `input`: a roll or a choice from a seat, or
    /// none (seats open, or the game over).
    pub(crate) fn awaiting(&self, input: u64) -> Option<Awaited> {
        self.session.as_ref().and_then(|s| snl_wire::views::awaited(s.game(), input))
    }

    /// Where each seat stands while its person is away.
    pub(crate) fn kept(&self) -> &[Kept] {
        &self.kept
    }

    /// Whether the game has begun and is not over.
    pub(crate) fn in_play(&self) -> bool {
        self.session.is_some() && !self.is_over()
    }

    /// Whether the room expired with seats open.
    pub(crate) fn is_expired(&self) -> bool {
        self.expired
    }

    /// Whether the game has ended.
    pub(crate) fn is_over(&self) -> bool {
        self.session.as_ref().is_some_and(|s| s.game().status() == Status::Finished)
    }

    /// Seats last told online.
    pub(crate) fn present(&self) -> &[bool] {
        &self.present
    }
}

fn refusal(error: &SessionError, session: &Session) -> Refusal {
    let code = match error {
        SessionError::NotYourTurn { .. } => ErrorCode::NotYourTurn,
        SessionError::Over => ErrorCode::GameOver,
        _ => ErrorCode::Refused,
    };
    let message = match error {
        SessionError::NotYourTurn { .. } => {
            let game = session.game();
            let awaited = match game.pending() {
                Pending::Roll { seat, .. } | Pending::Draw { seat, .. } => Some(seat),
                Pending::Choice(d) => Some(d.seat),
                Pending::Over => None,
            };
            awaited.map_or_else(
                || error.to_string(),
                |s| format!("it is {}'s turn", game.seats()[s].name),
            )
        }
        _ => error.to_string(),
    };
    Refusal::new(code, message)
}

pub(crate) use snl_wire::views::legend_entries;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{CheckRoom, CreateRoom};

    fn room(json: &str) -> Room {
        let request: CreateRoom = serde_json::from_str(json).unwrap();
        Room::new("r".into(), request.check(5).unwrap())
    }

    /// The events a command caused, without their numbers.
    fn plain(result: Result<Vec<Told>, Refusal>) -> Result<Vec<Event<String>>, Refusal> {
        result.map(|told| told.into_iter().map(|n| n.event).collect())
    }

    #[test]
    fn the_session_numbers_the_rooms_events_after_those_told_before_it_began() {
        let mut r = room(r#"{"seats":[{"kind":"human"},{"kind":"human"}]}"#);
        claim(&mut r, 0, "Ann");
        let ann = r.apply(&Command::Presence { seat: 0, online: true }).unwrap();
        assert_eq!(ann[0].seq, 1, "told by the room: no session yet");
        claim(&mut r, 1, "Bob");
        assert_eq!(r.session().unwrap().seq(), 1, "the session is opened at the room's number");
        let mut told = ann;
        told.extend(r.apply(&Command::Chat { seat: 1, text: "hi".into() }).unwrap());
        told.extend(r.apply(&Command::Act { seat: 0, act: Act::Roll }).unwrap());
        told.extend(r.apply(&Command::Presence { seat: 1, online: true }).unwrap());
        let numbers: Vec<u64> = told.iter().map(|n| n.seq).collect();
        assert_eq!(numbers, (1..=told.len() as u64).collect::<Vec<_>>(), "{told:?}");
        assert_eq!(r.seq(), told.len() as u64);
    }

    #[test]
    fn events_carry_the_sentences_and_options_the_labels_every_front_end_shows() {
        let mut r = room(
            r#"{"seats":[{"kind":"human"},{"kind":"human"}],"rules":{"choice":"may-pass"},"seed":3}"#,
        );
        claim(&mut r, 0, "Ann");
        claim(&mut r, 1, "You");
        let told = r.apply(&Command::Act { seat: 0, act: Act::Roll }).unwrap();
        let started = told.iter().find(|t| matches!(t.event, Event::GameStarted { .. })).unwrap();
        assert!(
            started
                .text
                .as_deref()
                .unwrap()
                .starts_with("New game on a board of 100 cells: Ann, You.")
        );
        let rolled = told.iter().find(|t| matches!(t.event, Event::DiceRolled { .. })).unwrap();
        assert_eq!(rolled.text, None, "a roll is told with its move");
        let Some(Awaited::Choice { options, labels, .. }) = r.awaiting(r.seq()) else {
            panic!("may-pass asks Ann to choose")
        };
        assert_eq!(labels.len(), options.len());
        assert!(labels[0].starts_with("move ") && labels.last().unwrap() == "stay on the start");
        let moved = r.apply(&Command::Act { seat: 0, act: Act::Choose { option: 0 } }).unwrap();
        let text = moved[0].text.as_deref().unwrap();
        assert!(
            text.starts_with("Ann rolled a") && text.contains("moved from the start to"),
            "{text}"
        );
        let away = r.apply(&Command::Presence { seat: 1, online: false }).unwrap();
        assert!(away.is_empty(), "never told online, so not told away");
        let back = r.apply(&Command::Presence { seat: 1, online: true }).unwrap();
        assert_eq!(back[0].text.as_deref(), Some("You are back"));
        let chat = r.apply(&Command::Chat { seat: 0, text: "hi".into() }).unwrap();
        assert_eq!(chat[0].text, None, "chat is shown as chat");
        assert!(matches!(
            serde_json::to_value(moved[0].clone().frame()).unwrap()["text"].as_str(),
            Some(t) if t == text
        ));
    }

    fn claim(room: &mut Room, seat: usize, name: &str) {
        plain(room.apply(&Command::Claim { seat, name: name.into(), seed: None })).unwrap();
    }

    #[test]
    fn the_game_begins_when_the_last_seat_is_taken() {
        let mut r = room(r#"{"seats":[{"kind":"human"},{"kind":"human"}]}"#);
        claim(&mut r, 0, "Ann");
        assert_eq!(r.waiting(), Waiting::Seats);
        let roll = Command::Act { seat: 0, act: Act::Roll };
        assert_eq!(plain(r.apply(&roll)).unwrap_err().code, ErrorCode::NotStarted);
        let again = Command::Claim { seat: 1, name: "Ann".into(), seed: None };
        let taken = plain(r.apply(&again)).unwrap_err();
        assert!(taken.message.contains("'Ann' is taken"));
        claim(&mut r, 1, "Bob");
        assert!(matches!(r.waiting(), Waiting::Person { seat: 0, .. }));
        let bob = plain(r.apply(&Command::Act { seat: 1, act: Act::Roll })).unwrap_err();
        assert_eq!((bob.code, bob.message.as_str()), (ErrorCode::NotYourTurn, "it is Ann's turn"));
        let events = plain(r.apply(&roll)).unwrap();
        assert!(
            matches!(&events[0], Event::GameStarted { players, .. } if players == &["Ann", "Bob"])
        );
    }

    #[test]
    fn a_timed_out_turn_is_played_by_the_computer_and_told() {
        let mut r =
            room(r#"{"seats":[{"kind":"human"},{"kind":"hard","name":"Robo"}],"turn_time":5}"#);
        claim(&mut r, 0, "Ann");
        let events = plain(r.apply(&Command::TimeOut { seat: 0 })).unwrap();
        // Before the first roll: the game's start is told first, then the time out.
        assert!(matches!(events[0], Event::GameStarted { .. }), "{events:?}");
        assert_eq!(events[1], Event::TimedOut { player: "Ann".into() });
        assert!(
            events.iter().any(|e| matches!(e, Event::DiceRolled { player, .. } if player == "Ann"))
        );
        assert_eq!(r.waiting(), Waiting::Computer);
        assert_eq!(
            plain(r.apply(&Command::TimeOut { seat: 0 })).unwrap_err().code,
            ErrorCode::NotYourTurn
        );
    }

    #[test]
    fn a_grace_the_computer_after_it_and_the_seat_taken_back_replay_from_the_log() {
        let json = r#"{"seats":[{"kind":"human"},{"kind":"easy","name":"Robo"}],"seed":2}"#;
        let mut first = room(json);
        let mut log = Vec::new();
        let mut told = Vec::new();
        let mut run = |r: &mut Room, command: Command, log: &mut Vec<Command>| {
            let events = plain(r.apply(&command)).unwrap();
            log.push(command);
            told.extend(events.clone());
            // A few computer inputs (not the whole game once Ann's seat is the computer's).
            for _ in 0..4 {
                if r.waiting() != Waiting::Computer {
                    break;
                }
                told.extend(plain(r.apply(&Command::Computer)).unwrap());
                log.push(Command::Computer);
            }
            events
        };
        run(&mut first, Command::Claim { seat: 0, name: "Ann".into(), seed: None }, &mut log);
        run(&mut first, Command::Presence { seat: 0, online: true }, &mut log);
        run(&mut first, Command::Act { seat: 0, act: Act::Roll }, &mut log);
        let refused = first.apply(&Command::Autoplay { seat: 0 }).unwrap_err();
        assert_eq!(refused.code, ErrorCode::Refused, "no grace yet: nothing changes");
        run(&mut first, Command::Presence { seat: 0, online: false }, &mut log);
        let grace = run(&mut first, Command::Grace { seat: 0, seconds: 9 }, &mut log);
        assert_eq!(grace, [Event::GraceStarted { player: "Ann".into(), seconds: 9 }]);
        assert!(matches!(first.waiting(), Waiting::Person { seat: 0, .. }), "kept for Ann");
        let auto = run(&mut first, Command::Autoplay { seat: 0 }, &mut log);
        assert_eq!(auto[0], Event::SeatAutoplayed { player: "Ann".into() });
        assert_eq!(first.kept()[0], Kept::Autoplayed);
        assert!(first.session().unwrap().game().rolls() >= 3, "the computer played her turn");
        let back = run(&mut first, Command::Presence { seat: 0, online: true }, &mut log);
        assert_eq!(back.len(), 1, "back, but the computer keeps the seat until taken back");
        let taken = Command::Act { seat: 0, act: Act::Autopilot { on: false } };
        let taken = run(&mut first, taken, &mut log);
        assert_eq!(taken.last(), Some(&Event::SeatReturned { player: "Ann".into() }));
        assert_eq!(first.kept()[0], Kept::Held);

        let mut second = room(json);
        let mut again = Vec::new();
        for command in &log {
            again.extend(plain(second.apply(command)).unwrap());
        }
        assert_eq!(again, told);
        assert_eq!(second.seq(), first.seq());
        assert_eq!(
            second.session().unwrap().game().state(),
            first.session().unwrap().game().state()
        );
    }

    #[test]
    fn presence_is_told_only_when_it_changes() {
        let mut r = room(r#"{"seats":[{"kind":"human"},{"kind":"easy"}]}"#);
        assert_eq!(
            plain(r.apply(&Command::Presence { seat: 0, online: true })).unwrap_err().code,
            ErrorCode::NotAPlayer
        );
        claim(&mut r, 0, "Ann");
        assert_eq!(plain(r.apply(&Command::Presence { seat: 0, online: true })).unwrap().len(), 1);
        assert!(plain(r.apply(&Command::Presence { seat: 0, online: true })).unwrap().is_empty());
    }

    #[test]
    fn replaying_the_log_rebuilds_the_room_event_for_event() {
        let json = r#"{"seats":[{"kind":"human"},{"kind":"greedy"}],"rules":"bonus-six",
            "game_time":60}"#;
        let mut first = room(json);
        let mut log = vec![Command::Claim { seat: 0, name: "Ann".into(), seed: None }];
        let mut told = Vec::new();
        plain(first.apply(&log[0])).unwrap();
        while first.waiting() != Waiting::Over {
            let game = first.session().unwrap().game();
            if game.rolls() >= 7 && game.time_up().is_none() {
                // The game clock runs out in the middle of the game: a command like the others.
                told.extend(plain(first.apply(&Command::TimeUp)).unwrap());
                log.push(Command::TimeUp);
            }
            let command = match first.waiting() {
                Waiting::Person { seat, .. } => Command::Act { seat, act: Act::Roll },
                _ => Command::Computer,
            };
            told.extend(plain(first.apply(&command)).unwrap());
            log.push(command);
        }
        assert!(told.contains(&Event::TimeUp {}));
        let mut second = room(json);
        let again: Vec<_> = log.iter().flat_map(|c| plain(second.apply(c)).unwrap()).collect();
        assert_eq!(again, told);
        assert!(second.is_over());
    }

    #[test]
    fn a_restored_room_replays_its_turn_clock_expiries_into_the_games_history() {
        let json = r#"{"seats":[{"kind":"human"},{"kind":"human"},{"kind":"hard"}],
            "rules":"bonus-six","turn_time":5,"game_time":60}"#;
        let mut first = room(json);
        let mut log = vec![
            Command::Claim { seat: 0, name: "Ann".into(), seed: None },
            Command::Claim { seat: 1, name: "Bob".into(), seed: None },
        ];
        let mut told = Vec::new();
        for command in &log {
            told.extend(plain(first.apply(command)).unwrap());
        }
        let mut people = 0;
        while first.waiting() != Waiting::Over {
            let command = match first.waiting() {
                // Every third time a person is awaited, the turn clock runs out.
                Waiting::Person { seat, .. } => {
                    people += 1;
                    if people % 3 == 0 {
                        Command::TimeOut { seat }
                    } else {
                        Command::Act { seat, act: Act::Roll }
                    }
                }
                _ => Command::Computer,
            };
            told.extend(plain(first.apply(&command)).unwrap());
            log.push(command);
        }
        let game = first.session().unwrap().game();
        let timed = told.iter().filter(|e| matches!(e, Event::TimedOut { .. })).count();
        assert!(timed >= 2, "{told:?}");
        assert_eq!(game.timed_out().len(), timed, "each expiry is in the game's history");

        // The room rebuilt from its log: the same events, the same game, expiries and all.
        let mut second = room(json);
        let again: Vec<_> = log.iter().flat_map(|c| plain(second.apply(c)).unwrap()).collect();
        assert_eq!(again, told);
        let restored = second.session().unwrap().game();
        assert_eq!(restored.state(), game.state());
        // The game's own replay tells each `timed_out` where the room told it.
        let mut replayed = Vec::new();
        snl_engine::Game::replay(&game.state(), &mut replayed).unwrap();
        let names = game.seats();
        let replayed: Vec<Event<String>> = replayed.into_iter().map(|e| e.named(names)).collect();
        let of_game: Vec<Event<String>> = told
            .into_iter()
            .filter(|e| !matches!(e, Event::Presence { .. } | Event::Chat { .. }))
            .collect();
        assert_eq!(of_game, replayed);
    }
}
