//! The 3-move ballot openings of English draughts, for engine matches.
//!
//! Tournament play draws the first three moves from a deck so that games do not all follow the same lines. The
//! built-in deck is the standard one of 157 openings (the ACF deck has 156); a JSON file in the layout of the
//! reference data (`all`: name to FEN, `standard`: names in the deck) can replace it.

use thiserror::Error;

use crowned_rules::{
    English, FenError, MoveText, Position, SquareStyle, Strictness, parse_fen, write_move,
};

/// The standard deck, by its three moves.
const DECK: [&str; 157] = [
    "9-13 21-17 5-9",
    "9-13 21-17 6-9",
    "9-13 22-17 13-22",
    "9-13 22-18 6-9",
    "9-13 22-18 10-14",
    "9-13 22-18 10-15",
    "9-13 22-18 11-15",
    "9-13 22-18 11-16",
    "9-13 22-18 12-16",
    "9-13 23-18 5-9",
    "9-13 23-18 6-9",
    "9-13 23-18 10-15",
    "9-13 23-18 11-15",
    "9-13 23-18 11-16",
    "9-13 23-18 12-16",
    "9-13 23-19 5-9",
    "9-13 23-19 6-9",
    "9-13 23-19 10-14",
    "9-13 23-19 10-15",
    "9-13 23-19 11-16",
    "9-13 24-19 5-9",
    "9-13 24-19 6-9",
    "9-13 24-19 10-14",
    "9-13 24-19 10-15",
    "9-13 24-19 11-15",
    "9-13 24-19 11-16",
    "9-13 24-20 5-9",
    "9-13 24-20 6-9",
    "9-13 24-20 10-14",
    "9-13 24-20 10-15",
    "9-13 24-20 11-15",
    "9-13 24-20 11-16",
    "9-14 22-17 5-9",
    "9-14 22-17 6-9",
    "9-14 22-17 11-15",
    "9-14 22-17 11-16",
    "9-14 22-18 5-9",
    "9-14 22-18 10-15",
    "9-14 22-18 11-15",
    "9-14 22-18 11-16",
    "9-14 23-18 14-23",
    "9-14 23-19 5-9",
    "9-14 23-19 11-16",
    "9-14 23-19 14-18",
    "9-14 24-19 5-9",
    "9-14 24-19 11-15",
    "9-14 24-19 11-16",
    "9-14 24-20 5-9",
    "9-14 24-20 10-15",
    "9-14 24-20 11-15",
    "9-14 24-20 11-16",
    "10-14 22-17 7-10",
    "10-14 22-17 9-13",
    "10-14 22-17 11-15",
    "10-14 22-17 11-16",
    "10-14 22-17 14-18",
    "10-14 22-18 6-10",
    "10-14 22-18 7-10",
    "10-14 22-18 11-15",
    "10-14 22-18 11-16",
    "10-14 22-18 12-16",
    "10-14 23-18 14-23",
    "10-14 23-19 6-10",
    "10-14 23-19 7-10",
    "10-14 23-19 11-15",
    "10-14 23-19 11-16",
    "10-14 23-19 14-18",
    "10-14 24-19 6-10",
    "10-14 24-19 7-10",
    "10-14 24-19 11-16",
    "10-14 24-19 14-18",
    "10-14 24-20 6-10",
    "10-14 24-20 7-10",
    "10-14 24-20 11-15",
    "10-14 24-20 11-16",
    "10-14 24-20 14-18",
    "10-15 21-17 6-10",
    "10-15 21-17 7-10",
    "10-15 21-17 9-13",
    "10-15 21-17 11-16",
    "10-15 21-17 15-18",
    "10-15 22-17 6-10",
    "10-15 22-17 7-10",
    "10-15 22-17 9-13",
    "10-15 22-17 11-16",
    "10-15 22-17 15-19",
    "10-15 22-18 15-22",
    "10-15 23-18 6-10",
    "10-15 23-18 7-10",
    "10-15 23-18 9-14",
    "10-15 23-18 11-16",
    "10-15 23-18 12-16",
    "10-15 23-19 6-10",
    "10-15 23-19 7-10",
    "10-15 23-19 11-16",
    "10-15 24-19 15-24",
    "10-15 24-20 6-10",
    "10-15 24-20 7-10",
    "10-15 24-20 15-19",
    "11-15 21-17 8-11",
    "11-15 21-17 9-13",
    "11-15 21-17 9-14",
    "11-15 21-17 15-19",
    "11-15 22-17 8-11",
    "11-15 22-17 9-13",
    "11-15 22-17 15-18",
    "11-15 22-17 15-19",
    "11-15 22-18 15-22",
    "11-15 23-18 8-11",
    "11-15 23-18 9-14",
    "11-15 23-18 10-14",
    "11-15 23-18 12-16",
    "11-15 23-18 15-19",
    "11-15 23-19 8-11",
    "11-15 23-19 9-13",
    "11-15 23-19 9-14",
    "11-15 24-19 15-24",
    "11-15 24-20 8-11",
    "11-15 24-20 12-16",
    "11-15 24-20 15-18",
    "11-16 21-17 7-11",
    "11-16 21-17 8-11",
    "11-16 21-17 9-13",
    "11-16 21-17 9-14",
    "11-16 21-17 16-20",
    "11-16 22-17 7-11",
    "11-16 22-17 8-11",
    "11-16 22-17 9-13",
    "11-16 22-17 16-20",
    "11-16 22-18 7-11",
    "11-16 22-18 8-11",
    "11-16 22-18 16-19",
    "11-16 22-18 16-20",
    "11-16 23-18 7-11",
    "11-16 23-18 8-11",
    "11-16 23-18 9-14",
    "11-16 23-18 10-14",
    "11-16 23-18 16-20",
    "11-16 23-19 16-23",
    "11-16 24-19 7-11",
    "11-16 24-19 8-11",
    "11-16 24-19 16-20",
    "11-16 24-20 7-11",
    "11-16 24-20 16-19",
    "12-16 21-17 9-13",
    "12-16 21-17 9-14",
    "12-16 21-17 16-19",
    "12-16 21-17 16-20",
    "12-16 22-17 16-19",
    "12-16 22-17 16-20",
    "12-16 22-18 16-19",
    "12-16 22-18 16-20",
    "12-16 23-18 16-19",
    "12-16 23-18 16-20",
    "12-16 24-19 16-20",
    "12-16 24-20 8-12",
    "12-16 24-20 10-15",
];

