//! The room's update: its messages change the screen, and game keys become intents in the
//! outbox ([`key`]). No I/O here, so tests feed server events and read the intents.

use snl_engine::{Event, Numbered};
use snl_session::Awaiting;
use snl_wire::{MAX_CHAT, frames::ClientFrame};

use crate::{
    action::{ChatKey, GameAction},
    app::{App, Mode, Options, Stop},
    client::{self, Update},
    log::{Said, Tone, said_of},
    online::{Connection, Mirror, Next, Online, new_game},
    seated::Kept,
};

/// The screen for the room `online` describes; `me` is the seat held, or none to watch.
pub(crate) fn app(online: Online, me: Option<usize>, opts: Options) -> App {
    let session = online.session();
    let room = online.url.rsplit('/').next().unwrap_or_default();
    let intro = match me {
        Some(seat) => {
            format!("You sit at seat {} as {} in room {room}.", seat + 1, online.names[seat])
        }
        None => format!("You watch room {room}."),
    };
    let mut app = App::new(session, Kept::default(), opts, false, Some(intro));
    if let Some(series) = &online.series {
        app.note(&series.text);
    }
    app.mode = match me {
        Some(seat) => Mode::Seat { room: online, seat },
        None => Mode::Spectator { room: online },
    };
    app
}

/// One message from the room changes the screen.
pub(crate) fn receive(app: &mut App, update: Update) {
    // The room is taken out of the mode while it changes the screen, and put back.
    let me = app.mode.seat();
    let mut mode = std::mem::replace(&mut app.mode, Mode::Local { clocks: None });
    let Some(online) = mode.room_mut() else {
        app.mode = mode;
        return;
    };
    let told_left = match &update {
        Update::Welcome { state, .. } => Some((state.turn_left_ms, state.game_left_ms)),
        _ => None,
    };
    match update {
        Update::Welcome { seq, state, .. } => {
            online.take_graces(&state);
            if me.and_then(|me| state.seats.get(me)).is_some_and(|s| s.autoplayed) {
                app.note("The computer plays your seat since your grace ran out: a takes it back.");
            }
            online.input = state.awaiting.map(|a| a.input());
            // A room over before it was joined says what its game earned in its state.
            app.awards = state.awards.iter().map(|a| (a.seat, a.text.clone())).collect();
            online.caught_up_to = online.caught_up_to.max(seq);
            if online.connection != Connection::Live {
                app.note("Connected again: the events missed follow.");
            }
            online.connection = Connection::Live;
            online.asked = false;
            online.series = state.series;
        }
        Update::Series(series) => {
            let open = !series.decided && series.next_room.is_none();
            app.note(&series.text);
            if open && me.is_some() {
                app.note(&format!("n opens game {} of the series.", series.game + 1));
            }
            online.series = Some(series);
        }
        // The next game is open: this screen closes and the caller goes on there.
        Update::Next(room) => {
            online.next = Some(Next::Open(room));
            app.stop = Some(Stop::Over);
        }
        Update::Event(numbered) => {
            online.input = None;
            hear(app, online, me, &numbered);
        }
        // The local copy knows what is awaited; the room's id of it is echoed.
        Update::Awaiting(awaiting, awards) => {
            online.input = awaiting.map(|a| a.input());
            // The end: what the game earned its seats, as the server awarded it.
            app.awards = awards.into_iter().map(|a| (a.seat, a.text)).collect();
        }
        Update::Refused { message, .. } => {
            online.asked = false;
            app.note(&format!("The server says: {message}."));
        }
        Update::Reconnecting(reason) => {
            online.connection = Connection::Reconnecting;
            online.asked = false;
            app.note(&format!("The connection was lost ({reason}): reconnecting…"));
        }
        Update::Closed(reason) => {
            app.note(&format!("The connection to the room ended: {reason}."));
            online.connection = Connection::Closed(reason);
            app.finish_beats();
            app.stop = Some(Stop::Asked);
        }
    }
    app.mode = mode;
    app.refresh_chances();
    let awaiting = app.session.awaiting();
    if let Some(room) = app.mode.room_mut() {
        let held = room.awaited_in_grace(&awaiting);
        if let Some(clocks) = room.clocks.as_mut() {
            match told_left {
                Some((turn, game)) => clocks.told_left(&app.session, turn, game),
                None => clocks.look(&app.session),
            }
            // The server pauses the turn clock of a person in their grace.
            clocks.hold_turn(held);
        }
    }
}

