//! Each variant's draw rules, as its federation words them: how often a position may repeat, how many moves
//! may pass without progress, and the endings that must be won within a number of moves.
//!
//! Every rule here draws the game as soon as it applies, where most rule books let a player claim the draw: a
//! program has no arbiter to ask, and a game that any player could end as a draw is one nobody would play on.
//! The README's "Draw rules by variant" lists the sources, article by article.

use std::fmt;
use std::ops::Deref;

use crowned_rules::{Color, GamePosition, Role, Variant};

/// The most ending rules one variant has (Russian draughts has five).
pub const MAX_ENDING_RULES: usize = 6;

/// The draw rules of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawRules {
    /// The game is drawn when the same position, with the same side to move, stands on the board for this
    /// many times (3, or 4 in Italian draughts).
    pub repetitions: u32,
    /// The game is drawn after this many moves by each side with no capture and no man moving (only kings
    /// moving); 0 turns the rule off.
    pub quiet_moves: u32,
    /// Endings that are drawn unless won within a number of moves.
    pub endings: Endings,
}

/// A variant's ending rules, held in the value (a definition's come from its file, not from a table here).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Endings {
    rules: [EndingRule; MAX_ENDING_RULES],
    len: usize,
}

impl Endings {
    /// These rules; at most [`MAX_ENDING_RULES`] (checked when the program is compiled, for the tables here).
    pub const fn of(list: &[EndingRule]) -> Endings {
        assert!(
            list.len() <= MAX_ENDING_RULES,
            "more ending rules than a game counts"
        );
        let unused = EndingRule {
            ending: Ending::OnePieceEach,
            moves: 0,
            counting: Counting::FromReached,
        };
        let mut rules = [unused; MAX_ENDING_RULES];
        let mut i = 0;
        while i < list.len() {
            rules[i] = list[i];
            i += 1;
        }
        Endings {
            rules,
            len: list.len(),
        }
    }
}

impl fmt::Debug for Endings {
    /// The rules there are, without the unused places.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Deref for Endings {
    type Target = [EndingRule];
    fn deref(&self) -> &[EndingRule] {
        &self.rules[..self.len]
    }
}

/// An ending that is drawn when it lasts a number of moves by each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EndingRule {
    /// The material that makes the ending.
    pub ending: Ending,
    /// Moves by each side the ending may last.
    pub moves: u32,
    /// From when the moves are counted.
    pub counting: Counting,
}

/// From when an ending rule counts its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counting {
    /// From the move that brought the ending about, through any capture that keeps it (international: "when
    /// during these 16 moves a piece is taken, the 16 moves still hold").
    FromReached,
    /// From the ending's last capture or crowning: the balance of forces must stay the same (Russian 7.2.4
    /// and 7.2.6).
    FromLastChange,
}

/// The material of an ending rule. A "lone king" is a side with one piece, a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Ending {
    /// A lone king against `min` to `max` pieces, at least one of them a king.
    LoneKingAgainst {
        /// The fewest pieces of the stronger side.
        min: u8,
        /// The most pieces of the stronger side.
        max: u8,
    },
    /// A lone king on the long diagonal (the one that joins two corners) against `pieces` pieces, at least one
    /// of them a king.
    LoneKingOnLongDiagonal {
        /// The pieces of the stronger side.
        pieces: u8,
    },
    /// A lone king against `min` or more kings and no men.
    LoneKingAgainstKings {
        /// The fewest kings of the stronger side.
        min: u8,
    },
    /// Exactly `kings` kings and no men against a lone king (Frisian).
    KingsAgainstLoneKing {
        /// The kings of the stronger side.
        kings: u8,
    },
    /// One piece on each side, kings or men.
    OnePieceEach,
    /// Both sides have a king, and there are `min` to `max` pieces on the board in all.
    KingsOnBothSides {
        /// The fewest pieces on the board.
        min: u8,
        /// The most pieces on the board.
        max: u8,
    },
}

/// What one side has on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Side {
    men: u32,
    kings: u32,
}

impl Side {
    fn pieces(self) -> u32 {
        self.men + self.kings
    }

    fn is_lone_king(self) -> bool {
        self.men == 0 && self.kings == 1
    }
}

impl Ending {
    /// Whether `position` is this ending.
    pub fn holds(self, position: &impl GamePosition) -> bool {
        let side = |color| Side {
            men: position.count(color, Role::Man),
            kings: position.count(color, Role::King),
        };
        let (white, black) = (side(Color::White), side(Color::Black));
        match self {
            Ending::KingsOnBothSides { min, max } => {
                white.kings > 0
                    && black.kings > 0
                    && (u32::from(min)..=u32::from(max))
                        .contains(&(white.pieces() + black.pieces()))
            }
            Ending::OnePieceEach => white.pieces() == 1 && black.pieces() == 1,
            // Either side may be the lone king; the ending holds if the other side has the material.
            _ => [(white, black, Color::White), (black, white, Color::Black)]
                .into_iter()
                .any(|(weak, strong, weak_color)| {
                    weak.is_lone_king()
                        && self.against(strong, || on_long_diagonal(position, weak_color))
                }),
        }
    }

