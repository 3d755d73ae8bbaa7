// Long on purpose: join and watch share one line-console loop over a room's events (narration, prompts, reconnect with `since`, the come-back address); split, each half would need the other's state.
//! `snl join URL --name NAME` and `snl watch URL`: a seat of a room on `snl serve` played from
//! the terminal, or the room watched, told in the console's plain words. The connection is
//! `client::RoomClient` (reusable by other front ends); this module is the console around it:
//! Enter rolls, a digit chooses, `a` hands the seat to the computer, `q` leaves.

use std::{io::Write, time::Duration};

use clap::Args;
use snl_engine::{Board, BoardSpec, Event, Game, Rules, Seat, SeatKind};
use snl_wire::{
    frames::{Awaited, ClientFrame},
    rooms::{AwardLine, RoomState, RoomStatus},
};

use snl_words::Sentences;

use crate::{
    app::Options,
    client::{self, ClientError, RoomClient, RoomUrl, Update},
    console::Console,
    display::draw_game,
    failure::{CmdResult, Failure, OrFail},
    keyboard::{Keyboard, Line},
    online::Next,
    screen,
};

/// Options of `snl join`.
#[derive(Args, Clone, Debug)]
pub struct JoinArgs {
    /// The room's address, as its page shows it: http://HOST:PORT/room/ID; with #token=T at the
    /// end (as printed when you leave), the seat that T holds, to come back to it.
    #[arg(value_name = "URL")]
    pub url: String,
    /// Your name at the table (to take an open seat).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    #[command(flatten)]
    pub screen: ScreenArgs,
}

/// Options of `snl watch`.
#[derive(Args, Clone, Debug)]
pub struct WatchArgs {
    /// The room's address, as its page shows it: http://HOST:PORT/room/ID.
    #[arg(value_name = "URL")]
    pub url: String,
    #[command(flatten)]
    pub screen: ScreenArgs,
}

/// How a room is shown in a terminal.
#[derive(Args, Clone, Debug, Default)]
pub struct ScreenArgs {
    /// The line-by-line console even in a terminal, instead of the full screen.
    #[arg(long)]
    pub plain: bool,
    /// Do not animate moves on the full screen.
    #[arg(long)]
    pub fast: bool,
    /// No bell on snakes, ladders and the win on the full screen.
    #[arg(long)]
    pub quiet: bool,
}

impl ScreenArgs {
    /// Whether the room is shown on the full screen: in a terminal, unless `--plain`.
    fn full(&self, console: &Console) -> bool {
        console.stdin_tty && console.stdout_tty && !self.plain
    }

    fn options(&self, console: &Console) -> Options {
        Options { color: console.color, fast: self.fast, quiet: self.quiet, ..Options::default() }
    }
}

fn failure(error: ClientError) -> Failure {
    if error.is_bad_input() { Failure::bad(error) } else { Failure::other(error) }
}

/// Takes an open seat (or the seat the address's token holds) and plays it until the game ends
/// (or the person leaves).
///
/// # Errors
///
/// A bad address or name (bad input), a refused seat, a lost connection or terminal.
pub fn join(args: &JoinArgs, console: &mut Console) -> CmdResult {
    let mut url: RoomUrl = args.url.parse().map_err(failure)?;
    let (token, mut seated) = match (client::token_in(&args.url), &args.name) {
        (Some(token), _) => (token, Seated::Back),
        (None, Some(name)) => {
            let (_, token) = client::take_seat(&url, name).map_err(failure)?;
            (token, Seated::Sat(name.trim().to_owned()))
        }
        (None, None) => {
            return Err(Failure::bad(anyhow::anyhow!(
                "snl join needs --name NAME to take a seat of {url} (or the address with \
                 #token=… printed when you left, to come back to your seat)"
            )));
        }
    };
    // A series goes on from room to room: the same token holds a seat of each game.
    loop {
        let client = RoomClient::connect(&url, Some(token.clone())).map_err(failure)?;
        match sit(&url, &token, &client, args, console, &seated)? {
            Some(next) => {
                url = next;
                seated = Seated::Next;
            }
            None => return Ok(()),
        }
    }
}

