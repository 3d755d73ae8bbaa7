//! A game played on this device ("Play here"): people taking turns at one screen and computer
//! seats, run by the engine in the page. It is set up from the very request an online room is
//! created with (`POST /api/rooms`, [`CreateRoom`]), rolls seeded dice (ChaCha8, as `snl play
//! --seed` rolls them) and plays its computers with the strategies of every front end
//! (`snl_analysis::strategy::Computers`, seeded alike); it speaks the online room's frames
//! (`welcome`, `event` with its sentence, `awaiting` with the options' labels), so the room page
//! draws it as it draws a room. What a person did is all the page keeps: the request, the seed
//! and the intents, which play back to the same game (a reload, a replay).
//!
//! (`snl-session` drives the terminal's and the server's games; it also carries the save files
//! and the SQLite database, which do not build for the browser, so the few lines that throw the
//! dice and ask the computers are here, calling the same engine and strategies.)

use std::cell::RefCell;

use serde::Deserialize;
use serde_json::{Value, json};
use snl_analysis::{
    exact,
    strategy::{Computers, Strategy},
};
use snl_engine::{
    Board, BoardSpec, Event, Game, Input, Pending, RollSource, Seat, SeededDice, Status,
};
use snl_wire::{
    CreateRoom, ErrorCode, RoomState, RoomStatus, SeatState, ServerFrame,
    answers::OddsAsked,
    views::{awaited, legend_entries, seat_lines},
};
use snl_words::{Sentences, race_status_of};

use crate::api::{CHECK_LIMITS, error, read, write};

/// The most seats of a game on this device (as of a room).
pub const MAX_SEATS: usize = 16;
/// The longest name of a person at the table, in characters (a room's).
pub use snl_wire::names::MAX_NAME;
/// The most intents played back (a game far longer than any real one).
pub const MAX_INTENTS: usize = 200_000;

/// A person's intent, as the page keeps it.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(tag = "act", rename_all = "snake_case", deny_unknown_fields)]
pub enum Intent {
    /// Throw the dice for the person awaited.
    Roll,
    /// Take option `option` of the choice awaited.
    Choose {
        /// Index into the options.
        option: usize,
    },
}

/// `local_new`'s request: the room's request, its seed, and the intents played so far.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewLocal {
    setup: CreateRoom,
    seed: u64,
    #[serde(default)]
    intents: Vec<Intent>,
}

/// A game on this device.
#[derive(Debug)]
struct Local {
    board_name: String,
    board: BoardSpec,
    game: Game,
    dice: SeededDice,
    computers: Computers,
    sentences: Sentences,
    /// The last event's number.
    seq: u64,
    /// How many inputs were played (the awaited input's id).
    input: u64,
    /// Whether the game's start was told.
    started: bool,
}

thread_local! {
    /// The page's game (one at a time).
    static LOCAL: RefCell<Option<Local>> = const { RefCell::new(None) };
}

/// An event as the room tells it: numbered, players by name, with its sentence.
type Told = (u64, Event<String>, Option<String>);

impl Local {
    /// The game `setup` asks for, seeded with `seed`, not yet begun.
    fn new(setup: &CreateRoom, seed: u64) -> Result<Local, String> {
        let (board_name, board, rules) = setup.board_and_rules(seed, CHECK_LIMITS.max_cells)?;
        if !(2..=MAX_SEATS).contains(&setup.seats.len()) {
            return Err(format!(
                "{} seats asked for: a game here has 2 to {MAX_SEATS}",
                setup.seats.len()
            ));
        }
        let mut seats = Vec::with_capacity(setup.seats.len());
        for (i, s) in setup.seats.iter().enumerate() {
            s.offered()?;
            let name = s.name.as_deref().map(str::trim).filter(|n| !n.is_empty());
            let name = match name {
                // Checked as the server checks a name (its Unicode composition aside).
                Some(n) => snl_wire::names::check_name(n)?,
                // Named by what plays it, as every front end names a seat nobody named.
                None => snl_words::seat_default_name(i, s.kind),
            };
            if seats.iter().any(|x: &Seat| x.name == name) {
                return Err(format!("name '{name}' is given to two seats"));
            }
            seats.push(Seat::new(name, s.kind));
        }
        let built = Board::new(&board, &rules).map_err(|e| e.to_string())?;
        let game = Game::new(built, rules, seats).map_err(|e| e.to_string())?;
        Ok(Local {
            board_name,
            board,
            sentences: Sentences::new(&game),
            game,
            dice: SeededDice::new(seed),
            computers: Computers::new(seed),
            seq: 0,
            input: 0,
            started: false,
        })
    }

    /// The seat a person is awaited from, if one is.
    fn person(&self) -> Option<usize> {
        let seat = match self.game.pending() {
            Pending::Roll { seat, .. } | Pending::Draw { seat, .. } => seat,
            Pending::Choice(d) => d.seat,
            Pending::Over => return None,
        };
        (!self.game.seats()[seat].kind.is_computer()).then_some(seat)
    }

