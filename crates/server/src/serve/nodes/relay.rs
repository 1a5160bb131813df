//! Tables across nodes: a person connected to this node at a table another node owns, and the other way round.
//!
//! To a connection, a table elsewhere is a [`TableHandle`] like any other ([`Relay::table_at`]): its commands go to
//! a task that sends them to the owner, and the news for each person comes back on a *link*, numbered by this
//! node, into the same bounded queue a local table would fill. On the owner, each link from another node is a
//! visitor with a queue of its own, given to the table as a local connection's would be; a task sends what comes
//! out of it to the visitor's node. The table never knows the difference, and it stays the one authority on its
//! game: a move from another node is checked like any other.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{Notify, mpsc, oneshot};
use tokio_postgres::Config;

use super::bus::{NodeInbox, NodeOutbox};
use super::wire::{Envelope, LinkIn, LinkOut, WireError, WireNews};
use super::{NodeName, NodesError};
use crate::app::{NODE_SILENT, TableNews, TableRequest, TableState};
use crate::rules::Color;
use crate::serve::identity::Identity;
use crate::serve::ids::{Fingerprint, TableCode};
use crate::serve::table::{Command, TableError, TableHandle, UPDATES_QUEUE, Updates, WeakUpdates};

#[path = "relay_events.rs"]
mod events;
pub use events::EventsHere;
use events::{EnteredAway, EventVisitor};

/// The longest a seat asked of another node waits for its answer (an answer takes milliseconds; one that does
/// not come means the node has died, and the seat is asked again where the game is taken over).
pub const ANSWER_WAIT: Duration = Duration::from_secs(4);

/// The shortest wait for an answer, however short the leases.
const SHORTEST_ANSWER_WAIT: Duration = Duration::from_secs(1);

/// Finds a table this node runs, by code.
pub type TablesHere = Arc<dyn Fn(&TableCode) -> Option<TableHandle> + Send + Sync>;

/// A person here at a table another node owns.
struct Away {
    owner: NodeName,
    code: TableCode,
    who: Fingerprint,
    updates: Updates,
    /// Where the answer to their seat goes, until it comes.
    seating: Option<oneshot::Sender<Result<Color, TableError>>>,
    /// The newest state they missed while their queue was full, sent before anything else once it has room.
    behind: Option<TableNews>,
    /// The table's last state as it sent it: told again, marked, when its node stops answering and again when it
    /// answers.
    last: Option<Arc<TableState>>,
    /// The table's news as it crosses, read against the state last got.
    incoming: LinkIn,
}

/// A person on another node at a table here.
struct Visitor {
    table: TableHandle,
    who: Fingerprint,
    line: WeakUpdates,
    /// Rung when the visitor's node missed a state: the last one goes again, whole.
    resend: Arc<Notify>,
}

/// A seat a person on another node asks for at a table here (an [`Envelope::Sit`]'s terms).
struct SeatAsked {
    color: Option<Color>,
    rating: Option<i32>,
    provisional: bool,
    returning: bool,
}

/// This node's side of the tables shared between nodes.
pub struct Relay {
    node: NodeName,
    outbox: NodeOutbox,
    away: Mutex<HashMap<u64, Away>>,
    visitors: Mutex<HashMap<(NodeName, u64), Visitor>>,
    next_link: AtomicU64,
    tables_here: TablesHere,
    /// How long a seat asked of another node waits for its answer.
    answer_wait: Duration,
    /// Finds the events this node runs, once it serves them.
    events_here: OnceLock<EventsHere>,
    /// Players here entered in events elsewhere, by link.
    entered_away: Mutex<HashMap<u64, EnteredAway>>,
    /// Players on other nodes entered in events here.
    event_visitors: Mutex<HashMap<(NodeName, u64), EventVisitor>>,
    /// The nodes that do not answer (dead or stalled, as the heartbeat last found): their tables' people here are
    /// told their game is paused, and their requests are refused here rather than lost there.
    silent: Mutex<HashSet<NodeName>>,
}

