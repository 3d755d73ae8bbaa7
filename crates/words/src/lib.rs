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
//! - [`dice_verdict`]: what a dice test's p-value means, in words; [`dice_verified`]: what a
//!   check of a game's rolls against its seed found.
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
    LegendLine, chance, clock, clock_status, clock_time, dice_verified, finished, legend,
    race_status, race_status_of, reach_verdict, room_traits, seat_default_name, standing,
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
    }
}
