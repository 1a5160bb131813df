//! The variant and board a game of a file is played on: PDN's `GameType` tag, read and written, a guess for
//! files without it, and the one place where a game type chooses the rule set a game is replayed with.
//!
//! PDN 3.0 (pdn.fmjd.org, "GameType tag") writes the tag as `Type-number [,Start colour (W/B),Board width,Board
//! height,Notation [,Invert-flag]]`: `20`, or `21,B,10,10,N1,0` for English draughts on a 10x10 board. The
//! notation (`A`lphanumeric, `N`umeric or `S`alta, with the corner where numbering starts, 0 to 3) and the
//! invert flag (whether the bottom-left corner is a playing square) say how the game is written and shown, not
//! what it is; they are checked for form only.

use thiserror::Error;

use super::parse::GameText;
use super::replay::replay;
use crowned_rules::{
    Color, English, GameType, GameTypeError, International, RuleSet, Variant, quoted,
};

/// Why a game's variant cannot be told or replayed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VariantError {
    /// A game type number that names no variant this program knows.
    #[error("unsupported game type {0}{name}", name = named(*.0))]
    Unsupported(u32),
    /// A `GameType` tag that is not of PDN's form.
    #[error("the GameType tag {} is not a game type", quoted(.0))]
    Unreadable(String),
    /// A `GameType` tag whose side to move first is not the variant's.
    #[error("the GameType tag {} has {} moving first, but {} starts with {}", quoted(.tag), .first, .variant.title(), .variant.first_to_move())]
    FirstMove {
        /// The tag's value.
        tag: String,
        /// The variant it names.
        variant: Variant,
        /// The side it says moves first.
        first: Color,
    },
    /// A `GameType` tag whose board is not square.
    #[error("the GameType tag {} has a {width}x{height} board; boards here are square", quoted(.tag))]
    NotSquare {
        /// The tag's value.
        tag: String,
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A board the variant is not played on.
    #[error("the GameType tag {}: {error}", quoted(.tag))]
    Board {
        /// The tag's value.
        tag: String,
        /// What is wrong with the board.
        error: GameTypeError,
    },
}

fn named(number: u32) -> String {
    game_type_name(number)
        .map(|n| format!(" ({n})"))
        .unwrap_or_default()
}

/// The names of PDN 3.0's draughts game types that are not among the variants.
fn game_type_name(number: u32) -> Option<&'static str> {
    match number {
        28 => Some("Portuguese draughts"),
        30 => Some("Turkish draughts"),
        40 => Some("Frisian draughts"),
        41 => Some("Spantsiretti draughts"),
        _ => None,
    }
}

/// A game type for people: "International draughts", or "English draughts on 10x10".
pub fn title(game_type: GameType) -> String {
    let name = game_type.variant.title();
    if game_type.size == game_type.variant.board_size() {
        name.to_string()
    } else {
        format!("{name} on {0}x{0}", game_type.size)
    }
}

/// Reads a `GameType` tag value: the number alone, or the number with the first side, the board, the notation
/// and the invert flag.
pub fn parse_game_type(tag: &str) -> Result<GameType, VariantError> {
    let unreadable = || VariantError::Unreadable(tag.to_string());
    let fields: Vec<&str> = tag.split(',').map(str::trim).collect();
    let number: u32 = fields[0].parse().map_err(|_| unreadable())?;
    let variant = Variant::from_game_type(number).ok_or(VariantError::Unsupported(number))?;
    let (first, width, height) = match fields[1..] {
        [] => return Ok(GameType::standard(variant)),
        [first, width, height, notation] | [first, width, height, notation, "0" | "1"]
            if is_notation(notation) =>
        {
            let side = |n: &str| n.parse::<u32>().map_err(|_| unreadable());
            let first = match first {
                "W" => Color::White,
                "B" => Color::Black,
                _ => return Err(unreadable()),
            };
            (first, side(width)?, side(height)?)
        }
        _ => return Err(unreadable()),
    };
    if first != variant.first_to_move() {
        return Err(VariantError::FirstMove {
            tag: tag.to_string(),
            variant,
            first,
        });
    }
    if width != height {
        return Err(VariantError::NotSquare {
            tag: tag.to_string(),
            width,
            height,
        });
    }
    let size = u8::try_from(width).unwrap_or(u8::MAX);
    GameType::new(variant, Some(size), None).map_err(|error| VariantError::Board {
        tag: tag.to_string(),
        error,
    })
}

