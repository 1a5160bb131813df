//! The move history and the status line.

use std::collections::VecDeque;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::theme::{Glyphs as _, PieceStyle};
use super::{Options, pane_block};
use crate::app::{App, Focus, Mode, Purpose, TableView, Thinking, clock_text, clock_text_fine};
use crate::engine::Score;
use crate::rules::{Color, GameType, Goal, Piece, Role};

/// Chat lines shown at most under the moves of a game at a table.
const CHAT_ROWS: usize = 3;

/// Rows the comment on the move on show takes at most under the moves.
const COMMENT_ROWS: usize = 4;
/// The comment takes a quarter of the rows below the header, but two once there are this many: an analysis
/// comment (the better move, what it promised, what the move played left) needs two lines at 80x24, even with
/// the game-over panel under the moves.
const ROWS_FOR_A_TWO_LINE_COMMENT: u16 = 6;
/// Rows inside the move list below which the line naming the variant gives way: at 80x24 under the analysis
/// graph the list has ten, and the moves, a two-line comment and the game-over panel need them all (the rules
/// page still names the variant).
const ROWS_FOR_THE_VARIANT_LINE: u16 = 12;

/// Width of a move's column in the history.
const MOVE_WIDTH: usize = 9;

/// Draws the move history: the players and the result at the top (always in view), then the moves two to a
/// line, the shown move highlighted and kept in view, moves that were taken back (the redo line) dimmed; when
/// the game is over and on show, the game-over panel at the bottom.
pub fn history(buf: &mut Buffer, area: Rect, app: &App, options: &Options) {
    let block = pane_block(
        history_title(app),
        app.focus() == Focus::History,
        &options.theme,
    );
    let mut inner = block.inner(area);
    block.render(area, buf);

    let with_variant = inner.height >= ROWS_FOR_THE_VARIANT_LINE;
    let header = header_lines(app, options, usize::from(inner.width), with_variant);
    let header_height = u16::try_from(header.len())
        .unwrap_or(u16::MAX)
        .min(inner.height);
    Paragraph::new(header).render(
        Rect {
            height: header_height,
            ..inner
        },
        buf,
    );
    inner.y += header_height;
    inner.height -= header_height;

    // From the bottom up: the table's chat, the comment on the move on show, the game-over panel; the moves
    // get what is left.
    if let Some(table) = app.table() {
        chat(buf, &mut inner, table.chat(), options);
    }
    comment(buf, &mut inner, app, options);
    if matches!(app.mode(), Mode::Over(_)) && app.replay().is_none() {
        let panel = super::game_over::panel(app, options);
        let height = panel.height(inner);
        if height > 0 {
            panel.render(take_bottom(&mut inner, height), buf);
        }
    }
    move_columns(buf, inner, app, options);
}

/// The history's title: the file being replayed, or the table with its watchers and whether its records wait.
fn history_title(app: &App) -> String {
    match (app.replay(), app.table()) {
        (Some(replay), _) => format!(" Moves · {} ", replay.source),
        (None, Some(table)) => {
            let watchers = table.state().map_or(0, |s| s.watchers);
            let unsaved = table.state().is_some_and(|s| s.unrecorded);
            let mut title = format!(" Moves · table {} ", table.code());
            if watchers > 0 {
                title.push_str(&format!("· {watchers} watching "));
            }
            let silent = table.state().is_some_and(|s| s.node_silent);
            // Short, to fit beside the rest: the status line says the whole.
            if silent {
                title.push_str("· paused ");
            } else if unsaved {
                title.push_str("· cannot save ");
            }
            title
        }
        (None, None) => " Moves ".to_string(),
    }
}

/// The game's rules in a few words, above its players: the variant's name, its board when it is not the usual
/// one, and its goal when it is not the usual one (antidraughts and breakthrough look like international
/// draughts, and play the other way round).
pub fn variant_line(game_type: GameType) -> String {
    let variant = game_type.variant;
    let mut line = format!(" {}", variant.title());
    if game_type.size != variant.board_size() {
        line.push_str(&format!(" on {0}x{0}", game_type.size));
    }
    match variant.goal() {
        Goal::NoMoveLoses => {}
        Goal::NoMoveWins => line.push_str(" · whoever cannot move wins"),
        Goal::FirstKingWins => line.push_str(" · first king wins"),
    }
    line
}

