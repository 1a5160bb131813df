//! A game between people as a state machine, apart from any transport.
//!
//! [`Table`] takes one [`Input`] at a time (a player's request, a connection come or gone, a timer, the records'
//! answer) with the table's time, and returns the [`TableEffect`]s of handling it: updates for connections, a commit
//! for the records, the lobby's summary, a result for a tournament. It knows no task, channel, socket or
//! terminal: its clock is the time it is given, its connections are numbers ([`Conn`]), and its records are the
//! commits it asks for and the answers it is given. The driver in [`super`] runs it on a tokio task for the
//! server; the tests and the simulation drive the same machine.
//!
//! Commit, then show: what a step changes in the game goes out as one [`TableEffect::Commit`], and nothing of it is
//! shown to anyone until [`Input::Committed`] says that it is durable (see `machine/commit.rs`).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use crate::app::{OfferKind, SeatView, TableRequest};
use crate::game::{AnyGame, Clock, DrawReason, Outcome, lost_on_time};
use crate::rules::Color;
use crate::serve::identity::Identity;
use crate::serve::ids::{Fingerprint, TableCode};
use crate::serve::recorder::{Job, RecordKey};

/// The longest chat line kept, in characters.
pub const MAX_CHAT: usize = 200;
/// Chat lines one person may send in [`CHAT_WINDOW`].
const CHAT_LINES: usize = 5;
/// See [`CHAT_LINES`].
const CHAT_WINDOW: Duration = Duration::from_secs(10);

pub use crate::app::FIRST_MOVE_LIMIT;

/// How often a running clock is noted in the records: a crash costs the running side at most this much of the
/// time it used since (a stop, with SIGTERM, notes the clocks as they stand).
pub const NOTE_CLOCKS_EVERY: Duration = Duration::from_secs(2);

pub use event_game::{EventGame, GameEnded};

struct Seat {
    who: Identity,
    /// Where they are connected from; `None` before they first arrive.
    conn: Option<Conn>,
    rating: Option<i32>,
    /// Whether the rating is provisional.
    provisional: bool,
    /// Their rating after the game, once it has ended rated and the records have been read.
    rating_after: Option<i32>,
    /// When the player went away; `None` while connected.
    away_since: Option<Duration>,
    /// Whether everyone here has been told that the player's time to come back is over (the last step of the
    /// countdown, which must not be lost when another wake-up comes at the same moment).
    told_gone: bool,
}

/// The moments the table asked to be woken at, by what is due then (checked in this order).
#[derive(Default)]
struct Plan {
    flag: Option<Duration>,
    forfeit: Option<Duration>,
    tick: Option<Duration>,
    away: Option<Duration>,
    note: Option<Duration>,
    /// When to try again to write the start of a game whose players sit at it but whose start the records did
    /// not take (they could not be written as the second player sat).
    start: Option<Duration>,
    /// When the time for a first move shows a new second, or runs out.
    first_move: Option<Duration>,
}

/// A game between people: the state machine.
pub struct Table {
    config: TableConfig,
    code: TableCode,
    game: AnyGame,
    seats: [Option<Seat>; 2],
    watchers: Vec<(Fingerprint, Conn)>,
    clock: Option<Clock>,
    /// The table's time, as last given.
    now: Duration,
    note_phase: Duration,
    /// When the clocks were last noted in the records: the next note is due at the first period after it, so
    /// that a note falling due at the moment of another wake-up is late, never skipped.
    noted: Duration,
    offer: Option<(Color, OfferKind)>,
    /// When each person's recent chat lines were sent, for the rate limit.
    chat_times: HashMap<Fingerprint, VecDeque<Duration>>,
    /// Whether its games go to the records.
    records: bool,
    /// Whether the records are written just now.
    writing: bool,
    /// The game's key in the records, once it has started there.
    record: Option<RecordKey>,
    /// Whether the end of the game has been recorded.
    ended: bool,
    /// Whether the clocks are stopped by the players' agreement.
    paused: bool,
    /// In a timed game whose side to move has not made its first move (which no clock times): since when it has
    /// had it to make, counted from when both players were first here, then from the first move.
    first_move_since: Option<Duration>,
    /// The tournament pairing its game is.
    event: Option<EventGame>,
    /// What the step being handled changed in the records' part of the game: its commit, as it is gathered.
    unsaved: Vec<Job>,
    /// The commit sent to the records and not answered yet: nothing else happens in the table until it is.
    pending: Option<commit::Pending>,
    /// After the records could not take a step: not before then does the table try again by itself.
    retry_at: Option<Duration>,
    /// The wake-ups asked for by the last [`Table::next_wake`].
    plan: Plan,
    /// The effects of the input being handled.
    out: Vec<TableEffect>,
}

