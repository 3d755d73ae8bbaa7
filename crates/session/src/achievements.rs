//! Achievements: a subscriber to the event stream (SPEC §6) that awards them. Pure: events in,
//! awards out — no clock, no storage. [`Achievements`] is an [`Observer`]; [`of_game`] replays a
//! finished game through it. The game database keeps each award once per player, the first time
//! it is earned ([`snl_store::Database::award`]), so "first win" is the win award kept once.
//!
//! ```
//! use snl_engine::{Dice, Event, Observer};
//! use snl_session::{Achievement, Achievements, Award};
//!
//! let mut watch = Achievements::new(Dice::D6);
//! watch.event(&Event::GameStarted { players: vec![0, 1], board_size: 100 });
//! watch.event(&Event::Ladder { player: 1, from: 28, to: 84 });
//! watch.event(&Event::GameEnded { ranking: vec![1, 0] });
//! let won = |achievement| Award { seat: 1, achievement };
//! assert!(watch.awards().contains(&won(Achievement::LongLadder)));
//! assert!(watch.awards().contains(&won(Achievement::FirstWin)));
//! ```

use snl_engine::{Dice, Event, Game, Observer};

/// What can be earned. Each is earned once per player (the first time counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Achievement {
    /// Won a game.
    FirstWin,
    /// Climbed a ladder of 50 cells or more.
    LongLadder,
    /// Was bitten by a snake whose head is on cell 90 or above, and still won the game.
    BittenAndWon,
    /// Rolled every top face three times in one turn.
    ThreeTopFaces,
    /// A shield stopped a snake.
    ShieldStoppedSnake,
    /// Won the game after beginning their last turn behind every other player.
    FromLastPlace,
    /// Won a game without being bitten by a single snake.
    CleanWin,
}

impl Achievement {
    /// Every achievement, in the order they are listed.
    pub const ALL: [Achievement; 7] = [
        Achievement::FirstWin,
        Achievement::LongLadder,
        Achievement::BittenAndWon,
        Achievement::ThreeTopFaces,
        Achievement::ShieldStoppedSnake,
        Achievement::FromLastPlace,
        Achievement::CleanWin,
    ];

    /// The name it is stored and written under (`first_win`).
    pub fn key(self) -> &'static str {
        match self {
            Achievement::FirstWin => "first_win",
            Achievement::LongLadder => "long_ladder",
            Achievement::BittenAndWon => "bitten_and_won",
            Achievement::ThreeTopFaces => "three_top_faces",
            Achievement::ShieldStoppedSnake => "shield_stopped_snake",
            Achievement::FromLastPlace => "from_last_place",
            Achievement::CleanWin => "clean_win",
        }
    }

    /// Its words: title and what earns it (`snl_words`, the one copy every front end shows).
    fn words(self) -> &'static snl_words::AchievementWords {
        // Every key has its words: `words_for_every_achievement` checks it.
        snl_words::achievement(self.key()).unwrap_or(&snl_words::ACHIEVEMENTS[0])
    }

    /// Its title for people ("First win").
    pub fn title(self) -> &'static str {
        self.words().title
    }

    /// What earns it, in words.
    pub fn description(self) -> &'static str {
        self.words().description
    }

    /// The achievement stored as `key`, if this snl knows it.
    pub fn from_key(key: &str) -> Option<Achievement> {
        Achievement::ALL.into_iter().find(|a| a.key() == key)
    }
}

/// An achievement earned by a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Award {
    /// The seat (index in the game's seating order).
    pub seat: usize,
    /// What it earned.
    pub achievement: Achievement,
}

/// How long a ladder must be (in cells) to earn [`Achievement::LongLadder`].
pub const LONG_LADDER: u32 = 50;
/// The lowest snake head that counts for [`Achievement::BittenAndWon`].
pub const HIGH_BITE: u32 = 90;
/// Top-face rolls in one turn that earn [`Achievement::ThreeTopFaces`].
pub const TOP_FACES: u32 = 3;

/// Watches one game's events and awards achievements as they are earned (each at most once
/// per seat and game).
#[derive(Clone, Debug)]
pub struct Achievements {
    faces: u32,
    positions: Vec<u32>,
    /// Top-face rolls in the turn under way.
    top_faces: u32,
    bitten: Vec<bool>,
    bitten_high: Vec<bool>,
    /// Whether each seat began its latest turn behind every other seat.
    behind: Vec<bool>,
    awards: Vec<Award>,
}

impl Achievements {
    /// A watcher for a game thrown with `dice` (a top face is a die showing its highest face).
    pub fn new(dice: Dice) -> Achievements {
        Achievements {
            faces: dice.faces(),
            positions: Vec::new(),
            top_faces: 0,
            bitten: Vec::new(),
            bitten_high: Vec::new(),
            behind: Vec::new(),
            awards: Vec::new(),
        }
    }

