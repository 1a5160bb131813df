//! Events across nodes, the way tables cross them: a player connected here entered in an event another node owns
//! (their asks go to the owner, the boards it pairs them at come back on a link numbered here, into the same
//! bounded queue a local event would fill), a player on another node entered in an event here (a visitor with a
//! queue of its own, given to the event's task as a local player's), and the result of an event's game that ended
//! here sent to the event's owner.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{mpsc, oneshot, watch};

use super::super::NodeName;
use super::super::wire::Envelope;
use super::{Relay, locked, take_from_node};
use crate::serve::events::view::View;
use crate::serve::events::{EventHandle, EventRequest, NEWS_QUEUE, News};
use crate::serve::identity::Identity;
use crate::serve::ids::{Fingerprint, TableCode};
use crate::serve::records::events::{parse_result, result_str};
use crate::serve::table::GameEnded;

/// How many asks may wait to be sent to an event on another node, from one player's line.
const ASKS_QUEUE: usize = 16;

/// Finds an event this node runs, by code.
pub type EventsHere = Arc<dyn Fn(&TableCode) -> Option<EventHandle> + Send + Sync>;

/// A player here entered in an event another node owns.
pub(super) struct EnteredAway {
    event: TableCode,
    owner: NodeName,
    who: Identity,
    news: mpsc::Sender<News>,
    /// Told once the owner has taken them in.
    taken_in: Option<oneshot::Sender<()>>,
}

/// A player on another node entered in an event here.
pub(super) struct EventVisitor {
    event: EventHandle,
    who: Fingerprint,
    news: mpsc::WeakSender<News>,
}

impl EventVisitor {
    /// Takes the visitor out of the event, as if their connection had dropped.
    async fn leave(self) {
        self.event
            .send(EventRequest::Leave {
                who: self.who,
                news: self.news,
            })
            .await;
    }
}

impl Relay {
    /// Finds the events here with `events_here` from now on (set once, when the server joins the nodes).
    pub fn serve_events(&self, events_here: EventsHere) {
        let _ = self.events_here.set(events_here);
    }

    /// The event `code`, if it runs here.
    pub fn event_here(&self, code: &TableCode) -> Option<EventHandle> {
        (self.events_here.get()?)(code)
    }

    /// A handle to the event `code` that node `owner` runs, seen through `view` (kept fresh by the heartbeat).
    pub fn event_at(
        self: &Arc<Self>,
        owner: NodeName,
        code: TableCode,
        view: watch::Receiver<Arc<View>>,
    ) -> EventHandle {
        let (asks, mut asked) = mpsc::channel(ASKS_QUEUE);
        let relay = Arc::clone(self);
        tokio::spawn(async move {
            while let Some(ask) = asked.recv().await {
                relay.forward_ask(&owner, &code, ask).await;
            }
        });
        EventHandle::relayed(asks, view)
    }

    /// An ask for the event `code` on node `owner` from a player here; the event's own task has it if the event
    /// has come here meanwhile (taken over).
    async fn forward_ask(self: &Arc<Self>, owner: &NodeName, code: &TableCode, ask: EventRequest) {
        if let Some(event) = self.event_here(code) {
            event.send(ask).await;
            return;
        }
        let from = self.node.to_string();
        match ask {
            EventRequest::Enter {
                who,
                news,
                taken_in,
            } => {
                let link = self.next_link.fetch_add(1, Ordering::Relaxed);
                locked(&self.entered_away).insert(
                    link,
                    EnteredAway {
                        event: code.clone(),
                        owner: owner.clone(),
                        who: who.clone(),
                        news,
                        taken_in: Some(taken_in),
                    },
                );
                let asked = Envelope::EventEnter {
                    from,
                    link,
                    event: code.to_string(),
                    fingerprint: who.fingerprint.to_string(),
                    name: who.name,
                };
                if !self.send(owner, &asked).await {
                    locked(&self.entered_away).remove(&link);
                    return;
                }
                // No answer in time: the owner has died; the player is not in (their screen says so).
                let relay = Arc::downgrade(self);
                let wait = self.answer_wait;
                tokio::spawn(async move {
                    tokio::time::sleep(wait).await;
                    if let Some(relay) = relay.upgrade() {
                        let mut away = locked(&relay.entered_away);
                        if away.get(&link).is_some_and(|a| a.taken_in.is_some()) {
                            away.remove(&link);
                        }
                    }
                });
            }
            EventRequest::Leave { who, news } => {
                let connection = news.upgrade();
                let gone = {
                    let mut away = locked(&self.entered_away);
                    let link = away
                        .iter()
                        .find(|(_, a)| {
                            a.event == *code
                                && a.who.fingerprint == who
                                && connection.as_ref().is_some_and(|c| c.same_channel(&a.news))
                        })
                        .map(|(link, _)| *link);
                    link.and_then(|link| away.remove(&link).map(|a| (link, a.owner)))
                };
                if let Some((link, owner)) = gone {
                    self.send(&owner, &Envelope::EventLeave { from, link })
                        .await;
                }
            }
            EventRequest::Withdraw(who) => {
                let withdraw = Envelope::EventWithdraw {
                    event: code.to_string(),
                    fingerprint: who.to_string(),
                };
                self.send(owner, &withdraw).await;
            }
        }
    }

