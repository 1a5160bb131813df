//! The application state machine, independent of any terminal: the game, who plays it, the cursor and the move
//! being picked, browsing, the input box and dialogs, the key map, and the effects (engine turns, quitting) the
//! outside world carries out.

mod animation;
mod cursor;
mod dialog;
mod input;
mod keys;
mod layout;
mod library;
mod picking;
mod preferences;
mod setup;
mod state;

pub use animation::Animation;
pub use cursor::{Cursor, Step};
pub use dialog::{NewGameDialog, PLAYER_CHOICES};
pub use input::{
    InputEvent, Key, KeyCode, Modifiers, Mouse, MouseKind, actions_for_input, resized,
};
pub use keys::{
    BadKey, Context, FIXED_KEYS, KEY_COMMANDS, KeyChord, KeyCommand, KeyMap, KeyMapError,
    UnknownContext, action_for_key, key_help,
};
pub use layout::{MIN_HEIGHT, MIN_WIDTH, ScreenLayout, board_row_col};
pub use library::{AUTO_PLAY_STEPS, GameList, ListPurpose, Replay};
pub use picking::{Pick, PickError, Picker};
pub use preferences::{
    DEFAULT_ANIMATION_STEP, DEFAULT_PACE, DEFAULT_THINK_TIME, Orientation, Preferences,
    UnknownOrientation,
};
pub use setup::{MAX_PIECES, Setup, SetupError, check_position};
/// The rule set the app plays: English draughts, until the choice of variant reaches the app. Every place that
/// assumes it names this alias or [`BOARD`], so that the compiler finds them all when it becomes a choice.
pub type PlayedRules = crate::rules::English;

/// The board of [`PlayedRules`].
pub const BOARD: crate::rules::Geometry = <PlayedRules as crate::rules::RuleSet>::GEOMETRY;

pub use crate::engine::{Player, Players};
pub use state::{
    Action, App, COMMANDS, Effect, Focus, INPUT_LIMIT, JUDGING_TIME, Mode, Purpose, Question,
    SetupAction, Thinking, Timer,
};
