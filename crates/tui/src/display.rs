//! How a game looks in a terminal: the board as a grid (`board.rs`, drawn with the pictures of
//! `snl_words::CellKind`, which every screen draws from), and each event as a line of plain words
//! (`snl_words::Sentences`) or of JSON (`words.rs`).

mod board;
mod words;

pub use self::{
    board::{draw_board, draw_game, effect_mark, token_marks},
    words::{JsonLines, Narrator},
};
