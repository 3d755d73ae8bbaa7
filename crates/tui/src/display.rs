//! How a game looks in a terminal: the board as a grid (`board.rs`), and each event as a line of
//! plain words or of JSON (`words.rs`).

mod board;
mod words;

pub use self::{
    board::{draw_board, draw_game, effect_mark, token_marks},
    words::{JsonLines, Narrator, Sentences, agree, ordinal, rules_in_words, whom, whose},
};
