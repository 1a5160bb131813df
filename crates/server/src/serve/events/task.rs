//! One running tournament's task: it owns the event's [`Director`], feeds it the players who come and go, the
//! results its tables report and the time, and acts on what it answers. Commit, then show, as in a table: the
//! changes of each step go to the records as one commit, and only once they are written does a pairing open its
//! table (both players seated, away until they arrive), are the players present sent to their boards, and does
//! everyone who looks at the event see its new table (through a [`watch`] channel). A step the records cannot
//! take is undone and tried again, in order, at the next tick.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use super::{EventRequest, News, View};
use crate::game::TimeControl;
use crate::rules::GameType;
use crate::serve::event_rules::director::{Director, DirectorAction, DirectorInput, event_tags};
use crate::serve::event_rules::standings::show_half;
use crate::serve::event_rules::table::render;
use crate::serve::event_rules::{Colour, Entrant, GameResult};
use crate::serve::identity::Identity;
use crate::serve::ids::{Fingerprint, TableCode};
use crate::serve::recorder::{CommitError, Job, Recorder, answer_of};
use crate::serve::records::unix_now;
use crate::serve::records::{EventKind, PairingRecord, Records, Stage};
use crate::serve::table::{EventLink, GameEnded, TableConfig, variant_named};
use crate::serve::tables::Tables;

/// How often the director looks at the time (an arena's end, an event's start), and the steps the records
/// could not take are tried again.
const TICK: Duration = Duration::from_millis(500);

/// The most steps that wait to be tried again while the records cannot be written (players entering, leaving,
/// results): one per thing a player did, so bounded by the event's size; past it the oldest is given up.
const MAX_UNWRITTEN: usize = 4 * crate::serve::event_rules::director::MAX_ENTRANTS;

/// What became of a step of the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stepped {
    /// Written and shown, or nothing to write, or given up (refused for good, or the event stops here).
    Done,
    /// The records cannot take it now: undone, to be tried again.
    Unwritten,
}

/// What the task works with besides its director.
pub(super) struct Running {
    pub director: Director,
    pub tables: Arc<Tables>,
    pub recorder: Recorder,
    pub grace: Duration,
    /// The tables of the pairings under way, by (round, board).
    pub boards: HashMap<(u32, u32), TableCode>,
    pub view: watch::Sender<Arc<View>>,
    /// Where the blocks between the players are read from.
    pub records: Option<Arc<std::sync::Mutex<dyn Records>>>,
}

/// How long the blocks between an event's players are taken as read, between looks at the time: a block made
/// at a board (after a game with someone) holds for the next pairing; any other step reads them afresh.
const BLOCKS_FRESH: Duration = Duration::from_secs(5);

struct Task {
    run: Running,
    /// The event as everyone sees it (for its games' tables, which show its leaders to their watchers).
    view: watch::Receiver<Arc<View>>,
    /// The connections of the players looking at the event, by key: where their boards are sent.
    present: HashMap<Fingerprint, mpsc::Sender<News>>,
    results: mpsc::UnboundedSender<GameEnded>,
    /// The steps the records could not take, in order, tried again before anything new.
    unwritten: VecDeque<DirectorInput>,
    /// Whether the task stops: the server is stopping, or another node runs the event now.
    stopped: bool,
    /// When the blocks between the players were last read, and how many players there were.
    blocks_read: Option<(tokio::time::Instant, usize)>,
}

