//! The analysis panel, a part of the app: the engine's live view of the position on show (its score, depth and
//! best line), for the game in play, a position browsed back to, or a record being replayed.
//!
//! The panel's search is not one the game waits for: it runs only while nothing else needs the engine (no move,
//! draw offer or hint is being searched for, no game is being reviewed), on whichever position is on show. The app
//! says after every action what the panel may analyse ([`Analysis::follow`]); the panel starts, replaces or stops
//! its search to fit. A search the game starts replaces it on the engine (each session has one search at a time);
//! the panel then shows that search's reports for the live position, and analyses again once the engine is free.
//!
//! Reports come as fast as the search deepens, dozens a second at first. The panel takes the first at once and
//! then at most one per [`ANALYSIS_REFRESH`], so that a slow link carries a few small updates a second.
//!
//! The panel's fields are its own: the app asks and tells it through the methods below.

use std::time::Duration;

use super::action::{Effect, Timer};
use crate::engine::{AnySituation, Score};
use crate::game::AnyGame;
use crate::rules::{AnyPosition, Move};

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

/// The panel.
#[derive(Clone, Debug, Default)]
pub(super) struct Analysis {
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

/// What the panel asks of the engine after an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Follow {
    /// Nothing: its search goes on, or none is wanted and none runs.
    Nothing,
    /// Stop the panel's search: the panel is closed or may not analyse now.
    Stop,
    /// Start a search numbered `search` on the position on show (it replaces the panel's last, if any).
    Start {
        /// The new search's number.
        search: u64,
    },
}

impl Analysis {
    /// The panel as a new game finds it: open or closed as it was, with nothing searched yet.
    pub(super) fn kept(&self) -> Analysis {
        Analysis {
            open: self.open,
            ..Analysis::default()
        }
    }

    /// Whether the panel is open.
    pub(super) fn is_open(&self) -> bool {
        self.open
    }

    /// Opens or closes the panel; whether it is open now. Closing it lets its search go at the next
    /// [`Analysis::follow`].
    pub(super) fn toggle(&mut self) -> bool {
        self.open = !self.open;
        self.open
    }

    /// The engine's latest report on `position`, if the panel has one.
    pub(super) fn line_for(&self, position: AnyPosition) -> Option<&AnalysisLine> {
        self.shown.as_ref().filter(|line| line.position == position)
    }

    /// The panel's own search under way, if any.
    pub(super) fn running(&self) -> Option<u64> {
        self.running.map(|(search, _)| search)
    }

    /// Forgets the panel's search: another search replaced it on the engine.
    pub(super) fn replaced(&mut self) {
        self.running = None;
    }

    /// Fits the panel's search to what it may analyse now: `position`, the position on show when the engine is
    /// free for it and it is there to be judged, or `None`. `next_search` numbers a new search.
    pub(super) fn follow(
        &mut self,
        position: Option<AnyPosition>,
        next_search: impl FnOnce() -> u64,
    ) -> Follow {
        let Some(position) = position.filter(|_| self.open) else {
            return match self.running.take() {
                Some(_) => Follow::Stop,
                None => Follow::Nothing,
            };
        };
        if self
            .running
            .is_some_and(|(_, analysed)| analysed == position)
        {
            return Follow::Nothing;
        }
        let search = next_search();
        self.running = Some((search, position));
        Follow::Start { search }
    }

    /// A search's report: `live` is the live position when the report is from the game's own search (a move or
    /// a hint), whose reports tell what the engine thinks of it as well. Reports without a line (the weaker
    /// levels) of the game's searches are left out, and every report of another search.
    pub(super) fn report(
        &mut self,
        search: u64,
        live: Option<AnyPosition>,
        depth: u32,
        score: Score,
        pv: Vec<Move>,
    ) -> Vec<Effect> {
        let position = match (self.running, live) {
            (Some((own, position)), _) if own == search => position,
            (_, Some(live)) if self.open && !pv.is_empty() => live,
            _ => return Vec::new(),
        };
        let line = AnalysisLine {
            position,
            depth,
            score,
            pv,
        };
        let fresh = self
            .shown
            .as_ref()
            .is_none_or(|shown| shown.position != line.position);
        if self.refreshing && !fresh {
            self.pending = Some(line);
            return Vec::new();
        }
        self.shown = Some(line);
        self.pending = None;
        self.refreshing = true;
        vec![Effect::Wake {
            timer: Timer::Analysis,
            after: ANALYSIS_REFRESH,
        }]
    }

    /// The refresh timer: the report that waited is shown, and the timer runs again while reports come.
    pub(super) fn refresh(&mut self) -> Vec<Effect> {
        match self.pending.take() {
            Some(line) => {
                self.shown = Some(line);
                vec![Effect::Wake {
                    timer: Timer::Analysis,
                    after: ANALYSIS_REFRESH,
                }]
            }
            None => {
                self.refreshing = false;
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
    use crate::rules::{AnyPosition, GameType, Variant};

    fn start() -> AnyPosition {
        crate::game::AnyGame::default().position()
    }

    #[test]
    fn a_closed_panel_asks_for_nothing_and_stops_what_it_ran() {
        let mut panel = Analysis::default();
        assert_eq!(panel.follow(Some(start()), || 1), Follow::Nothing);
        panel.toggle();
        assert_eq!(
            panel.follow(Some(start()), || 7),
            Follow::Start { search: 7 }
        );
        // The same position is not searched again.
        assert_eq!(panel.follow(Some(start()), || 8), Follow::Nothing);
        assert_eq!(panel.running(), Some(7));
        panel.toggle();
        assert_eq!(panel.follow(Some(start()), || 9), Follow::Stop);
        assert_eq!(panel.running(), None);
    }

    #[test]
    fn reports_after_the_first_wait_for_the_refresh_timer() {
        let mut panel = Analysis::default();
        panel.toggle();
        let position = start();
        assert_eq!(
            panel.follow(Some(position), || 3),
            Follow::Start { search: 3 }
        );
        let first = panel.report(3, None, 1, Score::Centi(10), Vec::new());
        assert!(matches!(
            first.as_slice(),
            [Effect::Wake {
                timer: Timer::Analysis,
                ..
            }]
        ));
        assert!(
            panel
                .report(3, None, 2, Score::Centi(20), Vec::new())
                .is_empty()
        );
        assert_eq!(panel.line_for(position).map(|l| l.depth), Some(1));
        // Another search's report, not the game's, is not the panel's.
        assert!(
            panel
                .report(4, None, 9, Score::Centi(0), Vec::new())
                .is_empty()
        );
        assert_eq!(panel.refresh().len(), 1);
        assert_eq!(panel.line_for(position).map(|l| l.depth), Some(2));
        assert!(panel.refresh().is_empty());
    }

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
