//! The setup panel, drawn in place of the move history while a position is set up: the side to move, the
//! players, the pieces on the board and the keys.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::theme::{Glyphs as _, PieceStyle};
use super::{Options, pane_block};
use crate::app::{App, Context, Setup};
use crate::rules::{Color, Piece, Role};

/// Draws the setup panel in place of the move history: the side to move, the players, the pieces and the keys.
pub fn draw(buf: &mut Buffer, area: Rect, app: &App, setup: &Setup, options: &Options) {
    let block = pane_block(" Set up a position ", false, &options.theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let position = setup.position();
    let key = |name: &str| {
        app.preferences()
            .keys
            .first_key(Context::Setup, name)
            .map_or_else(String::new, |k| format!(" ({k})"))
    };
    let mut lines = vec![Line::from(format!(
        " {} to move{}",
        position.side_to_move(),
        key("side")
    ))];
    for (color, key) in [
        (Color::Black, key("black-player")),
        (Color::White, key("white-player")),
    ] {
        let glyph = options.pieces.glyph(Piece::new(color, Role::Man));
        let count = |role, one, many| match position.count(color, role) {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        lines.push(Line::from(format!(
            " {glyph} {:<6}{}{key}",
            color.to_string(),
            setup.player(color)
        )));
        let counts = match position.defined() {
            // Each of the definition's kinds by name: its men and kings need not be all there is.
            Some(board) => board
                .entry()
                .rules
                .kinds
                .iter()
                .enumerate()
                .map(|(kind, k)| {
                    let n = board
                        .occupants()
                        .filter(|&(_, o)| o == (color, kind))
                        .count();
                    format!("{} {n}", k.name)
                })
                .collect::<Vec<_>>()
                .join(", "),
            None => format!(
                "{}, {}",
                count(Role::Man, "man", "men"),
                count(Role::King, "king", "kings")
            ),
        };
        lines.push(Line::styled(format!("   {counts}"), options.theme.quiet));
    }
    if let Some(board) = position.defined() {
        // The pieces the cycle key goes through, as the board draws them.
        lines.push(Line::from(" Pieces (Black, White):"));
        lines.extend(board.entry().rules.kinds.iter().map(|k| {
            let (black, white) = match options.pieces {
                PieceStyle::Unicode => (k.black_glyph.clone(), k.glyph.clone()),
                PieceStyle::Ascii => (
                    k.letter_of(Color::Black).to_string(),
                    k.letter_of(Color::White).to_string(),
                ),
            };
            Line::styled(
                format!("   {black} {white}  {}", k.name),
                options.theme.quiet,
            )
        }));
    }
    lines.push(Line::default());
    lines.extend(
        app.preferences()
            .keys
            .help(Context::Setup)
            .into_iter()
            // The panel is narrow: the first of several keys stands for them (the help lists them all).
            .map(|(keys, what)| {
                let keys = keys.split(", ").next().unwrap_or_default();
                Line::from(format!(" {keys:<6} {what}"))
            }),
    );
    lines.push(Line::from(format!(
        " {:<6} show, or :fen <FEN> load",
        ":fen"
    )));
    Paragraph::new(lines).render(inner, buf);
}
