//! One table of rules and cell effects, each played on every terminal screen (issue 26's parity
//! table, docs/features.md): the full-screen game played by keys, the `join`/`watch` screen fed the
//! events as the server sends them, and the replay viewer stepped to the end. For each case the
//! same scripted game is played first by a session, which gives the event to look for and its
//! sentence from the words crate; each screen must then show that sentence, and the player marks
//! (a shield held, a skip pending) the case asks for.

use crossterm::event::KeyCode;
use serde_json::json;
use snl_engine::{
    Board, BoardSpec, Event, Game, Numbered, RuleSpec, Rules, ScriptedDice, Seat, SeatKind,
};
use snl_session::{Awaiting, Intent, Session};
use snl_store::DiceState;
use snl_words::Sentences;

use crate::client::Update;
use crate::seated::Kept;
use crate::{
    action::Action,
    app::{App, Mode, Options},
    online::Online,
    replay::{Recording, Replay},
    tests::{press, text},
    update::{room, update},
};

/// One feature: a board, rules and rolls that make it happen, the event that shows it, and the
/// mark a player's line must carry once it happened (seat, glyph, or the words where there is room).
struct Case {
    feature: &'static str,
    /// How many people sit at the table (Ann, Bob, then Cy).
    seats: usize,
    board: &'static str,
    rules: serde_json::Value,
    rolls: &'static str,
    event: fn(&Event) -> bool,
    mark: Option<(usize, char, &'static str)>,
}

/// A 30-cell board: ladders 3→8 and 8→15 (a chain), snake 27→5.
const PLAIN: &str = "size = 30\nwidth = 6\nladder = [{foot = 3, top = 8}, {foot = 8, top = 15}]\n\
    snake = [{head = 27, tail = 5}]\n";

/// A 30-cell board with one cell of each effect: skip 4, extra 6, shield 9 (a snake 13→2 for it
/// to stop), wormhole 11 to 20 or 25.
const EFFECTS: &str = "size = 30\nwidth = 6\nsnake = [{head = 13, tail = 2}]\n\
    [[cell]]\nat = 4\neffect = \"skip\"\n\
    [[cell]]\nat = 6\neffect = \"extra\"\n\
    [[cell]]\nat = 9\neffect = \"shield\"\n\
    [[cell]]\nat = 11\neffect = \"wormhole\"\nexits = [20, 25]\n";

fn cases() -> Vec<Case> {
    vec![
        Case {
            feature: "start first-cell",
            seats: 2,
            board: PLAIN,
            rules: json!({"start": "first-cell"}),
            rolls: "1",
            event: |e| matches!(e, Event::Moved { from: 1, to: 2, .. }),
            mark: None,
        },
        Case {
            feature: "dice NdF",
            seats: 2,
            board: PLAIN,
            rules: json!({"dice": "2d6", "overshoot": "win"}),
            rolls: "1+1",
            event: |e| matches!(e, Event::Moved { from: 0, to: 2, .. }),
            mark: None,
        },
        Case {
            feature: "overshoot stay",
            seats: 2,
            board: PLAIN,
            rules: json!({"overshoot": "stay"}),
            rolls: "6,1,6,1,6,1,6,1,2,1,5",
            event: |e| matches!(e, Event::Overshoot { .. }),
            mark: None,
        },
        Case {
            feature: "overshoot bounce",
            seats: 2,
            board: PLAIN,
            rules: json!({"overshoot": "bounce"}),
            rolls: "6,1,6,1,6,1,6,1,2,1,5",
            event: |e| matches!(e, Event::Overshoot { .. }),
            mark: None,
        },
        Case {
            feature: "overshoot win",
            seats: 2,
            board: PLAIN,
            rules: json!({"overshoot": "win"}),
            rolls: "6,1,6,1,6,1,6,1,2,1,5",
            event: |e| matches!(e, Event::PlayerFinished { .. }),
            mark: None,
        },
        Case {
            feature: "jumps chain",
            seats: 2,
            board: PLAIN,
            rules: json!({"jumps": "chain"}),
            rolls: "3",
            event: |e| matches!(e, Event::Ladder { from: 8, to: 15, .. }),
            mark: None,
        },
        Case {
            feature: "bonus top-face",
            seats: 2,
            board: PLAIN,
            rules: json!({"bonus": "top-face"}),
            rolls: "6,1",
            event: |e| matches!(e, Event::BonusRoll { .. }),
            mark: None,
        },
        Case {
            feature: "max-bonus / on-max void",
            seats: 2,
            board: PLAIN,
            rules: json!({"bonus": "top-face", "max-bonus": 2, "on-max": "void"}),
            rolls: "6,6,1",
            event: |e| matches!(e, Event::TurnVoided { .. }),
            mark: None,
        },
        Case {
            feature: "finish all",
            seats: 3,
            board: PLAIN,
            rules: json!({"finish": "all", "overshoot": "win"}),
            rolls: "6,1,1,6,1,1,6,1,1,6,1,1,6,6,1,5,1,6,1,6",
            event: |e| matches!(e, Event::PlayerFinished { rank: 2, .. }),
            mark: None,
        },
        Case {
            feature: "choice may-pass (the last option: stay)",
            seats: 2,
            board: PLAIN,
            rules: json!({"choice": "may-pass"}),
            rolls: "2,1,6",
            event: |e| matches!(e, Event::Stayed { .. }),
            mark: None,
        },
        Case {
            feature: "race mode, its odds and fewest rolls",
            seats: 2,
            board: PLAIN,
            rules: json!({"mode": "race", "rounds": 3}),
            rolls: "2,1,6",
            event: |e| matches!(e, Event::Moved { to: 8, .. }),
            mark: None,
        },
        Case {
            feature: "skip played and told",
            seats: 2,
            board: EFFECTS,
            rules: json!({}),
            rolls: "4,1,1",
            event: |e| matches!(e, Event::TurnSkipped { .. }),
            mark: None,
        },
        Case {
            feature: "skip pending, per player",
            seats: 2,
            board: EFFECTS,
            rules: json!({}),
            rolls: "4",
            event: |e| matches!(e, Event::Moved { to: 4, .. }),
            mark: Some((0, '✕', "skips next turn")),
        },
        Case {
            feature: "extra played and told",
            seats: 2,
            board: EFFECTS,
            rules: json!({}),
            rolls: "6,1",
            event: |e| matches!(e, Event::ExtraRoll { .. }),
            mark: None,
        },
        Case {
            feature: "shield held, per player",
            seats: 2,
            board: EFFECTS,
            rules: json!({}),
            rolls: "3,1,6",
            event: |e| matches!(e, Event::ShieldGained { .. }),
            mark: Some((0, '◆', "shield")),
        },
        Case {
            feature: "shield played and told",
            seats: 2,
            board: EFFECTS,
            rules: json!({}),
            rolls: "3,1,6,1,4",
            event: |e| matches!(e, Event::ShieldUsed { .. }),
            mark: None,
        },
        Case {
            feature: "wormhole played and told",
            seats: 2,
            board: EFFECTS,
            rules: json!({}),
            rolls: "5,1,6,w2",
            event: |e| matches!(e, Event::Wormhole { .. }),
            mark: None,
        },
    ]
}

const SEATS: [&str; 3] = ["Ann", "Bob", "Cy"];

impl Case {
    fn spec(&self) -> BoardSpec {
        BoardSpec::from_toml(self.board).unwrap()
    }

