//! PDN for games of defined variants: the definition travels in the game's tags, so the file replays anywhere.
//!
//! A defined game is written with `[Variant "name"]` and `[VariantDefinition "..."]`, the definition's whole
//! TOML text. A tag value holds one line and PDN escapes only `\"` and `\\`, so the text is first put on one
//! line by an escape of its own, undone after PDN's: a backslash is written `\\` and a line end `\n` (which
//! PDN's writer then doubles, as it does every backslash). Reading registers the definition
//! ([`register`]), which checks it and bounds its size; a bad definition is an error for that game only.

use super::parse::GameText;
use super::replay::{MoveNumber, ReplayError};
use super::write::{DERIVED, is_tag_name, push_comment, push_tag, wrap};
use crate::game::defined::DefinedGame;
use crate::game::marks::MoveMark;
use crate::game::tags::ROSTER;
use crate::rules::defined::{DefinedId, RegistryError, from_fen, parse_move, register, to_fen};

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

/// The definition a game's tags carry, registered: `None` when they carry none.
pub fn definition_of(text: &GameText) -> Option<Result<DefinedId, RegistryError>> {
    let value = text.tags.get(DEFINITION_TAG)?;
    Some(match decode_definition(value) {
        Some(definition) => register(&definition),
        None => Err(RegistryError::Definition(
            crate::rules::defined::DefinitionError::Syntax {
                line: None,
                message: format!("the {DEFINITION_TAG} tag has an escape other than \\\\ or \\n"),
            },
        )),
    })
}

/// A defined game as canonical PDN.
pub fn write_defined(game: &DefinedGame) -> String {
    let mut out = String::new();
    let result = game.result_token(game.final_outcome());
    for name in ROSTER {
        let value = if name == "Result" {
            Some(result)
        } else {
            game.tags().get(name)
        };
        if let Some(value) = value {
            push_tag(&mut out, name, value);
        }
    }
    let entry = game.start().entry();
    push_tag(&mut out, VARIANT_TAG, &entry.rules.name);
    push_tag(&mut out, DEFINITION_TAG, &encode_definition(&entry.text));
    if game.is_set_up() {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &to_fen(game.start()));
    }
    for (name, value) in game.tags().iter() {
        let ours = [VARIANT_TAG, DEFINITION_TAG].contains(&name);
        if !ROSTER.contains(&name) && !DERIVED.contains(&name) && !ours && is_tag_name(name) {
            push_tag(&mut out, name, value);
        }
    }
    out.push('\n');
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
        None => crate::rules::defined::DefinedBoard::start(id),
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
                let mark = token
                    .annotations
                    .iter()
                    .find_map(|a| MoveMark::from_annotation(a));
                game.set_mark(ply + 1, mark);
            }
            Err(reason) => {
                error = Some(ReplayError::Move {
                    number: MoveNumber::of_ply(ply, start.side_to_move(), first),
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
