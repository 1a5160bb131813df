//! The `[game]` table: how a new game is played and kept, declared once for the file, the printed settings and the
//! command line. Its variant, board size and rows are read together by the settings' game type, since a size or a
//! row count only means something for its variant.

use toml::Value;

use super::Settings;
use super::schema::{CliFlag, Clocks, Count, Printed, Switch, settings_table};
use crate::game::TimeControl;
use crate::rules::Variant;

settings_table! {
    /// How a new game is played and kept: the `[game]` table (`variant`, `size` and `rows` apart).
    table "game", Settings.game => GameSettings, GameFlags, also ["variant", "size", "rows"];

    /// Save the game in progress after every move, offer to resume it at the next start, and file finished and
    /// abandoned games among the saved games; when off, games are saved only by :save.
    autosave ("autosave"): bool = Switch, CliFlag::Preset(
        "no-autosave",
        "false",
        "Save nothing without being asked: no autosave, no resume, no filing of finished games; :save still works"
    );
    /// Moves by each side without a capture or a man moving before the game is drawn (English draughts; the
    /// other variants keep their own rules).
    move_limit ("move-limit"): u32 = Count(super::MOVE_LIMITS), CliFlag::Flag("move-limit", "MOVES");
    /// Clocks for a new game: minutes and an increment in seconds (5+3), seconds for every move (30s), or none; a
    /// side whose time runs out loses.
    clock ("clock"): Option<TimeControl> = Clocks, CliFlag::Flag("clock", "CONTROL");
}

/// The game type's settings as a file gives them: each as written, checked together by [`Settings`].
#[derive(Debug, Default)]
pub(super) struct GameTypeLayer {
    /// `game.variant`.
    pub(super) variant: Option<String>,
    /// `game.size`, wider than the setting, so that any whole number gets this program's message.
    pub(super) size: Option<i64>,
    /// `game.rows`, the same.
    pub(super) rows: Option<i64>,
}

impl GameTypeLayer {
    /// The game type's settings in a file's `[game]` table; a value of the wrong type goes to `problem`.
    pub(super) fn of(table: &toml::Table, problem: &mut dyn FnMut(&str, String)) -> GameTypeLayer {
        let mut whole = |key: &str| {
            let value = table.get(key)?;
            let number = value.as_integer();
            if number.is_none() {
                problem(key, format!("a whole number, not {value}"));
            }
            number
        };
        let size = whole("size");
        let rows = whole("rows");
        let variant = table.get("variant").and_then(|value| {
            let name = value.as_str().map(str::to_string);
            if name.is_none() {
                problem("variant", format!("a variant's name, not {value}"));
            }
            name
        });
        GameTypeLayer {
            variant,
            size,
            rows,
        }
    }

    /// Whether the file sets none of them.
    pub(super) fn is_empty(&self) -> bool {
        self.variant.is_none() && self.size.is_none() && self.rows.is_none()
    }
}

impl Settings {
    /// The `[game]` table as the settings file writes it, the game type among its own settings in the order of
    /// `config/default.toml`: a defined variant by the name it was given, without a size or rows (its board is
    /// its definition's).
    pub(super) fn game_printed(&self) -> Printed {
        let mut printed = self.game.printed();
        let variant = match (&self.variant_name, self.game_type.variant) {
            (Some(name), Variant::Defined(_)) => name.clone(),
            (_, variant) => variant.name().to_string(),
        };
        let mut game_type = vec![("variant", Value::String(variant))];
        if !matches!(self.game_type.variant, Variant::Defined(_)) {
            game_type.push(("size", Value::Integer(i64::from(self.game_type.size))));
            game_type.push(("rows", Value::Integer(i64::from(self.game_type.rows))));
        }
        let at = printed
            .0
            .iter()
            .position(|(key, _)| *key == "clock")
            .unwrap_or(printed.0.len());
        printed.0.splice(at..at, game_type);
        printed
    }
}
