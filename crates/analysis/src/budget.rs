//! When long work stops early: a cancel flag and a deadline, both owned by the caller.
//!
//! Simulations, tournaments, the turn distribution and the board designer check a [`Budget`]
//! between pieces of work and, once it is spent, return what they have finished so far, exactly
//! as far as it goes and marked as partial. The library never installs a signal handler or keeps
//! global state: the caller sets the flag (on Ctrl-C, say) and chooses the deadline.
//!
//! ```
//! use std::sync::{Arc, atomic::{AtomicBool, Ordering}};
//! use snl_analysis::Budget;
//!
//! let cancel = Arc::new(AtomicBool::new(false));
//! let budget = Budget::unlimited().with_cancel(Arc::clone(&cancel));
//! assert!(!budget.is_spent());
//! cancel.store(true, Ordering::Relaxed);
//! assert!(budget.is_spent() && budget.is_cancelled());
//! ```

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Instant,
};

/// How long work may go on: until the caller's cancel flag is set or a deadline passes, whichever
/// comes first. [`Budget::unlimited`] (the default) never runs out.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    cancel: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
}

impl Budget {
    /// A budget that never runs out.
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// This budget, also spent as soon as `flag` is set.
    #[must_use]
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.cancel = Some(flag);
        self
    }

    /// This budget, also spent once `deadline` has passed.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Budget {
        self.deadline = Some(deadline);
        self
    }

    /// Whether the caller has cancelled the work.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Whether the deadline has passed (reads the clock when there is one).
    pub fn is_out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the work should stop now: cancelled or out of time.
    pub fn is_spent(&self) -> bool {
        self.is_cancelled() || self.is_out_of_time()
    }

    /// Whether this budget can ever run out (it has a flag or a deadline).
    pub fn is_limited(&self) -> bool {
        self.cancel.is_some() || self.deadline.is_some()
    }
}

/// Two budgets are equal when they have the same deadline and the very same cancel flag.
impl PartialEq for Budget {
    fn eq(&self, other: &Budget) -> bool {
        let same_flag = match (&self.cancel, &other.cancel) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        same_flag && self.deadline == other.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unlimited_budget_is_never_spent() {
        let budget = Budget::unlimited();
        assert!(!budget.is_spent() && !budget.is_limited());
    }

    #[test]
    fn a_deadline_already_past_is_spent_without_being_cancelled() {
        let budget = Budget::unlimited().with_deadline(Instant::now());
        assert!(budget.is_out_of_time() && budget.is_spent() && !budget.is_cancelled());
    }

    fn classic() -> (snl_engine::Board, snl_engine::Rules) {
        let rules = snl_engine::Rules::default();
        (snl_engine::Board::new(&snl_engine::Preset::Classic.spec(), &rules).unwrap(), rules)
    }

    #[test]
    fn a_simulation_out_of_time_plays_exactly_its_first_chunk() {
        let (board, rules) = classic();
        let sim = crate::simulate::Simulator::new(&board, &rules, 2).unwrap();
        let late = Budget::unlimited().with_deadline(Instant::now());
        let partial = sim.run_within(9, 50_000, &|_| {}, &late);
        assert_eq!(partial, sim.run(9, crate::simulate::CHUNK_GAMES));
    }

    #[test]
    fn a_simulation_stopped_midway_is_a_shorter_run_with_the_same_seed() {
        let (board, rules) = classic();
        let sim = crate::simulate::Simulator::new(&board, &rules, 2).unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        let budget = Budget::unlimited().with_cancel(Arc::clone(&flag));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let partial = pool.install(|| {
            sim.run_within(4, 400_000, &|_| flag.store(true, Ordering::Relaxed), &budget)
        });
        assert!(partial.games() >= crate::simulate::CHUNK_GAMES && partial.games() < 400_000);
        assert_eq!(partial, sim.run(4, partial.games()));
    }

    #[test]
    fn a_cancelled_simulation_plays_nothing() {
        let (board, rules) = classic();
        let sim = crate::simulate::Simulator::new(&board, &rules, 2).unwrap();
        let cancelled = Budget::unlimited().with_cancel(Arc::new(AtomicBool::new(true)));
        assert_eq!(sim.run_within(9, 50_000, &|_| {}, &cancelled).games(), 0);
    }

    #[test]
    fn a_distribution_out_of_time_stops_incomplete_with_exact_expectations() {
        let (board, rules) = classic();
        let options = crate::exact::Options {
            budget: Budget::unlimited().with_deadline(Instant::now()),
            ..Default::default()
        };
        let policy = snl_engine::FirstOption;
        let cut = crate::exact::analyze_with(&board, &rules, &policy, &options).unwrap();
        let full = crate::exact::analyze(&board, &rules).unwrap();
        assert!(!cut.distribution.is_complete() && full.distribution.is_complete());
        assert_eq!(cut.distribution.turns(), 0);
        assert!((cut.expected_turns - full.expected_turns).abs() < 1e-12);
    }

    #[test]
    fn budgets_are_equal_only_with_the_same_flag() {
        let flag = Arc::new(AtomicBool::new(false));
        let a = Budget::unlimited().with_cancel(Arc::clone(&flag));
        assert_eq!(a, a.clone());
        assert_ne!(a, Budget::unlimited().with_cancel(Arc::new(AtomicBool::new(false))));
    }
}
