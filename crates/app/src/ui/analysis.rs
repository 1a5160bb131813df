//! The analysis panel: the engine's judgement of the position on show, as a bar and a number from the viewer's
//! side, with the depth and the expected line in the game's notation.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::theme::PieceStyle;
use super::{Options, fit_words, pane_block};
use crate::app::{AnalysisLine, AnalysisView, App};
use crate::engine::Score;
use crate::rules::{Color, SquareStyle};

/// The rows a panel under the move list takes: its border and four rows, six on a tall screen.
fn panel_height(pane_height: u16) -> u16 {
    if pane_height >= 30 { 8 } else { 6 }
}

/// The areas of the move list's pane: the move list, then under it the review panel while a game is analysed
/// or has been, then the analysis panel while it is open; a panel is left out when the move list would keep
/// fewer than eight rows.
pub fn split(area: Rect, app: &App) -> (Rect, Option<Rect>, Option<Rect>) {
    let rows = panel_height(area.height);
    let mut list = area;
    let mut take = |wanted: bool| {
        if !wanted || list.height < rows + 8 {
            return None;
        }
        list.height -= rows;
        Some(Rect {
            y: list.y + list.height,
            height: rows,
            ..list
        })
    };
    // The analysis panel goes at the bottom, so it is taken first.
    let analysis = take(app.analysis_open());
    let review = take(app.review_view().is_some());
    (list, review, analysis)
}

/// Draws the panel.
pub fn draw(buf: &mut Buffer, area: Rect, app: &App, options: &Options) {
    let Some(view) = app.analysis_view() else {
        return;
    };
    let theme = &options.theme;
    let title = match &view {
        AnalysisView::Line(line) if line.depth > 0 => format!(" Analysis · depth {} ", line.depth),
        _ => " Analysis ".to_string(),
    };
    let block = pane_block(title, false, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let width = usize::from(inner.width.saturating_sub(1));
    let ellipsis = match options.pieces {
        PieceStyle::Unicode => "…",
        PieceStyle::Ascii => "...",
    };
    let lines: Vec<Line> = match view {
        AnalysisView::Line(line) => {
            let viewer = app.viewpoint();
            let mut lines = vec![bar_line(line, viewer, width, options.pieces)];
            let notation = options.notation_for(app.game().variant());
            let rows = usize::from(inner.height.saturating_sub(1));
            lines.extend(
                fit_words(&line_of_play(line, notation), width, rows, ellipsis)
                    .into_iter()
                    .map(|text| Line::from(format!(" {text}"))),
            );
            lines
        }
        AnalysisView::Starting => vec![Line::styled(" analysing…", theme.quiet)],
        AnalysisView::Idle(why) => fit_words(&why, width, usize::from(inner.height), ellipsis)
            .into_iter()
            .map(|text| Line::styled(format!(" {text}"), theme.quiet))
            .collect(),
    };
    Paragraph::new(lines).render(inner, buf);
}

/// The bar (the viewer's expected share of the points, filled from the left) and the score in words.
fn bar_line(line: &AnalysisLine, viewer: Color, width: usize, pieces: PieceStyle) -> Line<'static> {
    let side = line.position.side_to_move();
    let for_viewer = if side == viewer {
        line.score
    } else {
        line.score.flipped()
    };
    let number = format!("{} {}", short_score(for_viewer), viewer_word(viewer));
    let bar_width = width.saturating_sub(number.chars().count() + 2).min(24);
    let filled = (for_viewer.expectation() * bar_width as f64).round() as usize;
    let (full, empty) = match pieces {
        PieceStyle::Unicode => ('█', '░'),
        PieceStyle::Ascii => ('#', '-'),
    };
    let bar: String = std::iter::repeat_n(full, filled)
        .chain(std::iter::repeat_n(
            empty,
            bar_width - filled.min(bar_width),
        ))
        .collect();
    Line::from(vec![Span::raw(format!(" {bar} ")), Span::raw(number)])
}

/// The score as a number from the viewer's side: `+0.45`, `-1.20`, `win 7`, `loss 3`, `db win`, `db loss`.
fn short_score(score: Score) -> String {
    match score {
        Score::Centi(c) => format!("{:+.2}", f64::from(c) / f64::from(crate::engine::MAN)),
        Score::Win(n) => format!("win {n}"),
        Score::Loss(n) => format!("loss {n}"),
        Score::DatabaseWin => "db win".into(),
        Score::DatabaseLoss => "db loss".into(),
    }
}

/// Whose view the number is.
fn viewer_word(viewer: Color) -> &'static str {
    match viewer {
        Color::Black => "(Black)",
        Color::White => "(White)",
    }
}

/// The expected line of play, each move written in the position it is played in.
fn line_of_play(line: &AnalysisLine, notation: SquareStyle) -> String {
    let mut position = line.position;
    let mut words = Vec::with_capacity(line.pv.len());
    for mv in &line.pv {
        if !position.legal_moves().contains(mv) {
            // A line that no longer fits the position (it cannot happen; a stale report would show it).
            break;
        }
        words.push(position.write_move(mv, notation));
        position = position.play(mv);
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyPosition, GameType};

    fn line(score: Score, side: Color) -> AnalysisLine {
        AnalysisLine {
            position: AnyPosition::start(GameType::default()).with_side_to_move(side),
            depth: 12,
            score,
            pv: Vec::new(),
        }
    }

    fn text(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn the_bar_takes_the_viewers_side() {
        let even = bar_line(
            &line(Score::Centi(0), Color::Black),
            Color::Black,
            30,
            PieceStyle::Ascii,
        );
        assert_eq!(text(&even), " ########------- +0.00 (Black)");
        // White to move and a man up: from Black's side, a man down.
        let down = bar_line(
            &line(Score::Centi(100), Color::White),
            Color::Black,
            30,
            PieceStyle::Ascii,
        );
        let shown = text(&down);
        assert!(shown.contains("-1.00 (Black)"), "{shown}");
        assert!(shown.matches('#').count() < 11, "{shown}");
        let won = bar_line(
            &line(Score::Loss(3), Color::White),
            Color::Black,
            30,
            PieceStyle::Unicode,
        );
        let shown = text(&won);
        assert!(shown.contains("win 3") && !shown.contains('░'), "{shown}");
    }

    #[test]
    fn the_line_of_play_is_written_move_by_move() {
        let position = AnyPosition::start(GameType::default());
        let first = position.parse_move("11-15", crate::rules::Strictness::Exact);
        let first = first.expect("a legal move");
        let after = position.play(&first);
        let second = after
            .parse_move("23-19", crate::rules::Strictness::Exact)
            .expect("legal");
        let analysed = AnalysisLine {
            position,
            depth: 3,
            score: Score::Centi(0),
            pv: vec![first, second, first],
        };
        // The third move is not legal where it stands: the line stops before it.
        assert_eq!(line_of_play(&analysed, SquareStyle::Numbers), "11-15 23-19");
    }
}