/// How the person came to the seat, for the line that says where they sit.
enum Seated {
    /// Took it now, as this name.
    Sat(String),
    /// Came back with the token.
    Back,
    /// Moved on to the next game of a series.
    Next,
}

/// Plays the seat `token` holds in the room until its game ends (or the person leaves): the
/// series' next game's address when there is one to go on to.
fn sit(
    url: &RoomUrl,
    token: &str,
    client: &RoomClient,
    args: &JoinArgs,
    console: &mut Console,
    seated: &Seated,
) -> CmdResult<Option<RoomUrl>> {
    let Some(Update::Welcome { seat: Some(seat), state, .. }) = client.next() else {
        return Err(Failure::bad(anyhow::anyhow!(
            "the address's token holds no seat of room {}",
            url.room
        )));
    };
    if args.screen.full(console) {
        return show(client, url, Some((seat, token)), &state, &args.screen, console);
    }
    match seated {
        Seated::Sat(name) => {
            crate::stderr_line!("You sit at seat {} of room {} as {name}.", seat + 1, url.room);
        }
        Seated::Back => {
            crate::stderr_line!("You are back at seat {} of room {}.", seat + 1, url.room);
        }
        Seated::Next => crate::stderr_line!("You sit at seat {} of room {}.", seat + 1, url.room),
    }
    let mut keyboard =
        if console.stdin_tty { Keyboard::typed() } else { Keyboard::Lines(console.input.as_mut()) };
    let out: &mut dyn Write = console.out.as_mut();
    if follow_from(client, out, Some((seat, &mut keyboard)), Some(*state))? {
        come_back(url, token);
        return Ok(None);
    }
    series_next(url)
}

/// After a game of a series not yet decided: its next game's address (opened if no one has
/// opened it yet); `None` for a room that plays one game or a decided series.
fn series_next(url: &RoomUrl) -> CmdResult<Option<RoomUrl>> {
    let state = client::room_state(url).map_err(failure)?;
    match state.series {
        Some(series) if !series.decided && state.status == RoomStatus::Over => {
            client::open_next(url).map(Some).map_err(failure)
        }
        _ => Ok(None),
    }
}

/// Watches the room, telling every event from the first, until the game ends (and the games
/// of its series after it).
///
/// # Errors
///
/// A bad address (bad input), a lost connection or terminal.
pub fn watch(args: &WatchArgs, console: &mut Console) -> CmdResult {
    let mut url: RoomUrl = args.url.parse().map_err(failure)?;
    client::room_state(&url).map_err(failure)?;
    loop {
        let client = RoomClient::connect(&url, None).map_err(failure)?;
        let next = if args.screen.full(console) {
            on_screen(&client, &url, None, &args.screen, console)?
        } else if follow(&client, console.out.as_mut(), None)? {
            None
        } else {
            series_next(&url)?
        };
        match next {
            Some(next) => url = next,
            None => return Ok(()),
        }
    }
}

/// The room on the full screen, from its welcome.
fn on_screen(
    client: &RoomClient,
    url: &RoomUrl,
    seat: Option<(usize, &str)>,
    screen: &ScreenArgs,
    console: &mut Console,
) -> CmdResult<Option<RoomUrl>> {
    let Some(Update::Welcome { state, .. }) = client.next() else {
        return Err(Failure::other(anyhow::anyhow!("the room did not welcome the screen")));
    };
    show(client, url, seat, &state, screen, console)
}

/// The room on the full screen from `state`: the series' next game's address when the person
/// went on to it (`n` at the end) or someone opened it.
fn show(
    client: &RoomClient,
    url: &RoomUrl,
    seat: Option<(usize, &str)>,
    state: &RoomState,
    screen: &ScreenArgs,
    console: &mut Console,
) -> CmdResult<Option<RoomUrl>> {
    let ended = screen::run_room(client, url, seat.map(|(s, _)| s), state, screen.options(console))
        .map_err(|e| Failure::other(anyhow::anyhow!(e)))?;
    let out = console.out.as_mut();
    for line in &ended.result {
        writeln!(out, "{line}").or_other()?;
    }
    out.flush().or_other()?;
    if let Some(why) = ended.closed {
        return Err(Failure::other(anyhow::anyhow!("the connection to the room ended: {why}")));
    }
    match ended.next {
        Some(Next::Open(room)) => return Ok(Some(RoomUrl { room, ..url.clone() })),
        Some(Next::Asked) => return client::open_next(url).map(Some).map_err(failure),
        None => {}
    }
    if !ended.over {
        if let Some((_, token)) = seat {
            crate::stderr_line!("You left room {}; your seat stays yours.", url.room);
            come_back(url, token);
        } else {
            crate::stderr_line!("You stopped watching room {}.", url.room);
        }
    }
    Ok(None)
}

