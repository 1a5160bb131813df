//! Rule sets: the board and the rule parameters of one variant, in one type.
//!
//! The move generator is generic over [`RuleSet`], so a variant is a new implementation of this trait. Every
//! parameter is an associated constant: the generator is compiled once per variant and the branches for rules a
//! variant does not use disappear, which keeps English draughts on the fast path.

use std::fmt::Debug;
use std::hash::Hash;

use super::bits::Bits;
use super::geometry::Geometry;
use super::square::Color;
use super::variant::{Goal, Variant};

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

/// Which captures are legal when several are possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precedence {
    /// Any capture may be chosen (English, Russian, pool, Thai).
    Free,
    /// When a king can capture, a king must (Czech).
    KingsFirst,
    /// The capture taking the most pieces (international, Brazilian, Canadian).
    Majority,
    /// The most pieces, then the most kings among them (Spanish).
    MajorityThenKings,
    /// The most pieces; then a capture by a king; then the most kings; then the capture that meets a king
    /// first (Italian, FID technical rules art. 6.6-6.9).
    Italian,
    /// The highest value, a king counting for less than two men and more than one; on equal value, a capture
    /// by a king (Frisian).
    Value,
}

impl Precedence {
    /// The rule in words, for a player whose capture it refuses; `None` where any capture may be chosen.
    pub const fn rule(self) -> Option<&'static str> {
        match self {
            Precedence::Free => None,
            Precedence::KingsFirst => Some("when a king can capture, a king must"),
            Precedence::Majority => Some("the capture taking the most pieces is compulsory"),
            Precedence::MajorityThenKings => {
                Some("the capture taking the most pieces, then the most kings, is compulsory")
            }
            Precedence::Italian => Some(
                "the capture taking the most pieces is compulsory; then a king's capture, then the one taking \
                 the most kings, then the one meeting a king first",
            ),
            Precedence::Value => Some(
                "the capture of the highest value is compulsory (a king counts more than a man and less than \
                 two); on equal value, a king's",
            ),
        }
    }
}

/// The board and rules of one draughts variant.
pub trait RuleSet: Copy + Debug + Default + Eq + Hash + Send + Sync + 'static {
    /// The word a set of squares of this board is stored in.
    type Bits: Bits;
    /// The variant these rules are, as a value.
    const VARIANT: Variant;
    /// Human-readable name.
    const NAME: &'static str = Self::VARIANT.builtin_title();
    /// The PDN `GameType` number (20 international, 21 English, 23 pool, 25 Russian, 26 Brazilian, ...).
    const GAME_TYPE: u32 = Self::VARIANT.game_type();
    /// The board.
    const GEOMETRY: Geometry = Geometry {
        width: Self::VARIANT.builtin_board_size(),
        height: Self::VARIANT.builtin_board_size(),
        mirrored: Self::VARIANT.is_mirrored(),
        defined: None,
    };
    /// Rows of men each side starts with.
    const START_ROWS: u32 = Self::VARIANT.start_rows() as u32;
    /// The side that makes the first move of a game.
    const FIRST_TO_MOVE: Color = Self::VARIANT.builtin_first_to_move();
    /// How a game is won.
    const GOAL: Goal = Self::VARIANT.builtin_goal();
    /// Men may capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARDS: bool;
    /// Kings move and capture along a whole diagonal ("flying" kings) rather than one square at a time.
    const FLYING_KINGS: bool;
    /// Which of several captures may be chosen.
    const PRECEDENCE: Precedence;
    /// What a man does on reaching the far row during a capture.
    const CROWNING_IN_CAPTURE: CrowningInCapture;
    /// Whether a man may take a king (not in Italian draughts).
    const MEN_CAPTURE_KINGS: bool = true;
    /// Whether a flying king taking a piece must land on the square right behind it (Thai), rather than on
    /// any empty square beyond.
    const KING_LANDS_BEHIND: bool = false;
    /// Whether each piece taken leaves the board at once (Thai), so that the capturing piece may pass its
    /// square again, rather than at the end of the move.
    const REMOVED_AT_ONCE: bool = false;
    /// Whether men and kings also capture straight along files and ranks (Frisian): on the dark squares the
    /// piece taken stands two rows or two columns away, and the taker lands two further on.
    const ORTHOGONAL_CAPTURES: bool = false;
}

/// English draughts / American checkers (ACF rules), PDN game type 21.
///
/// 8x8 board, 12 men each, Black moves first. Men move and capture diagonally forward only; kings move and capture
/// one square in every direction. Captures are compulsory, any capture sequence may be chosen but it must be
/// completed, and a man reaching the far row is crowned and ends the move there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct English;

impl RuleSet for English {
    type Bits = u64;
    const VARIANT: Variant = Variant::English;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = false;
    const PRECEDENCE: Precedence = Precedence::Free;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::EndsMove;
}

/// International draughts (FMJD), PDN game type 20: 10x10, 20 men each, White first, men capture backwards,
/// flying kings, the capture taking the most pieces is compulsory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct International;

impl RuleSet for International {
    type Bits = u64;
    const VARIANT: Variant = Variant::International;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::Majority;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
}

/// Brazilian draughts, PDN game type 26: the international rules on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl RuleSet for Brazilian {
    type Bits = u64;
    const VARIANT: Variant = Variant::Brazilian;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::Majority;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
}

/// Russian draughts (shashki), PDN game type 25: 8x8, White first, men capture backwards, flying kings, free
/// choice of capture, and a man crowned during a capture goes on as a king.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Russian;

