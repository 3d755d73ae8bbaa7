//! The words of every achievement (SPEC §6's subscriber in `snl_session::achievements` awards
//! them): its title and what earns it, by the key it is stored and sent under, and the line a
//! front end shows when a game earns one.

/// An achievement in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AchievementWords {
    /// The key it is stored and sent under (`first_win`).
    pub key: &'static str,
    /// Its title for people ("First win").
    pub title: &'static str,
    /// What earns it ("won a game").
    pub description: &'static str,
}

const fn words(
    key: &'static str,
    title: &'static str,
    description: &'static str,
) -> AchievementWords {
    AchievementWords { key, title, description }
}

/// Every achievement, in the order they are listed.
pub const ACHIEVEMENTS: [AchievementWords; 7] = [
    words("first_win", "First win", "won a game"),
    words("long_ladder", "Sky ladder", "climbed a ladder of 50 cells or more"),
    words(
        "bitten_and_won",
        "Bitten but unbowed",
        "bitten by a snake on cell 90 or above, and still won",
    ),
    words("three_top_faces", "Three top faces", "rolled every top face three times in one turn"),
    words("shield_stopped_snake", "Snake-proof", "a shield stopped a snake"),
    words(
        "from_last_place",
        "From last place",
        "won after beginning their last turn behind everyone",
    ),
    words("clean_win", "Clean win", "won without a single snake bite"),
];

/// The words of the achievement stored as `key`, if this snl knows it.
///
/// ```
/// assert_eq!(snl_words::achievement("first_win").map(|a| a.title), Some("First win"));
/// assert_eq!(snl_words::achievement("gold"), None);
/// ```
pub fn achievement(key: &str) -> Option<&'static AchievementWords> {
    ACHIEVEMENTS.iter().find(|a| a.key == key)
}

/// What a game's end shows for an achievement earned: "First win: won a game" (an unknown key,
/// from a newer snl, as it is).
///
/// ```
/// assert_eq!(snl_words::earned("long_ladder"), "Sky ladder: climbed a ladder of 50 cells or more");
/// assert_eq!(snl_words::earned("gold"), "gold");
/// ```
pub fn earned(key: &str) -> String {
    match achievement(key) {
        Some(a) => format!("{}: {}", a.title, a.description),
        None => key.to_owned(),
    }
}
