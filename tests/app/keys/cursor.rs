//! The cursor measured: the fewest keys that reach a square, a real game played by cursor alone, and a step
//! along a diagonal.

use crowned::app::{App, Key, KeyCode, Modifiers, action_for_key};
use crowned::rules::Square;

use super::press;
use crate::common::app::{HUMANS, sq};

/// The arrow keys the app answers to on the board.
const ARROWS: [(&str, KeyCode); 4] = [
    ("<Up>", KeyCode::Up),
    ("<Down>", KeyCode::Down),
    ("<Left>", KeyCode::Left),
    ("<Right>", KeyCode::Right),
];

/// The fewest arrow keys that take the cursor to `target`, found by a breadth-first search over the app's own
/// answers to the keys (so the same search measures any cursor). States are told apart by the square and by
/// where each arrow would go next, which is all a player can see of what the cursor remembers.
fn arrows_to(app: &App, target: Square) -> String {
    use std::collections::{HashSet, VecDeque};
    let step = |app: &App, code: KeyCode| {
        let mut next = app.clone();
        if let Some(action) = action_for_key(&next, Key::new(code, Modifiers::NONE)) {
            let _ = next.update(action);
        }
        next
    };
    let signature = |app: &App| {
        let mut sig = vec![app.cursor_square()];
        sig.extend(
            ARROWS
                .iter()
                .map(|&(_, code)| step(app, code).cursor_square()),
        );
        sig
    };
    let mut seen = HashSet::from([signature(app)]);
    let mut queue = VecDeque::from([(app.clone(), String::new())]);
    while let Some((state, keys)) = queue.pop_front() {
        if state.cursor_square() == Some(target) {
            return keys;
        }
        for (name, code) in ARROWS {
            let next = step(&state, code);
            if seen.insert(signature(&next)) {
                queue.push_back((next, format!("{keys}{name}")));
            }
        }
    }
    panic!("the cursor never reaches {}", target.number());
}

/// Keys pressed (arrows and Space) to play `plies` moves of a real game by cursor alone, each move reached by the
/// fewest arrows the cursor allows.
fn cursor_keys_for_a_real_game(plies: usize) -> Option<usize> {
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pdn/sample.pdn");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} is missing", path.display());
        return None;
    };
    let entry = crowned::store::games_in_text(&text, "sample.pdn")
        .into_iter()
        .next()
        .expect("a game");
    let game = entry.game.into_game();
    let (mut app, _) = App::new(HUMANS);
    let mut keys = 0;
    for mv in game.moves().iter().take(plies) {
        for square in std::iter::once(mv.from()).chain(mv.path().iter().copied()) {
            let arrows = arrows_to(&app, square);
            let script = format!("{arrows}<Space>");
            keys += script.matches('<').count();
            press(&mut app, &script);
        }
        assert_eq!(app.game().moves().last(), Some(mv), "{}", app.status());
    }
    Some(keys)
}

#[test]
fn the_first_twenty_moves_of_a_real_game_by_cursor() {
    // Twenty moves each (forty plies) of the sample game, played by arrows and Space alone. The figure is printed
    // for the README; a man's step is one arrow from its square and a jump one arrow a row, so the whole is
    // bounded well below what a zigzag cursor needed.
    let Some(keys) = cursor_keys_for_a_real_game(40) else {
        return;
    };
    println!("keys to play 40 plies by cursor: {keys}");
    assert!(keys < 40 * 6, "{keys} keys");
}

#[test]
fn a_step_along_a_diagonal_is_one_key_and_up_then_down_comes_back() {
    let (mut app, _) = App::new(HUMANS);
    // 11 and its moves to 15 and 16: select it, then one arrow reaches one of them and Left or Right the other.
    let eleven = sq(11);
    let script = format!("{}<Space>", arrows_to(&app, eleven));
    press(&mut app, &script);
    assert_eq!(app.picker().selected(), Some(eleven));
    let first = arrows_to(&app, sq(15));
    let second = arrows_to(&app, sq(16));
    assert!(
        first.matches('<').count() + second.matches('<').count() <= 3,
        "{first} {second}"
    );
    // Up then Down comes back to the square it left, whichever way the board is turned.
    for flip in ["", "f"] {
        let (mut app, _) = App::new(HUMANS);
        press(&mut app, flip);
        for start in 1..=32 {
            let square = sq(start);
            let script = arrows_to(&app, square);
            press(&mut app, &script);
            let mut moved = app.clone();
            press(&mut moved, "<Up>");
            if moved.cursor_square() != Some(square) {
                press(&mut moved, "<Down>");
                assert_eq!(moved.cursor_square(), Some(square), "from {start}");
            }
        }
    }
}