    /// The event `code` has moved to node `owner` (its old node died and `owner` took it over): the players here
    /// entered in it enter again there. When it has come here, they are given to its task here.
    pub async fn event_moved(&self, code: &TableCode, owner: &NodeName) {
        if *owner == self.node {
            let Some(event) = self.event_here(code) else {
                return;
            };
            let moved: Vec<EnteredAway> = {
                let mut away = locked(&self.entered_away);
                let links: Vec<u64> = away
                    .iter()
                    .filter(|(_, a)| a.event == *code)
                    .map(|(link, _)| *link)
                    .collect();
                links.iter().filter_map(|link| away.remove(link)).collect()
            };
            for entered in moved {
                let (taken_in, _) = oneshot::channel();
                event
                    .send(EventRequest::Enter {
                        who: entered.who,
                        news: entered.news,
                        taken_in,
                    })
                    .await;
            }
            return;
        }
        let again: Vec<Envelope> = {
            let mut away = locked(&self.entered_away);
            away.iter_mut()
                .filter(|(_, a)| a.event == *code && a.owner != *owner)
                .map(|(link, a)| {
                    a.owner = owner.clone();
                    Envelope::EventEnter {
                        from: self.node.to_string(),
                        link: *link,
                        event: code.to_string(),
                        fingerprint: a.who.fingerprint.to_string(),
                        name: a.who.name.clone(),
                    }
                })
                .collect()
        };
        for asked in again {
            self.send(owner, &asked).await;
        }
    }

    /// The events elsewhere that players here are entered in, each with the node it was last known at.
    pub fn events_away(&self) -> Vec<(TableCode, NodeName)> {
        let mut events: Vec<(TableCode, NodeName)> = locked(&self.entered_away)
            .values()
            .map(|a| (a.event.clone(), a.owner.clone()))
            .collect();
        events.sort();
        events.dedup();
        events
    }

    /// Sends the result of a game of the event `event` that ended here to the event's owner, `owner`; whether it
    /// was sent (the records keep it anyway: an owner that never hears it finds it there).
    pub async fn report_result(
        &self,
        owner: &NodeName,
        event: &TableCode,
        ended: &GameEnded,
    ) -> bool {
        let report = Envelope::EventResult {
            event: event.to_string(),
            round: ended.round,
            board: ended.board,
            result: result_str(ended.result).to_string(),
            forfeit: ended.forfeit,
        };
        self.send(owner, &report).await
    }

    /// Takes every player from the node `node` out of the events here, as if their connections had dropped.
    pub(super) async fn forget_event_visitors(&self, node: &NodeName) {
        let gone = take_from_node(&self.event_visitors, node);
        for visitor in gone {
            visitor.leave().await;
        }
    }

