//! A game between people, owned by one task.
//!
//! Everything that can change a game (a move, an offer and its answer, a resignation, a chat line, a player
//! leaving or coming back, a clock running out) is a [`Command`] to the room's task, handled one at a time, so
//! two players pressing at the same instant cannot corrupt it. The room is the authority: a move is played only
//! if it is legal and its player's turn, and time is the room's own. After each change every player and
//! watcher gets an [`Update`].

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, sleep_until};

use super::identity::Identity;
use super::text::clean_line;
use crate::game::{AnyGame, Clock, Outcome, TimeControl, WinReason};
use crate::rules::{Color, GameType, Move};

/// The longest chat line kept, in characters.
pub const MAX_CHAT: usize = 200;
/// Chat lines one person may send in [`CHAT_WINDOW`].
const CHAT_LINES: usize = 5;
/// See [`CHAT_LINES`].
const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// How a room's game is played.
#[derive(Clone, Copy, Debug)]
pub struct RoomConfig {
    /// The rules and board.
    pub game_type: GameType,
    /// The time control, if the game has clocks.
    pub clock: Option<TimeControl>,
    /// How long a player who drops keeps their seat before the opponent may claim the game.
    pub grace: Duration,
}

/// Something offered to the opponent, who accepts or declines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    /// A draw.
    Draw,
    /// Taking back the asker's last move.
    Takeback,
}

/// A seat as the people in the room see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The player's display name.
    pub name: String,
    /// Whether they are connected; if not, how long they have left to come back.
    pub away: Option<Duration>,
}

/// The room as it stands, after a change.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The game: its moves and, once over, its outcome.
    pub game: AnyGame,
    /// Black's and White's seats, by [`Color::index`].
    pub seats: [Option<SeatView>; 2],
    /// Each side's time left, when the game has clocks.
    pub clocks: Option<[Duration; 2]>,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// People watching.
    pub watchers: usize,
}

/// What a room tells the people in it.
#[derive(Clone, Debug)]
pub enum Update {
    /// The room after a change.
    State(Arc<Snapshot>),
    /// The opponent offers something.
    Offer(OfferKind),
    /// An offer of this person's was declined.
    Declined(OfferKind),
    /// A request of this person's was refused, and why.
    Refused(String),
    /// A chat line, cleaned.
    Chat {
        /// Who said it.
        from: String,
        /// What.
        text: String,
    },
}

/// Where a person's updates go.
pub type Updates = mpsc::UnboundedSender<Update>;

/// What a room is asked. `who` is the asker's key fingerprint.
#[derive(Debug)]
pub enum Command {
    /// Take a seat (a colour, or the first free one), or take back one's own seat after a drop.
    Sit {
        /// Who.
        who: Identity,
        /// The colour wanted, if any.
        color: Option<Color>,
        /// Where their updates go.
        updates: Updates,
        /// The colour they got, or why not.
        reply: oneshot::Sender<Result<Color, String>>,
    },
    /// Watch.
    Watch {
        /// Who.
        who: Identity,
        /// Where their updates go.
        updates: Updates,
    },
    /// Play a move.
    Play {
        /// Who.
        who: String,
        /// The move.
        mv: Move,
    },
    /// Offer the opponent a draw or ask for a takeback.
    Offer {
        /// Who.
        who: String,
        /// What.
        kind: OfferKind,
    },
    /// Answer the opponent's offer.
    Answer {
        /// Who.
        who: String,
        /// Which offer.
        kind: OfferKind,
        /// Yes or no.
        accept: bool,
    },
    /// Resign.
    Resign {
        /// Who.
        who: String,
    },
    /// Say something to the room.
    Chat {
        /// Who.
        who: String,
        /// What, as typed.
        text: String,
    },
    /// Claim the game when the opponent has been away longer than the grace period.
    Claim {
        /// Who.
        who: String,
    },
    /// A connection has gone: its player is away (their seat kept for the grace period), or it stops watching.
    Leave {
        /// Who.
        who: String,
    },
}

