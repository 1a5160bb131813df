//! The TV (`/tv` on the web door): the highest-rated game between people in play, watched, and the next one as
//! it ends.

use std::convert::Infallible;
use std::io;
use std::time::Duration;

use ratatui::layout::{Alignment, Constraint, Layout};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use tokio::time::Instant;

use super::Shared;
use super::door::{FrameTerminal, GameEnd, Output};
use super::driver::{Driver, Flow, Part, no_news};
use super::ids::TableCode;
use super::table::Listing;
use crate::app::InputEvent;

/// How long the end of a game stays on the TV before it goes on to the next.
pub const NEXT_AFTER: Duration = Duration::from_secs(5);

/// How often the TV looks for a game when none is in play.
const LOOK_AGAIN: Duration = Duration::from_secs(2);

/// The games the TV may show: both seats taken, not over, listed in the lobby.
fn showable(listing: &Listing) -> bool {
    !listing.over && !listing.config.private && listing.seats.iter().all(Option::is_some)
}

/// The game to show now: the one whose players' ratings (in its variant) add up highest; the most watched,
/// then the longest, among equals. `None` when no game between people is in play.
pub async fn best_table(shared: &Shared) -> Option<TableCode> {
    let candidates: Vec<Listing> = shared
        .tables
        .listings()
        .into_iter()
        .filter(showable)
        .collect();
    if candidates.len() <= 1 {
        return candidates.into_iter().next().map(|l| l.code);
    }
    let asked: Vec<_> = candidates
        .iter()
        .map(|l| {
            let variant = l.config.game_type.to_string();
            let players: Vec<_> = l.seats.iter().flatten().map(|(f, _)| f.clone()).collect();
            (variant, players)
        })
        .collect();
    let sums = shared
        .read_records(move |records| {
            asked
                .iter()
                .map(|(variant, players)| {
                    players.iter().try_fold(0.0, |sum, player| {
                        Ok(sum + records.rating(player, variant)?.0.rating)
                    })
                })
                .collect::<Result<Vec<f64>, _>>()
        })
        .await
        .unwrap_or_else(|| vec![0.0; candidates.len()]);
    candidates
        .into_iter()
        .zip(sums)
        .max_by(|(a, sa), (b, sb)| {
            sa.total_cmp(sb)
                .then(a.watchers.cmp(&b.watchers))
                .then(a.plies.cmp(&b.plies))
        })
        .map(|(l, _)| l.code)
}

/// Waits for a game to show, with a screen that says so: its code once one is in play, or how the wait
/// ended (`Ok(None)`: a key other than Ctrl-c, to the lobby).
pub async fn wait_for_game(
    shared: &Shared,
    driver: &mut Driver,
    out: &mut Output,
) -> Result<Option<TableCode>, GameEnd> {
    let mut part = Waiting {
        shared,
        look_at: Instant::now(),
    };
    driver.drive(out, &mut part).await
}

/// The TV's wait for a game, as the screen a connection shows.
struct Waiting<'a> {
    shared: &'a Shared,
    /// When it looks for a game again.
    look_at: Instant,
}

impl Part for Waiting<'_> {
    type News = Infallible;
    type Exit = Option<TableCode>;

    async fn settle(&mut self) -> Option<Option<TableCode>> {
        if Instant::now() < self.look_at {
            return None;
        }
        self.look_at = Instant::now() + LOOK_AGAIN;
        best_table(self.shared).await.map(Some)
    }

    fn draw(&mut self, terminal: &mut FrameTerminal) -> io::Result<()> {
        terminal
            .draw(|frame| {
                let [_, middle, _] = Layout::vertical([
                    Constraint::Fill(1),
                    Constraint::Length(3),
                    Constraint::Fill(1),
                ])
                .areas(frame.area());
                let text = vec![
                    Line::from("crowned TV"),
                    Line::from("No game between people is in play now: the next one shows here."),
                    Line::from("Any key: the lobby."),
                ];
                frame.render_widget(Paragraph::new(text).alignment(Alignment::Center), middle);
            })
            .map(drop)
    }

    fn news(&mut self) -> impl Future<Output = Infallible> {
        no_news()
    }

    fn deadline(&self) -> Option<Instant> {
        Some(self.look_at)
    }

    async fn input(&mut self, events: Vec<InputEvent>, _: &mut Output) -> Flow<Option<TableCode>> {
        match events.iter().any(|e| matches!(e, InputEvent::Key(_))) {
            true => Flow::Leave(None),
            false => Flow::Stay,
        }
    }

    async fn heard(&mut self, news: Infallible, _: &mut Output) -> Flow<Option<TableCode>> {
        match news {}
    }
}