    /// Takes a message from another node if it is about an event; any other is given back.
    pub(super) async fn take_event(self: &Arc<Self>, envelope: Envelope) -> Option<Envelope> {
        match envelope {
            Envelope::EventEnter {
                from,
                link,
                event,
                fingerprint,
                name,
            } => {
                let who = Identity {
                    fingerprint: Fingerprint::new(fingerprint),
                    name,
                };
                self.visit_event(&from, link, &TableCode::new(event), who)
                    .await;
            }
            Envelope::EventEntered { link, entered } => {
                let mut away = locked(&self.entered_away);
                if entered {
                    if let Some(taken_in) = away.get_mut(&link).and_then(|a| a.taken_in.take()) {
                        let _ = taken_in.send(());
                    }
                } else {
                    away.remove(&link);
                }
            }
            Envelope::EventBoard { link, code } => {
                self.deliver_board(link, TableCode::new(code)).await
            }
            Envelope::EventLeave { from, link } => {
                let Ok(from) = from.parse::<NodeName>() else {
                    return None;
                };
                let visitor = locked(&self.event_visitors).remove(&(from, link));
                if let Some(visitor) = visitor {
                    visitor.leave().await;
                }
            }
            Envelope::EventWithdraw { event, fingerprint } => {
                if let Some(event) = self.event_here(&TableCode::new(event)) {
                    event
                        .send(EventRequest::Withdraw(Fingerprint::new(fingerprint)))
                        .await;
                }
            }
            Envelope::EventResult {
                event,
                round,
                board,
                result,
                forfeit,
            } => {
                let code = TableCode::new(event);
                match (self.event_here(&code), parse_result(&result)) {
                    (Some(event), Some(result)) => event.game_ended(GameEnded {
                        round,
                        board,
                        result,
                        forfeit,
                    }),
                    (None, _) => {
                        tracing::info!(event = %code, "a result for an event not here; the records keep it")
                    }
                    (_, None) => tracing::warn!(event = %code, %result, "a result not understood"),
                }
            }
            other => return Some(other),
        }
        None
    }

    /// A player on node `from` enters the event `code` here, their boards to go to `link` there.
    async fn visit_event(self: &Arc<Self>, from: &str, link: u64, code: &TableCode, who: Identity) {
        let Ok(from) = from.parse::<NodeName>() else {
            tracing::warn!(from, "a message from a node with a name that is not one");
            return;
        };
        let Some(event) = self.event_here(code) else {
            let refused = Envelope::EventEntered {
                link,
                entered: false,
            };
            self.send(&from, &refused).await;
            return;
        };
        let (news, mut boards) = mpsc::channel(NEWS_QUEUE);
        locked(&self.event_visitors).insert(
            (from.clone(), link),
            EventVisitor {
                event: event.clone(),
                who: who.fingerprint.clone(),
                news: news.downgrade(),
            },
        );
        let (taken_in, answer) = oneshot::channel();
        let asked = event
            .send(EventRequest::Enter {
                who,
                news,
                taken_in,
            })
            .await;
        let relay = Arc::clone(self);
        tokio::spawn(async move {
            let entered = asked && answer.await.is_ok();
            let told = Envelope::EventEntered { link, entered };
            relay.send(&from, &told).await;
            if entered {
                while let Some(News::Board(code)) = boards.recv().await {
                    let board = Envelope::EventBoard {
                        link,
                        code: code.to_string(),
                    };
                    relay.send(&from, &board).await;
                }
            }
            // The event let them go (they left, came back on another line, or it ended).
            let mut visitors = locked(&relay.event_visitors);
            if visitors
                .get(&(from.clone(), link))
                .is_some_and(|v| v.news.upgrade().is_none())
            {
                visitors.remove(&(from, link));
            }
        });
    }

    /// Gives the board the owner sent to the player on `link`; one whose connection has gone is taken out of the
    /// event, and the owner told.
    async fn deliver_board(&self, link: u64, code: TableCode) {
        let gone = {
            let mut away = locked(&self.entered_away);
            let Some(entered) = away.get(&link) else {
                return;
            };
            match entered.news.try_send(News::Board(code)) {
                // Only the newest board matters, and a full queue already holds one.
                Ok(()) | Err(TrySendError::Full(_)) => None,
                Err(TrySendError::Closed(_)) => away.remove(&link),
            }
        };
        if let Some(entered) = gone {
            let left = Envelope::EventLeave {
                from: self.node.to_string(),
                link,
            };
            self.send(&entered.owner, &left).await;
        }
    }
}
