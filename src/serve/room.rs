//! A game between people, owned by one task.
//!
//! Everything that can change a game (a move, an offer and its answer, a resignation, a chat line, a player
//! leaving or coming back, a clock running out) is a [`Command`] to the room's task, handled one at a time, so
//! two players pressing at the same instant cannot corrupt it. The room is the authority: a move is played only
//! if it is legal and its player's turn, and time is the room's own. After each change every player and
//! watcher gets an [`Update`].

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Weak;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{Instant, sleep_until};

use super::identity::Identity;
use super::ids::{Fingerprint, RoomCode};
use super::recorder::{Job, RecordKey, Recorder, answer_of};
use super::tables::{Listing, Tables};
use crate::app::{OfferKind, SeatView, TableEvent, TableRequest, TableState};
use crate::game::{AnyGame, Clock, TimeControl, lost_on_time};
use crate::rules::{Color, GameType};
use commit::AfterCommit;

/// The longest chat line kept, in characters.
pub const MAX_CHAT: usize = 200;
/// Chat lines one person may send in [`CHAT_WINDOW`].
const CHAT_LINES: usize = 5;
/// See [`CHAT_LINES`].
const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// How often a running clock is noted in the records: a crash costs the running side at most this much of the
/// time it used since (a stop, with SIGTERM, notes the clocks as they stand).
pub const NOTE_CLOCKS_EVERY: Duration = Duration::from_secs(2);

/// How a room's game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomConfig {
    /// The rules and board.
    pub game_type: GameType,
    /// The time control, if the game has clocks.
    pub clock: Option<TimeControl>,
    /// How long a player who drops keeps their seat before the opponent may claim the game.
    pub grace: Duration,
    /// Whether the game changes the players' ratings.
    pub rated: bool,
    /// Whether the game is left out of the lobby's list (joined by its code only).
    pub private: bool,
}

/// The room as it stands, after a change.
pub type Snapshot = TableState;

/// What a room tells the people in it.
pub type Update = TableEvent;

/// Where a person's updates go: a bounded queue (see [`UPDATES_QUEUE`]).
pub type Updates = mpsc::Sender<Update>;

/// A connection's [`Updates`], known without holding them open ([`mpsc::Sender::downgrade`]): which of a person's
/// connections has gone, when they have more than one (the room holds the only [`Updates`] of each).
pub type Line = mpsc::WeakSender<Update>;

/// How many updates may wait for one person. A connection that falls this far behind misses what comes next
/// until it has caught up, and then the room sends it the newest state: it never holds memory that grows.
pub const UPDATES_QUEUE: usize = 64;

/// What a room is asked.
#[derive(Debug)]
pub enum Command {
    /// Take a seat (a colour, or the first free one), or take back one's own seat after a drop.
    Sit {
        /// Who.
        who: Identity,
        /// The colour wanted, if any.
        color: Option<Color>,
        /// Their rating in the variant, shown to the others in a rated game.
        rating: Option<i32>,
        /// Where their updates go.
        updates: Updates,
        /// The colour they got, or why not.
        reply: oneshot::Sender<Result<Color, RoomError>>,
    },
    /// Watch.
    Watch {
        /// Who.
        who: Identity,
        /// Where their updates go.
        updates: Updates,
    },
    /// A player (or watcher) asks something: a move, an offer or its answer, resigning, a chat line, a claim.
    Ask {
        /// Who.
        who: Fingerprint,
        /// What.
        request: TableRequest,
    },
    /// A connection has gone: its player is away (their seat kept for the grace period), or it stops watching.
    Leave {
        /// Who.
        who: Fingerprint,
        /// The connection, by the updates it was sent.
        line: Line,
    },
    /// Another node has taken the room over (this one was too slow to renew its lease): the room stops here at
    /// once and records nothing more; its people find the game again on the node that runs it now.
    Yield,
    /// The server is stopping: the clocks as they stand go to the records, then `done` is answered.
    NoteClocks {
        /// Answered once the clocks are sent to the recorder.
        done: oneshot::Sender<()>,
    },
}

/// A way to talk to a room; the room's task ends when the game is over and everyone has gone.
#[derive(Clone, Debug)]
pub struct RoomHandle(mpsc::Sender<Command>);

