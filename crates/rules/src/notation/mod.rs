//! Move notation: reading what a player or a file writes, and writing moves the way people expect.
//!
//! A move is written as squares joined by `-` (a simple move, `11-15`) or `x` (a capture, `22x15`). A capture may
//! give its whole route (`15x24x31`) or only where it starts and ends (`15x31`); the short form is accepted when
//! exactly one legal move fits. Squares are numbers in the standard numbering or coordinates (`c3-d4`,
//! `c3xe5xg3`), with files a.. from the left and ranks 1.. from the bottom of the diagram, White at the bottom.
//!
//! Reading happens in two steps: [`MoveText::parse`] checks the text alone, and [`MoveText::find`] finds the
//! legal move it stands for in a position, or says why there is none.

mod error;
pub(crate) mod style;
mod write;

use std::fmt;

use thiserror::Error;

use super::excerpt::excerpt;
use super::geometry::Geometry;
use super::moves::Move;
use super::position::Position;
use super::ruleset::RuleSet;
use super::square::Square;

pub use error::MoveError;
pub use error::or_list;
pub use style::SquareStyle;
use write::square_text;
pub use write::{SquareName, full_route, write_move};

/// A name that is not a square style.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown notation {0:?}: the notations are numbers (11-15) and coordinates (c3-d4)")]
pub struct UnknownSquareStyle(pub String);

impl std::str::FromStr for SquareStyle {
    type Err = UnknownSquareStyle;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SquareStyle::ALL
            .into_iter()
            .find(|style| style.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownSquareStyle(excerpt(s)))
    }
}

/// How strictly the kind of move (`-` or `x`) must agree with the move found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strictness {
    /// `-` must be a simple move and `x` a capture. For players typing moves.
    #[default]
    Exact,
    /// The squares decide; the separator only breaks ties. Real game files often write `10x15` for a simple
    /// move.
    Squares,
}

/// Which kind of move the text says it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Joined by `-`.
    Simple,
    /// Joined by `x` (or `:`, as some notations write captures).
    Capture,
    /// Coordinates written together (`c3d4`), which say nothing of the kind.
    Unmarked,
}

/// A move as written, checked for form but not yet against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    squares: Vec<Square>,
    written: Written,
    text: String,
}