/// `text` cut to `width` characters, ending with `ellipsis` when cut.
fn clipped_line(text: &str, width: usize, ellipsis: &str) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let keep = width.saturating_sub(ellipsis.chars().count());
    let mut cut: String = text.chars().take(keep).collect();
    cut.push_str(ellipsis);
    cut
}

/// The bottom `height` rows of `area`, taken from it.
fn take_bottom(area: &mut Rect, height: u16) -> Rect {
    let height = height.min(area.height);
    area.height -= height;
    Rect::new(area.x, area.bottom(), area.width, height)
}

/// At a table, the latest chat lines at the bottom, when there is room for the moves as well.
fn chat(buf: &mut Buffer, area: &mut Rect, chat: &VecDeque<String>, options: &Options) {
    let rows = chat.len().min(CHAT_ROWS).min(usize::from(area.height / 4));
    if rows == 0 {
        return;
    }
    let width = usize::from(area.width);
    let lines: Vec<Line> = chat
        .iter()
        .skip(chat.len() - rows)
        .map(|line| {
            let text: String = format!(" {line}").chars().take(width).collect();
            Line::styled(text, options.theme.quiet)
        })
        .collect();
    let rect = take_bottom(area, rows as u16);
    Paragraph::new(lines).render(rect, buf);
}

/// The comment on the move on show, at the bottom (a game from a file, an analysed game, the player's own).
fn comment(buf: &mut Buffer, area: &mut Rect, app: &App, options: &Options) {
    let shown = match app.mode() {
        Mode::Browsing { ply } => ply,
        _ => app.game().ply(),
    };
    let Some(comment) = app.game().comment(shown) else {
        return;
    };
    let quarter = area.height / 4;
    let rows = match area.height >= ROWS_FOR_A_TWO_LINE_COMMENT {
        true => usize::from(quarter.max(2)),
        false => usize::from(quarter),
    }
    .min(COMMENT_ROWS);
    let ellipsis = match options.pieces {
        PieceStyle::Unicode => "…",
        PieceStyle::Ascii => "...",
    };
    let width = usize::from(area.width).saturating_sub(3);
    let lines: Vec<Line> = super::fit_words(comment, width, rows, ellipsis)
        .into_iter()
        .map(|line| Line::styled(format!("  {line}"), options.theme.quiet))
        .collect();
    if !lines.is_empty() {
        let rect = take_bottom(area, lines.len() as u16);
        Paragraph::new(lines).render(rect, buf);
    }
}

/// The moves in `area`: two to a line, and a wide list in columns, read down then across, instead of leaving
/// the width empty.
fn move_columns(buf: &mut Buffer, area: Rect, app: &App, options: &Options) {
    let columns = (area.width / MOVE_COLUMN_WIDTH).clamp(1, MAX_MOVE_COLUMNS);
    let column_width = if columns > 1 {
        MOVE_COLUMN_WIDTH
    } else {
        area.width
    };
    let rows = usize::from(area.height);
    let lines = move_lines(
        app,
        options,
        usize::from(column_width),
        rows * usize::from(columns),
    );
    let mut lines = lines.into_iter();
    for column in 0..columns {
        let rect = Rect::new(
            area.x + column * column_width,
            area.y,
            column_width.min(area.width),
            area.height,
        );
        let part: Vec<Line> = lines.by_ref().take(rows.max(1)).collect();
        if part.is_empty() {
            break;
        }
        Paragraph::new(part).render(rect, buf);
    }
}

/// The most lines the opening's name takes at the top of the move list.
const OPENING_ROWS: usize = 2;

/// The width a column of moves takes in a wide move list: the move number, two moves and a gap.
const MOVE_COLUMN_WIDTH: u16 = 5 + 2 * (MOVE_WIDTH as u16 + 1) + 3;

/// The most columns of moves side by side.
const MAX_MOVE_COLUMNS: u16 = 4;

