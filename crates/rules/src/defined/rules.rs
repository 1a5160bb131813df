//! A definition checked and resolved: names turned into indexes, squares into cells, directions into steps.

use std::sync::OnceLock;

use super::error::DefinitionError;
use super::format::{
    CaptureRange, CrowningRule, DirectionSet, Landing, NoMoves, PlayableSquares, PrecedenceRule,
    Range, Removal, Side, VariantDefinition,
};
use crate::Color;

/// The most a piece may be worth: far above any rule's (Frisian's king is 199 to a man's 100), and low enough
/// that the engine's sums of worths (in hundredths, a promoted piece's tripled, over at most 256 cells) cannot
/// overflow.
pub const MAX_PIECE_VALUE: u32 = 1_000;
/// The longest side of a board. With 16x16 a board has at most 256 cells, so every route and every list is small.
pub const MAX_SIDE: u32 = 16;
/// The most kinds of piece a definition may have.
pub const MAX_KINDS: usize = 16;

/// A cell of the board: `row * width + col`, row 0 at the top (Black's side), col 0 on the left.
pub type Cell = usize;

/// A step as (forward, sideways): forward is towards the opponent, so the same step goes down for Black and up
/// for White. Every direction set is symmetric left to right, so left and right need no such care.
pub type Step = (i32, i32);

/// How one kind of piece behaves, with every name resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    /// Its name.
    pub name: String,
    /// How White's are drawn.
    pub glyph: String,
    /// How Black's are drawn: never the same as White's, nor as another kind's.
    pub black_glyph: String,
    /// Its ASCII letter.
    pub letter: char,
    /// Its worth for the `value` precedence.
    pub value: u32,
    /// Steps of its quiet moves, and whether it slides along them.
    pub moves: Vec<Step>,
    /// Whether the quiet moves go any distance.
    pub slides: bool,
    /// Steps along which it may leap over one of its own pieces.
    pub leaps: Vec<Step>,
    /// Steps along which it takes.
    pub captures: Vec<Step>,
    /// Whether it takes at a distance.
    pub flying: bool,
    /// Whether a flying capture lands only right behind the piece taken.
    pub lands_behind: bool,
    /// For each kind (by index), whether this one may take it.
    pub takes: Vec<bool>,
    /// The kind it becomes and the row (0 = its own back row) on which it does.
    pub promotion: Option<(usize, u32)>,
    /// Whether some kind promotes to this one: the "kings" of the precedence rules.
    pub is_king: bool,
}

impl Kind {
    /// How a piece of this kind and `color` is drawn in Unicode.
    pub fn glyph_of(&self, color: Color) -> &str {
        match color {
            Color::White => &self.glyph,
            Color::Black => &self.black_glyph,
        }
    }

    /// How a piece of this kind and `color` is written in ASCII: its letter, upper case for White.
    pub fn letter_of(&self, color: Color) -> char {
        match color {
            Color::White => self.letter.to_ascii_uppercase(),
            Color::Black => self.letter.to_ascii_lowercase(),
        }
    }
}

/// A variant ready to play: the checked form of a [`VariantDefinition`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinedRules {
    /// The variant's name.
    pub name: String,
    /// Its PDN `GameType` number, if it has one.
    pub game_type: Option<u32>,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// For each cell, whether pieces may stand on it.
    pub playable: Vec<bool>,
    /// Whether the board is played on its dark squares only: then a straight step goes two cells, to the next
    /// dark square along the line.
    pub dark_squares: bool,
    /// The cells the definition takes out of the board (holes), which would otherwise be played on.
    pub holes: Vec<Cell>,
    /// The pieces at the start, by cell: side and kind.
    pub start: Vec<Option<(Color, usize)>>,
    /// Who moves first.
    pub first: Color,
    /// The kinds of piece.
    pub kinds: Vec<Kind>,
    /// Whether a player who can take must.
    pub compulsory: bool,
    /// Which captures may be chosen.
    pub precedence: PrecedenceRule,
    /// Whether taken pieces leave the board as they are jumped.
    pub removed_at_once: bool,
    /// Whether a piece may turn straight back between two captures.
    pub may_reverse: bool,
    /// What a piece reaching its promotion row in a capture does.
    pub crowning: CrowningRule,
    /// What a player with no move gets.
    pub no_moves: NoMoves,
    /// Whether the first player to promote a piece wins.
    pub promotion_wins: bool,
    /// Moves by each side without a capture or a move of a piece that could still be promoted, after which the
    /// game is drawn (0: never).
    pub quiet_moves: u32,
    /// Moves by each side without a capture, with one piece each, after which the game is drawn (0: never).
    pub one_each_moves: u32,
    /// Whether a side left with one unpromoted piece against a promoted one loses at once.
    pub lone_man_loses: bool,
    /// Whether these rules move exactly as the built-in Turkish definition, so that its fast generator plays
    /// them: found by [`DefinedRules::new`] from the fields above, which nothing changes afterwards.
    turkish: bool,
}

