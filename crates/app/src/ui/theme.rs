//! Colours and piece glyphs.
//!
//! Nothing is told by colour alone: kings have their own glyphs, and the cursor, the selection, the
//! destinations and the pieces that must capture have marks beside or on the piece, so the `mono` theme (chosen
//! whenever `NO_COLOR` is set) shows everything the others do.

use ratatui::style::{Color as Tint, Modifier, Style};

use crate::rules::{Color, Piece, Role};

pub use crate::config::{PieceStyle, ThemeName, UnknownPieceStyle, UnknownTheme};

/// What the screen draws for each piece style (the style itself is a word of the settings).
pub trait Glyphs {
    /// The glyph of a piece.
    fn glyph(self, piece: Piece) -> char;

    /// The mark on an empty square the selected piece can move to.
    fn destination(self) -> char;

    /// The mark on the empty square the last move started from: a ring where the piece was, unlike the
    /// landing squares' dot.
    fn departed(self) -> char;

    /// The marks either side of the selected piece when the cursor is on it and the square is too narrow for
    /// the cursor's brackets around the selection's.
    fn held(self) -> (char, char);

    /// The marks either side of the piece the last move brought to its square.
    fn arrived(self) -> (char, char);

    /// The capture effect's frame `frame` over a piece being taken: a flash, a ring, dust (`display.capture-effect
    /// = "explode"`). A frame past the last shows the last.
    fn burst(self, frame: usize) -> char;

    /// The mark on a piece captured so far in a capture being picked, and on the squares of the pieces the last
    /// move took.
    fn taken(self) -> char;
}

impl Glyphs for PieceStyle {
    fn glyph(self, piece: Piece) -> char {
        match (self, piece.color, piece.role) {
            (PieceStyle::Unicode, Color::Black, Role::Man) => '●',
            (PieceStyle::Unicode, Color::White, Role::Man) => '○',
            (PieceStyle::Unicode, Color::Black, Role::King) => '♛',
            (PieceStyle::Unicode, Color::White, Role::King) => '♕',
            (PieceStyle::Ascii, Color::Black, Role::Man) => 'b',
            (PieceStyle::Ascii, Color::White, Role::Man) => 'w',
            (PieceStyle::Ascii, Color::Black, Role::King) => 'B',
            (PieceStyle::Ascii, Color::White, Role::King) => 'W',
        }
    }

    fn destination(self) -> char {
        match self {
            PieceStyle::Unicode => '•',
            PieceStyle::Ascii => '+',
        }
    }

    fn departed(self) -> char {
        match self {
            PieceStyle::Unicode => '◌',
            PieceStyle::Ascii => '.',
        }
    }

    fn held(self) -> (char, char) {
        match self {
            PieceStyle::Unicode => ('»', '«'),
            PieceStyle::Ascii => ('>', '<'),
        }
    }

    fn arrived(self) -> (char, char) {
        match self {
            PieceStyle::Unicode => ('‹', '›'),
            PieceStyle::Ascii => ('<', '>'),
        }
    }

    fn burst(self, frame: usize) -> char {
        const UNICODE: [char; 3] = ['✸', '✺', '·'];
        const ASCII: [char; 3] = ['*', '+', '.'];
        let frames = match self {
            PieceStyle::Unicode => UNICODE,
            PieceStyle::Ascii => ASCII,
        };
        frames[frame.min(frames.len() - 1)]
    }

    fn taken(self) -> char {
        match self {
            PieceStyle::Unicode => '×',
            PieceStyle::Ascii => 'x',
        }
    }
}

/// The styles the screen is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Unplayable squares.
    pub light: Style,
    /// Playable squares.
    pub dark: Style,
    /// Black's pieces (foreground only: drawn over a square's background).
    pub black: Style,
    /// White's pieces.
    pub white: Style,
    /// The square under the cursor.
    pub cursor: Style,
    /// The selected piece and the squares of the capture picked so far.
    pub selected: Style,
    /// Squares the selected piece can go to.
    pub destination: Style,
    /// Pieces that must capture.
    pub must_capture: Style,
    /// The squares of the last move.
    pub last_move: Style,
    /// Where the engine's suggested move starts and ends.
    pub hint: Style,
    /// Square numbers inside the squares.
    pub number: Style,
    /// Edge labels, hints and other quiet text.
    pub quiet: Style,
    /// The border of the pane that has the keys.
    pub focus: Style,
    /// The current move in the history.
    pub current: Style,
    /// The capture effect's burst (foreground only: drawn over the square); its last frame, the dust, is quiet.
    pub burst: Style,
}

impl Theme {
    /// The theme called `name`, or `mono` whatever the name when `no_color` is set.
    pub fn new(name: ThemeName, no_color: bool) -> Theme {
        match if no_color { ThemeName::Mono } else { name } {
            ThemeName::Classic => Theme::classic(),
            ThemeName::Wood => Theme::wood(),
            ThemeName::Mono => Theme::mono(),
        }
    }

