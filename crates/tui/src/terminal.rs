//! Entering and leaving the full screen. Whatever happens — `q`, Ctrl-C, an error, a lost
//! terminal, a panic — the terminal is given back as it was: cooked mode, the main screen, the
//! cursor shown. A guard restores it when dropped, and a panic hook restores it before the panic
//! message is printed (so the message is readable).

use std::{
    io::{self, Stdout, Write},
    sync::{
        Once,
        atomic::{AtomicBool, Ordering},
    },
};

use crossterm::{
    cursor, execute,
    terminal::{self, EnterAlternateScreen, LeaveAlternateScreen},
};
use ratatui::{Terminal, backend::CrosstermBackend};

/// Whether the full screen is on (so the panic hook knows whether to restore).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The full screen while it lasts; dropping it gives the terminal back.
pub(crate) struct Screen {
    pub(crate) terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl std::fmt::Debug for Screen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Screen").finish_non_exhaustive()
    }
}

impl Screen {
    /// Raw mode, the alternate screen, the cursor hidden; and the panic hook, once.
    pub(crate) fn enter() -> io::Result<Screen> {
        install_panic_hook();
        terminal::enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut stdout = io::stdout();
        if let Err(e) = execute!(stdout, EnterAlternateScreen, cursor::Hide) {
            restore();
            return Err(e);
        }
        match Terminal::new(CrosstermBackend::new(stdout)) {
            Ok(terminal) => Ok(Screen { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }

    /// Rings the terminal bell.
    pub(crate) fn bell(&mut self) -> io::Result<()> {
        let out = self.terminal.backend_mut();
        out.write_all(b"\x07")?;
        out.flush()
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

/// Gives the terminal back, once (errors are ignored: there may be no terminal left).
pub(crate) fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = terminal::disable_raw_mode();
        let _ = execute!(io::stdout(), LeaveAlternateScreen, cursor::Show);
        let _ = io::stdout().flush();
    }
}

fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_restores_the_terminal_before_its_message() {
        install_panic_hook();
        ACTIVE.store(true, Ordering::SeqCst);
        let outcome = std::panic::catch_unwind(|| panic!("on purpose"));
        assert!(outcome.is_err());
        assert!(!ACTIVE.load(Ordering::SeqCst), "the hook gave the terminal back");
    }
}
