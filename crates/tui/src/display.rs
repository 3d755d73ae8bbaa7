//! How a game looks in a terminal: the pictures of every kind of cell (`pictures.rs`, which every
//! screen draws from), the board as a grid (`board.rs`), and each event as a line of plain words
//! or of JSON (`words.rs`).

mod board;
mod pictures;
mod words;

pub use self::{
    board::{draw_board, draw_game, effect_mark, token_marks},
    pictures::{CellKind, Hue, Picture, carried},
    words::{JsonLines, Narrator, Sentences, agree, ordinal, rules_in_words, whom, whose},
};
