//! A tournament's screen as an entrant sees it on a server while they wait for their next game: the event's
//! heading, where the player stands, its table and pairings, and what the player's keys do there (scroll, the
//! help, withdraw after a question, leave). The keys are the `[keys.event]` context of the player's key map, so
//! they can be rebound and the help lists them as bound. The server fills in what the event says; this holds
//! what the player does with it.

use super::{Action, Context, EventAction, Key, KeyCode, KeyMap, bound_in};

/// The tournament screen's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventScreen {
    /// The event's name and code.
    pub title: String,
    /// Where the player stands (waiting, paired, withdrawn...).
    pub status: String,
    /// The table and pairings, one line each.
    pub table: String,
    /// Lines of the table scrolled past.
    pub scroll: u16,
    /// The player pressed the key that withdraws and is asked to confirm it.
    pub confirming_withdrawal: bool,
    /// The screen's keys, one line each, while the help is open.
    pub help: Option<Vec<(String, &'static str)>>,
    keys: KeyMap,
}

/// What the player's keys on the tournament screen come to, when they leave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventLeave {
    /// They leave the screen, and stay entered (away: an arena does not pair them meanwhile).
    Leave,
    /// They withdraw from the event for good (confirmed).
    Withdraw,
}

impl EventScreen {
    /// An empty screen whose keys are `keys`.
    pub fn new(keys: KeyMap) -> EventScreen {
        EventScreen {
            keys,
            ..EventScreen::default()
        }
    }

    /// The key map the screen follows.
    pub fn keys(&self) -> &KeyMap {
        &self.keys
    }

    /// Handles `key`: whether the player leaves the screen, and how. Withdrawing is for good, so it asks first
    /// and only `y` confirms; any key closes the help.
    pub fn key(&mut self, key: Key) -> Option<EventLeave> {
        if std::mem::take(&mut self.confirming_withdrawal) {
            return matches!(key.code, KeyCode::Char('y' | 'Y')).then_some(EventLeave::Withdraw);
        }
        if self.help.take().is_some() {
            return None;
        }
        let Some(Action::Event(action)) = bound_in(&self.keys, Context::Event, key) else {
            return None;
        };
        match action {
            EventAction::Leave => return Some(EventLeave::Leave),
            EventAction::Withdraw => self.confirming_withdrawal = true,
            EventAction::Down => self.scroll = self.scroll.saturating_add(1),
            EventAction::Up => self.scroll = self.scroll.saturating_sub(1),
            EventAction::Help => self.help = Some(self.keys.help(Context::Event)),
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{KeyChord, Modifiers};

    fn screen() -> EventScreen {
        EventScreen::new(crate::config::Settings::defaults().keys)
    }

    #[test]
    fn withdrawing_asks_first_and_only_y_confirms() {
        let mut screen = screen();
        assert_eq!(screen.key(Key::char('w')), None);
        assert!(screen.confirming_withdrawal);
        assert_eq!(screen.key(Key::char('n')), None, "another key stays in");
        assert!(!screen.confirming_withdrawal);
        assert_eq!(screen.key(Key::char('w')), None);
        assert_eq!(screen.key(Key::char('y')), Some(EventLeave::Withdraw));
    }

    #[test]
    fn the_keys_scroll_open_the_help_and_leave() {
        let mut screen = screen();
        assert_eq!(screen.key(Key::char('j')), None);
        assert_eq!(screen.key(Key::char('j')), None);
        assert_eq!(screen.key(Key::char('k')), None);
        assert_eq!(screen.scroll, 1);
        assert_eq!(screen.key(Key::char('?')), None);
        let help = screen.help.clone().expect("the help is open");
        assert!(
            help.iter().any(|(_, what)| what.contains("withdraw")),
            "{help:?}"
        );
        assert_eq!(
            screen.key(Key::char('q')),
            None,
            "a key closes the help first"
        );
        assert!(screen.help.is_none());
        assert_eq!(screen.key(Key::char('q')), Some(EventLeave::Leave));
    }

    #[test]
    fn the_keys_follow_the_player_s_key_map() {
        let mut keys = crate::config::Settings::defaults().keys;
        keys.bind(
            Context::Event,
            "leave",
            &[KeyChord::new(KeyCode::Char('x'), Modifiers::NONE)],
        )
        .expect("bound");
        let mut screen = EventScreen::new(keys);
        assert_eq!(screen.key(Key::char('q')), None, "q is not bound any more");
        assert_eq!(screen.key(Key::char('x')), Some(EventLeave::Leave));
    }
}