/// Takes out of `visitors` every one that came from the node `node` (by their lines there).
fn take_from_node<V>(visitors: &Mutex<HashMap<(NodeName, u64), V>>, node: &NodeName) -> Vec<V> {
    let mut visitors = locked(visitors);
    let keys: Vec<(NodeName, u64)> = visitors
        .keys()
        .filter(|(from, _)| from == node)
        .cloned()
        .collect();
    keys.iter().filter_map(|key| visitors.remove(key)).collect()
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Relay {
    /// Starts the relay of node `node` on the database at `config`: it listens for the other nodes' messages and
    /// finds the tables they ask for with `tables_here`. A seat asked of another node waits half a lease `term`
    /// for its answer (from 1 to 4 s). It stops when the last handle to it is dropped.
    pub async fn start(
        config: Config,
        node: NodeName,
        term: Duration,
        tables_here: TablesHere,
    ) -> Result<Arc<Relay>, NodesError> {
        let outbox = NodeOutbox::connect(config.clone()).await?;
        let mut inbox = NodeInbox::listen(config, node.clone()).await?;
        let relay = Arc::new(Relay {
            node,
            outbox,
            away: Mutex::default(),
            visitors: Mutex::default(),
            next_link: AtomicU64::new(1),
            tables_here,
            answer_wait: (term / 2).clamp(SHORTEST_ANSWER_WAIT, ANSWER_WAIT),
            events_here: OnceLock::new(),
            entered_away: Mutex::default(),
            event_visitors: Mutex::default(),
            silent: Mutex::default(),
        });
        let weak = Arc::downgrade(&relay);
        tokio::spawn(async move {
            while let Some(message) = inbox.next().await {
                let Some(relay) = weak.upgrade() else { break };
                relay.take(&message.body).await;
            }
        });
        Ok(relay)
    }

    /// The node this relay speaks for.
    pub fn node(&self) -> &NodeName {
        &self.node
    }

    /// A handle to the table `code` that node `owner` runs.
    pub fn table_at(self: &Arc<Self>, owner: NodeName, code: TableCode) -> TableHandle {
        let (commands, mut asked) = mpsc::channel(256);
        let relay = Arc::clone(self);
        tokio::spawn(async move {
            while let Some(command) = asked.recv().await {
                relay.forward(&owner, &code, command).await;
            }
        });
        TableHandle::relayed(commands)
    }

    /// People here at tables elsewhere, and people elsewhere at tables here.
    pub fn links(&self) -> (usize, usize) {
        (locked(&self.away).len(), locked(&self.visitors).len())
    }

    /// The tables elsewhere that people here are at, each with the node that runs it.
    pub fn tables_away(&self) -> Vec<(NodeName, TableCode)> {
        let mut tables: Vec<(NodeName, TableCode)> = locked(&self.away)
            .values()
            .map(|a| (a.owner.clone(), a.code.clone()))
            .collect();
        tables.sort();
        tables.dedup();
        tables
    }

    /// Takes the nodes that do not answer now (`silent`, as the heartbeat found): the people here at the tables
    /// of a node that stopped answering, or answers again, are told so with the table's last state.
    pub async fn mark_silent(&self, silent: HashSet<NodeName>) {
        let changed: HashSet<NodeName> = {
            let mut was = locked(&self.silent);
            let changed = was.symmetric_difference(&silent).cloned().collect();
            *was = silent;
            changed
        };
        if changed.is_empty() {
            return;
        }
        let told: Vec<(u64, Arc<TableState>)> = locked(&self.away)
            .iter()
            .filter(|(_, away)| changed.contains(&away.owner))
            .filter_map(|(link, away)| Some((*link, Arc::clone(away.last.as_ref()?))))
            .collect();
        for (link, state) in told {
            self.deliver(link, TableNews::State(state)).await;
        }
    }

    /// Drops every person here at the table `code` on node `owner`, as if the table had ended: that node has
    /// gone (its lease lapsed, or another node took the table over), and they find the game again where it runs
    /// now.
    pub fn close_table(&self, owner: &NodeName, code: &TableCode) {
        locked(&self.away).retain(|_, away| away.code != *code || away.owner != *owner);
    }

    /// Takes every visitor from the node `node` away from the tables here, as if their connections had dropped:
    /// that node has died, and its players' seats wait for them for the grace period, as after any drop.
    pub async fn forget_node(&self, node: &NodeName) {
        let gone = take_from_node(&self.visitors, node);
        for visitor in gone {
            visitor
                .table
                .send(Command::Leave {
                    who: visitor.who,
                    line: visitor.line,
                })
                .await;
        }
        self.forget_event_visitors(node).await;
    }

    async fn send(&self, to: &NodeName, envelope: &Envelope) -> bool {
        match self.outbox.send(to, &envelope.to_text()).await {
            Ok(()) => true,
            Err(error) => {
                tracing::warn!(%error, to = %to, "cannot send to another node");
                false
            }
        }
    }

    /// A command for the table `code` on node `owner`, from a connection here.
    async fn forward(self: &Arc<Self>, owner: &NodeName, code: &TableCode, command: Command) {
        let from = self.node.to_string();
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
                let link = self.open_link(owner, code, &who, updates, Some(reply));
                let asked = Envelope::Sit {
                    from,
                    link,
                    code: code.to_string(),
                    fingerprint: who.fingerprint.to_string(),
                    name: who.name,
                    color,
                    rating,
                    provisional,
                    returning,
                };
                if !self.send(owner, &asked).await {
                    self.answer_seat(link, Err(TableError::NoAnswer));
                    return;
                }
                let relay = Arc::downgrade(self);
                let wait = self.answer_wait;
                tokio::spawn(async move {
                    tokio::time::sleep(wait).await;
                    if let Some(relay) = relay.upgrade() {
                        relay.answer_seat(link, Err(TableError::NoAnswer));
                    }
                });
            }
            Command::Watch { who, updates } => {
                let link = self.open_link(owner, code, &who, updates, None);
                let asked = Envelope::Watch {
                    from,
                    link,
                    code: code.to_string(),
                    fingerprint: who.fingerprint.to_string(),
                    name: who.name,
                };
                if !self.send(owner, &asked).await {
                    locked(&self.away).remove(&link);
                }
            }
            Command::Ask { who, request } if locked(&self.silent).contains(owner) => {
                let link = self.link_of(code, &who);
                let refusal = match request {
                    TableRequest::Play(_) => TableNews::MoveRefused(NODE_SILENT.to_string()),
                    _ => TableNews::Refused(NODE_SILENT.to_string()),
                };
                if let Some(link) = link {
                    self.deliver(link, refusal).await;
                }
            }
            Command::Ask { who, request } => {
                let link = self.link_of(code, &who);
                if let Some(link) = link {
                    let asked = Envelope::Ask {
                        from,
                        link,
                        code: code.to_string(),
                        request,
                    };
                    self.send(owner, &asked).await;
                }
            }
            Command::Leave { who, line } => {
                let connection = line.upgrade();
                let link = {
                    let mut away = locked(&self.away);
                    let link = away
                        .iter()
                        .find(|(_, away)| {
                            away.code == *code
                                && away.who == who
                                && connection
                                    .as_ref()
                                    .is_some_and(|c| c.same_channel(&away.updates))
                        })
                        .map(|(link, _)| *link);
                    link.inspect(|link| {
                        away.remove(link);
                    })
                };
                if let Some(link) = link {
                    let left = Envelope::Leave {
                        from,
                        link,
                        code: code.to_string(),
                    };
                    self.send(owner, &left).await;
                }
            }
            // Only the owner's own list stops its table.
            Command::Yield => {}
            // The owner notes its own clocks when it stops; nothing of them is here.
            Command::NoteClocks { done } => {
                let _ = done.send(());
            }
        }
    }

    /// The link here of `who` at the table `code` elsewhere, if they are at it.
    fn link_of(&self, code: &TableCode, who: &Fingerprint) -> Option<u64> {
        locked(&self.away)
            .iter()
            .find(|(_, away)| away.code == *code && away.who == *who)
            .map(|(link, _)| *link)
    }

    fn open_link(
        &self,
        owner: &NodeName,
        code: &TableCode,
        who: &Identity,
        updates: Updates,
        seating: Option<oneshot::Sender<Result<Color, TableError>>>,
    ) -> u64 {
        let link = self.next_link.fetch_add(1, Ordering::Relaxed);
        locked(&self.away).insert(
            link,
            Away {
                owner: owner.clone(),
                code: code.clone(),
                who: who.fingerprint.clone(),
                updates,
                seating,
                behind: None,
                last: None,
                incoming: LinkIn::default(),
            },
        );
        link
    }

    /// Answers the seat asked on `link`, if it is still waiting; a refusal closes the link.
    fn answer_seat(&self, link: u64, answer: Result<Color, TableError>) {
        let mut away = locked(&self.away);
        let Some(seating) = away.get_mut(&link).and_then(|a| a.seating.take()) else {
            return;
        };
        if answer.is_err() {
            away.remove(&link);
        }
        let _ = seating.send(answer);
    }

    /// A message from another node.
    async fn take(self: &Arc<Self>, text: &str) {
        let envelope = match Envelope::from_text(text) {
            Ok(envelope) => envelope,
            Err(error) => {
                tracing::warn!(%error, "a message from another node was not understood");
                return;
            }
        };
        let Some(envelope) = self.take_event(envelope).await else {
            return;
        };
        match envelope {
            Envelope::Sit {
                from,
                link,
                code,
                fingerprint,
                name,
                color,
                rating,
                provisional,
                returning,
            } => {
                let who = Identity {
                    fingerprint: Fingerprint::new(fingerprint),
                    name,
                };
                let seat = SeatAsked {
                    color,
                    rating,
                    provisional,
                    returning,
                };
                self.visit(&from, link, &code, who, Some(seat)).await;
            }
            Envelope::Watch {
                from,
                link,
                code,
                fingerprint,
                name,
            } => {
                let who = Identity {
                    fingerprint: Fingerprint::new(fingerprint),
                    name,
                };
                self.visit(&from, link, &code, who, None).await;
            }
            Envelope::Ask {
                from,
                link,
                request,
                ..
            } => {
                let Ok(from) = from.parse::<NodeName>() else {
                    return;
                };
                let visitor = locked(&self.visitors)
                    .get(&(from, link))
                    .map(|v| (v.table.clone(), v.who.clone()));
                if let Some((table, who)) = visitor {
                    table.ask(&who, request).await;
                }
            }
            Envelope::Resend { from, link } => {
                let Ok(from) = from.parse::<NodeName>() else {
                    return;
                };
                if let Some(visitor) = locked(&self.visitors).get(&(from, link)) {
                    visitor.resend.notify_one();
                }
            }
            Envelope::Leave { from, link, .. } => {
                let Ok(from) = from.parse::<NodeName>() else {
                    return;
                };
                let visitor = locked(&self.visitors).remove(&(from, link));
                if let Some(visitor) = visitor {
                    visitor
                        .table
                        .send(Command::Leave {
                            who: visitor.who,
                            line: visitor.line,
                        })
                        .await;
                }
            }
            Envelope::Seated { link, result } => {
                let code = locked(&self.away).get(&link).map(|away| away.code.clone());
                let known = |words| TableError::from_elsewhere(words, code.as_ref());
                self.answer_seat(link, result.map_err(known));
            }
            Envelope::Update { link, news } => self.take_update(link, news).await,
            Envelope::Closed { link } => {
                locked(&self.away).remove(&link);
            }
            // Taken above.
            Envelope::EventEnter { .. }
            | Envelope::EventEntered { .. }
            | Envelope::EventBoard { .. }
            | Envelope::EventLeave { .. }
            | Envelope::EventWithdraw { .. }
            | Envelope::EventResult { .. } => {}
        }
    }

    /// A person on node `from` comes to the table `code` here, to sit (`seat`: the colour and rating they
    /// bring) or to watch.
    async fn visit(
        self: &Arc<Self>,
        from: &str,
        link: u64,
        code: &str,
        who: Identity,
        seat: Option<SeatAsked>,
    ) {
        let Ok(from) = from.parse::<NodeName>() else {
            tracing::warn!(from, "a message from a node with a name that is not one");
            return;
        };
        let code = TableCode::new(code);
        let refuse = |code: &TableCode| Envelope::Seated {
            link,
            result: Err(TableError::NoGame(code.clone()).to_string()),
        };
        let Some(table) = (self.tables_here)(&code) else {
            match seat {
                Some(_) => self.send(&from, &refuse(&code)).await,
                None => self.send(&from, &Envelope::Closed { link }).await,
            };
            return;
        };
        let (updates, news) = mpsc::channel(UPDATES_QUEUE);
        let resend = Arc::new(Notify::new());
        locked(&self.visitors).insert(
            (from.clone(), link),
            Visitor {
                table: table.clone(),
                who: who.fingerprint.clone(),
                line: updates.downgrade(),
                resend: Arc::clone(&resend),
            },
        );
        let sitting = seat.is_some();
        let answer = match seat {
            Some(seat) => {
                let (reply, answer) = oneshot::channel();
                let asked = table
                    .send(Command::Sit {
                        who,
                        color: seat.color,
                        rating: seat.rating,
                        provisional: seat.provisional,
                        returning: seat.returning,
                        updates,
                        reply,
                    })
                    .await;
                asked.then_some(answer)
            }
            None => table.send(Command::Watch { who, updates }).await.then(|| {
                let (reply, answer) = oneshot::channel();
                let _ = reply.send(Ok(Color::Black));
                answer
            }),
        };
        let relay = Arc::clone(self);
        tokio::spawn(async move {
            let seated = match answer {
                Some(answer) => answer
                    .await
                    .unwrap_or_else(|_| Err(TableError::NoGame(code.clone()))),
                None => Err(TableError::NoGame(code.clone())),
            };
            // Someone refused is no visitor by the time they hear so.
            if seated.is_err() {
                locked(&relay.visitors).remove(&(from.clone(), link));
            }
            if sitting {
                let result = seated.as_ref().copied().map_err(ToString::to_string);
                relay.send(&from, &Envelope::Seated { link, result }).await;
            }
            if seated.is_ok() {
                relay.pass_on(&from, link, news, &resend).await;
                locked(&relay.visitors).remove(&(from.clone(), link));
            }
            relay.send(&from, &Envelope::Closed { link }).await;
        });
    }

    /// Sends the table's news for a visitor to their node, until the table lets them go: each state as the moves
    /// since the last, the whole state when their node asks for it again (`resend`).
    async fn pass_on(
        &self,
        to: &NodeName,
        link: u64,
        mut news: mpsc::Receiver<TableNews>,
        resend: &Notify,
    ) {
        let mut out = LinkOut::default();
        loop {
            let event = tokio::select! {
                event = news.recv() => match event {
                    Some(event) => out.wire(&event),
                    None => break,
                },
                () = resend.notified() => match out.resend() {
                    Some(event) => event,
                    None => continue,
                },
            };
            if !self.send(to, &Envelope::Update { link, news: event }).await {
                // It may not have arrived: what follows must not build on it.
                out.lost();
            }
        }
    }

    /// News from the table of the person on `link`, read against the state they last got; when it follows a
    /// state that never came, nothing is shown and the owner is asked for the whole state.
    async fn take_update(&self, link: u64, event: WireNews) {
        let taken = {
            let mut away = locked(&self.away);
            let Some(person) = away.get_mut(&link) else {
                return;
            };
            person
                .incoming
                .take(event)
                .map_err(|error| (error, person.owner.clone()))
        };
        match taken {
            Ok(event) => self.deliver(link, event).await,
            Err((WireError::Gap, owner)) => {
                let again = Envelope::Resend {
                    from: self.node.to_string(),
                    link,
                };
                self.send(&owner, &again).await;
            }
            Err((error, _)) => tracing::warn!(%error, "news from another node"),
        }
    }

    /// Gives news to the person on `link`; a person whose queue is full misses it, and then gets the newest
    /// state once their queue has room, as a table here treats them.
    async fn deliver(&self, link: u64, event: TableNews) {
        let gone = {
            let mut away = locked(&self.away);
            let Some(person) = away.get_mut(&link) else {
                return;
            };
            let event = match event {
                TableNews::State(state) => {
                    let silent = locked(&self.silent).contains(&person.owner);
                    let marked = match silent == state.node_silent {
                        true => Arc::clone(&state),
                        false => Arc::new(TableState {
                            node_silent: silent,
                            ..(*state).clone()
                        }),
                    };
                    if !state.node_silent {
                        person.last = Some(state);
                    }
                    TableNews::State(marked)
                }
                other => other,
            };
            let mut queue = person.behind.take().into_iter().chain([event]);
            let mut closed = false;
            while let Some(next) = queue.next() {
                match person.updates.try_send(next) {
                    Ok(()) => {}
                    Err(TrySendError::Full(missed)) => {
                        crate::serve::metrics::update_dropped(crate::serve::metrics::Queue::Relay);
                        person.behind = std::iter::once(missed)
                            .chain(queue)
                            .filter(|e| matches!(e, TableNews::State(_)))
                            .last();
                        break;
                    }
                    Err(TrySendError::Closed(_)) => {
                        closed = true;
                        break;
                    }
                }
            }
            if closed { away.remove(&link) } else { None }
        };
        // The connection went without saying so: the owner is told, as it would have been.
        if let Some(person) = gone {
            let left = Envelope::Leave {
                from: self.node.to_string(),
                link,
                code: person.code.to_string(),
            };
            self.send(&person.owner, &left).await;
        }
    }
}
