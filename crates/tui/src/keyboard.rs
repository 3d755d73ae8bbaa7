//! Where a person's answers come from: lines from a pipe or a file, or a terminal read by a
//! thread of its own (so that a line typed while the computer plays is there at the next prompt).

use std::{
    io::{self, BufRead},
    sync::mpsc,
};

/// One answer at a prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, trimmed and in lower case.
    Text(String),
    /// The input ended.
    End,
    /// The line was not UTF-8 text.
    NotText,
}

/// Where a person's answers come from.
pub enum Keyboard<'c> {
    /// A pipe or a file: lines are read in order, at the prompts. While a seat is on autopilot,
    /// a next line `a` (looked at without waiting for more input) takes the seat back at its
    /// turn.
    Lines(&'c mut dyn BufRead),
    /// A terminal: a thread reads lines as they are typed, so a line typed while the computer
    /// plays a person's seat is there at the seat's next turn, and takes it back.
    Typed(mpsc::Receiver<Line>),
}

impl std::fmt::Debug for Keyboard<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Keyboard::Lines(_) => "Keyboard::Lines",
            Keyboard::Typed(_) => "Keyboard::Typed",
        })
    }
}

impl Keyboard<'_> {
    /// Reads the terminal from a thread of its own (the only place the process's standard input
    /// is read directly: no other reader is left once the game starts).
    pub fn typed<'a>() -> Keyboard<'a> {
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || {
            let mut input = io::stdin().lock();
            loop {
                let line = read(&mut input);
                let end = line == Line::End;
                if send.send(line).is_err() || end {
                    break;
                }
            }
        });
        Keyboard::Typed(receive)
    }

    /// The next answer.
    pub fn line(&mut self) -> Line {
        match self {
            Keyboard::Lines(input) => read(*input),
            Keyboard::Typed(lines) => lines.recv().unwrap_or(Line::End),
        }
    }

    /// The next answer, if it comes within `limit` (`None` for no limit). Lines from a pipe or a
    /// file are there at once: only a terminal's can be late.
    pub fn line_within(&mut self, limit: Option<std::time::Duration>) -> Option<Line> {
        match (self, limit) {
            (Keyboard::Typed(lines), Some(limit)) => match lines.recv_timeout(limit) {
                Ok(line) => Some(line),
                Err(mpsc::RecvTimeoutError::Timeout) => None,
                Err(mpsc::RecvTimeoutError::Disconnected) => Some(Line::End),
            },
            (keyboard, _) => Some(keyboard.line()),
        }
    }

    /// Whether the person asked for their seat back while the computer played it (the answer
    /// is taken).
    pub fn take_back(&mut self) -> bool {
        match self {
            Keyboard::Lines(input) => {
                let asked = input.fill_buf().is_ok_and(|b| {
                    let line = b.split(|&c| c == b'\n').next().unwrap_or_default();
                    line.trim_ascii().eq_ignore_ascii_case(b"a") && b.contains(&b'\n')
                });
                if asked {
                    let _ = input.read_line(&mut String::new());
                }
                asked
            }
            Keyboard::Typed(lines) => lines.try_recv().is_ok(),
        }
    }

    /// How a person takes a seat back, for the note shown when autopilot goes on.
    pub fn take_back_hint(&self) -> &'static str {
        match self {
            Keyboard::Lines(_) => "a line 'a' at its turn takes it back",
            Keyboard::Typed(_) => "press Enter at any time to take it back",
        }
    }
}

/// One line of `input`, as an answer.
fn read(input: &mut dyn BufRead) -> Line {
    let mut bytes = Vec::new();
    match input.read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => Line::End,
        Ok(_) => match String::from_utf8(bytes) {
            Ok(text) => Line::Text(text.trim().to_ascii_lowercase()),
            Err(_) => Line::NotText,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_a_pipe_only_a_line_a_takes_the_seat_back() {
        let mut input: &[u8] = b"\nx\n";
        let mut keyboard = Keyboard::Lines(&mut input);
        assert!(!keyboard.take_back());
        assert_eq!(keyboard.line(), Line::Text(String::new()));
        let mut input: &[u8] = b"A\n\n";
        let mut keyboard = Keyboard::Lines(&mut input);
        assert!(keyboard.take_back());
        assert_eq!(keyboard.line(), Line::Text(String::new()));
        assert_eq!(keyboard.line(), Line::End);
    }

    #[test]
    fn a_line_that_is_not_text_is_told_apart_from_the_end() {
        let mut input: &[u8] = b"\xff\xfe\n";
        let mut keyboard = Keyboard::Lines(&mut input);
        assert_eq!(keyboard.line(), Line::NotText);
        assert_eq!(keyboard.line(), Line::End);
    }

    #[test]
    fn a_terminal_line_typed_while_the_computer_plays_is_taken_as_asking_back() {
        let (send, receive) = mpsc::channel();
        let mut keyboard = Keyboard::Typed(receive);
        assert!(!keyboard.take_back());
        send.send(Line::Text(String::new())).unwrap();
        assert!(keyboard.take_back());
        assert!(!keyboard.take_back(), "the line was used");
    }

    #[test]
    fn a_terminal_answer_may_be_late_but_a_pipe_answers_at_once() {
        let (send, receive) = mpsc::channel();
        let mut keyboard = Keyboard::Typed(receive);
        assert_eq!(keyboard.line_within(Some(std::time::Duration::ZERO)), None);
        send.send(Line::Text("q".into())).unwrap();
        assert_eq!(
            keyboard.line_within(Some(std::time::Duration::ZERO)),
            Some(Line::Text("q".into()))
        );
        drop(send);
        assert_eq!(keyboard.line_within(Some(std::time::Duration::ZERO)), Some(Line::End));
        let mut input: &[u8] = b"x\n";
        let mut keyboard = Keyboard::Lines(&mut input);
        assert_eq!(
            keyboard.line_within(Some(std::time::Duration::ZERO)),
            Some(Line::Text("x".into()))
        );
    }
}