/// What a step of the table comes to.
enum Step {
    /// Nothing the people here see changed.
    Quiet,
    /// The table changed: shown to everyone once what it changed in the game is in the records. Who asked for it
    /// is told if it cannot be written.
    Show(Option<commit::AskedBy>),
}

impl Table {
    /// A table at time `now`.
    pub fn new(config: TableConfig, setup: TableSetup, now: Duration) -> Table {
        let TableSetup {
            code,
            recorded,
            writing,
            resumed,
            rematch,
            event,
            note_phase,
        } = setup;
        let mut table = Table {
            config,
            code,
            game: AnyGame::new(config.game_type),
            seats: [None, None],
            watchers: Vec::new(),
            clock: config.clock.map(Clock::new),
            now,
            note_phase,
            noted: now,
            offer: None,
            chat_times: HashMap::new(),
            records: recorded,
            writing,
            record: None,
            ended: false,
            paused: false,
            first_move_since: None,
            event,
            unsaved: Vec::new(),
            pending: None,
            retry_at: None,
            plan: Plan::default(),
            out: Vec::new(),
        };
        if let Some(rematch) = rematch {
            // Both players are on their way from the last game: away until each arrives.
            // The mark of a provisional rating comes with each player as they sit (from the records).
            table.seat_away(
                rematch
                    .seats
                    .map(|(who, rating)| (who, rating.map(|value| (value, false)))),
            );
        }
        if let Some(resumed) = resumed {
            table.game = resumed.game;
            table.record = Some(resumed.record);
            if let (Some(control), Some(left)) = (config.clock, resumed.clocks) {
                table.clock = Some(Clock::resumed(control, left));
            }
            // Both players are away until they come back; nobody hears anything until then.
            let [black, white] = resumed.seats;
            let [black_rating, white_rating] = resumed.ratings;
            table.seat_away([(black, black_rating), (white, white_rating)]);
        }
        table
    }

    /// Seats Black's and White's players (with their ratings), both away until they arrive.
    fn seat_away(&mut self, players: [(Identity, Option<(i32, bool)>); 2]) {
        let away = self.now;
        for (color, (who, rating)) in [Color::Black, Color::White].into_iter().zip(players) {
            self.seats[color.index()] = Some(Seat {
                who,
                conn: None,
                rating: rating.map(|(value, _)| value),
                provisional: rating.is_some_and(|(_, provisional)| provisional),
                away_since: Some(away),
                told_gone: false,
                rating_after: None,
            });
        }
    }

    /// Handles `input` at time `now` (never earlier than the last), and says what comes of it.
    pub fn handle(&mut self, input: Input, now: Duration) -> Vec<TableEffect> {
        self.now = self.now.max(now);
        match input {
            Input::Committed(answer) => self.committed(answer),
            Input::Wake => self.wake(),
            Input::Records { writing } => {
                self.writing = writing;
                self.broadcast_state();
            }
            Input::NoteClocks => self.note_clocks(),
            Input::Gone(conn) => self.watchers.retain(|(_, c)| *c != conn),
            Input::RematchOpened(opened) => self.rematch_opened(opened),
            Input::Ratings(after) => {
                for (seat, after) in self.seats.iter_mut().zip(after) {
                    if let Some(seat) = seat {
                        seat.rating_after = Some(after);
                    }
                }
                self.news_with_ratings(after);
                self.broadcast_state();
            }
            request => {
                let before = self.before();
                match self.request(request) {
                    Step::Show(asked_by) => self.settle(before, asked_by),
                    // Nothing to show; a step that changed nothing has nothing to write either.
                    Step::Quiet => debug_assert!(self.unsaved.is_empty()),
                }
            }
        }
        std::mem::take(&mut self.out)
    }

