//! The application state machine, independent of any terminal: the game, who plays it, the cursor and the move
//! being picked, browsing, the input box and what opens over the game, what each command of the settings' key map
//! does, and the effects (engine turns, quitting) the outside world carries out.
//!
//! The modules build on one another from the bottom up, none importing one above it: the vocabulary of actions
//! and effects (`action`, its actions grouped by the part that takes them); the parts, each owning its fields
//! (`table`, `analysis`, `review`, `trainer`, `clocks`, `pondering`, `pace`, `overlay`, `input_box`, `cursor`,
//! `picking`, `setup`, `dialog`, `library`), with the values they use (`animation`, `burst`, `preferences`,
//! `mode`) and the command table's actions (`keymap`); the app that routes over them (`state`); what reads the
//! app to turn input into actions (`keys`, `input`, `layout`); and the server's own screens, apart from the app
//! (`lobby`, `event_screen`, `settings_screen`).

mod action;
mod analysis;
mod animation;
mod ballot;
mod burst;
mod clocks;
mod cursor;
mod dialog;
mod event;
mod event_screen;
mod in_play;
mod input;
mod input_box;
mod keymap;
mod keys;
mod layout;
mod library;
mod list_view;
pub mod lobby;
mod mode;
mod overlay;
mod pace;
mod picking;
mod pondering;
mod preferences;
mod review;
mod settings_screen;
#[cfg(test)]
pub(crate) use settings_screen::sample_screen;
mod setup;
mod state;
mod table;
mod trainer;

pub use animation::Animation;
pub use ballot::{OPENING_TAG, OpeningChoice, ballot_game, deck_size, eleven_man_game};
pub use burst::{BURST_FRAME, BURST_FRAMES, Burst, CaptureEffect, UnknownCaptureEffect};
pub use cursor::{Cursor, CursorStep};
pub use dialog::{DialogRow, NewGameDialog, PLAYER_CHOICES};
pub use event::{InputEvent, Key, KeyCode, Modifiers, Mouse, MouseKind};
pub use event_screen::{EventLeave, EventScreen};
pub use input::{actions_for_input, resized};
pub use keymap::{
    BadKey, Context, FIXED_KEYS, KEY_COMMANDS, KeyChord, KeyCommand, KeyMap, KeyMapError,
    UnknownContext, bound_in, command_action, key_help,
};
pub use keys::action_for_key;
pub use layout::{ScreenLayout, min_size};
pub use library::{AUTO_PLAY_STEPS, GameList, ListPurpose, Replay};
pub use list_view::{ListView, SortKey};
pub use picking::{Pick, PickError, Picker};
pub use preferences::{
    DEFAULT_ANIMATION_STEP, DEFAULT_PACE, DEFAULT_THINK_TIME, Orientation, Preferences,
    UnknownOrientation,
};
pub use settings_screen::{Capture, Followed, SCREEN_KEYS, ScreenOutcome, SettingsScreen};
pub use setup::{Setup, SetupError, check_position};
pub use trainer::{Attempt, HintStage, Trainer, TrainingKind, TrainingNews};

pub use crate::engine::{Player, Players};
pub use action::{
    Action, BrowseAction, Effect, EngineNews, EventAction, HelpAction, Keep, ListAction,
    LobbyAction, MAX_COPY_BYTES, Purpose, ReplayAction, SetupAction, Thinking, Timer,
};
pub use analysis::{ANALYSIS_REFRESH, AnalysisLine, AnalysisView};
pub use clocks::ClockView;
pub use input_box::INPUT_LIMIT;
pub use mode::{Focus, Mode};
pub use overlay::{Help, Overlay, Question, ResumeOffer};
pub use review::{BLUNDER, DUBIOUS, MISTAKE, REVIEW_DEPTH, ReviewView};
pub use state::App;
pub use state::commands::{TYPED_COMMANDS, TypedCommand, command_list};
pub use state::hints::Hint;
pub use state::offers::JUDGING_TIME;
pub use table::{
    CHAT_KEPT, CODE_ALPHABET, CODE_LENGTH, ConductRequest, FIRST_MOVE_LIMIT, NODE_SILENT, NewTable,
    OfferKind, SeatView, TAKEN_OVER, TableNews, TableRequest, TableState, TableView, clock_text,
    clock_text_fine, rating_change_text, read_table_code,
};