/// One event of the room; `me` is the seat held.
fn hear(app: &mut App, online: &mut Online, me: Option<usize>, numbered: &Numbered<String>) {
    let event = client::indexed(&numbered.event, &online.names);
    let live = numbered.seq > online.caught_up_to;
    let fast = app.opts.fast;
    // Events the screen missed are shown at once.
    app.opts.fast = fast || !live;
    let mut shown: Vec<Event> = Vec::new();
    match &numbered.event {
        Event::Presence { player, online: here } => {
            if let Some(seat) = online.names.iter().position(|n| n == player) {
                online.away[seat] = !here;
            }
            // In the room's words (`snl_words::Sentences`), as the server tells it.
            for said in said_of(&mut app.sentences, &event) {
                app.note(&said.text);
            }
        }
        Event::Chat { player, text } => {
            app.say(Said { text: format!("{player}: {text}"), tone: Tone::Plain });
        }
        // A dropped person's seat kept, then played by the computer, then taken back: told in
        // the room's words, the countdown in the players panel (from the welcome's
        // `grace_left_ms` for what happened before the screen connected).
        Event::GraceStarted { player, .. }
        | Event::SeatAutoplayed { player }
        | Event::SeatReturned { player } => {
            let seat = online.names.iter().position(|n| n == player);
            if let (Some(seat), true) = (seat, live) {
                online.grace[seat] = match &numbered.event {
                    Event::GraceStarted { seconds, .. } => {
                        Some(online.time.now() + std::time::Duration::from_secs(*seconds))
                    }
                    _ => None,
                };
            }
            for said in said_of(&mut app.sentences, &event) {
                app.say(said);
            }
        }
        Event::Autopilot { on, .. } => {
            if let Some(&seat) = event.player()
                && let Some(flag) = online.autopilot.get_mut(seat)
            {
                *flag = *on;
                if me == Some(seat) {
                    online.asked = false;
                }
            }
            shown.push(event);
        }
        Event::Undone { .. } | Event::Redone { .. } => shown.push(event),
        Event::GameStarted { players, .. } if !online.started => {
            online.started = true;
            if *players != online.names {
                players.clone_into(&mut online.names);
                online.away.resize(players.len(), false);
                online.grace.resize(players.len(), None);
                online.autopilot.resize(players.len(), false);
                match new_game(&online.board, &online.rules, &online.names, &online.kinds) {
                    Ok(game) => online.mirror = Mirror::new(game),
                    Err(why) => online.lost = Some(why),
                }
                app.reseat(online.session());
            }
            let event = client::indexed(&numbered.event, &online.names);
            shown.extend(follow(app, online, event));
        }
        _ => shown.extend(follow(app, online, event)),
    }
    if !shown.is_empty() {
        app.session = online.session();
        let told: Vec<Numbered<usize>> =
            shown.into_iter().map(|event| Numbered { seq: numbered.seq, event }).collect();
        app.take(&told);
    }
    app.opts.fast = fast;
    if !live {
        app.bells = 0;
    }
}

/// A game event through the local copy: the events to show. Once the copy is lost, the events
/// are only told in the log.
fn follow(app: &mut App, online: &mut Online, event: Event) -> Vec<Event> {
    if online.lost.is_some() {
        for said in said_of(&mut app.sentences, &event) {
            app.say(said);
        }
        return Vec::new();
    }
    online.asked = false;
    match online.mirror.follow(event) {
        Ok(events) => events,
        Err(lost) => {
            app.note(&format!(
                "The screen lost track of the game ({lost}); the log goes on telling it."
            ));
            online.lost = Some(lost.0);
            Vec::new()
        }
    }
}

