//! The right-hand column: the players (the key to the tokens: letter, colour, name, who plays,
//! where, fewest rolls left, chance to win, a shield held or a turn to be skipped; the current
//! player marked), the options of a choice,
//! and the log of what happened, newest at the bottom.

use ratatui::{
    Frame,
    layout::{Constraint, Layout, Rect},
    style::{Color, Modifier, Style},
    text::{Line, Span},
    widgets::{Block, Paragraph},
};
use snl_session::Awaiting;
use unicode_width::UnicodeWidthStr;

use super::style::{fit, player_style, tint, wrap_hanging};
use snl_words::{CellKind, carried, describe_option, ordinal, roll_words};

use crate::{
    app::App,
    clocks::{Clocks, millis},
    log::Tone,
};

pub(super) fn render(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let seats = app.session.game().seats().len() as u16;
    // Two lines a player when there is room for them and a log, else one.
    let two_lines = 2 + 2 * seats <= area.height / 2 + 2;
    let players_height = (2 + seats * if two_lines { 2 } else { 1 }).min(area.height - 4);
    let choice = choice_lines(app, area.width.saturating_sub(2));
    let choice_height = if choice.is_empty() { 0 } else { choice.len() as u16 + 2 };
    let [players, log, options] = Layout::vertical([
        Constraint::Length(players_height),
        Constraint::Min(3),
        Constraint::Length(choice_height),
    ])
    .areas(area);
    render_players(frame, players, app, two_lines);
    render_log(frame, log, app);
    if !choice.is_empty() {
        let block = Block::bordered()
            .title(" Choose ")
            .border_style(tint(app, Color::Yellow).add_modifier(Modifier::BOLD));
        frame.render_widget(Paragraph::new(choice).block(block), options);
    }
}