impl DefinedRules {
    /// Reads and checks a definition written in TOML.
    pub fn from_toml(text: &str) -> Result<DefinedRules, DefinitionError> {
        let definition: VariantDefinition =
            toml::from_str(text).map_err(|e| DefinitionError::from_toml(text, &e))?;
        DefinedRules::new(&definition)
    }

    /// Checks a definition and resolves its names.
    pub fn new(def: &VariantDefinition) -> Result<DefinedRules, DefinitionError> {
        let mut rules = DefinedRules::resolve(def)?;
        rules.turkish = plays_as_turkish(&rules);
        Ok(rules)
    }

    /// Whether the fast Turkish generator plays these rules (see [`super::legal_moves`]).
    pub fn has_fast_turkish(&self) -> bool {
        debug_assert_eq!(
            self.turkish,
            plays_as_turkish(self),
            "the rules were changed after they were read"
        );
        self.turkish
    }

    /// [`DefinedRules::new`] without looking for a fast generator: the built-in Turkish rules that the fast
    /// generator is matched against are read by it.
    pub(super) fn resolve(def: &VariantDefinition) -> Result<DefinedRules, DefinitionError> {
        // A built-in variant's number would tell other programs the game is that variant.
        if let Some(builtin) = def.game_type.and_then(crate::Variant::from_game_type) {
            return Err(DefinitionError::invalid(
                "game_type",
                format!(
                    "{} is the game type of {}; a definition takes one no built-in variant has",
                    builtin.game_type(),
                    builtin.title()
                ),
            ));
        }
        let (w, h) = (def.board.width, def.board.height);
        if !(1..=MAX_SIDE).contains(&w) || !(1..=MAX_SIDE).contains(&h) {
            return Err(DefinitionError::BoardSize {
                width: w,
                height: h,
                max: MAX_SIDE,
            });
        }
        let (width, height) = (w as usize, h as usize);
        let mut rules = DefinedRules {
            name: def.name.clone(),
            game_type: def.game_type,
            width,
            height,
            playable: (0..width * height)
                .map(|cell| match def.board.playable {
                    PlayableSquares::All => true,
                    // Dark squares are those whose row and column differ in parity (agree, in a mirror), as
                    // the fast generator's geometry numbers them.
                    PlayableSquares::Dark => {
                        ((cell / width + cell % width) % 2 == 1) != def.board.mirrored
                    }
                })
                .collect(),
            dark_squares: def.board.playable == PlayableSquares::Dark,
            holes: Vec::new(),
            start: vec![None; width * height],
            first: color(def.first),
            kinds: Vec::new(),
            compulsory: def.capture.compulsory,
            precedence: def.capture.precedence,
            removed_at_once: def.capture.removal == Removal::AtOnce,
            may_reverse: def.capture.may_reverse,
            crowning: def.capture.crowning,
            no_moves: def.end.no_moves,
            promotion_wins: def.end.promotion_wins,
            quiet_moves: def.end.quiet_moves,
            one_each_moves: def.end.one_each_moves,
            lone_man_loses: def.end.lone_man_loses,
            turkish: false,
        };
        for (i, name) in def.board.holes.iter().enumerate() {
            let cell = rules.cell_named(&format!("board.holes[{i}]"), name)?;
            rules.playable[cell] = false;
            rules.holes.push(cell);
        }
        rules.kinds = kinds(def, height as u32)?;
        rules.place_start(def)?;
        Ok(rules)
    }

