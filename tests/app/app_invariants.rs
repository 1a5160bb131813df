//! Properties of the application state machine that must hold after any sequence of actions, checked over random
//! sequences with a model of the front end: it starts a search for every `Think`, forgets it on `StopThinking`,
//! and answers it (with any legal move) when the test says so.

use crowned::app::{Action, App, Effect, Mode, Player, Players, Timer};
use crowned::app::{BrowseAction, EngineNews};
use crowned::engine::{AnySituation, Level, Score};
use crowned::rules::SquareStyle;
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
            Action::Browse(BrowseAction::Back),
            Action::Browse(BrowseAction::Forward),
            Action::Browse(BrowseAction::Last),
            Action::Browse(BrowseAction::First),
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
            Action::Resized { width: 20, height: 10 },
            Action::Resized { width: 80, height: 24 },
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
    running: Option<(u64, AnySituation, bool)>,
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
                Effect::Evaluate {
                    search, situation, ..
                } => {
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
                    let position = app.game().position();
                    let moves = position.legal_moves();
                    if moves.is_empty() {
                        continue;
                    }
                    let text = position.write_move(&moves[choice.index(moves.len())], SquareStyle::Numbers);
                    app.update(Action::Submit(text))
                }
                Step::EngineAnswers(choice) => {
                    let Some((search, situation, chooses)) = front.running.take() else {
                        continue;
                    };
                    if chooses {
                        let moves = situation.position.legal_moves();
                        let mv = (!moves.is_empty()).then(|| moves[choice.index(moves.len())]);
                        app.update(Action::Engine(EngineNews::Moved { search, mv }))
                    } else {
                        let scores = [Score::Centi(0), Score::Centi(150), Score::Centi(-150), Score::Win(3), Score::Loss(2)];
                        let score = scores[choice.index(scores.len())];
                        app.update(Action::Engine(EngineNews::Evaluated { search, score }))
                    }
                }
                Step::Timer(choice) => {
                    if front.timers.is_empty() {
                        continue;
                    }
                    let timer = front.timers.remove(choice.index(front.timers.len()));
                    app.update(Action::Timer(timer))
                }
                Step::StaleAnswer => app.update(Action::Engine(EngineNews::Moved { search: 0, mv: None })),
            };
            front.carry_out(&mut app, effects);
            check(&app, &front, &done);
        }
    }
}

mod terminal_events {
    //! The app and its screen under anything a terminal can send: random keys (bound or not, with any
    //! modifiers), clicks and wheel turns anywhere, pastes of any text, resizes to any size, mixed with engine
    //! answers and timers. Nothing may panic, and every frame is drawn.

    use super::*;
    use crossterm::event::{
        Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent,
        MouseEventKind,
    };
    use crowned::app::{actions_for_input, resized};
    use crowned::term::convert;
    use crowned::ui::{self, Options};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    #[derive(Clone, Debug)]
    enum Input {
        Terminal(TermEvent),
        Engine(prop::sample::Index),
        Timer(prop::sample::Index),
    }

    fn key() -> impl Strategy<Value = TermEvent> {
        let code = prop_oneof![
            4 => prop::char::range(' ', '~').prop_map(KeyCode::Char),
            1 => any::<char>().prop_map(KeyCode::Char),
            2 => prop::sample::select(vec![
                KeyCode::Enter, KeyCode::Esc, KeyCode::Tab, KeyCode::BackTab, KeyCode::Backspace,
                KeyCode::Delete, KeyCode::Home, KeyCode::End, KeyCode::PageUp, KeyCode::PageDown,
                KeyCode::Up, KeyCode::Down, KeyCode::Left, KeyCode::Right, KeyCode::F(1), KeyCode::Insert,
            ]),
        ];
        let modifiers = prop::sample::select(vec![
            KeyModifiers::NONE,
            KeyModifiers::SHIFT,
            KeyModifiers::ALT,
            KeyModifiers::CONTROL | KeyModifiers::SHIFT,
        ]);
        let kind = prop::sample::select(vec![
            KeyEventKind::Press,
            KeyEventKind::Press,
            KeyEventKind::Release,
        ]);
        (code, modifiers, kind).prop_map(|(code, modifiers, kind)| {
            let mut key = KeyEvent::new(code, modifiers);
            key.kind = kind;
            TermEvent::Key(key)
        })
    }

