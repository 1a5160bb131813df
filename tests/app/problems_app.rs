//! The problem trainer driven by keys: a whole problem solved, a wrong move told with its refutation and taken
//! back, hints, moving between problems, and the problem screen.

use crowned::app::{
    Action, App, Attempt, Effect, HintStage, Key, KeyCode, Modifiers, Timer, TrainingKind,
    TrainingNews, action_for_key,
};
use crowned::problems::{Problem, Prover, builtin_problems};
use crowned::rules::{Color, Playable as _, SquareStyle};

use crate::common;

use common::app::{key, press, sq, walk_to};
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
        press(app, KeyCode::Char(c));
    }
    press(app, KeyCode::Enter);
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
    press(&mut app, KeyCode::Char(' '));
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

/// The effects of typing `text` and Enter, as the app gives them (nothing carried out).
fn type_unanswered(app: &mut App, text: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in text.chars().map(KeyCode::Char).chain([KeyCode::Enter]) {
        let key = Key {
            code: c,
            modifiers: Modifiers::default(),
        };
        if let Some(action) = action_for_key(app, key) {
            effects.extend(app.update(action));
        }
    }
    effects
}

fn the_question(effects: Vec<Effect>) -> (u64, Action) {
    let mut questions = effects.into_iter().filter_map(|e| match e {
        Effect::Prove {
            question,
            prover,
            asked,
        } => Some((
            question,
            Action::Proved {
                question,
                answer: prover.answer(&asked),
            },
        )),
        _ => None,
    });
    let question = questions.next().expect("the prover is asked");
    assert!(questions.next().is_none(), "one question at a time");
    question
}

#[test]
fn a_move_off_the_line_is_checked_off_the_app_and_nothing_moves_meanwhile() {
    let mut app = trainer_on(TWELFTH);
    // 17-13 is off the main line: the app does not prove it itself, it asks.
    let effects = type_unanswered(&mut app, "17-13");
    let (_, proved) = the_question(effects);
    assert_eq!(
        app.trainer().map(|t| t.attempt().clone()),
        Some(Attempt::Checking {
            tried: "17-13".into()
        })
    );
    assert_eq!(app.status(), "checking 17-13: a moment");
    assert_eq!(
        moves_played(&app),
        ["17-13"],
        "the move stays on show while it is checked"
    );
    // Another move, or a hint, waits for the answer.
    let effects = type_unanswered(&mut app, "27-23");
    assert!(effects.iter().all(|e| !matches!(e, Effect::Prove { .. })));
    assert_eq!(moves_played(&app), ["17-13"]);
    key(&mut app, KeyCode::Char('H'));
    assert_eq!(app.status(), "checking: a moment");
    // The answer comes back as an action: the move is taken back, the refutation told.
    let _ = app.update(proved);
    assert!(matches!(
        app.trainer().map(|t| t.attempt().clone()),
        Some(Attempt::Wrong { .. })
    ));
    assert_eq!(app.game().ply(), 0);
    assert!(
        app.status().starts_with("17-13 is wrong"),
        "{}",
        app.status()
    );
}

#[test]
fn an_answer_for_a_problem_left_is_let_go() {
    let mut app = trainer_on(TWELFTH);
    let (_, proved) = the_question(type_unanswered(&mut app, "17-13"));
    // On to the next problem before the answer comes.
    key(&mut app, KeyCode::Char(']'));
    let next = app.trainer().map(|t| t.index());
    let start = app.game().position();
    let _ = app.update(proved);
    let trainer = app.trainer().expect("open");
    assert_eq!(Some(trainer.index()), next);
    assert_eq!(*trainer.attempt(), Attempt::Solving);
    assert_eq!(trainer.misses(), 0);
    assert_eq!(app.game().position(), start);
}

/// A problem with a second move that keeps the result somewhere on its main line: the problem, how many plies
/// of the line come first, and that move.
fn a_second_way() -> (Problem, usize, crowned::rules::Move) {
    let mut prover = Prover::new(None);
    for problem in builtin_problems() {
        let mut pos = problem.start;
        for (ply, mv) in problem.solution.iter().enumerate() {
            if ply % 2 == 0 {
                let other = pos.legal_moves().iter().copied().find(|m| {
                    m != mv
                        && prover.keeps(&pos, m, problem.goal)
                        && !pos.play(m).legal_moves().is_empty()
                });
                if let Some(other) = other {
                    return (problem, ply, other);
                }
            }
            pos = pos.play(mv);
        }
    }
    panic!("no problem of the collection has a second way on its line");
}

