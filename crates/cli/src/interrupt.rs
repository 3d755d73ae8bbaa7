//! Ctrl-C during a game at the console: the game is marked stopped and the player told how to
//! go on, wherever the loop is waiting.

use std::sync::{
    Arc, Mutex,
    atomic::{AtomicBool, AtomicU32, Ordering},
};

use snl_tui::seated::Kept;

/// What the Ctrl-C handler needs: where the game is kept and how far it got.
pub(crate) struct Interrupt {
    /// Turns played so far, kept up to date by the loop.
    pub(crate) turns: Arc<AtomicU32>,
}

/// Ctrl-C during a game: the game is marked stopped in the database (from a connection of the
/// handler's own, so it works wherever the loop is waiting), the player is told how to go on, and
/// the process ends with 130, the shell's code for an interrupt. The last finished turn is kept;
/// the turn in flight is lost.
pub(crate) fn on_ctrl_c(kept: &Kept) -> Interrupt {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    static TABLE: Mutex<Option<(Kept, Arc<AtomicU32>)>> = Mutex::new(None);
    let turns = Arc::new(AtomicU32::new(0));
    if let Ok(mut table) = TABLE.lock() {
        *table = Some((kept.clone(), turns.clone()));
    }
    if !INSTALLED.swap(true, Ordering::SeqCst) {
        let _ = ctrlc::set_handler(|| {
            let table = TABLE.lock().ok().and_then(|t| t.clone());
            let mut line = String::from("\nInterrupted: the game is stopped");
            if let Some((kept, turns)) = table {
                if let (Some(db), Some(id)) = (&kept.db, kept.game_id)
                    && let Ok(mut db) = snl_store::Database::open(db)
                {
                    let _ = db.mark_stopped(id, crate::session::now_ms());
                }
                line = format!("{line} after {} turns.", turns.load(Ordering::Relaxed));
                if let Some(how) = kept.how_to_go_on() {
                    line = format!("{line} {how}");
                }
            } else {
                line.push('.');
            }
            snl_tui::stderr_line!("{line}");
            std::process::exit(130);
        });
    }
    Interrupt { turns }
}
