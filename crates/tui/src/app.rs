// Long on purpose: the whole state of the full-screen game in one place, as the crates-tui shape keeps it (update.rs changes it, ui/ draws it).
//! The state of the full-screen game: the session, what the screen shows of it (tokens where the
//! animation has them, the die, the log of sentences), the overlay, and the beats still to play.
//! Nothing here draws or reads a key: `update.rs` changes it, `ui/` draws it.

use std::{collections::VecDeque, path::PathBuf, time::Duration};

use snl_analysis::{exact::TurnChain, solve::rolls_to_finish};
use snl_engine::{Event, Numbered, RollError, SeatKind, Status};
use snl_session::{Awaiting, Session};

use snl_words::{Sentences, earned};

use crate::{
    clocks::Clocks,
    log::{LOG_LINES, Said, Tone, said_of},
    seated::Kept,
};
use crate::{odds::win_chances, online::Online, replay::Replay};

/// One step of the animation and of the computers' play.
pub(crate) const TICK: Duration = Duration::from_millis(60);

/// Ticks a computer's finished turn stays on screen before the next input (about half a second).
pub(crate) const TURN_PAUSE_TICKS: u32 = 8;

/// How the game is shown, from the command line.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Colours (off with `NO_COLOR`: letters and shapes still tell players apart).
    pub color: bool,
    /// No animation and no pause between computer turns.
    pub fast: bool,
    /// No bell.
    pub quiet: bool,
    /// Where `s` saves (`--save`); without it, a file named after the game in this folder.
    pub save: Option<PathBuf>,
    /// Stop cleanly after this many turns.
    pub stop_after: Option<u32>,
}

/// One step of the animation. Steps that take time take one tick each; the others happen at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Beat {
    /// The die shows these faces (takes a tick).
    Die(Vec<u8>),
    /// A token is drawn on a cell (takes a tick).
    Token { seat: usize, cell: u32 },
    /// Nothing moves for a tick.
    Rest,
    /// A sentence joins the log.
    Say(Said),
    /// The terminal bell.
    Bell,
    /// The screen catches up with the game: tokens where the game has them.
    Settle,
}

impl Beat {
    pub(crate) fn takes_time(&self) -> bool {
        matches!(self, Beat::Die(_) | Beat::Token { .. } | Beat::Rest)
    }
}

/// What the screen is doing, for its whole life (crates-tui's `Mode`); each mode holds its own
/// state.
#[derive(Debug)]
pub(crate) enum Mode {
    /// A game played here (`snl`, `snl play`, `snl resume`), with the turn and game clocks
    /// (`--turn-time`, `--game-time`) when asked for: each tick looks whether one ran out.
    Local { clocks: Option<Clocks> },
    /// A seat of a room held here (`snl join`): the session is a copy of the server's game, and
    /// game keys become intents sent to it.
    Seat { room: Online, seat: usize },
    /// A room watched (`snl watch`): the same copy of its game; game keys do nothing.
    Spectator { room: Online },
    /// A recorded game (`snl replay`): the session is the game at the point shown, and nothing
    /// is played in it.
    Replay(Replay),
}

impl Mode {
    /// The room, online (a seat held or watched).
    pub(crate) fn room(&self) -> Option<&Online> {
        match self {
            Mode::Seat { room, .. } | Mode::Spectator { room } => Some(room),
            Mode::Local { .. } | Mode::Replay(_) => None,
        }
    }

    pub(crate) fn room_mut(&mut self) -> Option<&mut Online> {
        match self {
            Mode::Seat { room, .. } | Mode::Spectator { room } => Some(room),
            Mode::Local { .. } | Mode::Replay(_) => None,
        }
    }

    /// The seat held in a room.
    pub(crate) fn seat(&self) -> Option<usize> {
        match self {
            Mode::Seat { seat, .. } => Some(*seat),
            _ => None,
        }
    }

    pub(crate) fn replay(&self) -> Option<&Replay> {
        match self {
            Mode::Replay(replay) => Some(replay),
            _ => None,
        }
    }

    pub(crate) fn replay_mut(&mut self) -> Option<&mut Replay> {
        match self {
            Mode::Replay(replay) => Some(replay),
            _ => None,
        }
    }

    /// The clocks shown: a game's played here, when asked for, or a room's (which its server
    /// plays).
    pub(crate) fn clocks(&self) -> Option<&Clocks> {
        match self {
            Mode::Local { clocks } => clocks.as_ref(),
            Mode::Seat { room, .. } | Mode::Spectator { room } => room.clocks.as_ref(),
            Mode::Replay(_) => None,
        }
    }

    /// The clocks of a game played here, whose expiries the screen plays.
    pub(crate) fn clocks_mut(&mut self) -> Option<&mut Clocks> {
        match self {
            Mode::Local { clocks } => clocks.as_mut(),
            _ => None,
        }
    }
}

