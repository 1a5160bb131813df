//! The variants by name, as values: what the command line, the settings, PDN files and the app choose between.
//!
//! A [`RuleSet`](super::RuleSet) is a variant as a type, so that the move generator is compiled for it; a
//! [`Variant`] is the same choice as a value, and a [`GameType`] adds the board size and rows of men that the
//! English rules allow on other boards.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::defined::{DefinedId, NoMoves};
use super::notation::style::SquareStyle;
use super::square::Color;

/// One of the draughts variants this program plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// English draughts / American checkers: short kings, men capture forwards only, free choice of capture.
    English,
    /// International draughts (FMJD), 10x10: flying kings, men capture backwards, majority capture.
    International,
    /// Russian draughts (shashki): flying kings, free choice, a man crowned in a capture goes on as a king.
    Russian,
    /// Brazilian draughts: the international rules on 8x8.
    Brazilian,
    /// Pool checkers (American pool): flying kings, men capture backwards, free choice, Black first.
    Pool,
    /// Italian draughts: mirrored board, short kings, men cannot take kings, the Italian capture precedence.
    Italian,
    /// Spanish draughts: mirrored board, flying kings, men capture forwards only, most pieces then most kings.
    Spanish,
    /// Czech draughts: flying kings, men capture forwards only, a king must capture when it can.
    Czech,
    /// Thai draughts (mak-hos): 8 men each, kings fly but land right behind the piece they take.
    Thai,
    /// Canadian draughts: the international rules on 12x12, 30 men each.
    Canadian,
    /// Antidraughts: the international rules, but a side that cannot move (no pieces left, or all blocked)
    /// wins.
    Antidraughts,
    /// Breakthrough: the international rules, and the first side to crown a king wins.
    Breakthrough,
    /// Frisian draughts (Fries dammen), 10x10: men and kings also capture straight along files and ranks,
    /// flying kings, the capture of the highest value (a king counting less than two men) is compulsory.
    Frisian,
    /// Frysk!: the Frisian rules from five men each on the back row.
    Frysk,
    /// A variant defined by its players in a TOML file, loaded into the [registry](super::defined::registry).
    Defined(DefinedId),
}

/// How a game of a variant is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// A side that cannot move (no pieces, or all blocked) loses.
    NoMoveLoses,
    /// A side that cannot move wins (antidraughts).
    NoMoveWins,
    /// The first side to crown a king wins; a side that cannot move loses (breakthrough).
    FirstKingWins,
}

/// A name that is not one of the variants.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("unknown variant {name:?}; the variants are {}", Variant::names().join(", "))]
pub struct UnknownVariant {
    /// The name given.
    pub name: String,
}

impl Variant {
    /// Every variant, English first.
    pub const ALL: [Variant; 14] = [
        Variant::English,
        Variant::International,
        Variant::Russian,
        Variant::Brazilian,
        Variant::Pool,
        Variant::Italian,
        Variant::Spanish,
        Variant::Czech,
        Variant::Thai,
        Variant::Canadian,
        Variant::Antidraughts,
        Variant::Breakthrough,
        Variant::Frisian,
        Variant::Frysk,
    ];