#[test]
fn a_move_off_the_line_that_keeps_the_result_is_answered_and_its_hints_asked_of_the_prover() {
    let (problem, plies, other) = a_second_way();
    let words: Vec<String> = {
        let mut pos = problem.start;
        problem.solution[..plies]
            .iter()
            .map(|m| {
                let word = crowned::rules::write_move(&pos, m, SquareStyle::Numbers);
                pos = pos.play(m);
                word
            })
            .collect()
    };
    let mut app = trainer_on(&problem.title);
    for word in words.iter().step_by(2) {
        type_keys(&mut app, word);
    }
    assert_eq!(moves_played(&app), words, "{}", app.status());
    let before = app.game().position();
    let pos = crowned::rules::English::unwrap(&before).expect("English");
    let word = crowned::rules::write_move(&pos, &other, SquareStyle::Numbers);
    let (_, proved) = the_question(type_unanswered(&mut app, &word));
    let _ = app.update(proved);
    settle(&mut app);
    // Kept, and answered by the defence the prover found.
    assert_eq!(moves_played(&app).len(), plies + 2, "{}", app.status());
    assert_eq!(moves_played(&app)[plies], word);
    if app.trainer().map(|t| t.attempt().clone()) == Some(Attempt::Solved) {
        return;
    }
    assert_eq!(app.status(), "right: go on");
    // Off the line a hint needs the prover too.
    let effects = {
        let key = Key {
            code: KeyCode::Char('H'),
            modifiers: Modifiers::default(),
        };
        let action = action_for_key(&app, key).expect("H is bound");
        app.update(action)
    };
    assert_eq!(app.status(), "looking for a hint: a moment");
    let (_, hinted) = the_question(effects);
    let _ = app.update(hinted);
    assert_eq!(
        app.trainer().map(|t| t.hint_stage()),
        Some(HintStage::Piece),
        "{}",
        app.status()
    );
    assert!(
        app.status().starts_with("hint: move the piece on"),
        "{}",
        app.status()
    );
}

/// Types `text` and Enter, carrying out what follows at once; the trainer's news among the effects.
fn type_keeping_news(app: &mut App, text: &str) -> Vec<TrainingNews> {
    let mut news = Vec::new();
    for code in text.chars().map(KeyCode::Char).chain([KeyCode::Enter]) {
        let key = Key {
            code,
            modifiers: Modifiers::default(),
        };
        if let Some(action) = action_for_key(app, key) {
            let effects = app.update(action);
            for left in common::app::answer(app, effects) {
                if let Effect::Trained(n) = left {
                    news.push(n);
                }
            }
        }
    }
    settle(app);
    news
}

#[test]
fn a_streak_tells_each_first_try_and_ends_at_the_first_miss() {
    let problems = builtin_problems();
    let (mut app, effects) =
        App::training_for(TrainingKind::Streak, 2, problems.clone(), Prover::new(None));
    assert!(effects.is_empty(), "{effects:?}");
    // The first problem solved along its line: its try is told solved, and the streak is one long.
    let first = &problems[0];
    let mut pos = first.start;
    let mut news = Vec::new();
    for (ply, mv) in first.solution.iter().enumerate() {
        if ply % 2 == 0 {
            let word = crowned::rules::write_move(&pos, mv, SquareStyle::Numbers);
            news.extend(type_keeping_news(&mut app, &word));
        }
        pos = pos.play(mv);
    }
    assert_eq!(
        news,
        [
            TrainingNews::Attempt {
                problem: first.key(),
                solved: true
            },
            TrainingNews::Streak(1)
        ]
    );
    assert_eq!(app.trainer().map(|t| t.streak()), Some(1));
    // No going back, no hints.
    key(&mut app, KeyCode::Char('['));
    assert_eq!(app.status(), "a streak only goes forward");
    // On to the second: a wrong move ends the streak, and its try is told lost.
    key(&mut app, KeyCode::Char(']'));
    key(&mut app, KeyCode::Char('H'));
    assert_eq!(app.status(), "no hints in a streak");
    let second = &problems[1];
    let mut prover = Prover::new(None);
    let wrong = second
        .start
        .legal_moves()
        .iter()
        .copied()
        .find(|m| !prover.keeps(&second.start, m, second.goal))
        .expect("a wrong move");
    let word = crowned::rules::write_move(&second.start, &wrong, SquareStyle::Numbers);
    let news = type_keeping_news(&mut app, &word);
    assert_eq!(
        news,
        [TrainingNews::Attempt {
            problem: second.key(),
            solved: false
        }]
    );
    let trainer = app.trainer().expect("open");
    assert!(trainer.streak_over());
    assert!(
        app.status()
            .ends_with("the streak ends at 1: ] starts a new one"),
        "{}",
        app.status()
    );
    // Nothing more is played on it; `]` starts again from the first, the best (2, from before) kept.
    assert!(type_keeping_news(&mut app, &word).is_empty());
    assert_eq!(app.game().ply(), 0);
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char(']'));
    let trainer = app.trainer().expect("open");
    assert_eq!((trainer.index(), trainer.streak()), (0, 0));
    assert!(!trainer.streak_over());
    assert_eq!(trainer.best_streak(), 2);
}

#[test]
fn each_problem_is_drawn_with_the_side_to_play_at_the_bottom() {
    let problems = builtin_problems();
    let mut sides = std::collections::HashSet::new();
    for problem in &problems {
        let app = trainer_on(&problem.title);
        let to_play = app.game().position().side_to_move();
        sides.insert(to_play);
        assert_eq!(app.flipped(), to_play == Color::Black, "{}", problem.title);
    }
    // Both kinds are in the collection, so both ways round are seen.
    assert_eq!(sides.len(), 2, "{sides:?}");
}