/// Whether `text` is a PDN notation code: `A`, `N` or `S` and a corner 0 to 3.
fn is_notation(text: &str) -> bool {
    let bytes = text.as_bytes();
    matches!(bytes, [b'A' | b'N' | b'S', b'0'..=b'3'])
}

/// The notation code PDN 3.0's table gives each variant.
fn notation(variant: Variant) -> &'static str {
    match variant {
        Variant::English | Variant::Pool | Variant::Spanish => "N1",
        Variant::International
        | Variant::Italian
        | Variant::Canadian
        | Variant::Thai
        | Variant::Antidraughts
        | Variant::Breakthrough
        | Variant::Frisian
        | Variant::Frysk => "N2",
        Variant::Russian | Variant::Brazilian | Variant::Czech | Variant::Defined(_) => "A0",
    }
}

/// The `GameType` tag value for a game type: the plain number on the variant's own board, the long form
/// (`21,B,10,10,N1,0`) on another. The rows of men are not part of the tag: a game that starts otherwise is
/// written with its set-up position.
pub fn game_type_tag(game_type: GameType) -> String {
    let variant = game_type.variant;
    if game_type.size == variant.board_size() {
        return variant.game_type().to_string();
    }
    let first = variant.first_to_move().letter();
    format!(
        "{},{first},{size},{size},{},{}",
        variant.game_type(),
        notation(variant),
        u8::from(variant.is_mirrored()),
        size = game_type.size
    )
}

/// The game type of rule set `R`.
pub fn game_type_of_rules<R: RuleSet>() -> GameType {
    GameType {
        variant: R::VARIANT,
        size: R::GEOMETRY.width,
        rows: u8::try_from(R::START_ROWS).unwrap_or(u8::MAX),
    }
}

/// The game type a game is played under: its `GameType` tag, or a guess from its moves when it has none
/// (see [`game_type_of_or`]).
pub fn game_type_of(game: &GameText) -> Result<GameType, VariantError> {
    game_type_of_or(game, None)
}

/// The game type a game is played under: its `GameType` tag; without one, `default` when given (a file the
/// user says is Italian), else a guess. Files often leave the tag out: the guess is Canadian draughts for a
/// game that names squares past 50, international past 32, Italian for a game whose tags are Italian (`Bianco`,
/// `Nero`: the Italian federation's files), and otherwise English draughts unless the game replays further as
/// international draughts (the PDN standard's default).
pub fn game_type_of_or(
    game: &GameText,
    default: Option<GameType>,
) -> Result<GameType, VariantError> {
    if let Some(tag) = game.tags.get("GameType") {
        return parse_game_type(tag);
    }
    if let Some(default) = default {
        return Ok(default);
    }
    Ok(GameType::standard(guess(game)))
}

/// The variant of a game without a `GameType` tag.
fn guess(game: &GameText) -> Variant {
    if names_squares_past(game, 50) {
        Variant::Canadian
    } else if names_squares_past(game, 32) {
        Variant::International
    } else if has_italian_tags(game) {
        Variant::Italian
    } else {
        let english = replay::<English>(game);
        if english.error.is_none() {
            return Variant::English;
        }
        let international = replay::<International>(game);
        if international.game.len() > english.game.len() {
            Variant::International
        } else {
            Variant::English
        }
    }
}

/// Whether a game's guess needs more than its text: no tag, no default, and nothing that names the variant.
pub(super) fn needs_replay_to_guess(game: &GameText) -> bool {
    game.tags.get("GameType").is_none() && !names_squares_past(game, 32) && !has_italian_tags(game)
}

/// Whether a game's players are tagged in Italian, as the Italian federation's files have them.
fn has_italian_tags(game: &GameText) -> bool {
    game.tags.get("Bianco").is_some() && game.tags.get("Nero").is_some()
}

