//! The replay viewer: a recorded game on the full screen, played, paused, stepped and sought turn
//! by turn. [`Recording`] is the game cut into steps (the game before the first turn, then after
//! each turn) with each step's events and sentences; [`Replay`] is where the viewer stands in it.
//! The `App` shows the game at the current point through a session over it, so the board, the
//! players panel and the log are drawn as in a live game; `update/viewer.rs` is the update of
//! the viewer's [`Control`]s and ticks.

use snl_engine::{Checkpoint, Event, Game, Numbered};
use snl_session::Session;
use snl_store::DiceState;

use snl_words::Sentences;

use crate::log::{Said, Tone, said_of};

/// The longest game the viewer takes: each point is rebuilt from the start of the game, about
/// 0.1 s at 100,000 turns (6 ms at 10,000); a longer game is shown line by line.
pub(crate) const MAX_TURNS: u32 = 100_000;
/// The speeds offered, as multiples of the pace of play: ¼× to 64×.
pub(crate) const SPEEDS: [f64; 9] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
/// The index of 1× in [`SPEEDS`].
const NORMAL: usize = 2;
/// The longest turn number that can be typed.
pub(crate) const MAX_TYPED: usize = 9;

/// What the viewer's keys ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Control {
    /// Play, or pause.
    PlayPause,
    /// This many turns forward (negative: back).
    Step(i32),
    /// Before the first turn.
    Start,
    /// The last point recorded.
    End,
    /// A digit of the turn number being typed.
    Digit(u8),
    /// Rub out the last digit typed.
    RubOut,
    /// Go to the turn typed.
    GoTo,
    /// Forget the turn typed.
    Cancel,
    Faster,
    Slower,
}

/// A recorded game cut into points: before the first turn, then after each turn (and the turn
/// in flight when the game was kept in the middle of one).
#[derive(Debug)]
pub(crate) struct Recording {
    /// The game at its last point, with the whole history: every point rewinds a copy of it.
    pub(crate) last: Game,
    pub(crate) points: Vec<Checkpoint>,
    /// `steps[k]`: the events from point `k` to point `k + 1`.
    pub(crate) steps: Vec<Vec<Numbered<usize>>>,
    /// `said[k]`: the sentences of `steps[k]`, for the log.
    pub(crate) said: Vec<Vec<Said>>,
    /// `told[k][i]`: how many of `said[k]` event `i` of `steps[k]` gave.
    told: Vec<Vec<usize>>,
    pub(crate) dice: DiceState,
    pub(crate) board_name: String,
}

impl Recording {
    /// The points of `end` (a game restored from its record, so its history plays), whose dice
    /// stand at `dice`.
    ///
    /// # Errors
    ///
    /// When the history does not play again on a new game (it does when `end` was restored).
    pub(crate) fn new(end: &Game, dice: DiceState, board_name: &str) -> anyhow::Result<Recording> {
        let mut game = Game::new(end.board().clone(), *end.rules(), end.seats().to_vec())?;
        let mut sentences = Sentences::new(&game);
        let mut points = vec![game.checkpoint()];
        let (mut steps, mut said, mut told) = (Vec::new(), Vec::new(), Vec::new());
        let mut step: Vec<Event> = Vec::new();
        let mut seq = 0;
        let mut close = |game: &Game, step: &mut Vec<Event>, sentences: &mut Sentences| {
            let events: Vec<Numbered<usize>> = step
                .drain(..)
                .map(|event| {
                    seq += 1;
                    Numbered { seq, event }
                })
                .collect();
            let each: Vec<Vec<Said>> =
                events.iter().map(|n| said_of(sentences, &n.event)).collect();
            told.push(each.iter().map(Vec::len).collect());
            said.push(each.into_iter().flatten().collect());
            steps.push(events);
            points.push(game.checkpoint());
        };
        // Every input the record took, in order: rolls, choices, draws, and the clocks'
        // expiries where they came (`Game::replay` plays them alike). A point closes after an
        // input that ends a turn; a turn clock's expiry before a turn's first roll goes with it.
        for input in end.inputs_applied() {
            step.extend(game.apply(input)?);
            if !game.in_turn() && !game.turn_timed_out() {
                close(&game, &mut step, &mut sentences);
            }
        }
        if !step.is_empty() {
            close(&game, &mut step, &mut sentences);
        }
        // The points must end where the record does.
        let outcome =
            |g: &Game| (g.positions(), g.ranking().to_vec(), g.status(), g.turns(), g.current());
        anyhow::ensure!(
            outcome(&game) == outcome(end),
            "the viewer could not cut the game into turns (play it with --plain)"
        );
        Ok(Recording {
            last: game,
            points,
            steps,
            said,
            told,
            dice,
            board_name: board_name.to_owned(),
        })
    }

