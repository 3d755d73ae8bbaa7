//! Long work at the command line: `--max-seconds`, `--progress`, and Ctrl-C.
//!
//! The library stops on a [`Budget`] it is handed; this module makes one from the options and
//! from Ctrl-C, and shows progress on standard error. Ctrl-C ends a command with exit code 130
//! ([`Failure::interrupted`](crate::common::Failure::interrupted)) and one line saying so: work that checks the budget (simulations,
//! tournaments, the designer) stops at its next chunk and the command says how far it got; other
//! work (an exact solve) is ended at once by the handler, which prints the same line. A second
//! Ctrl-C always ends the process at once.

use std::{
    io::Write,
    sync::{
        Arc, OnceLock,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use snl_analysis::Budget;

use crate::common::progress_bar;

pub(crate) use snl_tui::failure::INTERRUPTED_EXIT;

/// Said when the time given ran out while the hard strategy, which the games need, was being
/// worked out (`simulate` and `tournament` with hard or win players): no game was played. In
/// JSON `{"complete": false, "games": 0, "partial": …}`, else a `Partial:` line; exit 0.
pub(crate) fn no_game_in_time(
    seconds: Option<f64>,
    json: bool,
    out: &mut dyn Write,
) -> crate::common::CmdResult {
    use crate::common::OrFail as _;
    let sentence = format!(
        "--max-seconds {} ran out while the hard strategy the players need was being worked \
         out: no game was played; give it more time",
        seconds.unwrap_or_default()
    );
    if json {
        let v = serde_json::json!({"complete": false, "games": 0, "partial": sentence});
        writeln!(out, "{v}").or_other()
    } else {
        writeln!(out, "Partial: {sentence}.").or_other()
    }
}

/// Options of every command whose work can take long.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Long runs")]
pub(crate) struct LongRunArgs {
    /// Stop after S seconds and print what is finished so far, exactly, marked as partial (0:
    /// as little as the command can give).
    #[arg(long, value_name = "S", value_parser = seconds)]
    pub(crate) max_seconds: Option<f64>,
    /// Progress on standard error: auto (a bar when it is a terminal), lines (a plain line as
    /// each percent is done, for logs), none.
    #[arg(long, value_enum, value_name = "HOW", default_value = "auto")]
    pub(crate) progress: ProgressMode,
}

/// How progress shows.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum ProgressMode {
    /// A bar when standard error is a terminal, nothing otherwise.
    #[default]
    Auto,
    /// A line on standard error as each percent is done.
    Lines,
    /// Nothing.
    None,
}

/// Parses `--max-seconds`: a number of seconds, 0 or more (clap value parser).
fn seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 1e9)
        .ok_or_else(|| format!("'{text}' is not a number of seconds from 0 to 10^9"))
}

/// Whether the work of a command checks the budget for Ctrl-C (then the command reports how far
/// it got), or Ctrl-C should end the process at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnCtrlC {
    /// The work stops at its next check of the budget's cancel flag.
    Stop,
    /// The process ends at once.
    Exit,
}

impl LongRunArgs {
    /// Starts the clock of `--max-seconds` and takes Ctrl-C: the budget the work runs on.
    pub(crate) fn start(&self, on_ctrl_c: OnCtrlC, stderr_tty: bool) -> Budget {
        let mut budget = Budget::unlimited();
        if let Some(s) = self.max_seconds {
            budget = budget.with_deadline(Instant::now() + Duration::from_secs_f64(s));
        }
        if let Some(flag) = take_ctrl_c(on_ctrl_c, stderr_tty) {
            budget = budget.with_cancel(flag);
        }
        budget
    }

    /// Progress over `total` units named `unit` ("games", "steps"), shown as asked and only
    /// when `show` (a bar also needs standard error to be a terminal).
    pub(crate) fn progress(
        &self,
        total: u64,
        unit: &'static str,
        tty: bool,
        show: bool,
    ) -> Progress {
        let bar = match self.progress {
            ProgressMode::Auto if show && tty => {
                let bar = progress_bar(total, true);
                let template = format!(
                    "{{spinner}} {{bar:24}} {{human_pos}}/{{human_len}} {unit}, {{eta}} left"
                );
                bar.set_style(ProgressStyle::with_template(&template).expect("a valid template"));
                bar
            }
            _ => ProgressBar::hidden(),
        };
        let lines = (self.progress == ProgressMode::Lines && show).then(|| Lines {
            total: total.max(1),
            unit,
            done: AtomicU64::new(0),
            shown: AtomicU64::new(u64::MAX),
        });
        Progress { bar, lines }
    }

