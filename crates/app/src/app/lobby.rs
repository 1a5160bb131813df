//! The lobby of a server: what a player sees after connecting. From here they play the engine, open a game
//! against a person (the form: variant, colour, clock, rated or not, open to anyone or by code), join an open
//! game or one by its code, watch a game in progress, or go back to a game of theirs, or open the problem
//! trainer (for their problem rating, the problem of the day, or a streak); their ratings and the leaderboard
//! are shown.
//!
//! A pure state machine like the app: keys in (looked up in the key map, [`Context::Lobby`], the form taking the
//! new-game dialog's keys), a [`Choice`] out when the player has chosen. The front end brings the lists up to
//! date ([`Lobby::refresh`]) and draws it with [`crate::ui::lobby`].

mod form;

pub use form::{FORM_ROWS, Form};

use super::action::{Action, LobbyAction};
use super::event::{Key, KeyCode};
use super::keymap::{Context, KeyMap, bound_in};
use super::settings_screen::{ScreenOutcome, SettingsScreen};
use super::table::{NewTable, read_table_code};
use super::trainer::TrainingKind;
use crate::config::{SettingEdit, SettingRow};
use crate::game::TimeControl;
use crate::rules::{GameType, Variant};

/// A game the lobby lists, as the server describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyGame {
    /// The code it is joined by.
    pub code: String,
    /// Its variant and board.
    pub game_type: GameType,
    /// Its time control, if it has clocks.
    pub clock: Option<TimeControl>,
    /// Whether it changes ratings.
    pub rated: bool,
    /// Whether it is joined by its code only.
    pub private: bool,
    /// The players' names, Black's then White's (`None`: a free seat).
    pub players: [Option<String>; 2],
    /// Whether the player of this lobby has a seat at it.
    pub mine: bool,
    /// Moves played.
    pub plies: usize,
    /// Whether it has ended.
    pub over: bool,
    /// People watching.
    pub watchers: usize,
}

impl LobbyGame {
    /// Whether someone may sit down: a seat is free and the game is not over.
    pub fn open(&self) -> bool {
        !self.over && self.players.iter().any(Option::is_none)
    }
}

/// A tournament the lobby lists, as the server describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyEvent {
    /// The code it is entered by.
    pub code: String,
    /// Its name, kind, clock, start time and entrants, as one line.
    pub summary: String,
}

/// A line of the leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Leader {
    /// The player's name.
    pub name: String,
    /// Their rating.
    pub rating: f64,
    /// Their rated games.
    pub games: i64,
    /// Whether the rating is still provisional (too few games to be sure of it): shown `1500?`.
    pub provisional: bool,
}

/// A player's own rating as the lobby shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnRating {
    /// The rating, rounded.
    pub rating: i32,
    /// Rated games played.
    pub games: i64,
    /// Whether it is still provisional: shown `1500?`, as lichess does, until enough games settle it.
    pub provisional: bool,
}

/// A rating as players read it: `1512`, or `1512?` while provisional.
pub fn rating_text(rating: i32, provisional: bool) -> String {
    match provisional {
        true => format!("{rating}?"),
        false => rating.to_string(),
    }
}

/// A player's problem standing as the lobby shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProblemsShown {
    /// Their problem rating, rounded.
    pub rating: i32,
    /// Problems tried for it.
    pub tried: i64,
    /// Their best streak.
    pub best_streak: i64,
}

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
    Join(String),
    /// Watching the game with this code.
    Watch(String),
    /// The problem trainer, open for this.
    Problems(TrainingKind),
    /// Entering the tournament with this code.
    Event(String),
    /// Creating a tournament set up by these words (as `tournament new` takes them), and entering it.
    NewEvent(String),
    /// The settings screen, to open with the settings in force ([`Lobby::open_settings`]).
    Settings,
    /// A change made on the settings screen, to carry out and answer ([`Lobby::setting_answered`]).
    ChangeSetting(SettingEdit),
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
    /// Open the problem trainer for this.
    Problems(TrainingKind),
    /// A game of the player's own, not over: back to their seat.
    Mine(LobbyGame),
    /// A game waiting for an opponent, open to anyone.
    Open(LobbyGame),
    /// A game in progress, to watch.
    Live(LobbyGame),
    /// A tournament waiting or under way, to enter.
    Event(LobbyEvent),
    /// Open the line for a new tournament.
    NewEvent,
    /// Leave.
    Quit,
}