    /// The awards so far, in the order they were earned.
    pub fn awards(&self) -> &[Award] {
        &self.awards
    }

    fn award(&mut self, seat: usize, achievement: Achievement) {
        let award = Award { seat, achievement };
        if !self.awards.contains(&award) {
            self.awards.push(award);
        }
    }

    /// Makes room for `seat` (a stream may begin without `game_started`).
    fn seat(&mut self, seat: usize) {
        if self.positions.len() <= seat {
            self.positions.resize(seat + 1, 0);
            self.bitten.resize(seat + 1, false);
            self.bitten_high.resize(seat + 1, false);
            self.behind.resize(seat + 1, false);
        }
    }

    fn moved(&mut self, seat: usize, to: u32) {
        self.seat(seat);
        self.positions[seat] = to;
    }
}

impl Observer for Achievements {
    fn event(&mut self, event: &Event) {
        match *event {
            Event::GameStarted { ref players, .. } => {
                if let Some(&last) = players.iter().max() {
                    self.seat(last);
                }
            }
            Event::TurnStarted { player, position } => {
                self.moved(player, position);
                self.top_faces = 0;
                let others = (0..self.positions.len()).filter(|&s| s != player);
                self.behind[player] = self.positions.len() > 1
                    && others.into_iter().all(|s| self.positions[s] > position);
            }
            Event::DiceRolled { player, ref dice, .. }
                if dice.dice().iter().all(|&f| u32::from(f) == self.faces) =>
            {
                self.top_faces += 1;
                if self.top_faces == TOP_FACES {
                    self.award(player, Achievement::ThreeTopFaces);
                }
            }
            Event::Moved { player, to, .. } | Event::Wormhole { player, to, .. } => {
                self.moved(player, to);
            }
            Event::TurnVoided { player, back_to } => self.moved(player, back_to),
            Event::Ladder { player, from, to } => {
                self.moved(player, to);
                if to.saturating_sub(from) >= LONG_LADDER {
                    self.award(player, Achievement::LongLadder);
                }
            }
            Event::Snake { player, from, to } => {
                self.moved(player, to);
                self.bitten[player] = true;
                if from >= HIGH_BITE {
                    self.bitten_high[player] = true;
                }
            }
            Event::ShieldUsed { player, .. } => {
                self.seat(player);
                self.award(player, Achievement::ShieldStoppedSnake);
            }
            Event::GameEnded { ref ranking } => {
                let Some(&winner) = ranking.first() else { return };
                self.seat(winner);
                self.award(winner, Achievement::FirstWin);
                if self.bitten_high[winner] {
                    self.award(winner, Achievement::BittenAndWon);
                }
                if !self.bitten[winner] {
                    self.award(winner, Achievement::CleanWin);
                }
                if self.behind[winner] {
                    self.award(winner, Achievement::FromLastPlace);
                }
            }
            _ => {}
        }
    }
}

/// The awards of `game`, its events replayed from the start through [`Achievements`] (none
/// for a history that does not replay, which a game played or restored never has).
pub fn of_game(game: &Game) -> Vec<Award> {
    let mut watch = Achievements::new(game.rules().dice);
    match Game::replay(&game.state(), &mut watch) {
        Ok(_) => watch.awards,
        Err(_) => Vec::new(),
    }
}

