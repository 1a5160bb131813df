//! FEN and move text for defined variants, by coordinates.
//!
//! FEN: the side to move, then each side's pieces by coordinate, the first kind bare and every other kind with
//! its letter in upper case before the coordinate: `W:Wa1,b2,Kc3:Bd6`. Coordinates are written in lower case,
//! so a kind's letter and a file letter never mix. Moves: `a1-b2`, `a1xc3xe5` (every landing square), or a
//! capture by its start and end alone (`a1xe5`) when only one route fits.

use super::board::DefinedBoard;
use super::registry::DefinedId;
use crate::{Color, FenError, Move, MoveError, Square};

/// The board as FEN.
pub fn to_fen(board: &DefinedBoard) -> String {
    let entry = board.entry();
    let side = |c: Color| if c == Color::White { 'W' } else { 'B' };
    let mut out = String::new();
    out.push(side(board.side_to_move()));
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(side(color));
        let pieces: Vec<String> = board
            .occupants()
            .filter(|(_, (c, _))| *c == color)
            .map(|(square, (_, kind))| {
                let name = entry.square_name(square.index());
                match kind {
                    0 => name,
                    _ => format!(
                        "{}{name}",
                        entry.rules.kinds[kind].letter.to_ascii_uppercase()
                    ),
                }
            })
            .collect();
        out.push_str(&pieces.join(","));
    }
    out
}

/// Reads a FEN written by [`to_fen`] (or by hand in the same form) for the definition `id`.
pub fn from_fen(id: DefinedId, text: &str) -> Result<DefinedBoard, FenError> {
    let entry = id.get();
    let text = text.trim().trim_matches('"').trim_end_matches('.');
    let mut sections = text.split(':');
    let side = match sections.next().map(str::trim) {
        None | Some("") => return Err(FenError::Empty),
        Some("W" | "w") => Color::White,
        Some("B" | "b") => Color::Black,
        Some(other) => return Err(FenError::SideToMove(crate::excerpt(other))),
    };
    let mut board = DefinedBoard::empty(id, side);
    let mut seen = [false; 2];
    for section in sections {
        let section = section.trim();
        let color = match section.chars().next() {
            Some('W' | 'w') => Color::White,
            Some('B' | 'b') => Color::Black,
            _ => return Err(FenError::Section(crate::excerpt(section))),
        };
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(FenError::RepeatedList(color));
        }
        for item in section[1..]
            .split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
        {
            let (kind, name) = match item.chars().next() {
                Some(c) if c.is_ascii_uppercase() => {
                    let kind = entry
                        .rules
                        .kinds
                        .iter()
                        .position(|k| k.letter.eq_ignore_ascii_case(&c))
                        .ok_or_else(|| FenError::UnknownKind(crate::excerpt(item)))?;
                    (kind, &item[1..])
                }
                _ => (0, item),
            };
            let square = entry
                .square_named(name)
                .filter(|_| name.chars().all(|c| !c.is_ascii_uppercase()))
                .ok_or_else(|| FenError::NotACoordinate(crate::excerpt(item)))?;
            let square = Square::from_index(square);
            if board.occupant(square).is_some() {
                return Err(FenError::Occupied(crate::excerpt(name)));
            }
            board.set_occupant(square, Some((color, kind)));
        }
    }
    Ok(board)
}

/// The legal move `text` stands for: every landing square, or for a capture its start and end alone.
pub fn parse_move(board: &DefinedBoard, text: &str) -> Result<Move, MoveError> {
    let entry = board.entry();
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveError::Empty);
    }
    let lower = text.to_ascii_lowercase();
    let (dash, cross) = (lower.contains('-'), lower.contains('x'));
    if dash && cross {
        return Err(MoveError::MixedSeparators);
    }
    let parts: Vec<&str> = lower.split(['-', 'x']).map(str::trim).collect();
    if parts.len() < 2 {
        return Err(MoveError::OneSquare);
    }
    let mut squares = Vec::with_capacity(parts.len());
    for part in &parts {
        let square = entry
            .square_named(part)
            .ok_or_else(|| MoveError::OffBoard(crate::excerpt(part)))?;
        squares.push(Square::from_index(square));
    }
    let from = squares[0];
    if board
        .occupant(from)
        .is_none_or(|(c, _)| c != board.side_to_move())
    {
        return Err(MoveError::NoPieceThere {
            side: board.side_to_move(),
            square: parts[0].to_string(),
        });
    }
    let moves = board.legal_moves();
    let fits = |m: &&Move| {
        m.from() == from
            && (m.path() == &squares[1..]
                || (squares.len() == 2 && m.is_capture() && m.to() == squares[1]))
    };
    let mut found: Vec<Move> = Vec::new();
    for m in moves.iter().filter(fits) {
        if !found.iter().any(|f| f.same_effect(m)) {
            found.push(*m);
        }
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] => {
            let legal_from = moves
                .iter()
                .filter(|m| m.from() == from)
                .map(|m| board.write_move(m))
                .collect();
            if board.must_capture() && moves.iter().all(|m| m.from() != from) {
                let mut takers: Vec<String> = moves
                    .iter()
                    .map(|m| entry.square_name(m.from().index()))
                    .collect();
                takers.dedup();
                return Err(MoveError::CaptureRequired { takers });
            }
            Err(MoveError::Illegal {
                text: text.to_string(),
                legal_from,
            })
        }
        many => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: many.iter().map(|m| board.write_move(m)).collect(),
        }),
    }
}
/// A board for debugging: the definition's name and the position's FEN.
impl std::fmt::Debug for DefinedBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.entry().rules.name, to_fen(self))
    }
}
