//! How a session starts: the game asked for (the standard start, a position, the games of a file), this
//! session's autosave slot, and the offer to resume an unfinished game left by a session that has ended.

use crate::app::{App, Effect, GameList, ListPurpose, Players, Preferences, TableView};
use crate::game::AnyGame;
use crate::rules::GameType;
use crate::store::{GameEntry, Store, StoreError, rename_new};
use crate::ui::Options;

use std::time::{SystemTime, UNIX_EPOCH};

use super::{Config, Saving};
use crate::config::{Settings, SettingsError};

/// What a session opens with.
#[derive(Debug)]
pub enum SessionOpening {
    /// A new game of this variant and board from its start (or the unfinished game, if the player resumes it).
    Standard(GameType),
    /// A new game from a given position (boxed: a game is far larger than the other openings).
    Position(Box<AnyGame>),
    /// The games of a file, for replaying: one is opened at once, several are listed.
    File {
        /// The file's name, as the list's title.
        name: String,
        /// Its games.
        games: Vec<GameEntry>,
    },
}

impl SessionOpening {
    fn app(self, players: Players) -> (App, Vec<Effect>) {
        match self {
            SessionOpening::Standard(game_type) => App::with_game(AnyGame::new(game_type), players),
            SessionOpening::Position(game) => App::with_game(*game, players),
            SessionOpening::File { name, mut games } => {
                if games.len() == 1 {
                    (App::replaying(games.remove(0), players), Vec::new())
                } else {
                    let list = GameList::new(name, games, ListPurpose::Replay);
                    (App::choosing(list, players), Vec::new())
                }
            }
        }
    }
}

/// A session ready to start: the app, the effects to start it with (the engine's first move, say), what to tell
/// the player on the status line, and where its games go.
#[derive(Debug)]
pub struct Opened {
    /// The app.
    pub app: App,
    /// The effects to carry out first.
    pub effects: Vec<Effect>,
    /// What the player is told at once, in order.
    pub notices: Vec<String>,
    /// Where the session's games go.
    pub saving: Saving,
    /// Where the settings screen's changes are kept.
    pub settings_home: super::SettingsHome,
}

/// Opens `opening` for `players` with the files of `store` (when there is a place for them). With `autosave`
/// on, the session takes an autosave slot of its own and first offers to resume an unfinished game left by a
/// session that has ended; without a place for files the game still runs, saving nothing, and says so.
pub fn open(
    store: Result<Store, StoreError>,
    autosave: bool,
    opening: SessionOpening,
    players: Players,
) -> Opened {
    match store {
        Ok(store) if autosave => open_with_autosave(store, opening, players),
        // Without autosave an earlier autosave is neither offered nor touched.
        Ok(store) => {
            let (app, effects) = opening.app(players);
            let saving = Saving::in_store(store, None, false);
            opened(app, effects, Vec::new(), saving)
        }
        Err(e) => {
            let (app, effects) = opening.app(players);
            let notices = vec![format!("games are not saved: {e}")];
            opened(app, effects, notices, Saving::nowhere())
        }
    }
}

/// Opens `opening` as [`open`] does, for a player with `settings`: their players, autosave and preferences; the
/// reason their settings file was not used, if it was not, is the first thing they are told. Also the session's
/// look (without colour when `no_color`, as `NO_COLOR` asks) and a seed of its own, so that the weaker levels
/// play a new game each time.
pub fn open_with_settings(
    store: Result<Store, StoreError>,
    opening: SessionOpening,
    settings: &Settings,
    problem: Option<&SettingsError>,
    no_color: bool,
) -> (Opened, Config) {
    let opened = open(
        store,
        settings.game.autosave,
        opening,
        settings.players.players(),
    );
    with_settings(opened, settings, problem, no_color)
}

/// Opens a game at `table` (a table on a server) of `game_type` for a player with `settings` (their look and
/// keys), as [`open_with_settings`] does. The session saves nothing: the table keeps the game.
pub fn open_table(
    table: TableView,
    game_type: GameType,
    settings: &Settings,
    problem: Option<&SettingsError>,
    no_color: bool,
) -> (Opened, Config) {
    let app = App::at_table(table, game_type);
    let opened = opened(app, Vec::new(), Vec::new(), Saving::nowhere());
    with_settings(opened, settings, problem, no_color)
}

