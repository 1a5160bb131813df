//! Lists of games (the saved games, the games of a file) and replaying a game from a file: stepping through it,
//! playing it back on a timer, continuing it as a new game.

use super::App;
use crate::app::action::{Action, BrowseAction, Effect, ListAction, ReplayAction, Timer};
use crate::app::library::{GameList, ListPurpose, Replay};
use crate::app::mode::{Focus, Mode};
use crate::config::Context;
use crate::store::{GAME_ID_TAG, GameEntry, NAME_TAG};
use tui_input::InputRequest;

/// The longest filter a list takes: longer text finds nothing more.
const FILTER_LIMIT: usize = 100;

impl App {
    /// Opens `list` for choosing, or says there is nothing in it.
    pub(super) fn show_games(&mut self, list: GameList) {
        if list.entries.is_empty() {
            self.status = match list.purpose {
                ListPurpose::Load => {
                    "no saved games yet (:save [name] saves the game on the board)".into()
                }
                ListPurpose::Replay => format!("no games in {}", list.title),
            };
            return;
        }
        self.status = format!(
            "{}: {} games. Enter opens the selected one, / finds, s sorts, Esc closes the list",
            list.title,
            list.entries.len()
        );
        self.overlay.open_list(list);
    }

    /// What a list of games does with an action: choose, filter (keys go to the filter while it is typed),
    /// sort, open, close.
    pub(super) fn list_action(&mut self, action: &Action) -> Vec<Effect> {
        let Some(list) = self.overlay.list_mut() else {
            return Vec::new();
        };
        if list.view.typing {
            match action {
                Action::Edit(InputRequest::InsertChar(c)) => {
                    if list.view.filter.chars().count() < FILTER_LIMIT {
                        list.view.filter.push(*c);
                        list.filter_changed();
                    }
                    return Vec::new();
                }
                Action::Edit(InputRequest::DeletePrevChar) => {
                    list.view.filter.pop();
                    list.filter_changed();
                    return Vec::new();
                }
                // Esc while typing clears the filter; Enter opens the game selected, as it does otherwise.
                Action::Cancel => {
                    list.view.typing = false;
                    list.view.filter.clear();
                    list.filter_changed();
                    return Vec::new();
                }
                _ => {}
            }
        }
        match action {
            Action::List(ListAction::Filter) => list.view.typing = true,
            Action::List(ListAction::Sort) => list.next_sort(),
            Action::List(ListAction::Reverse) => list.reverse(),
            Action::Up | Action::Left => list.step(-1),
            Action::Down | Action::Right => list.step(1),
            Action::List(ListAction::Step(step)) => list.step(*step),
            Action::Browse(BrowseAction::First) => list.step(isize::MIN),
            Action::Browse(BrowseAction::Last) => list.step(isize::MAX),
            Action::PickAtCursor | Action::SubmitInput => {
                let purpose = list.purpose;
                let Some(entry) = list.chosen().cloned() else {
                    // A filter that finds nothing: there is nothing to open.
                    self.status = "no game found: Esc clears the filter".into();
                    return Vec::new();
                };
                self.overlay.close_panel();
                return self.open_entry(entry, purpose);
            }
            Action::Cancel | Action::Quit => {
                self.overlay.close_panel();
                self.status = self.mode_message();
            }
            _ => {}
        }
        Vec::new()
    }

    /// Opens a game chosen from a list: one of the program's own unfinished games goes on where it stood with
    /// its players; any other game is replayed from its start.
    pub(super) fn open_entry(&mut self, entry: GameEntry, purpose: ListPurpose) -> Vec<Effect> {
        match entry.players {
            Some(players)
                if purpose == ListPurpose::Load
                    && entry.error.is_none()
                    && entry.game.outcome().is_none() =>
            {
                let source = entry.source.clone();
                let file = entry.file.clone();
                let mut effects = self.leave_game();
                effects.extend(self.resume_game(entry.game.into_game(), players, entry.clock));
                self.saved_file = file;
                // Opening a saved game is not a move: it goes into the autosave only when it changes.
                self.game_changed = false;
                if matches!(self.mode, Mode::Play) {
                    self.status = format!("{source}: {}", self.mode_message());
                }
                effects
            }
            _ => {
                let effects = self.leave_game();
                self.open_replay(entry);
                // The player's game has been filed: the autosave must not offer it again.
                self.game_changed = true;
                effects
            }
        }
    }

    /// Shows `entry` from its start, for stepping through; nobody moves until it is continued.
    pub(super) fn open_replay(&mut self, entry: GameEntry) {
        let flipped = self.flipped;
        let replay = Replay::of(&entry);
        let file = entry.file.clone();
        let mut game = entry.game.into_game();
        game.go_to(game.len());
        self.reset(game, self.players);
        // One of the player's own saved games, replayed: `:save` updates its file rather than copying it.
        self.saved_file = file;
        self.flipped = flipped;
        self.replay = Some(replay);
        self.mode = Mode::Browsing { ply: 0 };
        // The arrows step through the moves; the board has nothing to pick.
        self.focus = Focus::History;
        self.status = match self.replay.as_ref().and_then(|r| r.error.as_deref()) {
            Some(error) => format!(
                "{}: the record stops {}: {error}",
                self.replay_source(),
                self.point(self.play.game().len())
            ),
            None => self.mode_message(),
        };
    }

