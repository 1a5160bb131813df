//! The analysis panel: the engine's live view of the position on show (its score, depth and best line), for the
//! game in play, a position browsed back to, or a record being replayed.
//!
//! The panel's search is not one the game waits for: it runs only while nothing else needs the engine (no move,
//! draw offer or hint is being searched for), on whichever position is on show, and it is started, replaced and
//! stopped by [`App::sync_analysis`] after every action, by comparing what the panel wants with what runs. A
//! search the game starts replaces it on the engine (each session has one search at a time); the panel then shows
//! that search's reports for the live position, and analyses again once the engine is free.
//!
//! Reports come as fast as the search deepens, dozens a second at first. The panel takes the first at once and
//! then at most one per [`ANALYSIS_REFRESH`], so that a slow link carries a few small updates a second.

use std::time::Duration;

use super::App;
use crate::app::action::{Effect, Timer};
use crate::app::keymap::Context;
use crate::app::mode::Mode;
use crate::engine::{AnySituation, Level, Limits, Player, Score};
use crate::game::AnyGame;
use crate::rules::{AnyPosition, Color, Move};

/// The shortest time between two changes of the panel.
pub const ANALYSIS_REFRESH: Duration = Duration::from_millis(250);

/// What the engine has said about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisLine {
    /// The position judged.
    pub position: AnyPosition,
    /// The depth completed.
    pub depth: u32,
    /// The score, for the side to move in `position`.
    pub score: Score,
    /// The expected line of play from `position`.
    pub pv: Vec<Move>,
}

/// The panel's state.
#[derive(Clone, Debug, Default)]
pub(in crate::app) struct Analysis {
    /// Whether the panel is open.
    open: bool,
    /// The panel's own search under way: its number and the position it judges.
    running: Option<(u64, AnyPosition)>,
    /// What the panel shows.
    shown: Option<AnalysisLine>,
    /// A newer report than the one shown, waiting for the refresh timer.
    pending: Option<AnalysisLine>,
    /// Whether the refresh timer has been asked for and has not come yet.
    refreshing: bool,
}

/// What the panel has to say about the position on show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisView<'a> {
    /// The engine's latest report on it.
    Line(&'a AnalysisLine),
    /// Nothing yet: the search has just started.
    Starting,
    /// Why there is nothing to show.
    Idle(String),
}

impl Analysis {
    /// The panel as a new game finds it: open or closed as it was, with nothing searched yet.
    pub(in crate::app) fn kept(&self) -> Analysis {
        Analysis {
            open: self.open,
            ..Analysis::default()
        }
    }
}

impl App {
    /// Whether the analysis panel is open.
    pub fn analysis_open(&self) -> bool {
        self.analysis.open
    }