/// One opening: its name and the moves that reach it from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// A name such as `9-13 21-17 5-9` (or the file's name for it).
    pub name: String,
    /// The opening moves, in standard notation; empty when the opening is only a position.
    pub moves: Vec<String>,
    /// The position after the opening moves.
    pub position: Position,
}

/// Why a file of openings could not be used.
#[derive(Debug, Error)]
pub enum OpeningsError {
    /// Not JSON.
    #[error("not a JSON openings file: {0}")]
    Json(#[from] serde_json::Error),
    /// JSON without the expected fields.
    #[error("the openings file has no {0}")]
    Missing(&'static str),
    /// An opening whose position cannot be read.
    #[error("opening {name:?}: {error}")]
    Fen {
        /// The opening.
        name: String,
        /// What is wrong with its FEN.
        error: FenError,
    },
    /// A file with no openings in its deck.
    #[error("the openings file has an empty deck")]
    Empty,
}

/// Plays opening moves from the start; `None` if one is not legal.
fn replay(moves: &[&str]) -> Option<(Vec<String>, Position)> {
    let mut pos: Position = Position::start();
    let mut written = Vec::new();
    for text in moves {
        let mv = MoveText::parse(text, Position::<English>::GEOMETRY)
            .and_then(|t| t.find(&pos, Strictness::Squares))
            .ok()?;
        written.push(write_move(&pos, &mv, SquareStyle::Numbers));
        pos = pos.play(&mv);
    }
    Some((written, pos))
}

/// The built-in deck of 157 openings.
pub fn builtin_openings() -> Vec<Opening> {
    DECK.iter()
        .filter_map(|line| {
            let moves: Vec<&str> = line.split_whitespace().collect();
            let (moves, position) = replay(&moves)?;
            Some(Opening {
                name: moves.join(" "),
                moves,
                position,
            })
        })
        .collect()
}

/// The deck of a JSON openings file: the `standard` names, with positions from `all`. A name that ends in three
/// moves (`001 09-13 21-17 05-09`) keeps its moves when they reach the same position.
pub fn openings_from_json(text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let value: serde_json::Value = serde_json::from_str(text)?;
    let all = value
        .get("all")
        .and_then(|v| v.as_object())
        .ok_or(OpeningsError::Missing("\"all\" object"))?;
    let deck = value
        .get("standard")
        .and_then(|v| v.as_array())
        .ok_or(OpeningsError::Missing("\"standard\" list"))?;
    let mut openings = Vec::new();
    for name in deck.iter().filter_map(|v| v.as_str()) {
        let fen = all
            .get(name)
            .and_then(|v| v.as_str())
            .ok_or(OpeningsError::Missing(
                "position for an opening of the deck",
            ))?;
        let position: Position = parse_fen(fen).map_err(|error| OpeningsError::Fen {
            name: name.to_string(),
            error,
        })?;
        let words: Vec<&str> = name.split_whitespace().skip(1).collect();
        let moves = match replay(&words) {
            Some((moves, reached)) if reached == position => moves,
            _ => Vec::new(),
        };
        openings.push(Opening {
            name: name.to_string(),
            moves,
            position,
        });
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_deck_is_legal_and_distinct() {
        let deck = builtin_openings();
        assert_eq!(deck.len(), 157);
        let positions: std::collections::HashSet<_> = deck.iter().map(|o| o.position).collect();
        assert_eq!(positions.len(), 157);
        assert!(deck.iter().all(|o| o.moves.len() == 3));
        assert_eq!(deck[2].name, "9-13 22-17 13x22");
    }

    #[test]
    fn json_errors() {
        assert!(matches!(
            openings_from_json("nonsense"),
            Err(OpeningsError::Json(_))
        ));
        assert!(matches!(
            openings_from_json("{}"),
            Err(OpeningsError::Missing(_))
        ));
        assert!(matches!(
            openings_from_json(r#"{"all": {}, "standard": []}"#),
            Err(OpeningsError::Empty)
        ));
        assert!(matches!(
            openings_from_json(r#"{"all": {"x": "B:W33"}, "standard": ["x"]}"#),
            Err(OpeningsError::Fen { .. })
        ));
        let one = openings_from_json(r#"{"all": {"001 09-13 21-17 05-09": "W:W17,22-32:B1-4,6-13"}, "standard": ["001 09-13 21-17 05-09"]}"#)
            .expect("valid");
        assert_eq!(one[0].moves, ["9-13", "21-17", "5-9"]);
    }
}