    /// The name used on the command line and in settings, such as `international`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Defined(id) => &id.get().rules.name,
            Variant::English => "english",
            Variant::International => "international",
            Variant::Russian => "russian",
            Variant::Brazilian => "brazilian",
            Variant::Pool => "pool",
            Variant::Italian => "italian",
            Variant::Spanish => "spanish",
            Variant::Czech => "czech",
            Variant::Thai => "thai",
            Variant::Canadian => "canadian",
            Variant::Antidraughts => "antidraughts",
            Variant::Breakthrough => "breakthrough",
            Variant::Frisian => "frisian",
            Variant::Frysk => "frysk",
        }
    }

    /// Every variant's [`name`](Variant::name).
    pub fn names() -> Vec<&'static str> {
        Variant::ALL.iter().map(|v| v.name()).collect()
    }

    /// The name for people, such as "International draughts".
    pub fn title(self) -> &'static str {
        match self {
            Variant::Defined(id) => &id.get().rules.name,
            builtin => builtin.builtin_title(),
        }
    }

    /// [`title`](Variant::title) for the built-ins, usable in constants (a rule set's name); empty for a defined
    /// variant, whose name only the registry knows.
    pub(crate) const fn builtin_title(self) -> &'static str {
        match self {
            Variant::Defined(_) => "",
            Variant::English => "English draughts",
            Variant::International => "International draughts",
            Variant::Russian => "Russian draughts",
            Variant::Brazilian => "Brazilian draughts",
            Variant::Pool => "Pool checkers",
            Variant::Italian => "Italian draughts",
            Variant::Spanish => "Spanish draughts",
            Variant::Czech => "Czech draughts",
            Variant::Thai => "Thai draughts",
            Variant::Canadian => "Canadian draughts",
            Variant::Antidraughts => "Antidraughts",
            Variant::Breakthrough => "Breakthrough draughts",
            Variant::Frisian => "Frisian draughts",
            Variant::Frysk => "Frysk!",
        }
    }

    /// The PDN `GameType` number (PDN 3.0: 20 international, 21 English, 22 Italian, 23 pool, 24 Spanish,
    /// 25 Russian, 26 Brazilian, 27 Canadian, 29 Czech, 31 Thai). PDN 3.0 has none for antidraughts and
    /// breakthrough: theirs are the numbers lidraughts writes in its files, 98 and 96. Frisian is 40 (PDN 3.0's
    /// list, as lidraughts writes it too); Frysk! has none there and lidraughts writes 97.
    pub const fn game_type(self) -> u32 {
        match self {
            Variant::International => 20,
            Variant::English => 21,
            Variant::Italian => 22,
            Variant::Pool => 23,
            Variant::Spanish => 24,
            Variant::Russian => 25,
            Variant::Brazilian => 26,
            Variant::Canadian => 27,
            Variant::Czech => 29,
            Variant::Thai => 31,
            Variant::Antidraughts => 98,
            Variant::Breakthrough => 96,
            Variant::Frisian => 40,
            Variant::Frysk => 97,
            // PDN has no number for a variant defined by its players: its games carry the definition instead.
            Variant::Defined(_) => 0,
        }
    }

    /// The variant of a PDN `GameType` number.
    pub fn from_game_type(number: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.game_type() == number)
    }

    /// The side of the board (8, 10 or 12) the variant is played on; English draughts also allows others (see
    /// [`GameType`]).
    pub fn board_size(self) -> u8 {
        match self {
            Variant::Defined(id) => id.get().rules.width as u8,
            builtin => builtin.builtin_board_size(),
        }
    }

    /// [`board_size`](Variant::board_size) for the built-ins, usable in constants; 0 for a defined variant.
    pub(crate) const fn builtin_board_size(self) -> u8 {
        match self {
            Variant::Defined(_) => 0,
            Variant::International
            | Variant::Antidraughts
            | Variant::Breakthrough
            | Variant::Frisian
            | Variant::Frysk => 10,
            Variant::Canadian => 12,
            _ => 8,
        }
    }

    /// Rows of men each side starts with.
    pub const fn start_rows(self) -> u8 {
        match self {
            Variant::International
            | Variant::Antidraughts
            | Variant::Breakthrough
            | Variant::Frisian => 4,
            Variant::Canadian => 5,
            // lidraughts' Frysk! start: W:W46,47,48,49,50:B1,2,3,4,5, the back rows only.
            Variant::Frysk => 1,
            Variant::Thai => 2,
            Variant::Defined(_) => 0,
            _ => 3,
        }
    }

    /// The side that makes the first move.
    pub fn first_to_move(self) -> Color {
        match self {
            Variant::Defined(id) => id.get().rules.first,
            builtin => builtin.builtin_first_to_move(),
        }
    }

    /// [`first_to_move`](Variant::first_to_move) for the built-ins, usable in constants.
    pub(crate) const fn builtin_first_to_move(self) -> Color {
        match self {
            Variant::English | Variant::Pool => Color::Black,
            _ => Color::White,
        }
    }

    /// How a game is won.
    pub fn goal(self) -> Goal {
        match self {
            Variant::Defined(id) => {
                let rules = &id.get().rules;
                match (rules.no_moves, rules.promotion_wins) {
                    (_, true) => Goal::FirstKingWins,
                    (NoMoves::Wins, false) => Goal::NoMoveWins,
                    (NoMoves::Loses, false) => Goal::NoMoveLoses,
                }
            }
            builtin => builtin.builtin_goal(),
        }
    }

    /// [`goal`](Variant::goal) for the built-ins, usable in constants.
    pub(crate) const fn builtin_goal(self) -> Goal {
        match self {
            Variant::Antidraughts => Goal::NoMoveWins,
            Variant::Breakthrough => Goal::FirstKingWins,
            _ => Goal::NoMoveLoses,
        }
    }

    /// How many quiet moves in a row one king may make while its side still has men (Frisian and Frysk!: three,
    /// after which that king may only capture); 0 for no limit.
    pub const fn king_moves_in_a_row(self) -> u32 {
        match self {
            Variant::Frisian | Variant::Frysk => 3,
            _ => 0,
        }
    }

    /// How its players write moves: coordinates (`c3-d4`, `c3xe5`) in Russian and Brazilian draughts, square
    /// numbers (`11-15`, `32-28`) elsewhere, as the variants' PDN files do. Both are always read.
    pub const fn notation(self) -> SquareStyle {
        match self {
            Variant::Russian | Variant::Brazilian | Variant::Defined(_) => SquareStyle::Coordinates,
            _ => SquareStyle::Numbers,
        }
    }

    /// Whether the board is turned a quarter so that each player has a light square in the near left corner
    /// (Italian and Spanish). The rules are the same seen in a mirror, so only the display and the square names
    /// change.
    pub const fn is_mirrored(self) -> bool {
        matches!(self, Variant::Italian | Variant::Spanish)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Reads a variant name, in any case; `checkers` and `american` are English, `shashki` Russian.
    fn from_str(text: &str) -> Result<Variant, UnknownVariant> {
        let name = text.trim().to_ascii_lowercase();
        let alias = match name.as_str() {
            "checkers" | "american" => Some(Variant::English),
            "shashki" => Some(Variant::Russian),
            "mak-hos" | "makhos" => Some(Variant::Thai),
            // Scan's and the Hub protocol's names ("losing", "bt"), and the give-away game's.
            "anti" | "losing" | "giveaway" => Some(Variant::Antidraughts),
            "bt" => Some(Variant::Breakthrough),
            "frysk!" => Some(Variant::Frysk),
            _ => None,
        };
        alias
            .or_else(|| Variant::ALL.into_iter().find(|v| v.name() == name))
            .ok_or_else(|| UnknownVariant {
                name: super::excerpt::excerpt(text),
            })
    }
}

