//! What a person is told at a choice: the roll in words, and each option's label, with where it
//! lands and what it meets there (from the engine's one-move answer, `Board::enter` and the
//! option itself).

use std::fmt::Write as _;

use snl_engine::{AfterRoll, Bonus, Decision, Game, Meets, MoveOption, Overshoot, Roll};

/// The dice as a person reads them: `4`, or `4+2`.
pub fn roll_words(roll: Roll) -> String {
    let faces: Vec<String> = roll.dice().iter().map(u8::to_string).collect();
    faces.join("+")
}

/// One option in words: `move 4 to 23 (ladder to 45)`, `stay on 19`, `move 5: too far, stay on
/// 98`, with what a top face does under bonus rolls.
pub fn describe_option(game: &Game, decision: &Decision, option: &MoveOption) -> String {
    let (rules, position) = (game.rules(), decision.position);
    let place = |p: u32| if p == 0 { "the start".to_owned() } else { p.to_string() };
    let mut text = if option.steps == 0 {
        format!("stay on {}", place(position))
    } else {
        let board = game.board();
        let shield = option.meets == Meets::Shield;
        let entry = board.enter(rules, position, option.steps, shield);
        let steps = option.steps;
        let mut text = if entry.blocked {
            format!("move {steps}: too far, stay on {}", place(position))
        } else if entry.overshoot && rules.overshoot == Overshoot::Bounce {
            format!("move {steps}: bounce back to {}", option.landed)
        } else {
            format!("move {steps} to {}", option.landed)
        };
        match option.meets {
            Meets::Ladder => {
                let _ = write!(text, " (ladder to {})", option.lands);
            }
            Meets::Snake => {
                let _ = write!(text, " (snake to {})", option.lands);
            }
            Meets::Shield => text.push_str(" (the shield stops the snake)"),
            Meets::Wormhole => {
                let exits = board.wormhole_at(option.landed).unwrap_or_default();
                let exits: Vec<String> = exits.iter().map(u32::to_string).collect();
                let _ = write!(text, " (wormhole to one of {})", exits.join(", "));
            }
            Meets::Nothing | Meets::Blocked => {}
        }
        text
    };
    if rules.bonus == Bonus::TopFace && option.top_face && option.lands != game.board().size() {
        match rules.after_roll(decision.streak, option.top_face).0 {
            AfterRoll::Again => text.push_str(", roll again"),
            AfterRoll::Void => text.push_str(", which voids the turn"),
            AfterRoll::End => {}
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use snl_engine::{Board, Choice, Preset, Rules, Seat, SeatKind};

    use super::*;

    #[test]
    fn options_say_where_they_land_and_what_a_top_face_does() {
        let mut rules = Rules { choice: Choice::MayPass, ..Rules::named("strict-sixes").unwrap() };
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Easy)];
        let game = Game::new(board.clone(), rules, seats.clone()).unwrap();
        let say = |game: &Game, position: u32, faces: &[u8], streak: u32| -> Vec<String> {
            let roll = Roll::from_faces(faces);
            let options = game.options(position, &roll);
            let decision =
                Decision { seat: 0, position, roll, options, turn_start: position, streak };
            decision.options.iter().map(|o| describe_option(game, &decision, o)).collect()
        };
        assert_eq!(say(&game, 3, &[3], 0), ["move 3 to 6 (ladder to 25)", "stay on 3"]);
        assert_eq!(say(&game, 22, &[3], 0), ["move 3 to 25 (snake to 2)", "stay on 22"]);
        assert_eq!(
            say(&game, 0, &[6], 0),
            ["move 6 to 6 (ladder to 25), roll again", "stay on the start, roll again"]
        );
        assert_eq!(say(&game, 7, &[6], 2)[1], "stay on 7, which voids the turn");
        rules.choice = Choice::PickDie;
        let game = Game::new(board, rules, seats).unwrap();
        assert_eq!(
            say(&game, 97, &[5, 2], 0),
            ["move 5: too far, stay on 97", "move 2 to 99 (snake to 54)"]
        );
    }
}