/// Runs the event until it is over (then its table stays in the records) or the server stops. The results
/// already waiting are taken first, then pairings under way with no table (a restart that found no game for them)
/// are given one.
pub(super) async fn run(
    run: Running,
    mut asks: mpsc::Receiver<EventRequest>,
    results: (
        mpsc::UnboundedSender<GameEnded>,
        mpsc::UnboundedReceiver<GameEnded>,
    ),
    mut shutdown: watch::Receiver<bool>,
) {
    let (results, mut ended) = results;
    let view = run.view.subscribe();
    let mut task = Task {
        view,
        run,
        present: HashMap::new(),
        results,
        unwritten: VecDeque::new(),
        stopped: false,
        blocks_read: None,
    };
    // The results the records hold that the event had not heard (games that ended while it was not running)
    // first: a pairing already played is not given a new table.
    while let Ok(game) = ended.try_recv() {
        task.game_over(game).await;
    }
    let unseated: Vec<PairingRecord> = task
        .run
        .director
        .pairings()
        .iter()
        .filter(|p| p.result.is_none() && !task.run.boards.contains_key(&(p.round, p.board)))
        .cloned()
        .collect();
    for pairing in unseated {
        task.open_board(&pairing);
    }
    task.publish();
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while task.run.director.stage() != Stage::Finished && !task.stopped {
        tokio::select! {
            ask = asks.recv() => match ask {
                Some(ask) => task.ask(ask).await,
                None => break,
            },
            Some(game) = ended.recv() => task.game_over(game).await,
            _ = tick.tick() => task.tick().await,
            _ = shutdown.changed() => break,
        }
    }
    task.publish();
}

impl Task {
    async fn ask(&mut self, ask: EventRequest) {
        match ask {
            EventRequest::Enter {
                who,
                news,
                taken_in,
            } => {
                let fingerprint = who.fingerprint.clone();
                self.present.insert(fingerprint.clone(), news);
                self.handle(DirectorInput::Join {
                    who: who.fingerprint,
                    name: who.name,
                })
                .await;
                // The player may have gone already; nothing to tell then.
                let _ = taken_in.send(());
                // Back while a game of theirs is under way: to it at once.
                if let Some(code) = self.board_of(&fingerprint) {
                    self.tell(&fingerprint, News::Board(code));
                }
            }
            EventRequest::Leave { who, news } => {
                // Only the connection that leaves: the player may be back on a new one already.
                let this_one = self
                    .present
                    .get(&who)
                    .is_some_and(|held| news.upgrade().is_some_and(|n| n.same_channel(held)));
                if this_one {
                    self.present.remove(&who);
                    self.handle(DirectorInput::Away(who)).await;
                }
            }
            EventRequest::Withdraw(who) => {
                self.present.remove(&who);
                self.handle(DirectorInput::Withdraw(who)).await;
            }
        }
    }

    async fn game_over(&mut self, game: GameEnded) {
        let pairing = self
            .run
            .director
            .pairings()
            .iter()
            .find(|p| p.round == game.round && p.board == game.board)
            .map(|p| p.pairing);
        self.run.boards.remove(&(game.round, game.board));
        self.handle(DirectorInput::GameOver {
            round: game.round,
            board: game.board,
            result: game.result,
            forfeit: game.forfeit,
        })
        .await;
        // Neither came: a Swiss event withdraws both (each is back when they come again).
        if game.forfeit
            && game.result == GameResult::Draw
            && self.run.director.spec().kind == EventKind::Swiss
            && let Some(pairing) = pairing
        {
            for entrant in [pairing.first, pairing.second] {
                if let Some(who) = self.run.director.who(entrant).cloned()
                    && !self.present.contains_key(&who)
                {
                    self.handle(DirectorInput::Withdraw(who)).await;
                }
            }
        }
    }

    /// The time, for the director, once the steps waiting for the records are written (in order: one the
    /// records still cannot take keeps its place at the head).
    async fn tick(&mut self) {
        while let Some(event) = self.unwritten.front().cloned() {
            if self.stopped {
                return;
            }
            match self.step(event).await {
                Stepped::Unwritten => return,
                Stepped::Done => {
                    self.unwritten.pop_front();
                }
            }
        }
        self.step(DirectorInput::Tick).await;
    }

    /// Feeds the director `event` after the steps still waiting for the records (it keeps its place behind
    /// them), or now.
    async fn handle(&mut self, event: DirectorInput) {
        if !self.unwritten.is_empty() {
            return self.wait_for_records(event);
        }
        if self.step(event.clone()).await == Stepped::Unwritten {
            self.wait_for_records(event);
        }
    }