    /// Plays a person's intent; refused (nothing changed) when no person is awaited or the
    /// intent is not what is awaited.
    fn act(&mut self, intent: Intent) -> Result<Vec<Told>, String> {
        if self.game.status() == Status::Finished {
            return Err("the game is over".to_owned());
        }
        if self.person().is_none() {
            return Err("a computer is to play, not a person".to_owned());
        }
        match intent {
            Intent::Roll => self.roll(),
            Intent::Choose { option } => self.apply(Input::Choose { option }),
        }
    }

    /// Plays the computer awaited: a roll, or its strategy's choice.
    fn computer(&mut self) -> Result<Vec<Told>, String> {
        match self.game.pending() {
            Pending::Choice(decision) => {
                let kind = self.game.seats()[decision.seat].kind;
                let strategy = Strategy::of_kind(kind).unwrap_or(Strategy::Hard);
                let option = self.computers.choose(strategy, &self.game, &decision);
                self.apply(Input::Choose { option })
            }
            Pending::Over => Err("the game is over".to_owned()),
            _ => self.roll(),
        }
    }

    /// Throws the dice for the awaited roll and plays it.
    fn roll(&mut self) -> Result<Vec<Told>, String> {
        if let Pending::Draw { .. } = self.game.pending() {
            let mut events = Vec::new();
            self.draw_into(&mut events)?;
            return Ok(self.tell(events));
        }
        let dice = self.game.rules().thrown_dice();
        let roll = self.dice.roll(self.game.current(), dice).map_err(|e| e.to_string())?;
        self.apply(Input::Roll { roll })
    }

    /// Applies one input, then any wormhole's draw (no one's decision), as `snl_session` does.
    fn apply(&mut self, input: Input) -> Result<Vec<Told>, String> {
        let mut events = self.game.apply(input).map_err(|e| e.to_string())?;
        self.input += 1;
        self.draw_into(&mut events)?;
        Ok(self.tell(events))
    }

    fn draw_into(&mut self, events: &mut Vec<Event>) -> Result<(), String> {
        while let Pending::Draw { seat, exits, .. } = self.game.pending() {
            let index = self.dice.draw(seat, exits.len() as u32).map_err(|e| e.to_string())?;
            events.extend(self.game.apply(Input::Draw { index }).map_err(|e| e.to_string())?);
        }
        Ok(())
    }

    /// Numbers `events` and words them.
    fn tell(&mut self, events: Vec<Event>) -> Vec<Told> {
        let mut told = Vec::with_capacity(events.len());
        for event in events {
            if matches!(event, Event::GameStarted { .. })
                && std::mem::replace(&mut self.started, true)
            {
                continue;
            }
            self.seq += 1;
            let text = self.sentences.sentence(&event);
            told.push((self.seq, event.named(self.game.seats()), text));
        }
        told
    }

    /// The awaiting frame after the last input.
    fn awaiting(&self) -> ServerFrame {
        ServerFrame::Awaiting {
            seq: self.seq,
            awaiting: awaited(&self.game, self.input),
            seats: seat_lines(&self.game),
            race: race_status_of(&self.game),
            // Achievements are awarded to games kept by a server or `snl play`, not to these.
            awards: Vec::new(),
            series: None,
            // No clocks on this device: people at one screen wait for each other.
            turn_left_ms: None,
        }
    }

    /// The game's state, as a room's.
    fn state(&self) -> RoomState {
        let game = &self.game;
        let lines = seat_lines(game);
        let positions = game.positions();
        let ranks = game.ranks();
        let seats = game
            .seats()
            .iter()
            .enumerate()
            .zip(lines)
            .map(|((i, s), line)| SeatState {
                seat: i,
                kind: s.kind,
                name: Some(s.name.clone()),
                open: false,
                online: true,
                autopilot: false,
                grace_left_ms: None,
                autoplayed: false,
                position: positions[i],
                rank: ranks[i],
                standing: line.standing,
                carried: line.carried,
            })
            .collect();
        RoomState {
            room: "local".to_owned(),
            status: if game.status() == Status::Finished {
                RoomStatus::Over
            } else {
                RoomStatus::Running
            },
            board_name: self.board_name.clone(),
            board: self.board.clone(),
            rules: *game.rules(),
            turn_time: None,
            game_time: None,
            time_up: false,
            seats,
            awaiting: awaited(game, self.input),
            turns: game.turns(),
            ranking: game.ranking().iter().map(|&s| game.seats()[s].name.clone()).collect(),
            seq: self.seq,
            turn_left_ms: None,
            game_left_ms: None,
            race: race_status_of(game),
            legend: legend_entries(game.board()),
            // Achievements are awarded from the game database, which a game on this device has
            // not (and snl-session, which names them, is not in the browser's engine).
            awards: Vec::new(),
            fairness: None,
            thrown_dice: Some(game.rules().thrown_dice().count()),
            series: None,
        }
    }

