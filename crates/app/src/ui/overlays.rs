//! What is drawn over or instead of the main screen: the overlays (the resume offer, a question, the new-game
//! dialog, a list of games, the help) and the "enlarge the window" screen.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use super::Options;
use crate::app::{
    App, Context, DialogRow, GameList, Help, KeyMap, NewGameDialog, Overlay, Question,
    ScreenLayout, command_list, key_help,
};
use crate::app::{OfferKind, ResumeOffer, SortKey, clock_text, min_size};
use crate::game::{HEADING_WIDTH, RulesPage, TimeControl, count};
use crate::rules::Color;
use crate::store::GameEntry;

/// A rectangle of at most `width` x `height` in the middle of `area`.
fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// Draws `overlay` over the screen `area` laid out as `layout`: the help over what it covers.
pub fn draw(
    buf: &mut Buffer,
    area: Rect,
    layout: &ScreenLayout,
    overlay: &Overlay,
    app: &App,
    options: &Options,
) {
    let keys = &app.preferences().keys;
    match overlay {
        Overlay::Resume(offer) => resume(buf, area, offer, options),
        // A question is about the game: it is asked over the board.
        Overlay::Question(asked) => {
            let opponent = app.table().and_then(|t| t.opponent_name());
            question(buf, layout.board_pane, *asked, opponent, options)
        }
        Overlay::Dialog(dialog) => new_game(buf, area, dialog, keys, options),
        Overlay::List(list) => game_list(buf, area, list, keys, options),
        Overlay::Settings(screen) => super::settings::draw(buf, area, screen),
        Overlay::Help(help) => {
            if let Some(under) = help.covers() {
                draw(buf, area, layout, under, app, options);
            }
            self::help(buf, area, keys, help, options);
        }
    }
}

/// The help overlay: every key bound and every command, or the rules of the game.
pub fn help(buf: &mut Buffer, area: Rect, keys: &KeyMap, help: &Help, options: &Options) {
    match help.rules() {
        Some(rules) => rules_page(buf, area, rules, help.scroll(), options),
        None => key_page(buf, area, keys, help.scroll(), options),
    }
}

/// The rules page: the variant's name, then each section's text wrapped beside its heading.
fn rules_page(buf: &mut Buffer, area: Rect, page: &RulesPage, scroll: usize, options: &Options) {
    let width = area.width.min(78);
    // Inside the border, a space either side, the headings' column.
    let room = usize::from(width.saturating_sub(4))
        .saturating_sub(HEADING_WIDTH + 1)
        .max(1);
    let mut lines = vec![
        Line::styled(format!(" {}", page.title), options.theme.current),
        Line::default(),
    ];
    for (heading, text) in &page.sections {
        for (index, line) in super::wrap_words(text, room).into_iter().enumerate() {
            let heading = if index == 0 { heading } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!(" {heading:<HEADING_WIDTH$} "), options.theme.quiet),
                Span::raw(line),
            ]));
        }
    }
    scrolled(
        buf, area, width, lines, scroll, "Rules", "Tab keys", options,
    );
}

/// The keys page: every key bound and every command.
fn key_page(buf: &mut Buffer, area: Rect, keys: &KeyMap, scroll: usize, options: &Options) {
    let entries = key_help(keys);
    let keys_width = entries
        .iter()
        .map(|(keys, _)| keys.chars().count())
        .max()
        .unwrap_or(0)
        .max(16);
    let text_width = entries
        .iter()
        .map(|(_, what)| what.chars().count())
        .max()
        .unwrap_or(0);
    let width = u16::try_from(keys_width + text_width + 4)
        .unwrap_or(u16::MAX)
        .max(68)
        .min(area.width);
    let mut lines: Vec<Line> = entries
        .iter()
        .map(|(keys, what)| Line::from(format!(" {keys:<keys_width$} {what}")))
        .collect();
    lines.push(Line::default());
    let commands = format!("Commands: {}", command_list());
    lines.extend(
        super::wrap_words(&commands, usize::from(width.saturating_sub(4)))
            .into_iter()
            .map(|line| Line::from(format!(" {line}"))),
    );
    scrolled(
        buf,
        area,
        width,
        lines,
        scroll,
        "Keys",
        "Tab rules",
        options,
    );
}

