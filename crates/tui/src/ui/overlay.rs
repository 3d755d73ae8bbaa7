//! Boxes drawn over the board: the help, the quit question and the end of the game.

use ratatui::{
    Frame,
    layout::{Alignment, Rect},
    style::{Color, Modifier, Style},
    text::{Line, Span},
    widgets::{Block, Clear, Paragraph, Wrap},
};
use unicode_width::UnicodeWidthStr;

use super::style::{fit, hue_style, player_style, tint, wrap, wrap_hanging};
use snl_words::{CellKind, agree, rules_in_words};

use crate::app::{App, Mode};

/// A box of `lines` centred in `area`, as small as they allow.
fn boxed(frame: &mut Frame<'_>, area: Rect, title: &str, lines: Vec<Line<'_>>, style: Style) {
    let width = lines.iter().map(Line::width).max().unwrap_or(0).max(title.width() + 2) as u16 + 4;
    let width = width.min(area.width);
    let height = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    frame.render_widget(Clear, rect);
    let block = Block::bordered().title(title.to_owned()).border_style(style);
    let paragraph = Paragraph::new(lines).block(block).wrap(Wrap { trim: false });
    frame.render_widget(paragraph, rect.inner(ratatui::layout::Margin::new(0, 0)));
}

/// The keys, the marks on the board, and the key to the tokens.
pub(super) fn help(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let key = |k: &str, what: &str| {
        Line::from(vec![
            Span::styled(format!(" {k:<14}"), Style::new().add_modifier(Modifier::BOLD)),
            Span::raw(what.to_owned()),
        ])
    };
    let mut lines = if app.mode.replay().is_some() {
        vec![
            key("Space Enter", "play, pause (at the end: from the start)"),
            key("← →  , .", "one turn back, one forward"),
            key("[ ]", "ten turns back, ten forward"),
            key("Home End", "the start, the end (g G)"),
            key("0-9 Enter", "go to a turn: its number, then Enter"),
            key("+ -", "faster, slower (¼× to 64×)"),
            key("d", "dice so far: each face against fair dice"),
            key("↑ ↓ PgUp PgDn", "scroll a large board; f follows again"),
            key("?", "this help"),
            key("q  Esc", "leave the replay"),
        ]
    } else if app.mode.room().is_some() {
        let mut keys = Vec::new();
        if app.mode.seat().is_some() {
            keys.extend([
                key("Space Enter", "roll the dice when it is your turn"),
                key("1 … 9", "choose an option (each says where it lands)"),
                key("a", "autopilot: the server's computer plays your seat"),
                key("c", "chat: type a line, Enter sends it, Esc drops it"),
            ]);
        } else {
            keys.push(key("", "you watch: the players' moves come as they play"));
        }
        keys.extend([
            key("d", "dice so far: each face against fair dice"),
            key("↑ ↓ PgUp PgDn", "scroll a large board; f follows again"),
            key("?", "this help"),
        ]);
        if app.mode.seat().is_some() {
            keys.push(key("q  Ctrl-C", "leave (the seat stays yours, to come back)"));
        } else {
            keys.push(key("q  Ctrl-C", "stop watching"));
        }
        keys
    } else {
        vec![
            key("Space Enter", "roll the dice (at a choice: option 1, as it says)"),
            key("1 … 9", "choose an option (each says where it lands)"),
            key("u  r", "undo, redo your last turn"),
            key("a", "autopilot: the computer plays your seat; a again"),
            key("s", "save the game to a file, to go on later"),
            key("d", "dice so far: each face against fair dice"),
            key("↑ ↓ PgUp PgDn", "scroll a large board; f follows again"),
            key("?", "this help"),
            key("q  Ctrl-C", "leave (the game is kept, to resume)"),
        ]
    };
    lines.push(Line::raw(""));
    // What the board's cells are, as the board draws them (only the kinds this board has).
    let board = app.session.game().board();
    for kind in CellKind::ALL.into_iter().filter(|k| k.on(board)) {
        let picture = kind.picture();
        lines.push(Line::from(vec![
            Span::styled(format!(" {}", picture.glyph), hue_style(app, picture.hue)),
            Span::raw(format!(" {}", picture.meaning)),
        ]));
    }
    let goes = if CellKind::Wormhole.on(board) {
        " →   where a jump goes (→3? a wormhole's three exits)"
    } else {
        " →   where a jump goes"
    };
    lines.extend([
        Line::raw(goes),
        Line::raw(" ×5  five tokens on one cell: see Players for who"),
        Line::raw(""),
    ]);
    let game = app.session.game();
    let mut tokens = vec![Span::raw(" Tokens: ")];
    for (seat, s) in game.seats().iter().enumerate() {
        tokens.push(Span::styled(
            app.marks[seat].to_string(),
            player_style(app, seat).add_modifier(Modifier::BOLD),
        ));
        tokens.push(Span::raw(format!(" {}  ", fit(&s.name, 12))));
    }
    lines.push(Line::from(tokens));
    // The rules in force, where the box leaves the header and the footer uncovered.
    let rules = format!("Rules: {}", rules_in_words(game.rules()));
    let width = usize::from(area.width.saturating_sub(6)).min(64);
    let rules: Vec<String> = wrap(&rules, width);
    if lines.len() + rules.len() + 5 <= usize::from(area.height) {
        lines.push(Line::raw(""));
        lines.extend(rules.into_iter().map(|line| Line::raw(format!(" {line}"))));
    }
    boxed(
        frame,
        area,
        " Help — any key goes back ",
        lines,
        Style::new().add_modifier(Modifier::BOLD),
    );
}