/// What the console knows of the table: the game as the events draw it (for the words and the
/// options), built when the game starts.
struct Table {
    board: BoardSpec,
    rules: Rules,
    kinds: Vec<SeatKind>,
    names: Vec<String>,
    game: Option<Game>,
    sentences: Option<Sentences>,
}

impl Table {
    fn from_state(state: &RoomState) -> Table {
        let kinds = state.seats.iter().map(|s| s.kind).collect();
        let names = state
            .seats
            .iter()
            .map(|s| s.name.clone().unwrap_or_else(|| format!("Seat {}", s.seat + 1)))
            .collect();
        Table {
            board: state.board.clone(),
            rules: state.rules,
            kinds,
            names,
            game: None,
            sentences: None,
        }
    }

    /// The table as the game starts with these players.
    fn start(&mut self, players: &[String]) -> Result<(), Failure> {
        self.names = players.to_vec();
        let board = Board::new(&self.board, &self.rules).or_other()?;
        let seats = players
            .iter()
            .zip(self.kinds.iter().chain(std::iter::repeat(&SeatKind::Human)))
            .map(|(name, &kind)| Seat::new(name.clone(), kind))
            .collect();
        let game = Game::new(board, self.rules, seats).or_other()?;
        self.sentences = Some(Sentences::new(&game));
        self.game = Some(game);
        Ok(())
    }

    /// The lines an event is told with.
    fn tell(&mut self, event: &Event<String>) -> Result<Option<String>, Failure> {
        match event {
            Event::GameStarted { players, .. } => self.start(players)?,
            Event::Chat { player, text } => return Ok(Some(format!("{player}: {text}"))),
            _ => {}
        }
        let indexed = client::indexed(event, &self.names);
        let mut text = self.sentences.as_mut().and_then(|s| s.sentence(&indexed));
        if let (Event::GameStarted { .. }, Some(game), Some(first)) = (event, &self.game, &mut text)
        {
            *first = format!("{}\n{first}", draw_game(game, false));
        }
        Ok(text)
    }
}

/// What a person at the prompt asked for.
enum Answer {
    Intent(ClientFrame),
    Leave,
    Again,
}

/// Asks the person for the input awaited; `choice` lists the options of a choice.
fn ask(
    keyboard: &mut Keyboard<'_>,
    name: &str,
    choice: Option<&[String]>,
) -> Result<Answer, Failure> {
    match choice {
        None => crate::stderr_text!("{name}, press Enter to roll (a for autopilot, q to leave): "),
        Some(options) => {
            let list: Vec<String> =
                options.iter().enumerate().map(|(i, o)| format!("{}) {o}", i + 1)).collect();
            crate::stderr_line!("{}", list.join("  "));
            crate::stderr_text!(
                "{name}, choose 1 to {} (Enter for 1, a for autopilot, q to leave): ",
                options.len()
            );
        }
    }
    let line = match keyboard.line() {
        Line::Text(text) => text,
        Line::End => {
            crate::stderr_line!();
            crate::stderr_line!("(the input ended: the computer plays {name}'s seat to the end)");
            return Ok(Answer::Intent(ClientFrame::Autopilot { on: true }));
        }
        Line::NotText => {
            crate::stderr_line!();
            return Err(Failure::bad(anyhow::anyhow!(
                "the answer typed at the prompt is not UTF-8 text"
            )));
        }
    };
    Ok(match (line.as_str(), choice) {
        ("q", _) => Answer::Leave,
        ("a", _) => Answer::Intent(ClientFrame::Autopilot { on: true }),
        ("", None) => Answer::Intent(ClientFrame::ROLL),
        ("", Some(_)) => Answer::Intent(ClientFrame::Choose { option: 0, input: None }),
        (digits, Some(options)) => match digits.parse::<usize>() {
            Ok(k) if (1..=options.len()).contains(&k) => {
                Answer::Intent(ClientFrame::Choose { option: k - 1, input: None })
            }
            _ => {
                crate::stderr_line!("'{digits}' is not one of the options.");
                Answer::Again
            }
        },
        (other, None) => {
            crate::stderr_line!(
                "'{other}' is not a key here: Enter rolls, a is autopilot, q leaves."
            );
            Answer::Again
        }
    })
}