/// A key of the chat line: `c` opens it, characters are typed (up to the room's limit), Enter
/// sends a line that has something in it, Esc drops it.
pub(crate) fn chat(app: &mut App, key: ChatKey) {
    let Some(online) = app.mode.room_mut() else { return };
    let line = online.chat.get_or_insert_with(String::new);
    let mut full = false;
    match key {
        ChatKey::Open => {}
        ChatKey::Type(c) if line.chars().count() < MAX_CHAT => line.push(c),
        ChatKey::Type(_) => full = true,
        ChatKey::RubOut => {
            line.pop();
        }
        ChatKey::Cancel => online.chat = None,
        ChatKey::Send => {
            let text = online.chat.take().unwrap_or_default();
            let text = text.trim();
            if !text.is_empty() {
                online.outbox.push(ClientFrame::Chat { text: text.to_owned() });
            }
        }
    }
    if full {
        app.note(&format!("A chat line holds {MAX_CHAT} characters at most: Enter sends it."));
    }
}

/// Time passes online: one beat of the animation, and the room's clocks follow what is awaited
/// as the animation reaches it.
pub(crate) fn tick(app: &mut App) {
    app.next_beat();
    let awaiting = app.session.awaiting();
    if let Some(room) = app.mode.room_mut() {
        let held = room.awaited_in_grace(&awaiting);
        if let Some(clocks) = room.clocks.as_mut() {
            clocks.look(&app.session);
            clocks.hold_turn(held);
        }
    }
}

/// A game key while online: the intents it asks for go to the outbox.
pub(crate) fn key(app: &mut App, action: GameAction) {
    let Some(online) = app.mode.room() else { return };
    let awaiting = app.session.awaiting();
    let asked = online.asked;
    let Some(me) = app.mode.seat() else {
        if matches!(action, GameAction::Roll | GameAction::Choose(_) | GameAction::Autopilot) {
            app.note("You are watching this room: ? shows the keys, q leaves.");
        } else {
            app.note("Nothing to keep here: the server keeps the game.");
        }
        return;
    };
    let mine = my_turn(me, &awaiting);
    let on_autopilot = online.autopilot.get(me) == Some(&true);
    let whose = online.names.get(app.focus()).cloned().unwrap_or_default();
    if asked && matches!(action, GameAction::Roll | GameAction::Choose(_)) {
        return;
    }
    let frame = match (action, &awaiting) {
        (GameAction::Roll, Awaiting::Roll { .. }) if mine => ClientFrame::ROLL,
        (GameAction::Roll, Awaiting::Choice(_)) if mine => {
            ClientFrame::Choose { option: 0, input: None }
        }
        (GameAction::Choose(option), Awaiting::Choice(d)) if mine && option < d.options.len() => {
            ClientFrame::Choose { option, input: None }
        }
        (GameAction::Choose(option), Awaiting::Choice(d)) if mine => {
            let count = d.options.len();
            app.note(&format!("{} is not one of the options: 1 to {count}.", option + 1));
            return;
        }
        (GameAction::Choose(_), _) if mine => {
            app.note("There is nothing to choose now: Space rolls.");
            return;
        }
        (GameAction::Roll | GameAction::Choose(_) | GameAction::Autopilot, Awaiting::Over) => {
            app.note("The game is over: q leaves.");
            return;
        }
        (GameAction::Roll | GameAction::Choose(_), _) if on_autopilot => {
            app.note("The computer plays your seat: a takes it back.");
            return;
        }
        (GameAction::Roll | GameAction::Choose(_), _) => {
            app.note(&format!("{} turn: yours comes.", snl_words::whose(&whose)));
            return;
        }
        (GameAction::Autopilot, _) => ClientFrame::Autopilot { on: !on_autopilot },
        (GameAction::Undo | GameAction::Redo, _) => {
            app.note("There is no undo in an online game.");
            return;
        }
        (GameAction::Save, _) => {
            app.note("The server keeps the game: nothing to save here.");
            return;
        }
    };
    app.finish_beats();
    if let Some(online) = app.mode.room_mut() {
        online.asked = matches!(frame, ClientFrame::Roll { .. } | ClientFrame::Choose { .. });
        online.outbox.push(frame.answering(online.input));
    }
}

/// Whether the seat held, `me`, is awaited now (to roll or choose).
fn my_turn(me: usize, awaiting: &Awaiting) -> bool {
    let seat = match awaiting {
        Awaiting::Roll { seat } => *seat,
        Awaiting::Choice(d) => d.seat,
        _ => return false,
    };
    me == seat
}