/// What the lobby shows over its list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Panel {
    /// The form for a new game.
    Form(Form),
    /// The code being typed.
    Code(String),
    /// The words of a new tournament being typed.
    NewEvent(String),
    /// The settings screen.
    Settings(Box<SettingsScreen>),
    /// What happened while the player was away, told once as they arrive.
    News(Vec<String>),
    /// The keys.
    Help,
}

/// The most characters of a new tournament's words.
const EVENT_TYPED_LIMIT: usize = 120;

/// What the line for a new tournament starts with, to edit.
pub const NEW_EVENT_WORDS: &str = "arena 3+2 minutes=30 in=5 name=";

/// The most characters of a code being typed (a code has four; spaces and dashes are not kept).
const CODE_TYPED_LIMIT: usize = 8;

/// The lobby's state.
#[derive(Clone, Debug)]
pub struct Lobby {
    /// The player's name.
    pub name: String,
    /// Whether they are a guest (no rated games, nothing kept).
    pub guest: bool,
    /// Their English rating and rated games, when known.
    pub rating: Option<OwnRating>,
    /// The best English players.
    pub leaders: Vec<Leader>,
    /// Their problem standing, when known.
    pub problems: Option<ProblemsShown>,
    /// The problem of the day's title.
    pub daily: Option<String>,
    /// The lines Enter acts on.
    pub items: Vec<Item>,
    /// The line with the cursor.
    pub cursor: usize,
    /// What is open over the list.
    pub panel: Option<Panel>,
    /// What the status line says.
    pub message: String,
    /// The player's keys.
    keys: KeyMap,
    /// The variants the form offers: the built-ins, then the server's defined ones.
    variants: Vec<Variant>,
    /// The tournaments listed, as of the last [`Lobby::list_events`].
    events: Vec<LobbyEvent>,
}

impl Lobby {
    /// The lobby of the player `name`, with their keys.
    pub fn new(name: &str, guest: bool, keys: KeyMap) -> Lobby {
        let mut lobby = Lobby {
            name: name.to_string(),
            guest,
            rating: None,
            leaders: Vec::new(),
            problems: None,
            daily: None,
            items: Vec::new(),
            cursor: 0,
            panel: None,
            message: String::new(),
            keys,
            variants: Variant::ALL.to_vec(),
            events: Vec::new(),
        };
        lobby.message = lobby.list_message();
        lobby.refresh(Vec::new());
        lobby
    }

    /// Offers the variants `defined` (written as definitions, which the server plays) in the form, after the
    /// built-ins.
    pub fn offer(&mut self, defined: &[Variant]) {
        let mut variants = Variant::ALL.to_vec();
        for &variant in defined {
            if !variants.contains(&variant) {
                variants.push(variant);
            }
        }
        self.variants = variants;
    }

    /// Opens the settings screen over the list, with the look's `rows` as the settings in force give them and
    /// where changes are kept.
    pub fn open_settings(&mut self, rows: Vec<SettingRow>, saved_in: String) {
        let screen = SettingsScreen::new(rows, &self.keys, saved_in);
        self.panel = Some(Panel::Settings(Box::new(screen)));
    }

    /// The answer to a change made on the settings screen; `keys`, the player's keys once it is in force.
    pub fn setting_answered(
        &mut self,
        edit: &SettingEdit,
        answer: Result<String, String>,
        keys: Option<KeyMap>,
    ) {
        if let Some(keys) = keys {
            self.keys = keys;
        }
        if let Some(Panel::Settings(screen)) = &mut self.panel {
            screen.answered(edit, answer);
            screen.follow_keys(&self.keys);
        }
    }

    /// Tells what happened while the player was away (any key closes it).
    pub fn tell_news(&mut self, news: Vec<String>) {
        if !news.is_empty() {
            self.panel = Some(Panel::News(news));
        }
    }

    /// Follows the player's keys as they are now (changed in a game's settings screen, say).
    pub fn follow_keys(&mut self, keys: KeyMap) {
        self.keys = keys;
    }

    /// The player's keys.
    pub fn keys(&self) -> &KeyMap {
        &self.keys
    }

