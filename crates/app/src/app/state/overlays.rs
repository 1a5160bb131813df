//! What is open over the game takes the actions first. This room decides which overlay an action goes to, in the
//! order [`App::overlay`] shows (the resume offer outranks everything; the help takes its own actions and passes
//! the rest to what it covers), and carries out the resume offer, the new-game dialog and the help.

use super::App;
use crate::app::action::{Action, Effect, HelpAction};
use crate::app::dialog::DialogStep;
use crate::app::mode::Mode;
use crate::app::overlay::Overlay;
use crate::config::key_help;
use crate::game::RulesPage;

/// The narrowest the rules page is drawn (the help's width at 80 columns): the most lines it can take.
const RULES_NARROWEST: usize = 60;

impl App {
    /// Offers `action` to what is open over the game: `Ok` with the effects when an overlay took it, `Err` with the
    /// action when it goes on to the game.
    pub(super) fn overlay_action(&mut self, action: Action) -> Result<Vec<Effect>, Action> {
        if let Some(Overlay::Resume(_)) = self.overlay.top() {
            return Ok(self.resume_action(action));
        }
        let action = match self.settings_news(action) {
            Ok(effects) => return Ok(effects),
            Err(action) => action,
        };
        match action {
            Action::Help(HelpAction::Toggle) => {
                self.overlay.toggle_help();
                return Ok(Vec::new());
            }
            Action::Help(HelpAction::Scroll(lines)) => {
                // Past the last line there is nothing to see (the overlay shows as much as fits).
                let last = match self.overlay.help().and_then(|help| help.rules()) {
                    Some(rules) => rules.lines_at(RULES_NARROWEST),
                    None => key_help(&self.preferences.keys).len() + 4,
                };
                self.overlay.scroll_help(lines, last);
                return Ok(Vec::new());
            }
            Action::Help(HelpAction::RulesPage) => {
                self.overlay
                    .toggle_rules(|| RulesPage::of(self.play.game()));
                return Ok(Vec::new());
            }
            _ => {}
        }
        match self.overlay.panel() {
            Some(&Overlay::Question(question)) => {
                self.question_action(question, &action).ok_or(action)
            }
            Some(Overlay::Dialog(_)) if Self::overlay_takes(&action) => {
                Ok(self.dialog_action(&action))
            }
            Some(Overlay::List(_)) if Self::overlay_takes(&action) => Ok(self.list_action(&action)),
            Some(Overlay::Settings(_)) if Self::overlay_takes(&action) => {
                Ok(self.settings_action(action))
            }
            _ => Err(action),
        }
    }

    /// Whether the dialog or a list takes `action`: everything the player does but Ctrl-C (the engine's reports
    /// and the outside world's news go on as usual).
    fn overlay_takes(action: &Action) -> bool {
        action.from_player() && *action != Action::Interrupt
    }