/// The lines that stay at the top of the move list: the variant (when `with_variant`), who plays (or played)
/// each side, the result once there is one, then a blank line.
fn header_lines<'a>(
    app: &App,
    options: &Options,
    width: usize,
    with_variant: bool,
) -> Vec<Line<'a>> {
    let ellipsis = match options.pieces {
        PieceStyle::Unicode => "…",
        PieceStyle::Ascii => "...",
    };
    // The rules in words, or by their short name (`english 14x14`) where the words do not fit.
    let game_type = app.game().game_type();
    let mut rules = variant_line(game_type);
    if rules.chars().count() > width {
        rules = format!(" {game_type}");
    }
    let mut lines: Vec<Line> = Vec::new();
    if with_variant {
        lines.push(Line::styled(
            clipped_line(&rules, width, ellipsis),
            options.theme.quiet,
        ));
    }
    lines.extend([Color::Black, Color::White].into_iter().map(|color| {
        let glyph = options.pieces.glyph(Piece::new(color, Role::Man));
        if let Some(table) = app.table() {
            return seat_line(table, color, glyph, width, options);
        }
        // A replayed game shows who played it in the record; a game being played, who plays it here.
        let player = match app.replay() {
            Some(replay) => replay.names[color.index()].clone(),
            None => app.players().of(color).to_string(),
        };
        let left = format!(" {glyph} {:<6}{player}", color.to_string());
        match app.clocks() {
            Some(clocks) => {
                let running = clocks.running == Some(color);
                name_and_clock(
                    left,
                    clock_label(clock_text_fine(clocks.left[color.index()]), running),
                    running,
                    width,
                    options,
                )
            }
            None => Line::from(left),
        }
    }));
    if let Some(opening) = app.game().tags().get(crate::app::OPENING_TAG) {
        // A ballot's name and moves wrap onto a second line rather than being cut.
        lines.extend(
            super::fit_words(
                opening,
                width.saturating_sub(1).max(1),
                OPENING_ROWS,
                ellipsis,
            )
            .into_iter()
            .map(|line| Line::styled(format!(" {line}"), options.theme.quiet)),
        );
    }
    // A replayed record shows how it ended; a game of one's own, how it stands at its current point: moves taken
    // back take their result with them (they wait to be redone, they are not the game).
    let outcome = match app.replay() {
        Some(_) => app.game().final_outcome(),
        None => app.game().outcome(),
    };
    if let Some(outcome) = outcome {
        let result = match outcome.winner() {
            Some(winner) => format!("{winner} wins"),
            None if outcome.is_aborted() => "aborted".to_string(),
            None => "drawn".to_string(),
        };
        lines.push(Line::styled(
            format!(" {} · {result}", app.game().result_token(Some(outcome))),
            options.theme.current,
        ));
    }
    lines.push(Line::default());
    lines
}

/// A seat at a table: the glyph, the player's name (`you` marked) and rating, and at the right their clock,
/// marked while it runs, after how long they have left to come back when they have gone (`gone` once that is
/// over).
fn seat_line<'a>(
    table: &TableView,
    color: Color,
    glyph: char,
    width: usize,
    options: &Options,
) -> Line<'a> {
    let seat = table.seat_view(color);
    let mut name = match seat {
        Some(seat) => match (seat.rating_change(), seat.rating) {
            (Some(change), _) => format!("{} {change}", seat.name),
            (None, Some(rating)) => format!(
                "{} ({})",
                seat.name,
                crate::app::lobby::rating_text(rating, seat.provisional)
            ),
            (None, None) => seat.name.clone(),
        },
        None => "(free seat)".to_string(),
    };
    if table.seat() == Some(color) {
        name.push_str(" · you");
    }
    let running = table.state().and_then(|s| s.running) == Some(color);
    let clock = table
        .clocks()
        .map(|clocks| clock_label(clock_text(clocks[color.index()]), running));
    // An absent player's clock stays in view beside the time they have left to come back: it may be running.
    let away = seat.and_then(|s| s.away).map(|left| match left.is_zero() {
        true => "gone".to_string(),
        false => format!("away {}", clock_text(left)),
    });
    let right = match (away, clock) {
        (Some(away), Some(clock)) => format!("{away} {clock}"),
        (Some(away), None) => away,
        (None, clock) => clock.unwrap_or_default(),
    };
    name_and_clock(format!(" {glyph} {name}"), right, running, width, options)
}

/// A clock as the player list shows it: marked `>` while it runs.
fn clock_label(text: String, running: bool) -> String {
    let mark = if running { ">" } else { " " };
    format!("{mark}{text}")
}

/// A player's line: the name at the left (cut to leave room), the clock at the right, picked out while it runs.
fn name_and_clock<'a>(
    left: String,
    right: String,
    running: bool,
    width: usize,
    options: &Options,
) -> Line<'a> {
    let room = width.saturating_sub(right.chars().count() + 1);
    let left: String = left.chars().take(room).collect();
    let gap = width.saturating_sub(left.chars().count() + right.chars().count() + 1);
    let style = if running {
        options.theme.current
    } else {
        Style::new()
    };
    Line::from(vec![
        Span::raw(left),
        Span::raw(" ".repeat(gap)),
        Span::styled(right, style),
    ])
}

