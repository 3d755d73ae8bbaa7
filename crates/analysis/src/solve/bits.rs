//! A fixed set of cells, one bit each, with the few bulk operations the solver needs.
//!
//! A board of 10^8 cells takes 12.5 MB per set, against 400 MB for a table of `u32`; and the
//! solver's inner loops work a word (64 cells) at a time.

/// A set of cells `0..len`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bits {
    words: Vec<u64>,
    // ranks[w] = how many cells below 64·w are in the set; empty until `index_ranks` is called.
    ranks: Vec<u32>,
}

/// The bits of word `w` that fall in `lo..=hi` (both may lie outside the word).
#[inline]
fn mask(w: usize, lo: u32, hi: u32) -> u64 {
    let base = (w as u64) << 6;
    let mut m = !0_u64;
    if u64::from(lo) > base {
        m &= !0_u64 << (u64::from(lo) - base);
    }
    if u64::from(hi) < base + 63 {
        m &= !0_u64 >> (base + 63 - u64::from(hi));
    }
    m
}

impl Bits {
    /// An empty set able to hold cells `0..len`.
    pub(crate) fn new(len: usize) -> Bits {
        Bits { words: vec![0; len.div_ceil(64)], ranks: Vec::new() }
    }

    /// Whether `cell` is in the set.
    #[inline]
    pub(crate) fn contains(&self, cell: u32) -> bool {
        self.words[(cell >> 6) as usize] >> (cell & 63) & 1 != 0
    }

    /// Adds `cell`.
    #[inline]
    pub(crate) fn insert(&mut self, cell: u32) {
        self.words[(cell >> 6) as usize] |= 1 << (cell & 63);
    }

    /// Builds the rank index behind [`Bits::rank`]; call it once the set is final.
    pub(crate) fn index_ranks(&mut self) {
        let mut below = 0_u32;
        self.ranks = self
            .words
            .iter()
            .map(|w| {
                let r = below;
                below += w.count_ones();
                r
            })
            .collect();
    }

    /// How many cells of the set are below `cell`: the index of `cell` among the set's cells in
    /// increasing order. Needs [`Bits::index_ranks`].
    #[inline]
    pub(crate) fn rank(&self, cell: u32) -> usize {
        let w = (cell >> 6) as usize;
        let below = self.words[w] & ((1_u64 << (cell & 63)) - 1);
        self.ranks[w] as usize + below.count_ones() as usize
    }

    /// Adds every cell of `lo..=hi` that is in neither `self` nor `blocked`, and reports each
    /// maximal run of them as `found(first, last)`, in increasing order.
    ///
    /// This is the solver's main step: "the cells a roll can newly reach in this range".
    pub(crate) fn claim_runs(
        &mut self,
        blocked: &Bits,
        lo: u32,
        hi: u32,
        mut found: impl FnMut(u32, u32),
    ) {
        let mut open: Option<u32> = None; // first cell of a run still going on
        for w in (lo >> 6) as usize..=(hi >> 6) as usize {
            let free = !(self.words[w] | blocked.words[w]) & mask(w, lo, hi);
            self.words[w] |= free;
            let base = (w as u32) << 6;
            if free == !0 {
                open.get_or_insert(base);
                continue;
            }
            let mut from = 0; // next bit to look at, always < 64
            loop {
                let rest = !0_u64 << from;
                if let Some(first) = open {
                    let stops = !free & rest;
                    if stops == 0 {
                        break;
                    }
                    let end = stops.trailing_zeros();
                    found(first, base + end - 1);
                    open = None;
                    from = end;
                } else {
                    let starts = free & rest;
                    if starts == 0 {
                        break;
                    }
                    from = starts.trailing_zeros();
                    open = Some(base + from);
                }
            }
        }
        if let Some(first) = open {
            found(first, hi);
        }
    }

    /// Removes every cell of `lo..=hi` from the set, reporting each one removed, in increasing
    /// order.
    pub(crate) fn take_range(&mut self, lo: u32, hi: u32, mut taken: impl FnMut(u32)) {
        for w in (lo >> 6) as usize..=(hi >> 6) as usize {
            let mut hits = self.words[w] & mask(w, lo, hi);
            if hits == 0 {
                continue;
            }
            self.words[w] &= !hits;
            let base = (w as u32) << 6;
            while hits != 0 {
                taken(base + hits.trailing_zeros());
                hits &= hits - 1;
            }
        }
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.words.len() * 8 + self.ranks.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(len: usize, cells: &[u32]) -> Bits {
        let mut b = Bits::new(len);
        for &c in cells {
            b.insert(c);
        }
        b
    }

    #[test]
    fn claimed_runs_skip_members_and_blocked_cells_across_word_boundaries() {
        let mut seen = set(300, &[5, 64, 200]);
        let blocked = set(300, &[10, 127, 128]);
        let mut runs = Vec::new();
        seen.claim_runs(&blocked, 3, 250, |a, b| runs.push((a, b)));
        assert_eq!(runs, [(3, 4), (6, 9), (11, 63), (65, 126), (129, 199), (201, 250)]);
        for c in 3..=250 {
            assert_eq!(seen.contains(c), !blocked.contains(c), "cell {c}");
        }
        let mut again = Vec::new();
        seen.claim_runs(&blocked, 0, 299, |a, b| again.push((a, b)));
        assert_eq!(again, [(0, 2), (251, 299)]);
    }

    #[test]
    fn a_run_filling_whole_words_is_reported_once() {
        let mut seen = Bits::new(1000);
        let mut runs = Vec::new();
        seen.claim_runs(&Bits::new(1000), 64, 511, |a, b| runs.push((a, b)));
        assert_eq!(runs, [(64, 511)]);
    }

    #[test]
    fn taken_cells_are_reported_in_order_and_removed() {
        let mut b = set(200, &[1, 63, 64, 130, 199]);
        let mut taken = Vec::new();
        b.take_range(2, 130, |c| taken.push(c));
        assert_eq!(taken, [63, 64, 130]);
        assert!(b.contains(1) && b.contains(199) && !b.contains(64));
    }

    #[test]
    fn rank_counts_the_members_below() {
        let mut b = set(300, &[0, 7, 64, 65, 299]);
        b.index_ranks();
        assert_eq!([b.rank(0), b.rank(7), b.rank(64), b.rank(65), b.rank(299)], [0, 1, 2, 3, 4]);
    }
}