    /// The cell a coordinate such as `c3` names, if it is playable.
    pub fn cell_named(&self, field: &str, name: &str) -> Result<Cell, DefinitionError> {
        let bad = |why| DefinitionError::BadSquare {
            field: field.to_string(),
            square: name.to_string(),
            why,
        };
        let mut chars = name.chars();
        let file = chars.next().ok_or(bad("empty"))?;
        let col = (file.to_ascii_lowercase() as u32).wrapping_sub('a' as u32) as usize;
        let rank: usize = chars
            .as_str()
            .parse()
            .map_err(|_| bad("not a coordinate"))?;
        if col >= self.width || rank == 0 || rank > self.height {
            return Err(bad("off the board"));
        }
        let cell = (self.height - rank) * self.width + col;
        if !self.playable[cell] {
            return Err(bad("a light square or a hole"));
        }
        Ok(cell)
    }

    /// The coordinate name of a cell.
    pub fn name_of(&self, cell: Cell) -> String {
        let file = char::from(b'a' + (cell % self.width) as u8);
        format!("{file}{}", self.height - cell / self.width)
    }

    /// The kind with this name, by index.
    pub fn kind_index(&self, name: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k.name == name)
    }

    /// The cell one `step` from `cell` for a piece of `color`, if it is on the board and playable. On a board of
    /// dark squares a straight step (along a file or a rank) goes on to the next dark square, two cells away.
    pub fn step(&self, cell: Cell, color: Color, (forward, side): Step) -> Option<Cell> {
        let stride = if self.dark_squares && (forward == 0 || side == 0) {
            2
        } else {
            1
        };
        let (forward, side) = (forward * stride, side * stride);
        let down = match color {
            Color::Black => forward,
            Color::White => -forward,
        };
        let row = (cell / self.width) as i32 + down;
        let col = (cell % self.width) as i32 + side;
        if row < 0 || col < 0 || row >= self.height as i32 || col >= self.width as i32 {
            return None;
        }
        let next = row as usize * self.width + col as usize;
        self.playable[next].then_some(next)
    }

    /// The row of `cell` counted from `color`'s own edge (0 is its back row).
    pub fn row_from_own_side(&self, cell: Cell, color: Color) -> u32 {
        let row = (cell / self.width) as u32;
        match color {
            Color::Black => row,
            Color::White => self.height as u32 - 1 - row,
        }
    }

    /// Whether these rules and `b` give the same moves in every position: the same board, pieces and capture
    /// rules, whatever the names, the start and the ending. Every field is named, those that do not change a move
    /// with `_`, so that a field added to the rules or the kinds does not compile until it is placed here.
    pub(super) fn moves_alike(&self, b: &DefinedRules) -> bool {
        let DefinedRules {
            name: _,
            game_type: _,
            width,
            height,
            playable,
            dark_squares,
            // The holes are also marked in `playable`.
            holes: _,
            start: _,
            first: _,
            kinds,
            compulsory,
            precedence,
            removed_at_once,
            may_reverse,
            crowning,
            no_moves: _,
            promotion_wins: _,
            quiet_moves: _,
            one_each_moves: _,
            lone_man_loses: _,
            turkish: _,
        } = self;
        *width == b.width
            && *height == b.height
            && *playable == b.playable
            && *dark_squares == b.dark_squares
            && kinds.len() == b.kinds.len()
            && kinds
                .iter()
                .zip(&b.kinds)
                .all(|(a, b)| same_kind(a, b, weighs_values(*precedence)))
            && *compulsory == b.compulsory
            && *precedence == b.precedence
            && *removed_at_once == b.removed_at_once
            && *may_reverse == b.may_reverse
            && *crowning == b.crowning
    }

    fn place_start(&mut self, def: &VariantDefinition) -> Result<(), DefinitionError> {
        let start = &def.start;
        if start.rows as usize > self.height / 2 {
            return Err(DefinitionError::invalid(
                "start.rows",
                format!("{} rows each do not fit {} rows", start.rows, self.height),
            ));
        }
        let row_kind = match &start.kind {
            Some(name) => self.known_kind("start.kind", name)?,
            None => 0,
        };
        for cell in 0..self.width * self.height {
            let row = (cell / self.width) as u32;
            if !self.playable[cell] {
                continue;
            }
            if row < start.rows {
                self.start[cell] = Some((Color::Black, row_kind));
            } else if row >= self.height as u32 - start.rows {
                self.start[cell] = Some((Color::White, row_kind));
            }
        }
        for (i, placed) in start.pieces.iter().enumerate() {
            let kind = self.known_kind(&format!("start.pieces[{i}].kind"), &placed.kind)?;
            for (j, name) in placed.squares.iter().enumerate() {
                let field = format!("start.pieces[{i}].squares[{j}]");
                let cell = self.cell_named(&field, name)?;
                if self.start[cell].is_some() {
                    return Err(DefinitionError::invalid(
                        field,
                        format!("{name} is taken twice"),
                    ));
                }
                self.start[cell] = Some((color(placed.side), kind));
            }
        }
        Ok(())
    }

    fn known_kind(&self, field: &str, name: &str) -> Result<usize, DefinitionError> {
        self.kind_index(name)
            .ok_or_else(|| DefinitionError::UnknownKind {
                field: field.to_string(),
                name: name.to_string(),
            })
    }
}

