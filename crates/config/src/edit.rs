//! The settings screen's side of the settings: the rows it shows for the look of the board (made from the same
//! names the settings file takes, so the two cannot drift), a change checked exactly as the file is checked, and
//! the change written into the user's settings file.
//!
//! The file stays the user's and the source of truth: only the one setting changed is written, its comments
//! and layout kept, the whole file read back before it replaces the old one (all at once: a crash leaves the old
//! file or the new, never half of one). A file with a mistake in it is never written: the settings in force
//! came from the defaults, and writing one setting into such a file would either keep the mistake or drop what
//! the user meant.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;
use toml_edit::{Array, DocumentMut, Item, Table, Value};

use super::{CaptureEffect, Orientation, PieceStyle, ThemeName};
use super::{SettingEdit, SettingRow, SettingValue};
use super::{Settings, SettingsError, read_settings_file};
use crate::rules::SquareStyle;
use crate::store::{file_label, write_atomic};

/// Where the settings screen's changes are checked: the name its errors give instead of a file's.
const SCREEN: &str = "the settings screen";

/// Why a change was not saved.
#[derive(Debug, Error)]
pub enum SaveError {
    /// The file as it is has a mistake: it is left for the user to mend.
    #[error("{}; mend the file first (the change holds until you leave)", .0.brief())]
    FileHasMistake(SettingsError),
    /// The change would not read back (a bug, never written).
    #[error("the change does not read back: {}", .0.brief())]
    DoesNotReadBack(SettingsError),
    /// The file could not be written.
    #[error("{} cannot be written: {cause} (the change holds until you leave)", file_label(.path))]
    Unwritable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        cause: io::Error,
    },
}

impl Settings {
    /// The rows of the settings screen for how the board looks and which way up it is, each with the value in
    /// force.
    pub fn screen_rows(&self) -> Vec<SettingRow> {
        let themes: Vec<&str> = ThemeName::ALL.iter().map(|t| t.name()).collect();
        let pieces: Vec<&str> = PieceStyle::ALL.iter().map(|p| p.name()).collect();
        let notations: Vec<&str> = std::iter::once("auto")
            .chain(SquareStyle::ALL.iter().map(|s| s.name()))
            .collect();
        let orientations: Vec<&str> = Orientation::ALL.iter().map(|o| o.name()).collect();
        let effects: Vec<&str> = CaptureEffect::ALL.iter().map(|e| e.name()).collect();
        let display = "display";
        vec![
            SettingRow::words(
                display,
                "theme",
                "Colours",
                &themes,
                self.display.theme.name(),
            ),
            SettingRow::words(
                display,
                "pieces",
                "Pieces",
                &pieces,
                self.display.pieces.name(),
            ),
            SettingRow::words(
                display,
                "notation",
                "Notation",
                &notations,
                self.display.notation.map_or("auto", SquareStyle::name),
            ),
            SettingRow::words(
                display,
                "orientation",
                "Bottom of the board",
                &orientations,
                self.display.orientation.name(),
            ),
            SettingRow::flag(
                display,
                "square-numbers",
                "Square numbers",
                self.display.square_numbers,
            ),
            SettingRow::flag(
                display,
                "legal-moves",
                "Mark legal moves",
                self.display.legal_moves,
            ),
            SettingRow::words(
                display,
                "capture-effect",
                "Capture effect",
                &effects,
                self.display.capture_effect.name(),
            ),
        ]
    }

    /// These settings with `edit` made, checked as the settings file is: a value out of its list, or a key
    /// bound twice in a context or where it cannot be, is refused with the reason.
    pub fn with_edit(&self, edit: &SettingEdit) -> Result<Settings, SettingsError> {
        self.overlaid(&edit.to_toml(), Path::new(SCREEN))
    }
}

