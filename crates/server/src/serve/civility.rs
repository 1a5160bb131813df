//! A player's own defences on a public server, as their session carries them out: blocking the opponent at a
//! table (kept in the records, so it holds on every node and in every later session), reporting them to the
//! operator, and keeping what the blocked say and offer off the player's screen.
//!
//! Seating refuses two players one of whom has blocked the other ([`refuses_to_seat`]); everything else happens
//! here, between the table's news and the player's screen, so the table stays a game and nothing more.

use std::collections::HashSet;
use std::sync::Arc;

use super::identity::Identity;
use super::ids::{Fingerprint, TableCode};
use super::records::conduct::PlayerReport;
use super::text::clean_line;
use super::{Shared, events};
use crate::app::{ConductRequest, TableNews, TableRequest};

/// The longest report kept, in characters (as a chat line).
pub const MAX_REPORT: usize = 200;

/// What one player's session knows of their blocks.
pub struct Civility {
    shared: Arc<Shared>,
    identity: Identity,
    /// Whom the player has blocked, read as the session starts and grown as they block.
    blocked: HashSet<Fingerprint>,
}

impl Civility {
    /// The player's blocks as the records hold them (none for a guest, or when the records cannot be read: a
    /// block is then still refused at seating, which reads them again).
    pub async fn of(shared: Arc<Shared>, identity: Identity) -> Civility {
        let blocked = match identity.is_guest() {
            true => HashSet::new(),
            false => {
                let key = identity.fingerprint.clone();
                shared
                    .read_records(move |records| records.blocks_of(&key))
                    .await
                    .unwrap_or_default()
                    .into_iter()
                    .map(|b| b.key)
                    .collect()
            }
        };
        Civility {
            shared,
            identity,
            blocked,
        }
    }

    /// Whether the player has blocked someone seated at the table `listing` lists.
    pub fn blocks_anyone_at(&self, listing: &super::table::Listing) -> bool {
        listing
            .seats
            .iter()
            .flatten()
            .any(|(key, _)| self.blocked.contains(key))
    }

    /// Whether the news must not reach the player's screen: a chat line by someone they have blocked. An offer
    /// from a blocked opponent is answered no for them, unseen ([`Civility::answer_for`]).
    pub fn hides(&self, news: &TableNews) -> bool {
        match news {
            TableNews::Chat { by, .. } => {
                !by.is_empty() && self.blocked.contains(&Fingerprint::new(by.clone()))
            }
            _ => false,
        }
    }

    /// The answer given for the player to an offer from an opponent they have blocked (they never see it), or
    /// `None` when the offer is for them to answer.
    pub async fn answer_for(&self, code: &TableCode, news: &TableNews) -> Option<TableRequest> {
        let TableNews::Offer(kind) = news else {
            return None;
        };
        let (opponent, _) = self.opponent(code).await?;
        self.blocked
            .contains(&opponent)
            .then_some(TableRequest::Answer {
                kind: *kind,
                accept: false,
            })
    }

    /// Carries out what the player asked about their opponent at the table `code`: what they are told.
    pub async fn carry_out(&mut self, code: &TableCode, request: ConductRequest) -> String {
        if self.identity.is_guest() {
            return "a guest cannot block or report: connect with an SSH key".to_string();
        }
        let Some((opponent, name)) = self.opponent(code).await else {
            return "there is no opponent at this table".to_string();
        };
        let me = self.identity.fingerprint.clone();
        match request {
            ConductRequest::Block => {
                let (key, shown) = (opponent.clone(), name.clone());
                let kept = self
                    .shared
                    .read_records(move |records| records.set_block(&me, &key, &shown, true))
                    .await;
                match kept {
                    Some(_) => {
                        self.blocked.insert(opponent);
                        format!(
                            "you have blocked {name}: no chat or offers from them, and you will not be seated \
                             together again (`ssh HOST unblock {name}` lets them back)"
                        )
                    }
                    None => "the block could not be kept just now: try again".to_string(),
                }
            }
            ConductRequest::Report(text) => {
                let report = PlayerReport {
                    at: events::unix_now(),
                    reporter: (me, self.identity.name.clone()),
                    reported: (opponent, name.clone()),
                    game: code.to_string(),
                    text: clean_line(&text, MAX_REPORT),
                };
                let kept = self
                    .shared
                    .read_records(move |records| records.add_report(&report))
                    .await;
                match kept {
                    Some(()) => format!(
                        "your report about {name} is kept for the server's operator, with this game; thank you"
                    ),
                    None => "the report could not be kept just now: try again".to_string(),
                }
            }
        }
    }

    /// The other player at the table `code`, with their name.
    async fn opponent(&self, code: &TableCode) -> Option<(Fingerprint, String)> {
        let (_, listing) = super::elsewhere::find(&self.shared, code).await.ok()??;
        listing
            .seats
            .into_iter()
            .flatten()
            .find(|(key, _)| *key != self.identity.fingerprint)
    }
}

/// Why `identity` may not sit down with the players already at a table (`seated`): one of them has blocked the
/// other. Read from the records at each seating, so that a block made on any node holds on every node. A player
/// coming back to their own seat is never refused: a block made during a game ends nothing but what comes after
/// it (the game is theirs to finish or resign).
pub async fn refuses_to_seat(
    shared: &Shared,
    identity: &Identity,
    seated: &[Option<(Fingerprint, String)>; 2],
) -> Option<String> {
    let coming_back = seated
        .iter()
        .flatten()
        .any(|(key, _)| *key == identity.fingerprint);
    if identity.is_guest() || coming_back {
        return None;
    }
    for (other, name) in seated.iter().flatten() {
        if *other == identity.fingerprint {
            continue;
        }
        let (me, them) = (identity.fingerprint.clone(), other.clone());
        let blocked = shared
            .read_records(move |records| records.blocked_between(&me, &them))
            .await
            .unwrap_or(false);
        if blocked {
            return Some(format!(
                "you cannot play {name}: one of you has blocked the other"
            ));
        }
    }
    None
}
