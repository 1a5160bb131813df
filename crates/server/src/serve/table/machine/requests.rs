//! What the people at a table ask of its table: a move, an offer and its answer, resigning, a claim, starting the
//! clocks again, a chat line. Each handler says whether the game changed (everyone then hears the new state),
//! or why the request was refused (the asker alone hears it).

use super::{CHAT_LINES, CHAT_WINDOW, Conn, Fingerprint, Job, MAX_CHAT, Table, TableError, Update};
use crate::app::OfferKind;
use crate::game::{DrawReason, Outcome, WinReason};
use crate::rules::{Color, Move};
use crate::serve::text::clean_line;

impl Table {
    /// Plays `who`'s move; whether the game changed, or why not.
    pub(super) fn play(&mut self, who: &Fingerprint, mv: &Move) -> Result<bool, TableError> {
        let color = self.seat_of(who).ok_or(TableError::Watching)?;
        if self.seats.iter().any(Option::is_none) {
            return Err(TableError::NoOpponentYet);
        }
        if let Some(outcome) = self.game.outcome() {
            return Err(TableError::OverAs(outcome));
        }
        if self.game.position().side_to_move() != color {
            return Err(TableError::NotYourTurn);
        }
        if self.paused {
            // A move after an agreed pause starts the clocks again, the mover's first.
            self.resume(who)?;
        }
        // A first move is not timed; after them, a move waits for the clocks (both players here).
        if self.clock.as_ref().is_some_and(|c| c.running().is_none()) && !self.first_moves_due() {
            return Err(TableError::ClocksWaiting);
        }
        // Checked before the clock is pressed: an illegal move costs no time.
        let mut after = self.game.clone();
        after.play(mv)?;
        let now = self.now;
        if let Some(clock) = self.clock.as_mut()
            && let Err(flagged) = clock.press(now)
        {
            self.lose_on_time(flagged);
            return Err(TableError::TimeRanOut);
        }
        self.game = after;
        // A move answers any offer still open.
        self.offer = None;
        self.record_move();
        if self.game.outcome().is_some() {
            self.stop_clock();
        }
        // The other side's first move is timed from now; after the second, the clocks start.
        self.first_move_since = self.first_moves_due().then_some(now);
        self.start_clock_when_both_are_here();
        Ok(true)
    }

    pub(super) fn make_offer(
        &mut self,
        who: &Fingerprint,
        kind: OfferKind,
    ) -> Result<(), TableError> {
        let color = self.seat_of(who).ok_or(TableError::Watching)?;
        if kind == OfferKind::Rematch {
            return self.offer_rematch(color);
        }
        if self.game.outcome().is_some() {
            return Err(TableError::Over);
        }
        if self.seats[color.opponent().index()].is_none() {
            return Err(TableError::NobodyToAsk);
        }
        if kind == OfferKind::Takeback && self.plies_to_take_back(color) == 0 {
            return Err(TableError::NoMoveToTakeBack);
        }
        if kind == OfferKind::Pause && self.clock.as_ref().is_none_or(|c| c.running().is_none()) {
            return Err(TableError::ClocksNotRunning);
        }
        self.offer = Some((color, kind));
        self.tell_seat(color.opponent(), Update::Offer(kind));
        Ok(())
    }

    /// Plies undone when `color` takes back its last move: one if the opponent is to move, two if it is.
    pub(super) fn plies_to_take_back(&self, color: Color) -> usize {
        let played = self.game.len();
        let to_move = self.game.position().side_to_move();
        let wanted = if to_move == color { 2 } else { 1 };
        if played >= wanted { wanted } else { 0 }
    }

    pub(super) fn answer(
        &mut self,
        who: &Fingerprint,
        kind: OfferKind,
        accept: bool,
    ) -> Result<bool, TableError> {
        let color = self.seat_of(who).ok_or(TableError::Watching)?;
        if kind != OfferKind::Rematch && self.game.outcome().is_some() {
            return Err(TableError::OfferEnded(kind));
        }
        let Some((from, offered)) = self.offer else {
            return Err(TableError::NothingToAnswer);
        };
        if from == color || offered != kind {
            return Err(TableError::NothingToAnswer);
        }
        self.offer = None;
        if !accept {
            self.tell_seat(from, Update::Declined(kind));
            return Ok(false);
        }
        match kind {
            OfferKind::Draw => {
                let _ = self.game.agree_draw();
                self.stop_clock();
            }
            OfferKind::Pause => {
                self.stop_clock();
                self.paused = true;
            }
            OfferKind::Rematch => return self.open_rematch().map(|()| false),
            OfferKind::Takeback => {
                let now = self.now;
                for _ in 0..self.plies_to_take_back(from) {
                    self.game.undo();
                    // The side to move again is the one whose move went: its increment goes too.
                    let mover = self.game.position().side_to_move();
                    if let Some(clock) = self.clock.as_mut() {
                        clock.take_back(mover, now);
                    }
                }
                self.game.truncate();
                self.record(|key, table| Job::TakeBack {
                    key,
                    ply: table.game.len(),
                });
                let to_move = self.game.position().side_to_move();
                if let Some(clock) = self.clock.as_mut()
                    && clock.running().is_some()
                {
                    clock.start(to_move, now);
                }
            }
        }
        Ok(true)
    }