impl RoomHandle {
    /// A handle whose commands go to `commands`: a room run elsewhere (on another node, through a relay).
    pub fn relayed(commands: mpsc::Sender<Command>) -> RoomHandle {
        RoomHandle(commands)
    }

    /// Sends a command; `false` when the room has ended.
    pub async fn send(&self, command: Command) -> bool {
        self.0.send(command).await.is_ok()
    }

    /// Sends `request` from `who`; `false` when the room has ended.
    pub async fn ask(&self, who: &Fingerprint, request: TableRequest) -> bool {
        self.send(Command::Ask {
            who: who.clone(),
            request,
        })
        .await
    }
}

/// A game from the records, resumed after the server restarted: its players are away until they come back, and
/// its clocks wait for both.
#[derive(Clone, Debug)]
pub struct Resumed {
    /// The game so far.
    pub game: AnyGame,
    /// Black's and White's players.
    pub seats: [Identity; 2],
    /// Each side's time left when the game was last recorded, when it has clocks.
    pub clocks: Option<[Duration; 2]>,
    /// Black's and White's ratings in the variant, when the game is rated and they could be read.
    pub ratings: [Option<i32>; 2],
    /// The code it was joined by, kept when it is free.
    pub code: Option<RoomCode>,
    /// The room's key for it in the records (the recorder has been told its number).
    pub record: RecordKey,
}

/// What a room is linked to besides its players: its code and the list it is listed in, where its game is
/// recorded, and the game it resumes. The default is a room on its own (tests).
#[derive(Default)]
pub struct Links {
    /// The code it is joined by.
    pub code: RoomCode,
    /// The server's list of rooms, kept up to date with the room's summary.
    pub tables: Option<Weak<Tables>>,
    /// Where its game is recorded.
    pub recorder: Option<Recorder>,
    /// The game it resumes.
    pub resumed: Option<Resumed>,
    /// The players it is a rematch for.
    pub rematch: Option<Rematch>,
    /// The tournament its game belongs to.
    pub tournament: Option<TournamentGame>,
}

/// Starts a room.
pub fn open_room(config: RoomConfig, links: Links) -> RoomHandle {
    let (tx, rx) = mpsc::channel(256);
    let room = Room::new(config, links);
    tokio::spawn(room.run(rx));
    RoomHandle(tx)
}

struct Seat {
    who: Identity,
    updates: Updates,
    rating: Option<i32>,
    /// When the player went away; `None` while connected.
    away_since: Option<Instant>,
    /// Whether everyone here has been told that the player's time to come back is over (the last step of the
    /// countdown, which must not be lost when another wake-up comes at the same moment).
    told_gone: bool,
}

struct Room {
    config: RoomConfig,
    code: RoomCode,
    game: AnyGame,
    seats: [Option<Seat>; 2],
    watchers: Vec<(Fingerprint, Updates)>,
    clock: Option<Clock>,
    /// The room's own time starts here.
    epoch: Instant,
    offer: Option<(Color, OfferKind)>,
    /// When each person's recent chat lines were sent, for the rate limit.
    chat_times: HashMap<Fingerprint, VecDeque<Instant>>,
    tables: Option<Weak<Tables>>,
    recorder: Option<Recorder>,
    /// The game's key in the records, once it has started there.
    record: Option<RecordKey>,
    /// Whether the end of the game has been recorded.
    ended: bool,
    /// Whether the clocks are stopped by the players' agreement.
    paused: bool,
    /// Who (by fingerprint) missed a state because their queue was full: they get the newest when it has room.
    behind: HashSet<Fingerprint>,
    /// When to try again to bring those behind up to date.
    catch_up_at: Option<Instant>,
    /// The tournament its game belongs to.
    tournament: Option<TournamentGame>,
    /// What the step being handled changed in the records' part of the game: its commit, as it is gathered.
    unsaved: Vec<Job>,
    /// The commit sent to the records and not answered yet: nothing else happens in the room until it is.
    pending: Option<commit::Pending>,
    /// After the records could not take a step: not before then does the room try again by itself.
    retry_at: Option<Instant>,
}

/// What a step of the room comes to.
enum Step {
    /// Nothing the people here see changed.
    Quiet,
    /// The room changed: shown to everyone once what it changed in the game is in the records. Who asked for it
    /// is told if it cannot be written.
    Show(Option<commit::AskedBy>),
}