impl RuleSet for Russian {
    type Bits = u64;
    const VARIANT: Variant = Variant::Russian;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::Free;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::ContinuesAsKing;
}

/// Pool checkers (American pool), PDN game type 23: 8x8, Black first, men capture backwards, flying kings, free
/// choice of capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool;

impl RuleSet for Pool {
    type Bits = u64;
    const VARIANT: Variant = Variant::Pool;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::Free;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
}

/// Italian draughts, PDN game type 22: 8x8 (a light square in each player's near left corner), White first, men
/// capture forwards only and never take kings, short kings, and the Italian capture precedence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Italian;

impl RuleSet for Italian {
    type Bits = u64;
    const VARIANT: Variant = Variant::Italian;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = false;
    const PRECEDENCE: Precedence = Precedence::Italian;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::EndsMove;
    const MEN_CAPTURE_KINGS: bool = false;
}

/// Spanish draughts, PDN game type 24: 8x8 (a light square in each player's near left corner), White first, men
/// capture forwards only, flying kings, the capture taking the most pieces and then the most kings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Spanish;

impl RuleSet for Spanish {
    type Bits = u64;
    const VARIANT: Variant = Variant::Spanish;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::MajorityThenKings;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::EndsMove;
}

/// Czech draughts, PDN game type 29: 8x8, White first, men capture forwards only, flying kings, and a king must
/// capture when one can.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Czech;

impl RuleSet for Czech {
    type Bits = u64;
    const VARIANT: Variant = Variant::Czech;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::KingsFirst;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::EndsMove;
}

/// Thai draughts (mak-hos), PDN game type 31: 8x8 with two rows of men each, White first, men capture forwards
/// only, kings move any distance but land right behind each piece they take, pieces taken leave the board at
/// once, free choice of capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Thai;

impl RuleSet for Thai {
    type Bits = u64;
    const VARIANT: Variant = Variant::Thai;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::Free;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::EndsMove;
    const KING_LANDS_BEHIND: bool = true;
    const REMOVED_AT_ONCE: bool = true;
}

/// Canadian draughts, PDN game type 27: the international rules on a 12x12 board, 30 men each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Canadian;

impl RuleSet for Canadian {
    type Bits = u128;
    const VARIANT: Variant = Variant::Canadian;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::Majority;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
}

/// A board size the English rules are played on, with the word its squares fit in.
pub trait EnglishSize {
    /// `u64` up to 10x10, `u128` beyond.
    type Bits: Bits;
}

/// A board size as a type, to choose the word for [`EnglishOn`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Size<const SIZE: u8>;

impl EnglishSize for Size<6> {
    type Bits = u64;
}
impl EnglishSize for Size<8> {
    type Bits = u64;
}
impl EnglishSize for Size<10> {
    type Bits = u64;
}
impl EnglishSize for Size<12> {
    type Bits = u128;
}
impl EnglishSize for Size<14> {
    type Bits = u128;
}

/// The English rules on a `SIZE` x `SIZE` board (6, 8, 10, 12 or 14), with `SIZE / 2 - 1` rows of men each.
/// PDN game type 21 with the board in its long form (`21,B,10,10,N2,0`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EnglishOn<const SIZE: u8>;

impl<const SIZE: u8> RuleSet for EnglishOn<SIZE>
where
    Size<SIZE>: EnglishSize,
{
    type Bits = <Size<SIZE> as EnglishSize>::Bits;
    const VARIANT: Variant = Variant::English;
    const GEOMETRY: Geometry = Geometry::square(SIZE);
    const START_ROWS: u32 = SIZE as u32 / 2 - 1;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = false;
    const PRECEDENCE: Precedence = Precedence::Free;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::EndsMove;
}

/// Antidraughts (lidraughts's rules), PDN game type 98 as lidraughts writes it: the international rules, but the
/// side that cannot move (no pieces left, or all blocked) wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Antidraughts;

impl RuleSet for Antidraughts {
    type Bits = u64;
    const VARIANT: Variant = Variant::Antidraughts;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::Majority;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
}

/// Breakthrough (lidraughts's rules), PDN game type 96 as lidraughts writes it: the international rules, and
/// the first side to crown a king (a man ending its move on the far row) wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Breakthrough;

impl RuleSet for Breakthrough {
    type Bits = u64;
    const VARIANT: Variant = Variant::Breakthrough;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::Majority;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
}

/// Frisian draughts (the rules of the Frisian federation as lidraughts plays them), PDN game type 40: the
/// international board and men, but men and kings also capture along files and ranks, and the capture of the
/// highest value is compulsory. The limit on a king's quiet moves and the Frisian draws are the game's
/// (the game layer's): they depend on the moves before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frisian;

impl RuleSet for Frisian {
    type Bits = u64;
    const VARIANT: Variant = Variant::Frisian;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::Value;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
    const ORTHOGONAL_CAPTURES: bool = true;
}

/// Frysk! (lidraughts), PDN game type 97 as lidraughts writes it: the Frisian rules from five men each on the
/// back row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frysk;

impl RuleSet for Frysk {
    type Bits = u64;
    const VARIANT: Variant = Variant::Frysk;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PRECEDENCE: Precedence = Precedence::Value;
    const CROWNING_IN_CAPTURE: CrowningInCapture = CrowningInCapture::OnlyAtEnd;
    const ORTHOGONAL_CAPTURES: bool = true;
}
