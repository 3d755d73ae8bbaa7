//! What a room is created with (`POST /api/rooms`): the request as a client writes it, checked
//! into a [`RoomSetup`] that is stored with the room and rebuilds its game exactly.

use serde::{Deserialize, Serialize};
use snl_engine::{Board, BoardSpec, Game, Rules, Seat, SeatKind};
use unicode_normalization::UnicodeNormalization;

use crate::quote::{hidden, shown};

/// Most seats in one room.
pub const MAX_SEATS: usize = 16;
/// Most cells on a room's board (the hard strategy is computed for it).
pub const MAX_CELLS: u32 = 1000;
/// Longest name a player may take, in characters.
pub use snl_wire::names::MAX_NAME;
/// Longest turn clock, in seconds (a day).
pub const MAX_TURN_TIME: u64 = 86_400;
/// Longest game clock, in seconds (a week).
pub const MAX_GAME_TIME: u64 = 7 * 86_400;

pub use snl_wire::rooms::{BoardChoice, CreateRoom, RandomRequest, RulesChoice, SeatRequest};

/// A room's setup, checked: what is stored with the room.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct RoomSetup {
    /// What the board is called (a preset's name, or `custom`).
    pub board_name: String,
    /// The board.
    pub board: BoardSpec,
    /// The rules.
    pub rules: Rules,
    /// The seats: kind and, for computers, name.
    pub seats: Vec<SeatRequest>,
    /// The turn clock in seconds.
    pub turn_time: Option<u64>,
    /// The game clock in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_time: Option<u64>,
    /// The seed named by the request, or drawn for the board (a random board's): the dice's
    /// seed when the room has no `secret`.
    pub seed: u64,
    /// The room's secret seed, 32 bytes in lowercase hex, drawn when the request names no seed:
    /// its SHA-256 is published at once, the dice come from it and the seats' own seeds, and it
    /// is revealed when the game is over (docs/fairness.md). Stored with the room, never sent
    /// before then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// The room's place in a series (`games` asked for), if it plays one of its games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesSetup>,
}

/// Most games of a series of rooms.
pub const MAX_GAMES: u32 = 99;

/// A room's game in a series: best of `best_of`, this room's game `game`, and the wins of each
/// seat (in this room's seat order) in the games before it. The next game's room seats the
/// same people and computers moved on by one, so that the next seat starts.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct SeriesSetup {
    /// K.
    pub best_of: u32,
    /// This room's game, from 1.
    pub game: u32,
    /// Each seat's wins before this game.
    pub wins: Vec<u64>,
}

impl RoomSetup {
    /// The setup of the next game of this room's series after a game won by `winner` (a seat
    /// of this room): the seats moved on by one (this room's seat `i + 1` is the next room's
    /// seat `i`), the wins counted, the same board; a named seed goes on to the next number
    /// (the secret, if any, is drawn again by the caller). `None` when the room plays no series.
    pub fn next_game(&self, winner: Option<usize>) -> Option<RoomSetup> {
        let series = self.series.as_ref()?;
        let mut wins = series.wins.clone();
        if let Some(w) = winner.and_then(|w| wins.get_mut(w)) {
            *w += 1;
        }
        wins.rotate_left(1);
        let mut seats = self.seats.clone();
        seats.rotate_left(1);
        let game = series.game + 1;
        Some(RoomSetup {
            seats,
            seed: self.seed.wrapping_add(1),
            secret: None,
            series: Some(SeriesSetup { best_of: series.best_of, game, wins }),
            ..self.clone()
        })
    }
}

/// A room's request checked into its setup.
pub trait CheckRoom {
    /// Checks the request; `fresh_seed` is used when it names no seed.
    ///
    /// # Errors
    ///
    /// One sentence naming the value that is refused.
    fn check(self, fresh_seed: u64) -> Result<RoomSetup, String>;
}

