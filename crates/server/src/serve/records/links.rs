//! Browsers linked to players' SSH keys: the web door offers a one-time code for a browser, the player proves it
//! over SSH (`link CODE`), and from then on the browser's token stands for their key, on every node.
//!
//! Only a hash of a browser's token is kept: the records in the wrong hands give nobody a way in. A code is good
//! for a few minutes and once; a proved link lasts until the player revokes it (`links`).

use rusqlite::{OptionalExtension, params};

use super::postgres::PostgresRecords;
use super::sqlite::SqliteRecords;
use super::{RecordsError, for_sqlite};
use crate::serve::ids::Fingerprint;

/// How long a code may be proved after it was offered, in seconds.
pub const CODE_LIFETIME: i64 = 5 * 60;

/// The most codes waiting at once for one address: a script asking for codes fills no table.
pub const OFFERS_PER_ADDRESS: u32 = 5;

/// The most browsers one player may have linked: the oldest link goes when a newer one would pass it.
pub const LINKS_PER_PLAYER: usize = 20;

/// A browser linked to a player, as `links` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrowserLink {
    /// The link's number among the player's, for `links revoke N` (1 for the oldest).
    pub number: usize,
    /// What the browser said it was (its user agent, cut short), when it asked for its code.
    pub agent: String,
    /// The address it asked from.
    pub address: String,
    /// When it was linked, and last used, in seconds since the epoch.
    pub linked_at: i64,
    /// See `linked_at`.
    pub used_at: Option<i64>,
    /// The token's hash, which tells the link apart (never shown whole).
    pub(crate) token_hash: String,
}

/// What came of proving a code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The browser is now the player's.
    Linked,
    /// No code of that name is waiting: never offered, used already, or out of time.
    Unknown,
}

/// A new offer: the browser's token (hashed) and the code shown to it.
#[derive(Clone, Debug)]
pub struct Offer<'a> {
    /// The hash of the browser's token.
    pub token_hash: &'a str,
    /// The one-time code.
    pub code: &'a str,
    /// The address the browser asked from.
    pub address: &'a str,
    /// What the browser said it was.
    pub agent: &'a str,
    /// When, in seconds since the epoch.
    pub at: i64,
}

