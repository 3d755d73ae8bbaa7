//! Journals read back: every action's line replayed, a line cut short dropped, an edited line
//! refused.

use std::fs;

use snl_engine::{Board, FirstOption, Preset, Rules, ScriptedDice, Seat, SeatKind};

use super::*;
use crate::save::tests::positions_only;
use crate::test_dir::TestDir;

/// The game and dice after each of `turns` turns (index 0: the start), fewer when the game ends
/// first.
fn states(dice: DiceState, turns: usize) -> Vec<(Game, DiceState)> {
    let rules = Rules::named("bonus-six").unwrap();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Hard)];
    let mut now = (Game::new(board, rules, seats).unwrap(), dice);
    let mut all = vec![now.clone()];
    for _ in 0..turns {
        if now.0.play_turn(&mut now.1, &mut FirstOption, &mut ()).is_err() {
            break; // the game is over
        }
        all.push(now.clone());
    }
    all
}

/// The save of a game whose last event is number 0 (the tests' journals number nothing).
fn save_of((game, dice): &(Game, DiceState)) -> Save {
    Save::numbered(game, dice, "classic", 0)
}

/// A journal at `path` of turns 1 to 6, an undo to turn 2, a redo to turn 4 and two turns more
/// from there: every kind of line.
fn journal(path: &Path, all: &[(Game, DiceState)]) -> SaveJournal {
    let mut journal = SaveJournal::create(path, &save_of(&all[0])).unwrap();
    for i in [1, 2, 3, 4, 5, 6, 2, 4, 5, 6] {
        journal.append(&all[i].0, &all[i].1, 0, i == 6).unwrap();
    }
    journal
}

fn read(path: &Path) -> Result<Save, SaveError> {
    Save::read(path)
}

#[test]
fn every_line_is_replayed_seeded_or_scripted() {
    let dir = TestDir::new("journal-replay");
    let script = "6,2,5,1,3,6,6,4,2,2,5,3,1,4,6,1,2,3,4,5";
    let scripted = ScriptedDice::parse(script, snl_engine::Dice::D6).unwrap();
    for dice in [DiceState::seeded(21), DiceState::Scripted(scripted)] {
        let all = states(dice, 6);
        let path = dir.path().join("game.json");
        journal(&path, &all);
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 11, "{text}");
        assert!(text.starts_with("{\"format\":\"snl-save\",\"version\":4,"), "{text}");
        let back = read(&path).unwrap();
        assert_eq!(back, save_of(&all[6]));
        back.restore().unwrap();
    }
}

#[test]
fn a_last_line_cut_short_is_the_turn_in_flight_and_is_dropped() {
    let dir = TestDir::new("journal-torn");
    let all = states(DiceState::seeded(5), 6);
    let path = dir.path().join("game.json");
    let mut journal = SaveJournal::create(&path, &save_of(&all[0])).unwrap();
    for (game, dice) in &all[1..] {
        journal.append(game, dice, 0, false).unwrap();
    }
    let text = fs::read(&path).unwrap();
    let last_start = text[..text.len() - 1].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    for cut in [last_start + 1, usize::midpoint(last_start, text.len()), text.len() - 1] {
        fs::write(&path, &text[..cut]).unwrap();
        assert_eq!(read(&path).unwrap(), save_of(&all[5]), "cut at {cut}");
    }
    // Without its last line altogether, or with only line 1, the same.
    fs::write(&path, &text[..last_start]).unwrap();
    assert_eq!(read(&path).unwrap(), save_of(&all[5]));
    let first = text.iter().position(|&b| b == b'\n').unwrap();
    fs::write(&path, &text[..first]).unwrap();
    assert_eq!(read(&path).unwrap(), save_of(&all[0]));
}