/// Whether the moves or the FEN of a game name a square number above `last`.
fn names_squares_past(game: &GameText, last: u32) -> bool {
    let numbers = |text: &str| {
        text.split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse::<u32>().ok())
            .any(|n| n > last)
    };
    game.moves.iter().any(|m| numbers(&m.text)) || game.tags.get("FEN").is_some_and(numbers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::parse_games;
    use crowned_rules::ENGLISH_SIZES;

    fn text(pdn: &str) -> GameText {
        parse_games(pdn).remove(0).expect("parses")
    }

    fn of(pdn: &str) -> Result<GameType, String> {
        game_type_of(&text(pdn)).map_err(|e| e.to_string())
    }

    fn standard(variant: Variant) -> Result<GameType, String> {
        Ok(GameType::standard(variant))
    }

    #[test]
    fn every_variant_by_its_number() {
        for variant in Variant::ALL {
            let pdn = format!("[GameType \"{}\"] *", variant.game_type());
            assert_eq!(of(&pdn), standard(variant));
        }
    }

    #[test]
    fn the_long_form() {
        assert_eq!(
            of("[GameType \"21,B,8,8,N2,0\"] *"),
            standard(Variant::English)
        );
        assert_eq!(
            of("[GameType \"22,W,8,8,N2,1\"] *"),
            standard(Variant::Italian)
        );
        assert_eq!(
            of("[GameType \"27,W,12,12,N2,0\"] *"),
            standard(Variant::Canadian)
        );
        assert_eq!(
            of("[GameType \"25,W,8,8,A0\"] *"),
            standard(Variant::Russian)
        );
        let ten = GameType::new(Variant::English, Some(10), None).expect("english 10x10");
        assert_eq!(of("[GameType \"21,B,10,10,N1,0\"] *"), Ok(ten));
    }

    #[test]
    fn what_the_tag_cannot_say() {
        assert_eq!(
            of("[GameType \"20,W,8,8,N2,0\"] *"),
            Err("the GameType tag \"20,W,8,8,N2,0\": international is played on 10x10 only, not 8x8".into())
        );
        assert_eq!(
            of("[GameType \"21,W,8,8,N1,0\"] *"),
            Err("the GameType tag \"21,W,8,8,N1,0\" has White moving first, but English draughts starts \
                 with Black"
                .into())
        );
        assert_eq!(
            of("[GameType \"21,B,10,8,N1,0\"] *"),
            Err(
                "the GameType tag \"21,B,10,8,N1,0\" has a 10x8 board; boards here are square"
                    .into()
            )
        );
        assert_eq!(
            of("[GameType \"21,B,16,16,N1,0\"] *").map_err(|e| e.contains("6x6 to 14x14")),
            Err(true)
        );
        for bad in [
            "draughts",
            "21,B,8,8",
            "21,X,8,8,N1",
            "21,B,8,8,Q1",
            "21,B,8,8,N1,2",
            "21,B,a,8,N1",
        ] {
            assert_eq!(
                of(&format!("[GameType \"{bad}\"] *")),
                Err(format!("the GameType tag \"{bad}\" is not a game type")),
                "{bad}"
            );
        }
        assert_eq!(
            of("[GameType \"30\"] *"),
            Err("unsupported game type 30 (Turkish draughts)".into())
        );
        assert_eq!(
            of("[GameType \"99\"] *"),
            Err("unsupported game type 99".into())
        );
    }

    #[test]
    fn written_and_read_back() {
        let mut types: Vec<GameType> = Variant::ALL.into_iter().map(GameType::standard).collect();
        for size in ENGLISH_SIZES {
            types.push(GameType::new(Variant::English, Some(size), None).expect("english"));
        }
        for game_type in types {
            let tag = game_type_tag(game_type);
            assert_eq!(parse_game_type(&tag), Ok(game_type), "{tag}");
        }
        assert_eq!(game_type_tag(GameType::standard(Variant::Italian)), "22");
        let twelve = GameType::new(Variant::English, Some(12), None).expect("english 12x12");
        assert_eq!(game_type_tag(twelve), "21,B,12,12,N1,0");
    }

    #[test]
    fn games_without_the_tag() {
        assert_eq!(of("1. 11-15 *"), standard(Variant::English));
        assert_eq!(of("1. 11-15 23-19 2. 11-16 *"), standard(Variant::English));
        // 32-28 is no English opening but is international draughts' most common one.
        assert_eq!(of("1. 32-28 *"), standard(Variant::International));
        assert_eq!(of("1. 33-28 *"), standard(Variant::International));
        assert_eq!(
            of("[FEN \"W:W31-50:B1-20\"] *"),
            standard(Variant::International)
        );
        assert_eq!(of("1. 51-46 *"), standard(Variant::Canadian));
        assert_eq!(
            of("[Bianco \"Rossi\"]\n[Nero \"Bianchi\"]\n1. 21-17 *"),
            standard(Variant::Italian)
        );
        let italian = Some(GameType::standard(Variant::Italian));
        assert_eq!(
            game_type_of_or(&text("1. 21-17 *"), italian),
            Ok(GameType::standard(Variant::Italian))
        );
        // The tag wins over the caller's default.
        assert_eq!(
            game_type_of_or(&text("[GameType \"25\"] 1. c3-d4 *"), italian),
            Ok(GameType::standard(Variant::Russian))
        );
    }

    #[test]
    fn rule_sets_know_their_game_type() {
        use crowned_rules::{Canadian, EnglishOn, Russian, Thai};
        assert_eq!(
            game_type_of_rules::<English>(),
            GameType::standard(Variant::English)
        );
        assert_eq!(
            game_type_of_rules::<International>(),
            GameType::standard(Variant::International)
        );
        assert_eq!(
            game_type_of_rules::<Russian>(),
            GameType::standard(Variant::Russian)
        );
        assert_eq!(
            game_type_of_rules::<Thai>(),
            GameType::standard(Variant::Thai)
        );
        assert_eq!(
            game_type_of_rules::<Canadian>(),
            GameType::standard(Variant::Canadian)
        );
        assert_eq!(
            game_type_of_rules::<EnglishOn<10>>(),
            GameType::new(Variant::English, Some(10), None).expect("valid")
        );
    }

    #[test]
    fn rules_are_chosen_by_game_type() {
        let game = text("1. 32-28 19-23 2. 28x19 14x23 *");
        let opened = |game_type| crate::pdn::open_game(&game, Some(game_type)).0;
        assert_eq!(opened(GameType::standard(Variant::International)).len(), 4);
        assert_eq!(opened(GameType::standard(Variant::English)).len(), 0);
        // Every game type has its rule set: the English moves replay on 10x10 too, as far as they are legal.
        for game_type in [
            GameType::standard(Variant::Italian),
            GameType::standard(Variant::Canadian),
            GameType::new(Variant::English, Some(10), None).expect("english 10x10"),
        ] {
            let game = opened(game_type);
            assert_eq!(game.variant(), game_type.variant, "{game_type}");
            assert_eq!(game.geometry().width, game_type.size, "{game_type}");
        }
    }

    #[test]
    fn the_international_and_italian_conformance_files() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/data/pdn/conformance/succeed");
        // (file, games, the game type of each)
        let expected = [
            ("wk2003.pdn", 23, Variant::International),
            ("Campionato_Assoluto_2005.pdn", 53, Variant::Italian),
        ];
        for (file, games, variant) in expected {
            let Ok(bytes) = std::fs::read(dir.join(file)) else {
                eprintln!("skipped: reference data {file} not readable");
                continue;
            };
            let parsed: Vec<GameText> = parse_games(&String::from_utf8_lossy(&bytes))
                .into_iter()
                .map(|g| g.expect("parses"))
                .collect();
            assert_eq!(parsed.len(), games, "{file}");
            for game in &parsed {
                assert_eq!(
                    game_type_of(game),
                    Ok(GameType::standard(variant)),
                    "{file}"
                );
            }
        }
    }
}