    /// When the table wants [`Input::Wake`] next, if ever: a flag falling, a clock or a countdown showing a new
    /// second, the clocks' note, the records slow to answer.
    pub fn next_wake(&mut self) -> Option<Duration> {
        if let Some(pending) = &self.pending {
            self.plan = Plan::default();
            return (!pending.told_slow).then_some(pending.slow_at);
        }
        self.plan = Plan {
            flag: self.not_before_retry(self.flag_deadline()),
            forfeit: self.not_before_retry(self.forfeit_deadline()),
            tick: self.tick_deadline(),
            away: self.away_deadline(),
            note: self.note_deadline(),
            start: self.start_deadline(),
            first_move: self.not_before_retry(self.first_move_deadline()),
        };
        let Plan {
            flag,
            forfeit,
            tick,
            away,
            note,
            start,
            first_move,
        } = self.plan;
        [flag, forfeit, tick, away, note, start, first_move]
            .into_iter()
            .flatten()
            .min()
    }

    /// Whether a commit waits for the records' answer: until it comes, feed the table only that answer and
    /// [`Input::Wake`].
    pub fn awaiting_records(&self) -> bool {
        self.pending.is_some()
    }

    /// Whether `conn` is one the table sends to.
    pub fn holds(&self, conn: Conn) -> bool {
        self.seats.iter().flatten().any(|s| s.conn == Some(conn))
            || self.watchers.iter().any(|(_, c)| *c == conn)
    }

    /// The table's code.
    pub fn code(&self) -> &TableCode {
        &self.code
    }

    /// The table as it stands, to someone who missed a state.
    pub fn state(&self) -> Update {
        Update::State(Arc::new(self.snapshot()))
    }

    /// Nobody is left in the table, and there is no game in it to come back to: it is over, or never began (a
    /// game in the records has begun, moves or not: it stays for its players, and a restart resumes it).
    pub fn finished(&self) -> bool {
        let nobody =
            self.seats.iter().flatten().all(|s| s.away_since.is_some()) && self.watchers.is_empty();
        // A tournament's game waits for its players (and is forfeited when they do not come).
        let never_began = self.game.is_empty() && self.record.is_none() && self.event.is_none();
        nobody && (self.game.outcome().is_some() || never_began)
    }

    /// The first wake-up planned that is due: one a time, in the order of [`Plan`], as the table's steps follow
    /// from what happened and when alone.
    fn wake(&mut self) {
        let now = self.now;
        if let Some(pending) = &self.pending {
            if !pending.told_slow && pending.slow_at <= now {
                self.commit_is_slow();
            }
            return;
        }
        let due = |at: Option<Duration>| at.is_some_and(|at| at <= now);
        let plan = std::mem::take(&mut self.plan);
        if due(plan.flag) {
            let before = self.before();
            if self.check_flag() {
                self.settle(before, None);
            }
        } else if due(plan.forfeit) {
            let before = self.before();
            self.forfeit_absent();
            self.settle(before, None);
        } else if due(plan.first_move) {
            let before = self.before();
            if self.first_move_not_made() {
                self.settle(before, None);
            } else {
                // The time left for the first move, counting down on everyone's screen.
                self.broadcast_state();
            }
        } else if due(plan.tick) {
            self.send_clocks();
        } else if due(plan.away) {
            // The time left to come back, counting down on the others' screens.
            self.broadcast_state();
        } else if due(plan.note) {
            self.note_clocks();
        } else if due(plan.start) {
            let before = self.before();
            self.record_start();
            self.settle(before, None);
        }
    }

