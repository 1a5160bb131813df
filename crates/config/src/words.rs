//! The words the display settings take (a theme, a piece style, an orientation, a capture effect): each a closed
//! list of names, read from the settings file, the command line and the settings screen alike.
//!
//! Each list is declared once by `setting_words!`: the enum, every value in order (`ALL`), its name, reading a
//! name back (any case, spaces around ignored) with an error that lists the names, and `Display` as the name.
//! What the screen makes of a value (a piece's glyph, a theme's colours) lives with the screen.

use crate::engine::{Player, Players};

/// One, whatever it is given: counts the variants of a list.
macro_rules! one {
    ($x:ident) => {
        1
    };
}

/// Declares a closed list of setting words: `enum Name, Error, "what", "whats" { Variant = "word", ... }`, the
/// first variant the default.
macro_rules! setting_words {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident, $error:ident, $what:literal, $whats:literal {
            $(#[doc = $first_doc:literal])*
            $first:ident = $first_word:literal,
            $(
                $(#[doc = $variant_doc:literal])*
                $variant:ident = $word:literal,
            )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub enum $name {
            $(#[doc = $first_doc])*
            #[default]
            $first,
            $(
                $(#[doc = $variant_doc])*
                $variant,
            )*
        }

        impl $name {
            /// Every value, in order.
            pub const ALL: [$name; 1 $(+ one!($variant))*] = [$name::$first, $($name::$variant),*];

            /// The name in the settings.
            pub fn name(self) -> &'static str {
                match self {
                    $name::$first => $first_word,
                    $($name::$variant => $word,)*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        #[doc = concat!("A name that is not a ", $what, ".")]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $error(pub String);

        impl std::fmt::Display for $error {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let names: Vec<&str> = $name::ALL.iter().map(|value| value.name()).collect();
                write!(
                    f,
                    concat!("unknown ", $what, " {:?}: the ", $whats, " are {}"),
                    self.0,
                    listed(&names)
                )
            }
        }

        impl std::error::Error for $error {}

        impl std::str::FromStr for $name {
            type Err = $error;

            fn from_str(s: &str) -> Result<$name, $error> {
                $name::ALL
                    .into_iter()
                    .find(|value| value.name().eq_ignore_ascii_case(s.trim()))
                    .ok_or_else(|| $error(s.to_string()))
            }
        }
    };
}

/// Names joined as a sentence lists them: `a`, `a and b`, `a, b and c`.
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

setting_words! {
    /// The themes on offer.
    pub enum ThemeName, UnknownTheme, "theme", "themes" {
        /// The 16 standard colours: reads the same on every colour terminal.
        Classic = "classic",
        /// Wood colours in 24-bit colour, for terminals that have it.
        Wood = "wood",
        /// No colour at all: reverse video and marks.
        Mono = "mono",
    }
}

setting_words! {
    /// The glyphs pieces are drawn with.
    pub enum PieceStyle, UnknownPieceStyle, "piece style", "styles" {
        /// Discs for men and crowns for kings: ● ○ ♛ ♕.
        Unicode = "unicode",
        /// Letters, for terminals and fonts without those symbols: b w B W.
        Ascii = "ascii",
    }
}

setting_words! {
    /// Which side is at the bottom of the board when a game starts.
    pub enum Orientation, UnknownOrientation, "orientation", "orientations" {
        /// Black at the bottom when one person plays Black against the engine, White otherwise.
        Auto = "auto",
        /// Black at the bottom.
        BlackBottom = "black-bottom",
        /// White at the bottom (the diagrams' convention).
        WhiteBottom = "white-bottom",
    }
}

setting_words! {
    /// What is drawn when a piece is taken.
    pub enum CaptureEffect, UnknownCaptureEffect, "capture effect", "effects" {
        /// Nothing beyond the taken piece's mark.
        None = "none",
        /// A short burst over each taken piece's square.
        Explode = "explode",
    }
}

/// Which way up the board starts, as the orientation says for the players of a game.
impl Orientation {
    /// Whether Black is at the bottom of the board for a game with these players.
    pub fn black_at_bottom(self, players: Players) -> bool {
        match self {
            Orientation::Auto => players.black == Player::Human && players.white != Player::Human,
            Orientation::BlackBottom => true,
            Orientation::WhiteBottom => false,
        }
    }
}

/// The toggle key's side of the capture effect.
impl CaptureEffect {
    /// The other one: what the toggle key switches to.
    pub fn toggled(self) -> CaptureEffect {
        match self {
            CaptureEffect::None => CaptureEffect::Explode,
            CaptureEffect::Explode => CaptureEffect::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Level;

    #[test]
    fn effects_read_and_toggle() {
        for effect in CaptureEffect::ALL {
            assert_eq!(effect.name().parse(), Ok(effect));
            assert_eq!(effect.toggled().toggled(), effect);
        }
        assert_eq!(" Explode ".parse(), Ok(CaptureEffect::Explode));
        assert!("fireworks".parse::<CaptureEffect>().is_err());
    }

    #[test]
    fn orientations_read_and_decide_the_bottom() {
        let against_engine = Players {
            black: Player::Human,
            white: Player::Engine(Level::Easy),
        };
        let humans = Players {
            black: Player::Human,
            white: Player::Human,
        };
        assert!(Orientation::Auto.black_at_bottom(against_engine));
        assert!(!Orientation::Auto.black_at_bottom(humans));
        assert!(!Orientation::Auto.black_at_bottom(against_engine.swapped()));
        assert!(Orientation::BlackBottom.black_at_bottom(humans));
        assert!(!Orientation::WhiteBottom.black_at_bottom(against_engine));
        for o in Orientation::ALL {
            assert_eq!(o.name().parse(), Ok(o));
        }
        assert!("sideways".parse::<Orientation>().is_err());
    }

    #[test]
    fn every_word_reads_back_in_any_case_and_a_wrong_one_lists_the_right_ones() {
        for theme in ThemeName::ALL {
            assert_eq!(theme.name().to_uppercase().parse(), Ok(theme));
            assert_eq!(theme.to_string(), theme.name());
        }
        for style in PieceStyle::ALL {
            assert_eq!(format!(" {style} ").parse(), Ok(style));
        }
        assert_eq!(
            "tilted".parse::<Orientation>().map_err(|e| e.to_string()),
            Err("unknown orientation \"tilted\": the orientations are auto, black-bottom and white-bottom".into())
        );
        assert_eq!(
            "boom".parse::<CaptureEffect>().map_err(|e| e.to_string()),
            Err("unknown capture effect \"boom\": the effects are none and explode".into())
        );
        assert_eq!(ThemeName::default(), ThemeName::Classic);
        assert_eq!(listed(&["a"]), "a");
    }
}