/// The board sizes English rules are played on here: every even size from 6 to 14 (a 14x14 board is the largest
/// whose bit layout fits 128 bits).
pub const ENGLISH_SIZES: [u8; 5] = [6, 8, 10, 12, 14];

/// A variant with its board: what a game is played under, as PDN's `GameType` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameType {
    /// The rules.
    pub variant: Variant,
    /// Squares along each side of the board.
    pub size: u8,
    /// Rows of men each side starts with.
    pub rows: u8,
}

/// Why a variant, size and rows do not make a game.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GameTypeError {
    /// A size the variant is not played on.
    #[error("{variant} is played on {allowed}, not {size}x{size}")]
    Size {
        /// The variant.
        variant: Variant,
        /// The size asked for.
        size: u8,
        /// The sizes it is played on, in words.
        allowed: String,
    },
    /// A size or rows for a variant defined in a file, whose definition fixes both.
    #[error(
        "{variant} is played on the board its definition gives; --size and --rows do not apply"
    )]
    Defined {
        /// The variant.
        variant: Variant,
    },
    /// A number of rows that does not leave two empty rows between the sides.
    #[error("a {size}x{size} board takes 1 to {most} rows of men each, not {rows}")]
    Rows {
        /// The size of the board.
        size: u8,
        /// The rows asked for.
        rows: u8,
        /// The most rows that board takes.
        most: u8,
    },
}

impl GameType {
    /// A variant on its own board with its own rows of men.
    pub fn standard(variant: Variant) -> GameType {
        GameType {
            variant,
            size: variant.board_size(),
            rows: variant.start_rows(),
        }
    }

