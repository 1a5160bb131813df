//! The settings file's shape for serde: what is read (every setting optional, nothing unknown allowed) and
//! what is written (every setting, in the order of `config/default.toml`).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use crate::keymap::{Context, KeyChord, KeyMap};

/// A settings file as written: every setting optional, nothing unknown allowed.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a table of settings")]
pub(super) struct Layer {
    /// Read setting by setting by the `[players]` table's schema.
    pub(super) players: Option<toml::Table>,
    /// Read by the `[engine]` table's schema.
    pub(super) engine: Option<toml::Table>,
    /// Read setting by setting by the `[display]` table's schema.
    pub(super) display: Option<toml::Table>,
    /// Read setting by setting by the `[game]` table's schema, its game type by [`super::game_settings::GameTypeLayer`].
    pub(super) game: Option<toml::Table>,
    /// Read setting by setting by the `[server]` table's schema, which names each mistake itself.
    pub(super) server: Option<toml::Table>,
    /// Context name, then command name, then keys. Names are checked against the key table, which the types
    /// here cannot know.
    pub(super) keys: Option<BTreeMap<String, BTreeMap<String, KeyList>>>,
}

/// The keys of a command: a list of key names, or one name on its own.
#[derive(Debug, Default)]
pub(super) struct KeyList(pub(super) Vec<String>);

impl<'de> Deserialize<'de> for KeyList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<KeyList, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = KeyList;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of key names such as [\"u\", \"Ctrl-r\"]")
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<KeyList, E> {
                Ok(KeyList(vec![key.to_string()]))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KeyList, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = seq.next_element::<String>()? {
                    keys.push(key);
                }
                Ok(KeyList(keys))
            }
        }
        deserializer.deserialize_any(Keys)
    }
}

#[derive(Serialize)]
pub(super) struct FileOut<'a> {
    pub(super) players: super::schema::Printed,
    pub(super) engine: super::schema::Printed,
    pub(super) display: super::schema::Printed,
    pub(super) game: super::schema::Printed,
    pub(super) server: super::schema::Printed,
    pub(super) keys: KeysOut<'a>,
}

/// The key map as tables of contexts, each listing its commands in the table's order.
pub(super) struct KeysOut<'a>(pub(super) &'a KeyMap);

pub(super) struct ContextOut<'a>(pub(super) &'a KeyMap, Context);

impl Serialize for KeysOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Context::ALL.len()))?;
        for context in Context::ALL {
            map.serialize_entry(context.name(), &ContextOut(self.0, context))?;
        }
        map.end()
    }
}

impl Serialize for ContextOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let ContextOut(keys, context) = *self;
        let mut map = serializer.serialize_map(None)?;
        for (command, chords) in keys.bindings(context) {
            let names: Vec<String> = chords.iter().map(KeyChord::to_string).collect();
            map.serialize_entry(command.name, &names)?;
        }
        map.end()
    }
}
