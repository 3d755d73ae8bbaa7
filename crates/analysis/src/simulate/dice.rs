//! The simulation's randomness: the xoshiro256++ generator and fair dice drawn from it.
//!
//! Both are written out here, not taken from a crate, so that the stream for a seed is fixed by
//! this code alone: a seeded simulation gives the same games on every platform and release.

use snl_engine::{Dice, MAX_DICE, Roll, RollError, RollSource, splitmix64};

/// The xoshiro256++ 1.0 generator of Blackman and Vigna ("Scrambled linear pseudorandom number
/// generators", ACM TOMS 2021; reference code at <https://prng.di.unimi.it/xoshiro256plusplus.c>):
/// 256 bits of state, period 2^256 − 1, about a nanosecond per 64-bit word.
///
/// ```
/// use snl_analysis::simulate::Xoshiro256PlusPlus;
/// let mut rng = Xoshiro256PlusPlus::from_state([1, 2, 3, 4]);
/// assert_eq!(rng.next_u64(), 41_943_041); // the reference implementation's first output
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xoshiro256PlusPlus {
    s: [u64; 4],
}

impl Xoshiro256PlusPlus {
    /// A generator with exactly this state.
    ///
    /// # Panics
    ///
    /// Panics if every word is zero: that state is a fixed point of the generator.
    pub fn from_state(s: [u64; 4]) -> Xoshiro256PlusPlus {
        assert!(s != [0; 4], "the all-zero state of xoshiro256++ never leaves zero");
        Xoshiro256PlusPlus { s }
    }

    /// A generator whose state is four successive SplitMix64 outputs from `seed`, as the
    /// generator's authors recommend. SplitMix64 never gives four zeros in a row, so every seed is
    /// usable.
    pub fn seed_from_u64(seed: u64) -> Xoshiro256PlusPlus {
        let mut state = seed;
        let s = [(); 4].map(|()| splitmix64(&mut state));
        Xoshiro256PlusPlus { s }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }
}

/// Fair faces of an `F`-sided die, many per random word, with no bias at all.
///
/// Each 64-bit word `w` from [`Xoshiro256PlusPlus`] stands for the number
/// `X = ⌊w·F^k / 2^64⌋`, uniform on `0..F^k` once Lemire's rejection step has thrown away the few
/// words whose low product `w·F^k mod 2^64` falls below `2^64 mod F^k` (D. Lemire, "Fast random
/// integer generation in an interval", ACM TOMS 2019). The `k` base-`F` digits of `X` are then
/// independent fair faces, and they come out most significant first by multiplying the word by
/// `F` again and again: the high half of each product is the next digit, the low half is kept.
///
/// `k` is the largest power with `F^k ≤ 2^58`, so a word is thrown away less than once in 64
/// (for a six-sided die `k = 22` and about one word in a thousand is thrown away).
///
/// The stream is also a [`RollSource`], so the engine's [`Game`](snl_engine::Game) can play
/// exactly the games the simulation plays.
///
/// ```
/// use snl_analysis::simulate::DiceStream;
/// let throw = |seed| {
///     let mut dice = DiceStream::new(seed, 6);
///     (0..1000).map(|_| dice.face()).collect::<Vec<u32>>()
/// };
/// assert!(throw(7).iter().all(|f| (1..=6).contains(f)));
/// assert_eq!(throw(7), throw(7)); // a seed fixes the stream
/// assert_ne!(throw(7), throw(8));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceStream {
    rng: Xoshiro256PlusPlus,
    faces: u64,
    /// Faces per accepted word, `k`.
    per_word: u32,
    /// `F^k`.
    power: u64,
    /// `2^64 mod F^k`: words whose low product falls below this are thrown away.
    threshold: u64,
    /// What is left of the current word (the low half of the last product).
    rest: u64,
    /// Faces still to be taken from the current word.
    left: u32,
}

/// The largest `F^k` a word is split into: `2^58` keeps rejections below one word in 64.
const MAX_POWER: u64 = 1 << 58;

impl DiceStream {
    /// Dice of `faces` faces whose stream is fixed by `seed` (through
    /// [`Xoshiro256PlusPlus::seed_from_u64`]).
    ///
    /// # Panics
    ///
    /// Panics if `faces` is below 2.
    pub fn new(seed: u64, faces: u32) -> DiceStream {
        DiceStream::from_rng(Xoshiro256PlusPlus::seed_from_u64(seed), faces)
    }

    /// Dice of `faces` faces drawn from `rng`.
    ///
    /// # Panics
    ///
    /// Panics if `faces` is below 2.
    pub fn from_rng(rng: Xoshiro256PlusPlus, faces: u32) -> DiceStream {
        assert!(faces >= 2, "a die has at least 2 faces, got {faces}");
        let f = u64::from(faces);
        let (mut power, mut per_word) = (f, 1);
        while power <= MAX_POWER / f {
            power *= f;
            per_word += 1;
        }
        let threshold = power.wrapping_neg() % power;
        DiceStream { rng, faces: f, per_word, power, threshold, rest: 0, left: 0 }
    }

