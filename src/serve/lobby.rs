//! The lobby: what a player sees after connecting. From here they play the engine, open a game against a person
//! (the form: variant, colour, clock, rated or not, open to anyone or by code), join an open game or one by its
//! code, watch a game in progress, or go back to a game of theirs; their rating and the leaderboard are shown.
//!
//! A pure state machine like the app: keys in, a [`Choice`] out when the player has chosen; the lists are
//! brought up to date by the front end ([`Lobby::refresh`]) and drawn by [`view`].

pub mod view;

use super::codes::read_code;
use super::ids::{Fingerprint, RoomCode};
use super::records::Standing;
use super::seating::NewTable;
use super::tables::Listing;
use crate::app::{Key, KeyCode};
use crate::game::TimeControl;
use crate::rules::{Color, Variant};

/// The clocks a table can have: the same list as the new-game dialog's.
pub use crate::game::TIME_CONTROL_CHOICES as CLOCKS;

/// What the player chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A game against the engine (or the unfinished one, offered).
    Engine,
    /// The player's saved games (against the engine and against people), to open one.
    SavedGames,
    /// A new game against a person.
    New(NewTable),
    /// A seat at the game with this code.
    Join(RoomCode),
    /// Watching the game with this code.
    Watch(RoomCode),
    /// Leaving.
    Quit,
}

/// One line of the lobby that Enter acts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// Play the engine.
    Engine,
    /// The player's saved games.
    SavedGames,
    /// Open the form for a new game against a person.
    NewGame,
    /// Type a code to join.
    JoinByCode,
    /// A game of the player's own, not over: back to their seat.
    Mine(Listing),
    /// A game waiting for an opponent, open to anyone.
    Open(Listing),
    /// A game in progress, to watch.
    Live(Listing),
    /// Leave.
    Quit,
}

/// The form for a new game against a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    /// The row with the cursor.
    pub row: usize,
    /// The variant, by index in [`Variant::ALL`].
    pub variant: usize,
    /// The colour: 0 either, 1 Black, 2 White.
    pub color: usize,
    /// The clock, by index in [`CLOCKS`].
    pub clock: usize,
    /// Whether the game is rated.
    pub rated: bool,
    /// Whether it is listed for anyone to join (else by code only).
    pub public: bool,
}

/// The form's rows, in order.
pub const FORM_ROWS: [&str; 5] = ["Variant", "Colour", "Clock", "Rated", "Who may join"];

impl Form {
    fn new() -> Form {
        Form {
            row: 0,
            variant: 0,
            color: 0,
            clock: 3,
            rated: true,
            // The same default as `new`: one rule for both ways of opening a game.
            public: !NewTable::default().private,
        }
    }

    /// Each row's value in words.
    pub fn values(&self) -> [String; 5] {
        [
            Variant::ALL[self.variant].title().to_string(),
            ["either (drawn at random)", "Black", "White"][self.color].to_string(),
            match CLOCKS[self.clock] {
                "none" => "no clock".to_string(),
                "30s" => "30 seconds a move".to_string(),
                fischer => format!("{fischer} (minutes + seconds a move)"),
            },
            if self.rated { "yes" } else { "no" }.to_string(),
            if self.public {
                "anyone (listed here)"
            } else {
                "only with the code"
            }
            .to_string(),
        ]
    }

    /// Changes the row with the cursor one step (`forward` or back).
    fn step(&mut self, forward: bool) {
        let turn = |value: usize, count: usize| {
            if forward {
                (value + 1) % count
            } else {
                (value + count - 1) % count
            }
        };
        match self.row {
            0 => self.variant = turn(self.variant, Variant::ALL.len()),
            1 => self.color = turn(self.color, 3),
            2 => self.clock = turn(self.clock, CLOCKS.len()),
            3 => self.rated = !self.rated,
            _ => self.public = !self.public,
        }
    }