    fn seat_of(&self, who: &Fingerprint) -> Option<Color> {
        [Color::Black, Color::White].into_iter().find(|c| {
            self.seats[c.index()]
                .as_ref()
                .is_some_and(|s| s.who.fingerprint == *who)
        })
    }

    fn refuse(&mut self, who: &Fingerprint, why: &TableError) {
        self.tell(who, Update::Refused(why.to_string()));
    }

    fn request(&mut self, input: Input) -> Step {
        match input {
            Input::Sit {
                who,
                color,
                rating,
                provisional,
                returning,
                conn,
            } => {
                let seated = self.sit(who, color, (rating, provisional), returning, conn);
                self.out.push(TableEffect::Seated(seated));
            }
            Input::Watch {
                who,
                conn,
                greeting,
            } => {
                self.watchers.push((who.fingerprint.clone(), conn));
                if let Some(greeting) = greeting {
                    self.send(conn, greeting);
                }
            }
            Input::Ask { who, request } => return self.ask(who, request),
            Input::Leave { who, conn } => self.leave(&who, conn),
            // Not people's requests: `handle` takes them itself.
            Input::Gone(_)
            | Input::Committed(_)
            | Input::RematchOpened(_)
            | Input::Ratings(_)
            | Input::Records { .. }
            | Input::NoteClocks
            | Input::Wake => return Step::Quiet,
        }
        Step::Show(None)
    }

    fn ask(&mut self, who: Fingerprint, request: TableRequest) -> Step {
        let asked_by = commit::AskedBy {
            was_move: matches!(request, TableRequest::Play(_)),
            who,
        };
        let who = &asked_by.who;
        let changed = match request {
            TableRequest::Play(mv) => self.play(who, &mv),
            TableRequest::Offer(kind) => self.make_offer(who, kind).map(|()| false),
            TableRequest::Answer { kind, accept } => self.answer(who, kind, accept),
            TableRequest::Resign => self.resign(who),
            TableRequest::Chat(text) => {
                self.chat(who, &text);
                Ok(false)
            }
            TableRequest::Claim => self.claim(who, false),
            TableRequest::ClaimDraw => self.claim(who, true),
            TableRequest::Resume => self.resume(who),
        };
        match changed {
            Ok(false) => Step::Quiet,
            Ok(true) => Step::Show(Some(asked_by)),
            Err(why) => {
                let refusal = asked_by.refusal(why.to_string());
                self.tell(&asked_by.who, refusal);
                // A refused move may still have changed the game: the mover's time ran out.
                match self.game.outcome() {
                    Some(_) => Step::Show(None),
                    None => Step::Quiet,
                }
            }
        }
    }

    fn leave(&mut self, who: &Fingerprint, conn: Option<Conn>) {
        // Only the connection that has gone leaves. A player may come back on a new connection before the
        // server finds the old one gone (a network that stopped answering): they are still here when it does,
        // and the opponent may not claim the game. Someone may watch on two connections too.
        let gone = |c: Option<Conn>| c.is_some() && c == conn;
        self.watchers.retain(|(w, c)| w != who || !gone(Some(*c)));
        let seated = self.seat_of(who).filter(|color| {
            self.seats[color.index()]
                .as_ref()
                .is_some_and(|seat| gone(seat.conn))
        });
        if let Some(color) = seated {
            self.rematch_off(who);
            let now = self.now;
            if let Some(seat) = self.seats[color.index()].as_mut() {
                seat.away_since = Some(now);
                seat.told_gone = false;
            }
        }
    }

