//! The definition as it is written: the TOML format, read with serde and not yet checked.
//!
//! Squares are named by coordinates, a file letter from `a` (left, as White sees the board) and a rank number
//! from 1 (White's side, the bottom of the diagram). Black starts at the top and moves down; "forward" is down
//! for Black and up for White. Unknown fields are refused, so a misspelt key is an error, not a silent default.

use serde::Deserialize;

/// A variant as data, as read from TOML. [`DefinedRules::new`](super::DefinedRules::new) checks it.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct VariantDefinition {
    /// The variant's name, for people.
    pub name: String,
    /// Its PDN `GameType` number, when PDN 3.0 or a program that writes it gives one (30 for Turkish).
    #[serde(default)]
    pub game_type: Option<u32>,
    /// The board.
    pub board: BoardDefinition,
    /// Where the pieces stand when a game starts.
    pub start: StartDefinition,
    /// Who makes the first move.
    pub first: Side,
    /// The kinds of piece, in the order the position stores them.
    pub pieces: Vec<PieceDefinition>,
    /// How captures are made and chosen.
    pub capture: CaptureDefinition,
    /// How the game ends.
    #[serde(default)]
    pub end: EndDefinition,
}

/// One of the two sides.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// Starts at the top of the diagram and moves down.
    Black,
    /// Starts at the bottom and moves up.
    White,
}

/// The board's shape.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BoardDefinition {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Which squares are played on.
    #[serde(default)]
    pub playable: PlayableSquares,
    /// Whether the board is seen in a mirror: the near left corner (a1) is light rather than dark (Italian and
    /// Spanish). Only matters for `playable = "dark"`.
    #[serde(default)]
    pub mirrored: bool,
    /// Playable squares taken out of the board: nothing stands on them and nothing crosses them.
    #[serde(default)]
    pub holes: Vec<String>,
}

/// Which squares of the board are played on.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum PlayableSquares {
    /// The dark squares only, as in every draughts game.
    #[default]
    Dark,
    /// Every square.
    All,
}

/// The starting position: rows of one kind for each side, or explicit lists, or both.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct StartDefinition {
    /// Rows each side fills from its own edge with pieces of `kind`.
    #[serde(default)]
    pub rows: u32,
    /// The kind those rows hold; the first kind listed when not given.
    pub kind: Option<String>,
    /// Pieces placed one square at a time.
    #[serde(default)]
    pub pieces: Vec<PlacedPieces>,
}

/// Some pieces of one side and kind placed on named squares.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PlacedPieces {
    /// Whose pieces.
    pub side: Side,
    /// Their kind.
    pub kind: String,
    /// The squares, by coordinate.
    pub squares: Vec<String>,
}

/// A kind of piece.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PieceDefinition {
    /// Its name, by which other fields refer to it.
    pub name: String,
    /// How it is drawn (White's; Black's too, in its dark form, when it has one).
    pub glyph: String,
    /// How Black's are drawn, for a glyph without a dark form of its own (`⛀` has `⛂`; `🐸` has none).
    #[serde(default)]
    pub black_glyph: Option<String>,
    /// One ASCII letter for it, for plain text.
    pub letter: char,
    /// What it is worth to the `value` capture precedence.
    #[serde(default = "one")]
    pub value: u32,
    /// How it moves without taking.
    pub moves: Option<Movement>,
    /// How it moves by leaping over one of its own pieces (taking nothing).
    pub leaps: Option<Leap>,
    /// How it takes.
    pub captures: Option<Capturing>,
    /// What it becomes on reaching its promotion row.
    pub promotion: Option<Promotion>,
}

fn one() -> u32 {
    1
}

/// A move that takes nothing.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    /// The directions it may go.
    pub directions: Vec<DirectionSet>,
    /// One square, or any number of empty squares.
    #[serde(default)]
    pub range: Range,
}

/// A move over one of the mover's own pieces, next to it, to the empty square right behind; nothing is taken
/// and the move ends there.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Leap {
    /// The directions it may leap.
    pub directions: Vec<DirectionSet>,
}

/// How far a piece goes in one direction.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Range {
    /// One square.
    #[default]
    Step,
    /// Any number of empty squares in a line.
    Slide,
}

/// A capture: jumping an opponent's piece in a line and taking it.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Capturing {
    /// The directions it may take in.
    pub directions: Vec<DirectionSet>,
    /// Short: the piece next to it, landing right behind. Flying: the first piece along the line, at any
    /// distance.
    #[serde(default)]
    pub range: CaptureRange,
    /// For a flying capture: where it may land.
    #[serde(default)]
    pub landing: Landing,
    /// The kinds it may take; every kind when not given.
    pub takes: Option<Vec<String>>,
}