/// The lines of the move list that fit in `height` rows: the moves two to a line (one line per move number),
/// scrolled just enough to keep the move on show in view, then any notes below them. Only the lines in view are
/// made, so a frame costs the same whatever the length of the game.
fn move_lines<'a>(app: &App, options: &Options, width: usize, height: usize) -> Vec<Line<'a>> {
    let theme = &options.theme;
    let game = app.game();
    let shown = match app.mode() {
        Mode::Browsing { ply } => ply,
        _ => game.ply(),
    };
    let window = MoveWindow::new(game, shown, height);
    let mut lines: Vec<Line> = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    for ply in window.plies.clone() {
        let Some(number) = game.move_number(ply) else {
            break;
        };
        if !number.second || spans.is_empty() {
            spans.push(Span::raw(format!("{:>3}. ", number.number)));
            if number.second {
                // A game set up with the second player to move starts its first line with "...".
                spans.push(Span::raw(format!("{:<MOVE_WIDTH$} ", "...")));
            }
        }
        let mut text = game
            .move_text(ply, options.notation_for(game.variant()))
            .unwrap_or_default();
        if let Some(mark) = game.mark(ply) {
            text.push_str(mark.symbol());
        }
        let style = if ply == shown {
            theme.current
        } else if ply > game.ply() {
            theme.quiet
        } else {
            Style::new()
        };
        spans.push(Span::styled(format!("{text:<MOVE_WIDTH$}"), style));
        spans.push(Span::raw(" "));
        if number.second {
            lines.push(Line::from(std::mem::take(&mut spans)));
        }
    }
    if !spans.is_empty() {
        lines.push(Line::from(spans));
    }
    let mut notes: Vec<Line> = Vec::new();
    if game.is_empty() {
        notes.push(Line::styled("   no moves yet", theme.quiet));
    }
    if let Some(error) = app.replay().and_then(|r| r.error.as_deref()) {
        notes.push(Line::default());
        let text = format!("! The record stops here: {error}");
        notes.extend(
            super::wrap_words(&text, width.saturating_sub(4).max(10))
                .into_iter()
                .map(|line| Line::styled(format!("   {line}"), theme.quiet)),
        );
    }
    // The notes follow the last move; those that fit below the lines in view are shown.
    let room = height.saturating_sub(lines.len());
    let skipped = window.first_line.saturating_sub(window.lines);
    lines.extend(notes.into_iter().skip(skipped).take(room));
    lines
}

/// Which part of the move list is in view.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MoveWindow {
    /// The moves on the lines in view.
    plies: std::ops::RangeInclusive<usize>,
    /// The first line in view, counting from the first line of moves.
    first_line: usize,
    /// How many lines of moves there are in all.
    lines: usize,
}

impl MoveWindow {
    /// The lines in view when `height` rows show a game of `game.len()` moves with move `shown` kept in view.
    fn new(game: &crate::game::AnyGame, shown: usize, height: usize) -> MoveWindow {
        let first_is_second = game.move_number(1).is_some_and(|n| n.second);
        MoveWindow::of(game.len(), first_is_second, shown, height)
    }

    /// The window for `len` moves, the first of which is the second of its number when `first_is_second`.
    /// Each line holds one move number: the first line only the first move when it is a second one.
    fn of(len: usize, first_is_second: bool, shown: usize, height: usize) -> MoveWindow {
        let offset = usize::from(first_is_second);
        // Move `ply` (1-based) is on line (ply - 1 + offset) / 2.
        let line_of = |ply: usize| (ply.saturating_sub(1) + offset) / 2;
        let first_ply_of = |line: usize| (2 * line + 1).saturating_sub(offset).max(1);
        let lines = if len == 0 { 0 } else { line_of(len) + 1 };
        let current = line_of(shown.clamp(1, len.max(1)));
        let first_line = (current + 1).saturating_sub(height);
        let end_line = first_line + height;
        let last_ply = first_ply_of(end_line).saturating_sub(1).min(len);
        MoveWindow {
            plies: first_ply_of(first_line)..=last_ply,
            first_line,
            lines,
        }
    }
}