impl Room {
    fn new(config: RoomConfig, links: Links) -> Room {
        let Links {
            code,
            tables,
            recorder,
            resumed,
            rematch,
            tournament,
        } = links;
        let mut room = Room {
            config,
            code,
            game: AnyGame::new(config.game_type),
            seats: [None, None],
            watchers: Vec::new(),
            clock: config.clock.map(Clock::new),
            epoch: Instant::now(),
            offer: None,
            chat_times: HashMap::new(),
            tables,
            recorder,
            record: None,
            ended: false,
            paused: false,
            behind: HashSet::new(),
            catch_up_at: None,
            tournament,
            unsaved: Vec::new(),
            pending: None,
            retry_at: None,
        };
        if let Some(rematch) = rematch {
            // Both players are on their way from the last game: away until each arrives.
            room.seat_away(rematch.seats);
        }
        if let Some(resumed) = resumed {
            room.game = resumed.game;
            room.record = Some(resumed.record);
            if let (Some(control), Some(left)) = (config.clock, resumed.clocks) {
                room.clock = Some(Clock::resumed(control, left));
            }
            // Both players are away until they come back; nobody hears anything until then.
            let [black, white] = resumed.seats;
            let [black_rating, white_rating] = resumed.ratings;
            room.seat_away([(black, black_rating), (white, white_rating)]);
        }
        room
    }

    /// Seats Black's and White's players (with their ratings), both away until they arrive.
    fn seat_away(&mut self, players: [(Identity, Option<i32>); 2]) {
        let away = Instant::now();
        for (color, (who, rating)) in [Color::Black, Color::White].into_iter().zip(players) {
            let (updates, _) = mpsc::channel(1);
            self.seats[color.index()] = Some(Seat {
                who,
                updates,
                rating,
                away_since: Some(away),
                told_gone: false,
            });
        }
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        // Whether the records are written, watched so that everyone here is told when that changes.
        let mut writing = self.recorder.as_ref().map(Recorder::writing);
        loop {
            if let Some(pending) = self.pending.as_mut() {
                // Nothing else happens until the records answer: what the last step changed is shown once it
                // is durable, or undone. Whoever asked hears if that takes long.
                let (slow_at, told) = (pending.slow_at, pending.told_slow);
                let answer = tokio::select! {
                    biased;
                    answer = &mut pending.answer => answer_of(answer),
                    () = sleep_until(slow_at), if !told => {
                        self.commit_is_slow();
                        continue;
                    }
                };
                if self.committed(answer) == AfterCommit::Stop {
                    break;
                }
                if self.finished() {
                    break;
                }
                continue;
            }
            let flag_at = self.not_before_retry(self.flag_deadline());
            let tick_at = self.tick_deadline();
            let away_at = self.away_deadline();
            let note_at = self.note_deadline();
            let catch_up_at = self.catch_up_deadline();
            let forfeit_at = self.not_before_retry(self.forfeit_deadline());
            // Biased, in this order, so that the room's steps follow from what happened and when alone (the
            // simulation replays them exactly); the timers come first, as each is ready only when it is due.
            tokio::select! {
                biased;
                () = sleep_until(flag_at.unwrap_or_else(far_future)), if flag_at.is_some() => {
                    let before = self.before();
                    if self.check_flag() {
                        self.settle(before, None);
                    }
                }
                () = sleep_until(forfeit_at.unwrap_or_else(far_future)), if forfeit_at.is_some() => {
                    let before = self.before();
                    self.forfeit_absent();
                    self.settle(before, None);
                }
                () = sleep_until(tick_at.unwrap_or_else(far_future)), if tick_at.is_some() => {
                    self.send_clocks();
                }
                () = sleep_until(away_at.unwrap_or_else(far_future)), if away_at.is_some() => {
                    // The time left to come back, counting down on the others' screens.
                    self.broadcast_state();
                }
                () = sleep_until(note_at.unwrap_or_else(far_future)), if note_at.is_some() => {
                    self.note_clocks();
                }
                () = sleep_until(catch_up_at.unwrap_or_else(far_future)), if catch_up_at.is_some() => {
                    self.catch_up();
                }
                changed = records_changed(&mut writing) => {
                    if changed.is_err() {
                        // The recorder has gone (the server is stopping): nothing more to hear from it.
                        writing = None;
                    }
                    self.broadcast_state();
                    // News of the records sends nobody away: a room just opened, whose first player is on the
                    // way, stays for them (a full disk once ended every such room: "there is no game").
                    continue;
                }
                command = commands.recv() => {
                    let Some(command) = command else { break };
                    if matches!(command, Command::Yield) {
                        break;
                    }
                    let before = self.before();
                    match self.handle(command) {
                        Step::Show(asked_by) => self.settle(before, asked_by),
                        // Nothing to show; a step that changed nothing has nothing to write either.
                        Step::Quiet => debug_assert!(self.unsaved.is_empty()),
                    }
                }
            }
            // Checked after a clock's wake-up too: a flag that falls in an empty room ends it.
            if self.pending.is_none() && self.finished() {
                break;
            }
        }
        if let Some(tables) = self.tables.as_ref().and_then(Weak::upgrade) {
            tables.remove(&self.code);
        }
    }

    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    /// Nobody is left in the room, and there is no game in it to come back to: it is over, or never began (a
    /// game in the records has begun, moves or not: it stays for its players, and a restart resumes it).
    fn finished(&self) -> bool {
        let nobody =
            self.seats.iter().flatten().all(|s| s.away_since.is_some()) && self.watchers.is_empty();
        // A tournament's game waits for its players (and is forfeited when they do not come).
        let never_began =
            self.game.is_empty() && self.record.is_none() && self.tournament.is_none();
        nobody && (self.game.outcome().is_some() || never_began)
    }