/// A way to talk to a room; the room's task ends when the game is over and everyone has gone.
#[derive(Clone, Debug)]
pub struct RoomHandle(mpsc::Sender<Command>);

impl RoomHandle {
    /// Sends a command; `false` when the room has ended.
    pub async fn send(&self, command: Command) -> bool {
        self.0.send(command).await.is_ok()
    }
}

/// Starts a room.
pub fn open_room(config: RoomConfig) -> RoomHandle {
    let (tx, rx) = mpsc::channel(256);
    let room = Room::new(config);
    tokio::spawn(room.run(rx));
    RoomHandle(tx)
}

struct Seat {
    who: Identity,
    updates: Updates,
    /// When the player went away; `None` while connected.
    away_since: Option<Instant>,
}

struct Room {
    config: RoomConfig,
    game: AnyGame,
    seats: [Option<Seat>; 2],
    watchers: Vec<(String, Updates)>,
    clock: Option<Clock>,
    /// The room's own time starts here.
    epoch: Instant,
    offer: Option<(Color, OfferKind)>,
    /// When each person's recent chat lines were sent, for the rate limit.
    chat_times: HashMap<String, VecDeque<Instant>>,
}

impl Room {
    fn new(config: RoomConfig) -> Room {
        Room {
            config,
            game: AnyGame::new(config.game_type),
            seats: [None, None],
            watchers: Vec::new(),
            clock: config.clock.map(Clock::new),
            epoch: Instant::now(),
            offer: None,
            chat_times: HashMap::new(),
        }
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        loop {
            let flag_at = self.flag_deadline();
            let command = tokio::select! {
                command = commands.recv() => command,
                () = sleep_until(flag_at.unwrap_or_else(far_future)), if flag_at.is_some() => {
                    self.check_flag();
                    continue;
                }
            };
            let Some(command) = command else { break };
            self.handle(command);
            if self.finished() {
                break;
            }
        }
    }

    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    fn flag_deadline(&self) -> Option<Instant> {
        let clock = self.clock.as_ref()?;
        let left = clock.until_flag(self.now())?;
        Some(Instant::now() + left)
    }

    /// Nobody is left in the room, and there is no game in it to come back to: it is over, or never began.
    fn finished(&self) -> bool {
        let nobody =
            self.seats.iter().flatten().all(|s| s.away_since.is_some()) && self.watchers.is_empty();
        nobody && (self.game.outcome().is_some() || self.game.is_empty())
    }

    fn seat_of(&self, who: &str) -> Option<Color> {
        [Color::Black, Color::White].into_iter().find(|c| {
            self.seats[c.index()]
                .as_ref()
                .is_some_and(|s| s.who.fingerprint == who)
        })
    }