/// What covers the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Overlay {
    None,
    Help,
    ConfirmQuit,
    /// The dice panel (`d`), with the players' histories read when it opened.
    Dice,
}

/// Why the game left the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The game is over and the player left.
    Over,
    /// `q` confirmed, Ctrl-D, or `--stop-after`: the game is kept, to go on later.
    Asked,
    /// Ctrl-C: the game is kept, to go on later, and the command ends with 130.
    Interrupted,
    /// The dice could not go on: the scripted rolls ran out, or the next one does not fit.
    Dice(RollError),
}

/// The whole state of the full-screen game.
#[derive(Debug)]
pub(crate) struct App {
    pub(crate) session: Session,
    pub(crate) kept: Kept,
    pub(crate) opts: Options,
    /// Whether to tell the seed at the end.
    pub(crate) tell_seed: bool,
    /// One letter per seat (the key to the tokens).
    pub(crate) marks: Vec<char>,
    /// Where each token is drawn (the animation's idea; the game's once it settles).
    pub(crate) shown: Vec<u32>,
    /// The faces the die shows, if it has been rolled.
    pub(crate) die: Option<Vec<u8>>,
    pub(crate) log: VecDeque<Said>,
    pub(crate) beats: VecDeque<Beat>,
    pub(crate) overlay: Overlay,
    /// The players' dice histories, read when the dice panel last opened.
    pub(crate) dice_history: Option<DiceHistory>,
    /// Rows scrolled by hand from the view that follows the current player (negative: up);
    /// a new turn follows again.
    pub(crate) scroll: i32,
    /// Fewest rolls to finish from each position.
    pub(crate) fewest: Vec<Option<u32>>,
    /// Each seat's chance to win from where the tokens stand, when it could be worked out.
    pub(crate) chances: Option<Vec<f64>>,
    /// The position the chances were worked out for: tokens, current seat, start of its turn.
    chances_at: Option<(Vec<u32>, usize, u32)>,
    /// Whether the analysis handles this board and rules (no cell effects, no race yet).
    analysable: bool,
    chain: TurnChain,
    pub(crate) sentences: Sentences,
    /// Bells rung since the front end last looked.
    pub(crate) bells: u32,
    /// Ticks to wait before the next computer input.
    pub(crate) wait: u32,
    /// Turns played on this screen (for `--stop-after`).
    pub(crate) played: u32,
    /// The game's turn count when the last turn ended (or the screen opened): a turn is counted
    /// in `played` once it has ended, whatever number of inputs (rolls, choices) it took.
    pub(crate) turns_at_end: u32,
    /// Where `s` saved without `--save`.
    pub(crate) saved_to: Option<PathBuf>,
    pub(crate) stop: Option<Stop>,
    /// A seat handed to the computer with `a`, to take back with `a`.
    pub(crate) handed: Option<usize>,
    /// Die faces shown while rolling: a counter, so they change without randomness.
    pub(crate) spin: u32,
    /// A game played here, a room's (a seat held or watched) or a recorded one.
    pub(crate) mode: Mode,
    /// Once the game is over, the achievements it earned: (seat, in words). A game played here
    /// works them out ([`App::refresh_awards`]); a room's server sends them.
    pub(crate) awards: Vec<(usize, String)>,
    /// Whether `awards` were worked out for the game over (an undo after the end forgets them).
    awarded: bool,
}

impl App {
    /// The screen for `session`; `intro` is the log's first line (a loaded game).
    pub(crate) fn new(
        session: Session,
        kept: Kept,
        opts: Options,
        tell_seed: bool,
        intro: Option<String>,
    ) -> App {
        let game = session.game();
        let chain = TurnChain::new(game.board(), game.rules());
        // Without an analysis of effects and races yet, no numbers rather than wrong ones: the
        // side panel shows "-" for the fewest rolls and no chances.
        let analysable = [snl_analysis::Work::Exact, snl_analysis::Work::Solve]
            .into_iter()
            .all(|w| snl_analysis::check_supported_for(w, game.board(), game.rules()).is_ok());
        let turns_at_end = game.turns() - u32::from(game.in_turn());
        let fewest =
            if analysable { rolls_to_finish(game.board(), game.rules()) } else { Vec::new() };
        let mut app = App {
            marks: marks(game.seats().iter().map(|s| s.name.as_str())),
            shown: game.positions(),
            sentences: Sentences::new(game),
            chances: None,
            chances_at: None,
            analysable,
            chain,
            fewest,
            die: None,
            log: VecDeque::new(),
            beats: VecDeque::new(),
            overlay: Overlay::None,
            dice_history: None,
            scroll: 0,
            bells: 0,
            wait: 0,
            played: 0,
            turns_at_end,
            saved_to: None,
            stop: None,
            handed: None,
            spin: 0,
            mode: Mode::Local { clocks: None },
            awards: Vec::new(),
            awarded: false,
            session,
            kept,
            opts,
            tell_seed,
        };
        if let Some(intro) = intro {
            app.note(&intro);
        }
        app.settle();
        app.refresh_chances();
        app
    }