    /// Feeds the director and, once the records hold what it changed, acts on its answer. A step the records
    /// cannot take now is undone ([`Stepped::Unwritten`]: the caller keeps it to try again, a tick excepted, as
    /// the next one looks at the time again).
    async fn step(&mut self, event: DirectorInput) -> Stepped {
        let ticked = matches!(event, DirectorInput::Tick);
        self.read_blocks(ticked).await;
        // Who plays another event's game here just now: not paired here until it ends.
        let busy = self.run.tables.busy_players();
        self.run.director.set_busy(busy);
        let before = self.run.director.clone();
        let actions = self.run.director.handle(event, unix_now());
        if actions.is_empty() {
            if !ticked {
                self.publish();
            }
            return Stepped::Done;
        }
        // The pairings are in the commit that records them before their tables open: a table records its game's
        // start against its pairing.
        let paired: Vec<PairingRecord> = actions
            .iter()
            .filter_map(|action| match action {
                DirectorAction::Paired(pairing) => Some(pairing.clone()),
                _ => None,
            })
            .collect();
        let code = self.run.director.spec().code.clone();
        let jobs = actions
            .into_iter()
            .map(|action| Job::Event {
                event: code.clone(),
                action,
            })
            .collect();
        match answer_of(self.run.recorder.commit(jobs).await) {
            Ok(()) => {
                for pairing in paired {
                    self.open_board(&pairing);
                }
                self.publish();
                Stepped::Done
            }
            Err(error) => {
                // Nobody has seen the step: it is undone, as if it had not come yet.
                self.run.director = before;
                match error {
                    CommitError::Unwritable if ticked => Stepped::Done,
                    CommitError::Unwritable => Stepped::Unwritten,
                    CommitError::Refused(why) => {
                        tracing::error!(event = %code, %why, "the records refused a tournament's step");
                        Stepped::Done
                    }
                    // Another node runs it, the server stops, or the step may have been kept or not: it stops
                    // here, and is read back from the records where it is taken up next.
                    CommitError::NotHeld | CommitError::Stopped | CommitError::Unknown => {
                        self.stopped = true;
                        Stepped::Done
                    }
                }
            }
        }
    }

    /// Reads the blocks between the event's players afresh: at every step but a look at the time, at which only
    /// when the last read is older than [`BLOCKS_FRESH`] or the players have changed. When they cannot be read,
    /// the last ones read hold.
    async fn read_blocks(&mut self, ticked: bool) {
        let Some(records) = self.run.records.clone() else {
            return;
        };
        let players = self.run.director.players();
        let fresh = self
            .blocks_read
            .is_some_and(|(at, count)| count == players.len() && at.elapsed() < BLOCKS_FRESH);
        if players.len() < 2 || (ticked && fresh) {
            return;
        }
        let count = players.len();
        let read = tokio::task::spawn_blocking(move || {
            let mut records = records
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            records.blocks_among(&players)
        })
        .await;
        match read {
            Ok(Ok(blocks)) => {
                self.run.director.set_blocked(blocks);
                self.blocks_read = Some((tokio::time::Instant::now(), count));
            }
            Ok(Err(error)) => {
                tracing::warn!(%error, "the blocks between an event's players cannot be read; the last read hold")
            }
            Err(error) => {
                tracing::warn!(%error, "reading the blocks between an event's players failed")
            }
        }
    }

    /// Keeps `event` to try again once the records can be written; the oldest is given up past the bound.
    fn wait_for_records(&mut self, event: DirectorInput) {
        if self.unwritten.len() >= MAX_UNWRITTEN
            && let Some(lost) = self.unwritten.pop_front()
        {
            let code = &self.run.director.spec().code;
            tracing::error!(event = %code, ?lost, "a tournament's step waited too long for the records");
        }
        self.unwritten.push_back(event);
    }

