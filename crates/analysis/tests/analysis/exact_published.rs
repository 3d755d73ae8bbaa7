//! The exact analysis reproduces what has been published about the Milton Bradley board
//! ("Chutes and Ladders", 1943): one player, start off the board, 1d6 (a spinner), exact landing
//! on 100 needed (overshoot stay), single jumps.
//!
//! Two layouts of the board circulate; they differ in one chute, 47 → 26 (our
//! `milton-bradley` preset, as in Althoen, King & Schilling) or 48 → 26
//! (`tests/fixtures/exact/milton-bradley-48.toml`, as in the other sources below).

use num_bigint::BigInt;
use num_rational::BigRational;
use snl_analysis::exact::{self, Analysis};
use snl_engine::{Board, BoardSpec, Preset, Rules};

fn preset() -> Analysis {
    let rules = Rules::default();
    exact::analyze(&Board::new(&Preset::MiltonBradley.spec(), &rules).unwrap(), &rules).unwrap()
}

fn chute_48() -> Analysis {
    let text = include_str!("../fixtures/exact/milton-bradley-48.toml");
    let rules = Rules::default();
    let board = Board::new(&BoardSpec::from_toml(text).unwrap(), &rules).unwrap();
    exact::analyze(&board, &rules).unwrap()
}

fn ratio(numer: &str, denom: &str) -> f64 {
    let q = BigRational::new(numer.parse::<BigInt>().unwrap(), denom.parse::<BigInt>().unwrap());
    // 40 exact decimal digits, then to f64.
    let digits = (q.numer() * BigInt::from(10).pow(40)) / q.denom();
    digits.to_string().parse::<f64>().unwrap() / 1e40
}

/// S. C. Althoen, L. King and K. Schilling, "How Long Is a Game of Snakes and Ladders?",
/// The Mathematical Gazette 77 (478), March 1993, 71–76, give the expected number of moves on
/// the Milton Bradley board as the exact fraction below (≈ 39.2251), and the shortest game as
/// seven moves; quoted in "For What It's Worth", Futility Closet, 21 September 2018,
/// <https://www.futilitycloset.com/2018/09/21/for-what-its-worth-5/>.
#[test]
fn the_milton_bradley_board_takes_althoen_king_and_schillings_exact_expected_moves() {
    let published = ratio(
        "225837582538403273407117496273279920181931269186581786048583",
        "5757472998140039232950575874628786131130999406013041613400",
    );
    let a = preset();
    assert!((a.expected_turns - published).abs() <= 1e-12 * published, "{}", a.expected_turns);
    assert!((a.expected_turns - 39.2251).abs() < 1e-4);
    assert_eq!(a.min_turns(), Some(7));
    // One move is one roll on this board: no bonus rolls.
    assert!((a.expected_rolls - a.expected_turns).abs() <= 1e-12 * published);
}

/// J. Humpherys, "Chutes and Ladders" (Brigham Young University),
/// <https://math.byu.edu/~jeffh/mathematics/games/chutes/chutes.html>: from the 101-state
/// Markov chain, minimum game length 7, expected game length 39.5984.
/// possiblywrong, "Analysis of Chutes and Ladders", 20 February 2015,
/// <https://possiblywrong.wordpress.com/2015/02/20/analysis-of-chutes-and-ladders/>: x₀ ≈ 39.5984.
#[test]
fn the_chute_48_layout_takes_the_published_39_5984_turns_and_at_least_7() {
    let a = chute_48();
    assert!((a.expected_turns - 39.5984).abs() < 5e-5, "{}", a.expected_turns);
    assert_eq!(a.min_turns(), Some(7));
}

/// possiblywrong, "Update: Chutes and Ladders is long, but not that long", 11 March 2015: the
/// shortest game, seven moves, has probability 73/46656 (about 1 in 640) for one player; with
/// two players the whole game takes x₀,₀ ≈ 52.5188 rolls in all, from the 2 × 100² chain.
#[test]
fn the_chute_48_layout_gives_possiblywrongs_seven_move_chance_and_two_player_length() {
    let a = chute_48();
    let seven = 73.0 / 46656.0;
    assert!((a.distribution.probability(7) - seven).abs() <= 1e-12 * seven);
    assert!(a.distribution.probability(6) <= 0.0, "no game is shorter than 7 moves");
    let two = a.seats(2);
    assert!((two.expected_game_rolls - 52.5188).abs() < 5e-5, "{}", two.expected_game_rolls);
    // The first seat's edge: it wins a little more than half the games.
    assert!(two.win_probability[0] > 0.5 && two.win_probability[0] < 0.51);
    assert!((two.win_probability[0] + two.win_probability[1] - 1.0).abs() < 1e-12);
}

/// toolic, "Dial up some obscure stats for the Chutes and Ladders game", `PerlMonks` (a simulation
/// of 1,000,000 games on the chute-48 layout): median 33, mode 22 ("only happens 2.5% of the
/// time"), 10% of games end in 15 moves or less, 90% in 73 or less. The exact distribution has
/// the same median, mode and deciles.
#[test]
fn the_chute_48_layout_has_the_simulated_median_mode_and_deciles() {
    let a = chute_48();
    assert_eq!(a.median_turns(), Some(33));
    assert_eq!(a.mode_turns(), Some(22));
    let mode = a.distribution.probability(22);
    assert!((mode - 0.025).abs() < 0.001, "{mode}");
    assert_eq!(a.distribution.quantile(0.1), Some(15));
    assert_eq!(a.distribution.quantile(0.9), Some(73));
}

#[test]
fn the_distribution_is_followed_until_less_than_1e_12_is_left() {
    let a = preset();
    let by = a.p_finish_by();
    assert!(a.distribution.is_complete());
    let last = a.distribution.turns();
    assert_eq!(by.len(), last + 1);
    assert!(a.distribution.survival(last) < 1e-12);
    assert!(a.distribution.survival(last - 1) >= 1e-12);
    assert!((1.0 - by[last] - a.distribution.survival(last)).abs() < 1e-14);
    assert!(by.windows(2).all(|w| w[0] <= w[1]));
    assert!(by[6] <= 0.0);
}