    /// Shows `session`, a new game at another table (an online room whose players are known
    /// once its game starts): marks, tokens and sentences follow its seats; the log stays.
    pub(crate) fn reseat(&mut self, session: Session) {
        let game = session.game();
        self.marks = marks(game.seats().iter().map(|s| s.name.as_str()));
        self.sentences = Sentences::new(game);
        self.chances_at = None;
        self.session = session;
        self.settle();
    }

    /// Adds a note from the game to the log.
    pub(crate) fn note(&mut self, text: &str) {
        self.say(Said { text: text.to_owned(), tone: Tone::Note });
    }

    pub(crate) fn say(&mut self, said: Said) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(said);
    }

    /// Whether the animation has steps left.
    pub(crate) fn animating(&self) -> bool {
        !self.beats.is_empty()
    }

    /// The seat the screen is about: the one awaited, else the last to play.
    pub(crate) fn focus(&self) -> usize {
        match self.session.awaiting() {
            Awaiting::Roll { seat } | Awaiting::Computer { seat } => seat,
            Awaiting::Choice(d) => d.seat,
            Awaiting::Over => self.session.game().current(),
        }
    }

    /// The person a key speaks for: the seat awaited if it is a person's, else the first person
    /// at the table.
    pub(crate) fn person(&self) -> Option<usize> {
        let seats = self.session.game().seats();
        let awaited = match self.session.awaiting() {
            Awaiting::Roll { seat } | Awaiting::Computer { seat } => Some(seat),
            Awaiting::Choice(d) => Some(d.seat),
            Awaiting::Over => None,
        };
        awaited
            .filter(|&s| seats[s].kind == SeatKind::Human)
            .or_else(|| seats.iter().position(|s| s.kind == SeatKind::Human))
    }

    /// Turns the events of one step into beats: the die spins, tokens walk, jumps fly, and each
    /// sentence joins the log once its move has been seen. Without animation they all happen now.
    pub(crate) fn take(&mut self, events: &[Numbered<usize>]) {
        for numbered in events {
            let event = &numbered.event;
            if matches!(event, Event::TurnStarted { .. }) {
                self.scroll = 0;
            }
            if !self.opts.fast {
                self.animate(event);
            }
            if matches!(event, Event::Undone { .. } | Event::Redone { .. }) {
                self.sentences.follow(self.session.game());
                // The die shows the last roll of the game as it now stands, not the one undone.
                match self.session.game().history().last() {
                    Some(record) => self.beats.push_back(Beat::Die(record.roll.dice().to_vec())),
                    None => self.die = None,
                }
            }
            for said in said_of(&mut self.sentences, event) {
                self.beats.push_back(Beat::Say(said));
            }
            if matches!(event, Event::Snake { .. } | Event::Ladder { .. })
                || matches!(event, Event::PlayerFinished { rank: 1, .. })
            {
                self.beats.push_back(Beat::Bell);
            }
            if let Event::DiceRolled { dice, .. } = event {
                self.beats.push_back(Beat::Die(dice.dice().to_vec()));
            }
        }
        self.beats.push_back(Beat::Settle);
        if self.opts.fast {
            self.finish_beats();
        }
    }

    fn animate(&mut self, event: &Event) {
        let size = self.session.game().board().size();
        match *event {
            Event::DiceRolled { ref dice, .. } => {
                let faces = self.session.game().rules().dice.faces().max(1);
                for _ in 0..4 {
                    self.spin = self.spin.wrapping_mul(5).wrapping_add(3);
                    let spun = dice
                        .dice()
                        .iter()
                        .enumerate()
                        .map(|(i, _)| ((self.spin + 2 * i as u32) % faces + 1) as u8)
                        .collect();
                    self.beats.push_back(Beat::Die(spun));
                }
            }
            Event::Moved { player, from, to, steps } => {
                let path: Vec<u32> = if from + steps > size {
                    (from + 1..=size).chain((to..size).rev()).collect()
                } else {
                    (from + 1..=to).collect()
                };
                for cell in path {
                    self.beats.push_back(Beat::Token { seat: player, cell });
                }
            }
            Event::Snake { player, from, to }
            | Event::Ladder { player, from, to }
            | Event::Wormhole { player, from, to } => {
                for cell in self.jump_path(from, to) {
                    self.beats.push_back(Beat::Token { seat: player, cell });
                }
            }
            Event::TurnVoided { player, back_to } => {
                self.beats.push_back(Beat::Rest);
                self.beats.push_back(Beat::Token { seat: player, cell: back_to });
            }
            _ => {}
        }
    }

    /// The cells a jump from `from` to `to` flies over, on the straight line between them on the
    /// grid, ending on `to`.
    fn jump_path(&self, from: u32, to: u32) -> Vec<u32> {
        let layout = self.session.game().board().layout();
        let (r0, c0) = layout.position(from);
        let (r1, c1) = layout.position(to);
        let (r0, c0, r1, c1) = (r0 as f64, c0 as f64, r1 as f64, c1 as f64);
        let steps = ((r1 - r0).abs().max((c1 - c0).abs()) as u32).max(1);
        let mut path: Vec<u32> = Vec::new();
        for k in 1..=steps {
            let t = f64::from(k) / f64::from(steps);
            let (r, c) = ((r0 + (r1 - r0) * t).round(), (c0 + (c1 - c0) * t).round());
            if let Some(cell) = layout.cell_at(r as u32, c as u32)
                && path.last() != Some(&cell)
                && cell != from
            {
                path.push(cell);
            }
        }
        if path.last() != Some(&to) {
            path.push(to);
        }
        path
    }

    /// Plays beats until one takes time (or none is left).
    pub(crate) fn next_beat(&mut self) {
        while let Some(beat) = self.beats.pop_front() {
            let timed = beat.takes_time();
            self.play_beat(beat);
            if timed {
                break;
            }
        }
    }

    /// Plays every beat left at once.
    pub(crate) fn finish_beats(&mut self) {
        while let Some(beat) = self.beats.pop_front() {
            self.play_beat(beat);
        }
    }

    fn play_beat(&mut self, beat: Beat) {
        match beat {
            Beat::Die(faces) => self.die = Some(faces),
            Beat::Token { seat, cell } => self.shown[seat] = cell,
            Beat::Rest => {}
            Beat::Say(said) => self.say(said),
            Beat::Bell => self.bells += 1,
            Beat::Settle => self.settle(),
        }
    }

    /// Tokens where the game has them.
    pub(crate) fn settle(&mut self) {
        self.shown = self.session.game().positions();
    }

    /// Works out what a game played here earned once it is over, as `snl play` awards it to the
    /// game database (`snl_session::achievements`); a room's come from its server, a replay
    /// earns none.
    pub(crate) fn refresh_awards(&mut self) {
        if !matches!(self.mode, Mode::Local { .. }) {
            return;
        }
        let game = self.session.game();
        let over = game.status() == Status::Finished;
        if over == self.awarded {
            return;
        }
        self.awarded = over;
        self.awards = if over {
            snl_session::achievements::of_game(game)
                .into_iter()
                .map(|a| (a.seat, earned(a.achievement.key())))
                .collect()
        } else {
            Vec::new()
        };
    }

    /// Works the chances out again if the position changed since (once per action, however many
    /// computer moves it played).
    pub(crate) fn refresh_chances(&mut self) {
        let game = self.session.game();
        let at = (game.positions(), game.current(), game.turn_start());
        if self.analysable && self.chances_at.as_ref() != Some(&at) {
            self.chances = self.session.win_odds().or_else(|| win_chances(&self.chain, game));
            self.chances_at = Some(at);
        }
    }
}