/// Whether a precedence rule chooses captures by the values of the pieces taken.
fn weighs_values(precedence: PrecedenceRule) -> bool {
    matches!(
        precedence,
        PrecedenceRule::Value | PrecedenceRule::ValueThenKing
    )
}

/// Whether two kinds move, take and promote alike, their names and looks aside; their values count only where
/// the precedence rule weighs them (`values`).
fn same_kind(a: &Kind, b: &Kind, values: bool) -> bool {
    let Kind {
        name: _,
        glyph: _,
        black_glyph: _,
        letter: _,
        value,
        moves,
        slides,
        leaps,
        captures,
        flying,
        lands_behind,
        takes,
        promotion,
        is_king,
    } = a;
    (!values || *value == b.value)
        && *moves == b.moves
        && *slides == b.slides
        && *leaps == b.leaps
        && *captures == b.captures
        && *flying == b.flying
        && *lands_behind == b.lands_behind
        && *takes == b.takes
        && *promotion == b.promotion
        && *is_king == b.is_king
}

fn color(side: Side) -> Color {
    match side {
        Side::Black => Color::Black,
        Side::White => Color::White,
    }
}

/// The kinds of a definition, checked, with every name resolved.
fn kinds(def: &VariantDefinition, height: u32) -> Result<Vec<Kind>, DefinitionError> {
    if def.pieces.is_empty() || def.pieces.len() > MAX_KINDS {
        return Err(DefinitionError::invalid(
            "pieces",
            format!(
                "{} kinds; from 1 to {MAX_KINDS} are allowed",
                def.pieces.len()
            ),
        ));
    }
    let index = |field: String, name: &str| {
        def.pieces
            .iter()
            .position(|p| p.name == name)
            .ok_or(DefinitionError::UnknownKind {
                field,
                name: name.to_string(),
            })
    };
    // Names first: a kind defined twice would make every reference to it ambiguous.
    for (i, piece) in def.pieces.iter().enumerate() {
        if def.pieces[..i].iter().any(|p| p.name == piece.name) {
            return Err(DefinitionError::invalid(
                format!("pieces[{i}].name"),
                format!("{:?} is defined twice", piece.name),
            ));
        }
    }
    let black_glyphs = super::glyphs::black_glyphs(&def.pieces)?;
    let mut kinds = Vec::with_capacity(def.pieces.len());
    for (i, (piece, black_glyph)) in def.pieces.iter().zip(black_glyphs).enumerate() {
        let field = format!("pieces[{i}]");
        if !piece.letter.is_ascii_alphabetic() {
            return Err(DefinitionError::invalid(
                format!("{field}.letter"),
                format!("{:?} is not an ASCII letter", piece.letter),
            ));
        }
        if piece.value > MAX_PIECE_VALUE {
            return Err(DefinitionError::invalid(
                format!("{field}.value"),
                format!("{} is more than {MAX_PIECE_VALUE}", piece.value),
            ));
        }
        let mut takes = vec![true; def.pieces.len()];
        if let Some(list) = piece.captures.as_ref().and_then(|c| c.takes.as_ref()) {
            takes = vec![false; def.pieces.len()];
            for (j, name) in list.iter().enumerate() {
                takes[index(format!("{field}.captures.takes[{j}]"), name)?] = true;
            }
        }
        let promotion = match &piece.promotion {
            None => None,
            Some(p) => {
                let to = index(format!("{field}.promotion.to"), &p.to)?;
                let row = p.row.unwrap_or(height);
                if row == 0 || row > height {
                    return Err(DefinitionError::invalid(
                        format!("{field}.promotion.row"),
                        format!("row {row} is not from 1 to {height}"),
                    ));
                }
                Some((to, row - 1))
            }
        };
        let moves = piece.moves.as_ref();
        let captures = piece.captures.as_ref();
        kinds.push(Kind {
            name: piece.name.clone(),
            glyph: piece.glyph.clone(),
            black_glyph,
            letter: piece.letter,
            value: piece.value,
            moves: moves.map(|m| steps(&m.directions)).unwrap_or_default(),
            slides: moves.is_some_and(|m| m.range == Range::Slide),
            leaps: piece
                .leaps
                .as_ref()
                .map(|l| steps(&l.directions))
                .unwrap_or_default(),
            captures: captures.map(|c| steps(&c.directions)).unwrap_or_default(),
            flying: captures.is_some_and(|c| c.range == CaptureRange::Flying),
            lands_behind: captures.is_some_and(|c| c.landing == Landing::RightBehind),
            takes,
            promotion,
            is_king: false,
        });
    }
    for i in 0..kinds.len() {
        if let Some((to, _)) = kinds[i].promotion {
            kinds[to].is_king = true;
        }
    }
    Ok(kinds)
}