    /// What the status line says over the list: the keys that matter most, as the player has them.
    pub fn list_message(&self) -> String {
        format!(
            "↑↓ choose, {} goes; {} the keys; {} leaves",
            self.key_name(Context::Lobby, "choose", "Enter"),
            self.key_name(Context::Lobby, "help", "?"),
            self.key_name(Context::Lobby, "quit", "Ctrl-c"),
        )
    }

    /// The first key bound to a command, as the help writes it, or `fallback` when none is.
    fn key_name(&self, context: Context, command: &str, fallback: &str) -> String {
        self.keys
            .first_key(context, command)
            .map_or_else(|| fallback.to_string(), |key| key.to_string())
    }

    /// The tournaments to list from the next [`Lobby::refresh`] on.
    pub fn list_events(&mut self, events: Vec<LobbyEvent>) {
        self.events = events;
    }

    /// Brings the lists up to date with the server's games; the cursor stays on the same line where it can.
    pub fn refresh(&mut self, games: Vec<LobbyGame>) {
        let current = self.items.get(self.cursor).cloned();
        let mut items = vec![Item::Engine, Item::NewGame, Item::JoinByCode];
        if !self.guest {
            items.push(Item::SavedGames);
        }
        items.extend(
            [
                TrainingKind::Rated,
                TrainingKind::Daily,
                TrainingKind::Streak,
            ]
            .map(Item::Problems),
        );
        let (mut mine, mut open, mut live) = (Vec::new(), Vec::new(), Vec::new());
        for game in games {
            if game.mine && !game.over {
                mine.push(Item::Mine(game));
            } else if game.open() && !game.private {
                open.push(Item::Open(game));
            } else if !game.over && !game.open() && !game.private {
                live.push(Item::Live(game));
            }
        }
        items.extend(mine);
        items.extend(open);
        items.extend(live);
        items.extend(self.events.iter().cloned().map(Item::Event));
        if !self.guest {
            items.push(Item::NewEvent);
        }
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
        if let Some(Panel::Settings(screen)) = &mut self.panel {
            return match screen.key(key) {
                ScreenOutcome::Nothing => None,
                ScreenOutcome::Change(edit) => Some(Choice::ChangeSetting(edit)),
                ScreenOutcome::Close => {
                    self.panel = None;
                    self.message = self.list_message();
                    None
                }
            };
        }
        match self.panel.clone() {
            Some(Panel::Help | Panel::News(_)) => {
                self.panel = None;
                None
            }
            Some(Panel::Form(form)) => self.form_key(form, key),
            Some(Panel::Settings(_)) => None,
            Some(Panel::Code(code)) => self.code_key(code, key),
            Some(Panel::NewEvent(words)) => self.event_key(words, key),
            None => self.list_key(key),
        }
    }

    fn list_key(&mut self, key: Key) -> Option<Choice> {
        let Some(Action::Lobby(action)) = bound_in(&self.keys, Context::Lobby, key) else {
            return None;
        };
        let last = self.items.len() - 1;
        match action {
            LobbyAction::Up => self.cursor = self.cursor.saturating_sub(1),
            LobbyAction::Down => self.cursor = (self.cursor + 1).min(last),
            LobbyAction::First => self.cursor = 0,
            LobbyAction::Last => self.cursor = last,
            LobbyAction::Help => self.panel = Some(Panel::Help),
            LobbyAction::Settings => return Some(Choice::Settings),
            LobbyAction::Quit => return Some(Choice::Quit),
            LobbyAction::Engine => return Some(Choice::Engine),
            LobbyAction::SavedGames if !self.guest => return Some(Choice::SavedGames),
            LobbyAction::SavedGames => {}
            LobbyAction::NewGame => self.open_form(),
            LobbyAction::JoinByCode => self.open_code(),
            LobbyAction::Problems(kind) => return Some(Choice::Problems(kind)),
            LobbyAction::Choose => return self.choose(),
        }
        None
    }

    fn open_form(&mut self) {
        let mut form = Form::offering(self.variants.clone());
        form.rated = !self.guest;
        self.panel = Some(Panel::Form(form));
        self.message = "↑↓ a row, ←→ change it, Enter opens the game, Esc goes back".into();
    }

