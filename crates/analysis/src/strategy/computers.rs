//! The computer players a session seats: each [`Strategy`] by name, with the optimal policy
//! computed once, when the first decision needs it.

use std::sync::Arc;

use snl_engine::{Decider, Decision, Game};

use super::{Easy, HardPolicy, PlayToWin, Strategy, greedy_choice, greedy_choice_in};

/// Every computer strategy ready to choose for any seat of one game: `easy` draws from the game's
/// seed, `greedy` needs nothing, `hard` computes the optimal policy at its first decision (and
/// falls back to `greedy`, once noted, if the policy cannot be computed on a huge board), `win`
/// solves the game of the seats at the table at its first decision ([`PlayToWin`]: a person
/// counts as `hard`; 3 seats on the classic board take about a minute) and plays `hard` where
/// it is not solved (past [`super::MAX_WORK`], joint states times seats; bonus rolls, a race, more
/// than [`super::MAX_SEATS`] seats: once noted) or nothing is left to win.
///
/// ```
/// use snl_analysis::strategy::{Computers, Strategy};
/// use snl_engine::{Board, Choice, Game, Input, Pending, Preset, Roll, Rules, Seat, SeatKind};
/// let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
/// let board = Board::new(&Preset::Classic.spec(), &rules)?;
/// let seats = vec![Seat::new("Ann", SeatKind::Hard), Seat::new("Bob", SeatKind::Greedy)];
/// let mut game = Game::new(board, rules, seats)?;
/// game.apply(Input::Roll { roll: Roll::from_faces(&[6]) })?;
/// let Pending::Choice(decision) = game.pending() else { unreachable!() };
/// let mut computers = Computers::new(7);
/// assert_eq!(computers.choose(Strategy::Hard, &game, &decision), 0); // the ladder at 6
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Computers {
    easy: Easy,
    hard: Hard,
    win: Win,
    notes: Vec<String>,
}

#[derive(Debug, Default)]
enum Win {
    #[default]
    NotYet,
    Ready(Arc<PlayToWin>),
    Failed,
}

#[derive(Debug, Default)]
enum Hard {
    #[default]
    NotYet,
    Ready(Arc<HardPolicy>),
    Failed,
}

impl Computers {
    /// The strategies of a game whose dice began with `seed` (what `easy` draws from).
    pub fn new(seed: u64) -> Computers {
        Computers { easy: Easy { seed }, hard: Hard::NotYet, win: Win::NotYet, notes: Vec::new() }
    }

    /// The option `strategy` takes at `decision` in `game`.
    pub fn choose(&mut self, strategy: Strategy, game: &Game, decision: &Decision) -> usize {
        match strategy {
            Strategy::Easy => self.easy.decide(game, decision),
            Strategy::Greedy => greedy_choice_in(game, decision),
            Strategy::Hard => self.hard(game, decision),
            Strategy::Win => self.win(game, decision),
        }
    }

    fn win(&mut self, game: &Game, decision: &Decision) -> usize {
        if matches!(self.win, Win::NotYet) {
            self.win = self.solve_win(game);
        }
        let chosen = match &self.win {
            Win::Ready(win) => win.choose_in(game, decision),
            Win::NotYet | Win::Failed => None,
        };
        chosen.unwrap_or_else(|| self.hard(game, decision))
    }

    /// The game of the seats at `game`'s table solved, or why not (noted).
    fn solve_win(&mut self, game: &Game) -> Win {
        let strategies: Vec<Strategy> = game
            .seats()
            .iter()
            .map(|s| Strategy::of_kind(s.kind).unwrap_or(Strategy::Hard))
            .collect();
        if let Err(e) = PlayToWin::check_strategies(game.board(), game.rules(), &strategies) {
            self.notes
                .push(format!("the win strategy is not solved here ({e}); hard plays instead"));
            return Win::Failed;
        }
        if matches!(self.hard, Hard::NotYet) {
            self.hard = self.compute_hard(game);
        }
        let Hard::Ready(hard) = &self.hard else {
            self.notes.push("the win strategy needs the hard one, which cannot be computed".into());
            return Win::Failed;
        };
        match PlayToWin::for_strategies(hard, &strategies) {
            Ok(win) => Win::Ready(Arc::new(win)),
            Err(e) => {
                self.notes
                    .push(format!("the win strategy is not solved here ({e}); hard plays instead"));
                Win::Failed
            }
        }
    }

    /// The solved game of the `win` seats, once their first decision solved it.
    pub fn to_win(&self) -> Option<&PlayToWin> {
        match &self.win {
            Win::Ready(win) => Some(win),
            Win::NotYet | Win::Failed => None,
        }
    }

    fn hard(&mut self, game: &Game, decision: &Decision) -> usize {
        if matches!(self.hard, Hard::NotYet) {
            self.hard = self.compute_hard(game);
        }
        match &self.hard {
            Hard::Ready(policy) => policy.choose_in(game, decision),
            Hard::NotYet | Hard::Failed => greedy_choice(&decision.options),
        }
    }

    fn compute_hard(&mut self, game: &Game) -> Hard {
        match HardPolicy::new(game.board(), game.rules()) {
            Ok(policy) => Hard::Ready(Arc::new(policy)),
            Err(e) => {
                self.notes.push(format!(
                    "the hard strategy cannot be computed ({e}); greedy plays instead"
                ));
                Hard::Failed
            }
        }
    }

    /// Whether the hard strategy's policy is still to be computed: its first decision would
    /// compute it (a server computes it elsewhere first, under a deadline, and gives it with
    /// [`Computers::give_hard`] or [`Computers::hard_unavailable`]).
    pub fn hard_pending(&self) -> bool {
        matches!(self.hard, Hard::NotYet)
    }

    /// The hard strategy plays with `policy` (computed for this game's board and rules).
    pub fn give_hard(&mut self, policy: Arc<HardPolicy>) {
        self.hard = Hard::Ready(policy);
    }

    /// The hard strategy is not computed: greedy plays in its place from now on (no note is
    /// taken: the caller tells why).
    pub fn hard_unavailable(&mut self) {
        self.hard = Hard::Failed;
    }

    /// Notes for people (a strategy that could not be computed), each given once.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }
}
