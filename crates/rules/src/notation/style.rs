//! How squares are written: a small word of its own, so that a variant can name its style without the rest of
//! the notation.

use std::fmt;

/// How squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SquareStyle {
    /// Standard numbers: `11-15`.
    #[default]
    Numbers,
    /// Coordinates: `c3-d4`.
    Coordinates,
}

impl SquareStyle {
    /// Both styles.
    pub const ALL: [SquareStyle; 2] = [SquareStyle::Numbers, SquareStyle::Coordinates];

    /// The name in the settings.
    pub fn name(self) -> &'static str {
        match self {
            SquareStyle::Numbers => "numbers",
            SquareStyle::Coordinates => "coordinates",
        }
    }
}

impl fmt::Display for SquareStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
