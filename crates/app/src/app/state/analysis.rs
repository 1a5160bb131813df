//! The app's wiring of the analysis panel ([`Analysis`](crate::app::analysis)): what it is told of the game on
//! show, when it may have the engine, and the status line its key leaves.
//!
//! [`App::share_engine`] runs after every action: the game's own search (a move, a draw offer, a hint) has the
//! engine first, then the review of a whole game, then the panel.

use super::App;
use crate::app::action::Effect;
use crate::app::analysis::{AnalysisView, Follow, situation_at};
use crate::app::mode::Mode;
use crate::config::Context;
use crate::engine::{AnySituation, Level, Limits, Player};
use crate::rules::Color;

impl App {
    /// Whether the analysis panel is open.
    pub fn analysis_open(&self) -> bool {
        self.analysis.is_open()
    }

    /// What the analysis panel shows for the position on show; `None` while it is closed.
    pub fn analysis_view(&self) -> Option<AnalysisView<'_>> {
        if !self.analysis.is_open() {
            return None;
        }
        if let Some(line) = self.analysis.line_for(self.shown_position()) {
            return Some(AnalysisView::Line(line));
        }
        Some(match self.analysis_refusal() {
            Some(why) => AnalysisView::Idle(why),
            None if self.play.thinking().is_some() || self.review_running().is_some() => {
                AnalysisView::Idle("the engine is busy: analysis resumes when it is free".into())
            }
            None => AnalysisView::Starting,
        })
    }

    /// The side whose point of view the panel takes: the person playing the engine, the seat at a table, or
    /// else the side at the bottom of the board.
    pub fn viewpoint(&self) -> Color {
        if let Some(seat) = self.table.as_ref().and_then(|t| t.seat()) {
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
        if !self.analysis.is_open()
            && let Some(table) = &self.table
            && table.seat().is_some()
        {
            self.status = "no analysis while you play a person at a table".into();
            return Vec::new();
        }
        self.status = if self.analysis.toggle() {
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
            Mode::Browsing { ply } if ply < self.play.game().ply() => {
                situation_at(self.play.game(), ply)
            }
            _ => AnySituation::of_game(self.play.game()),
        }
    }

    /// Whether the panel's own search is under way.
    pub(super) fn analysing(&self) -> bool {
        self.analysis.running().is_some()
    }

    /// Shares the engine after an action: the game's own search first, then the review of a whole game, then
    /// the analysis panel; each of the last two is started, replaced or stopped to fit. `effects` are the
    /// action's: a search they start replaces the review's or the panel's on the engine.
    pub(super) fn share_engine(&mut self, effects: &mut Vec<Effect>) {
        let ours = [self.analysis.running(), self.review_running()];
        let replaced = effects.iter().any(|effect| match effect {
            Effect::Think { search, .. } | Effect::Evaluate { search, .. } => {
                !ours.contains(&Some(*search))
            }
            Effect::StopThinking => true,
            _ => false,
        });
        if replaced {
            self.analysis.replaced();
            self.review_search_replaced();
        }
        self.drop_stale_review();
        // A game being analysed comes before the panel.
        if self.play.thinking().is_none() && self.fits() {
            while let Some(ply) = self.review_wants() {
                // The review's search replaces the panel's on the engine.
                self.analysis.replaced();
                if self.review_search(ply, effects) {
                    return;
                }
            }
        }
        let free = self.analysis.is_open()
            && self.play.thinking().is_none()
            && self.analysis_refusal().is_none()
            && self.fits();
        let position = free.then(|| self.shown_position());
        match self
            .analysis
            .follow(position, || self.play.next_search_number())
        {
            Follow::Nothing => {}
            Follow::Stop => effects.push(Effect::StopThinking),
            Follow::Start { search } => effects.push(Effect::Think {
                search,
                situation: self.shown_situation(),
                level: Level::Max,
                limits: Limits::time(self.preferences.analysis_time),
            }),
        }
    }

    /// A search's report on a position: the panel's own, or the game's move or hint search (whose reports tell
    /// what the engine thinks of the live position as well).
    pub(super) fn analysis_report(
        &mut self,
        search: u64,
        depth: u32,
        score: crate::engine::Score,
        pv: Vec<crate::rules::Move>,
    ) -> Vec<Effect> {
        let live = self
            .play
            .thinking()
            .is_some_and(|t| t.search == search)
            .then(|| self.play.game().position());
        self.analysis.report(search, live, depth, score, pv)
    }

    /// The refresh timer: the report that waited is shown, and the timer runs again while reports come.
    pub(super) fn analysis_refresh(&mut self) -> Vec<Effect> {
        self.analysis.refresh()
    }
}
