//! Properties of the application state machine that must hold after any sequence of actions, checked over random
//! sequences with a model of the front end: it starts a search for every `Think`, forgets it on `StopThinking`,
//! and answers it (with any legal move) when the test says so.

use crowned::app::{Action, App, Effect, Mode, Player, Players, Timer};
use crowned::engine::{Level, Score, Situation};
use crowned::rules::{SquareStyle, write_move};
use proptest::prelude::*;

/// One thing that can happen next.
#[derive(Clone, Debug)]
enum Step {
    /// The player does this.
    Do(Action),
    /// The player types one of the legal moves (chosen by the index), or a command.
    Type(prop::sample::Index),
    /// The engine answers the search it is running, with one of its legal moves.
    EngineAnswers(prop::sample::Index),
    /// An answer to a search long gone arrives.
    StaleAnswer,
    /// A timer the app asked for comes due.
    Timer(prop::sample::Index),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => any::<prop::sample::Index>().prop_map(Step::Type),
        4 => any::<prop::sample::Index>().prop_map(Step::EngineAnswers),
        1 => Just(Step::StaleAnswer),
        3 => any::<prop::sample::Index>().prop_map(Step::Timer),
        3 => prop::sample::select(vec![
            Action::Undo,
            Action::Redo,
            Action::MoveNow,
            Action::BrowseBack,
            Action::BrowseForward,
            Action::BrowseLast,
            Action::BrowseFirst,
            Action::Cancel,
            Action::Flip,
            Action::Rematch,
            Action::NewGame,
            Action::PickAtCursor,
            Action::ToggleHistoryFocus,
            Action::Submit(":resign".into()),
            Action::Submit(":draw".into()),
            Action::Submit(":undo".into()),
            Action::Submit(":redo".into()),
            Action::Submit(":setup".into()),
            Action::Setup(crowned::app::SetupAction::Start),
            Action::Quit,
            Action::Pause,
            Action::Answer(true),
            Action::Answer(false),
            Action::Resized { fits: false },
            Action::Resized { fits: true },
        ])
        .prop_map(Step::Do),
    ]
}

fn players() -> impl Strategy<Value = Players> {
    let player = prop::sample::select(vec![
        Player::Human,
        Player::Engine(Level::Random),
        Player::Engine(Level::Medium),
    ]);
    (player.clone(), player).prop_map(|(black, white)| Players { black, white })
}

/// The front end as far as the engine and the timers go: the search it is running (and whether it chooses a
/// move or judges the position), and the timers asked for.
#[derive(Default)]
struct Front {
    running: Option<(u64, Situation, bool)>,
    timers: Vec<Timer>,
    quit: bool,
}

impl Front {
    fn carry_out(&mut self, app: &mut App, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Think {
                    search, situation, ..
                } => self.running = Some((search, situation, true)),
                Effect::Evaluate { search, situation } => {
                    self.running = Some((search, situation, false));
                }
                Effect::Wake { timer, .. } if !self.timers.contains(&timer) => {
                    self.timers.push(timer);
                }
                Effect::Quit => self.quit = true,
                // Answered at once, as the terminal does: no saved games here.
                Effect::ListSaved => {
                    let effects = app.update(Action::Notice("no saved games".into()));
                    self.carry_out(app, effects);
                }
                _ => {}
            }
        }
    }
}

fn check(app: &App, front: &Front, history: &[Step]) {
    let game = app.game();
    // What the screen says and what is accepted come from the mode: it must agree with the game.
    match app.mode() {
        Mode::Play => assert_eq!(
            game.outcome(),
            None,
            "playing a game that is over after {history:?}"
        ),
        Mode::Over(outcome) => assert_eq!(
            game.outcome(),
            Some(outcome),
            "game over shown for a game that is not after {history:?}"
        ),
        Mode::Browsing { .. } | Mode::Setup(_) => {}
    }
    let engine_to_move = matches!(
        app.players().of(game.position().side_to_move()),
        Player::Engine(_)
    );
    let held_on_purpose = matches!(app.mode(), Mode::Setup(_))
        || app.replay().is_some()
        || app.resume_offer().is_some()
        || app.paused()
        || front.quit;
    if engine_to_move && game.outcome().is_none() && !held_on_purpose {
        let thinking = app.thinking().map(|t| t.search);
        assert!(
            thinking.is_some(),
            "the engine is to move but not thinking after {history:?}\nstatus: {}",
            app.status()
        );
        // Either the search it waits for is running, or its move was found and waits for the pace timer.
        let running = front.running.as_ref().map(|(search, _, _)| *search) == thinking;
        let waiting = app.move_waiting() && front.timers.contains(&Timer::Pace);
        assert!(
            running || waiting,
            "the app waits for a search the engine is not running after {history:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_engine_never_stalls_and_the_mode_agrees_with_the_game(
        players in players(),
        steps in prop::collection::vec(step(), 1..60),
    ) {
        let (mut app, effects) = App::new(players);
        let mut front = Front::default();
        front.carry_out(&mut app, effects);
        let mut done = Vec::new();
        for step in steps {
            done.push(step.clone());
            if front.quit {
                break;
            }
            let effects = match step {
                Step::Do(action) => app.update(action),
                Step::Type(choice) => {
                    let position = *app.game().position();
                    let moves = position.legal_moves();
                    if moves.is_empty() {
                        continue;
                    }
                    let text = write_move(&position, &moves[choice.index(moves.len())], SquareStyle::Numbers);
                    app.update(Action::Submit(text))
                }
                Step::EngineAnswers(choice) => {
                    let Some((search, situation, chooses)) = front.running.take() else {
                        continue;
                    };
                    if chooses {
                        let moves = situation.position.legal_moves();
                        let mv = (!moves.is_empty()).then(|| moves[choice.index(moves.len())]);
                        app.update(Action::EngineMoved { search, mv })
                    } else {
                        let scores = [Score::Centi(0), Score::Centi(150), Score::Centi(-150), Score::Win(3), Score::Loss(2)];
                        let score = scores[choice.index(scores.len())];
                        app.update(Action::EngineEvaluated { search, score })
                    }
                }
                Step::Timer(choice) => {
                    if front.timers.is_empty() {
                        continue;
                    }
                    let timer = front.timers.remove(choice.index(front.timers.len()));
                    app.update(Action::Timer(timer))
                }
                Step::StaleAnswer => app.update(Action::EngineMoved { search: 0, mv: None }),
            };
            front.carry_out(&mut app, effects);
            check(&app, &front, &done);
        }
    }
}