/// The dice panel: each seat's faces this game and over its player's recorded games.
pub(super) fn dice(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let width = usize::from(area.width.saturating_sub(8)).clamp(20, 112);
    let mut lines = Vec::new();
    let fallback;
    let history = if let Some(history) = &app.dice_history {
        history
    } else {
        fallback = crate::dice::history(app);
        &fallback
    };
    let game = app.session.game();
    for (seat, (now, before)) in crate::dice::seat_lines(app, history).into_iter().enumerate() {
        lines.push(Line::from(vec![
            Span::styled(
                format!(" {} ", app.marks[seat]),
                player_style(app, seat).add_modifier(Modifier::BOLD),
            ),
            Span::styled(
                fit(&game.seats()[seat].name, 24),
                Style::new().add_modifier(Modifier::BOLD),
            ),
        ]));
        for (what, said) in [("this game", now), ("history", before)] {
            for part in wrap_hanging(&format!("{what}: {said}"), width, 4) {
                lines.push(Line::raw(format!("   {part}")));
            }
        }
    }
    lines.push(Line::raw(""));
    let note = format!(
        "p: the chance that fair dice look at least this uneven (Pearson's chi-square test). {}",
        history.over
    );
    for part in wrap(&note, width) {
        lines.push(Line::raw(format!(" {part}")));
    }
    boxed(
        frame,
        area,
        " Dice so far — any key goes back ",
        lines,
        Style::new().add_modifier(Modifier::BOLD),
    );
}

/// "Leave the game?" with how to go on with it.
pub(super) fn confirm_quit(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let how = match app.mode {
        Mode::Seat { .. } => Some(
            "Your seat stays yours while you are away: the way back is printed when you leave."
                .to_owned(),
        ),
        Mode::Spectator { .. } => Some("The game goes on without you watching.".to_owned()),
        Mode::Local { .. } | Mode::Replay(_) => app.kept.how_to_go_on(),
    };
    let first = if app.mode.room().is_some() {
        "Leave the room?"
    } else if how.is_some() {
        "Leave the game? It is kept to go on later."
    } else {
        "Leave the game? It is not kept (no database, no save: s saves it)."
    };
    let mut lines = vec![Line::raw(first)];
    if let Some(how) = how {
        for line in wrap(&how, usize::from(area.width.saturating_sub(6)).min(46)) {
            lines.push(Line::raw(line));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(" y ", Style::new().add_modifier(Modifier::REVERSED)),
        Span::raw(" leave   "),
        Span::styled(" n ", Style::new().add_modifier(Modifier::REVERSED)),
        Span::raw(" keep playing"),
    ]));
    boxed(frame, area, " Quit ", lines, tint(app, Color::Yellow).add_modifier(Modifier::BOLD));
}

/// The winner and the ranking.
pub(super) fn the_end(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let game = app.session.game();
    let mut lines = Vec::new();
    let names = game.ranking().iter().map(|&seat| fit(&game.seats()[seat].name, 20));
    let wide = names.map(|name| name.width()).max().unwrap_or(0);
    for (rank, &seat) in (1..).zip(game.ranking()) {
        let name = fit(&game.seats()[seat].name, 20);
        let pad = " ".repeat(wide - name.width());
        let standing = snl_words::standing(Some(rank), game.positions()[seat], game.board().size());
        lines.push(Line::from(vec![
            Span::raw(format!("{rank}. ")),
            Span::styled(
                app.marks[seat].to_string(),
                player_style(app, seat).add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!(" {name}{pad}  {standing}")),
        ]));
    }
    if !app.awards.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::raw("Achievements earned:"));
        let width = usize::from(area.width.saturating_sub(6)).min(60);
        for (seat, text) in &app.awards {
            let name = game.seats().get(*seat).map_or("?", |s| s.name.as_str());
            let said =
                wrap_hanging(&format!("{} — {text}", fit(name, 20)), width.saturating_sub(2), 2);
            for (i, part) in said.into_iter().enumerate() {
                let mark = match i {
                    0 => Span::styled(
                        app.marks.get(*seat).map_or(' ', |m| *m).to_string(),
                        player_style(app, *seat).add_modifier(Modifier::BOLD),
                    ),
                    _ => Span::raw("  "),
                };
                lines.push(Line::from(vec![mark, Span::raw(format!(" {part}"))]));
            }
        }
    }
    // A game of a series online: where it stands, and the key to the next game.
    let series =
        app.mode.room().and_then(|r| r.series.as_ref()).filter(|_| app.mode.replay().is_none());
    if let Some(series) = series {
        lines.push(Line::raw(""));
        let width = usize::from(area.width.saturating_sub(6)).min(60);
        for part in wrap_hanging(&series.text, width, 0) {
            lines.push(Line::raw(part));
        }
    }
    lines.push(Line::raw(""));
    let keys = match (app.mode.replay(), series) {
        (Some(_), _) => "← steps back · Space from the start · q leaves",
        (None, Some(s)) if !s.decided => "n next game · q or Enter leaves",
        (None, _) => "q or Enter leaves",
    };
    lines.push(Line::raw(keys).alignment(Alignment::Center));
    let title = match game.ranking().first() {
        Some(&w) => format!(" {}! ", agree(&fit(&game.seats()[w].name, 24), "wins", "win")),
        None => " Game over ".to_owned(),
    };
    boxed(frame, area, &title, lines, tint(app, Color::Yellow).add_modifier(Modifier::BOLD));
}