    fn refuse(&self, who: &str, why: &str) {
        let to = self
            .seats
            .iter()
            .flatten()
            .map(|s| (&s.who.fingerprint, &s.updates));
        let watchers = self.watchers.iter().map(|(w, u)| (w, u));
        for (_, updates) in to.chain(watchers).filter(|(w, _)| w.as_str() == who) {
            let _ = updates.send(Update::Refused(why.to_string()));
        }
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Sit {
                who,
                color,
                updates,
                reply,
            } => {
                let _ = reply.send(self.sit(who, color, updates));
            }
            Command::Watch { who, updates } => {
                self.watchers.push((who.fingerprint, updates));
            }
            Command::Play { who, mv } => {
                if let Err(why) = self.play(&who, &mv) {
                    self.refuse(&who, &why);
                    return;
                }
            }
            Command::Offer { who, kind } => {
                if let Err(why) = self.make_offer(&who, kind) {
                    self.refuse(&who, &why);
                }
                return;
            }
            Command::Answer { who, kind, accept } => {
                if let Err(why) = self.answer(&who, kind, accept) {
                    self.refuse(&who, &why);
                    return;
                }
            }
            Command::Resign { who } => match self.seat_of(&who) {
                Some(color) if self.game.outcome().is_none() => {
                    let _ = self.game.resign(color);
                    self.stop_clock();
                }
                _ => return self.refuse(&who, "there is no game of yours to resign"),
            },
            Command::Chat { who, text } => return self.chat(&who, &text),
            Command::Claim { who } => {
                if let Err(why) = self.claim(&who) {
                    self.refuse(&who, &why);
                    return;
                }
            }
            Command::Leave { who } => {
                self.watchers.retain(|(w, _)| *w != who);
                if let Some(color) = self.seat_of(&who)
                    && let Some(seat) = self.seats[color.index()].as_mut()
                {
                    seat.away_since = Some(Instant::now());
                }
            }
        }
        self.broadcast_state();
    }

    fn sit(
        &mut self,
        who: Identity,
        color: Option<Color>,
        updates: Updates,
    ) -> Result<Color, String> {
        // Coming back to one's own seat.
        if let Some(mine) = self.seat_of(&who.fingerprint) {
            if let Some(seat) = self.seats[mine.index()].as_mut() {
                seat.away_since = None;
                seat.updates = updates;
            }
            return Ok(mine);
        }
        let free = |c: &Color| self.seats[c.index()].is_none();
        let chosen = match color {
            Some(c) if free(&c) => c,
            Some(c) => return Err(format!("{} is taken", c.word())),
            None => [Color::Black, Color::White]
                .into_iter()
                .find(free)
                .ok_or_else(|| "the game has two players already; you may watch it".to_string())?,
        };
        self.seats[chosen.index()] = Some(Seat {
            who,
            updates,
            away_since: None,
        });
        // Both seats taken: the game (and the first player's clock) starts.
        if self.seats.iter().all(Option::is_some) && self.game.is_empty() {
            let first = self.game.position().side_to_move();
            let now = self.now();
            if let Some(clock) = self.clock.as_mut() {
                clock.start(first, now);
            }
        }
        Ok(chosen)
    }

    fn play(&mut self, who: &str, mv: &Move) -> Result<(), String> {
        let color = self.seat_of(who).ok_or("you are watching this game")?;
        if self.seats.iter().any(Option::is_none) {
            return Err("the game starts when the opponent sits down".into());
        }
        if let Some(outcome) = self.game.outcome() {
            return Err(format!("the game is over: {outcome}"));
        }
        if self.game.position().side_to_move() != color {
            return Err("it is not your turn".into());
        }
        let now = self.now();
        if let Some(clock) = self.clock.as_mut()
            && let Err(flagged) = clock.press(now)
        {
            self.lose_on_time(flagged);
            return Err("your time ran out".into());
        }
        self.game.play(mv).map_err(|e| e.to_string())?;
        // A move answers any offer still open.
        self.offer = None;
        if self.game.outcome().is_some() {
            self.stop_clock();
        }
        Ok(())
    }

    fn make_offer(&mut self, who: &str, kind: OfferKind) -> Result<(), String> {
        let color = self.seat_of(who).ok_or("you are watching this game")?;
        if self.game.outcome().is_some() {
            return Err("the game is over".into());
        }
        if kind == OfferKind::Takeback && self.plies_to_take_back(color) == 0 {
            return Err("you have no move to take back".into());
        }
        self.offer = Some((color, kind));
        if let Some(seat) = &self.seats[color.opponent().index()] {
            let _ = seat.updates.send(Update::Offer(kind));
        }
        Ok(())
    }

    /// Plies undone when `color` takes back its last move: one if the opponent is to move, two if it is.
    fn plies_to_take_back(&self, color: Color) -> usize {
        let played = self.game.len();
        let to_move = self.game.position().side_to_move();
        let wanted = if to_move == color { 2 } else { 1 };
        if played >= wanted { wanted } else { 0 }
    }

    fn answer(&mut self, who: &str, kind: OfferKind, accept: bool) -> Result<(), String> {
        let color = self.seat_of(who).ok_or("you are watching this game")?;
        let Some((from, offered)) = self.offer else {
            return Err("there is nothing to answer".into());
        };
        if from == color || offered != kind {
            return Err("there is nothing to answer".into());
        }
        self.offer = None;
        if !accept {
            if let Some(seat) = &self.seats[from.index()] {
                let _ = seat.updates.send(Update::Declined(kind));
            }
            return Ok(());
        }
        match kind {
            OfferKind::Draw => {
                let _ = self.game.agree_draw();
                self.stop_clock();
            }
            OfferKind::Takeback => {
                for _ in 0..self.plies_to_take_back(from) {
                    self.game.undo();
                }
                self.game.truncate();
                let now = self.now();
                let to_move = self.game.position().side_to_move();
                if let Some(clock) = self.clock.as_mut() {
                    clock.start(to_move, now);
                }
            }
        }
        Ok(())
    }

    fn claim(&mut self, who: &str) -> Result<(), String> {
        let color = self.seat_of(who).ok_or("you are watching this game")?;
        if self.game.outcome().is_some() {
            return Err("the game is over".into());
        }
        let away = self.seats[color.opponent().index()]
            .as_ref()
            .and_then(|s| s.away_since)
            .ok_or("your opponent is here")?;
        if away.elapsed() < self.config.grace {
            return Err("your opponent may still come back".into());
        }
        let _ = self.game.declare(Outcome::Win {
            winner: color,
            reason: WinReason::Abandoned,
        });
        self.stop_clock();
        Ok(())
    }

    fn chat(&mut self, who: &str, text: &str) {
        let Some(name) = self.name_of(who) else {
            return;
        };
        let now = Instant::now();
        let times = self.chat_times.entry(who.to_string()).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) > CHAT_WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= CHAT_LINES {
            return self.refuse(who, "slow down: a few lines at a time");
        }
        times.push_back(now);
        let text = clean_line(text, MAX_CHAT);
        if text.is_empty() {
            return;
        }
        // Players and watchers talk among themselves: players see players' lines, watchers everyone's.
        let from_player = self.seat_of(who).is_some();
        let update = Update::Chat { from: name, text };
        for seat in self.seats.iter().flatten().filter(|_| from_player) {
            let _ = seat.updates.send(update.clone());
        }
        for (_, updates) in &self.watchers {
            let _ = updates.send(update.clone());
        }
    }

    fn name_of(&self, who: &str) -> Option<String> {
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

    fn check_flag(&mut self) {
        let now = self.now();
        if let Some(flagged) = self.clock.as_ref().and_then(|c| c.flagged(now))
            && self.game.outcome().is_none()
        {
            self.lose_on_time(flagged);
            self.broadcast_state();
        }
    }

    fn lose_on_time(&mut self, flagged: Color) {
        let _ = self.game.declare(Outcome::Win {
            winner: flagged.opponent(),
            reason: WinReason::Time,
        });
        self.stop_clock();
    }

    fn stop_clock(&mut self) {
        let now = self.now();
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
    }

    fn snapshot(&self) -> Snapshot {
        let now = self.now();
        let seat_view = |seat: &Seat| SeatView {
            name: seat.who.name.clone(),
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
            clocks: self
                .clock
                .as_ref()
                .map(|c| [c.left(Color::Black, now), c.left(Color::White, now)]),
            running: self.clock.as_ref().and_then(Clock::running),
            watchers: self.watchers.len(),
        }
    }

    fn broadcast_state(&mut self) {
        let state = Update::State(Arc::new(self.snapshot()));
        for seat in self.seats.iter().flatten() {
            let _ = seat.updates.send(state.clone());
        }
        // Watchers whose connection has gone are forgotten.
        self.watchers
            .retain(|(_, updates)| updates.send(state.clone()).is_ok());
    }
}

/// A moment that never comes, for a timer that is off.
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400 * 365)
}

#[cfg(test)]
mod tests;
