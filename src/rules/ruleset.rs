//! Rule sets: the board and the rule parameters of one variant, in one type.
//!
//! The move generator is generic over [`RuleSet`], so a variant is a new implementation of this trait. Every
//! parameter is an associated constant: the generator is compiled once per variant and the branches for rules a
//! variant does not use disappear, which keeps English draughts on the fast path.

use std::fmt::Debug;

use super::geometry::Geometry;
use super::square::Color;

/// The board and rules of one draughts variant.
///
/// Kings here are short-range (one square a step), as in English draughts. Flying kings, needed for
/// international, Russian, Brazilian and pool, are the next parameter to add: a flag and a sliding king generator
/// beside the short one.
pub trait RuleSet: Copy + Debug + Default + Eq + std::hash::Hash + Send + Sync + 'static {
    /// Human-readable name.
    const NAME: &'static str;
    /// The PDN `GameType` number (20 international, 21 English, 25 Russian, ...).
    const GAME_TYPE: u32;
    /// The board.
    const GEOMETRY: Geometry;
    /// Rows of men each side starts with.
    const START_ROWS: u32;
    /// The side that makes the first move of a game.
    const FIRST_TO_MOVE: Color;
    /// Men may capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARDS: bool;
    /// A man that reaches the far row in the middle of a capture is crowned there and the move ends. When
    /// false, the capture goes on if it can (as a king or as a man, depending on the variant).
    const CROWNING_ENDS_MOVE: bool;
    /// The player must choose a capture that takes the most pieces.
    const MAJORITY_CAPTURE: bool;
}

/// English draughts / American checkers (ACF rules), PDN game type 21.
///
/// 8x8 board, 12 men each, Black moves first. Men move and capture diagonally forward only; kings move and capture
/// one square in every direction. Captures are compulsory, any capture sequence may be chosen but it must be
/// completed, and a man reaching the far row is crowned and ends the move there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct English;

impl RuleSet for English {
    const NAME: &'static str = "English draughts";
    const GAME_TYPE: u32 = 21;
    const GEOMETRY: Geometry = Geometry::EIGHT;
    const START_ROWS: u32 = 3;
    const FIRST_TO_MOVE: Color = Color::Black;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const CROWNING_ENDS_MOVE: bool = true;
    const MAJORITY_CAPTURE: bool = false;
}