    /// The game the form describes.
    fn table(&self) -> NewTable {
        NewTable {
            variant: Variant::ALL[self.variant],
            clock: CLOCKS[self.clock].parse::<TimeControl>().ok(),
            color: [None, Some(Color::Black), Some(Color::White)][self.color],
            rated: self.rated,
            private: !self.public,
        }
    }
}

/// What the lobby shows over its list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Panel {
    /// The form for a new game.
    Form(Form),
    /// The code being typed.
    Code(String),
    /// The keys.
    Help,
}

/// The lobby's state.
#[derive(Clone, Debug)]
pub struct Lobby {
    /// The player's name.
    pub name: String,
    /// Their key's fingerprint (their games are found by it).
    pub fingerprint: Fingerprint,
    /// Whether they are a guest (no rated games, nothing kept).
    pub guest: bool,
    /// Their English rating and rated games, when known.
    pub rating: Option<(i32, i64)>,
    /// The best English players.
    pub leaders: Vec<Standing>,
    /// The lines Enter acts on.
    pub items: Vec<Item>,
    /// The line with the cursor.
    pub cursor: usize,
    /// What is open over the list.
    pub panel: Option<Panel>,
    /// What the status line says.
    pub message: String,
}

impl Lobby {
    /// The lobby of the player `name` with key `fingerprint`.
    pub fn new(name: &str, fingerprint: &Fingerprint, guest: bool) -> Lobby {
        let mut lobby = Lobby {
            name: name.to_string(),
            fingerprint: fingerprint.clone(),
            guest,
            rating: None,
            leaders: Vec::new(),
            items: Vec::new(),
            cursor: 0,
            panel: None,
            message: "↑↓ choose, Enter goes; ? the keys; q leaves".into(),
        };
        lobby.refresh(Vec::new());
        lobby
    }

    /// Brings the lists up to date with the server's rooms; the cursor stays on the same line where it can.
    pub fn refresh(&mut self, listings: Vec<Listing>) {
        let current = self.items.get(self.cursor).cloned();
        let mut items = vec![Item::Engine, Item::NewGame, Item::JoinByCode];
        if !self.guest {
            items.push(Item::SavedGames);
        }
        let (mut mine, mut open, mut live) = (Vec::new(), Vec::new(), Vec::new());
        for listing in listings {
            if listing.seats_player(&self.fingerprint) {
                mine.push(Item::Mine(listing));
            } else if listing.open() && !listing.config.private {
                open.push(Item::Open(listing));
            } else if !listing.over && !listing.open() && !listing.config.private {
                live.push(Item::Live(listing));
            }
        }
        items.extend(mine);
        items.extend(open);
        items.extend(live);
        items.push(Item::Quit);
        self.cursor = current
            .and_then(|c| items.iter().position(|i| same_line(i, &c)))
            .unwrap_or(self.cursor.min(items.len() - 1));
        self.items = items;
    }

    /// Handles a key; the player's choice, once made.
    pub fn key(&mut self, key: Key) -> Option<Choice> {
        if key.is_interrupt() {
            return Some(Choice::Quit);
        }
        match self.panel.clone() {
            Some(Panel::Help) => {
                self.panel = None;
                None
            }
            Some(Panel::Form(form)) => self.form_key(form, key),
            Some(Panel::Code(code)) => self.code_key(code, key),
            None => self.list_key(key),
        }
    }

