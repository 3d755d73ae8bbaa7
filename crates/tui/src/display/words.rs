//! Each event as a line of plain words (`snl_words::Sentences`), written by the console's
//! [`Narrator`], or as a line of JSON ([`JsonLines`]).

use std::io::{self, Write};

use snl_engine::{Event, Game, Numbered, Observer, Seat};
use snl_words::Sentences;

use super::board::{BOLD, GREEN, RED, paint};

/// Tells a game in plain words, one line per thing that happens, written to `out`.
pub struct Narrator<'w> {
    out: &'w mut dyn Write,
    color: bool,
    sentences: Sentences,
    error: Option<io::Error>,
}

impl std::fmt::Debug for Narrator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Narrator").field("sentences", &self.sentences).finish_non_exhaustive()
    }
}

impl<'w> Narrator<'w> {
    pub fn new(out: &'w mut dyn Write, color: bool, game: &Game) -> Narrator<'w> {
        Narrator { out, color, sentences: Sentences::new(game), error: None }
    }

    /// The first write error, if any (an observer cannot fail, so it keeps it for the caller).
    pub fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// Writes `text` as it is (a drawn board).
    pub fn raw(&mut self, text: &str) {
        self.line(text);
    }

    fn line(&mut self, text: &str) {
        if self.error.is_none()
            && let Err(e) = writeln!(self.out, "{text}")
        {
            self.error = Some(e);
        }
    }
}

impl Observer for Narrator<'_> {
    fn event(&mut self, event: &Event) {
        if let Some(text) = self.sentences.sentence(event) {
            let text = match event {
                Event::Snake { .. } => paint(&text, RED, self.color),
                Event::Ladder { .. } => paint(&text, GREEN, self.color),
                Event::PlayerFinished { .. } => paint(&text, BOLD, self.color),
                _ => text,
            };
            self.line(&text);
        }
    }
}

/// Writes each event as one JSON object per line (SPEC §6): the typed wire form, players by
/// name, with its sequence number.
pub struct JsonLines<'w> {
    out: &'w mut dyn Write,
    seats: Vec<Seat>,
    error: Option<io::Error>,
}

impl std::fmt::Debug for JsonLines<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonLines").field("seats", &self.seats).finish_non_exhaustive()
    }
}

impl<'w> JsonLines<'w> {
    pub fn new(out: &'w mut dyn Write, seats: &[Seat]) -> JsonLines<'w> {
        JsonLines { out, seats: seats.to_vec(), error: None }
    }

    pub fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// Writes one numbered event.
    ///
    /// # Panics
    ///
    /// Never: an event always serializes.
    pub fn write(&mut self, numbered: &Numbered<usize>) {
        if self.error.is_none() {
            let wire = Numbered { seq: numbered.seq, event: numbered.event.named(&self.seats) };
            let line = serde_json::to_string(&wire).expect("events serialize");
            if let Err(e) = writeln!(self.out, "{line}") {
                self.error = Some(e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use snl_engine::{Board, Preset, Rules, SeatKind};

    use super::*;

    fn wire(event: &Event, seats: &[Seat]) -> String {
        let mut out = Vec::new();
        let mut lines = JsonLines::new(&mut out, seats);
        lines.write(&Numbered { seq: 7, event: event.clone() });
        drop(lines);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn events_are_written_in_the_wire_form_with_names_and_numbers() {
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Easy)];
        let line = wire(&Event::Snake { player: 1, from: 52, to: 42 }, &seats);
        assert_eq!(
            line,
            "{\"seq\":7,\"type\":\"snake\",\"player\":\"Bob\",\"from\":52,\"to\":42}\n"
        );
        let line = wire(&Event::GameEnded { ranking: vec![1, 0] }, &seats);
        let back: Numbered = serde_json::from_str(&line).unwrap();
        assert_eq!(
            back.event,
            Event::GameEnded { ranking: vec!["Bob".to_owned(), "Ann".to_owned()] }
        );
        assert_eq!(back.event.indexed(&seats), Some(Event::GameEnded { ranking: vec![1, 0] }));
    }

    #[test]
    fn autopilot_is_told_in_words_and_as_json() {
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("You", SeatKind::Human)];
        let line = wire(&Event::Autopilot { player: 0, on: true }, &seats);
        assert_eq!(line, "{\"seq\":7,\"type\":\"autopilot\",\"player\":\"Ann\",\"on\":true}\n");
        let board = Board::new(&Preset::Classic.spec(), &Rules::default()).unwrap();
        let game = Game::new(board, Rules::default(), seats).unwrap();
        let mut out = Vec::new();
        let mut narrator = Narrator::new(&mut out, false, &game);
        narrator.event(&Event::Autopilot { player: 0, on: true });
        narrator.event(&Event::Autopilot { player: 0, on: false });
        narrator.event(&Event::Autopilot { player: 1, on: true });
        narrator.event(&Event::PlayerFinished { player: 1, rank: 1 });
        drop(narrator);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Ann hands the seat to the computer (autopilot on)\n\
             Ann takes the seat back (autopilot off)\n\
             You hand the seat to the computer (autopilot on)\n\
             You reached 100 and win!\n"
        );
    }
}
