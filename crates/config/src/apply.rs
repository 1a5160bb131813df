//! How a layer of settings (the user's file) is laid over the settings, section by section: each value that
//! cannot be used is noted with its setting's path, and the others are used.

use super::Settings;
use super::game_settings::GameTypeLayer;
use super::layers::Layer;
use std::path::Path;

use crate::rules::{GameType, Variant};
use crate::store::variant_by_name;

/// The values that could not be used: each with its setting's path (`["engine", "time"]`) and what is wrong.
pub(super) type Problems = Vec<(Vec<String>, String)>;

impl Settings {
    /// Lays a layer's values over these settings; each value that cannot be used is added to `problems` with
    /// its setting's path.
    /// `variants` is the folder where a definition named by `game.variant` is looked for.
    pub(super) fn apply(&mut self, layer: Layer, problems: &mut Problems, variants: Option<&Path>) {
        if let Some(players) = layer.players {
            self.players.apply(players, &mut |name, message| {
                problems.push((vec!["players".to_string(), name.to_string()], message));
            });
        }
        if let Some(engine) = layer.engine {
            self.engine.apply(engine, &mut |name, message| {
                problems.push((vec!["engine".to_string(), name.to_string()], message));
            });
        }
        if let Some(display) = layer.display {
            self.display.apply(display, &mut |name, message| {
                problems.push((vec!["display".to_string(), name.to_string()], message));
            });
        }
        if let Some(game) = layer.game {
            let mut problem = |name: &str, message: String| {
                problems.push((vec!["game".to_string(), name.to_string()], message));
            };
            let game_type = GameTypeLayer::of(&game, &mut problem);
            self.game.apply(game, &mut problem);
            self.apply_game_type(&game_type, problems, variants);
        }
        if let Some(server) = layer.server {
            self.server.apply(server, &mut |name, message| {
                problems.push((vec!["server".to_string(), name.to_string()], message));
            });
        }
        if let Some(keys) = layer.keys {
            self.apply_keys(keys, problems);
        }
    }

    /// `game.variant`, `game.size` and `game.rows`, checked together: a size or row count only means something
    /// for its variant. A variant given alone brings its own board and rows.
    fn apply_game_type(
        &mut self,
        game: &GameTypeLayer,
        problems: &mut Problems,
        variants: Option<&Path>,
    ) {
        if game.is_empty() {
            return;
        }
        let mut problem = |name: &str, message: String| {
            problems.push((vec!["game".to_string(), name.to_string()], message));
        };
        let variant = match &game.variant {
            Some(name) => match variant_by_name(name, variants) {
                Ok(variant) => {
                    let defined = matches!(variant, Variant::Defined(_));
                    self.variant_name = defined.then(|| name.trim().to_string());
                    variant
                }
                Err(e) => return problem("variant", e.to_string()),
            },
            None => self.game_type.variant,
        };
        let small = |name: &str, value: Option<i64>| match value.map(u8::try_from) {
            Some(Ok(n)) => Ok(Some(n)),
            Some(Err(_)) => Err((
                name.to_string(),
                format!("{} is out of range", value.unwrap_or_default()),
            )),
            None => Ok(None),
        };
        let checked = small("size", game.size)
            .and_then(|size| Ok((size, small("rows", game.rows)?)))
            .and_then(|(size, rows)| {
                GameType::new(variant, size, rows).map_err(|e| {
                    let name = if game.rows.is_some() && game.size.is_none() {
                        "rows"
                    } else {
                        "size"
                    };
                    (name.to_string(), e.to_string())
                })
            });
        match checked {
            Ok(game_type) => self.game_type = game_type,
            Err((name, message)) => problem(&name, message),
        }
    }
}
