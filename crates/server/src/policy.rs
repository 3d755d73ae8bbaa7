//! The hard strategy's policy for a room, computed off the runtime's workers: on the blocking
//! pool, [`POLICY_SLOTS`] at a time, each under a deadline ([`crate::Config::policy_time`]) that
//! covers waiting for a slot and building the chains (the analysis looks at its budget before
//! each row of a chain, between rounds and between sweeps). A room whose policy is not ready by
//! then plays on with the greedy strategy and says so (see `actor`). Policies computed are kept
//! per board and rules, so rooms on one board compute it once.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use snl_analysis::{Budget, strategy::HardPolicy};
use snl_engine::{Board, Rules};
use tokio::{
    sync::{Semaphore, oneshot},
    time::Instant,
};

/// Policies computed at once; more wait for a slot (within their deadline).
pub const POLICY_SLOTS: usize = 2;

/// Boards (with their rules) whose policy is kept; past it the oldest half is dropped.
const KEPT: usize = 32;

/// What a room is told when its computation ends.
pub(crate) type Outcome = Result<Arc<HardPolicy>, String>;

/// The pool of policy computations.
#[derive(Debug)]
pub(crate) struct Policies {
    slots: Arc<Semaphore>,
    time: Duration,
    kept: Mutex<HashMap<String, (u64, Arc<HardPolicy>)>>,
    uses: std::sync::atomic::AtomicU64,
}

/// A computation under way, as the room waits for it.
#[derive(Debug)]
pub(crate) struct Job {
    /// When the room stops waiting and plays greedy.
    pub(crate) deadline: Instant,
    pub(crate) outcome: oneshot::Receiver<Outcome>,
    cancel: Arc<AtomicBool>,
}

impl Job {
    /// Stops the computation (it ends at its next look at the budget).
    pub(crate) fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.cancel();
    }
}

impl Policies {
    /// A pool whose computations have `time` each.
    pub(crate) fn new(time: Duration) -> Policies {
        Policies {
            slots: Arc::new(Semaphore::new(POLICY_SLOTS)),
            time,
            kept: Mutex::default(),
            uses: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// How long a computation may take.
    pub(crate) fn time(&self) -> Duration {
        self.time
    }

    /// Starts computing the policy of `board` under `rules` (answered at once when kept);
    /// `key` names them (the room's board spec and rules as JSON).
    pub(crate) fn start(self: &Arc<Self>, board: &Board, rules: &Rules, key: String) -> Job {
        let deadline = Instant::now() + self.time;
        let cancel = Arc::new(AtomicBool::new(false));
        let (tell, outcome) = oneshot::channel();
        let now = self.uses.fetch_add(1, Ordering::Relaxed);
        let kept = {
            let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
            kept.get_mut(&key).map(|(used, policy)| {
                *used = now;
                policy.clone()
            })
        };
        if let Some(policy) = kept {
            let _ = tell.send(Ok(policy));
            return Job { deadline, outcome, cancel };
        }
        let (pool, board, rules, flag) = (self.clone(), board.clone(), *rules, cancel.clone());
        tokio::spawn(async move {
            let slot = tokio::time::timeout_at(deadline, pool.slots.clone().acquire_owned()).await;
            let Ok(Ok(slot)) = slot else {
                let _ = tell.send(Err("every slot for it was busy".to_owned()));
                return;
            };
            let budget = Budget::unlimited().with_cancel(flag).with_deadline(deadline.into_std());
            let computed = tokio::task::spawn_blocking(move || {
                let _slot = slot;
                HardPolicy::new_within(&board, &rules, &budget)
            })
            .await;
            let outcome = match computed {
                Ok(Ok(policy)) => {
                    let policy = Arc::new(policy);
                    pool.keep(key, now, &policy);
                    Ok(policy)
                }
                Ok(Err(snl_analysis::exact::AnalysisError::Stopped)) => {
                    Err(format!("it takes longer than {} s on this board", pool.time.as_secs_f64()))
                }
                Ok(Err(e)) => Err(e.to_string()),
                Err(e) => Err(format!("its computation failed: {e}")),
            };
            let _ = tell.send(outcome);
        });
        Job { deadline, outcome, cancel }
    }

    fn keep(&self, key: String, now: u64, policy: &Arc<HardPolicy>) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() >= KEPT {
            let mut ages: Vec<u64> = kept.values().map(|(used, _)| *used).collect();
            ages.sort_unstable();
            let cut = ages[ages.len() / 2];
            kept.retain(|_, (used, _)| *used > cut);
        }
        kept.insert(key, (now, policy.clone()));
    }
}
