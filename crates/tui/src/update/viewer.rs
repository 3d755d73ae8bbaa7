//! The replay viewer's update: its [`Control`]s and ticks move the point shown.

use crate::{
    app::{App, TURN_PAUSE_TICKS},
    log::LOG_LINES,
    replay::{Control, MAX_TYPED, SPEEDS},
};

/// Applies a [`Control`] to the viewer of `app`.
pub(crate) fn apply(app: &mut App, control: Control) {
    let Some(replay) = app.mode.replay_mut() else { return };
    if !matches!(control, Control::Digit(_) | Control::RubOut | Control::GoTo) {
        replay.typed.clear();
    }
    match control {
        Control::PlayPause => {
            if replay.playing {
                replay.playing = false;
                app.finish_beats();
            } else {
                if replay.at_end() {
                    jump(app, 0);
                }
                if let Some(replay) = app.mode.replay_mut() {
                    replay.playing = true;
                    replay.credit = 0.0;
                }
                app.wait = 0;
            }
        }
        Control::Step(1) => {
            app.finish_beats();
            step_forward(app);
        }
        Control::Step(by) => {
            let to = replay.at.saturating_add_signed(by as isize).min(replay.recording.last());
            jump(app, to);
        }
        Control::Start => jump(app, 0),
        Control::End => {
            let last = replay.recording.last();
            jump(app, last);
        }
        Control::Digit(d) => {
            if replay.typed.len() < MAX_TYPED {
                replay.typed.push(char::from(b'0' + d));
            }
        }
        Control::RubOut => {
            replay.typed.pop();
        }
        Control::GoTo => {
            let typed = std::mem::take(&mut replay.typed);
            let Ok(turn) = typed.parse::<u32>() else { return };
            let turns = replay.recording.turns();
            let to = replay.recording.point_of_turn(turn);
            jump(app, to);
            if turn > turns {
                app.note(&format!("The game has {turns} turns: {turn} is past its end."));
            }
        }
        Control::Cancel => {}
        Control::Faster => replay.speed = (replay.speed + 1).min(SPEEDS.len() - 1),
        Control::Slower => replay.speed = replay.speed.saturating_sub(1),
    }
}

/// Time passes: at the replay's speed, the animation steps, the pause after a turn passes, and
/// the next turn is played; at the end, the replay pauses.
pub(crate) fn tick(app: &mut App) {
    let Some(replay) = app.mode.replay_mut() else { return };
    replay.credit += SPEEDS[replay.speed];
    while app.mode.replay().is_some_and(|r| r.credit >= 1.0) {
        if let Some(replay) = app.mode.replay_mut() {
            replay.credit -= 1.0;
        }
        let playing = app.mode.replay().is_some_and(|r| r.playing);
        if app.animating() {
            app.next_beat();
        } else if app.wait > 0 && playing {
            app.wait -= 1;
        } else if playing {
            step_forward(app);
            app.wait = TURN_PAUSE_TICKS;
        } else {
            break;
        }
    }
    if let Some(replay) = app.mode.replay_mut()
        && !replay.playing
    {
        replay.credit = 0.0;
    }
}

/// One turn forward, animated as it was played; at the end, the replay pauses.
fn step_forward(app: &mut App) {
    let Some(replay) = app.mode.replay_mut() else { return };
    if replay.at_end() {
        replay.playing = false;
        return;
    }
    replay.at += 1;
    let at = replay.at;
    let ended = replay.at_end();
    let events = replay.recording.steps[at - 1].clone();
    app.session = replay.recording.session_at(at);
    if ended {
        replay.playing = false;
    }
    app.take(&events);
}

/// Straight to point `k`: the board, the players, the die and the log as they were then.
pub(crate) fn jump(app: &mut App, k: usize) {
    app.finish_beats();
    app.wait = 0;
    let Some(replay) = app.mode.replay_mut() else { return };
    let k = k.min(replay.recording.last());
    replay.at = k;
    if replay.at_end() {
        replay.playing = false;
    }
    app.session = replay.recording.session_at(k);
    app.die = replay.recording.die_at(k);
    let said = replay.recording.said_until(k, LOG_LINES - 1);
    let intro = replay.intro.clone();
    app.log.clear();
    app.note(&intro);
    for s in said {
        app.say(s);
    }
    app.sentences.follow(app.session.game());
    app.scroll = 0;
    app.settle();
}