    /// Whether the stronger side's material makes this ending against a lone king; `long_diagonal` says
    /// whether the lone king stands on the long diagonal (asked only when it matters).
    fn against(self, strong: Side, long_diagonal: impl Fn() -> bool) -> bool {
        match self {
            Ending::LoneKingAgainst { min, max } => {
                strong.kings > 0 && (u32::from(min)..=u32::from(max)).contains(&strong.pieces())
            }
            Ending::LoneKingOnLongDiagonal { pieces } => {
                strong.kings > 0 && strong.pieces() == u32::from(pieces) && long_diagonal()
            }
            Ending::LoneKingAgainstKings { min } => {
                strong.men == 0 && strong.kings >= u32::from(min)
            }
            Ending::KingsAgainstLoneKing { kings } => {
                strong.men == 0 && strong.kings == u32::from(kings)
            }
            Ending::KingsOnBothSides { .. } | Ending::OnePieceEach => false,
        }
    }
}

/// Whether the king of `color` (its only piece) stands on the long diagonal: the playable diagonal from the
/// bottom-left corner to the top-right one, where row + column is the board's width - 1.
fn on_long_diagonal(position: &impl GamePosition, color: Color) -> bool {
    let geometry = position.geometry();
    position.pieces().any(|(square, piece)| {
        let (row, col) = geometry.row_col(square);
        piece.color == color && row + col + 1 == u32::from(geometry.width)
    })
}

/// A small number as a word ("three"), a larger one in digits.
pub(crate) fn number(n: u32) -> String {
    const WORDS: [&str; 11] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

impl fmt::Display for Ending {
    /// The ending as a phrase that follows "with": "three pieces, a king among them, against a lone king".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let range = |min: u8, max: u8| {
            let (min, max) = (u32::from(min), u32::from(max));
            match max - min {
                0 => number(min),
                1 => format!("{} or {}", number(min), number(max)),
                _ => format!("{} to {}", number(min), number(max)),
            }
        };
        match *self {
            Ending::LoneKingAgainst { min, max } => write!(
                f,
                "{} pieces, a king among them, against a lone king",
                range(min, max)
            ),
            Ending::LoneKingOnLongDiagonal { pieces } => write!(
                f,
                "{} pieces, a king among them, against a lone king on the long diagonal",
                number(pieces.into())
            ),
            Ending::LoneKingAgainstKings { min } => {
                write!(
                    f,
                    "{} or more kings against a lone king",
                    number(min.into())
                )
            }
            Ending::KingsAgainstLoneKing { kings: 1 } => {
                write!(f, "a lone king against a lone king")
            }
            Ending::KingsAgainstLoneKing { kings } => write!(
                f,
                "{} kings and no men against a lone king",
                number(kings.into())
            ),
            Ending::OnePieceEach => write!(f, "one piece each, without a capture"),
            Ending::KingsOnBothSides { min, max } => write!(
                f,
                "kings on both sides and {} pieces on the board, without a capture or a crowning",
                range(min, max)
            ),
        }
    }
}

/// International draughts, FMJD rules art. 6.3 and 6.4; Canadian draughts plays the same.
const FMJD_ENDINGS: [EndingRule; 2] = [
    EndingRule {
        // Three pieces against a lone king, counted on through a capture that leaves fewer (6.3).
        ending: Ending::LoneKingAgainst { min: 1, max: 3 },
        moves: 16,
        counting: Counting::FromReached,
    },
    EndingRule {
        ending: Ending::LoneKingAgainst { min: 1, max: 2 },
        moves: 5,
        counting: Counting::FromReached,
    },
];

/// Russian and Brazilian draughts, FMJD draughts-64 rules art. 7.2.4, 7.2.6, 7.2.7 and 7.2.8.
const DRAUGHTS_64_ENDINGS: [EndingRule; 5] = [
    EndingRule {
        ending: Ending::LoneKingAgainstKings { min: 3 },
        moves: 15,
        counting: Counting::FromLastChange,
    },
    EndingRule {
        ending: Ending::KingsOnBothSides { min: 4, max: 5 },
        moves: 30,
        counting: Counting::FromLastChange,
    },
    EndingRule {
        ending: Ending::KingsOnBothSides { min: 6, max: 7 },
        moves: 60,
        counting: Counting::FromLastChange,
    },
    EndingRule {
        ending: Ending::LoneKingOnLongDiagonal { pieces: 3 },
        moves: 5,
        counting: Counting::FromReached,
    },
    EndingRule {
        ending: Ending::LoneKingAgainst { min: 1, max: 2 },
        moves: 5,
        counting: Counting::FromReached,
    },
];