    /// What the analysis panel shows for the position on show; `None` while it is closed.
    pub fn analysis_view(&self) -> Option<AnalysisView<'_>> {
        if !self.analysis.open {
            return None;
        }
        let position = self.shown_position();
        if let Some(line) = self
            .analysis
            .shown
            .as_ref()
            .filter(|l| l.position == position)
        {
            return Some(AnalysisView::Line(line));
        }
        Some(match self.analysis_refusal() {
            Some(why) => AnalysisView::Idle(why),
            None if self.play.thinking.is_some() || self.review_running().is_some() => {
                AnalysisView::Idle("the engine is busy: analysis resumes when it is free".into())
            }
            None => AnalysisView::Starting,
        })
    }

    /// The side whose point of view the panel takes: the person playing the engine, the seat at a table, or
    /// else the side at the bottom of the board.
    pub fn viewpoint(&self) -> Color {
        if let Some(seat) = self.table.as_ref().and_then(|t| t.seat) {
            return seat;
        }
        match (self.players.black, self.players.white) {
            (Player::Human, Player::Engine(_)) => Color::Black,
            (Player::Engine(_), Player::Human) => Color::White,
            _ if self.flipped => Color::Black,
            _ => Color::White,
        }
    }

    /// Opens or closes the panel (closing it stops its search).
    pub(super) fn toggle_analysis(&mut self) -> Vec<Effect> {
        if !self.analysis.open
            && let Some(table) = &self.table
            && table.seat.is_some()
        {
            self.status = "no analysis while you play a person at a table".into();
            return Vec::new();
        }
        self.analysis.open = !self.analysis.open;
        self.status = if self.analysis.open {
            format!(
                "analysis: the engine judges the position on show ({} hides it)",
                self.key(Context::Board, "analysis", ":analysis")
            )
        } else {
            self.mode_message()
        };
        Vec::new()
    }

    /// Why the position on show is not analysed, if it is not.
    fn analysis_refusal(&self) -> Option<String> {
        match self.mode {
            Mode::Setup(_) => Some("setting up: analysis starts with the game".into()),
            Mode::Over(outcome) => Some(outcome.to_string()),
            Mode::Play | Mode::Browsing { .. } => self
                .shown_position()
                .legal_moves()
                .is_empty()
                .then(|| "no move here: the side to move has lost".into()),
        }
    }

    /// The situation on show: the position and the reversible moves before it, so that the search sees the
    /// repetitions a move would make.
    fn shown_situation(&self) -> AnySituation {
        match self.mode {
            Mode::Browsing { ply } if ply < self.play.game.ply() => {
                situation_at(&self.play.game, ply)
            }
            _ => AnySituation::of_game(&self.play.game),
        }
    }

    /// Whether the panel's own search is under way.
    pub(super) fn analysing(&self) -> bool {
        self.analysis.running.is_some()
    }

    /// Starts, replaces or stops the panel's search so that it fits the state after an action. `effects` are
    /// the action's: a search they start replaces the panel's on the engine.
    pub(super) fn sync_analysis(&mut self, effects: &mut Vec<Effect>) {
        let ours = [
            self.analysis.running.map(|(search, _)| search),
            self.review_running(),
        ];
        let replaced = effects.iter().any(|effect| match effect {
            Effect::Think { search, .. } | Effect::Evaluate { search, .. } => {
                !ours.contains(&Some(*search))
            }
            Effect::StopThinking => true,
            _ => false,
        });
        if replaced {
            self.analysis.running = None;
            self.review_search_replaced();
        }
        self.drop_stale_review();
        // A game being analysed comes before the panel.
        if self.play.thinking.is_none() && self.fits() {
            while let Some(ply) = self.review_wants() {
                // The review's search replaces the panel's on the engine.
                self.analysis.running = None;
                if self.review_search(ply, effects) {
                    return;
                }
            }
        }
        let wanted = self.analysis.open
            && self.play.thinking.is_none()
            && self.analysis_refusal().is_none()
            && self.fits();
        if !wanted {
            if self.analysis.running.take().is_some() {
                effects.push(Effect::StopThinking);
            }
            return;
        }
        let position = self.shown_position();
        if self
            .analysis
            .running
            .is_some_and(|(_, analysed)| analysed == position)
        {
            return;
        }
        let search = self.play.next_search_number();
        self.analysis.running = Some((search, position));
        effects.push(Effect::Think {
            search,
            situation: self.shown_situation(),
            level: Level::Max,
            limits: Limits::time(self.preferences.analysis_time),
        });
    }

    /// A search's report on a position: the panel's own, or the game's move or hint search (whose reports tell
    /// what the engine thinks of the live position as well). Reports without a line (the weaker levels) are
    /// left out.
    pub(super) fn analysis_report(
        &mut self,
        search: u64,
        depth: u32,
        score: Score,
        pv: Vec<Move>,
    ) -> Vec<Effect> {
        let position = match self.analysis.running {
            Some((own, position)) if own == search => position,
            _ if self.analysis.open
                && !pv.is_empty()
                && self.play.thinking.is_some_and(|t| t.search == search) =>
            {
                self.play.game.position()
            }
            _ => return Vec::new(),
        };
        let line = AnalysisLine {
            position,
            depth,
            score,
            pv,
        };
        let fresh = self
            .analysis
            .shown
            .as_ref()
            .is_none_or(|shown| shown.position != line.position);
        if self.analysis.refreshing && !fresh {
            self.analysis.pending = Some(line);
            return Vec::new();
        }
        self.analysis.shown = Some(line);
        self.analysis.pending = None;
        self.analysis.refreshing = true;
        vec![Effect::Wake {
            timer: Timer::Analysis,
            after: ANALYSIS_REFRESH,
        }]
    }

    /// The refresh timer: the report that waited is shown, and the timer runs again while reports come.
    pub(super) fn analysis_refresh(&mut self) -> Vec<Effect> {
        match self.analysis.pending.take() {
            Some(line) => {
                self.analysis.shown = Some(line);
                vec![Effect::Wake {
                    timer: Timer::Analysis,
                    after: ANALYSIS_REFRESH,
                }]
            }
            None => {
                self.analysis.refreshing = false;
                Vec::new()
            }
        }
    }
}

/// The situation after `ply` moves of `game`: the position, and the positions since the last capture or man
/// move.
pub(super) fn situation_at(game: &AnyGame, ply: usize) -> AnySituation {
    let live = AnySituation::of_game(game);
    let Some(position) = game.position_at(ply) else {
        return live;
    };
    let mut earlier = Vec::new();
    for before in (0..ply).rev() {
        let (Some(mv), Some(at)) = (game.moves().get(before), game.position_at(before)) else {
            break;
        };
        let by_king = at
            .piece_at(mv.from())
            .is_some_and(|piece| piece.role == crate::rules::Role::King);
        if mv.is_capture() || !by_king {
            break;
        }
        earlier.push(at);
    }
    earlier.reverse();
    AnySituation {
        position,
        earlier,
        move_limit_plies: live.move_limit_plies,
        king_runs: game
            .king_runs_at(ply)
            .unwrap_or(crate::game::KingRuns::none(0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{GameType, Variant};

    #[test]
    fn a_position_browsed_back_to_keeps_its_barred_king() {
        // Frisian: after three quiet moves each, White's king on 41 may not make a fourth; the game then goes on
        // with the man, and the analysis of the position browsed back to must still know the king is barred.
        let game_type = GameType::standard(Variant::Frisian);
        let mut game = AnyGame::from_fen(game_type, "W:WK46,50:BK3,1").expect("a Frisian FEN");
        for text in ["46-41", "3-9", "41-46", "9-3", "46-41", "3-9", "50-44"] {
            game.play_text(text).expect("a legal move");
        }
        let browsed = situation_at(&game, 6);
        assert_eq!(browsed.barred_king().map(|s| s.number()), Some(41));
        assert_eq!(situation_at(&game, 2).barred_king(), None);
    }
}
