//! The problem trainer's panel, in the place of the move list: which problem, what is asked, how the attempt
//! stands (a wrong move with its refutation), the moves so far, the solved count and the keys.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{Options, pane_block, wrap_words};
use crate::app::{App, Attempt, Trainer, TrainingKind};
use crate::rules::SquareStyle;

/// Draws the trainer's panel in `area`.
pub fn draw(buf: &mut Buffer, area: Rect, app: &App, trainer: &Trainer, options: &Options) {
    let title = format!(
        " Problem {} of {} · solved {} ",
        trainer.index() + 1,
        trainer.len(),
        trainer.solved_count()
    );
    let block = pane_block(title, false, &options.theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let width = usize::from(inner.width).max(1);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines: Vec<Line> = Vec::new();
    let words = |text: &str, style: Style, lines: &mut Vec<Line>| {
        for row in wrap_words(text, width) {
            lines.push(Line::from(Span::styled(row, style)));
        }
    };
    match trainer.kind() {
        TrainingKind::Free => {}
        TrainingKind::Rated => words("Rated: first tries count", options.theme.quiet, &mut lines),
        TrainingKind::Daily => words("Problem of the day", bold, &mut lines),
        TrainingKind::Streak => words(
            &format!(
                "{}: {} (best {})",
                if trainer.streak_over() {
                    "Streak over"
                } else {
                    "Streak"
                },
                trainer.streak(),
                trainer.best_streak()
            ),
            bold,
            &mut lines,
        ),
    }
    let problem = trainer.problem();
    words(&problem.title, Style::default(), &mut lines);
    words(&problem.heading(), bold, &mut lines);
    lines.push(Line::default());
    match trainer.attempt() {
        Attempt::Solving => {}
        Attempt::Checking { tried } => {
            words(&format!("Checking {tried}…"), bold, &mut lines);
            lines.push(Line::default());
        }
        Attempt::Wrong {
            tried,
            refutation,
            verdict,
        } => {
            words(&format!("{tried} is wrong."), bold, &mut lines);
            if refutation.is_empty() {
                words(&format!("{verdict}."), Style::default(), &mut lines);
            } else {
                words(
                    &format!("Refutation: {refutation}, and {verdict}."),
                    Style::default(),
                    &mut lines,
                );
            }
            lines.push(Line::default());
        }
        Attempt::Solved => {
            words("Solved!", bold, &mut lines);
            lines.push(Line::default());
        }
    }
    let game = app.game();
    let moves: Vec<String> = (1..=game.ply())
        .filter_map(|ply| game.move_text(ply, SquareStyle::Numbers))
        .collect();
    if !moves.is_empty() {
        words(
            &format!("Played: {}", moves.join(" ")),
            Style::default(),
            &mut lines,
        );
        lines.push(Line::default());
    }
    if trainer.misses() > 0 {
        words(
            &format!("Wrong tries: {}", trainer.misses()),
            Style::default(),
            &mut lines,
        );
    }
    words(
        "H hint · ] next · [ previous · u again",
        options.theme.quiet,
        &mut lines,
    );
    Paragraph::new(lines).render(inner, buf);
}
