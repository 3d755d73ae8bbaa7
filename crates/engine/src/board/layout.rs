//! The boustrophedon drawing geometry of a board.

/// √N when N is a perfect square, else 10.
pub fn default_width(size: u32) -> u32 {
    let root = f64::from(size).sqrt().round() as u32;
    if root * root == size && root > 0 { root } else { 10.min(size.max(1)) }
}

/// Where cells are drawn: boustrophedon from the bottom-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    size: u32,
    width: u32,
}

impl Layout {
    /// A layout of `size` cells, `width` to a row.
    ///
    /// # Panics
    ///
    /// Panics if `width` is 0.
    pub fn new(size: u32, width: u32) -> Layout {
        assert!(width > 0, "a row holds at least one cell");
        Layout { size, width }
    }

    /// Number of rows.
    pub fn rows(&self) -> u32 {
        self.size.div_ceil(self.width)
    }

    /// Cells per row.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// `(row, column)` of `cell`, row 0 at the bottom, column 0 at the left.
    pub fn position(&self, cell: u32) -> (u32, u32) {
        let i = cell - 1;
        let row = i / self.width;
        let along = i % self.width;
        let column = if row % 2 == 0 { along } else { self.width - 1 - along };
        (row, column)
    }

    /// The cell at `(row, column)`, if that place holds one.
    pub fn cell_at(&self, row: u32, column: u32) -> Option<u32> {
        if column >= self.width {
            return None;
        }
        let along = if row % 2 == 0 { column } else { self.width - 1 - column };
        let cell = row * self.width + along + 1;
        (cell <= self.size).then_some(cell)
    }
}