/// How far away the piece taken may be.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureRange {
    /// Right next to the taker.
    #[default]
    Short,
    /// Anywhere along the line past empty squares.
    Flying,
}

/// Where a flying capture lands.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Landing {
    /// On any empty square beyond the piece taken, up to the next obstacle.
    #[default]
    Anywhere,
    /// Only on the square right behind it.
    RightBehind,
}

/// Names of sets of directions, relative to the side moving.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum DirectionSet {
    /// All four diagonal directions.
    Diagonal,
    /// The two diagonals towards the opponent.
    ForwardDiagonal,
    /// The two diagonals towards the own side.
    BackwardDiagonal,
    /// Up, down, left and right. On a board played on the dark squares, a straight step goes to the next dark
    /// square along the line, two rows or two columns away, passing the light square between (Frisian
    /// captures); on a board where every square is played, to the square next to it.
    Orthogonal,
    /// Straight towards the opponent.
    Forward,
    /// Straight towards the own side.
    Backward,
    /// Left and right.
    Sideways,
}

/// What a piece becomes, and where.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Promotion {
    /// The kind it becomes.
    pub to: String,
    /// The row, counted from the owner's own edge (1 is its back row); the far row when not given.
    pub row: Option<u32>,
}

/// The capture rules.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CaptureDefinition {
    /// Whether a player who can take must.
    #[serde(default = "yes")]
    pub compulsory: bool,
    /// Which of several captures may be chosen.
    #[serde(default)]
    pub precedence: PrecedenceRule,
    /// When the pieces taken leave the board.
    #[serde(default)]
    pub removal: Removal,
    /// Whether a piece may turn straight back the way it came between two captures of one move.
    #[serde(default = "yes")]
    pub may_reverse: bool,
    /// What a piece reaching its promotion row in the middle of a capture does.
    #[serde(default)]
    pub crowning: CrowningRule,
}

fn yes() -> bool {
    true
}

/// Which captures may be chosen when several are possible.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum PrecedenceRule {
    /// Any.
    #[default]
    Free,
    /// Those taking the most pieces.
    Majority,
    /// Those taking the most value (each kind's `value`).
    Value,
    /// Those taking the most value; of those, the captures by a promoted piece, if there are any (Frisian).
    ValueThenKing,
    /// When a promoted piece can take, one must.
    KingsFirst,
    /// The most pieces, then the most promoted pieces among them.
    MajorityThenKings,
    /// The Italian order: the most pieces; then a capture by a promoted piece; then the most promoted pieces
    /// taken; then the one taking a promoted piece first.
    Italian,
}

/// When taken pieces leave the board.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Removal {
    /// When the move ends: until then they block the way and cannot be taken twice.
    #[default]
    AtEnd,
    /// As each is jumped, so the taker may cross its square again.
    AtOnce,
}

/// What a piece does on reaching its promotion row during a capture.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CrowningRule {
    /// It is promoted and the move ends.
    #[default]
    EndsMove,
    /// It is promoted and goes on taking as its new kind.
    ContinuesAsKing,
    /// It goes on as it is, and is promoted only if the move ends on the row.
    OnlyAtEnd,
}

/// How the game ends.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct EndDefinition {
    /// What happens to a player with no legal move.
    #[serde(default)]
    pub no_moves: NoMoves,
    /// Whether the first player to promote a piece wins at once (breakthrough).
    #[serde(default)]
    pub promotion_wins: bool,
    /// A game is drawn after this many moves by each side in which nothing is taken and no piece that could
    /// still be promoted moves (0: never). Games are also drawn when a position comes back a third time.
    #[serde(default = "forty")]
    pub quiet_moves: u32,
    /// When each side has one piece left, the game is drawn after this many moves by each side without a
    /// capture (0: never; Turkish draughts, 2).
    #[serde(default)]
    pub one_each_moves: u32,
    /// Whether a side left with one piece that is not promoted, against a promoted piece, loses at once (Turkish
    /// draughts).
    #[serde(default)]
    pub lone_man_loses: bool,
}

impl Default for EndDefinition {
    fn default() -> Self {
        EndDefinition {
            no_moves: NoMoves::default(),
            promotion_wins: false,
            quiet_moves: forty(),
            one_each_moves: 0,
            lone_man_loses: false,
        }
    }
}

fn forty() -> u32 {
    40
}

/// The result for a player who cannot move.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum NoMoves {
    /// They lose (every draughts game).
    #[default]
    Loses,
    /// They win (the "losing" or give-away game).
    Wins,
}