/// Frisian draughts and Frysk!, as lidraughts plays the Frisian federation's rules: two kings against one
/// must win within seven moves each; a king against a king is drawn, and lidraughts, which cannot tell the
/// positions where one king takes the other by force, leaves two moves each for that.
const FRISIAN_ENDINGS: [EndingRule; 2] = [
    EndingRule {
        ending: Ending::KingsAgainstLoneKing { kings: 2 },
        moves: 7,
        counting: Counting::FromReached,
    },
    EndingRule {
        ending: Ending::KingsAgainstLoneKing { kings: 1 },
        moves: 2,
        counting: Counting::FromReached,
    },
];

/// Pool checkers, APCA rules: three kings against one must win within thirteen moves.
const POOL_ENDINGS: [EndingRule; 1] = [EndingRule {
    ending: Ending::LoneKingAgainstKings { min: 3 },
    moves: 13,
    counting: Counting::FromReached,
}];

impl DrawRules {
    /// The draw rules of `variant`, as its federation plays them (see the README for the sources).
    pub const fn of(variant: Variant) -> DrawRules {
        let (repetitions, quiet_moves, endings): (u32, u32, &[EndingRule]) = match variant {
            Variant::English => (3, 40, &[]),
            Variant::International | Variant::Canadian => (3, 25, &FMJD_ENDINGS),
            Variant::Russian => (3, 15, &DRAUGHTS_64_ENDINGS),
            Variant::Brazilian => (3, 20, &DRAUGHTS_64_ENDINGS),
            Variant::Pool => (3, 15, &POOL_ENDINGS),
            Variant::Italian => (4, 40, &[]),
            Variant::Czech => (3, 15, &[]),
            Variant::Spanish | Variant::Thai => (3, 40, &[]),
            // lidraughts: the international rules but the endings with few pieces, which a side that wants to
            // lose has no reason to play out.
            Variant::Antidraughts => (3, 25, &[]),
            // lidraughts: "there are no draws in breakthrough".
            Variant::Breakthrough => (0, 0, &[]),
            // lidraughts: threefold repetition and the king endings, but no limit on moves without progress
            // (the limit on a king's quiet moves in a row keeps the kings from wandering while men are left).
            Variant::Frisian | Variant::Frysk => (3, 0, &FRISIAN_ENDINGS),
            // A defined variant's own rules are its definition's ([`DrawRules::of_position`]).
            Variant::Defined(_) => (3, 40, &[]),
        };
        DrawRules {
            repetitions,
            quiet_moves,
            endings: Endings::of(endings),
        }
    }

    /// The draw rules a game from `start` is played under: its variant's, or a defined variant's own (a
    /// position back for the third time, its quiet-move limit, and one piece each drawn after its number of
    /// moves without a capture).
    pub fn of_position(start: &impl GamePosition) -> DrawRules {
        let Variant::Defined(id) = start.variant() else {
            return DrawRules::of(start.variant());
        };
        let rules = &id.get().rules;
        let one_each = [EndingRule {
            ending: Ending::OnePieceEach,
            moves: rules.one_each_moves,
            counting: Counting::FromReached,
        }];
        DrawRules {
            repetitions: DEFINED_REPETITIONS,
            quiet_moves: rules.quiet_moves,
            endings: Endings::of(if rules.one_each_moves > 0 {
                &one_each
            } else {
                &[]
            }),
        }
    }
}

/// How many times a position may stand on the board before a game of a defined variant is drawn.
pub const DEFINED_REPETITIONS: u32 = 3;