    fn event() -> impl Strategy<Value = TermEvent> {
        prop_oneof![
            12 => key(),
            2 => (
                prop::sample::select(vec![
                    MouseEventKind::Down(MouseButton::Left),
                    MouseEventKind::Up(MouseButton::Left),
                    MouseEventKind::ScrollUp,
                    MouseEventKind::ScrollDown,
                    MouseEventKind::Moved,
                ]),
                0..300u16,
                0..120u16,
            )
                .prop_map(|(kind, column, row)| TermEvent::Mouse(MouseEvent {
                    kind,
                    column,
                    row,
                    modifiers: KeyModifiers::NONE,
                })),
            1 => (1..260u16, 1..90u16).prop_map(|(w, h)| TermEvent::Resize(w, h)),
            1 => prop_oneof![
                ".{0,30}",
                "[0-9x\\- :a-h]{0,30}",
                (0..3000usize).prop_map(|n| "11-15 ".repeat(n)),
            ]
            .prop_map(TermEvent::Paste),
        ]
    }

    fn input() -> impl Strategy<Value = Input> {
        prop_oneof![
            10 => event().prop_map(Input::Terminal),
            2 => any::<prop::sample::Index>().prop_map(Input::Engine),
            1 => any::<prop::sample::Index>().prop_map(Input::Timer),
        ]
    }

    fn run(players: Players, inputs: Vec<Input>) {
        let (mut app, effects) = App::new(players);
        let mut front = Front::default();
        front.carry_out(&mut app, effects);
        let mut size = (80u16, 24u16);
        let effects = app.update(resized(size.0, size.1));
        front.carry_out(&mut app, effects);
        let options = Options::default();
        for input in inputs {
            if front.quit {
                break;
            }
            let effects: Vec<Effect> = match input {
                Input::Terminal(event) => {
                    if let TermEvent::Resize(w, h) = event {
                        size = (w, h);
                    }
                    let mut effects = Vec::new();
                    let actions = convert(event).map(|event| actions_for_input(&app, event));
                    for action in actions.unwrap_or_default() {
                        effects.extend(app.update(action));
                    }
                    effects
                }
                Input::Engine(choice) => match front.running.take() {
                    Some((search, situation, true)) => {
                        let moves = situation.position.legal_moves();
                        let mv = (!moves.is_empty()).then(|| moves[choice.index(moves.len())]);
                        app.update(Action::Engine(EngineNews::Moved { search, mv }))
                    }
                    Some((search, _, false)) => app.update(Action::Engine(EngineNews::Evaluated {
                        search,
                        score: Score::Centi(choice.index(400) as i32 - 200),
                    })),
                    None => Vec::new(),
                },
                Input::Timer(choice) => {
                    if front.timers.is_empty() {
                        continue;
                    }
                    let timer = front.timers.remove(choice.index(front.timers.len()));
                    app.update(Action::Timer(timer))
                }
            };
            front.carry_out(&mut app, effects);
            let mut terminal =
                Terminal::new(TestBackend::new(size.0, size.1)).expect("test terminal");
            terminal
                .draw(|f| ui::draw(f, &app, &options))
                .expect("drawn");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]

        #[test]
        fn anything_a_terminal_sends_is_taken_without_a_panic(
            players in players(),
            inputs in prop::collection::vec(input(), 1..120),
        ) {
            run(players, inputs);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        #[ignore = "deep run: cargo test --profile fast -- --ignored"]
        fn deep_anything_a_terminal_sends_is_taken_without_a_panic(
            players in players(),
            inputs in prop::collection::vec(input(), 1..400),
        ) {
            run(players, inputs);
        }
    }
}
