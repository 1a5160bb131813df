//! A player who was away when their game ended (they did not come back in time, their flag fell, the other
//! player claimed the game or a draw) hears of it when they next connect: which game, against whom, how it
//! ended, and how their rating moved. The table leaves the word in the records as the game ends, or, for a rated
//! game, once the ratings after it are read.

use super::{Job, Table, TableEffect};
use crate::app::rating_change_text;
use crate::rules::{Color, Variant};

impl Table {
    /// The game has just ended and is in the records: the players away now are told when they next connect,
    /// at once unless the ratings after it are still to be read (then [`Table::news_with_ratings`] tells them).
    pub(super) fn news_for_the_absent(&mut self, ratings_follow: bool) {
        if ratings_follow {
            return;
        }
        for color in Color::ALL {
            self.leave_news(color, None);
        }
    }

    /// The ratings after a rated game were read: the players away are told, with their change.
    pub(super) fn news_with_ratings(&mut self, after: [i32; 2]) {
        for color in Color::ALL {
            self.leave_news(color, Some(after[color.index()]));
        }
    }

    fn leave_news(&mut self, color: Color, after: Option<i32>) {
        let Some(outcome) = self.game.outcome() else {
            return;
        };
        let Some(seat) = self.seats[color.index()].as_ref() else {
            return;
        };
        // Only a game in the records (no guest at it) leaves word there.
        if !self.records
            || self.record.is_none()
            || seat.who.is_guest()
            || seat.away_since.is_none()
        {
            return;
        }
        let opponent = self.seats[color.opponent().index()]
            .as_ref()
            .map_or("nobody", |s| s.who.name.as_str());
        let how = match outcome.winner() {
            Some(winner) if winner == color => "you won",
            Some(_) => "you lost",
            None if outcome.is_aborted() => "it was called off",
            None => "it was drawn",
        };
        let kind = if self.config.rated { "rated" } else { "casual" };
        let game_type = self.config.game_type;
        let mut variant = game_type.variant.title().to_string();
        if !matches!(game_type.variant, Variant::Defined(_))
            && game_type.size != game_type.variant.board_size()
        {
            variant.push_str(&format!(" on {0}x{0}", game_type.size));
        }
        let mut text = format!(
            "table {} ({variant}, {kind}) against {opponent} ended while you were away: {how} ({outcome}).",
            self.code
        );
        if let (Some(before), Some(after)) = (seat.rating, after) {
            text.push_str(&format!(
                " Your rating: {}.",
                rating_change_text(before, after)
            ));
        }
        let player = seat.who.fingerprint.clone();
        self.out.push(TableEffect::Note(Job::News { player, text }));
    }
}
