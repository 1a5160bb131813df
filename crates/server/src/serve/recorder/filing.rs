//! Finished games between people filed among each player's saved games, by the recorder's thread, and the hook
//! told of each filing (a node of several pushes that player's folder to the others).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::engine::{Player, Players};
use crate::game::AnyGame;
use crate::serve::identity::Identity;
use crate::store::{SavedGame, Store};

/// What is told of each player a finished game has just been filed for (when the server is one node of several,
/// their folder is pushed to the others: see [`super::Recorder::on_filed`]).
pub type FiledHook = Arc<dyn Fn(&Identity) + Send + Sync>;

/// The hook the thread calls after a filing, once it is set.
#[derive(Clone, Default)]
pub(super) struct OnFiled(pub(super) Arc<OnceLock<FiledHook>>);

impl std::fmt::Debug for OnFiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "OnFiled(hook)"
        } else {
            "OnFiled(none)"
        })
    }
}

/// Files `game` among the saved games of each of `people` (under `players`); those it could not file for (a
/// failure is logged), to try again.
pub(super) fn file_for_players(
    players: Option<&Path>,
    filed: &OnFiled,
    people: &[Identity],
    game: &AnyGame,
    name: &str,
) -> Vec<Identity> {
    let Some(players) = players else {
        return Vec::new();
    };
    let saved = SavedGame {
        game: game.clone(),
        // Both sides were people; read back, the game is one to browse or continue at one keyboard.
        players: Players {
            black: Player::Human,
            white: Player::Human,
        },
        file: None,
        clock: None,
    };
    let mut left = Vec::new();
    for person in people.iter().filter(|p| !p.is_guest()) {
        let store = Store::under(&players.join(person.folder_name()));
        match store.file_game(&saved, Some(name)) {
            Ok(_) => {
                if let Some(hook) = filed.0.get() {
                    hook(person);
                }
            }
            Err(e) => {
                tracing::error!(player = %person.fingerprint, error = %e, "cannot file a finished game");
                left.push(person.clone());
            }
        }
    }
    left
}
