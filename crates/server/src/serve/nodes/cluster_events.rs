//! The events among the nodes: each is owned by one node through a lease of its own (kept beside the tables'
//! under [`EVENT_KEY`](super::lease::EVENT_KEY), renewed by the same heartbeat), and its summary is written in
//! it for the other nodes.

use std::sync::Arc;
use std::time::Duration;

use super::super::lease::{self, Holder};
use super::super::{NodeName, NodesError};
use super::{Cluster, locked};
use crate::serve::events::view::View;
use crate::serve::ids::TableCode;

/// Where an event is, as the leases say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventOwner {
    /// This node holds it.
    Here,
    /// Another node runs it.
    Elsewhere(NodeName),
    /// Its node has died or stalled: it may be taken over.
    Lapsed,
}

impl Cluster {
    /// Reserves the code `code` for a new event of this node's: `true` when no node had it.
    pub async fn reserve_event(&self, code: &TableCode) -> Result<bool, NodesError> {
        let db = self.db.client().await?;
        self.leases.reserve(&db, &lease::event_key(code)).await
    }

    /// Claims the event `code` for this node (to take it over): `true` when it is this node's now. Exactly one
    /// of the nodes that race for it wins.
    pub async fn claim_event(&self, code: &TableCode) -> Result<bool, NodesError> {
        let db = self.db.client().await?;
        self.leases.claim(&db, &lease::event_key(code)).await
    }

    /// Gives up the event `code` (it is over, and the records have it all).
    pub async fn release_event(&self, code: &TableCode) -> Result<(), NodesError> {
        let db = self.db.client().await?;
        self.leases.release(&db, &lease::event_key(code)).await?;
        locked(&self.events_written).remove(code);
        Ok(())
    }

    /// Where the event `code` runs; `None` when no node holds it (it is over, or from before the nodes). A node
    /// that has missed two heartbeats has most likely died: rather than send it asks that will not be answered,
    /// its lease is waited for (at most the term) to lapse, and the event is then said to have lapsed.
    pub async fn event_owner(&self, code: &TableCode) -> Result<Option<EventOwner>, NodesError> {
        let key = lease::event_key(code);
        let lapse_deadline = tokio::time::Instant::now() + self.leases.term();
        loop {
            let db = self.db.client().await?;
            let Some(Holder {
                node,
                live,
                silent_for,
                ..
            }) = lease::holder(&db, &key).await?
            else {
                return Ok(None);
            };
            drop(db);
            if !live {
                return Ok(Some(EventOwner::Lapsed));
            }
            let Ok(node) = node.parse::<NodeName>() else {
                return Ok(None);
            };
            if node == *self.node() {
                return Ok(Some(EventOwner::Here));
            }
            let silent = silent_for.is_some_and(|silent| silent > self.leases.term() / 2);
            if !silent || tokio::time::Instant::now() >= lapse_deadline {
                return Ok(Some(EventOwner::Elsewhere(node)));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Writes the summaries of this node's events that changed since they were last written (`listings`: each
    /// event's code and summary).
    pub async fn publish_events(&self, listings: &[(TableCode, String)]) -> Result<(), NodesError> {
        let changed: Vec<&(TableCode, String)> = {
            let written = locked(&self.events_written);
            listings
                .iter()
                .filter(|(code, text)| written.get(code) != Some(text))
                .collect()
        };
        if changed.is_empty() {
            return Ok(());
        }
        let db = self.db.client().await?;
        for (code, text) in changed {
            if self
                .leases
                .publish(&db, &lease::event_key(code), text)
                .await?
            {
                locked(&self.events_written).insert(code.clone(), text.clone());
            }
        }
        Ok(())
    }

    /// The other nodes' events, as last read, each with its node.
    pub fn other_events(&self) -> Vec<(NodeName, Arc<View>)> {
        locked(&self.other_events).clone()
    }
}