impl MoveText {
    /// The text as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Reads move text for a board of the given geometry.
    pub fn parse(text: &str, geometry: Geometry) -> Result<MoveText, MoveError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MoveError::Empty);
        }
        let has_dash = text.contains('-');
        let has_x = text.contains(['x', 'X', ':']);
        if has_dash && has_x {
            return Err(MoveError::MixedSeparators);
        }
        let squares = if has_dash || has_x {
            text.split(['-', 'x', 'X', ':'])
                .map(|part| parse_square(part.trim(), geometry))
                .collect::<Result<Vec<_>, _>>()?
        } else if text.bytes().all(|b| b.is_ascii_digit()) {
            vec![parse_square(text, geometry)?]
        } else {
            joined_coordinates(text, geometry)?
        };
        if squares.len() < 2 {
            return Err(MoveError::OneSquare);
        }
        if has_dash && squares.len() > 2 {
            return Err(MoveError::LongSimpleMove);
        }
        let written = match (has_dash, has_x) {
            (true, _) => Written::Simple,
            (_, true) => Written::Capture,
            _ => Written::Unmarked,
        };
        Ok(MoveText {
            squares,
            written,
            text: text.to_string(),
        })
    }

    /// The squares as written: the start, any intermediate landings, the end.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// Which kind of move it says it is.
    pub fn written(&self) -> Written {
        self.written
    }

    /// Whether `mv` goes through the written squares: same start and end, and any intermediate squares
    /// written appear on its route in that order.
    pub fn fits_route(&self, mv: &Move) -> bool {
        let (first, rest) = match self.squares.split_first() {
            Some(split) => split,
            None => return false,
        };
        if mv.from() != *first || self.squares.last() != Some(&mv.to()) {
            return false;
        }
        let mut path = mv.path().iter();
        rest.iter().all(|s| path.any(|p| p == s))
    }

    /// The legal move of `pos` this text stands for.
    pub fn find<R: RuleSet>(
        &self,
        pos: &Position<R>,
        strictness: Strictness,
    ) -> Result<Move, MoveError> {
        // Every route counts here, so that a player may write whichever route they took; routes with the same
        // effect are then one move.
        let routes = pos.legal_moves_with_duplicates();
        // A route written out in full is that route, even when a longer route passes through the same squares
        // in the same order (15x22x13 is not 15x24x31x22x13).
        let exact =
            |m: &Move| self.squares.first() == Some(&m.from()) && self.squares[1..] == m.path()[..];
        let written_exactly = routes.iter().any(exact);
        let fits: &dyn Fn(&Move) -> bool = if written_exactly {
            &exact
        } else {
            &|m: &Move| self.fits_route(m)
        };
        let mut fitting: Vec<Move> = Vec::new();
        for m in routes {
            if fits(&m) && !fitting.iter().any(|f| f.same_effect(&m)) {
                fitting.push(m);
            }
        }
        let same_kind: Vec<Move> = fitting
            .iter()
            .copied()
            .filter(|m| match self.written {
                Written::Simple => !m.is_capture(),
                Written::Capture => m.is_capture(),
                Written::Unmarked => true,
            })
            .collect();
        let chosen = match (same_kind.is_empty(), strictness) {
            (true, Strictness::Squares) => fitting.clone(),
            _ => same_kind,
        };
        match chosen.as_slice() {
            // A route not written out is the one of its same-effect routes that the legal moves keep: the one a
            // game played from them holds, so that a move written short is read back as the very move written.
            [one] if !written_exactly && one.path().len() > 1 => Ok(pos
                .legal_moves()
                .into_iter()
                .find(|m| m.same_effect(one))
                .unwrap_or(*one)),
            [one] => Ok(*one),
            [] => Err(self.explain_no_fit(pos, &fitting)),
            many => Err(MoveError::Ambiguous {
                text: excerpt(&self.text),
                candidates: many
                    .iter()
                    .map(|m| full_route(m, self.style(), R::GEOMETRY))
                    .collect(),
            }),
        }
    }

    /// Why no legal move fits, in the terms most useful to the player.
    fn explain_no_fit<R: RuleSet>(&self, pos: &Position<R>, fitting: &[Move]) -> MoveError {
        let g = R::GEOMETRY;
        if let Some(other_kind) = fitting.first() {
            let suggestion = write_move(pos, other_kind, self.style());
            return if other_kind.is_capture() {
                MoveError::IsACapture {
                    text: excerpt(&self.text),
                    suggestion,
                }
            } else {
                MoveError::NotACapture {
                    text: excerpt(&self.text),
                    suggestion,
                }
            };
        }
        let from = self.squares[0];
        let side = pos.side_to_move();
        // A capture of the position that the variant ranks behind another: the rule is named.
        if let Some(rule) = R::PRECEDENCE.rule()
            && pos.every_capture().iter().any(|m| self.fits_route(m))
        {
            let legal = pos.legal_moves();
            return MoveError::NotTheBestCapture {
                text: excerpt(&self.text),
                rule,
                best: legal
                    .iter()
                    .take(4)
                    .map(|m| write_move(pos, m, self.style()))
                    .collect(),
            };
        }
        if pos.piece_at(from).is_none_or(|p| p.color != side) {
            return MoveError::NoPieceThere {
                side,
                square: square_text(from, self.style(), g),
            };
        }
        let legal = pos.legal_moves();
        let own: Vec<String> = legal
            .iter()
            .filter(|m| m.from() == from)
            .map(|m| write_move(pos, m, self.style()))
            .collect();
        if own.is_empty() && legal.iter().any(Move::is_capture) {
            let mut takers: Vec<Square> = legal.iter().map(Move::from).collect();
            takers.dedup();
            return MoveError::CaptureRequired {
                takers: takers
                    .iter()
                    .map(|s| square_text(*s, self.style(), g))
                    .collect(),
            };
        }
        MoveError::Illegal {
            text: excerpt(&self.text),
            legal_from: own,
        }
    }

    /// The notation the player typed, in which refusals answer: coordinates when the text starts with a letter.
    fn style(&self) -> SquareStyle {
        if self.text.starts_with(|c: char| c.is_ascii_alphabetic()) {
            SquareStyle::Coordinates
        } else {
            SquareStyle::Numbers
        }
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Reads coordinates written together, like `c3d4` or `a3b4c5`.
fn joined_coordinates(text: &str, g: Geometry) -> Result<Vec<Square>, MoveError> {
    let mut squares = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let digits_from = rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_digit())
            .map(|(i, _)| i);
        let end = digits_from.and_then(|from| {
            rest[from..]
                .char_indices()
                .find(|(_, c)| !c.is_ascii_digit())
                .map(|(i, _)| from + i)
                .or(Some(rest.len()))
        });
        let part = match end {
            Some(end) if rest.starts_with(|c: char| c.is_ascii_alphabetic()) => &rest[..end],
            _ => return Err(MoveError::NotASquare(excerpt(text))),
        };
        squares.push(parse_square(part, g)?);
        rest = &rest[part.len()..];
    }
    Ok(squares)
}

