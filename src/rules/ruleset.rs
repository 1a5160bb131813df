//! Rule sets: the board and the rule parameters of one variant, in one type.
//!
//! The move generator is generic over [`RuleSet`], so a variant is a new implementation of this trait. Every
//! parameter is an associated constant: the generator is compiled once per variant and the branches for rules a
//! variant does not use disappear, which keeps English draughts on the fast path.

use std::fmt::Debug;
use std::hash::Hash;

use super::geometry::Geometry;
use super::square::Color;
use super::variant::Variant;

/// What happens when a man reaches the far row in the middle of a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrowningInCapture {
    /// It is crowned and the move ends there (English).
    EndsMove,
    /// It is crowned and goes on capturing as a king (Russian).
    ContinuesAsKing,
    /// It goes on capturing as a man if it can, and is crowned only if the move ends on the far row
    /// (international, Brazilian, pool).
    OnlyAtEnd,
}

/// The board and rules of one draughts variant.
pub trait RuleSet: Copy + Debug + Default + Eq + Hash + Send + Sync + 'static {
    /// The variant these rules are, as a value.
    const VARIANT: Variant;
    /// Human-readable name.
    const NAME: &'static str = Self::VARIANT.title();
    /// The PDN `GameType` number (20 international, 21 English, 23 pool, 25 Russian, 26 Brazilian, ...).
    const GAME_TYPE: u32 = Self::VARIANT.game_type();
    /// The board.
    const GEOMETRY: Geometry;
    /// Rows of men each side starts with.
    const START_ROWS: u32;
    /// The side that makes the first move of a game.
    const FIRST_TO_MOVE: Color;
    /// Men may capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARDS: bool;
    /// Kings move and capture along a whole diagonal ("flying" kings) rather than one square at a time.
    const FLYING_KINGS: bool;
    /// The player must choose a capture that takes the most pieces.
    const MAJORITY_CAPTURE: bool;
    /// What a man does on reaching the far row during a capture.
    const CROWNING_IN_CAPTURE: CrowningInCapture;
}

/// English draughts / American checkers (ACF rules), PDN game type 21.
///
/// 8x8 board, 12 men each, Black moves first. Men move and capture diagonally forward only; kings move and capture
/// one square in every direction. Captures are compulsory, any capture sequence may be chosen but it must be
/// completed, and a man reaching the far row is crowned and ends the move there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct English;

impl RuleSet for English {
    const VARIANT: Variant = Variant::English;
    const GEOMETRY: Geometry = Geometry::EIGHT;
    const START_ROWS: u32 = 3;
    const FIRST_TO_MOVE: Color = Color::Black;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = false;
    const MAJORITY_CAPTURE: bool = false;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::EndsMove;
}

/// International draughts (FMJD), PDN game type 20: 10x10, 20 men each, White first, men capture backwards,
/// flying kings, the capture taking the most pieces is compulsory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct International;

impl RuleSet for International {
    const VARIANT: Variant = Variant::International;
    const GEOMETRY: Geometry = Geometry::TEN;
    const START_ROWS: u32 = 4;
    const FIRST_TO_MOVE: Color = Color::White;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const MAJORITY_CAPTURE: bool = true;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
}

/// Brazilian draughts, PDN game type 26: the international rules on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl RuleSet for Brazilian {
    const VARIANT: Variant = Variant::Brazilian;
    const GEOMETRY: Geometry = Geometry::EIGHT;
    const START_ROWS: u32 = 3;
    const FIRST_TO_MOVE: Color = Color::White;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const MAJORITY_CAPTURE: bool = true;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
}

/// Russian draughts (shashki), PDN game type 25: 8x8, White first, men capture backwards, flying kings, free
/// choice of capture, and a man crowned during a capture goes on as a king.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Russian;

impl RuleSet for Russian {
    const VARIANT: Variant = Variant::Russian;
    const GEOMETRY: Geometry = Geometry::EIGHT;
    const START_ROWS: u32 = 3;
    const FIRST_TO_MOVE: Color = Color::White;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const MAJORITY_CAPTURE: bool = false;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::ContinuesAsKing;
}

/// Pool checkers (American pool), PDN game type 23: 8x8, Black first, men capture backwards, flying kings, free
/// choice of capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool;

impl RuleSet for Pool {
    const VARIANT: Variant = Variant::Pool;
    const GEOMETRY: Geometry = Geometry::EIGHT;
    const START_ROWS: u32 = 3;
    const FIRST_TO_MOVE: Color = Color::Black;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const MAJORITY_CAPTURE: bool = false;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
}
