//! The review panel: the analysis of a whole game, as a progress bar while it runs, then how many moves of each
//! side were marked, and the evaluation over the game as a sparkline from the viewer's side.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::symbols;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Sparkline, Widget};

use super::theme::{Glyphs as _, PieceStyle};
use super::{Options, pane_block};
use crate::app::{App, ReviewView};
use crate::rules::{Color, Piece, Role};

/// The sparkline's bars in ASCII: a bar's height in eighths, the way the Unicode blocks give it.
const ASCII_BARS: symbols::bar::Set = symbols::bar::Set {
    full: "#",
    seven_eighths: "#",
    three_quarters: "=",
    five_eighths: "=",
    half: "-",
    three_eighths: "-",
    one_quarter: "_",
    one_eighth: "_",
    empty: " ",
};

/// Draws the panel.
pub fn draw(buf: &mut Buffer, area: Rect, app: &App, options: &Options) {
    let Some(view) = app.review_view() else {
        return;
    };
    let theme = &options.theme;
    let running = view.done < view.total;
    let title = match running {
        true => format!(" Analysing · {}/{} ", view.done, view.total),
        false => format!(" Game · {} ", viewer_name(view.viewer)),
    };
    let block = pane_block(title, false, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.height == 0 || inner.width < 4 {
        return;
    }
    let first = Rect { height: 1, ..inner };
    if running {
        // Filled and empty told apart by glyph, not by colour alone.
        let (full, empty) = match options.pieces {
            PieceStyle::Unicode => ('█', '░'),
            PieceStyle::Ascii => ('#', '-'),
        };
        let percent = 100 * view.done / view.total.max(1);
        let width = usize::from(inner.width).saturating_sub(7);
        let filled = width * view.done / view.total.max(1);
        let bar: String = std::iter::repeat_n(full, filled)
            .chain(std::iter::repeat_n(empty, width - filled))
            .collect();
        Paragraph::new(Line::from(format!(" {bar} {percent:>3}%"))).render(first, buf);
    } else {
        Paragraph::new(Line::from(counts_text(&view, options.pieces))).render(first, buf);
    }
    let graph = Rect {
        y: inner.y + 1,
        height: inner.height - 1,
        ..inner
    };
    let bars = match options.pieces {
        PieceStyle::Unicode => symbols::bar::NINE_LEVELS,
        PieceStyle::Ascii => ASCII_BARS,
    };
    Sparkline::default()
        .data(columns(&view.curve, view.total, usize::from(graph.width)))
        .max(100)
        .bar_set(bars)
        .render(graph, buf);
}

/// The marks of each side: `● 1?! 0? 1??  ○ 2?! 1? 0??`.
fn counts_text(view: &ReviewView, pieces: PieceStyle) -> String {
    let sides: Vec<String> = view
        .counts
        .iter()
        .map(|(side, [dubious, mistakes, blunders])| {
            let glyph = pieces.glyph(Piece::new(*side, Role::Man));
            format!("{glyph} {dubious}?! {mistakes}? {blunders}??")
        })
        .collect();
    format!(" {}", sides.join("   "))
}

/// Whose share the graph shows.
fn viewer_name(viewer: Color) -> &'static str {
    match viewer {
        Color::Black => "Black's share",
        Color::White => "White's share",
    }
}

/// The curve of a game of `total` positions in at most `width` columns, as percentages: a short game's plies
/// spread over the width, a long one's sampled, each column the ply at its place along the game; plies not yet
/// judged are left out.
fn columns(curve: &[f64], total: usize, width: usize) -> Vec<u64> {
    let take = |share: f64| (share.clamp(0.0, 1.0) * 100.0).round() as u64;
    let total = total.max(curve.len()).max(1);
    if total <= width {
        let each = width / total;
        return curve
            .iter()
            .flat_map(|&share| std::iter::repeat_n(take(share), each))
            .collect();
    }
    (0..width)
        .map_while(|column| curve.get(column * total / width).copied().map(take))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_game_is_sampled_to_the_width_and_a_short_one_spread() {
        let curve: Vec<f64> = (0..=100).map(|ply| f64::from(ply) / 100.0).collect();
        let sampled = columns(&curve, curve.len(), 10);
        assert_eq!(sampled.len(), 10);
        assert_eq!(sampled[0], 0);
        assert!(sampled.windows(2).all(|w| w[0] < w[1]), "{sampled:?}");
        // Half judged: half the columns.
        assert_eq!(columns(&curve[..50], curve.len(), 10).len(), 5);
        assert_eq!(columns(&curve[..5], 5, 10), [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
        assert_eq!(columns(&curve[..2], 5, 10), [0, 0, 1, 1]);
        assert_eq!(columns(&curve[..3], 3, 7), [0, 0, 1, 1, 2, 2]);
        assert_eq!(columns(&[1.5, -0.2], 2, 4), [100, 100, 0, 0]);
        assert!(columns(&[], 0, 4).is_empty());
    }
}
