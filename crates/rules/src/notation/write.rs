//! Writing moves: the shortest unambiguous form, or the whole route.

use std::fmt::Write;

use super::SquareStyle;
use crate::geometry::Geometry;
use crate::moves::Move;
use crate::position::Position;
use crate::ruleset::RuleSet;
use crate::square::Square;

/// One square in the given style.
pub(super) fn square_text(square: Square, style: SquareStyle, g: Geometry) -> String {
    match style {
        SquareStyle::Numbers => square.to_string(),
        SquareStyle::Coordinates => g.coordinate(square),
    }
}

/// A square as a notation names it, `16` or `c3`: shown by its `Display`, so that messages name squares as the
/// game writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareName {
    /// The square named.
    pub square: Square,
    style: SquareStyle,
    geometry: Geometry,
    /// The definition whose board names the square, for a defined variant (its squares are not the geometry's).
    defined: Option<crate::defined::DefinedId>,
}

impl SquareName {
    /// `square` of a board of `geometry`, named in `style`.
    pub fn new(square: Square, style: SquareStyle, geometry: Geometry) -> SquareName {
        SquareName {
            square,
            style,
            geometry,
            defined: None,
        }
    }

    /// `square` of a defined variant's board, named by its coordinate.
    pub fn defined(square: Square, id: crate::defined::DefinedId) -> SquareName {
        SquareName {
            square,
            style: SquareStyle::Coordinates,
            geometry: Geometry::EIGHT,
            defined: Some(id),
        }
    }
}

impl std::fmt::Display for SquareName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.defined {
            Some(id) => f.write_str(&id.get().square_name(self.square.index())),
            None => f.write_str(&square_text(self.square, self.style, self.geometry)),
        }
    }
}

/// A move with every landing square: `15x24x31`, or `11-15` for a simple move.
pub fn full_route(mv: &Move, style: SquareStyle, g: Geometry) -> String {
    let sep = if mv.is_capture() { 'x' } else { '-' };
    let mut out = square_text(mv.from(), style, g);
    for s in mv.path() {
        out.push(sep);
        out.push_str(&square_text(*s, style, g));
    }
    out
}

/// A legal move of `pos` in its shortest unambiguous form: start and end (`11-15`, `15x31`), or the whole
/// route when another legal move with a different effect has the same start and end.
pub fn write_move<R: RuleSet>(pos: &Position<R>, mv: &Move, style: SquareStyle) -> String {
    let g = R::GEOMETRY;
    let ambiguous = mv.path().len() > 1
        && pos
            .legal_moves()
            .iter()
            .any(|m| m.from() == mv.from() && m.to() == mv.to() && !m.same_effect(mv));
    if ambiguous {
        return full_route(mv, style, g);
    }
    let sep = if mv.is_capture() { 'x' } else { '-' };
    let mut out = square_text(mv.from(), style, g);
    // Writing to a String cannot fail.
    let _ = write!(out, "{sep}{}", square_text(mv.to(), style, g));
    out
}
