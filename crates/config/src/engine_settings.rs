//! The `[engine]` table: how the engine plays in the terminal game, declared once for the file, the printed
//! settings and the command line.

use super::schema::{CliFlag, Interval, Seconds, Switch, Word, settings_table};
use super::values::MAX_PACE;
use crate::engine::Level;

settings_table! {
    /// How the engine plays in the terminal game: the `[engine]` table.
    table "engine", Settings.engine => EngineSettings, EngineFlags;

    /// Seconds the engine thinks per move.
    time ("time"): f64 = Seconds, CliFlag::Flag("time", "SECONDS");
    /// In a game between engines, seconds each move stays on the board before the next is shown (the engines
    /// think meanwhile); 0 shows moves as fast as they come.
    pace ("pace"): f64 = Interval(MAX_PACE), CliFlag::Flag("pace", "SECONDS");
    /// The level that suggests a move when the player asks for a hint.
    hint_level ("hint-level"): Level = Word(Level::Max), CliFlag::FileOnly;
    /// Seconds the hint's level looks for one.
    hint_time ("hint-time"): f64 = Seconds, CliFlag::FileOnly;
    /// Whether `max` thinks on its opponent's time in a game against a person.
    ponder ("ponder"): bool = Switch, CliFlag::FileOnly;
}