/// The records' calls about linked browsers (a part of [`Records`](super::Records)).
pub trait BrowserLinks {
    /// Keeps `offer`, unless its address has [`OFFERS_PER_ADDRESS`] codes waiting already (`false` then).
    /// Offers out of time are let go.
    fn offer_link(&mut self, offer: &Offer<'_>) -> Result<bool, RecordsError>;

    /// Proves `code` for `player` (known as `name`) at `now`: its browser becomes theirs, once.
    fn prove_link(
        &mut self,
        code: &str,
        player: &Fingerprint,
        name: &str,
        now: i64,
    ) -> Result<Proof, RecordsError>;

    /// The player a browser's token (hashed) stands for, with the name they linked it under; the use is noted.
    fn linked_player(
        &mut self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<(Fingerprint, String)>, RecordsError>;

    /// The browsers linked to `player`, oldest first.
    fn links_of(&mut self, player: &Fingerprint) -> Result<Vec<BrowserLink>, RecordsError>;

    /// Ends the link of `player`'s browser whose token has `token_hash`; whether there was one.
    fn revoke_link(&mut self, player: &Fingerprint, token_hash: &str)
    -> Result<bool, RecordsError>;
}

/// Numbers the rows of `links_of`, oldest first.
fn numbered(rows: Vec<BrowserLink>) -> Vec<BrowserLink> {
    rows.into_iter()
        .enumerate()
        .map(|(i, link)| BrowserLink {
            number: i + 1,
            ..link
        })
        .collect()
}

impl BrowserLinks for SqliteRecords {
    fn offer_link(&mut self, offer: &Offer<'_>) -> Result<bool, RecordsError> {
        let tx = self.db.savepoint()?;
        tx.execute(
            &for_sqlite(sql::FORGET_STALE),
            params![offer.at - CODE_LIFETIME],
        )?;
        let waiting: u32 = tx.query_row(
            &for_sqlite(sql::OFFERS_FROM),
            params![offer.address],
            |row| row.get(0),
        )?;
        if waiting >= OFFERS_PER_ADDRESS {
            return Ok(false);
        }
        tx.execute(
            &for_sqlite(sql::OFFER),
            params![
                offer.token_hash,
                offer.code,
                offer.address,
                offer.agent,
                offer.at
            ],
        )?;
        tx.commit()?;
        Ok(true)
    }

    fn prove_link(
        &mut self,
        code: &str,
        player: &Fingerprint,
        name: &str,
        now: i64,
    ) -> Result<Proof, RecordsError> {
        let tx = self.db.savepoint()?;
        let changed = tx.execute(
            &for_sqlite(sql::PROVE),
            params![code, player, name, now, now - CODE_LIFETIME],
        )?;
        if changed == 0 {
            return Ok(Proof::Unknown);
        }
        // Bounded per player: the oldest links go first.
        tx.execute(
            "DELETE FROM browser_links WHERE player = ?1 AND token_hash NOT IN
                 (SELECT token_hash FROM browser_links WHERE player = ?1 ORDER BY linked_at DESC, rowid DESC
                  LIMIT ?2)",
            params![player, LINKS_PER_PLAYER as i64],
        )?;
        tx.commit()?;
        Ok(Proof::Linked)
    }

    fn linked_player(
        &mut self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<(Fingerprint, String)>, RecordsError> {
        let found: Option<(String, String)> = self
            .db
            .query_row(
                "SELECT player, name FROM browser_links WHERE token_hash = ?1 AND player IS NOT NULL",
                params![token_hash],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()?;
        if found.is_some() {
            self.db.execute(
                "UPDATE browser_links SET used_at = ?2 WHERE token_hash = ?1",
                params![token_hash, now],
            )?;
        }
        Ok(found.map(|(player, name)| (Fingerprint::new(player), name)))
    }

    fn links_of(&mut self, player: &Fingerprint) -> Result<Vec<BrowserLink>, RecordsError> {
        let mut query = self.db.prepare(
            "SELECT agent, address, linked_at, used_at, token_hash FROM browser_links
                 WHERE player = ?1 ORDER BY linked_at, rowid",
        )?;
        let rows = query.query_map(params![player], |row| {
            Ok(BrowserLink {
                number: 0,
                agent: row.get(0)?,
                address: row.get(1)?,
                linked_at: row.get(2)?,
                used_at: row.get(3)?,
                token_hash: row.get(4)?,
            })
        })?;
        Ok(numbered(rows.collect::<Result<_, _>>()?))
    }

    fn revoke_link(
        &mut self,
        player: &Fingerprint,
        token_hash: &str,
    ) -> Result<bool, RecordsError> {
        let gone = self
            .db
            .execute(&for_sqlite(sql::REVOKE), params![player, token_hash])?;
        Ok(gone > 0)
    }
}

impl BrowserLinks for PostgresRecords {
    fn offer_link(&mut self, offer: &Offer<'_>) -> Result<bool, RecordsError> {
        let cutoff = offer.at - CODE_LIFETIME;
        self.write(|c| {
            c.execute(sql::FORGET_STALE, &[&cutoff])?;
            let waiting: i64 = c.query_one(sql::OFFERS_FROM, &[&offer.address])?.get(0);
            if waiting >= i64::from(OFFERS_PER_ADDRESS) {
                return Ok(false);
            }
            c.execute(
                sql::OFFER,
                &[
                    &offer.token_hash,
                    &offer.code,
                    &offer.address,
                    &offer.agent,
                    &offer.at,
                ],
            )?;
            Ok(true)
        })
    }

    fn prove_link(
        &mut self,
        code: &str,
        player: &Fingerprint,
        name: &str,
        now: i64,
    ) -> Result<Proof, RecordsError> {
        let cutoff = now - CODE_LIFETIME;
        self.write(|c| {
            // One statement: two nodes proving one code at once cannot both link it.
            let changed =
                c.execute(sql::PROVE, &[&code, &player.as_str(), &name, &now, &cutoff])?;
            if changed == 0 {
                return Ok(Proof::Unknown);
            }
            c.execute(
                "DELETE FROM browser_links WHERE player = $1 AND token_hash NOT IN
                     (SELECT token_hash FROM browser_links WHERE player = $1
                      ORDER BY linked_at DESC, token_hash LIMIT $2)",
                &[&player.as_str(), &(LINKS_PER_PLAYER as i64)],
            )?;
            Ok(Proof::Linked)
        })
    }

    fn linked_player(
        &mut self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<(Fingerprint, String)>, RecordsError> {
        self.write(|c| {
            let row = c.query_opt(
                "UPDATE browser_links SET used_at = $2 WHERE token_hash = $1 AND player IS NOT NULL
                     RETURNING player, name",
                &[&token_hash, &now],
            )?;
            Ok(row.map(|r| (Fingerprint::new(r.get::<_, String>(0)), r.get(1))))
        })
    }

    fn links_of(&mut self, player: &Fingerprint) -> Result<Vec<BrowserLink>, RecordsError> {
        let rows = self.read(|c| {
            c.query(
                "SELECT agent, address, linked_at, used_at, token_hash FROM browser_links
                     WHERE player = $1 ORDER BY linked_at, token_hash",
                &[&player.as_str()],
            )
        })?;
        Ok(numbered(
            rows.iter()
                .map(|r| BrowserLink {
                    number: 0,
                    agent: r.get(0),
                    address: r.get(1),
                    linked_at: r.get(2),
                    used_at: r.get(3),
                    token_hash: r.get(4),
                })
                .collect(),
        ))
    }

    fn revoke_link(
        &mut self,
        player: &Fingerprint,
        token_hash: &str,
    ) -> Result<bool, RecordsError> {
        self.write(|c| {
            let gone = c.execute(sql::REVOKE, &[&player.as_str(), &token_hash])?;
            Ok(gone > 0)
        })
    }
}

/// The SQL of these records, written once for both databases (SQLite takes it through
/// [`for_sqlite`](super::for_sqlite)).
pub(super) mod sql {
    /// Offers not proved in time, forgotten.
    pub(in super::super) const FORGET_STALE: &str =
        "DELETE FROM browser_links WHERE player IS NULL AND offered_at < $1";

    /// Offers waiting from one address.
    pub(in super::super) const OFFERS_FROM: &str =
        "SELECT count(*) FROM browser_links WHERE player IS NULL AND address = $1";

    /// An offer.
    pub(in super::super) const OFFER: &str = "INSERT INTO browser_links (token_hash, code, address, agent, offered_at) VALUES ($1, $2, $3, $4, $5)";

    /// An offer proved by its code: the browser linked to the player.
    pub(in super::super) const PROVE: &str =
        "UPDATE browser_links SET player = $2, name = $3, linked_at = $4, code = NULL
         WHERE code = $1 AND player IS NULL AND offered_at >= $5";

    /// A link revoked by its player.
    pub(in super::super) const REVOKE: &str =
        "DELETE FROM browser_links WHERE player = $1 AND token_hash = $2";
}