/// Tells the room's events until the game ends; with `seat`, asks the person for each input
/// awaited from it. True when the person left before the end.
fn follow(
    client: &RoomClient,
    out: &mut dyn Write,
    seat: Option<(usize, &mut Keyboard<'_>)>,
) -> CmdResult<bool> {
    follow_from(client, out, seat, None)
}

/// Where to come back to a seat left before the end.
fn come_back(url: &RoomUrl, token: &str) {
    crate::stderr_line!(
        "Come back with: snl join '{url}#token={token}' (or open that address in a browser)."
    );
}

/// As [`follow`], with the room's `state` when its welcome was read already.
fn follow_from(
    client: &RoomClient,
    out: &mut dyn Write,
    mut seat: Option<(usize, &mut Keyboard<'_>)>,
    state: Option<RoomState>,
) -> CmdResult<bool> {
    let mut table: Option<Table> = None;
    let mut due: Option<Awaited> = None;
    // What the game earned is told after its end: from the welcome's state when it was over
    // then, else from the awaiting frame that follows the end.
    let (mut over_at_welcome, mut ended_live) = (false, false);
    let mut awards = Vec::new();
    let me = seat.as_ref().map(|(me, _)| *me);
    let mut autopilot = false;
    if let Some(state) = state {
        if let Some(series) = &state.series {
            writeln!(out, "{}", series.text).or_other()?;
        }
        over_at_welcome = state.status == RoomStatus::Over;
        awards.clone_from(&state.awards);
        table = Some(Table::from_state(&state));
        autopilot = autoplayed(&state, me);
        due = state.awaiting;
    }
    // What is awaited from this seat and not yet asked (`due`): asked once the events before it
    // are told.
    let ended = || Failure::other(anyhow::anyhow!("the connection to the room ended"));
    loop {
        let update = if due.is_some() || autopilot {
            client.next_within(Duration::from_millis(100)).map_err(|_| ended())?
        } else {
            Some(client.next().ok_or_else(ended)?)
        };
        let Some(update) = update else {
            let Some((me, keyboard)) = seat.as_mut() else { continue };
            if let (Some(awaited), Some(table)) = (due.take(), &table) {
                match prompt(&awaited, *me, table, keyboard)? {
                    Some(Answer::Intent(intent)) => {
                        autopilot |= matches!(intent, ClientFrame::Autopilot { on: true });
                        client.send(intent);
                    }
                    Some(Answer::Leave) => {
                        crate::stderr_line!(
                            "You leave the table; the seat stays yours in the room."
                        );
                        return Ok(true);
                    }
                    Some(Answer::Again) => due = Some(awaited),
                    None => {}
                }
            } else if autopilot && matches!(keyboard, Keyboard::Typed(_)) && keyboard.take_back() {
                autopilot = false;
                client.send(ClientFrame::Autopilot { on: false });
            }
            continue;
        };
        match update {
            Update::Welcome { state, .. } => {
                if ended_live {
                    return Ok(false);
                }
                over_at_welcome = state.status == RoomStatus::Over;
                awards.clone_from(&state.awards);
                autopilot |= autoplayed(&state, me);
                if table.is_none() {
                    if let Some(series) = &state.series {
                        writeln!(out, "{}", series.text).or_other()?;
                    }
                    table = Some(Table::from_state(&state));
                    due = state.awaiting;
                } else {
                    crate::stderr_line!("(connected again)");
                    // An intent sent as the connection dropped may be lost: ask again for what
                    // the room awaits (a second answer is refused, and changes nothing).
                    if !autopilot {
                        due = state.awaiting;
                    }
                }
            }
            Update::Event(numbered) => {
                let Some(table) = table.as_mut() else { continue };
                if let Some(text) = table.tell(&numbered.event)? {
                    writeln!(out, "{text}").or_other()?;
                    out.flush().or_other()?;
                }
                if let (Event::Autopilot { player, on }, Some((me, _))) = (&numbered.event, &seat)
                    && table.names.get(*me) == Some(player)
                {
                    autopilot = *on;
                }
                if matches!(numbered.event, Event::GameEnded { .. }) {
                    if over_at_welcome {
                        tell_awards(out, Some(table), &awards)?;
                        return Ok(false);
                    }
                    ended_live = true;
                }
            }
            Update::Awaiting(_, told) if ended_live => {
                tell_awards(out, table.as_ref(), &told)?;
                return Ok(false);
            }
            Update::Awaiting(awaiting, _) => {
                let mine = seat
                    .as_ref()
                    .zip(awaiting.as_ref())
                    .is_some_and(|((me, _), awaited)| awaited.seat() == *me);
                if autopilot
                    && mine
                    && let Some((_, keyboard)) = seat.as_mut()
                    && matches!(keyboard, Keyboard::Lines(_))
                    && keyboard.take_back()
                {
                    client.send(ClientFrame::Autopilot { on: false });
                }
                due = awaiting.filter(|_| mine && !autopilot);
            }
            Update::Series(series) => writeln!(out, "{}", series.text).or_other()?,
            // The caller goes on to the next game once this one has ended.
            Update::Next(_) => {}
            Update::Refused { message, .. } => crate::stderr_line!("{message}."),
            Update::Reconnecting(reason) => {
                crate::stderr_line!("(connection lost: {reason}; connecting again)");
            }
            Update::Closed(reason) => {
                let message = format!("the connection to the room ended: {reason}");
                return Err(Failure::other(anyhow::anyhow!(message)));
            }
        }
    }
}

/// What the game earned its seats, as the server awarded it: "Achievements earned:", then a
/// line for each ("  Ann — First win: won a game").
fn tell_awards(out: &mut dyn Write, table: Option<&Table>, awards: &[AwardLine]) -> CmdResult {
    if awards.is_empty() {
        return Ok(());
    }
    writeln!(out, "Achievements earned:").or_other()?;
    for award in awards {
        let name = table.and_then(|t| t.names.get(award.seat)).map_or("?", String::as_str);
        writeln!(out, "  {name} — {}", award.text).or_other()?;
    }
    out.flush().or_other()
}

/// Asks for the input `awaited` if it is `me`'s; `None` when it is someone else's. A roll or a
/// choice carries the input's id, so the room refuses it once that input has passed.
fn prompt(
    awaited: &Awaited,
    me: usize,
    table: &Table,
    keyboard: &mut Keyboard<'_>,
) -> Result<Option<Answer>, Failure> {
    if awaited.seat() != me {
        return Ok(None);
    }
    let name = table.names.get(me).cloned().unwrap_or_default();
    let answer = match awaited {
        Awaited::Roll { .. } => ask(keyboard, &name, None)?,
        // The options in the server's words (`snl_words::describe_option` on the game itself).
        Awaited::Choice { labels, .. } => ask(keyboard, &name, Some(labels))?,
    };
    Ok(Some(match answer {
        Answer::Intent(frame) => Answer::Intent(frame.answering(Some(awaited.input()))),
        other => other,
    }))
}

/// Whether `me`'s seat is played by the computer because its grace ran out while away: said
/// with the key that takes it back.
fn autoplayed(state: &RoomState, me: Option<usize>) -> bool {
    let taken = me.and_then(|me| state.seats.get(me)).is_some_and(|s| s.autoplayed);
    if taken {
        crate::stderr_line!(
            "The computer plays your seat since your grace ran out: press Enter to take it back."
        );
    }
    taken
}