    /// The number of faces of the die.
    pub fn faces(&self) -> u32 {
        self.faces as u32
    }

    /// How many faces one accepted random word gives.
    pub fn faces_per_word(&self) -> u32 {
        self.per_word
    }

    /// One fair face, in `1..=faces`.
    #[inline]
    pub fn face(&mut self) -> u32 {
        if self.left == 0 {
            self.rest = self.accepted_word();
            self.left = self.per_word;
        }
        self.left -= 1;
        let product = u128::from(self.rest) * u128::from(self.faces);
        self.rest = product as u64;
        (product >> 64) as u32 + 1
    }

    /// The next word that passes Lemire's test.
    #[cold]
    #[inline(never)]
    fn accepted_word(&mut self) -> u64 {
        loop {
            let word = self.rng.next_u64();
            // The low half of word·F^k is all Lemire's test needs.
            if word.wrapping_mul(self.power) >= self.threshold {
                return word;
            }
        }
    }

    /// The same stream read through a [`Cursor`], which a game loop keeps in registers.
    #[inline]
    pub(crate) fn cursor(&mut self) -> Cursor<'_> {
        Cursor { rest: self.rest, left: self.left, faces: self.faces, dice: self }
    }
}

/// [`DiceStream::face`] with the current word held in local variables rather than in the stream,
/// which lives in memory: a game loop that multiplies the word in a register instead of reloading
/// it from memory for every face runs about a fifth faster. Dropping the cursor hands the rest of
/// the word back to the stream, so the faces drawn are exactly those of [`DiceStream::face`].
pub(crate) struct Cursor<'a> {
    dice: &'a mut DiceStream,
    rest: u64,
    left: u32,
    faces: u64,
}

impl Cursor<'_> {
    /// One fair face, in `1..=faces`.
    #[inline]
    pub(crate) fn face(&mut self) -> u32 {
        if self.left == 0 {
            self.rest = self.dice.accepted_word();
            self.left = self.dice.per_word;
        }
        self.left -= 1;
        let product = u128::from(self.rest) * u128::from(self.faces);
        self.rest = product as u64;
        (product >> 64) as u32 + 1
    }
}

impl Cursor<'_> {
    /// The generator behind the stream, for draws ([`Draw::from`]): a draw takes a whole new
    /// word, not a face of the current one, so a cursor and the stream draw alike. Handing out
    /// the generator rather than the cursor lets the cursor's word stay in registers.
    #[inline]
    pub(crate) fn rng(&mut self) -> &mut Xoshiro256PlusPlus {
        &mut self.dice.rng
    }
}

/// An unbiased draw in `0..count` by Lemire's method on whole words, with its rejection
/// threshold worked out once (a wormhole draws among the same exits again and again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Draw {
    count: u64,
    /// `2^64 mod count`: words whose low product falls below this are thrown away.
    threshold: u64,
}

impl Draw {
    /// A draw among `count` (at least 1) outcomes.
    pub(crate) fn new(count: u32) -> Draw {
        let count = u64::from(count.max(1));
        Draw { count, threshold: count.wrapping_neg() % count }
    }

    /// One draw from `rng`.
    #[inline]
    pub(crate) fn from(self, rng: &mut Xoshiro256PlusPlus) -> u32 {
        loop {
            let product = u128::from(rng.next_u64()) * u128::from(self.count);
            if product as u64 >= self.threshold {
                return (product >> 64) as u32;
            }
        }
    }
}

impl Drop for Cursor<'_> {
    #[inline]
    fn drop(&mut self) {
        self.dice.rest = self.rest;
        self.dice.left = self.left;
    }
}

impl RollSource for DiceStream {
    /// Throws `dice.count()` faces from the stream, in order.
    ///
    /// # Panics
    ///
    /// Panics if `dice` has another number of faces than this stream.
    fn roll(&mut self, _seat: usize, dice: Dice) -> Result<Roll, RollError> {
        assert_eq!(
            dice.faces(),
            self.faces(),
            "the dice stream was made for {}-sided dice",
            self.faces
        );
        let mut faces = [0_u8; MAX_DICE as usize];
        let faces = &mut faces[..dice.count() as usize];
        for face in faces.iter_mut() {
            *face = self.face() as u8;
        }
        Ok(Roll::from_faces(faces))
    }

