//! The pictures of the board, in one place: what each kind of cell is called, the mark the
//! console's text grid and the plots draw for it, the glyph the full-screen game draws, its
//! colour, and the line that explains it in a legend or the help. Every screen that draws a
//! board asks here, so a new cell effect is drawn, coloured and explained everywhere at once.

use snl_engine::{Board, Effect};

/// What a cell is, as a board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// A snake's head: it takes a token down.
    SnakeHead,
    /// Where a snake ends.
    SnakeTail,
    /// A ladder's foot: it takes a token up.
    LadderFoot,
    /// Where a ladder ends.
    LadderTop,
    /// A skip cell (SPEC §3b).
    Skip,
    /// An extra-roll cell.
    Extra,
    /// A shield cell.
    Shield,
    /// A wormhole.
    Wormhole,
    /// Nothing.
    Plain,
}

/// A colour, named so that each screen can make it its own (ANSI codes, ratatui colours, plot
/// colours).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hue {
    /// Snakes.
    Red,
    /// Ladders.
    Green,
    /// Skips.
    Yellow,
    /// Extra rolls.
    Cyan,
    /// Shields.
    Blue,
    /// Wormholes.
    Magenta,
    /// Plain cells.
    Plain,
}

/// How one kind of cell is drawn and explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Its name in a legend ("snake", "shield").
    pub name: &'static str,
    /// The mark of the console's text grid and the plots (ASCII).
    pub mark: &'static str,
    /// The glyph of the full-screen game (one column wide).
    pub glyph: &'static str,
    /// Its colour.
    pub hue: Hue,
    /// What it does, for the help.
    pub meaning: &'static str,
}

impl CellKind {
    /// The kinds a legend lists, in its order.
    pub const ALL: [CellKind; 8] = [
        CellKind::SnakeHead,
        CellKind::SnakeTail,
        CellKind::LadderFoot,
        CellKind::LadderTop,
        CellKind::Skip,
        CellKind::Extra,
        CellKind::Shield,
        CellKind::Wormhole,
    ];

    /// The cell effects' kinds.
    pub const EFFECTS: [CellKind; 4] =
        [CellKind::Skip, CellKind::Extra, CellKind::Shield, CellKind::Wormhole];

    /// What `cell` of `board` is: a jump's start or end first, else its effect.
    pub fn of(board: &Board, cell: u32) -> CellKind {
        match board.jump_at(cell) {
            Some(to) if to < cell => CellKind::SnakeHead,
            Some(_) => CellKind::LadderFoot,
            None => match board.effect_at(cell) {
                Some(effect) => CellKind::of_effect(effect),
                None => match board.jumps().iter().find(|j| j.to == cell) {
                    Some(j) if j.is_snake() => CellKind::SnakeTail,
                    Some(_) => CellKind::LadderTop,
                    None => CellKind::Plain,
                },
            },
        }
    }

    /// The kind of a cell holding `effect`.
    pub fn of_effect(effect: &Effect) -> CellKind {
        match effect {
            Effect::Skip => CellKind::Skip,
            Effect::Extra => CellKind::Extra,
            Effect::Shield => CellKind::Shield,
            Effect::Wormhole { .. } => CellKind::Wormhole,
        }
    }

    /// Whether `board` has a cell of this kind.
    pub fn on(self, board: &Board) -> bool {
        match self {
            CellKind::SnakeHead | CellKind::SnakeTail => board.jumps().iter().any(|j| j.is_snake()),
            CellKind::LadderFoot | CellKind::LadderTop => {
                board.jumps().iter().any(|j| !j.is_snake())
            }
            CellKind::Plain => true,
            effect => board.effects().iter().any(|e| CellKind::of_effect(&e.effect) == effect),
        }
    }