    /// A spinner with `message` for work whose progress is not counted (an exact analysis).
    pub(crate) fn spinner(&self, message: &str, tty: bool, show: bool) -> ProgressBar {
        match self.progress {
            ProgressMode::Auto if show && tty => {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                    .expect("a valid template");
                bar.set_style(style);
                bar.set_message(message.to_owned());
                bar.enable_steady_tick(Duration::from_millis(100));
                bar
            }
            ProgressMode::Lines if show => {
                snl_tui::stderr_line!("progress: {message}");
                ProgressBar::hidden()
            }
            _ => ProgressBar::hidden(),
        }
    }
}

/// Progress of counted work: a bar, plain lines, or nothing.
#[derive(Debug)]
pub(crate) struct Progress {
    bar: ProgressBar,
    lines: Option<Lines>,
}

#[derive(Debug)]
struct Lines {
    total: u64,
    unit: &'static str,
    done: AtomicU64,
    /// The last percent shown, `u64::MAX` before the first line.
    shown: AtomicU64,
}

impl Progress {
    /// `n` more units done (from any thread).
    pub(crate) fn inc(&self, n: u64) {
        self.bar.inc(n);
        if let Some(lines) = &self.lines {
            let done = lines.done.fetch_add(n, Ordering::Relaxed) + n;
            lines.show(done);
        }
    }

    /// `done` units done in all.
    pub(crate) fn set(&self, done: u64) {
        self.bar.set_position(done);
        if let Some(lines) = &self.lines {
            lines.done.store(done, Ordering::Relaxed);
            lines.show(done);
        }
    }

    /// Removes the bar.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Lines {
    /// Prints a line for the first units done and then as each whole percent is passed.
    fn show(&self, done: u64) {
        let percent = done.min(self.total) * 100 / self.total;
        let shown = self.shown.load(Ordering::Relaxed);
        let new = shown == u64::MAX || percent > shown;
        if new
            && self
                .shown
                .compare_exchange(shown, percent, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            snl_tui::stderr_line!("progress: {done} of {} {} ({percent}%)", self.total, self.unit);
        }
    }
}

/// What the Ctrl-C handler knows: the flag of the running work and what to do.
#[derive(Debug)]
struct Handler {
    flag: Arc<AtomicBool>,
    exit_at_once: AtomicBool,
    stderr_tty: AtomicBool,
}

/// Takes Ctrl-C for this process (the handler is installed once): the flag it sets, or `None`
/// when no handler could be installed (the default, ending the process, then applies).
fn take_ctrl_c(on_ctrl_c: OnCtrlC, stderr_tty: bool) -> Option<Arc<AtomicBool>> {
    static HANDLER: OnceLock<Option<Arc<Handler>>> = OnceLock::new();
    let handler = HANDLER.get_or_init(|| {
        let handler = Arc::new(Handler {
            flag: Arc::new(AtomicBool::new(false)),
            exit_at_once: AtomicBool::new(true),
            stderr_tty: AtomicBool::new(false),
        });
        let shared = Arc::clone(&handler);
        ctrlc::set_handler(move || {
            let again = shared.flag.swap(true, Ordering::SeqCst);
            if again || shared.exit_at_once.load(Ordering::SeqCst) {
                let mut err = std::io::stderr().lock();
                if shared.stderr_tty.load(Ordering::Relaxed) {
                    // Clear a progress bar's line first.
                    let _ = write!(err, "\r\x1b[2K");
                }
                let _ = writeln!(err, "snl: interrupted by Ctrl-C");
                std::process::exit(i32::from(INTERRUPTED_EXIT));
            }
        })
        .ok()
        .map(|()| handler)
    });
    let handler = handler.as_ref()?;
    handler.exit_at_once.store(on_ctrl_c == OnCtrlC::Exit, Ordering::SeqCst);
    handler.stderr_tty.store(stderr_tty, Ordering::Relaxed);
    Some(Arc::clone(&handler.flag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_seconds_must_be_a_number_of_seconds() {
        assert_eq!(seconds("0"), Ok(0.0));
        assert_eq!(seconds("2.5"), Ok(2.5));
        assert!(seconds("-1").unwrap_err().contains("'-1'"));
        assert!(seconds("soon").is_err() && seconds("inf").is_err());
    }

    #[test]
    fn lines_are_shown_once_per_percent() {
        let lines = Lines {
            total: 1000,
            unit: "games",
            done: AtomicU64::new(0),
            shown: AtomicU64::new(u64::MAX),
        };
        lines.show(1);
        assert_eq!(lines.shown.load(Ordering::Relaxed), 0);
        lines.show(9);
        lines.show(25);
        assert_eq!(lines.shown.load(Ordering::Relaxed), 2);
    }
}