#[test]
fn a_complete_line_edited_or_damaged_is_refused() {
    let dir = TestDir::new("journal-edited");
    let all = states(DiceState::seeded(9), 6);
    let path = dir.path().join("game.json");
    journal(&path, &all);
    let text = fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let with = |n: usize, line: &str| {
        let mut edited = lines.clone();
        edited[n] = line;
        edited.join("\n") + "\n"
    };
    let refused = |text: &str| {
        fs::write(&path, text).unwrap();
        read(&path).and_then(|s| s.restore().map(|_| s)).unwrap_err().to_string()
    };
    // An entry's turn count: the replay does not see it, the digest does.
    let turns = lines[3].replace("\"turns\":3", "\"turns\":30");
    assert_ne!(turns, lines[3]);
    assert_eq!(
        refused(&with(3, &turns)),
        "it was edited or damaged: its content does not match its digest"
    );
    // A position the history does not give is named.
    let last = lines[10];
    let at =
        last.find("\"seat_states\":[{\"cell\":").unwrap() + "\"seat_states\":[{\"cell\":".len();
    let moved = format!("{}1{}", &last[..at], &last[at..]);
    let e = refused(&with(10, &moved));
    assert!(e.starts_with("the game in it does not add up: Ann stands on 1"), "{e}");
    // A line that is not JSON, the digest missing, a line taken out, lines swapped.
    assert!(refused(&with(4, "{\"head\"")).starts_with("it is cut short or damaged (line 5: "));
    // A field named with a line break: the message names it as its escape, on one line.
    let odd = lines[4].replacen('{', "{\"\\n\":1,", 1);
    let e = refused(&with(4, &odd));
    assert!(e.contains("unknown field `\\n`"), "{e}");
    assert!(!e.contains('\n'), "{e:?}");
    let bare = lines[2].split(",\"digest\"").next().unwrap().to_owned() + "}";
    assert_eq!(refused(&with(2, &bare)), "line 3 has no \"digest\"");
    let mut fewer = lines.clone();
    fewer.remove(5);
    assert!(!refused(&(fewer.join("\n") + "\n")).is_empty());
    let mut swapped = lines.clone();
    swapped.swap(8, 9);
    assert!(!refused(&(swapped.join("\n") + "\n")).is_empty());
    // An undo keeping more records than there are.
    let keep = lines[7].replace("\"kept\":", "\"kept\":9");
    assert!(refused(&with(7, &keep)).starts_with("line 8 keeps "), "{keep}");
}

#[test]
fn many_undos_make_one_whole_rewrite_and_a_history_that_disagrees_another() {
    let dir = TestDir::new("journal-rewrite");
    let all = states(DiceState::seeded(3), 8);
    let path = dir.path().join("game.json");
    let mut journal = SaveJournal::create(&path, &save_of(&all[0])).unwrap();
    let (mut lines, mut most) = (1, 1);
    for _ in 0..=SaveJournal::REWRITE_AFTER_UNDONE / 8 {
        for i in [8, 0] {
            journal.append(&all[i].0, &all[i].1, 0, false).unwrap();
            let now = fs::read_to_string(&path).unwrap().lines().count();
            assert!(now == lines + 1 || now == 1, "{lines} then {now}");
            (lines, most) = (now, most.max(now));
        }
    }
    assert!(lines < most, "rewritten once: {lines} lines, at most {most}");
    assert_eq!(read(&path).unwrap(), save_of(&all[0]));
    // Another game of the same length: its history is not the file's, so it is written whole.
    let other = states(DiceState::seeded(4), 8);
    journal.append(&all[4].0, &all[4].1, 0, false).unwrap();
    journal.append(&other[5].0, &other[5].1, 0, true).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 1);
    assert_eq!(read(&path).unwrap(), save_of(&other[5]));
}

#[test]
fn a_journal_written_before_seat_states_were_kept_is_read_by_its_digests_and_cells() {
    let dir = TestDir::new("journal-positions");
    let all = states(DiceState::seeded(9), 6);
    let path = dir.path().join("game.json");
    journal(&path, &all);
    let text = fs::read_to_string(&path).unwrap();
    let mut previous = String::new();
    let mut old = String::new();
    for (i, line) in text.lines().enumerate() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        let place = if i == 0 { "game" } else { "head" };
        v[place] = positions_only(&v[place]);
        if i == 0 {
            v["version"] = 3.into();
            v.as_object_mut().unwrap().remove("seq");
        } else {
            v["head"].as_object_mut().unwrap().remove("seq");
        }
        v.as_object_mut().unwrap().remove("digest");
        let content = v.to_string();
        let digest = if i == 0 {
            fnv1a64(content.as_bytes())
        } else {
            fnv1a64(format!("{previous}{content}").as_bytes())
        };
        previous = format!("fnv1a64:{digest:016x}");
        v["digest"] = previous.clone().into();
        old += &(v.to_string() + "\n");
    }
    assert!(old.contains("\"positions\":[") && !old.contains("seat_states"), "{old}");
    fs::write(&path, &old).unwrap();
    let back = read(&path).unwrap();
    assert_eq!(back.restore().unwrap().state(), all[6].0.state());
}

