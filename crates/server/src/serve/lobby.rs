//! The lobby as a connection shows it: the games in play and open, the events, the player's rating and the
//! leaderboard, brought up to date every few seconds from the tables and the records, and the settings screen
//! over it. The lobby's state and keys are the app's ([`Lobby`]); this is its [`Part`] for the connection's
//! driver, with what it reads from the server.

use std::convert::Infallible;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::at_event::event_summary;
use super::civility::Civility;
use super::connected::{ConnectedPlayer, settings_home, settings_of};
use super::door::{FrameTerminal, GameEnd, Output};
use super::driver::{Driver, Flow, Part, no_news};
use super::problems;
use super::records::Stage;
use super::table::Listing;
use crate::app::InputEvent;
use crate::app::lobby::{Choice, Leader, Lobby, LobbyEvent, LobbyGame, OwnRating};
use crate::config::SettingEdit;
use crate::rules::{GameType, Variant};
use crate::session;
use crate::ui;

/// How often the lobby's lists are brought up to date.
const LOBBY_REFRESH: Duration = Duration::from_secs(2);
/// How often the lobby reads the player's rating and the leaderboard again (they change only as rated games
/// end): every this many refreshes.
const STANDINGS_EVERY: u32 = 10;

/// Opens the settings screen over the lobby, with `player`'s settings in force.
fn open_settings(player: &ConnectedPlayer, lobby: &mut Lobby) {
    let (settings, _) = settings_of(&player.shared, &player.identity);
    let home = settings_home(&player.shared, &player.identity);
    lobby.open_settings(settings.screen_rows(), home.said());
}

/// Carries out a change made on the lobby's settings screen, as a game's session does.
fn change_setting(player: &ConnectedPlayer, lobby: &mut Lobby, edit: &SettingEdit) {
    let (settings, _) = settings_of(&player.shared, &player.identity);
    let home = settings_home(&player.shared, &player.identity);
    match session::carry_out_setting(&settings, &home, edit) {
        Ok((changed, note)) => lobby.setting_answered(edit, Ok(note), Some(changed.keys)),
        Err(why) => lobby.setting_answered(edit, Err(why), None),
    }
}

/// Runs the lobby on `driver` until the player chooses (their choice, and the keys they typed after it), or the
/// connection, the server or the idle timeout ends it.
pub async fn run_lobby(
    player: &ConnectedPlayer,
    lobby: &mut Lobby,
    driver: &mut Driver,
    out: &mut Output,
) -> Result<(Choice, Vec<InputEvent>), GameEnd> {
    // The player's blocks, read as they come to the lobby: the open tables of those they blocked are not offered
    // to them (a table waiting for an opponent is an offer to play).
    let civility = Civility::of(Arc::clone(&player.shared), player.identity.clone()).await;
    let mut part = AtLobby {
        player,
        lobby,
        civility,
        refresh_at: Instant::now(),
        refreshes: 0,
    };
    driver.drive(out, &mut part).await
}

/// The lobby as the screen a connection shows.
struct AtLobby<'a> {
    player: &'a ConnectedPlayer,
    lobby: &'a mut Lobby,
    civility: Civility,
    /// When its lists are next brought up to date.
    refresh_at: Instant,
    /// How many times they have been.
    refreshes: u32,
}