/// Reads one square: a number (`15`) or a coordinate (`c3`).
fn parse_square(part: &str, g: Geometry) -> Result<Square, MoveError> {
    if part.is_empty() {
        return Err(MoveError::NotASquare(String::new()));
    }
    if part.bytes().all(|b| b.is_ascii_digit()) {
        let n = number(part)?;
        return Square::from_number(n, g.squares())
            .ok_or_else(|| MoveError::OffBoard(excerpt(part)));
    }
    let mut chars = part.chars();
    let file = chars.next().filter(char::is_ascii_alphabetic);
    let rank = chars.as_str();
    match file {
        Some(file) if !rank.is_empty() && rank.bytes().all(|b| b.is_ascii_digit()) => {
            let rank = number(rank).map_err(|_| MoveError::TooLong(excerpt(part)))?;
            g.from_coordinate(file, rank)
                .ok_or_else(|| MoveError::OffBoard(excerpt(part)))
        }
        _ => Err(MoveError::NotASquare(excerpt(part))),
    }
}

/// The value of a run of ASCII digits. Parsing is checked, so a number too big for any board is reported as too
/// long rather than wrapped or clamped into a misleading square number.
fn number(digits: &str) -> Result<u32, MoveError> {
    digits
        .parse::<u32>()
        .map_err(|_| MoveError::TooLong(excerpt(digits)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{English, parse_fen};

    const G: Geometry = Geometry::EIGHT;

    #[test]
    fn a_full_route_is_not_taken_for_a_longer_route_through_the_same_squares() {
        // The white king on 15 can take 18 and 17 (15x22x13), or 19, 27, 26 and 17 (15x24x31x22x13): the second
        // route passes through 22 and 13 too, so reading "15x22x13" as "any route through these squares" made it
        // ambiguous, although it is how the short route is written.
        let pos = parse_fen::<English>("W:WK15:B6,10,K17,18,19,26,27,K32").expect("FEN");
        let short = MoveText::parse("15x22x13", G)
            .and_then(|t| t.find(&pos, Strictness::Exact))
            .expect("the short route");
        assert_eq!(short.capture_count(), 2);
        let written = write_move(&pos, &short, SquareStyle::Numbers);
        let again = MoveText::parse(&written, G)
            .and_then(|t| t.find(&pos, Strictness::Exact))
            .expect("what is written reads back");
        assert!(again.same_effect(&short), "{written}");
        // Start and end alone still fit both and are refused with both routes named.
        let both = MoveText::parse("15x13", G).and_then(|t| t.find(&pos, Strictness::Exact));
        assert!(matches!(both, Err(MoveError::Ambiguous { .. })), "{both:?}");
    }

    fn pos(fen: &str) -> Position<English> {
        parse_fen(fen).expect("test FEN")
    }

    fn find(p: &Position<English>, text: &str) -> Result<String, String> {
        MoveText::parse(text, G)
            .and_then(|t| t.find(p, Strictness::Exact))
            .map(|m| full_route(&m, SquareStyle::Numbers, G))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn parse_errors() {
        let e = |t: &str| MoveText::parse(t, G).expect_err(t).to_string();
        assert_eq!(e(""), "no move given");
        assert_eq!(e("   "), "no move given");
        assert_eq!(e("11"), "a move needs at least two squares, like 11-15");
        assert_eq!(e("11-"), "\"\" is not a square");
        assert_eq!(e("-15"), "\"\" is not a square");
        assert_eq!(e("11--15"), "\"\" is not a square");
        assert_eq!(e("11-15x18"), "a move is joined by - or by x, not both");
        assert_eq!(
            e("11-15-19"),
            "a simple move has two squares; a capture is written with x, like 15x24x31"
        );
        assert_eq!(e("11-33"), "\"33\" is not a playable square on this board");
        assert_eq!(e("0-4"), "\"0\" is not a playable square on this board");
        assert_eq!(
            e("4294967296-1"),
            "\"4294967296\" is too long to be a square"
        );
        assert_eq!(
            e("4294967295-1"),
            "\"4294967295\" is not a playable square on this board"
        );
        assert_eq!(
            e("c99999999999-d4"),
            "\"c99999999999\" is too long to be a square"
        );
        assert_eq!(e("b1-c2"), "\"b1\" is not a playable square on this board");
        assert_eq!(e("i1-c2"), "\"i1\" is not a playable square on this board");
        assert_eq!(e("c3-d"), "\"d\" is not a square");
        assert_eq!(e("c3-4d"), "\"4d\" is not a square");
        assert_eq!(e("11–15"), "\"11–15\" is not a square");
        assert_eq!(e("é3-c3"), "\"é3\" is not a square");
        assert_eq!(e("c3"), "a move needs at least two squares, like 11-15");
        assert_eq!(e("c3d"), "\"c3d\" is not a square");
        assert_eq!(e("1115"), "\"1115\" is not a playable square on this board");
        assert_eq!(e("c3i9"), "\"i9\" is not a playable square on this board");
    }

    /// A capture the precedence puts behind another is refused with the rule named, for each variant that ranks
    /// captures; where any capture may be chosen, every capture is legal.
    #[test]
    fn a_capture_behind_another_names_the_rule_that_puts_it_there() {
        use crate::{Frisian, International, Italian};
        fn behind<R: RuleSet>(fen: &str) -> usize {
            refused_behind(&parse_fen::<R>(fen).expect("FEN"))
        }
        fn refused_behind<R: RuleSet>(pos: &Position<R>) -> usize {
            let legal = pos.legal_moves();
            let mut refused = 0;
            for mv in pos.every_capture() {
                if legal.iter().any(|m| m.same_effect(&mv)) {
                    continue;
                }
                let text = full_route(&mv, SquareStyle::Numbers, R::GEOMETRY);
                let error = MoveText::parse(&text, R::GEOMETRY)
                    .and_then(|t| t.find(pos, Strictness::Exact))
                    .expect_err("not legal");
                let MoveError::NotTheBestCapture { rule, best, .. } = &error else {
                    panic!("{text}: {error}");
                };
                assert_eq!(Some(*rule), R::PRECEDENCE.rule());
                assert!(
                    !best.is_empty() && error.to_string().contains("instead"),
                    "{error}"
                );
                refused += 1;
            }
            refused
        }
        // 33x22 and 33x24 take one piece; 45x34x23 takes two.
        assert_eq!(behind::<International>("W:W33,45:B28,40,29"), 2);
        assert_eq!(behind::<Frisian>("W:W33,45:B28,40,29"), 2);
        // Italian: the positions of games played by turns of the first and the last legal move.
        let mut italian = 0;
        for game in 0..40 {
            let mut pos: Position<Italian> = Position::start();
            for ply in 0..80 {
                italian += refused_behind(&pos);
                let moves = pos.legal_moves();
                let Some(mv) = moves.get((game * 7 + ply * 3) % moves.len().max(1)) else {
                    break;
                };
                pos = pos.play(mv);
            }
        }
        assert!(italian > 0);
        // English: any capture may be chosen, so none is behind another.
        let english: Position<English> =
            parse_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").expect("FEN");
        let captures: Vec<Move> = english
            .legal_moves()
            .into_iter()
            .filter(Move::is_capture)
            .collect();
        assert_eq!(english.every_capture().len(), captures.len());
    }

    #[test]
    fn refusals_quote_only_an_excerpt_of_a_long_token() {
        let huge_number = "9".repeat(10_000_000);
        let excerpt = format!("{}…", "9".repeat(crate::EXCERPT_CHARS - 1));
        let message = MoveText::parse(&format!("{huge_number}-1"), G)
            .expect_err("too long")
            .to_string();
        assert_eq!(message, format!("{excerpt:?} is too long to be a square"));
        let junk = format!("11-{}", "z".repeat(10_000_000));
        let message = MoveText::parse(&junk, G).expect_err("junk").to_string();
        assert!(message.len() < 100, "{}", message.len());
        assert!(message.ends_with("…\" is not a square"), "{message}");
        let joined = format!("c3{}", "d".repeat(1_000));
        let message = MoveText::parse(&joined, G).expect_err("joined").to_string();
        assert!(message.len() < 100, "{message}");
        // A long text that reads as squares but is no legal move is quoted short too.
        let start: Position = Position::start();
        let long_route = ["11"; 100_000].join("x");
        let message = MoveText::parse(&long_route, G)
            .and_then(|t| t.find(&start, Strictness::Exact))
            .expect_err("illegal")
            .to_string();
        assert!(message.len() < 150, "{message}");
        assert!(message.starts_with("11x11x11x11x11x11x11x11x"), "{message}");
        assert!(message.contains('…'), "{message}");
        let message = "x"
            .repeat(1_000)
            .parse::<SquareStyle>()
            .expect_err("unknown")
            .to_string();
        assert!(message.len() < 160, "{message}");
    }

    #[test]
    fn numbers_and_coordinates_agree() {
        let a = MoveText::parse("22-18", G).expect("numbers");
        let b = MoveText::parse("c3-d4", G).expect("coordinates");
        assert_eq!(a.squares(), b.squares());
        let c = MoveText::parse("C3XE5XG3", G).expect("upper case");
        assert_eq!(c.written(), Written::Capture);
        let joined = MoveText::parse("c3d4", G).expect("joined");
        assert_eq!(joined.written(), Written::Unmarked);
        assert_eq!(joined.squares(), a.squares());
        let colon = MoveText::parse("c3:e5", G).expect("colon");
        assert_eq!(colon.written(), Written::Capture);
        assert_eq!(
            c.squares().iter().map(|s| s.number()).collect::<Vec<_>>(),
            vec![22, 15, 24]
        );
    }

    #[test]
    fn finds_simple_moves_and_explains_refusals() {
        let start: Position = Position::start();
        assert_eq!(find(&start, "11-15"), Ok("11-15".into()));
        assert_eq!(
            find(&start, "c5-b4"),
            Err("there is no black piece on c5".into())
        );
        assert_eq!(
            find(&start, "22-18"),
            Err("there is no black piece on 22".into())
        );
        assert_eq!(find(&start, "11-16"), Ok("11-16".into()));
        assert_eq!(
            find(&start, "12-17"),
            Err("12-17 is not a legal move (this piece can play 12-16)".into())
        );
        assert_eq!(find(&start, "1-5"), Err("1-5 is not a legal move".into()));
        assert_eq!(
            find(&start, "11x15"),
            Err("11x15 is not a capture; did you mean 11-15?".into())
        );
        let found = MoveText::parse("11x15", G).and_then(|t| t.find(&start, Strictness::Squares));
        assert_eq!(found.map(|m| m.to().number()), Ok(15));
    }

    #[test]
    fn compulsory_capture_is_explained() {
        // Black men on 14 and 15 can both take the white man on 18; 9 cannot.
        let p = pos("B:W18,30:B9,14,15");
        assert_eq!(
            find(&p, "9-13"),
            Err("a capture is compulsory: 14 or 15 must take".into())
        );
        assert_eq!(
            find(&p, "14-18"),
            Err("14-18 is not a legal move (this piece can play 14x23)".into())
        );
        assert_eq!(find(&p, "14x23"), Ok("14x23".into()));
        assert_eq!(find(&p, "15x22"), Ok("15x22".into()));
        assert_eq!(find(&p, "c5xe3"), Ok("14x23".into()));
        assert_eq!(
            find(&p, "14-23"),
            Err("14-23 is a capture; write it as 14x23".into())
        );
        // A refusal answers in the notation the move was typed in.
        assert_eq!(
            find(&p, "c5-e3"),
            Err("c5-e3 is a capture; write it as c5xe3".into())
        );
    }

    #[test]
    fn short_form_is_refused_when_two_captures_fit() {
        // The black man on 14 reaches 30 over 17 and 25 or over 18 and 26.
        let p = pos("B:W17,18,25,26:B14");
        assert_eq!(
            find(&p, "14x30"),
            Err("14x30 is ambiguous: it could be 14x21x30 or 14x23x30".into())
        );
        assert_eq!(
            find(&p, "c5xc1"),
            Err("c5xc1 is ambiguous: it could be c5xa3xc1 or c5xe3xc1".into())
        );
        assert_eq!(find(&p, "14x21x30"), Ok("14x21x30".into()));
        assert_eq!(find(&p, "14x23x30"), Ok("14x23x30".into()));
        assert_eq!(
            find(&p, "14x25x30"),
            Err("14x25x30 is not a legal move (this piece can play 14x21x30 or 14x23x30)".into())
        );
        let written: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| write_move(&p, m, SquareStyle::Numbers))
            .collect();
        assert_eq!(written, vec!["14x21x30", "14x23x30"]);
        let coords: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| write_move(&p, m, SquareStyle::Coordinates))
            .collect();
        assert_eq!(coords, vec!["c5xa3xc1", "c5xe3xc1"]);
    }

    #[test]
    fn routes_with_the_same_effect_are_one_move() {
        // The black king on 14 can go round the four white men either way and come back to 14.
        let p = pos("B:W10,11,18,19:BK14");
        assert_eq!(p.legal_moves().len(), 1);
        assert_eq!(p.legal_moves_with_duplicates().len(), 2);
        let only = p.legal_moves()[0];
        assert_eq!(write_move(&p, &only, SquareStyle::Numbers), "14x14");
        assert_eq!(
            find(&p, "14x14"),
            Ok(full_route(&only, SquareStyle::Numbers, G))
        );
        assert_eq!(find(&p, "14x23x16x7x14"), Ok("14x23x16x7x14".into()));
        assert_eq!(find(&p, "14x7x16x23x14"), Ok("14x7x16x23x14".into()));
        assert_eq!(find(&p, "14x16x14"), Ok("14x7x16x23x14".into()));
    }

    #[test]
    fn or_lists() {
        assert_eq!(or_list::<String>(&[]), "");
        assert_eq!(or_list(&["a"]), "a");
        assert_eq!(or_list(&["a", "b"]), "a or b");
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
    }
}