    /// A variant with a board size and rows of men, checked: only English rules are played on other sizes, and
    /// the sides must start at least two rows apart. `None` for either means the usual one (`size / 2 - 1`
    /// rows on an English board of another size).
    pub fn new(
        variant: Variant,
        size: Option<u8>,
        rows: Option<u8>,
    ) -> Result<GameType, GameTypeError> {
        if let Variant::Defined(_) = variant {
            // A definition fixes its own board and start.
            return match (size, rows) {
                (None, None) => Ok(GameType::standard(variant)),
                _ => Err(GameTypeError::Defined { variant }),
            };
        }
        let size = size.unwrap_or(variant.board_size());
        let sizes: &[u8] = if variant == Variant::English {
            &ENGLISH_SIZES
        } else {
            &[variant.board_size()]
        };
        if !sizes.contains(&size) {
            let allowed = match sizes {
                [only] => format!("{only}x{only} only"),
                _ => format!(
                    "even sizes from {}x{} to {}x{}",
                    sizes[0],
                    sizes[0],
                    sizes[sizes.len() - 1],
                    sizes[sizes.len() - 1]
                ),
            };
            return Err(GameTypeError::Size {
                variant,
                size,
                allowed,
            });
        }
        let most = size / 2 - 1;
        let default_rows = if size == variant.board_size() {
            variant.start_rows()
        } else {
            most
        };
        let rows = rows.unwrap_or(default_rows);
        if rows == 0 || rows > most {
            return Err(GameTypeError::Rows { size, rows, most });
        }
        Ok(GameType {
            variant,
            size,
            rows,
        })
    }

    /// Whether this is the variant on its own board with its own rows of men.
    pub fn is_standard(&self) -> bool {
        self.size == self.variant.board_size() && self.rows == self.variant.start_rows()
    }

    /// How many squares the board has (`size * size / 2`, or a definition's playable squares).
    pub fn squares(&self) -> u32 {
        match self.variant {
            Variant::Defined(id) => id.get().square_count() as u32,
            _ => self.size as u32 * self.size as u32 / 2,
        }
    }
}

impl Default for GameType {
    fn default() -> Self {
        GameType::standard(Variant::English)
    }
}

impl fmt::Display for GameType {
    /// `english`, or `english 10x10` / `english 10x10, 3 rows` when the board is not the usual one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.variant)?;
        if self.size != self.variant.board_size() {
            write!(f, " {}x{}", self.size, self.size)?;
        }
        if self.rows != self.size / 2 - 1 && !self.is_standard() {
            write!(f, ", {} rows", self.rows)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_go_both_ways() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(v.name().to_uppercase().parse::<Variant>(), Ok(v));
            assert_eq!(Variant::from_game_type(v.game_type()), Some(v));
        }
        assert_eq!("checkers".parse::<Variant>(), Ok(Variant::English));
        assert_eq!(Variant::from_game_type(28), None);
        assert_eq!("Frysk!".parse::<Variant>(), Ok(Variant::Frysk));
        // Scan's names, which Hub GUIs send.
        assert_eq!("losing".parse::<Variant>(), Ok(Variant::Antidraughts));
        assert_eq!("bt".parse::<Variant>(), Ok(Variant::Breakthrough));
        let err = "shogi".parse::<Variant>().expect_err("not played");
        assert!(err.to_string().contains("international"), "{err}");
    }

    #[test]
    fn sizes_and_rows_are_checked() {
        let ten = GameType::new(Variant::English, Some(10), None).expect("english 10x10");
        assert_eq!((ten.size, ten.rows), (10, 4));
        assert_eq!(ten.to_string(), "english 10x10");
        let three = GameType::new(Variant::English, Some(10), Some(3)).expect("3 rows");
        assert_eq!(three.to_string(), "english 10x10, 3 rows");
        assert_eq!(
            GameType::new(Variant::English, None, None),
            Ok(GameType::default())
        );
        assert!(GameType::new(Variant::English, Some(16), None).is_err());
        assert!(GameType::new(Variant::English, Some(9), None).is_err());
        assert!(GameType::new(Variant::English, Some(8), Some(4)).is_err());
        assert!(GameType::new(Variant::English, Some(8), Some(0)).is_err());
        let err = GameType::new(Variant::International, Some(8), None).expect_err("10x10 only");
        assert!(err.to_string().contains("10x10 only"), "{err}");
        let thai = GameType::new(Variant::Thai, None, None).expect("thai");
        assert_eq!((thai.size, thai.rows), (8, 2));
        assert!(thai.is_standard());
        let canadian = GameType::standard(Variant::Canadian);
        assert_eq!(
            (canadian.size, canadian.rows, canadian.squares()),
            (12, 5, 72)
        );
    }
}
