//! The log of the full screen: each sentence with its tone (for its colour), told from the
//! events in the console's words.

use snl_engine::Event;

use snl_words::Sentences;

/// How many sentences the log keeps.
pub(crate) const LOG_LINES: usize = 200;

/// What a logged sentence is about, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tone {
    Plain,
    Snake,
    Ladder,
    Win,
    /// A note from the game itself (saved, nothing to undo, a key that does nothing).
    Note,
}

/// One sentence of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Said {
    pub(crate) text: String,
    pub(crate) tone: Tone,
}

/// The log's sentences for `event` (none for most rolls: they are told with their move).
pub(crate) fn said_of(sentences: &mut Sentences, event: &Event) -> Vec<Said> {
    let Some(text) = sentences.sentence(event) else { return Vec::new() };
    let tone = match event {
        Event::Snake { .. } => Tone::Snake,
        Event::Ladder { .. } | Event::ShieldUsed { .. } => Tone::Ladder,
        Event::PlayerFinished { .. } | Event::GameEnded { .. } => Tone::Win,
        _ => Tone::Plain,
    };
    text.lines().map(|line| Said { text: line.trim().to_owned(), tone }).collect()
}
