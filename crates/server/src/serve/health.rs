//! Whether the server is alive and whether it takes players, as a load balancer or a service manager asks
//! (`/healthz` and `/readyz` on the web door): alive while the process answers at all; ready while it is neither
//! shutting down nor draining and its records can be written (a node whose records refuse writes keeps its players, but
//! should be sent no more).

use thiserror::Error;

use super::Shared;

/// Why the server does not take players now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum NotReady {
    /// It is shutting down.
    #[error("the server is shutting down")]
    ShuttingDown,
    /// It is draining: its players play on, and it stops as the last one leaves.
    #[error("the server is draining")]
    Draining,
    /// Its records cannot be written (a full disk, the database gone): moves are refused until they can.
    #[error("the server cannot write its records")]
    RecordsUnwritable,
}

impl Shared {
    /// Whether the server takes players now, and why not.
    pub fn readiness(&self) -> Result<(), NotReady> {
        if *self.shutdown.borrow() {
            return Err(NotReady::ShuttingDown);
        }
        if *self.draining.borrow() {
            return Err(NotReady::Draining);
        }
        if !self.recorder.is_writing() {
            return Err(NotReady::RecordsUnwritable);
        }
        Ok(())
    }
}