    fn seat_of(&self, who: &Fingerprint) -> Option<Color> {
        [Color::Black, Color::White].into_iter().find(|c| {
            self.seats[c.index()]
                .as_ref()
                .is_some_and(|s| s.who.fingerprint == *who)
        })
    }

    fn refuse(&self, who: &Fingerprint, why: &RoomError) {
        self.tell(who, Update::Refused(why.to_string()));
    }

    fn handle(&mut self, command: Command) -> Step {
        match command {
            Command::Sit {
                who,
                color,
                rating,
                updates,
                reply,
            } => {
                let _ = reply.send(self.sit(who, color, rating, updates));
            }
            // Nothing changes for the people here: nobody hears of it.
            Command::NoteClocks { done } => {
                self.note_clocks();
                let _ = done.send(());
                return Step::Quiet;
            }
            Command::Watch { who, updates } => {
                self.watchers.push((who.fingerprint.clone(), updates));
                self.show_standings(&who.fingerprint);
            }
            // Taken before it gets here (the room stops).
            Command::Yield => return Step::Quiet,
            Command::Ask { who, request } => {
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
                return match changed {
                    Ok(false) => Step::Quiet,
                    Ok(true) => Step::Show(Some(asked_by)),
                    Err(why) => {
                        self.tell(&asked_by.who, asked_by.refusal(why.to_string()));
                        // A refused move may still have changed the game: the mover's time ran out.
                        match self.game.outcome() {
                            Some(_) => Step::Show(None),
                            None => Step::Quiet,
                        }
                    }
                };
            }
            Command::Leave { who, line } => {
                // Only the connection that has gone leaves. A player may come back on a new connection before
                // the server finds the old one gone (a network that stopped answering): they are still here when
                // it does, and the opponent may not claim the game. Someone may watch on two connections too.
                let gone =
                    |updates: &Updates| line.upgrade().is_some_and(|l| l.same_channel(updates));
                self.watchers
                    .retain(|(w, updates)| *w != who || !gone(updates));
                let seated = self.seat_of(&who).filter(|color| {
                    self.seats[color.index()]
                        .as_ref()
                        .is_some_and(|seat| gone(&seat.updates))
                });
                if let Some(color) = seated {
                    self.rematch_off(&who);
                    if let Some(seat) = self.seats[color.index()].as_mut() {
                        seat.away_since = Some(Instant::now());
                        seat.told_gone = false;
                    }
                }
            }
        }
        Step::Show(None)
    }

