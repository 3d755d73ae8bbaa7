//! Saves read back: exactly the game, or refused with what disagrees.

use snl_engine::{Board, FirstOption, Preset, RollSource, Rules, ScriptedDice, Seat, SeatKind};

use super::*;

fn played(turns: usize) -> (Game, DiceState) {
    let rules = Rules::named("bonus-six").unwrap();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Hard)];
    let mut game = Game::new(board, rules, seats).unwrap();
    let mut dice = DiceState::seeded(21);
    for _ in 0..turns {
        game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
    }
    (game, dice)
}

fn save_text(turns: usize) -> String {
    let (game, dice) = played(turns);
    Save::new(&game, &dice, "classic").to_json()
}

fn refused(text: &str) -> String {
    match Save::from_json(text.as_bytes()).and_then(|s| s.restore().map(|_| s)) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_save_goes_on_with_the_same_rolls_as_the_game_would() {
    let (mut game, mut dice) = played(7);
    let back = Save::from_json(Save::new(&game, &dice, "classic").to_json().as_bytes()).unwrap();
    let (mut restored, mut restored_dice) = (back.restore().unwrap(), back.dice.clone());
    let (mut a, mut b) = (Vec::new(), Vec::new());
    game.play_to_end(&mut dice, &mut FirstOption, &mut a).unwrap();
    restored.play_to_end(&mut restored_dice, &mut FirstOption, &mut b).unwrap();
    assert_eq!(a, b);
    assert_eq!(restored.state(), game.state());
}

#[test]
fn the_file_names_its_format_and_version_first() {
    let text = save_text(2);
    assert!(text.starts_with("{\n  \"format\": \"snl-save\",\n  \"version\": 4,\n"), "{text}");
    assert!(text.contains("\"generator\""), "{text}");
    assert!(text.ends_with(&format!("  \"digest\": \"{}\"\n}}\n", digest_of(&text))), "{text}");
}

#[test]
fn a_truncated_file_is_cut_short() {
    let text = save_text(3);
    let e = refused(&text[..text.len() / 2]);
    assert!(e.starts_with("it is cut short or damaged (EOF while parsing"), "{e}");
}

#[test]
fn a_newer_format_is_refused_by_version_before_anything_else() {
    let text = save_text(1).replace("\"version\": 4", "\"version\": 9");
    let text = text.replace("\"board_name\"", "\"something_new\": true,\n  \"board_name\"");
    assert_eq!(
        refused(&text),
        "it was written by a newer snl (save format 9, this snl reads up to 4): upgrade snl to load it"
    );
}

#[test]
fn other_json_is_not_a_save() {
    assert!(refused("{\"size\": 100}").starts_with("it is not an snl save file"));
    assert!(refused("[1, 2]").starts_with("it is not an snl save file"));
}

#[test]
fn an_unknown_rule_is_named() {
    let text = save_text(2).replace("\"overshoot\": \"stay\"", "\"overshoot\": \"sideways\"");
    assert_eq!(refused(&text), "unknown overshoot 'sideways': expected one of stay, bounce, win");
}

#[test]
fn an_inconsistent_position_is_named() {
    let (game, dice) = played(4);
    let mut save = Save::new(&game, &dice, "classic");
    save.game.seat_states[1] = snl_engine::SavedSeat::Cell(99);
    let e = refused(&save.to_json());
    assert!(
        e.starts_with("the game in it does not add up: the saved position of Bob is 99"),
        "{e}"
    );
}

#[test]
fn scripted_rolls_the_rules_cannot_throw_are_refused() {
    let (game, _) = played(0);
    let dice = DiceState::Scripted(ScriptedDice::new(vec![snl_engine::Scripted::Total(9)]));
    let e = refused(&Save::new(&game, &dice, "classic").to_json());
    assert!(e.starts_with("its scripted rolls do not fit the rules: roll '9'"), "{e}");
}

/// The digest the file's own content gives.
fn digest_of(text: &str) -> String {
    let mut wire: Wire = serde_json::from_str(text).unwrap();
    wire.digest = None;
    digest(&wire)
}

/// `text` with `edit` made to its JSON, the digest left as it was.
fn edited(text: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    edit(&mut v);
    v.to_string()
}

#[test]
fn fnv1a64_is_the_published_hash() {
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
}

#[test]
fn an_edit_the_replay_does_not_see_is_caught_by_the_digest() {
    let text = save_text(4);
    let edits: [fn(&mut serde_json::Value); 4] = [
        |v| v["board_name"] = "kids".into(),
        |v| v["game"]["board"]["snake"][0]["tail"] = 3.into(),
        |v| v["game"]["seats"][1]["kind"] = "easy".into(),
        |v| v["game"]["history"][0]["time_ms"] = 5.into(),
    ];
    for edit in edits {
        assert_eq!(
            refused(&edited(&text, edit)),
            "it was edited or damaged: its content does not match its digest"
        );
    }
    let bare = edited(&text, |v| {
        v.as_object_mut().unwrap().remove("digest");
    });
    assert_eq!(refused(&bare), "it has no \"digest\" (every save since version 2 has one)");
}

#[test]
fn an_edit_that_changes_the_replay_is_named_before_the_digest() {
    let text = save_text(4);
    let e = refused(&edited(&text, |v| v["game"]["seat_states"][0]["cell"] = 1.into()));
    assert!(e.starts_with("the game in it does not add up: the saved position of Ann"), "{e}");
}

#[test]
fn a_version_1_file_without_a_digest_is_still_read_and_checked() {
    let text = edited(&save_text(4), |v| {
        v.as_object_mut().unwrap().remove("digest");
        v["version"] = 1.into();
    });
    assert!(Save::from_json(text.as_bytes()).unwrap().restore().is_ok());
    let moved = edited(&text, |v| v["dice"]["seeded"]["seed"] = 22.into());
    assert_eq!(
        refused(&moved),
        "its dice do not agree with its history: its generator's key is not the one seed 22 gives"
    );
}

/// `save` after `edit` to its fields, written with a digest of its own: only the game's
/// checks can refuse it.
fn resaved(turns: usize, edit: impl FnOnce(&mut Save)) -> String {
    let (game, dice) = played(turns);
    let mut save = Save::new(&game, &dice, "classic");
    edit(&mut save);
    refused(&save.to_json())
}

#[test]
fn seeded_dice_must_be_the_seeds_generator_where_the_history_leaves_it() {
    let e = resaved(5, |s| {
        let DiceState::Seeded { seed, .. } = &mut s.dice else { unreachable!() };
        *seed += 1;
    });
    assert_eq!(
        e,
        "its dice do not agree with its history: its generator's key is not the one seed 22 gives"
    );
    let e = resaved(5, |s| {
        let DiceState::Seeded { generator, .. } = &mut s.dice else { unreachable!() };
        generator.roll(0, snl_engine::Dice::D6).unwrap();
    });
    assert!(e.starts_with("its dice do not agree with its history: its generator stands at word"));
    assert!(e.ends_with("but seed 21 after the history's 5 rolls stands at word 5"), "{e}");
    // A history that adds up, but whose second roll is not the one seed 21 gives.
    let mut seeded = DiceState::seeded(21);
    let r: Vec<u32> =
        (0..3).map(|_| seeded.roll(0, snl_engine::Dice::D6).unwrap().total()).collect();
    let script = format!("{},{},{}", r[0], r[1] % 6 + 1, r[2]);
    let dice = DiceState::Scripted(ScriptedDice::parse(&script, snl_engine::Dice::D6).unwrap());
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
    let mut game = Game::new(board, rules, seats).unwrap();
    let mut scripted = dice;
    for _ in 0..3 {
        game.play_turn(&mut scripted, &mut FirstOption, &mut ()).unwrap();
    }
    let e = refused(&Save::new(&game, &seeded, "classic").to_json());
    assert_eq!(
        e,
        format!(
            "its dice do not agree with its history: seed 21 gives [{}] for move 2 of the \
             history, which has [{}]",
            r[1],
            r[1] % 6 + 1
        )
    );
}

#[test]
fn used_scripted_rolls_must_be_the_historys() {
    let scripted = |text: &str| {
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
        let mut game = Game::new(board, rules, seats).unwrap();
        let mut dice =
            DiceState::Scripted(ScriptedDice::parse(text, snl_engine::Dice::D6).unwrap());
        for _ in 0..3 {
            game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
        }
        (game, dice)
    };
    let (game, _) = scripted("3,4,5,6");
    let (_, other) = scripted("3,2,5,6");
    let e = refused(&Save::new(&game, &other, "classic").to_json());
    assert_eq!(
        e,
        "its dice do not agree with its history: scripted roll 2 is [2], but move 2 of the history has [4]"
    );
    let (_, rewound) = scripted("3,4,5,6");
    let DiceState::Scripted(list) = &rewound else { unreachable!() };
    let mut fewer = ScriptedDice::new(list.rolls().to_vec());
    fewer.roll(0, snl_engine::Dice::D6).unwrap();
    let e = refused(&Save::new(&game, &DiceState::Scripted(fewer), "classic").to_json());
    assert_eq!(
        e,
        "its dice do not agree with its history: 1 scripted rolls are marked used, but the history has 3 rolls"
    );
}

#[test]
fn pick_die_games_agree_with_their_pair_of_dice() {
    let rules = Rules { choice: snl_engine::Choice::PickDie, ..Rules::default() };
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
    let mut game = Game::new(board, rules, seats).unwrap();
    let mut dice = DiceState::seeded(3);
    for _ in 0..8 {
        game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
    }
    let back = Save::from_json(Save::new(&game, &dice, "classic").to_json().as_bytes()).unwrap();
    assert!(back.restore().is_ok());
}

/// `game` (a game's or a head's JSON) with its seat states turned into a list of cells named
/// `positions`, in their place: as written before seat states were kept.
pub(super) fn positions_only(game: &serde_json::Value) -> serde_json::Value {
    let renamed = game
        .as_object()
        .unwrap()
        .clone()
        .into_iter()
        .map(|(key, value)| match key.as_str() {
            "seat_states" => {
                let cells = value.as_array().unwrap().iter().map(|s| s["cell"].clone()).collect();
                ("positions".to_owned(), serde_json::Value::Array(cells))
            }
            _ => (key, value),
        })
        .collect();
    serde_json::Value::Object(renamed)
}

/// `text` as a whole save written before seat states were kept (version 2), its digest made
/// over that.
fn with_positions_only(text: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    v["game"] = positions_only(&v["game"]);
    v["version"] = 2.into();
    v.as_object_mut().unwrap().remove("seq");
    v.as_object_mut().unwrap().remove("digest");
    let digest = format!("fnv1a64:{:016x}", fnv1a64(v.to_string().as_bytes()));
    v["digest"] = digest.into();
    v.to_string()
}

#[test]
fn a_save_written_before_seat_states_were_kept_is_read_by_its_digest_and_cells() {
    let (game, dice) = played(6);
    let old = with_positions_only(&Save::new(&game, &dice, "classic").to_json());
    assert!(old.contains("\"positions\":[") && !old.contains("seat_states"), "{old}");
    let back = Save::from_json(old.as_bytes()).unwrap();
    assert_eq!(back.restore().unwrap().state(), game.state());

    let moved = edited(&old, |v| v["game"]["positions"][1] = 99.into());
    let e = refused(&moved);
    assert!(
        e.starts_with("the game in it does not add up: the saved position of Bob is 99"),
        "{e}"
    );
}

#[test]
fn a_long_quoted_value_in_a_readers_message_is_cut_to_40_characters() {
    let long = "x".repeat(500);
    let e = SaveError::Corrupt(format!("line 5: unknown field `{long}`, expected `status`"));
    let shown = e.to_string();
    assert!(shown.contains(&format!("`{}…`", "x".repeat(40))), "{shown}");
    assert!(shown.ends_with("expected `status`)"), "{shown}");
    assert!(shown.chars().count() < 120, "{shown}");
}