    fn list_key(&mut self, key: Key) -> Option<Choice> {
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.cursor = (self.cursor + 1).min(self.items.len() - 1)
            }
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = self.items.len() - 1,
            KeyCode::Char('?') => self.panel = Some(Panel::Help),
            KeyCode::Char('q') | KeyCode::Esc => return Some(Choice::Quit),
            KeyCode::Char('e') => return Some(Choice::Engine),
            KeyCode::Char('o') if !self.guest => return Some(Choice::SavedGames),
            KeyCode::Char('n') => self.open_form(),
            KeyCode::Char('c') => self.panel = Some(Panel::Code(String::new())),
            KeyCode::Enter | KeyCode::Char(' ') => return self.choose(),
            _ => {}
        }
        None
    }

    fn open_form(&mut self) {
        let mut form = Form::new();
        form.rated = !self.guest;
        self.panel = Some(Panel::Form(form));
        self.message = "↑↓ a row, ←→ change it, Enter opens the game, Esc goes back".into();
    }

    fn choose(&mut self) -> Option<Choice> {
        match self.items.get(self.cursor)? {
            Item::Engine => Some(Choice::Engine),
            Item::SavedGames => Some(Choice::SavedGames),
            Item::NewGame => {
                self.open_form();
                None
            }
            Item::JoinByCode => {
                self.panel = Some(Panel::Code(String::new()));
                self.message = "type the game's code (four letters and digits), Enter joins".into();
                None
            }
            Item::Mine(listing) | Item::Open(listing) => Some(Choice::Join(listing.code.clone())),
            Item::Live(listing) => Some(Choice::Watch(listing.code.clone())),
            Item::Quit => Some(Choice::Quit),
        }
    }

    fn form_key(&mut self, mut form: Form, key: Key) -> Option<Choice> {
        match key.code {
            KeyCode::Esc => {
                self.panel = None;
                self.message = "↑↓ choose, Enter goes; ? the keys; q leaves".into();
                return None;
            }
            KeyCode::Enter => {
                if form.rated && self.guest {
                    self.message =
                        "a guest's games are not rated: connect with a key to be rated".into();
                    form.rated = false;
                    self.panel = Some(Panel::Form(form));
                    return None;
                }
                self.panel = None;
                return Some(Choice::New(form.table()));
            }
            KeyCode::Up | KeyCode::Char('k') => form.row = form.row.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                form.row = (form.row + 1).min(FORM_ROWS.len() - 1)
            }
            KeyCode::Left | KeyCode::Char('h') => form.step(false),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => form.step(true),
            _ => {}
        }
        self.panel = Some(Panel::Form(form));
        None
    }

    fn code_key(&mut self, mut code: String, key: Key) -> Option<Choice> {
        match key.code {
            KeyCode::Esc => {
                self.panel = None;
                return None;
            }
            KeyCode::Backspace => {
                code.pop();
            }
            KeyCode::Enter => match read_code(&code) {
                Some(code) => {
                    self.panel = None;
                    return Some(Choice::Join(code));
                }
                None => {
                    self.message = format!("`{code}` is not a game's code: four letters and digits")
                }
            },
            KeyCode::Char(c) if c.is_ascii_alphanumeric() && code.len() < 8 => {
                code.push(c.to_ascii_uppercase())
            }
            _ => {}
        }
        self.panel = Some(Panel::Code(code));
        None
    }
}