impl Part for AtLobby<'_> {
    type News = Infallible;
    type Exit = (Choice, Vec<InputEvent>);

    async fn settle(&mut self) -> Option<Self::Exit> {
        if Instant::now() < self.refresh_at {
            return None;
        }
        let (player, lobby) = (self.player, &mut *self.lobby);
        let civility = &self.civility;
        let games = player
            .shared
            .tables
            .listings()
            .into_iter()
            .filter(|listing| !(listing.open() && civility.blocks_anyone_at(listing)));
        lobby.list_events(listed_events(player));
        lobby.refresh(games.map(|l| lobby_game(l, player)).collect());
        if self.refreshes.is_multiple_of(STANDINGS_EVERY) {
            read_standings(player, lobby).await;
            problems::read_standing(player, lobby).await;
        }
        self.refreshes += 1;
        self.refresh_at = Instant::now() + LOBBY_REFRESH;
        None
    }

    fn draw(&mut self, terminal: &mut FrameTerminal) -> io::Result<()> {
        terminal
            .draw(|frame| ui::lobby::draw(frame, self.lobby))
            .map(drop)
    }

    fn news(&mut self) -> impl Future<Output = Infallible> {
        no_news()
    }

    fn deadline(&self) -> Option<Instant> {
        Some(self.refresh_at)
    }

    async fn input(&mut self, events: Vec<InputEvent>, _: &mut Output) -> Flow<Self::Exit> {
        let mut pending = events.into_iter();
        while let Some(event) = pending.next() {
            if let InputEvent::Key(key) = event
                && let Some(choice) = self.lobby.key(key)
            {
                match choice {
                    Choice::Settings => open_settings(self.player, self.lobby),
                    Choice::ChangeSetting(edit) => change_setting(self.player, self.lobby, &edit),
                    choice => return Flow::Leave((choice, pending.collect())),
                }
            }
        }
        Flow::Stay
    }

    async fn heard(&mut self, news: Infallible, _: &mut Output) -> Flow<Self::Exit> {
        match news {}
    }
}

/// What the records keep to tell `player` about their games that ended while they were away, let go once read
/// (nothing for a guest, or when the records cannot be read: the word is then told at a later connection).
pub async fn read_news(player: &ConnectedPlayer) -> Vec<String> {
    if player.identity.is_guest() {
        return Vec::new();
    }
    let fingerprint = player.identity.fingerprint.clone();
    player
        .shared
        .read_records(move |records| records.take_news(&fingerprint))
        .await
        .unwrap_or_default()
}

/// Reads the player's English rating and the English leaderboard into the lobby.
async fn read_standings(player: &ConnectedPlayer, lobby: &mut Lobby) {
    if lobby.guest {
        return;
    }
    let fingerprint = player.identity.fingerprint.clone();
    // The records name a variant as its game type is written, as the tables record it.
    let english = GameType::standard(Variant::English).to_string();
    let standing = player
        .shared
        .read_records(move |records| {
            let (rating, games) = records.rating(&fingerprint, &english)?;
            let leaders = records.leaderboard(&english, 10)?;
            Ok(((rating, games), leaders))
        })
        .await;
    if let Some(((rating, games), leaders)) = standing {
        lobby.rating = (games > 0).then_some(OwnRating {
            rating: rating.rating.round() as i32,
            games,
            provisional: rating.is_provisional(),
        });
        lobby.leaders = leaders
            .into_iter()
            .map(|s| Leader {
                name: s.name,
                rating: s.rating.rating,
                games: s.games,
                provisional: s.rating.is_provisional(),
            })
            .collect();
    }
}

/// The tournaments `player`'s lobby lists: those open to anyone, and those they have entered or created.
fn listed_events(player: &ConnectedPlayer) -> Vec<LobbyEvent> {
    let me = &player.identity.fingerprint;
    player
        .shared
        .events
        .views()
        .iter()
        .filter(|view| view.stage != Stage::Finished)
        .filter(|view| view.spec.open || view.spec.created_by.as_ref() == Some(me))
        .map(|view| LobbyEvent {
            code: view.spec.code.to_string(),
            summary: event_summary(view),
        })
        .collect()
}

/// A table's listing as `player`'s lobby shows it.
fn lobby_game(listing: Listing, player: &ConnectedPlayer) -> LobbyGame {
    LobbyGame {
        mine: listing.seats_player(&player.identity.fingerprint),
        code: listing.code.to_string(),
        game_type: listing.config.game_type,
        clock: listing.config.clock,
        rated: listing.config.rated,
        private: listing.config.private,
        players: listing.seats.map(|seat| seat.map(|(_, name)| name)),
        plies: listing.plies,
        over: listing.over,
        watchers: listing.watchers,
    }
}