    fn sit(
        &mut self,
        who: Identity,
        color: Option<Color>,
        rating: Option<i32>,
        updates: Updates,
    ) -> Result<Color, RoomError> {
        // Coming back to one's own seat.
        if let Some(mine) = self.seat_of(&who.fingerprint) {
            if let Some(seat) = self.seats[mine.index()].as_mut() {
                // One seat, one connection: one still here is told that the seat is taken from elsewhere (the
                // last thing it hears: its queue always has room for it), and leaves the table rather than
                // coming back for the seat.
                if seat.away_since.is_none() && !seat.updates.same_channel(&updates) {
                    let _ = seat.updates.try_send(Update::TakenOver);
                }
                seat.away_since = None;
                seat.updates = updates;
                seat.rating = rating.or(seat.rating);
            }
            // A rematch's players were seated before they arrived: its record starts with the first.
            if self.seats.iter().all(Option::is_some) && self.game.is_empty() {
                self.record_start();
            }
            self.start_clock_when_both_are_here();
            return Ok(mine);
        }
        if self.game.outcome().is_some() {
            return Err(RoomError::OverMayWatch);
        }
        let free = |c: &Color| self.seats[c.index()].is_none();
        let chosen = match color {
            Some(c) if free(&c) => c,
            Some(c) => return Err(RoomError::SeatTaken(c)),
            None => [Color::Black, Color::White]
                .into_iter()
                .find(free)
                .ok_or(RoomError::Full)?,
        };
        self.seats[chosen.index()] = Some(Seat {
            who,
            updates,
            rating,
            away_since: None,
            told_gone: false,
        });
        if self.seats.iter().all(Option::is_some) && self.game.is_empty() {
            self.record_start();
        }
        self.start_clock_when_both_are_here();
        Ok(chosen)
    }

    /// The clock of the side to move starts once both players are at the table: at the start, and in a game
    /// resumed after a restart (whose clocks wait for both).
    fn start_clock_when_both_are_here(&mut self) {
        let both_here = self
            .seats
            .iter()
            .all(|s| s.as_ref().is_some_and(|s| s.away_since.is_none()));
        let waiting = self.clock.as_ref().is_some_and(|c| c.running().is_none());
        if both_here && waiting && !self.paused && self.game.outcome().is_none() {
            let to_move = self.game.position().side_to_move();
            let now = self.now();
            if let Some(clock) = self.clock.as_mut() {
                clock.start(to_move, now);
            }
        }
    }

    /// Whether a flag has fallen: the game is lost on time.
    fn check_flag(&mut self) -> bool {
        let now = self.now();
        if let Some(flagged) = self.clock.as_ref().and_then(|c| c.flagged(now))
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
        let now = self.now();
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
    }

    fn clocks_now(&self) -> Option<[Duration; 2]> {
        let now = self.now();
        self.clock
            .as_ref()
            .map(|c| [c.left(Color::Black, now), c.left(Color::White, now)])
    }

    fn snapshot(&self) -> Snapshot {
        let seat_view = |seat: &Seat| SeatView {
            name: seat.who.name.clone(),
            rating: seat.rating.filter(|_| self.config.rated),
            away: seat
                .away_since
                .map(|since| self.config.grace.saturating_sub(since.elapsed())),
        };
        Snapshot {
            game: self.game.clone(),
            seats: [
                self.seats[0].as_ref().map(seat_view),
                self.seats[1].as_ref().map(seat_view),
            ],
            clocks: self.clocks_now(),
            running: self.clock.as_ref().and_then(Clock::running),
            watchers: self.watchers.len(),
            rated: self.config.rated,
            paused: self.paused,
            unrecorded: self
                .recorder
                .as_ref()
                .is_some_and(|recorder| !recorder.is_writing()),
        }
    }
}

/// Waits for a change in whether the records are written; never, without a recorder.
async fn records_changed(
    writing: &mut Option<watch::Receiver<bool>>,
) -> Result<(), watch::error::RecvError> {
    match writing {
        Some(writing) => writing.changed().await,
        None => std::future::pending().await,
    }
}

/// A moment that never comes, for a timer that is off.
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400 * 365)
}

mod commit;
mod delivery;
mod error;
mod recording;
mod rematch;
mod requests;
mod timers;
mod tournament_game;

pub use error::RoomError;
pub use recording::{ResumeError, resumed_from, variant_named};
pub use rematch::Rematch;
pub use tournament_game::{GameEnded, TournamentGame};
#[cfg(test)]
mod tests;
