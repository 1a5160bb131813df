//! What can be wrong with a variant definition.

use thiserror::Error;

/// A definition that cannot be played: the text is not valid TOML for the format, or a value is out of range or
/// refers to something that does not exist. Every check names the field, so the author knows where to look.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DefinitionError {
    /// The text is not TOML, a field is missing or misspelt, or a value has the wrong type.
    #[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
    Syntax {
        /// The 1-based line the TOML reader points at, when it gives one.
        line: Option<usize>,
        /// The reader's own description.
        message: String,
    },
    /// The board is smaller than 1x1 or larger than the bound.
    #[error("board: {width}x{height} is not a size from 1x1 to {max}x{max}")]
    BoardSize {
        /// Columns asked for.
        width: u32,
        /// Rows asked for.
        height: u32,
        /// The largest side allowed.
        max: u32,
    },
    /// A square name that is not a playable square of the board (off the board, light, or a hole).
    #[error("{field}: {square:?} is not a playable square of this board ({why})")]
    BadSquare {
        /// Where the name was found.
        field: String,
        /// The name as written.
        square: String,
        /// Why it is not playable.
        why: &'static str,
    },
    /// A piece kind named but never defined.
    #[error("{field}: no piece kind is named {name:?}")]
    UnknownKind {
        /// Where the name was found.
        field: String,
        /// The name as written.
        name: String,
    },
    /// Any other value that is out of range or contradicts another.
    #[error("{field}: {problem}")]
    Invalid {
        /// The field, as a dotted path such as `pieces[1].promotion.row`.
        field: String,
        /// What is wrong with it.
        problem: String,
    },
}

impl DefinitionError {
    /// An `Invalid` error for `field`.
    pub(crate) fn invalid(field: impl Into<String>, problem: impl Into<String>) -> Self {
        DefinitionError::Invalid {
            field: field.into(),
            problem: problem.into(),
        }
    }

    /// The reader's error, with the line its span starts on.
    pub(crate) fn from_toml(text: &str, error: &toml::de::Error) -> Self {
        let line = error
            .span()
            // Counted on bytes: a span need not fall on a character boundary of the text.
            .map(|span| {
                let before = &text.as_bytes()[..span.start.min(text.len())];
                before.iter().filter(|&&b| b == b'\n').count() + 1
            });
        DefinitionError::Syntax {
            line,
            message: error.message().to_string(),
        }
    }
}