impl CheckRoom for CreateRoom {
    fn check(self, fresh_seed: u64) -> Result<RoomSetup, String> {
        if let Some(t) = self.game_time.filter(|t| !(1..=MAX_GAME_TIME).contains(t)) {
            return Err(format!("game_time {t} is outside 1..={MAX_GAME_TIME} seconds"));
        }
        if let Some(t) = self.turn_time.filter(|t| !(1..=MAX_TURN_TIME).contains(t)) {
            return Err(format!("turn_time {t} is outside 1..={MAX_TURN_TIME} seconds"));
        }
        let seed = self.seed.unwrap_or(fresh_seed);
        let (board_name, board, rules) = self.board_and_rules(seed, MAX_CELLS)?;
        if self.seats.len() < 2 || self.seats.len() > MAX_SEATS {
            return Err(format!(
                "{} seats asked for: a room has 2 to {MAX_SEATS}",
                self.seats.len()
            ));
        }
        let mut seats = Vec::with_capacity(self.seats.len());
        for (i, seat) in self.seats.into_iter().enumerate() {
            seat.offered()?;
            let name = match (seat.kind, seat.name) {
                (SeatKind::Human, _) => None,
                (_, Some(name)) => Some(check_name(&name)?),
                // Named by what plays it, as every front end names a seat nobody named.
                (kind, None) => Some(snl_words::seat_default_name(i, kind)),
            };
            seats.push(SeatRequest { kind: seat.kind, name });
        }
        let (turn_time, game_time) = (self.turn_time, self.game_time);
        let series = match self.games {
            None | Some(1) => None,
            Some(k) if (2..=MAX_GAMES).contains(&k) => {
                Some(SeriesSetup { best_of: k, game: 1, wins: vec![0; seats.len()] })
            }
            Some(k) => return Err(format!("games {k} is outside 1..={MAX_GAMES}")),
        };
        let setup = RoomSetup {
            board_name,
            board,
            rules,
            seats,
            turn_time,
            game_time,
            seed,
            secret: None,
            series,
        };
        let names: Vec<String> =
            (0..setup.seats.len()).map(|i| format!("Seat {}", i + 1)).collect();
        setup.game(&names).map_err(|e| e.clone())?;
        check_unique(setup.seats.iter().filter_map(|s| s.name.as_deref()))?;
        Ok(setup)
    }
}

impl RoomSetup {
    /// The game with these names for the seats (a person's as taken, a computer's as set).
    ///
    /// # Errors
    ///
    /// The board's or the game's problem, as one sentence.
    pub fn game(&self, names: &[String]) -> Result<Game, String> {
        let board = Board::new(&self.board, &self.rules).map_err(|e| e.to_string())?;
        let seats = self
            .seats
            .iter()
            .zip(names)
            .map(|(s, name)| Seat::new(s.name.clone().unwrap_or_else(|| name.clone()), s.kind))
            .collect();
        Game::new(board, self.rules, seats).map_err(|e| e.to_string())
    }
}

/// A player's name, trimmed and in Unicode's composed form (NFC, so `e` + `◌́` and `é` are one
/// name), checked: 1 to [`MAX_NAME`] characters, none of them a control character nor one drawn
/// as nothing or turning the text's direction (a name holding one could pass for another).
///
/// # Errors
///
/// One sentence naming the name (its first 40 characters).
pub fn check_name(name: &str) -> Result<String, String> {
    let name: String = name.trim().nfc().collect();
    snl_wire::names::check_name(&name)
}

fn check_unique<'a>(names: impl Iterator<Item = &'a str>) -> Result<(), String> {
    let mut seen = std::collections::HashMap::new();
    for name in names {
        if let Some(first) = seen.insert(looks(name), name) {
            return Err(if first == name {
                format!("name '{}' is given to two seats", shown(name))
            } else {
                format!("names '{}' and '{}' look alike", shown(first), shown(name))
            });
        }
    }
    Ok(())
}