// Every variant's endings fit the counters a game keeps for them: `Endings::of` would not compile otherwise.
const _: [DrawRules; Variant::ALL.len()] = {
    let mut all = [DrawRules::of(Variant::English); Variant::ALL.len()];
    let mut i = 0;
    while i < Variant::ALL.len() {
        all[i] = DrawRules::of(Variant::ALL[i]);
        i += 1;
    }
    all
};

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::{International, Position, Russian, parse_fen};

    #[test]
    fn each_variant_has_its_federations_numbers() {
        let quiet: Vec<(Variant, u32, u32)> = Variant::ALL
            .into_iter()
            .map(|v| {
                (
                    v,
                    DrawRules::of(v).repetitions,
                    DrawRules::of(v).quiet_moves,
                )
            })
            .collect();
        assert_eq!(
            quiet,
            [
                (Variant::English, 3, 40),
                (Variant::International, 3, 25),
                (Variant::Russian, 3, 15),
                (Variant::Brazilian, 3, 20),
                (Variant::Pool, 3, 15),
                (Variant::Italian, 4, 40),
                (Variant::Spanish, 3, 40),
                (Variant::Czech, 3, 15),
                (Variant::Thai, 3, 40),
                (Variant::Canadian, 3, 25),
                (Variant::Antidraughts, 3, 25),
                (Variant::Breakthrough, 0, 0),
                (Variant::Frisian, 3, 0),
                (Variant::Frysk, 3, 0),
            ]
        );
        let moves = |v| -> Vec<u32> { DrawRules::of(v).endings.iter().map(|e| e.moves).collect() };
        assert_eq!(moves(Variant::International), [16, 5]);
        assert_eq!(moves(Variant::Russian), [15, 30, 60, 5, 5]);
        assert_eq!(moves(Variant::Pool), [13]);
        assert_eq!(moves(Variant::Frisian), [7, 2]);
        assert_eq!(
            DrawRules::of(Variant::Frysk),
            DrawRules::of(Variant::Frisian)
        );
        for plain in [
            Variant::English,
            Variant::Italian,
            Variant::Spanish,
            Variant::Czech,
            Variant::Thai,
            Variant::Antidraughts,
            Variant::Breakthrough,
        ] {
            assert!(DrawRules::of(plain).endings.is_empty(), "{plain}");
        }
        assert_eq!(
            DrawRules::of(Variant::Canadian),
            DrawRules::of(Variant::International)
        );
        assert_eq!(
            DrawRules::of(Variant::Brazilian).endings,
            DrawRules::of(Variant::Russian).endings
        );
    }

    #[test]
    fn endings_hold_for_either_side() {
        let three: Position<International> = parse_fen("W:WK46,K47,K48:BK3").expect("valid");
        let against_three = Ending::LoneKingAgainst { min: 3, max: 3 };
        assert!(against_three.holds(&three));
        let flipped: Position<International> = parse_fen("W:WK3:BK46,K47,K48").expect("valid");
        assert!(against_three.holds(&flipped));
        // Three men are not three pieces with a king among them.
        let men: Position<International> = parse_fen("W:WK46:B3,4,5").expect("valid");
        assert!(!against_three.holds(&men));
        // Two kings each: nobody has a lone king.
        let two_each: Position<International> = parse_fen("W:WK46,K47:BK3,K4").expect("valid");
        assert!(!Ending::LoneKingAgainst { min: 1, max: 3 }.holds(&two_each));
        assert!(Ending::KingsOnBothSides { min: 4, max: 5 }.holds(&two_each));
        assert!(!Ending::KingsOnBothSides { min: 6, max: 7 }.holds(&two_each));
        let kings = Ending::LoneKingAgainstKings { min: 3 };
        assert!(kings.holds(&three));
        let with_a_man: Position<International> = parse_fen("W:WK46,K47,48:BK3").expect("valid");
        assert!(!kings.holds(&with_a_man));
    }

    #[test]
    fn the_long_diagonal_joins_the_corners() {
        // On 8x8 the long diagonal runs from 29 (a1) to 4 (h8).
        let diagonal = Ending::LoneKingOnLongDiagonal { pieces: 3 };
        for square in [29, 25, 22, 18, 15, 11, 8, 4] {
            let pos: Position<Russian> =
                parse_fen(&format!("W:WK1,K2,K3:BK{square}")).expect("valid");
            assert!(diagonal.holds(&pos), "{square}");
        }
        let off: Position<Russian> = parse_fen("W:WK1,K2,K3:BK21").expect("valid");
        assert!(!diagonal.holds(&off));
        // On 10x10 it runs from 46 to 5.
        let ten: Position<International> = parse_fen("W:WK1,K2,K3:BK46").expect("valid");
        assert!(diagonal.holds(&ten));
    }

    #[test]
    fn phrases() {
        let rules = DrawRules::of(Variant::Russian);
        let phrases: Vec<String> = rules.endings.iter().map(|e| e.ending.to_string()).collect();
        assert_eq!(
            phrases,
            [
                "three or more kings against a lone king",
                "kings on both sides and four or five pieces on the board, without a capture or a crowning",
                "kings on both sides and six or seven pieces on the board, without a capture or a crowning",
                "three pieces, a king among them, against a lone king on the long diagonal",
                "one or two pieces, a king among them, against a lone king",
            ]
        );
        assert_eq!(
            Ending::LoneKingAgainst { min: 1, max: 12 }.to_string(),
            "one to 12 pieces, a king among them, against a lone king"
        );
    }
}