    /// Whether the `NO_COLOR` convention asks for no colour (<https://no-color.org>: set and not empty).
    pub fn no_color_from_env() -> bool {
        std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
    }

    fn classic() -> Theme {
        let bg = |tint| Style::new().bg(tint);
        Theme {
            light: bg(Tint::White),
            dark: bg(Tint::Green),
            black: Style::new().fg(Tint::Black),
            white: Style::new().fg(Tint::White).add_modifier(Modifier::BOLD),
            cursor: bg(Tint::Yellow),
            selected: bg(Tint::Blue),
            destination: bg(Tint::Cyan),
            must_capture: bg(Tint::Red),
            last_move: bg(Tint::DarkGray),
            hint: bg(Tint::Magenta),
            number: Style::new().fg(Tint::LightGreen),
            quiet: Style::new().fg(Tint::DarkGray),
            focus: Style::new().fg(Tint::Yellow).add_modifier(Modifier::BOLD),
            current: Style::new().add_modifier(Modifier::REVERSED),
            burst: Style::new()
                .fg(Tint::LightYellow)
                .add_modifier(Modifier::BOLD),
        }
    }

    fn wood() -> Theme {
        let bg = |r, g, b| Style::new().bg(Tint::Rgb(r, g, b));
        Theme {
            light: bg(238, 214, 176),
            dark: bg(150, 100, 62),
            black: Style::new().fg(Tint::Rgb(25, 20, 20)),
            white: Style::new()
                .fg(Tint::Rgb(255, 250, 240))
                .add_modifier(Modifier::BOLD),
            cursor: bg(214, 170, 40),
            selected: bg(70, 110, 170),
            destination: bg(110, 150, 90),
            must_capture: bg(190, 60, 50),
            last_move: bg(120, 120, 90),
            hint: bg(150, 90, 150),
            number: Style::new().fg(Tint::Rgb(205, 170, 130)),
            quiet: Style::new().fg(Tint::Rgb(140, 140, 140)),
            focus: Style::new()
                .fg(Tint::Rgb(214, 170, 40))
                .add_modifier(Modifier::BOLD),
            current: Style::new().add_modifier(Modifier::REVERSED),
            burst: Style::new()
                .fg(Tint::Rgb(255, 170, 40))
                .add_modifier(Modifier::BOLD),
        }
    }

    fn mono() -> Theme {
        let plain = Style::new();
        Theme {
            light: plain,
            dark: plain.add_modifier(Modifier::REVERSED),
            black: plain,
            white: plain,
            cursor: plain.add_modifier(Modifier::BOLD),
            selected: plain.add_modifier(Modifier::BOLD),
            destination: plain,
            must_capture: plain.add_modifier(Modifier::BOLD),
            last_move: plain.add_modifier(Modifier::UNDERLINED),
            hint: plain.add_modifier(Modifier::BOLD),
            number: plain,
            quiet: plain,
            focus: plain.add_modifier(Modifier::BOLD),
            current: plain.add_modifier(Modifier::REVERSED),
            // Without colour the burst is its glyphs alone.
            burst: plain,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_always_gives_mono() {
        for name in ThemeName::ALL {
            let theme = Theme::new(name, true);
            assert_eq!(theme, Theme::mono());
            for style in [
                theme.light,
                theme.dark,
                theme.cursor,
                theme.black,
                theme.burst,
            ] {
                assert_eq!((style.fg, style.bg), (None, None));
            }
        }
    }

    #[test]
    fn kings_and_men_have_different_glyphs_in_every_style() {
        for style in [PieceStyle::Unicode, PieceStyle::Ascii] {
            let mut glyphs: Vec<char> = [Color::Black, Color::White]
                .into_iter()
                .flat_map(|color| [Role::Man, Role::King].map(|role| Piece { color, role }))
                .map(|p| style.glyph(p))
                .collect();
            glyphs.extend([style.destination(), style.taken()]);
            let count = glyphs.len();
            glyphs.sort_unstable();
            glyphs.dedup();
            assert_eq!(glyphs.len(), count, "{style:?}");
        }
        assert!(
            PieceStyle::Ascii
                .glyph(Piece::new(Color::White, Role::King))
                .is_ascii()
        );
    }

    #[test]
    fn bursts_have_three_frames_in_each_style_and_ascii_stays_ascii() {
        for style in PieceStyle::ALL {
            let frames: Vec<char> = (0..3).map(|f| style.burst(f)).collect();
            assert_eq!(style.burst(7), frames[2], "past the end shows the last");
            assert!(frames[0] != frames[1] && frames[1] != frames[2]);
        }
        assert!((0..3).all(|f| PieceStyle::Ascii.burst(f).is_ascii()));
    }

    #[test]
    fn theme_names_parse() {
        assert_eq!("Wood".parse(), Ok(ThemeName::Wood));
        assert!("neon".parse::<ThemeName>().is_err());
    }
}