    /// Starts the clocks again after an agreed pause (either player may), the side to move's first.
    pub(super) fn resume(&mut self, who: &Fingerprint) -> Result<bool, TableError> {
        self.seat_of(who).ok_or(TableError::Watching)?;
        // A game may end while its clocks are stopped (a draw agreed, a resignation): they stay stopped. Started
        // again, a clock would run on a finished game until its flag fell, and then wake the table at once, again
        // and again, for as long as anyone stayed at the table.
        if let Some(outcome) = self.game.outcome() {
            return Err(TableError::OverAs(outcome));
        }
        if !self.paused {
            return Err(TableError::ClocksNotStopped);
        }
        self.paused = false;
        let to_move = self.game.position().side_to_move();
        let now = self.now;
        if let Some(clock) = self.clock.as_mut() {
            clock.start(to_move, now);
        }
        Ok(true)
    }

    pub(super) fn resign(&mut self, who: &Fingerprint) -> Result<bool, TableError> {
        match self.seat_of(who) {
            // Nobody to lose to: a game with one seat taken has not begun (and is not in the records).
            Some(_) if self.seats.iter().any(Option::is_none) => Err(TableError::NoOpponentYet),
            Some(color) if self.game.outcome().is_none() => {
                let _ = self.game.resign(color);
                self.stop_clock();
                Ok(true)
            }
            _ => Err(TableError::NothingToResign),
        }
    }

    /// The game, or a draw when `draw`, to `who` whose opponent has been away past the grace period.
    pub(super) fn claim(&mut self, who: &Fingerprint, draw: bool) -> Result<bool, TableError> {
        let color = self.seat_of(who).ok_or(TableError::Watching)?;
        if self.game.outcome().is_some() {
            return Err(TableError::Over);
        }
        let opponent = self.seats[color.opponent().index()]
            .as_ref()
            .ok_or(TableError::NobodyToClaimAgainst)?;
        let away = opponent
            .away_since
            .ok_or_else(|| TableError::OpponentHere(opponent.who.name.clone()))?;
        let left = self.config.grace.saturating_sub(self.away_for(away));
        if !left.is_zero() {
            return Err(TableError::MayComeBack {
                name: opponent.who.name.clone(),
                left,
            });
        }
        let outcome = match draw {
            true => Outcome::Draw {
                reason: DrawReason::Abandoned,
            },
            false => Outcome::Win {
                winner: color,
                reason: WinReason::Abandoned,
            },
        };
        let _ = self.game.declare(outcome);
        self.stop_clock();
        Ok(true)
    }

    pub(super) fn chat(&mut self, who: &Fingerprint, text: &str) {
        let Some(name) = self.name_of(who) else {
            return;
        };
        let now = self.now;
        let times = self.chat_times.entry(who.clone()).or_default();
        while times
            .front()
            .is_some_and(|t| now.saturating_sub(*t) > CHAT_WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= CHAT_LINES {
            return self.refuse(who, &TableError::SlowDown);
        }
        times.push_back(now);
        let text = clean_line(text, MAX_CHAT);
        if text.is_empty() {
            return;
        }
        // Players and watchers talk among themselves: players see players' lines, watchers everyone's.
        let from_player = self.seat_of(who).is_some();
        let update = Update::Chat {
            from: name,
            text,
            by: who.to_string(),
        };
        let players = self
            .seats
            .iter()
            .flatten()
            .filter(|_| from_player)
            .filter_map(|s| s.conn);
        let conns: Vec<Conn> = players
            .chain(self.watchers.iter().map(|(_, c)| *c))
            .collect();
        for conn in conns {
            self.send(conn, update.clone());
        }
    }

    pub(super) fn name_of(&self, who: &Fingerprint) -> Option<String> {
        if let Some(color) = self.seat_of(who) {
            return self.seats[color.index()]
                .as_ref()
                .map(|s| s.who.name.clone());
        }
        self.watchers
            .iter()
            .any(|(w, _)| w == who)
            .then(|| "a watcher".to_string())
    }
}