/// One letter per seat, all different: the first letter of the name (A–Z) when no earlier seat
/// took it, else another letter of the name, else the first free letter, then digits.
pub(crate) fn marks<'a>(names: impl Iterator<Item = &'a str>) -> Vec<char> {
    let names: Vec<&str> = names.collect();
    let letters = |name: &str| -> Vec<char> {
        name.chars().filter(char::is_ascii_alphabetic).map(|c| c.to_ascii_uppercase()).collect()
    };
    let mut marks: Vec<Option<char>> = vec![None; names.len()];
    for (i, name) in names.iter().enumerate() {
        if let Some(&first) = letters(name).first()
            && !marks.contains(&Some(first))
        {
            marks[i] = Some(first);
        }
    }
    for (i, name) in names.iter().enumerate() {
        if marks[i].is_none() {
            let spare = ('A'..='Z').chain('0'..='9').chain('a'..='z');
            let free = letters(name).into_iter().chain(spare).find(|c| !marks.contains(&Some(*c)));
            marks[i] = Some(free.unwrap_or('?'));
        }
    }
    marks.into_iter().map(|m| m.unwrap_or('?')).collect()
}

/// Each seat's player's faces over the recorded games, read when the dice panel opens
/// ([`crate::dice::history`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DiceHistory {
    /// Per seat: the faces of this game's die, and the recorded games read (`None`: nothing
    /// could be read).
    pub(crate) seats: Vec<Option<(snl_analysis::fairness::FaceCounts, usize)>>,
    /// What the histories are over, or why there are none: a sentence.
    pub(crate) over: String,
}
