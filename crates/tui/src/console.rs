//! The terminal, read once at the edge: whether each stream is a terminal, colour, and the streams.

use std::io::{self, BufRead, IsTerminal, Write};

/// Standard streams and what is known about them.
///
/// The flags are four independent facts about the streams, hence the bools. Commands write through this, never through
/// `println!`, so the same code serves a terminal, a pipe and a test.
#[allow(clippy::struct_excessive_bools)]
pub struct Console {
    /// Whether standard input is a terminal (a person can answer).
    pub stdin_tty: bool,
    /// Whether standard output is a terminal (draw for a person, pause for computers).
    pub stdout_tty: bool,
    /// Whether standard error is a terminal (progress bars).
    pub stderr_tty: bool,
    /// Whether to colour the output.
    pub color: bool,
    pub out: Box<dyn Write>,
    pub input: Box<dyn BufRead>,
}

impl Console {
    /// The process's own streams. Colour follows the terminal, and `NO_COLOR` turns it off.
    pub fn from_environment() -> Console {
        let stdout_tty = io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Console {
            stdin_tty: io::stdin().is_terminal(),
            stdout_tty,
            stderr_tty: io::stderr().is_terminal(),
            color: stdout_tty && !no_color,
            // A person reads as the game goes (and prompts go to stderr), so a terminal gets each
            // line at once; a pipe gets big writes.
            out: if stdout_tty {
                Box::new(io::LineWriter::new(io::stdout()))
            } else {
                Box::new(io::BufWriter::new(io::stdout()))
            },
            input: Box::new(io::BufReader::new(io::stdin())),
        }
    }

    /// Asks `question`, showing `default`; an empty answer takes the default.
    ///
    /// # Errors
    ///
    /// End of input is a failure of class "could not go on" (exit 3); a failed read or write
    /// any other failure.
    pub fn ask(&mut self, question: &str, default: &str) -> crate::failure::CmdResult<String> {
        use crate::failure::{Failure, OrFail};
        write!(self.out, "{question} [{default}]: ").or_other()?;
        match self.read_line().or_other()? {
            None => Err(Failure::stuck(anyhow::anyhow!("input ended during the setup"))),
            Some(a) if a.trim().is_empty() => Ok(default.to_owned()),
            Some(a) => Ok(a.trim().to_owned()),
        }
    }

    /// Reads one line of input (without its line ending); `None` at end of input.
    ///
    /// # Errors
    ///
    /// The prompt could not be flushed, or the input could not be read.
    pub fn read_line(&mut self) -> io::Result<Option<String>> {
        self.out.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        Ok(Some(line.trim_end_matches(['\n', '\r']).to_owned()))
    }
}

impl std::fmt::Debug for Console {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Console")
            .field("stdin_tty", &self.stdin_tty)
            .field("stdout_tty", &self.stdout_tty)
            .field("color", &self.color)
            .finish_non_exhaustive()
    }
}