    /// How this kind is drawn and explained.
    pub fn picture(self) -> Picture {
        let (name, mark, glyph, hue, meaning) = match self {
            CellKind::SnakeHead => {
                ("snake", "v", "▼", Hue::Red, "a snake's head: it takes you down to its tail")
            }
            CellKind::SnakeTail => ("its tail", ".", "▽", Hue::Red, "where a snake ends"),
            CellKind::LadderFoot => {
                ("ladder", "^", "▲", Hue::Green, "a ladder's foot: it takes you up to its top")
            }
            CellKind::LadderTop => ("its top", "'", "△", Hue::Green, "where a ladder ends"),
            CellKind::Skip => ("skip", "x", "✕", Hue::Yellow, "skip: the next turn is missed"),
            CellKind::Extra => ("extra", "+", "+", Hue::Cyan, "extra: one more roll in the turn"),
            CellKind::Shield => ("shield", "#", "◆", Hue::Blue, "shield: stops the next snake"),
            CellKind::Wormhole => {
                ("wormhole", "@", "@", Hue::Magenta, "wormhole: to one of its exits, at random")
            }
            CellKind::Plain => ("", " ", " ", Hue::Plain, ""),
        };
        Picture { name, mark, glyph, hue, meaning }
    }
}

/// What a seat carries from the cell effects, in words for a list of players: `shield`,
/// `skips next turn`, both, or nothing.
pub fn carried(shield: bool, skip: bool) -> Option<String> {
    let marks = carried_marks(shield, skip);
    (!marks.is_empty()).then(|| marks.join(", "))
}

/// What a seat carries from the cell effects, one mark each (a badge in a list of players):
/// `shield`, `skips next turn`.
pub fn carried_marks(shield: bool, skip: bool) -> Vec<&'static str> {
    let mut marks = Vec::new();
    if shield {
        marks.push("shield");
    }
    if skip {
        marks.push("skips next turn");
    }
    marks
}

#[cfg(test)]
mod tests {
    use snl_engine::{Preset, Rules};
    use unicode_width::UnicodeWidthStr;

    use super::*;

    #[test]
    fn every_kind_has_a_name_a_one_column_glyph_and_an_ascii_mark_of_its_own() {
        let pictures: Vec<Picture> = CellKind::ALL.iter().map(|k| k.picture()).collect();
        for p in &pictures {
            assert!(!p.name.is_empty() && !p.meaning.is_empty(), "{p:?}");
            assert_eq!(p.glyph.width(), 1, "{p:?}");
            assert!(p.mark.len() == 1 && p.mark.is_ascii(), "{p:?}");
        }
        for (i, a) in pictures.iter().enumerate() {
            for b in &pictures[i + 1..] {
                assert!(a.glyph != b.glyph && a.mark != b.mark, "{a:?} and {b:?} look alike");
            }
        }
    }

    #[test]
    fn the_party_board_has_every_kind_and_each_cell_is_what_the_engine_says() {
        let board = Board::new(&Preset::Party.spec(), &Rules::default()).unwrap();
        assert!(CellKind::ALL.iter().all(|k| k.on(&board)));
        assert_eq!(CellKind::of(&board, 47), CellKind::Skip);
        assert_eq!(CellKind::of(&board, 12), CellKind::Extra);
        assert_eq!(CellKind::of(&board, 24), CellKind::Shield);
        assert_eq!(CellKind::of(&board, 45), CellKind::Wormhole);
        let classic = Board::new(&Preset::Classic.spec(), &Rules::default()).unwrap();
        assert!(CellKind::EFFECTS.iter().all(|k| !k.on(&classic)));
        assert_eq!(CellKind::of(&classic, 99), CellKind::SnakeHead);
        assert_eq!(CellKind::of(&classic, 54), CellKind::SnakeTail);
        assert_eq!(CellKind::of(&classic, 6), CellKind::LadderFoot);
        assert_eq!(CellKind::of(&classic, 69), CellKind::LadderTop);
        // A cell that starts a jump is drawn as its start (25 ends a ladder and heads a snake).
        assert_eq!(CellKind::of(&classic, 25), CellKind::SnakeHead);
    }
}