    /// Plays the computers while one is awaited, an awaiting frame after each input.
    fn computers_play(&mut self, frames: &mut Vec<Value>) -> Result<(), String> {
        while self.game.status() != Status::Finished && self.person().is_none() {
            let told = self.computer()?;
            frames.extend(told.into_iter().map(event_frame));
            frames.push(frame(&self.awaiting()));
        }
        Ok(())
    }
}

fn frame(frame: &ServerFrame) -> Value {
    serde_json::to_value(frame).unwrap_or(Value::Null)
}

fn event_frame((seq, event, text): Told) -> Value {
    frame(&ServerFrame::Event { seq, event, text })
}

/// Starts a game on this device from a room's request (`setup`, as `POST /api/rooms` takes it),
/// its `seed` and the `intents` people played in it so far (none for a new game), which are
/// played again. Answers `{"frames": [...]}`: the welcome (the state after the intents), then the
/// events before it marked `"past": true`, then the computers' play up to the first person
/// awaited (events and awaiting frames, to be shown as they come).
pub fn local_new(request: &str) -> String {
    let asked: NewLocal = match read(request) {
        Ok(asked) => asked,
        Err(answer) => return answer,
    };
    if asked.intents.len() > MAX_INTENTS {
        return error(format_args!(
            "{} intents are more than {MAX_INTENTS}, the most played back",
            asked.intents.len()
        ));
    }
    let mut local = match Local::new(&asked.setup, asked.seed) {
        Ok(local) => local,
        Err(sentence) => return error(sentence),
    };
    let mut past: Vec<Value> = Vec::new();
    for (i, &intent) in asked.intents.iter().enumerate() {
        if let Err(sentence) = local.computers_play(&mut past) {
            return error(sentence);
        }
        match local.act(intent) {
            Ok(told) => past.extend(told.into_iter().map(event_frame)),
            Err(sentence) => {
                return error(format_args!("intent {} of the game kept here: {sentence}", i + 1));
            }
        }
    }
    // The computers' play after the last intent was shown before the page went away: it is past.
    if !asked.intents.is_empty() {
        if let Err(sentence) = local.computers_play(&mut past) {
            return error(sentence);
        }
    }
    let welcome =
        ServerFrame::Welcome { seat: None, seq: local.seq, state: Box::new(local.state()) };
    let mut frames = vec![frame(&welcome)];
    frames.extend(past.into_iter().filter(|f| f["type"] == "event").map(|mut f| {
        f["past"] = Value::Bool(true);
        f
    }));
    if let Err(sentence) = local.computers_play(&mut frames) {
        return error(sentence);
    }
    LOCAL.set(Some(local));
    json!({ "frames": frames }).to_string()
}

/// A person's intent in the game on this device (`{"act": "roll"}` or `{"act": "choose",
/// "option": i}`): `{"frames": [...]}`, its events and the computers' play after it, an awaiting
/// frame after each input; or one error frame when it is refused (nothing changed).
pub fn local_act(request: &str) -> String {
    let intent: Intent = match read(request) {
        Ok(intent) => intent,
        Err(answer) => return answer,
    };
    LOCAL.with_borrow_mut(|local| {
        let Some(local) = local else { return error("no game is being played here") };
        match local.act(intent) {
            Ok(told) => {
                let mut frames: Vec<Value> = told.into_iter().map(event_frame).collect();
                frames.push(frame(&local.awaiting()));
                if let Err(sentence) = local.computers_play(&mut frames) {
                    frames.push(frame(&ServerFrame::Error {
                        code: ErrorCode::Refused,
                        message: sentence,
                    }));
                }
                json!({ "frames": frames }).to_string()
            }
            Err(message) => {
                let refused = ServerFrame::Error { code: ErrorCode::Refused, message };
                json!({ "frames": [frame(&refused)] }).to_string()
            }
        }
    })
}

/// The live odds of the game on this device, as `GET /api/rooms/{room}/odds` answers for a room:
/// each seat's exact chance to win from where the game stands and the fewest rolls it needs.
pub fn local_odds(_request: &str) -> String {
    LOCAL.with_borrow(|local| {
        let Some(local) = local else { return error("no game is being played here") };
        let game = &local.game;
        let tables = match crate::api::tables(&local.board, game.rules()) {
            Ok(tables) => tables,
            Err(sentence) => return error(sentence),
        };
        let names: Vec<Option<String>> =
            game.seats().iter().map(|s| Some(s.name.clone())).collect();
        let positions = game.positions();
        write(&tables.answer(&OddsAsked {
            room: "local",
            seq: local.seq,
            names: &names,
            positions: &positions,
            from: &exact::Standing::of(game),
            winner: game.ranking().first().copied(),
        }))
    })
}

#[cfg(test)]
mod tests;