    /// The chat said in the game's room put in the log: each line after the events told before
    /// it (`at`, counted as `GET /api/games/{id}` and the web replay count them), in the step
    /// that holds that event (the first step for a line said before any).
    pub(crate) fn with_chat(mut self, chat: &[snl_wire::ChatEntry]) -> Recording {
        for line in chat.iter().rev() {
            let k = self
                .steps
                .iter()
                .position(|step| step.last().is_some_and(|n| n.seq >= line.at))
                .unwrap_or(self.steps.len().saturating_sub(1));
            let Some(said) = self.said.get_mut(k) else { continue };
            // After the sentences of the step's events told by then (a step's sentences follow
            // its events in order; a roll told with its move has none of its own).
            let before = self.steps[k].iter().filter(|n| n.seq <= line.at).count();
            let at = self.told[k][..before].iter().sum::<usize>().min(said.len());
            said.insert(
                at,
                Said { text: format!("{}: {}", line.player, line.text), tone: Tone::Plain },
            );
        }
        self
    }

    /// The index of the last point.
    pub(crate) fn last(&self) -> usize {
        self.points.len() - 1
    }

    /// Turns played at the last point.
    pub(crate) fn turns(&self) -> u32 {
        self.last.turns()
    }

    /// A session over the game at point `k` (nothing in it rolls: the viewer only shows it),
    /// opened at the number of the last event before that point (no replay to count them).
    pub(crate) fn session_at(&self, k: usize) -> Session {
        let k = k.min(self.last());
        let mut game = self.last.clone();
        game.rewind(&self.points[k]);
        let seq = self.steps[..k].iter().rev().find_map(|step| step.last()).map_or(0, |n| n.seq);
        Session::at(game, self.dice.clone(), &self.board_name, seq)
    }

    /// The point after `turn` turns (the last point for more turns than were played).
    pub(crate) fn point_of_turn(&self, turn: u32) -> usize {
        self.points.iter().position(|p| p.turns() >= turn).unwrap_or(self.last())
    }

    /// The sentences up to point `k`, the newest last, at most `lines` of them.
    pub(crate) fn said_until(&self, k: usize, lines: usize) -> Vec<Said> {
        let mut out: Vec<Said> = Vec::new();
        for said in self.said[..k].iter().rev() {
            for s in said.iter().rev() {
                if out.len() == lines {
                    out.reverse();
                    return out;
                }
                out.push(s.clone());
            }
        }
        out.reverse();
        out
    }

    /// The faces last rolled before point `k`.
    pub(crate) fn die_at(&self, k: usize) -> Option<Vec<u8>> {
        self.steps[..k].iter().rev().flat_map(|s| s.iter().rev()).find_map(|n| match &n.event {
            Event::DiceRolled { dice, .. } => Some(dice.dice().to_vec()),
            _ => None,
        })
    }
}

/// Where the viewer stands in a [`Recording`].
#[derive(Debug)]
pub(crate) struct Replay {
    pub(crate) recording: Recording,
    /// What is replayed, for people: "game 7", "the save file g.json".
    pub(crate) title: String,
    /// The log's first line.
    pub(crate) intro: String,
    /// The point shown.
    pub(crate) at: usize,
    pub(crate) playing: bool,
    /// Index into [`SPEEDS`].
    pub(crate) speed: usize,
    /// Steps of time owed to the animation at this speed (a tick brings the speed's worth).
    pub(crate) credit: f64,
    /// The turn number being typed.
    pub(crate) typed: String,
}

impl Replay {
    /// The viewer at the start of `recording`, paused, at the speed nearest `speed` (0: the
    /// fastest).
    pub(crate) fn new(recording: Recording, title: &str, intro: &str, speed: f64) -> Replay {
        let speed = if speed <= 0.0 {
            SPEEDS.len() - 1
        } else {
            (0..SPEEDS.len())
                .min_by(|&a, &b| {
                    let off = |i: usize| (SPEEDS[i].ln() - speed.ln()).abs();
                    off(a).total_cmp(&off(b))
                })
                .unwrap_or(NORMAL)
        };
        Replay {
            recording,
            title: title.to_owned(),
            intro: intro.to_owned(),
            at: 0,
            playing: false,
            speed,
            credit: 0.0,
            typed: String::new(),
        }
    }

    /// Whether the viewer stands at the last point.
    pub(crate) fn at_end(&self) -> bool {
        self.at == self.recording.last()
    }

    /// The speed in words: "1×", "¼×".
    pub(crate) fn speed_words(&self) -> String {
        match SPEEDS[self.speed] {
            0.25 => "¼×".to_owned(),
            0.5 => "½×".to_owned(),
            x => format!("{x}×"),
        }
    }
}
