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
