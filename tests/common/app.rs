//! The app as a front end drives it, with no terminal: built from a position, its effects carried out at once.

use crowned::app::EngineNews;
use std::collections::VecDeque;

use crowned::app::{
    Action, App, Effect, Key, KeyCode, Modifiers, Player, Players, Timer, action_for_key,
};
use crowned::engine::{Engine, Limits};
use crowned::game::AnyGame;
use crowned::rules::{GameType, Square};

/// Two people at one keyboard.
pub const HUMANS: Players = Players {
    black: Player::Human,
    white: Player::Human,
};

/// The depth the engine searches when a test answers for it: deep enough to take what is offered, quick in a
/// debug build.
pub const ANSWER_DEPTH: u32 = 4;

/// Square `n` of the 8x8 board (1-32).
pub fn sq(n: u32) -> Square {
    Square::from_number(n, 32).expect("test square")
}

/// An app playing from `fen` with these players; a game from a position asks for nothing at first.
pub fn app_from(fen: &str, players: Players) -> App {
    app_of(GameType::default(), fen, players)
}

/// An app playing a game of `game_type` from `fen` with these players.
pub fn app_of(game_type: GameType, fen: &str, players: Players) -> App {
    let game = AnyGame::from_fen(game_type, fen).expect("test FEN");
    let (app, effects) = App::with_game(game, players);
    assert!(effects.is_empty(), "{effects:?}");
    app
}

/// Carries out effects as a front end would, at once: runs the engine for each `Think` (to [`ANSWER_DEPTH`])
/// and feeds its answer back, and fires each timer asked for but the clocks' (no time passes here). Returns what
/// is left (saves, archives, quitting, draw judgements), without the requests to save the game in progress that
/// every change makes.
pub fn answer(app: &mut App, effects: Vec<Effect>) -> Vec<Effect> {
    let mut queue: VecDeque<Effect> = effects.into();
    let mut left = Vec::new();
    while let Some(effect) = queue.pop_front() {
        match effect {
            Effect::Think {
                search,
                situation,
                level,
                ..
            } => {
                let result = Engine::new().think(
                    &situation,
                    level,
                    &Limits::depth(ANSWER_DEPTH),
                    0,
                    &mut |_| {},
                );
                queue.extend(app.update(Action::Engine(EngineNews::Moved {
                    search,
                    mv: result.best,
                })));
            }
            // No time passes here: a clock's wake-up would only ask again for the next second.
            Effect::Wake {
                timer: Timer::Clock,
                ..
            } => {}
            Effect::Wake { timer, .. } => queue.extend(app.update(Action::Timer(timer))),
            Effect::GameChanged(_) => {}
            // The prover's question answered at once, as a worker would a moment later.
            Effect::Prove {
                question,
                prover,
                asked,
            } => queue.extend(app.update(Action::Proved {
                question,
                answer: prover.answer(&asked),
            })),
            other => left.push(other),
        }
    }
    left
}

/// Presses one key, as the front end would: its action, if it has one here, goes to the app.
pub fn key(app: &mut App, code: KeyCode) {
    let key = Key {
        code,
        modifiers: Modifiers::default(),
    };
    if let Some(action) = action_for_key(app, key) {
        let _ = app.update(action);
    }
}

/// Presses one key as [`key`] does, and carries out what it leads to at once ([`answer`]).
pub fn press(app: &mut App, code: KeyCode) {
    let key = Key {
        code,
        modifiers: Modifiers::default(),
    };
    if let Some(action) = action_for_key(app, key) {
        let effects = app.update(action);
        let _ = answer(app, effects);
    }
}

/// Walks the cursor to `square` with the arrow keys: up or down a row at a time, then along the row.
pub fn walk_to(app: &mut App, square: Square) {
    let (row, col) = app.board().row_col(square);
    for _ in 0..64 {
        let (now_row, now_col) = app.cursor();
        let code = if now_row > row {
            KeyCode::Up
        } else if now_row < row {
            KeyCode::Down
        } else if now_col > col {
            KeyCode::Left
        } else if now_col < col {
            KeyCode::Right
        } else {
            return;
        };
        key(app, code);
    }
    panic!(
        "the cursor did not reach {square} (it is at {:?})",
        app.cursor()
    );
}