/// Writes `edit` into the settings file at `file` (made if there is none), keeping everything else in it.
pub fn save_edit(file: &Path, edit: &SettingEdit) -> Result<(), SaveError> {
    let text = read_settings_file(file)
        .map_err(SaveError::FileHasMistake)?
        .unwrap_or_default();
    Settings::defaults()
        .overlaid(&text, file)
        .map_err(SaveError::FileHasMistake)?;
    let mut document: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        // It read as settings a moment ago, so it is TOML; said all the same rather than assumed.
        SaveError::FileHasMistake(SettingsError::Invalid {
            path: file.to_path_buf(),
            line: None,
            setting: None,
            message: e.message().to_string(),
        })
    })?;
    set(&mut document, edit);
    let written = document.to_string();
    Settings::defaults()
        .overlaid(&written, file)
        .map_err(SaveError::DoesNotReadBack)?;
    write_atomic(file, written.as_bytes()).map_err(|cause| SaveError::Unwritable {
        path: file.to_path_buf(),
        cause,
    })
}

/// Sets `edit`'s setting in `document`, making its tables as needed (`keys.board` as `[keys.board]`).
fn set(document: &mut DocumentMut, edit: &SettingEdit) {
    let mut table: &mut Table = document.as_table_mut();
    for part in edit.table.split('.') {
        let entry = table.entry(part).or_insert_with(|| {
            let mut new = Table::new();
            // `[keys.board]` rather than an empty `[keys]` above it.
            new.set_implicit(true);
            Item::Table(new)
        });
        if !entry.is_table() {
            // Not a table (`display = 3`): the file would not have read, so this is not reached; replaced
            // rather than left to panic.
            *entry = Item::Table(Table::new());
        }
        let Some(next) = entry.as_table_mut() else {
            return;
        };
        table = next;
    }
    let value = match &edit.value {
        SettingValue::Word(word) => Value::from(word.as_str()),
        SettingValue::Flag(flag) => Value::from(*flag),
        SettingValue::Keys(keys) => {
            Value::Array(keys.iter().map(|k| k.to_string()).collect::<Array>())
        }
    };
    match table.get_mut(&edit.name).and_then(Item::as_value_mut) {
        // The value replaced in place keeps the comment written after it on its line.
        Some(old) => {
            let decor = old.decor().clone();
            *old = value;
            *old.decor_mut() = decor;
        }
        None => {
            table.insert(&edit.name, Item::Value(value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keymap::Context;
    use std::fs;

    /// A folder of the test's own, removed first if a run left it.
    fn temp_home(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("crowned-config-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn edit(table: &str, name: &str, value: SettingValue) -> SettingEdit {
        SettingEdit {
            table: table.into(),
            name: name.into(),
            value,
        }
    }

    fn word(w: &str) -> SettingValue {
        SettingValue::Word(w.into())
    }

    #[test]
    fn the_rows_show_the_settings_in_force_and_every_value_they_offer_is_taken() {
        let settings = Settings::defaults();
        let rows = settings.screen_rows();
        assert_eq!(rows[0].value(), "classic");
        for row in &rows {
            let values: Vec<SettingValue> = match &row.kind {
                crate::RowKind::Words { words, .. } => words.iter().map(|w| word(w)).collect(),
                crate::RowKind::Flag(_) => {
                    vec![SettingValue::Flag(true), SettingValue::Flag(false)]
                }
                crate::RowKind::Keys { .. } => panic!("no keys among the look's rows"),
            };
            for value in values {
                let change = edit(&row.table, &row.name, value);
                let changed = settings
                    .with_edit(&change)
                    .expect("a value the screen offers");
                let shown = changed
                    .screen_rows()
                    .into_iter()
                    .find(|r| r.name == row.name)
                    .map(|r| r.value());
                assert_eq!(shown, Some(change.shown()), "{}", change.path());
            }
        }
    }

    #[test]
    fn a_bad_value_or_a_key_bound_twice_is_refused_with_the_reason() {
        let settings = Settings::defaults();
        let error = settings
            .with_edit(&edit("display", "theme", word("plaid")))
            .expect_err("no such theme");
        assert!(error.brief().contains("display.theme"), "{}", error.brief());
        assert!(
            error.brief().contains("classic, wood and mono"),
            "{}",
            error.brief()
        );
        let f: crate::keymap::KeyChord = "f".parse().expect("a key");
        let error = settings
            .with_edit(&edit("keys.board", "undo", SettingValue::Keys(vec![f])))
            .expect_err("f flips the board");
        assert!(
            error.brief().contains("f is bound to both"),
            "{}",
            error.brief()
        );
        let digit: crate::keymap::KeyChord = "5".parse().expect("a key");
        let error = settings
            .with_edit(&edit("keys.board", "undo", SettingValue::Keys(vec![digit])))
            .expect_err("digits type moves");
        assert!(error.brief().contains("start typing"), "{}", error.brief());
        // A key free on the board is taken.
        let z: crate::keymap::KeyChord = "z".parse().expect("a key");
        let changed = settings
            .with_edit(&edit("keys.board", "undo", SettingValue::Keys(vec![z])))
            .expect("z is free");
        assert_eq!(changed.keys.keys(Context::Board, "undo"), Some(&[z][..]));
    }

    #[test]
    fn a_change_is_written_into_the_file_keeping_the_rest_and_reads_back() {
        let dir = temp_home("settings-edit");
        let file = dir.join("config").join("config.toml");
        // No file yet: one is made with the one setting.
        save_edit(&file, &edit("display", "theme", word("wood"))).expect("saved");
        assert_eq!(
            Settings::load(&file).expect("reads").display.theme,
            ThemeName::Wood
        );
        // The user's comments and other settings are kept; a value on its line keeps its comment.
        fs::write(
            &file,
            "# mine\n[engine]\ntime = 2.0 # slow\n\n[display]\ntheme = \"wood\" # my colours\n",
        )
        .expect("written");
        save_edit(&file, &edit("display", "theme", word("mono"))).expect("saved");
        let z: crate::keymap::KeyChord = "Ctrl-z".parse().expect("a key");
        save_edit(
            &file,
            &edit("keys.board", "undo", SettingValue::Keys(vec![z])),
        )
        .expect("saved");
        save_edit(
            &file,
            &edit("display", "legal-moves", SettingValue::Flag(false)),
        )
        .expect("saved");
        let text = fs::read_to_string(&file).expect("read");
        assert!(
            text.starts_with("# mine\n[engine]\ntime = 2.0 # slow\n"),
            "{text}"
        );
        assert!(text.contains("theme = \"mono\" # my colours"), "{text}");
        assert!(text.contains("[keys.board]\nundo = [\"Ctrl-z\"]"), "{text}");
        assert!(!text.contains("[keys]\n"), "{text}");
        let read = Settings::load(&file).expect("reads back");
        assert_eq!(read.display.theme, ThemeName::Mono);
        assert!(!read.display.legal_moves);
        assert!((read.engine.time - 2.0).abs() < f64::EPSILON);
        assert_eq!(read.keys.keys(Context::Board, "undo"), Some(&[z][..]));
    }

    #[test]
    fn a_file_with_a_mistake_is_never_written() {
        let dir = temp_home("settings-edit-mistake");
        fs::create_dir_all(&dir).expect("a folder");
        let file = dir.join("config.toml");
        let mistaken = "[display]\ntheme = \"plaid\"\n# the rest of my settings\n";
        fs::write(&file, mistaken).expect("written");
        let error =
            save_edit(&file, &edit("display", "pieces", word("ascii"))).expect_err("refused");
        assert!(matches!(error, SaveError::FileHasMistake(_)), "{error}");
        assert!(error.to_string().contains("line 2"), "{error}");
        assert_eq!(fs::read_to_string(&file).expect("read"), mistaken);
        // Nor is a file that is not text.
        fs::write(&file, b"\xff\xfe").expect("written");
        assert!(save_edit(&file, &edit("display", "pieces", word("ascii"))).is_err());
        assert_eq!(fs::read(&file).expect("read"), b"\xff\xfe");
    }
}
