//! How many events strangers may create: in a day per key and per address, and waiting or running at once. The
//! operator's scheduled events are outside every cap, so that a crowd of fresh keys can never crowd them out.
//!
//! The day is a sliding window of 24 hours. Each node remembers the tries made through it (a burst is held back
//! at once, before the records have anything), and the records keep every creation, which every node counts
//! (`Events::within_daily_caps`): a key or an address moving from node to node gets no more. The number of
//! events waiting or running at once is counted over every node.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::serve::ids::Fingerprint;

/// The window the daily caps count over.
pub const DAY: Duration = Duration::from_secs(24 * 3600);

/// The most creations a node remembers within a day: past it, players create no more events that day (a bound
/// on the memory the caps take, whatever the number of keys and addresses that knock).
pub const MAX_REMEMBERED: usize = 10_000;

/// The caps, as the settings say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventCaps {
    /// Events one key may create in a day (`server.events-per-key`).
    pub per_key: u32,
    /// Events players at one address may create in a day (`server.events-per-address`).
    pub per_address: u32,
    /// Events created by players that may wait or run at once, on the whole server (`server.players-events`).
    pub at_once: u32,
}

/// Why a player may not create an event now; the text is what they are shown.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CapReached {
    /// The key has created as many as a day allows.
    #[error(
        "you have created {0} events in the last 24 hours, the most one player may; try tomorrow"
    )]
    Key(u32),
    /// The address has.
    #[error(
        "{0} events were created from your address in the last 24 hours, the most one address may"
    )]
    Address(u32),
    /// Players' events fill the server.
    #[error("players' events fill the server ({0} waiting or under way); try when one has ended")]
    AtOnce(usize),
    /// The node has taken as many new events as it remembers in a day.
    #[error("the server has taken as many new events as it can today; try later")]
    Day,
}

/// Who creates an event, as the caps know them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Creator {
    /// Their key.
    pub key: Fingerprint,
    /// The address they connected from, when there is one (a test's creator may have none).
    pub address: Option<IpAddr>,
}

/// The events created through this node by players in the last day.
#[derive(Debug, Default)]
pub struct Creations {
    recent: VecDeque<(Instant, Creator)>,
}

impl Creations {
    /// Whether `by` may create an event at `now`, with `players_events` of players' events waiting or running
    /// on the server; when they may, the creation is counted (a creation that then fails still counts: tries
    /// are what the caps hold back).
    pub fn admit(
        &mut self,
        caps: EventCaps,
        by: &Creator,
        players_events: usize,
        now: Instant,
    ) -> Result<(), CapReached> {
        while self
            .recent
            .front()
            .is_some_and(|(at, _)| now.saturating_duration_since(*at) >= DAY)
        {
            self.recent.pop_front();
        }
        if players_events >= caps.at_once as usize {
            return Err(CapReached::AtOnce(players_events));
        }
        let count = |same: &dyn Fn(&Creator) -> bool| {
            self.recent.iter().filter(|(_, c)| same(c)).count() as u64
        };
        if count(&|c| c.key == by.key) >= u64::from(caps.per_key) {
            return Err(CapReached::Key(caps.per_key));
        }
        if let Some(address) = by.address
            && count(&|c| c.address == Some(address)) >= u64::from(caps.per_address)
        {
            return Err(CapReached::Address(caps.per_address));
        }
        if self.recent.len() >= MAX_REMEMBERED {
            return Err(CapReached::Day);
        }
        self.recent.push_back((now, by.clone()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creator(key: &str, address: [u8; 4]) -> Creator {
        Creator {
            key: Fingerprint::new(key.to_string()),
            address: Some(IpAddr::from(address)),
        }
    }

    const CAPS: EventCaps = EventCaps {
        per_key: 2,
        per_address: 3,
        at_once: 10,
    };

    #[test]
    fn a_key_creates_as_many_as_a_day_allows_and_again_a_day_later() {
        let mut log = Creations::default();
        let now = Instant::now();
        let ann = creator("SHA256:ann", [192, 0, 2, 1]);
        assert_eq!(log.admit(CAPS, &ann, 0, now), Ok(()));
        assert_eq!(log.admit(CAPS, &ann, 1, now), Ok(()));
        assert_eq!(log.admit(CAPS, &ann, 2, now), Err(CapReached::Key(2)));
        let later = now + DAY;
        assert_eq!(log.admit(CAPS, &ann, 2, later), Ok(()));
    }

    #[test]
    fn fresh_keys_from_one_address_share_its_cap() {
        let mut log = Creations::default();
        let now = Instant::now();
        for n in 0..3 {
            let fresh = creator(&format!("SHA256:fresh{n}"), [192, 0, 2, 7]);
            assert_eq!(log.admit(CAPS, &fresh, 0, now), Ok(()));
        }
        let another = creator("SHA256:fresh3", [192, 0, 2, 7]);
        assert_eq!(
            log.admit(CAPS, &another, 0, now),
            Err(CapReached::Address(3))
        );
        let elsewhere = creator("SHA256:fresh3", [198, 51, 100, 1]);
        assert_eq!(log.admit(CAPS, &elsewhere, 0, now), Ok(()));
    }

    #[test]
    fn players_events_at_once_are_capped_and_a_refusal_is_not_counted() {
        let mut log = Creations::default();
        let now = Instant::now();
        let ann = creator("SHA256:ann", [192, 0, 2, 1]);
        assert_eq!(log.admit(CAPS, &ann, 10, now), Err(CapReached::AtOnce(10)));
        assert_eq!(log.admit(CAPS, &ann, 9, now), Ok(()));
        assert_eq!(log.admit(CAPS, &ann, 9, now), Ok(()));
    }

    #[test]
    fn the_memory_of_a_day_is_bounded() {
        let mut log = Creations::default();
        let now = Instant::now();
        let caps = EventCaps {
            per_key: 1,
            per_address: u32::MAX,
            at_once: u32::MAX,
        };
        for n in 0..MAX_REMEMBERED {
            let fresh = Creator {
                key: Fingerprint::new(format!("SHA256:k{n}")),
                address: None,
            };
            assert_eq!(log.admit(caps, &fresh, 0, now), Ok(()));
        }
        let one_more = creator("SHA256:late", [192, 0, 2, 9]);
        assert_eq!(log.admit(caps, &one_more, 0, now), Err(CapReached::Day));
        assert_eq!(log.recent.len(), MAX_REMEMBERED);
    }
}