/// The steps of some direction sets, each once, in a fixed order.
fn steps(sets: &[DirectionSet]) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    for set in sets {
        let add: &[Step] = match set {
            DirectionSet::Diagonal => &[(1, -1), (1, 1), (-1, -1), (-1, 1)],
            DirectionSet::ForwardDiagonal => &[(1, -1), (1, 1)],
            DirectionSet::BackwardDiagonal => &[(-1, -1), (-1, 1)],
            DirectionSet::Orthogonal => &[(1, 0), (-1, 0), (0, -1), (0, 1)],
            DirectionSet::Forward => &[(1, 0)],
            DirectionSet::Backward => &[(-1, 0)],
            DirectionSet::Sideways => &[(0, -1), (0, 1)],
        };
        for step in add {
            if !out.contains(step) {
                out.push(*step);
            }
        }
    }
    out
}
/// Whether `rules` play exactly as the built-in Turkish definition ([`DefinedRules::moves_alike`]): names, glyphs,
/// values (captures are chosen by number), the start and the end rules do not change a move, so a copy that
/// differs only in those is played here too.
fn plays_as_turkish(rules: &DefinedRules) -> bool {
    static TURKISH: OnceLock<Option<DefinedRules>> = OnceLock::new();
    let reference = TURKISH.get_or_init(|| {
        toml::from_str(include_str!("builtin/turkish.toml"))
            .ok()
            .and_then(|def| DefinedRules::resolve(&def).ok())
    });
    let Some(t) = reference else {
        return false;
    };
    rules.moves_alike(t)
}