    /// While the resume question is open only its answers, Ctrl-C and notices count.
    fn resume_action(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::AcceptResume => {
                let Some(Overlay::Resume(offer)) = self.overlay.close_panel() else {
                    return Vec::new();
                };
                let file = self.saved_file.take();
                let effects = self.resume_game(offer.game, offer.players, offer.clock);
                self.saved_file = file;
                // The game is as it was saved: nothing to save again.
                self.game_changed = false;
                if matches!(self.mode, Mode::Play) {
                    self.status = format!("Resumed. {}", self.mode_message());
                }
                effects
            }
            Action::DeclineResume => {
                let Some(Overlay::Resume(offer)) = self.overlay.close_panel() else {
                    return Vec::new();
                };
                let mut effects = vec![Effect::Archive {
                    game: Box::new(offer.game),
                    players: offer.players,
                    file: self.saved_file.take(),
                    clock: offer.clock,
                }];
                effects.extend(self.start_new(self.players));
                effects
            }
            Action::Interrupt => vec![Effect::Quit],
            Action::Notice(text) => {
                self.status = text;
                Vec::new()
            }
            _ => {
                self.status = self.resume_question();
                Vec::new()
            }
        }
    }

    fn dialog_action(&mut self, action: &Action) -> Vec<Effect> {
        let Some(dialog) = self.overlay.dialog_mut() else {
            return Vec::new();
        };
        match dialog.act(action) {
            DialogStep::Stays => Vec::new(),
            DialogStep::Start(game_type, players, opening, clock) => {
                self.overlay.close_panel();
                self.play.clocks_mut().set_new_games(clock);
                self.start_with_opening(game_type, players, opening)
            }
            DialogStep::SetUp(game_type, players, clock) => {
                self.overlay.close_panel();
                self.play.clocks_mut().set_new_games(clock);
                self.open_setup_as(game_type, players)
            }
            DialogStep::Cancel => {
                self.overlay.close_panel();
                self.status = "new game cancelled".into();
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Rect;

    use super::*;
    use crate::app::DialogRow;
    use crate::app::action::SetupAction;
    use crate::app::event::{InputEvent, Key, KeyCode, Mouse, MouseKind};
    use crate::app::input::actions_for_input;
    use crate::app::keys::action_for_key;
    use crate::app::layout::ScreenLayout;
    use crate::app::library::{GameList, ListPurpose};
    use crate::engine::{Level, Player, Players};
    use crate::game::AnyGame;
    use crate::game::pdn::ListedGame;
    use crate::store::GameEntry;

    const SCREEN: Rect = Rect::new(0, 0, 80, 24);

    fn players() -> Players {
        Players {
            black: Player::Human,
            white: Player::Engine(Level::Medium),
        }
    }

    /// A click on square 11 and a turn of the wheel over the move list.
    fn clicks() -> [InputEvent; 2] {
        let layout = ScreenLayout::new(SCREEN, crate::rules::Geometry::EIGHT).expect("big enough");
        let square = layout.square_rect(2, 5);
        let mouse = |kind, column, row| InputEvent::Mouse(Mouse { kind, column, row });
        [
            mouse(MouseKind::Click, square.x, square.y),
            mouse(
                MouseKind::ScrollUp,
                layout.history.x + 2,
                layout.history.y + 2,
            ),
        ]
    }

    fn clicks_do_nothing(app: &App) {
        for click in clicks() {
            assert_eq!(actions_for_input(app, click.clone()), [], "{click:?}");
        }
    }

    fn press(app: &mut App, key: Key) -> Option<Action> {
        let action = action_for_key(app, key)?;
        let _ = app.update(action.clone());
        Some(action)
    }

    #[test]
    fn the_help_over_the_dialog_takes_the_keys_and_closing_it_returns_to_the_dialog() {
        let mut app = App::new(players()).0;
        let _ = app.update(crate::app::resized(SCREEN.width, SCREEN.height));
        assert!(!actions_for_input(&app, clicks()[0].clone()).is_empty());
        let _ = app.update(Action::NewGame);
        clicks_do_nothing(&app);
        assert_eq!(
            press(&mut app, Key::char('?')),
            None,
            "the dialog binds no ?"
        );
        let _ = app.update(Action::Help(HelpAction::Toggle));
        assert!(matches!(app.overlay(), Some(Overlay::Help(_))));
        clicks_do_nothing(&app);
        // The keys go to the help: the cursor keys scroll it, and the dialog under it is untouched.
        assert_eq!(
            press(&mut app, Key::plain(KeyCode::Down)),
            Some(Action::Help(HelpAction::Scroll(1)))
        );
        assert_eq!(app.help_scroll(), 1);
        assert_eq!(app.dialog().map(|d| d.row), Some(DialogRow::Black));
        assert_eq!(
            press(&mut app, Key::char('q')),
            Some(Action::Help(HelpAction::Toggle)),
            "any other key closes the help"
        );
        assert!(!app.help_open());
        // The dialog is back, with the keys.
        assert!(matches!(app.overlay(), Some(Overlay::Dialog(_))));
        assert_eq!(
            press(&mut app, Key::plain(KeyCode::Down)),
            Some(Action::Down)
        );
        assert_eq!(app.dialog().map(|d| d.row), Some(DialogRow::White));
        assert_eq!(
            press(&mut app, Key::plain(KeyCode::Esc)),
            Some(Action::Cancel)
        );
        assert!(app.overlay().is_none());
    }

    #[test]
    fn the_help_passes_other_actions_to_what_it_covers() {
        let mut app = App::new(players()).0;
        let _ = app.update(Action::NewGame);
        let _ = app.update(Action::Help(HelpAction::Toggle));
        // An action that does not come from a key (a test, a paste) goes to the dialog under the help.
        let _ = app.update(Action::Setup(SetupAction::Open));
        assert!(app.setup().is_some(), "the dialog opened the setup");
        assert!(app.dialog().is_none());
        assert!(app.help_open(), "the help stays, over nothing now");
        let _ = app.update(Action::Help(HelpAction::Toggle));
        assert!(app.overlay().is_none());
    }

    #[test]
    fn a_question_keeps_its_answers_under_the_help() {
        let mut app = App::new(players()).0;
        let _ = app.update(Action::Submit("11-15".into()));
        let _ = app.update(Action::Submit(":resign".into()));
        assert!(matches!(app.overlay(), Some(Overlay::Question(_))));
        clicks_do_nothing(&app);
        assert_eq!(
            press(&mut app, Key::char('?')),
            Some(Action::Help(HelpAction::Toggle))
        );
        assert_eq!(
            press(&mut app, Key::char('y')),
            Some(Action::Help(HelpAction::Toggle))
        );
        assert!(
            app.question().is_some(),
            "y closed the help, not the question"
        );
        assert_eq!(press(&mut app, Key::char('n')), Some(Action::Answer(false)));
        assert!(app.overlay().is_none());
    }

    #[test]
    fn a_list_of_games_takes_the_keys_and_no_clicks() {
        let entry = GameEntry {
            game: ListedGame::whole(AnyGame::default()),
            players: None,
            error: None,
            source: "test".into(),
            file: None,
            clock: None,
        };
        let list = GameList::new("games", vec![entry.clone(), entry], ListPurpose::Replay);
        let mut app = App::choosing(list, players());
        assert!(matches!(app.overlay(), Some(Overlay::List(_))));
        clicks_do_nothing(&app);
        assert_eq!(
            press(&mut app, Key::plain(KeyCode::Down)),
            Some(Action::Down)
        );
        assert_eq!(app.game_list().map(|l| l.selected), Some(1));
        assert_eq!(press(&mut app, Key::char('?')), None, "the list binds no ?");
        let _ = app.update(Action::Help(HelpAction::Toggle));
        assert_eq!(
            press(&mut app, Key::plain(KeyCode::Up)),
            Some(Action::Help(HelpAction::Scroll(-1)))
        );
        assert_eq!(
            app.game_list().map(|l| l.selected),
            Some(1),
            "the help took it"
        );
        let _ = app.update(Action::Help(HelpAction::Toggle));
        assert_eq!(
            press(&mut app, Key::plain(KeyCode::Esc)),
            Some(Action::Cancel)
        );
        assert!(app.overlay().is_none());
    }

    #[test]
    fn the_resume_offer_outranks_everything() {
        let mut app = App::offering_resume(players(), AnyGame::default(), players());
        clicks_do_nothing(&app);
        assert_eq!(press(&mut app, Key::char('?')), None);
        for action in [
            Action::Help(HelpAction::Toggle),
            Action::NewGame,
            Action::Submit(":help".into()),
        ] {
            let _ = app.update(action);
            assert!(matches!(app.overlay(), Some(Overlay::Resume(_))));
        }
        assert_eq!(press(&mut app, Key::char('n')), Some(Action::DeclineResume));
        assert!(app.overlay().is_none());
    }
}