/// Whether two lines are the same line of the list (a game by its code, however its summary changed).
fn same_line(a: &Item, b: &Item) -> bool {
    match (a, b) {
        (Item::Mine(x), Item::Mine(y))
        | (Item::Open(x), Item::Open(y))
        | (Item::Live(x), Item::Live(y)) => x.code == y.code,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::GameType;
    use crate::serve::room::RoomConfig;
    use std::time::Duration;

    fn listing(code: &str, seats: [Option<&str>; 2], private: bool) -> Listing {
        Listing {
            code: code.into(),
            config: RoomConfig {
                game_type: GameType::standard(Variant::English),
                clock: None,
                grace: Duration::from_secs(60),
                rated: true,
                private,
            },
            seats: seats.map(|s| s.map(|name| (format!("SHA256:{name}").into(), name.to_string()))),
            plies: 0,
            over: false,
            watchers: 0,
        }
    }

    #[test]
    fn the_lists_show_mine_open_and_live_games_and_hide_private_ones() {
        let mut lobby = Lobby::new("ann", &"SHA256:ann".into(), false);
        lobby.refresh(vec![
            listing("AAAA", [Some("bob"), None], false),
            listing("CCCC", [Some("cy"), None], true),
            listing("DDDD", [Some("dan"), Some("eve")], false),
            listing("MMMM", [Some("ann"), Some("bob")], true),
        ]);
        let kinds: Vec<String> = lobby
            .items
            .iter()
            .map(|i| match i {
                Item::Mine(l) => format!("mine {}", l.code),
                Item::Open(l) => format!("open {}", l.code),
                Item::Live(l) => format!("live {}", l.code),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "Engine",
                "NewGame",
                "JoinByCode",
                "SavedGames",
                "mine MMMM",
                "open AAAA",
                "live DDDD",
                "Quit"
            ]
        );
        // Enter on each line.
        lobby.cursor = 3;
        assert_eq!(
            lobby.key(Key::plain(KeyCode::Enter)),
            Some(Choice::SavedGames)
        );
        lobby.cursor = 4;
        assert_eq!(
            lobby.key(Key::plain(KeyCode::Enter)),
            Some(Choice::Join("MMMM".into()))
        );
        lobby.cursor = 6;
        assert_eq!(
            lobby.key(Key::plain(KeyCode::Enter)),
            Some(Choice::Watch("DDDD".into()))
        );
        // The cursor stays on its game when the list changes around it.
        lobby.refresh(vec![
            listing("BBBB", [Some("cy"), None], false),
            listing("DDDD", [Some("dan"), Some("eve")], false),
        ]);
        assert!(matches!(&lobby.items[lobby.cursor], Item::Live(l) if l.code == "DDDD"));
    }

    #[test]
    fn the_form_makes_the_game_asked_for() {
        let mut lobby = Lobby::new("ann", &"SHA256:ann".into(), false);
        lobby.cursor = 1;
        assert_eq!(lobby.key(Key::plain(KeyCode::Enter)), None);
        // Russian, White, 10+5, casual, by code.
        for key in [
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::Down,
            KeyCode::Right,
            KeyCode::Down,
            KeyCode::Right,
            KeyCode::Down,
            KeyCode::Right,
        ] {
            assert_eq!(lobby.key(Key::plain(key)), None);
        }
        let Some(Choice::New(table)) = lobby.key(Key::plain(KeyCode::Enter)) else {
            panic!("a new game");
        };
        assert_eq!(table.variant, Variant::ALL[2]);
        assert_eq!(table.color, Some(Color::White));
        assert_eq!(table.clock, "10+5".parse().ok());
        assert!(!table.rated && table.private);
    }

    #[test]
    fn the_form_and_new_open_games_listed_alike() {
        let Some(Ok(crate::serve::seating::TableAsk::New(typed))) =
            crate::serve::seating::read_ask("new")
        else {
            panic!("a new game");
        };
        // Listed for anyone by default both ways; `private` (or the form's last row) keeps it to the code.
        assert!(!typed.private);
        assert_eq!(Form::new().table().private, typed.private);
    }

    #[test]
    fn a_code_is_typed_checked_and_joined() {
        let mut lobby = Lobby::new("ann", &"SHA256:ann".into(), true);
        assert_eq!(lobby.key(Key::char('c')), None);
        for c in "k7q".chars() {
            assert_eq!(lobby.key(Key::char(c)), None);
        }
        assert_eq!(lobby.key(Key::plain(KeyCode::Enter)), None);
        assert!(
            lobby.message.contains("is not a game's code"),
            "{}",
            lobby.message
        );
        assert_eq!(lobby.key(Key::char('x')), None);
        assert_eq!(
            lobby.key(Key::plain(KeyCode::Enter)),
            Some(Choice::Join("K7QX".into()))
        );
        assert_eq!(lobby.key(Key::ctrl('c')), Some(Choice::Quit));
    }
}
