//! A game between people, owned by one task: the driver of the table's state machine ([`machine::Table`]).
//!
//! Everything that can change a game (a move, an offer and its answer, a resignation, a chat line, a player
//! leaving or coming back, a clock running out) is a [`Command`] to the table's task, handled one at a time, so
//! two players pressing at the same instant cannot corrupt it. The task gives each to the state machine with
//! the time, and carries out what it answers: updates to each connection's bounded queue, commits to the
//! recorder (the table waits for the answer before it shows anything), the lobby's list, the tournament's
//! director, and a wake-up at the next moment the machine asked for.

use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{Instant, sleep_until};

use super::identity::Identity;
use super::ids::{Fingerprint, TableCode};
use super::recorder::{Job, RatingsRead, Recorder, answer_of};
use crate::app::TableRequest;
use crate::rules::Color;
use delivery::Delivery;
pub use delivery::{UPDATES_QUEUE, Updates, WeakUpdates};
use machine::{EventGame, Input, Table, TableEffect};

pub use machine::{
    FIRST_MOVE_LIMIT, GameEnded, Listing, MAX_CHAT, NOTE_CLOCKS_EVERY, Rematch, ResumeError,
    Resumed, Snapshot, TableConfig, TableError, Update, resumed_from, variant_named,
};

/// What a table is asked.
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
        /// Whether that rating is provisional (shown `1512?`).
        provisional: bool,
        /// Whether a connection that held the seat comes back to it after its table moved to another node: it
        /// sits again only while the seat is away, not taking it from a newer connection seated meanwhile.
        returning: bool,
        /// Where their updates go.
        updates: Updates,
        /// The colour they got, or why not.
        reply: oneshot::Sender<Result<Color, TableError>>,
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
        line: WeakUpdates,
    },
    /// Another node has taken the table over (this one was too slow to renew its lease): the table stops here at
    /// once and records nothing more; its people find the game again on the node that runs it now.
    Yield,
    /// The server is stopping: the clocks as they stand go to the records, then `done` is answered.
    NoteClocks {
        /// Answered once the clocks are sent to the recorder.
        done: oneshot::Sender<()>,
    },
}

/// The server's list of tables as a table knows it: told of the table's changes and its end, and asked to open a
/// rematch. The list is above the tables (it opens them); this is all of it a table sees.
pub trait TableList: Send + Sync {
    /// The table's new summary, after a change.
    fn update(&self, listing: Listing);
    /// The table has ended, as it goes.
    fn remove(&self, code: &TableCode);
    /// Opens a table for a rematch, its seats taken by `rematch`'s players; its code, or `None` when no code is
    /// free.
    fn open_rematch(self: Arc<Self>, config: TableConfig, rematch: Rematch) -> Option<TableCode>;
}

/// A way to talk to a table; the table's task ends when the game is over and everyone has gone.
#[derive(Clone, Debug)]
pub struct TableHandle(mpsc::Sender<Command>);

impl TableHandle {
    /// A handle whose commands go to `commands`: a table run elsewhere (on another node, through a relay).
    pub fn relayed(commands: mpsc::Sender<Command>) -> TableHandle {
        TableHandle(commands)
    }

    /// Whether both handles reach the same table.
    pub fn same_table(&self, other: &TableHandle) -> bool {
        self.0.same_channel(&other.0)
    }

    /// Sends a command; `false` when the table has ended.
    pub async fn send(&self, command: Command) -> bool {
        self.0.send(command).await.is_ok()
    }

    /// Sends `request` from `who`; `false` when the table has ended.
    pub async fn ask(&self, who: &Fingerprint, request: TableRequest) -> bool {
        self.send(Command::Ask {
            who: who.clone(),
            request,
        })
        .await
    }
}

/// What a table is linked to besides its players: its code and the list it is listed in, where its game is
/// recorded, and the game it resumes. The default is a table on its own (tests).
#[derive(Default)]
pub struct Links {
    /// The code it is joined by.
    pub code: TableCode,
    /// The server's list of tables, kept up to date with the table's summary.
    pub tables: Option<Weak<dyn TableList>>,
    /// Where its game is recorded.
    pub recorder: Option<Recorder>,
    /// The game it resumes.
    pub resumed: Option<Resumed>,
    /// The players it is a rematch for.
    pub rematch: Option<Rematch>,
    /// The tournament its game belongs to.
    pub tournament: Option<EventLink>,
}

