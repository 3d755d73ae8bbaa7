//! Snakes and Ladders in words and pictures, in one place for every front end: the console, the
//! full-screen game, `join`/`watch`, `replay`, `history`, the server (which sends each event's
//! sentence and each option's label with its frames, so the browser says the same) and the
//! engine built for the browser.
//!
//! - [`Sentences`]: the sentence of every event, following a game's tokens from its events.
//! - [`describe_option`]: the label of an option at a choice (where it lands, what it meets).
//! - [`CellKind`] and [`Picture`]: the name, mark, glyph, colour and legend line of every kind of
//!   cell and effect.
//! - A game's status: [`race_status`] ("race · round 2 of 5", "race over after 5 rounds"),
//!   [`clock_status`] ("turn 0:25 · game 9:41"), [`standing`] ("finished 2nd", "2nd on 41"),
//!   [`room_traits`] ("race of 3 rounds · game clock 10:00"), [`legend`] (the kinds on a board).
//! - Rank and name words: [`ordinal`], [`agree`], [`whom`], [`whose`], [`place`].
//! - [`achievement`] and [`earned`]: the title of every achievement, what earns it, and the line
//!   a game's end shows for one.
//! - [`dice_verdict`]: what a dice test's p-value means, in words; [`dice_line`]: one row of
//!   a dice panel; [`dice_verified`]: what a check of a game's rolls against its seed found.
//!
//! Nothing here reads a terminal, a clock or a socket; it depends on the engine alone, and keeps
//! to what rustc 1.85 compiles (the browser's build).

mod achievements;
mod options;
mod pictures;
mod sentences;
mod status;

pub use achievements::{ACHIEVEMENTS, AchievementWords, achievement, earned};
pub use options::{describe_option, roll_words};
pub use pictures::{CellKind, Hue, Picture, carried, carried_marks};
pub use sentences::{Sentences, agree, ordinal, place, rules_in_words, whom, whose};
pub use status::{
    LegendLine, board_summary, chance, clock, clock_prompt, clock_status, clock_time, counted,
    dice_verified, fewest_rolls, fewest_rolls_at_best, finished, legend, race_status,
    race_status_of, reach_verdict, room_traits, seat_default_name, seat_label, series_intro,
    series_standing, standing,
};

/// What a test of dice against even chances found, in words a person can read, from its
/// p-value (the chance that fair dice look at least this uneven): "nothing unusual" down to
/// p = 0.01, then how rare it is.
pub fn dice_verdict(p_value: f64) -> &'static str {
    if p_value >= 0.01 {
        "nothing unusual"
    } else if p_value >= 0.001 {
        "rarer than 1 in 100"
    } else if p_value >= 0.000_1 {
        "rarer than 1 in 1,000"
    } else {
        "rarer than 1 in 10,000"
    }
}

/// How a dice test's p-value is written: four decimals, or "<0.0001" below.
pub fn p_text(p_value: f64) -> String {
    if p_value < 0.000_1 { "<0.0001".to_owned() } else { format!("{p_value:.4}") }
}

/// One line of a dice panel, from each face's count (face 1 first), the count each face is
/// expected and the test's p-value: "6 throws · 1:1 2:1 3:1 4:1 5:1 6:1 · expected 1.0 each ·
/// p 1.0000 · nothing unusual", or "no throws" when nothing was thrown. A die of more than 12
/// faces gives its fewest and most a face instead of every count.
pub fn dice_line(counts: &[u64], expected: f64, p_value: f64) -> String {
    let throws: u64 = counts.iter().sum();
    if throws == 0 {
        return "no throws".to_owned();
    }
    let faces = if counts.len() <= 12 {
        counts.iter().zip(1..).map(|(c, f)| format!("{f}:{c}")).collect::<Vec<_>>().join(" ")
    } else {
        let (low, high) = (counts.iter().min(), counts.iter().max());
        format!("{} to {} a face", low.unwrap_or(&0), high.unwrap_or(&0))
    };
    let word = if throws == 1 { "throw" } else { "throws" };
    format!(
        "{throws} {word} · {faces} · expected {expected:.1} each · p {} · {}",
        p_text(p_value),
        dice_verdict(p_value)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standing_and_dice_verdicts_read_naturally() {
        assert_eq!(standing(Some(2), 100, 100), "finished 2nd");
        assert_eq!(standing(None, 0, 100), "at the start");
        assert_eq!(standing(None, 41, 100), "on 41");
        assert_eq!(dice_verdict(0.5), "nothing unusual");
        assert_eq!(dice_verdict(0.01), "nothing unusual");
        assert_eq!(dice_verdict(0.009), "rarer than 1 in 100");
        assert_eq!(dice_verdict(0.0005), "rarer than 1 in 1,000");
        assert_eq!(dice_verdict(1e-9), "rarer than 1 in 10,000");
        assert_eq!(
            dice_line(&[1, 1, 1, 1, 1, 1], 1.0, 1.0),
            "6 throws · 1:1 2:1 3:1 4:1 5:1 6:1 · expected 1.0 each · p 1.0000 · nothing unusual"
        );
        assert_eq!(dice_line(&[0, 0, 0, 0, 0, 0], 0.0, 1.0), "no throws");
        assert_eq!(p_text(0.000_01), "<0.0001");
    }
}