    fn sit(
        &mut self,
        who: Identity,
        color: Option<Color>,
        (rating, provisional): (Option<i32>, bool),
        returning: bool,
        conn: Conn,
    ) -> Result<Color, TableError> {
        // Coming back to one's own seat.
        if let Some(mine) = self.seat_of(&who.fingerprint) {
            let mut taken_from = None;
            if let Some(seat) = self.seats[mine.index()].as_mut() {
                // A connection whose table moved to another node finds the player seated from a newer one (they
                // connected again meanwhile): the newer keeps the seat, as it would have had it first.
                let newer_here = seat.away_since.is_none() && seat.conn != Some(conn);
                if returning && newer_here {
                    return Err(TableError::SeatedElsewhere);
                }
                // One seat, one connection: one still here is told that the seat is taken from elsewhere (the
                // last thing it hears: its queue always has room for it), and leaves the table rather than
                // coming back for the seat.
                if newer_here {
                    taken_from = seat.conn;
                }
                seat.away_since = None;
                seat.conn = Some(conn);
                if rating.is_some() {
                    (seat.rating, seat.provisional) = (rating, provisional);
                }
            }
            if let Some(old) = taken_from {
                self.send(old, Update::TakenOver);
            }
            // A rematch's players were seated before they arrived: its record starts with the first.
            if self.seats.iter().all(Option::is_some) && self.game.is_empty() {
                self.record_start();
            }
            self.start_clock_when_both_are_here();
            return Ok(mine);
        }
        if self.game.outcome().is_some() {
            return Err(TableError::OverMayWatch);
        }
        let free = |c: &Color| self.seats[c.index()].is_none();
        let chosen = match color {
            Some(c) if free(&c) => c,
            Some(c) => return Err(TableError::SeatTaken(c)),
            None => [Color::Black, Color::White]
                .into_iter()
                .find(free)
                .ok_or(TableError::Full)?,
        };
        self.seats[chosen.index()] = Some(Seat {
            who,
            conn: Some(conn),
            rating,
            provisional,
            away_since: None,
            told_gone: false,
            rating_after: None,
        });
        if self.seats.iter().all(Option::is_some) && self.game.is_empty() {
            self.record_start();
        }
        self.start_clock_when_both_are_here();
        Ok(chosen)
    }

    /// The clock of the side to move starts once both players are at the table and each side has made its first
    /// move (which is not timed, as on lichess and lidraughts): after the second first move, and in a game
    /// resumed after a restart (whose clocks wait for both). Until then, the time for the first move runs from
    /// when both are first here.
    fn start_clock_when_both_are_here(&mut self) {
        let both_here = self
            .seats
            .iter()
            .all(|s| s.as_ref().is_some_and(|s| s.away_since.is_none()));
        let waiting = self.clock.as_ref().is_some_and(|c| c.running().is_none());
        if both_here && self.first_moves_due() && self.first_move_since.is_none() {
            self.first_move_since = Some(self.now);
        }
        if both_here
            && waiting
            && !self.paused
            && self.game.outcome().is_none()
            && !self.first_moves_due()
        {
            let to_move = self.game.position().side_to_move();
            let now = self.now;
            if let Some(clock) = self.clock.as_mut() {
                clock.start(to_move, now);
            }
        }
    }

    /// Whether a flag has fallen: the game is lost on time.
    fn check_flag(&mut self) -> bool {
        if let Some(flagged) = self.clock.as_ref().and_then(|c| c.flagged(self.now))
            && self.game.outcome().is_none()
        {
            self.lose_on_time(flagged);
            return true;
        }
        false
    }

    /// `flagged`'s time has run out: the opponent wins ([`lost_on_time`]).
    fn lose_on_time(&mut self, flagged: Color) {
        let _ = self.game.declare(lost_on_time(flagged));
        self.stop_clock();
    }

    fn stop_clock(&mut self) {
        let now = self.now;
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
    }

    fn clocks_now(&self) -> Option<[Duration; 2]> {
        let now = self.now;
        self.clock
            .as_ref()
            .map(|c| [c.left(Color::Black, now), c.left(Color::White, now)])
    }