/// The link of a table to the tournament its game belongs to.
#[derive(Clone, Debug)]
pub struct EventLink {
    /// The event's code.
    pub event: TableCode,
    /// The pairing's round (Swiss) or number (arena).
    pub round: u32,
    /// The pairing's board.
    pub board: u32,
    /// The PDN tags the game carries (`Event`, `Round`).
    pub tags: [(&'static str, String); 2],
    /// Where the result goes (the director's queue: one message a game, so unbounded is bounded here).
    pub results: mpsc::UnboundedSender<GameEnded>,
    /// The event as it stands, whose leaders each watcher is shown as they come.
    pub view: watch::Receiver<std::sync::Arc<super::events::view::View>>,
}

impl EventLink {
    /// What the table's state machine knows of the pairing.
    fn pairing(&self) -> EventGame {
        EventGame {
            event: self.event.clone(),
            round: self.round,
            board: self.board,
            tags: self.tags.clone(),
        }
    }

    /// The event's leaders, as a line from the event, for a watcher as they come.
    fn standings(&self) -> Update {
        let view = self.view.borrow().clone();
        let text = format!("round {}: {}", self.tags[1].1, view.leaders);
        Update::Chat {
            from: view.spec.name.clone(),
            text: crate::serve::text::clean_line(&text, MAX_CHAT),
            by: String::new(),
        }
    }
}

/// Starts a table.
pub fn open_table(config: TableConfig, links: Links) -> TableHandle {
    let (tx, rx) = mpsc::channel(256);
    let driver = Driver::new(config, links);
    tokio::spawn(driver.run(rx));
    TableHandle(tx)
}

/// The table's task: its state machine, and what the machine's effects go through.
struct Driver {
    table: Table,
    /// The table's time starts here.
    epoch: Instant,
    delivery: Delivery,
    tables: Option<Weak<dyn TableList>>,
    recorder: Option<Recorder>,
    tournament: Option<EventLink>,
    /// The records' answer to the commit in flight.
    commit: Option<super::recorder::Committing>,
    /// The players' ratings after the game, when they have been asked of the records.
    ratings: Option<oneshot::Receiver<[i32; 2]>>,
    /// Whether the machine said to stop (another node runs the game now).
    stop: bool,
}

impl Driver {
    fn new(config: TableConfig, links: Links) -> Driver {
        let Links {
            code,
            tables,
            recorder,
            resumed,
            rematch,
            tournament,
        } = links;
        let epoch = Instant::now();
        let setup = machine::TableSetup {
            code,
            recorded: recorder.is_some(),
            writing: recorder.as_ref().is_none_or(Recorder::is_writing),
            resumed,
            rematch,
            event: tournament.as_ref().map(EventLink::pairing),
            note_phase: epoch.saturating_duration_since(server_start()),
        };
        Driver {
            table: Table::new(config, setup, Duration::ZERO),
            epoch,
            delivery: Delivery::default(),
            tables,
            recorder,
            tournament,
            commit: None,
            ratings: None,
            stop: false,
        }
    }

    /// The table's time: since it opened.
    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        // Whether the records are written, watched so that everyone here is told when that changes.
        let mut writing = self.recorder.as_ref().map(Recorder::writing);
        loop {
            let wake_at = self.table.next_wake().map(|at| self.epoch + at);
            if let Some(answer) = self.commit.as_mut() {
                // Nothing else happens until the records answer: what the last step changed is shown once it
                // is durable, or undone. Whoever asked hears if that takes long.
                tokio::select! {
                    biased;
                    answer = answer => {
                        self.commit = None;
                        self.step(Input::Committed(answer_of(answer)));
                    }
                    () = sleep_until(wake_at.unwrap_or_else(far_future)), if wake_at.is_some() => {
                        self.step(Input::Wake);
                    }
                }
            } else {
                let catch_up_at = self.delivery.catch_up_deadline();
                // Biased, in this order, so that the table's steps follow from what happened and when alone (the
                // simulation replays them exactly); the timers come first, as each is ready only when it is due.
                tokio::select! {
                    biased;
                    () = sleep_until(wake_at.unwrap_or_else(far_future)), if wake_at.is_some() => {
                        self.step(Input::Wake);
                    }
                    () = sleep_until(catch_up_at.unwrap_or_else(far_future)), if catch_up_at.is_some() => {
                        let state = self.table.state();
                        self.delivery.catch_up(&state);
                    }
                    after = ratings_read(&mut self.ratings) => {
                        self.ratings = None;
                        if let Ok(after) = after {
                            self.step(Input::Ratings(after));
                        }
                    }
                    changed = records_changed(&mut writing) => {
                        match (changed, &writing) {
                            (Ok(()), Some(now)) => {
                                let writing = *now.borrow();
                                self.step(Input::Records { writing });
                            }
                            // The recorder has gone (the server is stopping): nothing more to hear from it.
                            _ => writing = None,
                        }
                        // News of the records sends nobody away: a table just opened, whose first player is on
                        // the way, stays for them (a full disk once ended every such table: "there is no game").
                        continue;
                    }
                    command = commands.recv() => {
                        let Some(command) = command else { break };
                        if !self.command(command) {
                            break;
                        }
                    }
                }
            }
            if self.stop {
                break;
            }
            // Checked after a clock's wake-up too: a flag that falls in an empty table ends it.
            if !self.table.awaiting_records() && self.table.finished() {
                break;
            }
        }
        if let Some(tables) = self.tables.as_ref().and_then(Weak::upgrade) {
            tables.remove(self.table.code());
        }
    }

    /// Hands a command to the machine; `false` when the table stops here.
    fn command(&mut self, command: Command) -> bool {
        match command {
            Command::Sit {
                who,
                color,
                rating,
                provisional,
                returning,
                updates,
                reply,
            } => {
                let conn = self.delivery.conn_for(updates);
                let seated = self.step(Input::Sit {
                    who,
                    color,
                    rating,
                    provisional,
                    returning,
                    conn,
                });
                if let Some(seated) = seated {
                    let _ = reply.send(seated);
                }
            }
            Command::Watch { who, updates } => {
                let conn = self.delivery.conn_for(updates);
                let greeting = self.tournament.as_ref().map(EventLink::standings);
                self.step(Input::Watch {
                    who,
                    conn,
                    greeting,
                });
            }
            Command::Ask { who, request } => {
                self.step(Input::Ask { who, request });
            }
            Command::Leave { who, line } => {
                let conn = self.delivery.conn_of(&line);
                self.step(Input::Leave { who, conn });
            }
            Command::Yield => return false,
            Command::NoteClocks { done } => {
                self.step(Input::NoteClocks);
                let _ = done.send(());
            }
        }
        true
    }

    /// Gives `input` to the machine and carries out its effects; the answer to a seat asked for, if it was.
    fn step(&mut self, input: Input) -> Option<Result<Color, TableError>> {
        let mut seated = None;
        let mut inputs = vec![input];
        while let Some(input) = inputs.pop() {
            let now = self.now();
            for effect in self.table.handle(input, now) {
                match effect {
                    TableEffect::Send { to, update } => {
                        if let Some(gone) = self.delivery.send(to, update) {
                            inputs.push(Input::Gone(gone));
                        }
                    }
                    TableEffect::Seated(answer) => seated = Some(answer),
                    TableEffect::Commit(jobs) => {
                        self.commit = self.recorder.as_ref().map(|r| r.commit(jobs));
                    }
                    TableEffect::Note(job) => {
                        if let Some(recorder) = &self.recorder {
                            recorder.send(job);
                        }
                    }
                    TableEffect::Listing(listing) => {
                        if let Some(tables) = self.tables.as_ref().and_then(Weak::upgrade) {
                            tables.update(listing);
                        }
                    }
                    TableEffect::OpenRematch { config, rematch } => {
                        let opened = match self.tables.as_ref().and_then(Weak::upgrade) {
                            Some(tables) => tables
                                .open_rematch(config, rematch)
                                .ok_or(TableError::NoFreeCodes),
                            None => Err(TableError::CannotOpenAnother),
                        };
                        inputs.push(Input::RematchOpened(opened));
                    }
                    TableEffect::EventResult(ended) => {
                        if let Some(link) = &self.tournament {
                            let _ = link.results.send(ended);
                        }
                    }
                    TableEffect::ReadRatings { players, variant } => {
                        if let Some(recorder) = &self.recorder {
                            let (reply, answer) = oneshot::channel();
                            recorder.send(Job::Ratings(RatingsRead {
                                players,
                                variant,
                                reply,
                            }));
                            self.ratings = Some(answer);
                        }
                    }
                    TableEffect::Stop => self.stop = true,
                }
            }
        }
        // Connections the table no longer sends to are let go: one whose seat was taken from elsewhere hears
        // nothing more, and its session sees the table's end of the line.
        self.delivery.keep(|conn| self.table.holds(conn));
        seated
    }
}

/// When the server started, by this process's clock: every table's clocks are noted in the records at whole
/// periods of [`NOTE_CLOCKS_EVERY`] since then.
fn server_start() -> Instant {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *START.get_or_init(Instant::now)
}

/// Waits for the ratings asked of the records; never, when none were asked.
async fn ratings_read(
    ratings: &mut Option<oneshot::Receiver<[i32; 2]>>,
) -> Result<[i32; 2], oneshot::error::RecvError> {
    match ratings {
        Some(answer) => answer.await,
        None => std::future::pending().await,
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

mod delivery;
pub mod machine;

#[cfg(test)]
mod tests;