fn render_players(frame: &mut Frame<'_>, area: Rect, app: &App, two_lines: bool) {
    let game = app.session.game();
    let focus = app.focus();
    let over = matches!(app.session.awaiting(), Awaiting::Over);
    let width = usize::from(area.width.saturating_sub(2));
    let mut lines = Vec::new();
    for (seat, s) in game.seats().iter().enumerate() {
        let current = seat == focus && !over;
        let pointer = if current { "▶" } else { " " };
        let mut letter = player_style(app, seat).add_modifier(Modifier::BOLD);
        if current {
            letter = letter.add_modifier(Modifier::REVERSED);
        }
        let online = app.mode.room();
        let kind = snl_words::seat_label(
            s.kind,
            app.session.on_autopilot(seat),
            online.is_some() && app.mode.seat() == Some(seat),
            online.is_some_and(|o| o.away.get(seat) == Some(&true)),
            online.and_then(|o| o.grace_left(seat)).map(millis),
        );
        let at = app.shown[seat];
        let place = if at == 0 { "start".to_owned() } else { at.to_string() };
        let state = standing(app, seat, false);
        let name_style =
            if current { Style::new().add_modifier(Modifier::BOLD) } else { Style::new() };
        if two_lines {
            let name_width = width.saturating_sub(5 + kind.width());
            let name = fit(&s.name, name_width.max(4));
            lines.push(Line::from(vec![
                Span::raw(pointer),
                Span::styled(format!("{}", app.marks[seat]), letter),
                Span::raw(" "),
                Span::styled(name, name_style.patch(player_style(app, seat))),
                Span::styled(format!(" {kind}"), tint(app, Color::DarkGray)),
            ]));
            // What the seat carries in words when they fit, else as the board draws it.
            let line = match carried(game.has_shield(seat), game.skips_next_turn(seat)) {
                Some(words) if 2 + format!("at {place} · {state} · {words}").width() <= width => {
                    format!("  at {place} · {state} · {words}")
                }
                Some(_) => format!("  at {place}{} · {state}", carried_marks(game, seat)),
                None => format!("  at {place} · {state}"),
            };
            lines.push(Line::from(line));
        } else {
            let short = standing(app, seat, true);
            let tail = format!(" {}{place:>5} {short}", carried_marks(game, seat));
            let name = fit(&s.name, width.saturating_sub(3 + tail.width()).max(4));
            let pad = width.saturating_sub(3 + name.width() + tail.width());
            lines.push(Line::from(vec![
                Span::raw(pointer),
                Span::styled(format!("{}", app.marks[seat]), letter),
                Span::raw(" "),
                Span::styled(name, name_style.patch(player_style(app, seat))),
                Span::raw(" ".repeat(pad)),
                Span::raw(tail),
            ]));
        }
    }
    let title = " Players · fewest rolls · chance to win ";
    let title = if title.width() + 2 > usize::from(area.width) {
        " Players · rolls · win "
    } else {
        title
    };
    let title = if title.width() + 2 > usize::from(area.width) { " Players " } else { title };
    let mut block = Block::bordered().title(title).border_style(tint(app, Color::DarkGray));
    if let Some(clocks) = app.mode.clocks().filter(|_| !over) {
        block = block.title_bottom(clock_line(clocks));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The clocks, under the players: ` turn 0:25 · game 9:41 ` (the turn's while a person is
/// timed).
fn clock_line(clocks: &Clocks) -> Line<'static> {
    let (turn, game) = clocks.left();
    let Some(line) =
        snl_words::clock_status(turn.map(millis), clocks.turn_held(), game.map(millis))
    else {
        return Line::default();
    };
    Line::styled(format!(" ⏱ {line} "), Style::new().add_modifier(Modifier::BOLD))
}

/// Where a seat stands in the race: its rank once finished, else its fewest rolls to finish and
/// its chance to win (`short`: numbers only).
/// What `seat` carries, as the board draws it: a shield (◆), a turn to be skipped (✕).
fn carried_marks(game: &snl_engine::Game, seat: usize) -> String {
    let mut marks = String::new();
    if game.has_shield(seat) {
        marks.push_str(CellKind::Shield.picture().glyph);
    }
    if game.skips_next_turn(seat) {
        marks.push_str(CellKind::Skip.picture().glyph);
    }
    marks
}

fn standing(app: &App, seat: usize, short: bool) -> String {
    let game = app.session.game();
    if let Some(rank) = game.ranks()[seat] {
        // At a race's end the unfinished are ranked by position: "2nd on 41", never "finished".
        return if short {
            ordinal(rank)
        } else {
            snl_words::standing(Some(rank), game.position(seat), game.board().size())
        };
    }
    let fewest = app.fewest.get(game.positions()[seat] as usize).copied().flatten();
    let chance = app.chances.as_ref().map(|c| snl_words::chance(c[seat]));
    if short {
        let rolls = fewest.map_or_else(|| "-".to_owned(), |k| k.to_string());
        return format!("{rolls:>2} {:>4}", chance.unwrap_or_default());
    }
    let rolls = snl_words::fewest_rolls(fewest);
    match chance {
        Some(c) => format!("{rolls} · {c}"),
        None => rolls,
    }
}

fn render_log(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let width = usize::from(area.width.saturating_sub(2));
    let height = usize::from(area.height.saturating_sub(2));
    let mut lines: Vec<Line<'_>> = Vec::new();
    for said in app.log.iter().rev() {
        let style = match said.tone {
            Tone::Plain => Style::new(),
            Tone::Snake => tint(app, Color::Red),
            Tone::Ladder => tint(app, Color::Green),
            Tone::Win => Style::new().add_modifier(Modifier::BOLD),
            Tone::Note => tint(app, Color::DarkGray).add_modifier(Modifier::ITALIC),
        };
        // The lines after the first are indented by one: wrapped one column narrower.
        let wrapped = wrap_hanging(&said.text, width, 1);
        // Whole sentences only, unless the newest alone is taller than the log.
        if !lines.is_empty() && lines.len() + wrapped.len() > height {
            break;
        }
        for (k, text) in wrapped.into_iter().enumerate().rev() {
            let text = if k == 0 { text } else { format!(" {text}") };
            lines.push(Line::styled(text, style));
        }
        if lines.len() >= height {
            break;
        }
    }
    lines.truncate(height);
    lines.reverse();
    let block = Block::bordered().title(" What happened ").border_style(tint(app, Color::DarkGray));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The options of the person's choice, each with where it lands, wrapped to `width`.
fn choice_lines(app: &App, width: u16) -> Vec<Line<'static>> {
    // A replay kept at a choice shows the roll, not a choice to make.
    if app.animating() || app.mode.replay().is_some() {
        return Vec::new();
    }
    let Awaiting::Choice(decision) = app.session.awaiting() else { return Vec::new() };
    let game = app.session.game();
    let width = usize::from(width);
    let mut lines = vec![Line::from(format!(
        "{} rolled {}:",
        fit(&game.seats()[decision.seat].name, width.saturating_sub(12).max(4)),
        roll_words(decision.roll)
    ))];
    for (i, option) in decision.options.iter().enumerate() {
        let text = format!("{} {}", i + 1, describe_option(game, &decision, option));
        // The lines after the first are indented by two: wrapped two columns narrower.
        for (k, line) in wrap_hanging(&text, width, 2).into_iter().enumerate() {
            if k == 0 {
                let (key, rest) = line.split_at(1);
                lines.push(Line::from(vec![
                    Span::styled(
                        key.to_owned(),
                        Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
                    ),
                    Span::raw(rest.to_owned()),
                ]));
            } else {
                lines.push(Line::from(format!("  {line}")));
            }
        }
    }
    // Space and Enter take the first option: said here, so no option is taken unseen.
    lines.push(Line::styled(fit("Space or Enter takes 1", width), tint(app, Color::DarkGray)));
    lines
}