/// Opens the problem trainer `app` (see [`App::training`]) for a player with `settings`, as
/// [`open_with_settings`] does. The session saves nothing: a problem is not a game to keep.
pub fn open_trainer(
    app: App,
    effects: Vec<Effect>,
    settings: &Settings,
    problem: Option<&SettingsError>,
    no_color: bool,
) -> (Opened, Config) {
    let opened = opened(app, effects, Vec::new(), Saving::nowhere());
    with_settings(opened, settings, problem, no_color)
}

/// The player's settings applied to `opened`, with the reason their file was not used first among its notices,
/// and the session's look and seed.
fn with_settings(
    mut opened: Opened,
    settings: &Settings,
    problem: Option<&SettingsError>,
    no_color: bool,
) -> (Opened, Config) {
    opened.app.set_preferences(Preferences::from(settings));
    // The engine's first move was asked for before the settings were known: it is asked for again, with their
    // time to think or their clocks.
    if opened
        .effects
        .iter()
        .any(|e| matches!(e, Effect::Think { .. }))
    {
        opened
            .effects
            .retain(|e| !matches!(e, Effect::Think { .. }));
        let again = opened.app.renew_engine_turn();
        opened.effects.extend(again);
    }
    if let Some(problem) = problem {
        opened.notices.insert(
            0,
            format!("{}; running on the default settings", problem.brief()),
        );
    }
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let config = Config {
        options: Options::of(settings, no_color),
        seed,
        settings: Some(Box::new(settings.clone())),
        no_color,
    };
    (opened, config)
}

fn opened(app: App, effects: Vec<Effect>, notices: Vec<String>, saving: Saving) -> Opened {
    Opened {
        app,
        effects,
        notices,
        saving,
        settings_home: super::SettingsHome::Nowhere("kept until you leave".into()),
    }
}

/// The app for `opening`, with this session's autosave slot, offering first to resume an unfinished game left
/// by a session that has ended. When something else was asked for (a position, a file), that game is filed
/// among the saved games instead, so that nothing replaces it. Games still open in other sessions are left to
/// them; autosaves that cannot be read were moved aside (never overwritten). The notices say all of it. Without
/// a slot the game is saved only when asked.
fn open_with_autosave(store: Store, opening: SessionOpening, players: Players) -> Opened {
    let claim = match store.claim_autosave() {
        Ok(claim) => claim,
        Err(e) => {
            let (app, effects) = opening.app(players);
            let notice = match e {
                StoreError::AllSlotsTaken(_) => e.to_string(),
                e => format!("this game is not saved automatically ({e}); :save still saves it"),
            };
            let saving = Saving::in_store(store, None, true);
            return opened(app, effects, vec![notice], saving);
        }
    };
    let mut notices: Vec<String> = claim
        .set_aside
        .iter()
        .map(|(kept, why)| format!("{why}; the file was kept as {}", kept.display()))
        .collect();
    match claim.open_elsewhere {
        0 => {}
        1 => notices.push(
            "an unfinished game is open in another crowned (offered here once that one ends); \
             this game is saved apart"
                .into(),
        ),
        n => notices.push(format!(
            "{n} unfinished games are open in other crowned programs (offered here once they end); \
             this game is saved apart"
        )),
    }
    let slot = claim.slot;
    let Some(saved) = claim.unfinished else {
        let (app, effects) = opening.app(players);
        let saving = Saving::in_store(store, Some(slot), true);
        return opened(app, effects, notices, saving);
    };
    if let SessionOpening::Standard(game_type) = opening {
        let app = App::offering_resume_over(AnyGame::new(game_type), players, saved);
        let saving = Saving::in_store(store, Some(slot), true);
        return opened(app, Vec::new(), notices, saving);
    }
    let slot = match store.keep(&saved).and_then(|_| slot.clear()) {
        Ok(()) => {
            notices.push("the unfinished game was kept in saved games (o opens it)".into());
            Some(slot)
        }
        Err(e) => match rename_new(slot.file(), "autosave-unfiled", "pdn") {
            Ok(kept) => {
                notices.push(format!(
                    "the unfinished game could not be filed ({e}); it was kept as {}",
                    kept.display()
                ));
                Some(slot)
            }
            // The slot still holds the game: this session must not write it.
            Err(_) => {
                notices.push(format!(
                    "this game is not saved automatically, so that the unfinished game in {} is not lost: {e}",
                    slot.file().display()
                ));
                None
            }
        },
    };
    let (app, effects) = opening.app(players);
    let saving = Saving::in_store(store, slot, true);
    opened(app, effects, notices, saving)
}
