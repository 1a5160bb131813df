//! PDN for games of defined variants: the definition travels in the game's tags, so the file replays anywhere.
//!
//! A defined game is written with `[Variant "name"]` and `[VariantDefinition "..."]`, the definition's whole
//! TOML text. A tag value holds one line and PDN escapes only `\"` and `\\`, so the text is first put on one
//! line by an escape of its own, undone after PDN's: a backslash is written `\\` and a line end `\n` (which
//! PDN's writer then doubles, as it does every backslash). Reading registers the definition
//! ([`register`]), which checks it and bounds its size; a bad definition is an error for that game only.

use super::parse::GameText;
use super::replay::{Replayed, replay_from};
use crowned_rules::Defined;
use crowned_rules::defined::{
    DefinedBoard, DefinedId, DefinedRules, RegistryError, definition_only_builtins, register,
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

/// The tags a defined game's PDN makes from its definition: its `GameType` number where it has one, its name,
/// and the definition itself.
pub(super) fn defined_tags(id: DefinedId) -> Vec<(&'static str, String)> {
    let entry = id.get();
    let mut own = Vec::new();
    if let Some(number) = entry.rules.game_type {
        own.push(("GameType", number.to_string()));
    }
    own.extend([
        (VARIANT_TAG, entry.rules.name.clone()),
        (DEFINITION_TAG, encode_definition(&entry.text)),
    ]);
    own
}

/// Replays a game's text under the definition `id`: as far as its moves go, with the first error.
pub fn replay_defined(text: &GameText, id: DefinedId) -> Replayed<Defined> {
    replay_from(text, DefinedBoard::start(id))
}