    fn rules(&self) -> Rules {
        let spec: RuleSpec = serde_json::from_value(self.rules.clone()).unwrap();
        let mut rules = Rules::default();
        rules.apply(&spec).unwrap();
        rules
    }

    /// Two people at the table, the case's rolls scripted.
    fn session(&self) -> Session {
        let rules = self.rules();
        let board = Board::new(&self.spec(), &rules).unwrap();
        let seats = SEATS[..self.seats].iter().map(|n| Seat::new(*n, SeatKind::Human)).collect();
        let game =
            Game::new(board, rules, seats).unwrap_or_else(|e| panic!("{}: {e}", self.feature));
        let dice = ScriptedDice::parse(self.rolls, rules.thrown_dice()).unwrap();
        Session::new(game, DiceState::Scripted(dice), "my-board.toml")
    }

    /// The case played by a session until its event: the events as numbered and the sentence
    /// that tells it (an event told with the next one, as an overshoot with its move, by that
    /// one's sentence).
    fn reference(&self) -> (Session, Vec<Numbered<usize>>, String) {
        let mut session = self.session();
        let mut sentences = Sentences::new(session.game());
        let mut events = Vec::new();
        let (mut seen, mut said) = (false, None);
        while said.is_none() {
            let batch = match session.awaiting() {
                Awaiting::Roll { seat } => session.act(seat, Intent::Roll).unwrap(),
                Awaiting::Choice(d) => {
                    session.act(d.seat, Intent::Choose { option: d.options.len() - 1 }).unwrap()
                }
                other => panic!("{}: the scripted game stopped at {other:?}", self.feature),
            };
            for numbered in &batch {
                let sentence = sentences.sentence(&numbered.event);
                seen |= (self.event)(&numbered.event);
                if seen && said.is_none() {
                    said = sentence;
                }
            }
            events.extend(batch);
        }
        // The first line of the sentence, as far as a log line of the narrowest screen holds it.
        let first: String = said.unwrap().lines().next().unwrap().trim().chars().take(22).collect();
        (session, events, first)
    }
}

/// Ticks until the animation is over.
fn settle(app: &mut App) {
    for _ in 0..100_000 {
        if !app.animating() && app.wait == 0 {
            return;
        }
        update(app, Action::Tick);
    }
    panic!("the animation did not end");
}

fn options() -> Options {
    Options { color: true, fast: true, quiet: true, ..Options::default() }
}

/// The full-screen game of the case, played by keys until the game has `events` events: Space
/// to roll, at a choice the digit of its last option.
fn full_screen(case: &Case, events: usize) -> App {
    let mut app = App::new(case.session(), Kept::default(), options(), false, None);
    while app.session.game().history().len() < events {
        let key = match app.session.awaiting() {
            Awaiting::Choice(d) => {
                KeyCode::Char(char::from_digit(d.options.len() as u32, 10).unwrap())
            }
            _ => KeyCode::Char(' '),
        };
        press(&mut app, key);
        settle(&mut app);
    }
    app
}

/// The `watch` screen of the case's room, told `events` as the server sends them.
fn watcher(case: &Case, events: &[Numbered<usize>]) -> App {
    let seat = |seat: usize| {
        json!({"seat": seat, "kind": "human", "name": SEATS[seat], "open": false, "online": true,
            "autopilot": false, "position": 0, "rank": null})
    };
    let state = serde_json::from_value(json!({
        "room": "5f0c2a9e81d34b07",
        "status": "running",
        "board_name": "my-board.toml",
        "board": case.spec(),
        "rules": case.rules(),
        "turn_time": null,
        "game_time": null,
        "time_up": false,
        "seats": (0..case.seats).map(seat).collect::<Vec<_>>(),
        "awaiting": {"type": "roll", "seat": 0, "input": 0},
        "turns": 0,
        "ranking": [],
        "seq": 0,
        "turn_left_ms": null,
    }))
    .unwrap();
    let url = "http://127.0.0.1:8080/room/5f0c2a9e81d34b07";
    let mut app = room::app(Online::new(url, &state).unwrap(), None, options());
    room::receive(&mut app, Update::Welcome { seat: None, seq: 0, state: Box::new(state) });
    let seats = app.session.game().seats().to_vec();
    for numbered in events {
        let event = numbered.event.clone().named(&seats);
        room::receive(&mut app, Update::Event(Numbered { seq: numbered.seq, event }));
        update(&mut app, Action::Tick);
    }
    settle(&mut app);
    assert_eq!(app.mode.room().unwrap().lost, None, "{}", case.feature);
    app
}

/// The replay of the case's game as kept after its event, sought to its end.
fn replayed(played: &Session) -> App {
    let recording = Recording::new(played.game(), played.dice().clone(), "my-board.toml").unwrap();
    let intro = "Replay of game 7.";
    let mut app = App::new(recording.session_at(0), Kept::default(), options(), false, None);
    app.mode = Mode::Replay(Replay::new(recording, "game 7", intro, 1.0));
    press(&mut app, KeyCode::End);
    settle(&mut app);
    app
}

/// What the players' panel says of seat `seat` (its lines up to the next seat's name).
fn player_lines(screen: &str, seat: usize) -> String {
    let panel: Vec<&str> = screen.lines().filter_map(|l| l.split('│').nth(3)).collect();
    let panel = panel.join("\n");
    let from = panel.find(&format!(" {}", SEATS[seat])).unwrap_or(panel.len());
    let rest = &panel[from..];
    let next = SEATS.iter().filter_map(|n| rest[1..].find(&format!(" {n} "))).min();
    rest[..next.map_or(rest.len(), |n| n + 1)].to_owned()
}

#[test]
fn each_rule_and_effect_is_played_and_told_on_the_full_screen_join_watch_and_replay() {
    for case in cases() {
        let (played, events, said) = case.reference();
        let screens = [
            ("full screen", full_screen(&case, played.game().history().len())),
            ("watch", watcher(&case, &events)),
            ("replay", replayed(&played)),
        ];
        for (front, app) in screens {
            assert_eq!(
                app.session.game().positions(),
                played.game().positions(),
                "{}: {front} is where the game is",
                case.feature
            );
            for (width, height) in [(80, 24), (130, 40)] {
                let screen = text(&app, width, height);
                let flat: String = screen.split('│').map(str::trim).collect::<Vec<_>>().join(" ");
                assert!(
                    flat.contains(&said),
                    "{} on the {front} at {width}x{height}: «{said}» is not shown:\n{screen}",
                    case.feature
                );
                // Each player still playing: the fewest rolls left and the chance to win.
                for seat in (0..case.seats).filter(|&s| !played.game().ranking().contains(&s)) {
                    let line = player_lines(&screen, seat);
                    assert!(
                        line.contains(" roll") && line.contains('%'),
                        "{} on the {front} at {width}x{height}: no odds for {}:\n{screen}",
                        case.feature,
                        SEATS[seat]
                    );
                }
                // An effect board's cells are drawn with their glyphs, and the key names them.
                if case.board == EFFECTS {
                    for cell in
                        ["4✕", "6+", "9◆", "11@", "✕ skip", "+ extra", "◆ shield", "@ wormhole"]
                    {
                        assert!(
                            screen.contains(cell),
                            "{} on the {front} at {width}x{height}: {cell} missing:\n{screen}",
                            case.feature
                        );
                    }
                }
                if let Some((seat, glyph, words)) = case.mark {
                    let line = player_lines(&screen, seat);
                    assert!(
                        line.contains(glyph) || line.contains(words),
                        "{} on the {front} at {width}x{height}: no {glyph} by {}:\n{screen}",
                        case.feature,
                        SEATS[seat]
                    );
                }
            }
        }
    }
}

#[test]
fn every_preset_a_random_board_and_a_board_file_replay_to_their_end_with_their_name_and_cells() {
    for (spec, name) in crate::tests::every_board() {
        let rules = Rules::default();
        let board = Board::new(&spec, &rules).unwrap();
        let seats = SEATS[..2].iter().map(|n| Seat::new(*n, SeatKind::Easy)).collect();
        let game = Game::new(board, rules, seats).unwrap();
        let mut session = Session::new(game, DiceState::seeded(5), name);
        while !matches!(session.awaiting(), Awaiting::Over) {
            session.play_computer().unwrap();
        }
        let recording = Recording::new(session.game(), session.dice().clone(), name).unwrap();
        let mut app = App::new(recording.session_at(0), Kept::default(), options(), false, None);
        app.mode = Mode::Replay(Replay::new(recording, "game 7", "Replay of game 7.", 1.0));
        let start = text(&app, 130, 40);
        assert!(start.lines().next().unwrap_or_default().contains(name), "{name}:\n{start}");
        assert!(start.contains(&format!("{} cells", spec.size)), "{name}:\n{start}");
        let drawn = app.session.game().board().clone();
        for kind in snl_words::CellKind::ALL.into_iter().filter(|k| k.on(&drawn)) {
            let picture = kind.picture();
            let entry = format!("{} {}", picture.glyph, picture.name);
            assert!(start.contains(&entry), "{name}: {entry} is not in the key:\n{start}");
        }
        press(&mut app, KeyCode::End);
        settle(&mut app);
        let winner = SEATS[session.game().ranking()[0]];
        let end = text(&app, 130, 40);
        assert!(end.contains(&format!("{winner} wins!")), "{name}:\n{end}");
        assert_eq!(app.session.game().positions(), session.game().positions(), "{name}");
    }
}
