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
        use crate::failure::Failure;
        self.ask_or_end(question, default)?
            .ok_or_else(|| Failure::stuck(anyhow::anyhow!("input ended during the setup")))
    }

    /// As [`Console::ask`], but the end of input is `None` rather than a failure: for the
    /// questions a setup may leave at their defaults once its input has ended.
    ///
    /// # Errors
    ///
    /// A failed read or write.
    pub fn ask_or_end(
        &mut self,
        question: &str,
        default: &str,
    ) -> crate::failure::CmdResult<Option<String>> {
        use crate::failure::OrFail;
        loop {
            write!(self.out, "{question} [{default}]: ").or_other()?;
            match self.read_line() {
                Ok(None) => return Ok(None),
                Ok(Some(a)) if a.trim().is_empty() => return Ok(Some(default.to_owned())),
                Ok(Some(a)) => return Ok(Some(a.trim().to_owned())),
                // One sentence, and the question again (the line was read past).
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    writeln!(self.out, "  {e}; try again.").or_other()?;
                }
                Err(e) => return Err(e).or_other(),
            }
        }
    }

    /// Reads one line of input (without its line ending); `None` at end of input. At most
    /// [`Console::MAX_LINE`] bytes of it are kept (the rest is read past), so a huge line
    /// neither fills the memory nor is echoed back whole.
    ///
    /// # Errors
    ///
    /// The prompt could not be flushed, or the input could not be read; a line that is not
    /// UTF-8 text is [`io::ErrorKind::InvalidData`] with a sentence saying so.
    pub fn read_line(&mut self) -> io::Result<Option<String>> {
        self.out.flush()?;
        let mut line = Vec::new();
        let mut ended = false;
        loop {
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            let (take, newline) = chunk
                .iter()
                .position(|&b| b == b'\n')
                .map_or((chunk.len(), false), |i| (i + 1, true));
            let room = Self::MAX_LINE.saturating_sub(line.len());
            line.extend_from_slice(&chunk[..take.min(room)]);
            self.input.consume(take);
            ended = true;
            if newline {
                break;
            }
        }
        if !ended {
            return Ok(None);
        }
        while line.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
            line.pop();
        }
        // A line cut at MAX_LINE may end inside a character: that part is dropped.
        if let Err(e) = std::str::from_utf8(&line)
            && e.error_len().is_none()
        {
            line.truncate(e.valid_up_to());
        }
        String::from_utf8(line).map(Some).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("that answer is not UTF-8 text (byte {at} is not)"),
            )
        })
    }

    /// The most bytes of an input line kept by [`Console::read_line`].
    pub const MAX_LINE: usize = 4096;
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