/// What `name` looks like: compatibility forms folded (NFKC: a full-width `Ａ` is `A`), hidden
/// characters dropped, spaces run together, `I`, `|` and `1` as `l`, `0` as `o`, lower case,
/// Cyrillic and Greek letters drawn like Latin ones as those (`А`, `о`, `ρ`), `rn` as `m`. Two
/// names that look alike may not sit in one room.
pub(crate) fn looks(name: &str) -> String {
    let mut out = String::new();
    let mut space = false;
    for c in name.nfkc().filter(|&c| !hidden(c)) {
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if std::mem::take(&mut space) {
            out.push(' ');
        }
        let c = match c {
            'I' | '|' | '1' | '\u{0406}' | '\u{04c0}' | '\u{0399}' => 'l',
            '0' => 'o',
            c => c,
        };
        out.extend(c.to_lowercase().map(latin));
    }
    out.replace("rn", "m")
}

/// The Latin letter a lower-case Cyrillic or Greek letter is drawn like, else `c`.
fn latin(c: char) -> char {
    match c {
        'а' | 'α' => 'a',
        'в' | 'β' => 'b',
        'с' | 'ϲ' => 'c',
        'ԁ' => 'd',
        'е' | 'ё' | 'ε' => 'e',
        'һ' => 'h',
        'і' | 'ι' => 'i',
        'ј' => 'j',
        'к' | 'κ' => 'k',
        'ӏ' => 'l',
        'м' => 'm',
        'п' | 'η' => 'n',
        'о' | 'ο' | 'σ' => 'o',
        'р' | 'ρ' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'т' | 'τ' => 't',
        'υ' => 'u',
        'ν' => 'v',
        'ԝ' | 'ω' => 'w',
        'х' | 'χ' => 'x',
        'у' | 'γ' => 'y',
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snl_engine::RuleSet;

    #[test]
    fn names_that_look_alike_have_one_look() {
        for (a, b) in [
            ("Ann", "ann"),
            ("Ann", "\u{0410}nn"),
            ("Ann", "A\u{200b}nn"),
            ("Ann", "\u{ff21}nn"),
            ("Ann Lee", "Ann   Lee"),
            ("Bob", "B\u{043e}b"),
            ("Ian", "lan"),
            ("Pam", "Parn"),
            ("Ola", "0la"),
            ("Pippa", "\u{0420}i\u{0440}\u{0440}\u{0430}"),
        ] {
            assert_eq!(looks(a), looks(b), "{a:?} {b:?}");
        }
        for (a, b) in [("Ann", "Anna"), ("Ann", "Ánn"), ("Zoe", "Zoë"), ("Ann Lee", "AnnLee")] {
            assert_ne!(looks(a), looks(b), "{a:?} {b:?}");
        }
    }

    fn request(json: &str) -> Result<RoomSetup, String> {
        serde_json::from_str::<CreateRoom>(json).map_err(|e| e.to_string())?.check(9)
    }

    #[test]
    fn a_bare_request_is_classic_standard_with_computer_names_filled_in() {
        let setup = request(r#"{"seats":[{"kind":"human"},{"kind":"hard"}]}"#).unwrap();
        assert_eq!(setup.board_name, "classic");
        assert_eq!(setup.rules, Rules::default());
        assert_eq!(setup.seats[1].name.as_deref(), Some("Computer (hard)"));
        assert_eq!(setup.seed, 9);
    }

    #[test]
    fn mode_and_rounds_beside_the_rules_make_a_race() {
        let setup = request(
            r#"{"rules":"three-sixes","mode":"race","rounds":4,
                "seats":[{"kind":"human"},{"kind":"hard"}]}"#,
        )
        .unwrap();
        assert_eq!(setup.rules.mode.rounds(), Some(4));
        assert_eq!(setup.rules.bonus, RuleSet::ThreeSixes.rules().bonus);
        // Rounds alone change a race the rules already asked for.
        let setup = request(
            r#"{"rules":{"mode":"race","rounds":2},"rounds":5,
                "seats":[{"kind":"human"},{"kind":"human"}]}"#,
        )
        .unwrap();
        assert_eq!(setup.rules.mode.rounds(), Some(5));
        // And `classic` beside race rules ends the race.
        let setup = request(
            r#"{"rules":{"mode":"race","rounds":2},"mode":"classic",
                "seats":[{"kind":"human"},{"kind":"human"}]}"#,
        )
        .unwrap();
        assert!(setup.rules.mode.is_classic());
    }

    #[test]
    fn named_rules_boards_as_json_and_options_are_taken() {
        let setup = request(
            r#"{"board":{"size":20,"snake":[{"head":19,"tail":2}]},"rules":{"dice":"1d4"},
                "seats":[{"kind":"human"},{"kind":"easy","name":"Robo"}],"turn_time":30,"seed":4}"#,
        )
        .unwrap();
        assert_eq!(setup.board.size, 20);
        assert_eq!(setup.rules.dice.to_string(), "1d4");
        assert_eq!(setup.turn_time, Some(30));
        let setup = request(r#"{"seats":[{"kind":"human"},{"kind":"easy"}],"game_time":600}"#);
        assert_eq!(setup.unwrap().game_time, Some(600));
        let setup =
            request(r#"{"rules":"three-sixes","seats":[{"kind":"human"},{"kind":"human"}]}"#)
                .unwrap();
        assert_eq!(setup.rules, RuleSet::ThreeSixes.rules());
    }

    #[test]
    fn a_name_is_visible_composed_and_quoted_at_most_40_characters_long() {
        assert_eq!(check_name("  Zoe\u{0301} ").as_deref(), Ok("Zo\u{e9}"));
        let long = check_name(&"N".repeat(10_000)).unwrap_err();
        assert!(long.contains(&format!("'{}…'", "N".repeat(39))) && long.len() < 120, "{long}");
        for c in
            ['\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}', '\u{202e}', '\u{2066}']
        {
            let refused = check_name(&format!("A{c}nn")).unwrap_err();
            let code = format!("U+{:04X}", u32::from(c));
            assert!(refused.contains(&code) && refused.contains("'A\\u{"), "{refused}");
        }
    }

    #[test]
    fn bad_requests_name_the_value() {
        for (json, needle) in [
            (r#"{"seats":[{"kind":"human"}]}"#, "1 seats"),
            (r#"{"board":"chess","seats":[{"kind":"human"},{"kind":"human"}]}"#, "chess"),
            (r#"{"rules":"fast","seats":[{"kind":"human"},{"kind":"human"}]}"#, "fast"),
            (r#"{"turn_time":0,"seats":[{"kind":"human"},{"kind":"human"}]}"#, "turn_time 0"),
            (r#"{"game_time":0,"seats":[{"kind":"human"},{"kind":"human"}]}"#, "game_time 0"),
            (r#"{"mode":"race","seats":[{"kind":"human"},{"kind":"human"}]}"#, "rounds"),
            (r#"{"mode":"relay","seats":[{"kind":"human"},{"kind":"human"}]}"#, "relay"),
            (r#"{"rounds":3,"seats":[{"kind":"human"},{"kind":"human"}]}"#, "rounds 3"),
            (
                r#"{"mode":"race","rounds":0,"seats":[{"kind":"human"},{"kind":"human"}]}"#,
                "rounds 0",
            ),
            (r#"{"board":{"size":5000},"seats":[{"kind":"human"},{"kind":"human"}]}"#, "5000"),
            (r#"{"seats":[{"kind":"easy","name":"A"},{"kind":"hard","name":"A"}]}"#, "'A'"),
            (
                r#"{"board":{"size":10,"snake":[{"head":3,"tail":5}]},"seats":[{"kind":"human"},{"kind":"human"}]}"#,
                "snake",
            ),
        ] {
            let error = request(json).unwrap_err();
            assert!(error.contains(needle), "{json}: {error}");
        }
    }
}