/// A page of the help, `width` wide in the middle of `area`, scrolled down `scroll` lines when the screen is too
/// short for all of it; the title names the page, says where the view is and how to turn to the other page.
#[allow(clippy::too_many_arguments)]
fn scrolled(
    buf: &mut Buffer,
    area: Rect,
    width: u16,
    lines: Vec<Line>,
    scroll: usize,
    name: &str,
    other: &str,
    options: &Options,
) {
    let total = lines.len();
    let rect = centred(area, width, u16::try_from(total + 2).unwrap_or(u16::MAX));
    let visible = usize::from(rect.height.saturating_sub(2)).max(1);
    let first = scroll.min(total.saturating_sub(visible));
    let title = if visible >= total {
        format!(" {name} · {other} · other keys close ")
    } else {
        format!(
            " {name} {}-{} of {total} · Up/Down scroll · {other} · other keys close ",
            first + 1,
            (first + visible).min(total)
        )
    };
    let shown: Vec<Line> = lines.into_iter().skip(first).take(visible).collect();
    boxed(buf, rect, &title, shown, options);
}

/// Lines in a bordered box over whatever was drawn there.
fn boxed(buf: &mut Buffer, rect: Rect, title: &str, lines: Vec<Line>, options: &Options) {
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(
            Block::bordered()
                .title(title)
                .border_style(options.theme.focus),
        )
        .render(rect, buf);
}

/// A time control as the dialog names it: `none`, `5 min + 3 s`, `1 min`, `30 s a move`.
fn clock_label(clock: Option<TimeControl>) -> String {
    match clock {
        None => "none".to_string(),
        Some(TimeControl::Fischer { initial, increment }) => {
            let minutes = initial.as_secs_f64() / 60.0;
            match increment.is_zero() {
                true => format!("{minutes} min"),
                false => format!("{minutes} min + {} s", increment.as_secs_f64()),
            }
        }
        Some(TimeControl::PerMove(step)) => format!("{} s a move", step.as_secs_f64()),
    }
}

/// The new-game dialog: the variant, the board, who plays each side, and the clocks.
pub fn new_game(
    buf: &mut Buffer,
    area: Rect,
    dialog: &NewGameDialog,
    keys: &KeyMap,
    options: &Options,
) {
    let key = |name: &str| {
        keys.first_key(Context::Dialog, name)
            .map_or_else(|| "-".to_string(), |k| k.to_string())
    };
    let mut lines = vec![Line::default()];
    let game_type = dialog.game_type;
    for row in dialog.rows() {
        let (label, value) = match row {
            DialogRow::Variant => ("Rules", game_type.variant.title().to_string()),
            DialogRow::Board => ("Board", format!("{0}x{0}", game_type.size)),
            DialogRow::Rows => ("Men", format!("{} rows", game_type.rows)),
            DialogRow::Opening => ("Start", dialog.opening.label()),
            DialogRow::Black => ("Black", dialog.players.of(Color::Black).to_string()),
            DialogRow::White => ("White", dialog.players.of(Color::White).to_string()),
            DialogRow::Clock => ("Clock", clock_label(dialog.clock)),
        };
        let marker = if row == dialog.row { '>' } else { ' ' };
        let line = Line::from(format!(" {marker} {label:<6} < {value:^22} >"));
        lines.push(if row == dialog.row {
            line.style(options.theme.current)
        } else {
            line
        });
        // An 11-man ballot's number alone says little: its men and moves go under it.
        if let (DialogRow::Opening, Some(detail)) = (row, dialog.opening.detail()) {
            lines.push(Line::styled(
                format!("{:11}{detail}", ""),
                options.theme.quiet,
            ));
        }
    }
    lines.push(Line::default());
    lines.push(Line::styled(
        format!(
            " {}/{}: line   {}/{}: choice",
            key("up"),
            key("down"),
            key("left"),
            key("right")
        ),
        options.theme.quiet,
    ));
    lines.push(Line::styled(
        format!(" {}: start    {}: cancel", key("pick"), key("cancel")),
        options.theme.quiet,
    ));
    lines.push(Line::styled(
        format!(" {}: set up a position first", key("setup")),
        options.theme.quiet,
    ));
    let height = lines.len() as u16 + 2;
    boxed(buf, centred(area, 40, height), " New game ", lines, options);
}

