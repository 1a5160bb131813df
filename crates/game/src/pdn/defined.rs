//! PDN for games of defined variants: the definition travels in the game's tags, so the file replays anywhere.
//!
//! A defined game is written with `[Variant "name"]` and `[VariantDefinition "..."]`, the definition's whole
//! TOML text. A tag value holds one line and PDN escapes only `\"` and `\\`, so the text is first put on one
//! line by an escape of its own, undone after PDN's: a backslash is written `\\` and a line end `\n` (which
//! PDN's writer then doubles, as it does every backslash). Reading registers the definition
//! ([`register`]), which checks it and bounds its size; a bad definition is an error for that game only.

use super::parse::GameText;
use super::replay::ReplayError;
use super::write::{push_comment, push_tags, wrap};
use crate::MoveNumber;
use crate::defined::DefinedGame;
use crowned_rules::defined::{
    DefinedId, DefinedRules, RegistryError, definition_only_builtins, from_fen, parse_move,
    register, to_fen,
};

/// The tag that holds a defined variant's definition.
pub const DEFINITION_TAG: &str = "VariantDefinition";
/// The tag that names the variant.
pub const VARIANT_TAG: &str = "Variant";

/// The definition text put on one line for a tag value.
pub fn encode_definition(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// The definition text back from a tag value; `None` for an escape [`encode_definition`] never writes.
pub fn decode_definition(value: &str) -> Option<String> {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                '\\' => out.push('\\'),
                'n' => out.push('\n'),
                _ => return None,
            },
            c => out.push(c),
        }
    }
    Some(out)
}

/// The definition a game is played under, registered: the one its tags carry, else the built-in one its game
/// type names (Turkish); `None` for a game of a built-in variant.
pub fn definition_of(text: &GameText) -> Option<Result<DefinedId, RegistryError>> {
    carried_definition(text).or_else(|| builtin_definition_of(text))
}

/// The definition a game's tags carry, registered: `None` when they carry none.
fn carried_definition(text: &GameText) -> Option<Result<DefinedId, RegistryError>> {
    let value = text.tags.get(DEFINITION_TAG)?;
    Some(match decode_definition(value) {
        Some(definition) => register(&definition),
        None => Err(RegistryError::Definition(
            crowned_rules::defined::DefinitionError::Syntax {
                line: None,
                message: format!("the {DEFINITION_TAG} tag has an escape other than \\\\ or \\n"),
            },
        )),
    })
}

/// The definition a game is played under when it carries none but its `GameType` tag names a variant crowned
/// plays from a built-in definition (`[GameType "30"]`, Turkish draughts, as other programs write it).
fn builtin_definition_of(text: &GameText) -> Option<Result<DefinedId, RegistryError>> {
    let tag = text.tags.get("GameType")?;
    // The number, alone or before the board's description (`30,W,8,8,A0,0`).
    let number: u32 = tag.split(',').next()?.trim().parse().ok()?;
    // Read once: the game type of each definition-only built-in, so that a file of thousands of games parses
    // no definition per game.
    static NUMBERED: std::sync::OnceLock<Vec<(u32, &'static str)>> = std::sync::OnceLock::new();
    let numbered = NUMBERED.get_or_init(|| {
        definition_only_builtins()
            .filter_map(|(_, text)| Some((DefinedRules::from_toml(text).ok()?.game_type?, text)))
            .collect()
    });
    numbered
        .iter()
        .find(|(n, _)| *n == number)
        .map(|(_, text)| register(text))
}

/// A defined game as canonical PDN.
pub fn write_defined(game: &DefinedGame) -> String {
    let mut out = String::new();
    let result = game.result_token(game.final_outcome());
    let entry = game.start().entry();
    let mut own = Vec::new();
    if let Some(number) = entry.rules.game_type {
        own.push(("GameType", number.to_string()));
    }
    own.extend([
        (VARIANT_TAG, entry.rules.name.clone()),
        (DEFINITION_TAG, encode_definition(&entry.text)),
    ]);
    if game.is_set_up() {
        own.extend([("SetUp", "1".to_string()), ("FEN", to_fen(game.start()))]);
    }
    push_tags(&mut out, game.tags(), result, &own);
    let mut words = Vec::new();
    push_comment(&mut words, game.comment(0));
    let mut number_next = true;
    for ply in 1..=game.len() {
        let Some(number) = game.move_number(ply) else {
            continue;
        };
        if !number.second || number_next {
            words.push(number.to_string());
        }
        if let Some(text) = game.move_text(ply) {
            match game.mark(ply) {
                Some(mark) => words.push(format!("{text}{mark}")),
                None => words.push(text),
            }
        }
        number_next = push_comment(&mut words, game.comment(ply));
    }
    words.push(result.to_string());
    wrap(&words, &mut out);
    out
}

/// Replays a game's text under the definition `id`: as far as its moves go, with the first error.
pub fn replay_defined(text: &GameText, id: DefinedId) -> (DefinedGame, Option<ReplayError>) {
    let start = match text.tags.get("FEN") {
        Some(fen) => match from_fen(id, fen) {
            Ok(board) => board,
            Err(error) => {
                let mut game = DefinedGame::new(id);
                *game.tags_mut() = text.tags.clone();
                let fen = fen.to_string();
                return (game, Some(ReplayError::Fen { fen, error }));
            }
        },
        None => crowned_rules::defined::DefinedBoard::start(id),
    };
    let mut game = DefinedGame::from_position(start);
    game.set_comment(0, text.intro.clone());
    let first = id.get().rules.first;
    let mut error = None;
    for (ply, token) in text.moves.iter().enumerate() {
        match parse_move(game.position(), &token.text) {
            Ok(mv) => {
                game.push(mv);
                game.set_comment(ply + 1, token.comment.clone());
                game.set_mark(ply + 1, token.mark());
            }
            Err(reason) => {
                error = Some(ReplayError::Move {
                    number: MoveNumber::of_ply_from(start.side_to_move(), first, ply),
                    ply,
                    text: token.text.clone(),
                    reason: reason.to_string(),
                    line: token.line,
                    column: token.column,
                });
                break;
            }
        }
    }
    *game.tags_mut() = text.tags.clone();
    game.go_to(game.len());
    if error.is_none()
        && game.final_outcome().is_none()
        && let Some(outcome) = text
            .result
            .as_deref()
            .and_then(|r| super::replay::outcome_of_result(r, first))
    {
        // Declaring at the end of a game the rules have not ended cannot fail.
        let _ = game.declare(outcome);
    }
    (game, error)
}
