//! What a table writes in the records (the game's start, each move with the clocks, takebacks, the end with its
//! PDN: see [`super::commit`] for when), the game's PDN, the lobby's summary of it, and a game read back from
//! the records to resume.

use std::time::Duration;

use thiserror::Error;

use super::{Fingerprint, Identity, Job, Listing, RecordKey, Resumed, Table, TableConfig};
use crate::game::{AnyGame, GameError, TimeControl, TimeControlError};

use crate::rules::defined::{RegistryError, register};
use crate::rules::{GameType, UnknownVariant, Variant};
use crate::serve::records::Unfinished;
use std::time::SystemTime;

use crate::rules::Color;
use crate::store::pdn_date;

/// The event written in the PDN of every game played on the server.
const EVENT: &str = "crowned server";

impl Table {
    /// Both seats are taken at the start: the game goes into the records (unless a guest plays: their games are
    /// not kept).
    pub(super) fn record_start(&mut self) {
        let (true, [Some(black), Some(white)]) = (self.records, &self.seats) else {
            return;
        };
        if black.who.is_guest() || white.who.is_guest() || self.record.is_some() {
            return;
        }
        let key = RecordKey::fresh();
        let start = Job::Start {
            key,
            variant: self.config.game_type.to_string(),
            black: black.who.clone(),
            white: white.who.clone(),
            rated: self.config.rated,
            clock: self.config.clock.map(|c| c.to_string()).unwrap_or_default(),
            code: self.code.clone(),
            // A defined variant's game carries its definition, as its PDN does: a restart resumes it from that.
            definition: match self.config.game_type.variant {
                Variant::Defined(id) => Some(id.get().text.clone()),
                _ => None,
            },
        };
        self.unsaved.push(start);
        self.record = Some(key);
        self.record_event_start();
    }

    /// The last move goes into the step's commit, with both clocks after it.
    pub(super) fn record_move(&mut self) {
        // `move_text` counts moves from 1; the records count plies from 0.
        let played = self.game.len();
        let Some(text) = self
            .game
            .move_text(played, self.config.game_type.variant.notation())
        else {
            return;
        };
        let ply = played - 1;
        let clocks = self
            .clocks_now()
            .map(|c| c.map(|left| u64::try_from(left.as_millis()).unwrap_or(u64::MAX)));
        self.record(|key, _| Job::Move {
            key,
            ply,
            text,
            clocks,
        });
    }

    /// Both clocks as they stand go into the records (when the game is recorded, has clocks and is not over).
    pub(super) fn note_clocks(&mut self) {
        self.noted = self.now;
        if self.game.outcome().is_some() {
            return;
        }
        let Some(clocks) = self.clocks_now() else {
            return;
        };
        let clocks = clocks.map(|left| u64::try_from(left.as_millis()).unwrap_or(u64::MAX));
        self.note(|key, table| Job::Clocks {
            key,
            ply: table.game.len(),
            clocks,
        });
    }

    /// The game as PDN, with the players, the date, the clock and the ratings they came with.
    pub fn pdn(&self) -> String {
        self.tagged_game().to_pdn()
    }

    /// The game with its tags: the players, the date, the clock and the ratings they came with.
    pub(super) fn tagged_game(&self) -> AnyGame {
        let mut game = self.game.clone();
        let tags = game.tags_mut();
        tags.set("Event", EVENT);
        tags.set("Site", &format!("table {}", self.code));
        // A tournament's game is named by its event and round.
        for (tag, value) in self.event.iter().flat_map(|t| t.tags.iter()) {
            tags.set(tag, value);
        }
        tags.set("Date", &pdn_date(SystemTime::now()));
        for (color, (name_tag, rating_tag)) in [
            (Color::Black, ("Black", "BlackRating")),
            (Color::White, ("White", "WhiteRating")),
        ] {
            if let Some(seat) = &self.seats[color.index()] {
                tags.set(name_tag, &seat.who.name);
                if let Some(rating) = seat.rating.filter(|_| self.config.rated) {
                    tags.set(rating_tag, &rating.to_string());
                }
            }
        }
        if let Some(clock) = self.config.clock {
            tags.set("TimeControl", &clock.pdn_text());
        }
        game
    }

