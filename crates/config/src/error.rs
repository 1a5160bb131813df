//! Why a settings file was not used, said with its file, line and setting where they are known.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::MAX_FILE_SIZE;
use crate::store::file_label;

/// Why the settings file was not used.
#[derive(Debug, Error)]
pub enum SettingsError {
    /// The file exists but cannot be read: permissions, a directory in its place, a read error.
    #[error("{}: cannot be read: {cause}", .path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        cause: io::Error,
    },
    /// The file is far too large to be a settings file.
    #[error("{}: the file is larger than {MAX_FILE_SIZE} bytes", .path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The file is not UTF-8 text, as TOML must be.
    #[error("{}: line {line}: the file is not UTF-8 text", .path.display())]
    NotText {
        /// The file.
        path: PathBuf,
        /// The line of the first byte that is not UTF-8.
        line: usize,
    },
    /// The file is read but something in it is wrong.
    #[error("{}", describe(&.path.display(), *.line, .setting.as_deref(), .message))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The line, counted from 1, when it is known.
        line: Option<usize>,
        /// The setting, dotted (`engine.time`, `keys.board.undo`), when it is known.
        setting: Option<String>,
        /// What is wrong.
        message: String,
    },
}

fn describe(
    file: &dyn fmt::Display,
    line: Option<usize>,
    setting: Option<&str>,
    message: &str,
) -> String {
    let mut text = file.to_string();
    if let Some(line) = line {
        text.push_str(&format!(": line {line}"));
    }
    if let Some(setting) = setting {
        text.push_str(&format!(": {setting}"));
    }
    format!("{text}: {message}")
}

impl SettingsError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            SettingsError::Unreadable { path, .. }
            | SettingsError::TooLarge { path }
            | SettingsError::NotText { path, .. }
            | SettingsError::Invalid { path, .. } => path,
        }
    }

    /// The line of the file the error is about, when there is one.
    pub fn line(&self) -> Option<usize> {
        match self {
            SettingsError::NotText { line, .. } => Some(*line),
            SettingsError::Invalid { line, .. } => *line,
            SettingsError::Unreadable { .. } | SettingsError::TooLarge { .. } => None,
        }
    }

    /// The setting the error is about, when there is one.
    pub fn setting(&self) -> Option<&str> {
        match self {
            SettingsError::Invalid { setting, .. } => setting.as_deref(),
            _ => None,
        }
    }

    /// The error with the file's name instead of its whole path, for a one-line status.
    pub fn brief(&self) -> String {
        let name = file_label(self.path());
        match self {
            SettingsError::Unreadable { cause: source, .. } => {
                format!("{name}: cannot be read: {source}")
            }
            SettingsError::TooLarge { .. } => {
                format!("{name}: the file is larger than {MAX_FILE_SIZE} bytes")
            }
            SettingsError::NotText { line, .. } => {
                format!("{name}: line {line}: the file is not UTF-8 text")
            }
            SettingsError::Invalid {
                line,
                setting,
                message,
                ..
            } => describe(&name, *line, setting.as_deref(), message),
        }
    }
}