/// The list of games to choose from: date, the name a game was saved under (when any has one), players, result
/// and length, the selected one marked and kept in view, and its problem (if it has one) below.
pub fn game_list(buf: &mut Buffer, area: Rect, list: &GameList, keys: &KeyMap, options: &Options) {
    let key = |name: &str| {
        keys.first_key(Context::List, name)
            .map_or_else(|| "-".to_string(), |k| k.to_string())
    };
    // As tall as the list needs (heading, entries, the problem line, the keys, borders), within the screen.
    let wanted = u16::try_from(list.entries.len() + 5).unwrap_or(u16::MAX);
    let rect = centred(area, 78, wanted.min(area.height.saturating_sub(2)).max(8));
    // Borders, the heading, and two lines at the bottom for the selected game's problem and the keys.
    let rows = usize::from(rect.height.saturating_sub(5)).max(1);
    let first = list.selected.saturating_sub(rows - 1);
    let width = usize::from(rect.width.saturating_sub(2));
    let (up, down) = match options.pieces {
        crate::ui::PieceStyle::Unicode => ('▲', '▼'),
        crate::ui::PieceStyle::Ascii => ('^', 'v'),
    };
    let arrow = if list.view.descending { down } else { up };
    // The sorted column's name carries the arrow.
    let column = |key: SortKey, name: &str| match list.view.sort == key {
        true => format!("{name}{arrow}"),
        false => name.to_string(),
    };
    // Games saved under a name show it in a column of its own, which the players' columns make room for.
    let named = list.entries.iter().any(|e| name_of(e).is_some());
    let (name_width, player_width) = if named { (12, 12) } else { (0, 17) };
    let name_column = |name: &str| match named {
        true => format!("{:<name_width$} ", clip(name, name_width)),
        false => String::new(),
    };
    let mut lines = vec![Line::styled(
        fit(
            format!(
                "   {:<16} {}{:<player_width$} {:<player_width$} {:<10} {:>5}",
                column(SortKey::Date, "Date"),
                name_column("Name"),
                column(SortKey::Black, "Black"),
                column(SortKey::White, "White"),
                column(SortKey::Result, "Result"),
                column(SortKey::Moves, "Moves")
            ),
            width,
        ),
        options.theme.quiet,
    )];
    for (i, (_, entry)) in list.shown().enumerate().skip(first).take(rows) {
        let marker = if i == list.selected { '>' } else { ' ' };
        let flag = if entry.error.is_some() { '!' } else { ' ' };
        let text = fit(
            format!(
                " {marker}{flag}{:<16} {}{:<player_width$} {:<player_width$} {:<10} {:>5}",
                when(entry),
                name_column(name_of(entry).unwrap_or("")),
                clip(entry.tag("Black"), player_width),
                clip(entry.tag("White"), player_width),
                clip(state(entry), 10),
                moves_of(entry)
            ),
            width,
        );
        lines.push(if i == list.selected {
            Line::styled(text, options.theme.current)
        } else {
            Line::from(text)
        });
    }
    if list.view.shown.is_empty() {
        lines.push(Line::styled(
            format!("   no game has all of: {}", list.view.filter),
            options.theme.quiet,
        ));
    }
    while lines.len() < rows + 1 {
        lines.push(Line::default());
    }
    let chosen = list.chosen();
    let about = match chosen.and_then(|e| e.error.as_deref()) {
        Some(error) => format!(" ! {error}"),
        None => chosen.map_or_else(String::new, |e| format!("   {}", e.tag("Event"))),
    };
    lines.push(Line::from(fit(about, width)));
    let keys_line = if list.view.typing {
        format!(
            " find: {}_   Enter: open   Esc: clear   Up/Down: choose",
            list.view.filter
        )
    } else {
        format!(
            " {}: open   {}: find   {}/{}: sort ({})   {}: close",
            key("open"),
            key("filter"),
            key("sort"),
            key("reverse"),
            list.view.sort.name(),
            key("cancel")
        )
    };
    lines.push(Line::styled(fit(keys_line, width), options.theme.quiet));
    let title = match (list.view.shown.len(), list.entries.len()) {
        (shown, all) if shown == all && list.view.filter.is_empty() => {
            format!(" {} ({}) ", list.title, count(all, "game", "games"))
        }
        (shown, all) => format!(
            " {} ({shown} of {all} games: {}) ",
            list.title, list.view.filter
        ),
    };
    boxed(buf, rect, &title, lines, options);
}

/// The name a saved game was saved under (`:save NAME`), if it was.
fn name_of(entry: &GameEntry) -> Option<&str> {
    entry
        .game
        .tags()
        .get(crate::store::NAME_TAG)
        .map(str::trim)
        .filter(|name| !name.is_empty())
}