    pub(super) fn replay_source(&self) -> &str {
        self.replay.as_ref().map_or("", |r| r.source.as_str())
    }

    /// What replaying does with an action, or `None` for the actions that work as in a game (browsing, typing,
    /// help, a new game, quitting).
    pub(super) fn replay_action(&mut self, action: &Action) -> Option<Vec<Effect>> {
        let replay = self.replay.as_mut()?;
        let ply = match self.mode {
            Mode::Browsing { ply } => ply,
            _ => self.play.game().len(),
        };
        let live = self.play.game().len();
        match action {
            Action::Replay(ReplayAction::AutoPlay) => {
                replay.playing = !replay.playing;
                if replay.playing && ply == live {
                    // Played back from the start when started at the end.
                    self.mode = Mode::Browsing { ply: 0 };
                }
                let wake = replay.playing.then(|| Effect::Wake {
                    timer: Timer::Replay,
                    after: replay.interval(),
                });
                self.status = self.mode_message();
                return Some(wake.into_iter().collect());
            }
            Action::Replay(ReplayAction::Speed(faster)) => {
                replay.change_speed(*faster);
                // The new speed counts from now.
                let wake = replay.playing.then(|| Effect::Wake {
                    timer: Timer::Replay,
                    after: replay.interval(),
                });
                self.status = self.mode_message();
                return Some(wake.into_iter().collect());
            }
            Action::Replay(ReplayAction::Continue) => return Some(self.continue_replay(ply)),
            Action::Cancel if self.focus != Focus::Input => {
                replay.playing = false;
                self.focus = Focus::History;
            }
            // The cursor keys step through the moves while the move list has them, as in a game.
            Action::Browse(BrowseAction::Back) | Action::Up | Action::Left
                if self.focus == Focus::History
                    || *action == Action::Browse(BrowseAction::Back) =>
            {
                self.mode = Mode::Browsing {
                    ply: ply.saturating_sub(1),
                };
            }
            Action::Browse(BrowseAction::Forward) | Action::Down | Action::Right
                if self.focus == Focus::History
                    || *action == Action::Browse(BrowseAction::Forward) =>
            {
                self.mode = Mode::Browsing {
                    ply: (ply + 1).min(live),
                };
            }
            Action::Browse(BrowseAction::First) => self.mode = Mode::Browsing { ply: 0 },
            Action::Browse(BrowseAction::Last) => self.mode = Mode::Browsing { ply: live },
            Action::PickAtCursor
            | Action::PickSquare(_)
            | Action::Undo
            | Action::Redo
            | Action::MoveNow
            | Action::Hint
            | Action::Rematch => {
                let source = replay.source.clone();
                self.status = format!(
                    "replaying {source}: {} continues from here as a new game",
                    self.key(Context::Replay, "continue", ":continue")
                );
                return Some(Vec::new());
            }
            _ => return None,
        }
        self.status = self.mode_message();
        Some(Vec::new())
    }

    /// Auto-play's timer: the next move of the replayed game, and the timer again unless it was the last.
    pub(super) fn replay_tick(&mut self) -> Vec<Effect> {
        let live = self.play.game().len();
        let ply = match self.mode {
            Mode::Browsing { ply } => ply,
            _ => live,
        };
        let Some(replay) = self.replay.as_mut().filter(|r| r.playing) else {
            return Vec::new();
        };
        let next = (ply + 1).min(live);
        replay.playing = next < live;
        let wake = replay.playing.then(|| Effect::Wake {
            timer: Timer::Replay,
            after: replay.interval(),
        });
        self.mode = Mode::Browsing { ply: next };
        self.status = self.mode_message();
        wake.into_iter().collect()
    }

    /// A new game from the replayed game's position after `ply` moves, with those moves as its history.
    pub(super) fn continue_replay(&mut self, ply: usize) -> Vec<Effect> {
        let mut game = self.play.game().clone();
        game.go_to(ply);
        game.truncate();
        // The record's result belongs to the game as it was played, and so do its identity and name among the
        // saved games: the game continued from it is a new one, filed apart.
        for tag in ["Result", GAME_ID_TAG, NAME_TAG] {
            game.tags_mut().remove(tag);
        }
        let source = self.replay_source().to_string();
        let effects = self.start_game(game, self.players);
        if matches!(self.mode, Mode::Play) {
            self.status = format!(
                "continuing {source} from {}: {}",
                self.point(ply),
                self.mode_message()
            );
        }
        effects
    }
}
