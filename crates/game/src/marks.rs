//! How good a move was, as annotators mark it: `!`, `?`, `!!`, `??`, `!?`, `?!`, or the numeric annotation
//! glyphs (NAGs) `$1` to `$6` that stand for them in PDN.

use std::fmt;

/// A move's mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveMark {
    /// `!`: a good move (NAG 1).
    Good,
    /// `?`: a mistake (NAG 2).
    Mistake,
    /// `!!`: a very good move (NAG 3).
    Brilliant,
    /// `??`: a blunder (NAG 4).
    Blunder,
    /// `!?`: an interesting move (NAG 5).
    Interesting,
    /// `?!`: a dubious move, an inaccuracy (NAG 6).
    Dubious,
}

impl MoveMark {
    /// Every mark, in NAG order.
    pub const ALL: [MoveMark; 6] = [
        MoveMark::Good,
        MoveMark::Mistake,
        MoveMark::Brilliant,
        MoveMark::Blunder,
        MoveMark::Interesting,
        MoveMark::Dubious,
    ];

    /// The mark as it is written after a move: `?!`.
    pub fn symbol(self) -> &'static str {
        match self {
            MoveMark::Good => "!",
            MoveMark::Mistake => "?",
            MoveMark::Brilliant => "!!",
            MoveMark::Blunder => "??",
            MoveMark::Interesting => "!?",
            MoveMark::Dubious => "?!",
        }
    }

    /// Its numeric annotation glyph: 1 to 6.
    pub fn nag(self) -> u8 {
        match self {
            MoveMark::Good => 1,
            MoveMark::Mistake => 2,
            MoveMark::Brilliant => 3,
            MoveMark::Blunder => 4,
            MoveMark::Interesting => 5,
            MoveMark::Dubious => 6,
        }
    }

    /// Whether the mark says the move was a bad one (`?`, `??`, `?!`).
    pub fn is_bad(self) -> bool {
        matches!(
            self,
            MoveMark::Mistake | MoveMark::Blunder | MoveMark::Dubious
        )
    }

    /// The mark an annotation as written stands for: a symbol (`?!`) or a NAG (`$6`); `None` for anything else
    /// (the other NAGs say things about positions, not moves).
    pub fn from_annotation(text: &str) -> Option<MoveMark> {
        let text = text.trim();
        match text.strip_prefix('$') {
            Some(digits) => {
                let nag: u8 = digits.parse().ok()?;
                MoveMark::ALL.into_iter().find(|m| m.nag() == nag)
            }
            None => MoveMark::ALL.into_iter().find(|m| m.symbol() == text),
        }
    }
}

impl fmt::Display for MoveMark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_and_nags_read_back() {
        for mark in MoveMark::ALL {
            assert_eq!(MoveMark::from_annotation(mark.symbol()), Some(mark));
            assert_eq!(
                MoveMark::from_annotation(&format!("${}", mark.nag())),
                Some(mark)
            );
        }
        for other in [
            "",
            "$",
            "$0",
            "$7",
            "$18",
            "$99999999999",
            "!!!",
            "?!?",
            "x",
        ] {
            assert_eq!(MoveMark::from_annotation(other), None, "{other}");
        }
        assert!(MoveMark::Blunder.is_bad() && !MoveMark::Interesting.is_bad());
    }
}