    /// Opens the table of `pairing`, both players seated away until they arrive, and sends those present there.
    fn open_board(&mut self, pairing: &PairingRecord) {
        let spec = self.run.director.spec();
        let game_type = match variant_named(&spec.variant, None) {
            Ok(variant) => GameType::standard(variant),
            Err(why) => {
                tracing::error!(event = %spec.code, %why, "a tournament's variant is not known");
                return;
            }
        };
        let clock = spec.clock.parse::<TimeControl>().ok();
        let config = TableConfig {
            game_type,
            clock,
            grace: self.run.grace,
            rated: spec.rated,
            private: false,
        };
        let identity = |entrant: Entrant| {
            Some(Identity {
                fingerprint: self.run.director.who(entrant)?.clone(),
                name: self.run.director.name(entrant)?.to_string(),
            })
        };
        let (Some(first), Some(second)) = (
            identity(pairing.pairing.first),
            identity(pairing.pairing.second),
        ) else {
            return;
        };
        // The seats go Black, White; the side that moves first is the variant's.
        let seats = match game_type.variant.first_to_move() {
            crate::rules::Color::Black => [first, second],
            crate::rules::Color::White => [second, first],
        };
        let link = EventLink {
            event: spec.code.clone(),
            round: pairing.round,
            board: pairing.board,
            tags: event_tags(spec, pairing.round),
            results: self.results.clone(),
            view: self.view.clone(),
        };
        let Some((code, _)) = self.run.tables.open_event(config, seats.clone(), link) else {
            tracing::error!(event = %spec.code, "no code is free for a tournament's game");
            return;
        };
        self.run
            .boards
            .insert((pairing.round, pairing.board), code.clone());
        for who in seats {
            self.tell(&who.fingerprint, News::Board(code.clone()));
        }
    }

    /// The table of `who`'s game under way, if they have one.
    fn board_of(&self, who: &Fingerprint) -> Option<TableCode> {
        let entrant = self.run.director.entrant(who)?;
        self.run
            .director
            .pairings()
            .iter()
            .filter(|p| p.result.is_none() && p.pairing.has(entrant))
            .find_map(|p| self.run.boards.get(&(p.round, p.board)).cloned())
    }

    fn tell(&mut self, who: &Fingerprint, news: News) {
        let gone = self.present.get(who).is_some_and(|line| {
            matches!(
                line.try_send(news),
                Err(mpsc::error::TrySendError::Closed(_))
            )
        });
        if gone {
            self.present.remove(who);
        }
    }

    /// The event as it stands, for everyone looking at it.
    fn publish(&self) {
        let director = &self.run.director;
        let mut pairings = HashMap::new();
        for p in director.pairings().iter().filter(|p| p.result.is_none()) {
            if let Some(code) = self.run.boards.get(&(p.round, p.board)) {
                for (entrant, colour) in [
                    (p.pairing.first, Colour::First),
                    (p.pairing.second, Colour::Second),
                ] {
                    if let Some(who) = director.who(entrant) {
                        pairings.insert(who.clone(), (code.clone(), colour));
                    }
                }
            }
        }
        self.run
            .view
            .send_replace(Arc::new(view_of(director, pairings)));
    }
}

/// How many leaders the one-line standings name.
const LEADERS: usize = 5;

/// `director`'s event as everyone sees it, with the games under way at `boards`.
pub(super) fn view_of(
    director: &Director,
    boards: HashMap<Fingerprint, (TableCode, Colour)>,
) -> View {
    let name = |entrant: Entrant| director.name(entrant).unwrap_or("?").to_string();
    let leaders: Vec<String> = match director.spec().kind {
        EventKind::Swiss => director
            .swiss_table()
            .iter()
            .take(LEADERS)
            .enumerate()
            .map(|(i, line)| {
                format!(
                    "{}. {} {}",
                    i + 1,
                    name(line.entrant),
                    show_half(line.points)
                )
            })
            .collect(),
        EventKind::Arena => director
            .arena_table()
            .iter()
            .take(LEADERS)
            .enumerate()
            .map(|(i, p)| format!("{}. {} {}", i + 1, name(p.entrant), p.points))
            .collect(),
    };
    View {
        spec: director.spec().clone(),
        stage: director.stage(),
        entrants: director.entrants(),
        text: render(director),
        leaders: leaders.join(" · "),
        boards,
    }
}