/// Draws the status line: the app's message and, while the engine thinks, how far it has got and how it sees
/// the game (or, while it ponders, that it thinks on the player's time). A message too long for the line wraps
/// onto the second row when there is one, and is shortened at a word boundary with an ellipsis when even that
/// is not enough.
pub fn status(buf: &mut Buffer, area: Rect, app: &App, options: &Options) {
    let mut text = app.status().to_string();
    let side = app.game().position().side_to_move();
    if let Some(thinking) = app
        .thinking()
        .filter(|t| matches!(t.purpose, Purpose::Move | Purpose::Hint))
    {
        text.push_str(&thinking_text(thinking, side));
    }
    if app.pondering_on().is_some() {
        // Without this the engine would use the cores unseen while the line says it is the player's move. The
        // reply it expects is not shown: it would be a hint.
        text.push_str(" · the engine thinks on your time");
    }
    if let Some(hint) = app.hint() {
        let notation = options.notation_for(app.game().variant());
        let mv = app.game().position().write_move(&hint.mv, notation);
        text.push_str(&format!(" · hint: {mv}"));
        if let Some(score) = hint.score {
            text.push_str(&format!(" ({})", score.describe(side)));
        }
    }
    let ellipsis = match options.pieces {
        PieceStyle::Unicode => "…",
        PieceStyle::Ascii => "...",
    };
    let width = usize::from(area.width.saturating_sub(1));
    let lines: Vec<Line> = super::fit_words(&text, width, usize::from(area.height), ellipsis)
        .into_iter()
        .map(|line| Line::from(format!(" {line}")))
        .collect();
    Paragraph::new(lines).render(area, buf);
}

/// How far the search has got and how the engine sees the game, naming the side it favours.
fn thinking_text(thinking: Thinking, side_to_move: Color) -> String {
    match (thinking.depth, thinking.score) {
        // The endgame databases answer without a search: no depth to speak of.
        (_, Some(score @ (Score::DatabaseWin | Score::DatabaseLoss))) => {
            format!(" · {}", score.describe(side_to_move))
        }
        (Some(depth), Some(score)) => {
            format!(" · depth {depth}, {}", score.describe(side_to_move))
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{MoveWindow, thinking_text};
    use crate::app::{Purpose, Thinking};
    use crate::engine::Score;
    use crate::rules::Color;

    #[test]
    fn the_thinking_line_names_database_results_without_a_depth() {
        let thinking = |depth, score| Thinking {
            search: 1,
            purpose: Purpose::Move,
            depth,
            score: Some(score),
        };
        assert_eq!(
            thinking_text(thinking(Some(0), Score::DatabaseWin), Color::White),
            " · database win for White"
        );
        assert_eq!(
            thinking_text(thinking(Some(9), Score::DatabaseLoss), Color::White),
            " · database win for Black"
        );
        assert_eq!(
            thinking_text(thinking(Some(9), Score::Centi(50)), Color::Black),
            " · depth 9, +0.50 for Black"
        );
    }

    #[test]
    fn the_window_follows_the_shown_move_in_games_of_any_length() {
        // Short games fit: everything from the first move.
        let w = MoveWindow::of(5, false, 5, 10);
        assert_eq!((w.plies, w.first_line, w.lines), (1..=5, 0, 3));
        // The shown move on the last line in view.
        let w = MoveWindow::of(100, false, 100, 10);
        assert_eq!((w.plies, w.first_line, w.lines), (81..=100, 40, 50));
        let w = MoveWindow::of(100, false, 41, 10);
        assert_eq!((w.plies, w.first_line), (23..=42, 11));
        let w = MoveWindow::of(100, false, 15, 10);
        assert_eq!((w.plies, w.first_line), (1..=20, 0));
        // Far past what 16 bits can count.
        let len = 1_000_001;
        let w = MoveWindow::of(len, false, len, 20);
        assert_eq!(w.lines, 500_001);
        assert_eq!(w.first_line, 500_001 - 20);
        assert_eq!(*w.plies.end(), len);
        assert_eq!(*w.plies.start(), 2 * (500_001 - 20) + 1);
        let w = MoveWindow::of(len, false, 70_000, 20);
        assert!(w.plies.contains(&70_000));
        assert_eq!(w.plies.clone().count(), 40);
    }

    #[test]
    fn a_game_starting_with_the_second_player_has_a_short_first_line() {
        // Line 0 holds move 1 alone; line k moves 2k and 2k+1.
        let w = MoveWindow::of(6, true, 6, 10);
        assert_eq!((w.plies, w.lines), (1..=6, 4));
        let w = MoveWindow::of(100, true, 100, 3);
        assert_eq!((w.plies, w.first_line), (96..=100, 48));
        let w = MoveWindow::of(0, true, 0, 3);
        assert_eq!((w.plies.count(), w.lines), (0, 0));
    }
}