/// The awards of `game` as the database keeps them: (player name, achievement key).
pub fn named(game: &Game) -> Vec<(String, String)> {
    let seats = game.seats();
    of_game(game)
        .into_iter()
        .map(|a| (seats[a.seat].name.clone(), a.achievement.key().to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use snl_engine::{
        Board, FirstOption, Preset, Roll, Rules, ScriptedDice, Seat, SeatKind, Status,
    };

    use super::*;

    fn watch(events: &[Event]) -> Vec<Award> {
        let mut watch = Achievements::new(Dice::D6);
        for e in events {
            watch.event(e);
        }
        watch.awards
    }

    fn start() -> Event {
        Event::GameStarted { players: vec![0, 1], board_size: 100 }
    }

    fn turn(player: usize, position: u32) -> Event {
        Event::TurnStarted { player, position }
    }

    fn end(ranking: &[usize]) -> Event {
        Event::GameEnded { ranking: ranking.to_vec() }
    }

    fn award(seat: usize, achievement: Achievement) -> Award {
        Award { seat, achievement }
    }

    #[test]
    fn words_for_every_achievement() {
        let keys: Vec<&str> = Achievement::ALL.iter().map(|a| a.key()).collect();
        let worded: Vec<&str> = snl_words::ACHIEVEMENTS.iter().map(|w| w.key).collect();
        assert_eq!(keys, worded);
        assert_eq!(Achievement::CleanWin.title(), "Clean win");
    }

    #[test]
    fn the_winner_earns_a_win_and_a_clean_win_when_no_snake_bit() {
        let awards = watch(&[start(), turn(0, 0), turn(1, 0), end(&[1, 0])]);
        assert_eq!(awards, vec![award(1, Achievement::FirstWin), award(1, Achievement::CleanWin)]);
    }

    #[test]
    fn a_ladder_of_fifty_cells_earns_the_sky_ladder_and_forty_nine_does_not() {
        let long = Event::Ladder { player: 0, from: 28, to: 78 };
        let short = Event::Ladder { player: 1, from: 28, to: 77 };
        let awards = watch(&[start(), turn(0, 0), long, turn(1, 0), short]);
        assert_eq!(awards, vec![award(0, Achievement::LongLadder)]);
    }

    #[test]
    fn a_bite_on_ninety_or_above_then_a_win_earns_bitten_but_unbowed() {
        let high = Event::Snake { player: 0, from: 90, to: 40 };
        let low = Event::Snake { player: 1, from: 89, to: 40 };
        let awards = watch(&[start(), turn(0, 0), high, turn(1, 0), low, end(&[0, 1])]);
        assert_eq!(
            awards,
            vec![award(0, Achievement::FirstWin), award(0, Achievement::BittenAndWon)]
        );
        let awards = watch(&[start(), turn(1, 0), low_bite(1), end(&[1, 0])]);
        assert_eq!(awards, vec![award(1, Achievement::FirstWin)], "a bite below 90 is not it");
    }

    fn low_bite(player: usize) -> Event {
        Event::Snake { player, from: 89, to: 40 }
    }

    #[test]
    fn three_top_faces_in_one_turn_count_and_across_turns_do_not() {
        let six = |player| Event::DiceRolled { player, roll: 6, dice: Roll::from_faces(&[6]) };
        let awards = watch(&[start(), turn(0, 0), six(0), six(0), turn(1, 0), six(1), turn(0, 12)]);
        assert_eq!(awards, vec![]);
        let awards = watch(&[start(), turn(0, 0), six(0), six(0), six(0)]);
        assert_eq!(awards, vec![award(0, Achievement::ThreeTopFaces)]);
    }

    #[test]
    fn a_shield_that_stops_a_snake_is_awarded_once() {
        let used = Event::ShieldUsed { player: 1, at: 99 };
        let awards = watch(&[start(), turn(1, 0), used.clone(), turn(1, 50), used]);
        assert_eq!(awards, vec![award(1, Achievement::ShieldStoppedSnake)]);
    }

    #[test]
    fn a_win_from_behind_everyone_at_the_last_turn_earns_from_last_place() {
        let events = [
            start(),
            turn(0, 0),
            Event::Moved { player: 0, from: 0, to: 80, steps: 6 },
            turn(1, 0),
            Event::Moved { player: 1, from: 0, to: 60, steps: 6 },
            turn(0, 80),
            Event::Moved { player: 0, from: 80, to: 85, steps: 5 },
            turn(1, 60),
            Event::Ladder { player: 1, from: 60, to: 100 },
            end(&[1, 0]),
        ];
        let awards = watch(&events);
        assert!(awards.contains(&award(1, Achievement::FromLastPlace)), "{awards:?}");
        // Level is not behind.
        let level = [start(), turn(0, 0), turn(1, 0), end(&[1, 0])];
        assert!(!watch(&level).contains(&award(1, Achievement::FromLastPlace)));
    }

    #[test]
    fn a_played_game_replays_into_its_awards() {
        // Classic board, Ann: 6⇒25, 31, 37, 43, 46⇒90 (a 44-cell ladder), 94, 99⇒54 (bitten on
        // 99), 60⇒85, 91, 97, 100: she wins, bitten high; Bob's ladder 17⇒69 is 52 cells.
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
        let mut game = Game::new(board, rules, seats).unwrap();
        let rolls = "6,5,6,5,6,6,6,1,3,1,4,1,5,1,6,1,6,1,6,1,3";
        let mut dice = ScriptedDice::parse(rolls, Dice::D6).unwrap();
        while game.status() != Status::Finished {
            game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
        }
        assert_eq!(
            of_game(&game),
            vec![
                award(1, Achievement::LongLadder),
                award(0, Achievement::FirstWin),
                award(0, Achievement::BittenAndWon),
            ]
        );
    }

    #[test]
    fn every_key_reads_back_as_its_achievement() {
        for a in Achievement::ALL {
            assert_eq!(Achievement::from_key(a.key()), Some(a));
        }
        assert_eq!(Achievement::from_key("nope"), None);
    }
}