    fn open_code(&mut self) {
        self.panel = Some(Panel::Code(String::new()));
        self.message = "type the game's code (four letters and digits), Enter joins".into();
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
                self.open_code();
                None
            }
            Item::Problems(kind) => Some(Choice::Problems(*kind)),
            Item::Mine(game) | Item::Open(game) => Some(Choice::Join(game.code.clone())),
            Item::Live(game) => Some(Choice::Watch(game.code.clone())),
            Item::Event(event) => Some(Choice::Event(event.code.clone())),
            Item::NewEvent => {
                self.panel = Some(Panel::NewEvent(NEW_EVENT_WORDS.to_string()));
                self.message =
                    "type the tournament's words, Enter creates it and enters you, Esc goes back"
                        .into();
                None
            }
            Item::Quit => Some(Choice::Quit),
        }
    }

    /// The form takes the new-game dialog's keys: it is the same kind of form.
    fn form_key(&mut self, mut form: Form, key: Key) -> Option<Choice> {
        let action = bound_in(&self.keys, Context::Dialog, key);
        match action {
            Some(Action::Cancel) => {
                self.close_panel();
                return None;
            }
            Some(Action::PickAtCursor) => {
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
            Some(Action::Up) => form.move_row(true),
            Some(Action::Down) => form.move_row(false),
            Some(Action::Left) => form.step(false),
            Some(Action::Right) => form.step(true),
            _ => {}
        }
        self.panel = Some(Panel::Form(form));
        None
    }

    /// A code is typed, not looked up in the key map: letters and digits go in (upper case), Enter joins.
    fn code_key(&mut self, code: String, key: Key) -> Option<Choice> {
        let edit = edit_line(code, key, CODE_TYPED_LIMIT, |c| {
            c.is_ascii_alphanumeric().then(|| c.to_ascii_uppercase())
        });
        match edit {
            LineEdit::Back => self.close_panel(),
            LineEdit::Typing(code) => self.panel = Some(Panel::Code(code)),
            LineEdit::Done(code) => match read_table_code(&code) {
                Some(code) => {
                    self.panel = None;
                    return Some(Choice::Join(code));
                }
                None => {
                    self.message =
                        format!("`{code}` is not a game's code: four letters and digits");
                    self.panel = Some(Panel::Code(code));
                }
            },
        }
        None
    }

    /// A new tournament's words are typed, not looked up in the key map: any printable character goes in,
    /// Enter creates it (when there are words).
    fn event_key(&mut self, words: String, key: Key) -> Option<Choice> {
        match edit_line(words, key, EVENT_TYPED_LIMIT, |c| {
            (!c.is_control()).then_some(c)
        }) {
            LineEdit::Back => self.close_panel(),
            LineEdit::Done(words) if !words.trim().is_empty() => {
                self.close_panel();
                return Some(Choice::NewEvent(words));
            }
            LineEdit::Typing(words) | LineEdit::Done(words) => {
                self.panel = Some(Panel::NewEvent(words))
            }
        }
        None
    }

    /// Closes what is open over the list and says the list's keys again.
    fn close_panel(&mut self) {
        self.panel = None;
        self.message = self.list_message();
    }
}

/// What a key did to a line being typed.
enum LineEdit {
    /// Esc: the line is given up.
    Back,
    /// The line as it now reads.
    Typing(String),
    /// Enter: the line as typed.
    Done(String),
}

/// A key applied to a line typed in the lobby (a code, a tournament's words): Esc gives it up, Enter ends it,
/// Backspace takes the last character off, and a character `admit` lets in (as it turns it) goes on the end
/// while the line is shorter than `limit` characters.
fn edit_line(
    mut line: String,
    key: Key,
    limit: usize,
    admit: impl Fn(char) -> Option<char>,
) -> LineEdit {
    match key.code {
        KeyCode::Esc => return LineEdit::Back,
        KeyCode::Enter => return LineEdit::Done(line),
        KeyCode::Backspace => {
            line.pop();
        }
        KeyCode::Char(c) if line.chars().count() < limit => {
            if let Some(c) = admit(c) {
                line.push(c);
            }
        }
        _ => {}
    }
    LineEdit::Typing(line)
}

/// Whether two lines are the same line of the list (a game by its code, however its summary changed).
fn same_line(a: &Item, b: &Item) -> bool {
    match (a, b) {
        (Item::Mine(x), Item::Mine(y))
        | (Item::Open(x), Item::Open(y))
        | (Item::Live(x), Item::Live(y)) => x.code == y.code,
        (Item::Event(x), Item::Event(y)) => x.code == y.code,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests;