    pub(super) fn listing(&self) -> Listing {
        Listing {
            code: self.code.clone(),
            config: self.config,
            seats: [0, 1].map(|i| {
                self.seats[i]
                    .as_ref()
                    .map(|s| (s.who.fingerprint.clone(), s.who.name.clone()))
            }),
            plies: self.game.len(),
            over: self.game.outcome().is_some(),
            watchers: self.watchers.len(),
            board: self.event.is_some(),
        }
    }
}

/// Why a game in the records cannot be resumed: what was recorded does not read back.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ResumeError {
    /// Its variant is not one this program knows.
    #[error("{0}")]
    Variant(#[from] UnknownVariant),
    /// Its variant's definition, recorded with it, does not load.
    #[error("its variant's definition: {0}")]
    Definition(String),
    /// Its time control does not read.
    #[error("{0}")]
    Clock(#[from] TimeControlError),
    /// A move that does not read, or is not legal where it was played.
    #[error("move {text}: {error}")]
    Move {
        /// The move as recorded.
        text: String,
        /// What is wrong with it.
        error: GameError,
    },
}

/// The variant a game names in the records (or in another node's list of tables): by its definition when it
/// carries one, whether or not this server still offers it (the game carries its rules), else by its name.
pub fn variant_named(name: &str, definition: Option<&str>) -> Result<Variant, ResumeError> {
    Ok(match definition {
        Some(text) => Variant::Defined(
            register(text).map_err(|e: RegistryError| ResumeError::Definition(e.to_string()))?,
        ),
        None => name.split_whitespace().next().unwrap_or_default().parse()?,
    })
}

/// A game from the records as a table resumes it: its rules, clock and players, its moves played again (each
/// checked), and its clocks where they stood after the last move. Why not, when the record cannot be read back.
pub fn resumed_from(
    game: Unfinished,
    grace: Duration,
) -> Result<(TableConfig, Resumed), ResumeError> {
    let variant = variant_named(&game.variant, game.definition.as_deref())?;
    let game_type = GameType::standard(variant);
    let clock = match game.clock.trim() {
        "" => None,
        text => Some(text.parse::<TimeControl>()?),
    };
    let mut played = AnyGame::new(game_type);
    for text in &game.moves {
        played.play_text(text).map_err(|error| ResumeError::Move {
            text: text.clone(),
            error,
        })?;
    }
    let identity = |(fingerprint, name): (Fingerprint, String)| Identity { fingerprint, name };
    let config = TableConfig {
        game_type,
        clock,
        grace,
        rated: game.rated,
        private: true,
    };
    let resumed = Resumed {
        game: played,
        seats: [identity(game.black), identity(game.white)],
        clocks: game.clocks.map(|c| c.map(Duration::from_millis)),
        // Read by the server, which has the records at hand.
        ratings: [None, None],
        code: game.code,
        record: RecordKey::fresh(),
    };
    Ok((config, resumed))
}

#[cfg(test)]
mod tests {
    use super::super::TableSetup;
    use super::*;

    #[test]
    fn the_record_s_time_control_is_in_seconds() {
        let config = TableConfig {
            game_type: GameType::standard(Variant::English),
            clock: Some("5+3".parse().expect("a time control")),
            grace: Duration::from_secs(60),
            rated: false,
            private: true,
        };
        let pdn = Table::new(config, TableSetup::default(), Duration::ZERO).pdn();
        assert!(pdn.contains("[TimeControl \"300+3\"]"), "{pdn}");
        let read = crate::game::pdn::parse_games(&pdn)
            .into_iter()
            .next()
            .expect("a game")
            .expect("it reads");
        let (game, error) = crate::game::pdn::open_game(&read, None);
        assert_eq!(error, None);
        let control = game.tags().get("TimeControl").expect("the tag");
        assert_eq!(
            TimeControl::from_pdn_text(control),
            Ok(config.clock.expect("a clock"))
        );
    }
}
