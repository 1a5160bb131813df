//! How a definition's pieces are drawn: each kind's glyph for White and for Black, checked so that every piece on
//! the board can be told from every other by its shape alone (nothing on the screen depends on colour alone).

use unicode_width::UnicodeWidthStr;

use super::error::DefinitionError;
use super::format::PieceDefinition;

/// The widest glyph, in terminal columns: a board square is two columns at its smallest.
const MAX_GLYPH_COLUMNS: usize = 2;

/// The dark form of a light draughts, chess or geometric glyph (`⛀` is `⛂` for Black); `None` for a glyph that
/// has none.
fn dark_form(glyph: &str) -> Option<String> {
    let mut chars = glyph.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let dark = match c {
        '⛀' => '⛂',
        '⛁' => '⛃',
        '○' => '●',
        '◇' => '◆',
        '□' => '■',
        '△' => '▲',
        '▽' => '▼',
        '☆' => '★',
        '♡' => '♥',
        '♢' => '♦',
        '♤' => '♠',
        '♧' => '♣',
        // The white chess pieces, then the black ones six code points on.
        '♔'..='♙' => char::from_u32(c as u32 + 6)?,
        _ => return None,
    };
    Some(dark.to_string())
}

/// Black's glyph for each kind, in order: its `black_glyph`, or else the dark form of its glyph. Refused, with
/// the field named: a glyph that is empty, holds a control character or is wider than a square; a kind whose two
/// sides would look the same; two kinds drawn alike; two kinds with the same letter (the ASCII board and its
/// diagrams tell kinds by letter, sides by case).
pub(super) fn black_glyphs(pieces: &[PieceDefinition]) -> Result<Vec<String>, DefinitionError> {
    let mut black = Vec::with_capacity(pieces.len());
    for (i, piece) in pieces.iter().enumerate() {
        let field = format!("pieces[{i}]");
        check_glyph(&format!("{field}.glyph"), &piece.glyph)?;
        let dark = match &piece.black_glyph {
            Some(given) => {
                check_glyph(&format!("{field}.black_glyph"), given)?;
                given.clone()
            }
            None => dark_form(&piece.glyph).ok_or_else(|| {
                DefinitionError::invalid(
                    format!("{field}.glyph"),
                    format!(
                        "{:?} has no dark form for Black: give black_glyph, so that the sides differ without \
                         colour",
                        piece.glyph
                    ),
                )
            })?,
        };
        if dark == piece.glyph {
            return Err(DefinitionError::invalid(
                format!("{field}.black_glyph"),
                "is White's glyph too: the sides would differ by colour alone",
            ));
        }
        black.push(dark);
    }
    for (i, piece) in pieces.iter().enumerate() {
        let mine = [&piece.glyph, &black[i]];
        for (j, other) in pieces[..i].iter().enumerate() {
            if [&other.glyph, &black[j]].iter().any(|g| mine.contains(g)) {
                return Err(DefinitionError::invalid(
                    format!("pieces[{i}].glyph"),
                    format!("{:?} is drawn like {:?}", piece.name, other.name),
                ));
            }
            if other.letter.eq_ignore_ascii_case(&piece.letter) {
                return Err(DefinitionError::invalid(
                    format!("pieces[{i}].letter"),
                    format!("{:?} has the letter of {:?}", piece.name, other.name),
                ));
            }
        }
    }
    Ok(black)
}

/// A glyph fits a square: one or two columns wide, nothing that moves the terminal's cursor.
fn check_glyph(field: &str, glyph: &str) -> Result<(), DefinitionError> {
    let problem = if glyph.is_empty() {
        Some("is empty".to_string())
    } else if glyph.chars().any(char::is_control) {
        Some(format!("{glyph:?} holds a control character"))
    } else if !(1..=MAX_GLYPH_COLUMNS).contains(&glyph.width()) {
        Some(format!(
            "{glyph:?} is {} columns wide; a glyph is one or two",
            glyph.width()
        ))
    } else {
        None
    };
    problem.map_or(Ok(()), |p| Err(DefinitionError::invalid(field, p)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defined::DefinedRules;

    fn kinds(pieces: &str) -> Result<Vec<String>, DefinitionError> {
        let text = format!(
            "name = \"t\"\nfirst = \"white\"\n[board]\nwidth = 4\nheight = 4\n[start]\nrows = 1\nkind = \"a\"\n\
             {pieces}\n[capture]\ncompulsory = true\nprecedence = \"free\"\n"
        );
        DefinedRules::from_toml(&text)
            .map(|r| r.kinds.iter().map(|k| k.black_glyph.clone()).collect())
    }

    #[test]
    fn black_takes_the_dark_form_or_its_own_glyph() {
        let found = kinds(
            "[[pieces]]\nname = \"a\"\nglyph = \"⛀\"\nletter = 'a'\nmoves = { directions = [\"diagonal\"] }\n\
             [[pieces]]\nname = \"b\"\nglyph = \"🐸\"\nblack_glyph = \"🐢\"\nletter = 'b'\n",
        );
        assert_eq!(found, Ok(vec!["⛂".to_string(), "🐢".to_string()]));
    }

    #[test]
    fn pieces_that_would_differ_by_colour_alone_are_refused_with_the_field() {
        let cases = [
            (
                "glyph = \"🐸\"\nletter = 'a'",
                "pieces[0].glyph",
                "no dark form",
            ),
            (
                "glyph = \"x\"\nblack_glyph = \"x\"\nletter = 'a'",
                "pieces[0].black_glyph",
                "colour alone",
            ),
            (
                "glyph = \"⛀\"\nletter = 'a'\n[[pieces]]\nname = \"b\"\nglyph = \"⛂\"\nblack_glyph = \"y\"\nletter = 'b'",
                "pieces[1].glyph",
                "drawn like",
            ),
            (
                "glyph = \"⛀\"\nletter = 'a'\n[[pieces]]\nname = \"b\"\nglyph = \"○\"\nletter = 'A'",
                "pieces[1].letter",
                "letter of",
            ),
            (
                "glyph = \"abc\"\nletter = 'a'",
                "pieces[0].glyph",
                "columns wide",
            ),
            (
                "glyph = \"\\u001b\"\nletter = 'a'",
                "pieces[0].glyph",
                "control",
            ),
            ("glyph = \"\"\nletter = 'a'", "pieces[0].glyph", "empty"),
        ];
        for (piece, field, problem) in cases {
            let error = kinds(&format!("[[pieces]]\nname = \"a\"\n{piece}\n"))
                .expect_err(piece)
                .to_string();
            assert!(
                error.starts_with(field) && error.contains(problem),
                "{piece}: {error}"
            );
        }
    }

    #[test]
    fn every_dark_form_differs_from_its_light_one() {
        for light in [
            "⛀", "⛁", "○", "◇", "□", "△", "▽", "☆", "♡", "♢", "♤", "♧", "♔", "♙",
        ] {
            let dark = dark_form(light).expect(light);
            assert_ne!(dark, light);
            assert_eq!(dark.width(), light.width(), "{light}");
        }
        assert_eq!(dark_form("♔").as_deref(), Some("♚"));
        assert_eq!(dark_form("⛀⛀"), None);
    }
}
