//! The players the records know: who has connected, by key, with the name they last used.

use super::RecordsError;
use crate::serve::identity::Identity;
use crate::serve::ids::Fingerprint;

/// The players' records.
pub trait PlayerRecords {
    /// Notes that `identity` has connected (their latest name kept).
    fn seen(&mut self, identity: &Identity) -> Result<(), RecordsError>;

    /// Everyone who has connected, by display name, with their key's fingerprint, first seen first.
    fn players(&mut self) -> Result<Vec<(String, Fingerprint)>, RecordsError>;
}

/// The SQL of these records, written once for both databases (SQLite takes it through
/// [`for_sqlite`](super::for_sqlite)).
pub(super) mod sql {
    /// A player seen, their latest name kept.
    pub(in super::super) const SEEN: &str =
        "INSERT INTO players (fingerprint, name, first_seen, last_seen) VALUES ($1, $2, $3, $3)
         ON CONFLICT (fingerprint) DO UPDATE SET name = $2, last_seen = $3";

    /// Everyone seen, first seen first.
    pub(in super::super) const PLAYERS: &str =
        "SELECT name, fingerprint FROM players ORDER BY first_seen, name";
}