/// When the game was played: `2026-11-23 14:05` (the time when the record has one).
fn when(entry: &GameEntry) -> String {
    let date = clip(entry.tag("Date"), 10).replace('.', "-");
    match entry.game.tags().get("Time").map(str::trim) {
        Some(time) if time.len() >= 5 => format!("{date} {}", clip(time, 5)),
        _ => date,
    }
}

/// The result, or whether one of the program's own games is still to be finished.
fn state(entry: &GameEntry) -> &str {
    match entry.result() {
        "*" if entry.players.is_some() => "unfinished",
        result => result,
    }
}

/// The length of a game as records number it: a move is one by each side.
fn moves_of(entry: &GameEntry) -> usize {
    crate::game::moves_played(entry.game.start(), entry.game.len())
}

/// At most `width` characters of `text`.
fn clip(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

/// A line cut to `width` characters, so that a long one is not wrapped onto the next.
fn fit(text: String, width: usize) -> String {
    if text.chars().count() <= width {
        text
    } else {
        clip(&text, width)
    }
}

/// Shown instead of the game when the screen is too small to draw it.
pub fn too_small(buf: &mut Buffer, area: Rect, app: &App) {
    let quit = app
        .preferences()
        .keys
        .first_key(Context::Board, "quit")
        .map_or_else(|| "Ctrl-c".to_string(), |k| k.to_string());
    let (min_width, min_height) = min_size(app.board());
    let mut text = format!(
        "Enlarge the window to at least {min_width}x{min_height} (it is {}x{}). The game goes on when it fits; \
         {quit} quits.",
        area.width, area.height
    );
    if let Some(asked @ Question::Quit { .. }) = app.question() {
        // The question is asked over the board, which is not on show.
        text = format!("{} {text}", asked.text());
    }
    let height = 4.min(area.height);
    let rect = Rect::new(
        area.x,
        area.y + (area.height - height) / 2,
        area.width,
        height,
    );
    Paragraph::new(text)
        .alignment(Alignment::Center)
        .wrap(Wrap { trim: true })
        .render(rect, buf);
}

/// The question asked at start when an unfinished game was saved.
pub fn resume(buf: &mut Buffer, area: Rect, offer: &ResumeOffer, options: &Options) {
    let (game, players) = (&offer.game, offer.players);
    let date = game.tags().get("Date").unwrap_or("an earlier session");
    let mut lines = vec![
        Line::default(),
        Line::from(format!(" An unfinished game from {date}:")),
        Line::from(format!(
            " Black {}, White {}, {} played.",
            players.black,
            players.white,
            count(game.moves_played(), "move", "moves")
        )),
    ];
    if let Some(clock) = &offer.clock {
        lines.push(Line::from(format!(
            " Clocks {}: Black {}, White {}.",
            clock.control,
            clock_text(clock.left[Color::Black.index()]),
            clock_text(clock.left[Color::White.index()])
        )));
    }
    lines.extend([
        Line::default(),
        Line::from(" y, Enter: resume it"),
        Line::from(" n, Esc:   new game (it is kept in saved games)"),
    ]);
    let height = lines.len() as u16 + 2;
    boxed(buf, centred(area, 60, height), " Resume? ", lines, options);
}

/// A yes/no question, over the middle of the board; an offer at a table names the `opponent` who makes it.
pub fn question(
    buf: &mut Buffer,
    board: Rect,
    question: Question,
    opponent: Option<&str>,
    options: &Options,
) {
    let text = question.text_from(opponent);
    let title = match question {
        Question::Resign(_) => " Resign? ",
        Question::Draw { .. } | Question::Offered(OfferKind::Draw) => " Draw offered ",
        Question::Offered(OfferKind::Takeback) => " Takeback asked ",
        Question::Offered(OfferKind::Pause) => " Pause asked ",
        Question::Offered(OfferKind::Rematch) => " Rematch offered ",
        Question::Quit { leaving: true } => " Leave? ",
        Question::Quit { leaving: false } => " Quit? ",
    };
    let width = board.width.saturating_sub(2).clamp(20, 44);
    let lines: Vec<Line> = std::iter::once(Line::default())
        .chain(
            super::wrap_words(&text, usize::from(width.saturating_sub(4)))
                .into_iter()
                .map(|l| Line::from(format!(" {l}"))),
        )
        .collect();
    let height = u16::try_from(lines.len() + 3).unwrap_or(u16::MAX);
    boxed(buf, centred(board, width, height), title, lines, options);
}