#[test]
fn the_number_of_the_last_event_is_kept_line_by_line_and_when_rewritten() {
    let dir = TestDir::new("journal-seq");
    let all = states(DiceState::seeded(4), 3);
    let path = dir.path().join("game.json");
    let mut journal =
        SaveJournal::create(&path, &Save::numbered(&all[0].0, &all[0].1, "c", 2)).unwrap();
    assert_eq!(read(&path).unwrap().seq, Some(2));
    journal.append(&all[1].0, &all[1].1, 9, false).unwrap();
    journal.append(&all[2].0, &all[2].1, 17, false).unwrap();
    assert_eq!(read(&path).unwrap().seq, Some(17));
    // An undo keeps counting: the number goes on, the history goes back.
    journal.append(&all[1].0, &all[1].1, 18, false).unwrap();
    let back = read(&path).unwrap();
    assert_eq!((back.seq, back.game.history.len()), (Some(18), all[1].0.history().len()));
    // A whole save keeps it too.
    let whole = Save::from_json(back.to_json().as_bytes()).unwrap();
    assert_eq!(whole.seq, Some(18));
}

/// Issue 29, finding 9: a journal is rewritten whole before it passes its bound, so a game of
/// any length the limit allows stays loadable (a 1.9-million-turn game once wrote 1.14 GB that
/// `--load` refused, the limit being 1 GiB then).
#[test]
fn a_journal_past_its_bound_is_rewritten_whole_and_reads_back() {
    let dir = TestDir::new("journal-compact");
    let all = states(DiceState::seeded(8), 39);
    let path = dir.path().join("game.json");
    let bound = 5_000;
    let mut journal =
        SaveJournal::create_within(&path, &save_of(&all[0]), bound, MAX_SAVE_BYTES).unwrap();
    let mut rewrites = 0;
    let mut before = fs::metadata(&path).unwrap().len();
    for (turn, (game, dice)) in all.iter().enumerate().skip(1) {
        journal.append(game, dice, 0, false).unwrap();
        let len = fs::metadata(&path).unwrap().len();
        let first = fs::read_to_string(&path).unwrap().lines().next().unwrap().len() as u64 + 1;
        assert!(len <= bound.max(2 * first), "turn {turn}: {len} bytes, line 1 {first}");
        rewrites += usize::from(len < before);
        before = len;
        assert_eq!(read(&path).unwrap(), save_of(&all[turn]), "turn {turn}");
    }
    assert!(rewrites >= 1, "{rewrites} rewrites in {} turns, {before} bytes", all.len() - 1);
}

/// A game longer than a save holds is told so, turn by turn, and the file keeps the last turn
/// that fits: never written past what is read back.
#[test]
fn a_game_longer_than_a_save_holds_is_told_so_and_the_file_still_loads() {
    let dir = TestDir::new("journal-full");
    let all = states(DiceState::seeded(8), 39);
    let path = dir.path().join("game.json");
    let line_1 = first_line(&save_of(&all[0])).0.len() as u64;
    let max = line_1 + 1_500;
    let mut journal = SaveJournal::create_within(&path, &save_of(&all[0]), max / 2, max).unwrap();
    let mut saved = 0;
    for (turn, (game, dice)) in all.iter().enumerate().skip(1) {
        match journal.append(game, dice, 0, false) {
            Ok(()) => saved = turn,
            Err(e) => {
                let said = e.to_string();
                assert!(said.contains("grown past what a save file holds"), "{said}");
                assert!(said.contains(&format!("its turn {turn} is not saved")), "{said}");
                break;
            }
        }
    }
    assert!(saved > 0 && saved + 1 < all.len(), "saved to turn {saved} of {}", all.len() - 1);
    assert!(fs::metadata(&path).unwrap().len() <= max);
    assert_eq!(read(&path).unwrap(), save_of(&all[saved]));
}