    /// An unbiased draw in `0..count` (Lemire's method on a whole word of the stream).
    fn draw(&mut self, _seat: usize, count: u32) -> Result<u32, RollError> {
        let draw = Draw::new(count);
        Ok(draw.from(&mut self.rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xoshiro_matches_the_reference_implementation() {
        // Outputs of the reference C code (https://prng.di.unimi.it/xoshiro256plusplus.c) from
        // the state {1, 2, 3, 4}, as also checked by rand_xoshiro's test
        // (rust-random/rngs, rand_xoshiro/src/xoshiro256plusplus.rs).
        let expected: [u64; 10] = [
            41_943_041,
            58_720_359,
            3_588_806_011_781_223,
            3_591_011_842_654_386,
            9_228_616_714_210_784_205,
            9_973_669_472_204_895_162,
            14_011_001_112_246_962_877,
            12_406_186_145_184_390_807,
            15_849_039_046_786_891_736,
            10_450_023_813_501_588_000,
        ];
        let mut rng = Xoshiro256PlusPlus::from_state([1, 2, 3, 4]);
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
    }

    #[test]
    fn digits_taken_by_multiplying_are_lemires_number_in_base_f() {
        // The derivation in DiceStream's docs: after k steps the digits spell ⌊w·F^k/2^64⌋ and
        // what is left is w·F^k mod 2^64, the number Lemire's test looks at.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for faces in [2_u32, 3, 6, 7, 10, 20, 97, 100] {
            let stream = DiceStream::new(0, faces);
            let (f, k, power) = (u128::from(faces), stream.per_word, u128::from(stream.power));
            assert_eq!(power, f.pow(k));
            assert!(power <= u128::from(MAX_POWER) && power * f > u128::from(MAX_POWER));
            for _ in 0..1000 {
                let w = rng.next_u64();
                let (mut rest, mut number) = (w, 0_u128);
                for _ in 0..k {
                    let product = u128::from(rest) * f;
                    number = number * f + (product >> 64);
                    rest = product as u64;
                }
                assert_eq!(number, (u128::from(w) * power) >> 64);
                assert_eq!(rest, w.wrapping_mul(stream.power));
            }
        }
    }

    #[test]
    fn rejection_threshold_is_two_to_the_64_mod_the_power() {
        for faces in [2_u32, 6, 7, 100] {
            let s = DiceStream::new(0, faces);
            assert_eq!(u128::from(s.threshold), (1_u128 << 64) % u128::from(s.power));
        }
        assert_eq!(DiceStream::new(0, 6).per_word, 22);
        assert_eq!(DiceStream::new(0, 2).threshold, 0, "powers of two never reject");
    }

    #[test]
    fn every_face_comes_up_equally_often() {
        // A chi-square test at a fixed seed (so it cannot flake): with F − 1 degrees of freedom
        // the statistic stays below F + 10·√(2F) with overwhelming probability for fair dice.
        for faces in [2_u32, 6, 7, 20, 100] {
            let mut dice = DiceStream::new(u64::from(faces), faces);
            let draws = 200_000_u64 * u64::from(faces).min(20);
            let mut counts = vec![0_u64; faces as usize];
            for _ in 0..draws {
                counts[dice.face() as usize - 1] += 1;
            }
            let expected = draws as f64 / f64::from(faces);
            let chi2: f64 = counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum();
            let bound = f64::from(faces) + 10.0 * (2.0 * f64::from(faces)).sqrt();
            assert!(chi2 < bound, "{faces} faces: chi-square {chi2:.1} ≥ {bound:.1}: {counts:?}");
        }
    }

    #[test]
    fn the_dice_stream_is_pinned_so_releases_cannot_change_it() {
        // If this changes, every published seed would give other simulation results.
        let mut d6 = DiceStream::new(42, 6);
        let got: Vec<u32> = (0..30).map(|_| d6.face()).collect();
        assert_eq!(got, PINNED_D6_SEED_42);
        let mut d20 = DiceStream::new(42, 20);
        let got: Vec<u32> = (0..10).map(|_| d20.face()).collect();
        assert_eq!(got, PINNED_D20_SEED_42);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
        assert_eq!(rng.next_u64(), PINNED_WORD_SEED_42);
    }
    // Also computed by an independent Python script that takes the base-F digits of Lemire's
    // number ⌊w·F^k/2^64⌋ by division rather than by repeated multiplication.
    const PINNED_D6_SEED_42: [u32; 30] =
        [5, 6, 2, 6, 3, 1, 2, 2, 6, 5, 2, 3, 1, 1, 4, 5, 4, 5, 6, 4, 3, 4, 2, 6, 3, 6, 2, 1, 6, 3];
    const PINNED_D20_SEED_42: [u32; 10] = [17, 6, 15, 9, 17, 10, 6, 16, 3, 19];
    const PINNED_WORD_SEED_42: u64 = 15_021_278_609_987_233_951;

    #[test]
    fn a_cursor_draws_the_faces_the_stream_would() {
        let mut plain = DiceStream::new(3, 6);
        let mut cursored = plain.clone();
        let expected: Vec<u32> = (0..100).map(|_| plain.face()).collect();
        let mut got = Vec::new();
        for n in [1, 7, 22, 23, 47] {
            let mut cursor = cursored.cursor();
            got.extend((0..n).map(|_| cursor.face()));
        }
        assert_eq!(got, expected);
        assert_eq!(cursored, plain);
    }

    #[test]
    fn rolls_for_the_engine_take_faces_in_order() {
        let dice = Dice::new(3, 6).unwrap();
        let mut a = DiceStream::new(5, 6);
        let mut b = a.clone();
        for _ in 0..100 {
            let roll = a.roll(0, dice).unwrap();
            assert_eq!(roll.dice(), [b.face(), b.face(), b.face()].map(|f| f as u8));
        }
    }
}
