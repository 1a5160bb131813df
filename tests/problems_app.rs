//! The problem trainer driven by keys: a whole problem solved, a wrong move told with its refutation and taken
//! back, hints, moving between problems, and the problem screen.

use crowned::app::{Action, App, Attempt, HintStage, KeyCode, Timer};
use crowned::problems::{Problem, Prover, builtin_problems};
use crowned::rules::{Color, SquareStyle};

use crate::common;

use common::app::{key, sq, walk_to};
use common::screen::screen;

/// Gould's twelfth: White kings 17 and 27 against a man on 18 and kings on 29 and 30; 17-22! wins.
const TWELFTH: &str = "Gould's Problems #12";

fn trainer_on(title: &str) -> App {
    let problems = builtin_problems();
    let at = problems
        .iter()
        .position(|p| p.title == title)
        .expect("the problem is in the built-in collection");
    let mut ordered: Vec<Problem> = problems[at..].to_vec();
    ordered.extend_from_slice(&problems[..at]);
    let (app, effects) = App::training(ordered, Prover::new(None));
    assert!(effects.is_empty(), "{effects:?}");
    app
}

/// Types `text` key by key and presses Enter, then lets any move shown step to its end.
fn type_keys(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
    key(app, KeyCode::Enter);
    settle(app);
}

fn settle(app: &mut App) {
    while app.animation().is_some() {
        let _ = app.update(Action::Timer(Timer::Animation));
    }
}

fn moves_played(app: &App) -> Vec<String> {
    let game = app.game();
    (1..=game.ply())
        .filter_map(|ply| game.move_text(ply, SquareStyle::Numbers))
        .collect()
}

#[test]
fn a_whole_problem_is_solved_by_keys_and_counted() {
    let mut app = trainer_on(TWELFTH);
    let trainer = app.trainer().expect("the trainer is open");
    assert_eq!(trainer.problem().heading(), "White to play and win");
    assert_eq!(app.status(), "White to play and win");
    assert_eq!(trainer.solved_count(), 0);

    // The first move by the cursor: the king on 17 to 22.
    walk_to(&mut app, sq(17));
    key(&mut app, KeyCode::Char(' '));
    walk_to(&mut app, sq(22));
    key(&mut app, KeyCode::Char(' '));
    settle(&mut app);
    // Kept, and answered: Black must take, 18x25.
    assert_eq!(moves_played(&app), ["17-22", "18x25"], "{}", app.status());
    assert_eq!(app.status(), "right: go on");

    // The rest typed: every move of White's is answered until Black has nothing left.
    type_keys(&mut app, "27-23");
    assert_eq!(moves_played(&app).len(), 4, "{}", app.status());
    let answer = moves_played(&app)[3].clone();
    assert_eq!(answer, "30-26", "the defence");
    type_keys(&mut app, "23x21");
    if app
        .trainer()
        .is_some_and(|t| *t.attempt() != Attempt::Solved)
    {
        // The defence's reply, then the last capture.
        type_keys(&mut app, "21x30");
    }
    let trainer = app.trainer().expect("still open");
    assert_eq!(*trainer.attempt(), Attempt::Solved, "{}", app.status());
    assert_eq!(trainer.solved_count(), 1);
    assert!(app.game().position().legal_moves().is_empty());
    assert_eq!(app.game().position().side_to_move(), Color::Black);
    assert!(app.status().starts_with("solved! 1 of"), "{}", app.status());

    // `]` goes on to the next problem, from its start; the count stays.
    key(&mut app, KeyCode::Char(']'));
    let trainer = app.trainer().expect("still open");
    assert_eq!(trainer.index(), 1);
    assert_eq!(trainer.solved_count(), 1);
    assert_eq!(*trainer.attempt(), Attempt::Solving);
    assert_eq!(app.game().ply(), 0);
    assert_eq!(app.status(), trainer.problem().heading());
}

#[test]
fn a_wrong_move_is_taken_back_with_its_refutation() {
    let mut app = trainer_on(TWELFTH);
    let start = app.game().position();
    // 17-13 lets the shot go: no win for White can be proved after it.
    type_keys(&mut app, "17-13");
    let trainer = app.trainer().expect("open");
    let Attempt::Wrong {
        tried,
        refutation,
        verdict,
    } = trainer.attempt().clone()
    else {
        panic!("not judged wrong: {}", app.status());
    };
    assert_eq!(tried, "17-13");
    assert!(
        app.status().starts_with("17-13 is wrong"),
        "{}",
        app.status()
    );
    assert!(app.status().contains(&verdict));
    if !refutation.is_empty() {
        assert!(app.status().contains(&refutation));
    }
    // Taken back: the problem's position again, and the miss counted.
    assert_eq!(app.game().position(), start);
    assert_eq!(app.game().ply(), 0);
    assert_eq!(trainer.misses(), 1);
    // The right move is still accepted.
    type_keys(&mut app, "17-22");
    assert_eq!(moves_played(&app), ["17-22", "18x25"], "{}", app.status());
}

#[test]
fn hints_give_the_piece_then_the_move() {
    let mut app = trainer_on(TWELFTH);
    key(&mut app, KeyCode::Char('H'));
    assert_eq!(
        app.trainer().map(|t| t.hint_stage()),
        Some(HintStage::Piece)
    );
    assert_eq!(app.status(), "hint: move the piece on 17");
    assert_eq!(app.cursor_square(), Some(sq(17)));
    key(&mut app, KeyCode::Char('H'));
    assert_eq!(app.trainer().map(|t| t.hint_stage()), Some(HintStage::Move));
    assert_eq!(app.status(), "hint: 17-22");
    // `[` goes back round to the last problem; `u` starts a problem again.
    key(&mut app, KeyCode::Char('['));
    let last = app.trainer().map(|t| (t.index(), t.len()));
    assert!(matches!(last, Some((i, n)) if i + 1 == n));
}

#[test]
fn p_opens_the_trainer_over_a_game() {
    let (mut app, _) = App::new(common::app::HUMANS);
    key(&mut app, KeyCode::Char('P'));
    let trainer = app.trainer().expect("P opens the trainer");
    assert!(trainer.len() >= 10);
    assert_eq!(app.status(), trainer.problem().heading());
    assert_eq!(app.game().position(), trainer.problem().start.into());
}

#[test]
fn the_problem_screen_80x24() {
    let mut app = trainer_on(TWELFTH);
    type_keys(&mut app, "17-13");
    insta::assert_snapshot!(screen(&app, 80, 24));
}
