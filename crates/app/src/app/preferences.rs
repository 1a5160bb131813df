//! What the settings change in the app: the keys, which way up the board starts, the draw rule's length, the
//! pace of the screen, how long the engine may think, and how hints are found.

use std::time::Duration;

use super::burst::CaptureEffect;
use crate::config::KeyMap;
use crate::config::{Settings, interval};
use crate::engine::Level;
use crate::game::{DEFAULT_MOVE_LIMIT, TimeControl};

pub use crate::config::{Orientation, UnknownOrientation};

/// The settings the app itself follows. The default is the built-in behaviour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preferences {
    /// The keys bound to each command.
    pub keys: KeyMap,
    /// Which way up the board starts in each new game.
    pub orientation: Orientation,
    /// Moves by each side without a capture or a man moving before the game is drawn.
    pub move_limit: u32,
    /// In a game between engines, the time each move stays on the board before the next is shown (`None`:
    /// as fast as they play).
    pub pace: Option<Duration>,
    /// How long each step of a move is shown as the piece moves along its path (`None`: moves appear at once).
    pub animation_step: Option<Duration>,
    /// What is drawn over a piece as it is taken.
    pub capture_effect: CaptureEffect,
    /// How long the engine may think about a move; every search the app asks for carries the limits it gives.
    pub think_time: Duration,
    /// The level that suggests a move when the player asks for a hint.
    pub hint_level: Level,
    /// How long it looks for one.
    pub hint_time: Duration,
    /// Whether `max` thinks on its opponent's time in a game against a person (off on a server, whose engine
    /// threads every player shares).
    pub ponder: bool,
    /// How long the analysis panel's search looks at one position.
    pub analysis_time: Duration,
    /// The time control of new games (`None`: no clocks).
    pub clock: Option<TimeControl>,
}

/// The default pace of a game between engines: a move a second, slow enough to follow.
pub const DEFAULT_PACE: Duration = Duration::from_secs(1);

/// The default time the engine thinks about a move, as in the built-in settings.
pub const DEFAULT_THINK_TIME: Duration = Duration::from_secs(1);

/// The default time a hint is looked for: short enough to wait for, long enough for a full-strength search to
/// see the tactics of the position.
pub const DEFAULT_HINT_TIME: Duration = Duration::from_millis(500);

/// The default time the analysis panel's search looks at one position: deep enough for anything a player wants
/// to see, and bounded so that an engine shared with others is never held for good.
pub const DEFAULT_ANALYSIS_TIME: Duration = Duration::from_secs(60);

/// The default time each step of a move is shown: quick enough never to feel like waiting.
pub const DEFAULT_ANIMATION_STEP: Duration = Duration::from_millis(150);

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            keys: KeyMap::default(),
            orientation: Orientation::default(),
            move_limit: DEFAULT_MOVE_LIMIT,
            pace: Some(DEFAULT_PACE),
            animation_step: Some(DEFAULT_ANIMATION_STEP),
            capture_effect: CaptureEffect::None,
            think_time: DEFAULT_THINK_TIME,
            hint_level: Level::Max,
            hint_time: DEFAULT_HINT_TIME,
            ponder: true,
            analysis_time: DEFAULT_ANALYSIS_TIME,
            clock: None,
        }
    }
}

impl From<&Settings> for Preferences {
    /// What the app follows of the settings.
    fn from(settings: &Settings) -> Preferences {
        Preferences {
            keys: settings.keys.clone(),
            orientation: settings.display.orientation,
            move_limit: settings.game.move_limit,
            pace: interval(settings.engine.pace),
            animation_step: interval(settings.display.animation_step),
            capture_effect: settings.display.capture_effect,
            think_time: settings.think_time(),
            hint_level: settings.engine.hint_level,
            hint_time: Duration::from_secs_f64(settings.engine.hint_time),
            ponder: settings.engine.ponder,
            clock: settings.game.clock,
            ..Preferences::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_settings_are_the_apps_defaults_and_a_file_reaches_it() {
        let defaults = Settings::defaults();
        assert_eq!(Preferences::from(&defaults), Preferences::default());
        assert_eq!(
            crate::ui::Options::of(&defaults, false),
            crate::ui::Options::default()
        );
        let file = "[game]\nclock = \"5+3\"\n[display]\ncapture-effect = \"explode\"\n";
        let settings = defaults
            .overlaid(file, std::path::Path::new("config.toml"))
            .expect("valid");
        let preferences = Preferences::from(&settings);
        assert_eq!(preferences.clock, "5+3".parse().ok());
        assert_eq!(
            preferences.capture_effect,
            crate::config::CaptureEffect::Explode
        );
    }
}
