//! The harness shared by the integration tests: random positions for property tests, and the app driven as a
//! front end would drive it (construction, squares, the engine's answers). Each test file uses the part it needs.

#![allow(dead_code, unused_imports)]

pub mod app;
mod positions;
pub mod screen;

pub use positions::{arbitrary_position, played_position};

/// Ends an unfinished game the way a record may: `0` by the side to move resigning, `1` by agreement, anything
/// else not at all (a game already over is left as it is).
pub fn declare_ending(game: &mut crowned::game::Game, ending: u8) {
    if game.outcome().is_none() {
        let side = game.position().side_to_move();
        let _ = match ending {
            0 => game.resign(side),
            1 => game.agree_draw(),
            _ => Ok(()),
        };
    }
}
