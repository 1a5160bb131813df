//! What the player's input means: [`actions_for_input`] turns the app's [`InputEvent`]s into [`Action`]s, keys,
//! clicks and pastes alike, given the app's state and the screen they happened on.

use super::action::{Action, BrowseAction};
use super::event::{InputEvent, Mouse, MouseKind};
use super::keys::action_for_key;
use super::layout::ScreenLayout;
use super::state::App;

/// The actions an input event stands for, on the screen the app was last told of ([`Action::Resized`]).
pub fn actions_for_input(app: &App, event: InputEvent) -> Vec<Action> {
    match event {
        InputEvent::Key(key) => action_for_key(app, key).into_iter().collect(),
        InputEvent::Mouse(mouse) => action_for_mouse(app, mouse).into_iter().collect(),
        InputEvent::Paste(text) => vec![Action::Paste(text)],
        InputEvent::Resize { width, height } => vec![resized(width, height)],
    }
}

/// What a screen of this size tells the app (which works out whether its board fits).
pub fn resized(width: u16, height: u16) -> Action {
    Action::Resized { width, height }
}

/// Clicks on the board pick squares; the wheel over the move list steps through the game. Nothing under an
/// overlay can be clicked, nor anything before the app knows the screen.
fn action_for_mouse(app: &App, mouse: Mouse) -> Option<Action> {
    if app.overlay().is_some() {
        return None;
    }
    let layout = ScreenLayout::new(app.screen()?, app.board())?;
    let (x, y) = (mouse.column, mouse.row);
    let over_history = layout.history.contains((x, y).into());
    match mouse.kind {
        MouseKind::Click => layout
            .square_at(x, y, app.flipped())
            .map(Action::PickSquare),
        MouseKind::ScrollUp if over_history => Some(Action::Browse(BrowseAction::Back)),
        MouseKind::ScrollDown if over_history => Some(Action::Browse(BrowseAction::Forward)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::HelpAction;
    use crate::app::{Player, Players};
    use crate::rules::Square;
    use ratatui::layout::Rect;

    fn humans() -> App {
        let mut app = App::new(Players {
            black: Player::Human,
            white: Player::Human,
        })
        .0;
        let _ = app.update(resized(80, 24));
        app
    }

    fn mouse(kind: MouseKind, column: u16, row: u16) -> InputEvent {
        InputEvent::Mouse(Mouse { kind, column, row })
    }

    #[test]
    fn clicks_pick_squares_and_the_wheel_browses() {
        let app = humans();
        let area = Rect::new(0, 0, 80, 24);
        let layout = ScreenLayout::new(area, app.board()).expect("big enough");
        // Square 11 is on row 2, column 5 of the diagram (not flipped: two humans see White at the bottom).
        let rect = layout.square_rect(2, 5);
        let eleven = Square::from_number(11, 32).expect("square 11");
        assert_eq!(
            actions_for_input(&app, mouse(MouseKind::Click, rect.x, rect.y)),
            vec![Action::PickSquare(eleven)]
        );
        // A click on a light square or outside the board does nothing.
        let light = layout.square_rect(0, 0);
        assert!(actions_for_input(&app, mouse(MouseKind::Click, light.x, light.y)).is_empty());
        assert!(actions_for_input(&app, mouse(MouseKind::Click, 79, 23)).is_empty());
        let (x, y) = (layout.history.x + 2, layout.history.y + 2);
        assert_eq!(
            actions_for_input(&app, mouse(MouseKind::ScrollUp, x, y)),
            vec![Action::Browse(BrowseAction::Back)]
        );
        // The wheel over the board does nothing.
        assert!(actions_for_input(&app, mouse(MouseKind::ScrollUp, rect.x, rect.y)).is_empty());
        // On a screen too small to draw, clicks mean nothing; nor before the app knows the screen.
        let mut app = app;
        let _ = app.update(resized(20, 10));
        assert!(actions_for_input(&app, mouse(MouseKind::Click, rect.x, rect.y)).is_empty());
        let untold = App::new(Players {
            black: Player::Human,
            white: Player::Human,
        })
        .0;
        assert!(actions_for_input(&untold, mouse(MouseKind::Click, rect.x, rect.y)).is_empty());
    }

    #[test]
    fn clicks_under_the_help_do_nothing() {
        let mut app = humans();
        let _ = app.update(Action::Help(HelpAction::Toggle));
        let area = Rect::new(0, 0, 80, 24);
        let rect = ScreenLayout::new(area, app.board())
            .expect("big enough")
            .square_rect(2, 5);
        assert!(actions_for_input(&app, mouse(MouseKind::Click, rect.x, rect.y)).is_empty());
    }

    #[test]
    fn a_paste_is_one_action_and_a_resize_tells_the_app_whether_its_game_fits() {
        let app = humans();
        assert_eq!(
            actions_for_input(&app, InputEvent::Paste("9-13\n".into())),
            vec![Action::Paste("9-13\n".into())]
        );
        let resize = |width, height| InputEvent::Resize { width, height };
        assert_eq!(
            actions_for_input(&app, resize(80, 24)),
            vec![Action::Resized {
                width: 80,
                height: 24
            }]
        );
        let mut app = app;
        assert!(app.fits());
        let _ = app.update(Action::Resized {
            width: 20,
            height: 10,
        });
        assert!(!app.fits());
    }
}