    /// How long a player who went away at `since` has been away.
    fn away_for(&self, since: Duration) -> Duration {
        self.now.saturating_sub(since)
    }

    fn snapshot(&self) -> Snapshot {
        let seat_view = |seat: &Seat| SeatView {
            name: seat.who.name.clone(),
            rating: seat.rating.filter(|_| self.config.rated),
            provisional: seat.provisional && self.config.rated,
            rating_after: seat.rating_after.filter(|_| self.config.rated),
            away: seat
                .away_since
                .map(|since| self.config.grace.saturating_sub(self.away_for(since))),
        };
        Snapshot {
            game: self.game.clone(),
            seats: [
                self.seats[0].as_ref().map(seat_view),
                self.seats[1].as_ref().map(seat_view),
            ],
            clocks: self.clocks_now(),
            running: self.clock.as_ref().and_then(Clock::running),
            first_move_left: self
                .first_move_since
                .filter(|_| self.first_moves_due())
                .map(|since| FIRST_MOVE_LIMIT.saturating_sub(self.now.saturating_sub(since))),
            watchers: self.watchers.len(),
            rated: self.config.rated,
            paused: self.paused,
            unrecorded: self.records && !self.writing,
            node_silent: false,
        }
    }

    /// Sends `update` to one connection.
    fn send(&mut self, to: Conn, update: Update) {
        self.out.push(TableEffect::Send { to, update });
    }

    /// Sends `update` to `who` alone (wherever they sit or watch from).
    fn tell(&mut self, who: &Fingerprint, update: Update) {
        let seats = self
            .seats
            .iter()
            .flatten()
            .filter_map(|s| Some((&s.who.fingerprint, s.conn?)));
        let watchers = self.watchers.iter().map(|(w, c)| (w, *c));
        let conns: Vec<Conn> = seats
            .chain(watchers)
            .filter(|(w, _)| *w == who)
            .map(|(_, c)| c)
            .collect();
        for conn in conns {
            self.send(conn, update.clone());
        }
    }

    /// The connections of the players here and the watchers.
    fn everyone(&self) -> Vec<Conn> {
        self.seats
            .iter()
            .flatten()
            .filter(|s| s.away_since.is_none())
            .filter_map(|s| s.conn)
            .chain(self.watchers.iter().map(|(_, c)| *c))
            .collect()
    }

    /// Sends `update` to everyone here.
    fn tell_everyone(&mut self, update: &Update) {
        for conn in self.everyone() {
            self.send(conn, update.clone());
        }
    }

    /// The table as it stands, to everyone here (a player away too: their connection may not have gone yet).
    fn broadcast_state(&mut self) {
        if self.unsettled() {
            return;
        }
        let state = self.state();
        let conns: Vec<Conn> = self
            .seats
            .iter()
            .flatten()
            .filter_map(|s| s.conn)
            .chain(self.watchers.iter().map(|(_, c)| *c))
            .collect();
        for conn in conns {
            self.send(conn, state.clone());
        }
        // A player whose time to come back is over has now been told of, to everyone here.
        let (grace, now) = (self.config.grace, self.now);
        for seat in self.seats.iter_mut().flatten() {
            if seat
                .away_since
                .is_some_and(|since| now.saturating_sub(since) >= grace)
            {
                seat.told_gone = true;
            }
        }
    }

    /// The clocks as they run, to everyone here (a state, which holds them, makes good a missed one).
    fn send_clocks(&mut self) {
        if let Some(clocks) = self.clocks_now() {
            self.tell_everyone(&Update::Clocks(clocks));
        }
    }
}

mod away_news;
mod commit;
mod error;
mod event_game;
mod first_moves;
mod recording;
mod rematch;
mod requests;
mod timers;
mod vocabulary;

pub use error::TableError;
pub use recording::{ResumeError, resumed_from, variant_named};
pub use vocabulary::{
    Conn, Input, Listing, Rematch, Resumed, Snapshot, TableConfig, TableEffect, TableSetup, Update,
};
