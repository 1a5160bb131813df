//! The SSH door (`ssh -p 2222 host`): the same server over SSH, a player known by their key.
//!
//! A door of its own above the server (`crowned-server`): it reaches the server only through the seam every door
//! uses ([`crowned_server::serve::door`]) and the server's public parts (seats, events, records), so the compiler
//! holds that nothing in the game core knows SSH. Here: the host key ([`load_or_create`]), the keys let in
//! ([`load_authorized_keys`]), a player's identity from their key ([`identity_of`]), each connection's sign-in,
//! channel and commands (`connection.rs`), and the accept loop ([`run`]).

#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod authorized;
mod connection;
mod host_key;
mod ssh_screen;

pub use authorized::{AuthorizedKeysError, load_authorized_keys};
pub use host_key::{HostKeyError, fingerprint, load_or_create};

use std::sync::Arc;
use std::time::Duration;

use crowned_server::serve::door::CutStream;
use crowned_server::serve::metrics::{self, Door, Refused};
use crowned_server::serve::{Fingerprint, Identity, ServeError, Server, display_name};
use russh::keys::{HashAlg, PrivateKey, PublicKey};
use thiserror::Error;
use tokio::net::TcpListener;

use connection::Connection;

// The server's parts, by the names the door knows them by.
use crowned_server::{serve, session};
use crowned_store as store;

/// What goes wrong in an SSH connection.
#[derive(Debug, Error)]
pub enum SshError {
    /// The SSH layer failed.
    #[error("ssh: {0}")]
    Ssh(#[from] russh::Error),
    /// The server behind the door failed.
    #[error("{0}")]
    Serve(#[from] ServeError),
}

/// The identity of a key, with the user name it came with: the key's SHA-256 fingerprint, as `ssh-keygen -l`
/// prints it.
pub fn identity_of(key: &PublicKey, user: &str) -> Identity {
    Identity {
        fingerprint: Fingerprint::new(key.fingerprint(HashAlg::Sha256).to_string()),
        name: display_name(user),
    }
}

/// How often a draining server looks whether its last connection has left.
const DRAIN_LOOK: Duration = Duration::from_millis(200);

/// Serves `server`'s games over SSH on `listener`, with `host_key`, until its shutdown switch is thrown (or, once
/// it drains, its last connection has left); then every game is told to end and the server winds down, giving
/// them up to `grace` to say goodbye.
pub async fn run(server: Server, listener: TcpListener, grace: Duration, host_key: PrivateKey) {
    let shared = server.shared();
    let limits = server.limits();
    let ssh = Arc::new(ssh_config(host_key, shared.config().idle_timeout));
    let mut stop = server.shutdown().watch();
    let mut draining = server.draining();
    server.start_watching_bans();
    loop {
        let (socket, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, say: wait a moment rather than spin.
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = stop.changed() => break,
            // The drain begins: the loop comes round to look at once, even with no one knocking (a switch dropped
            // disables the branch rather than waking the loop again and again).
            Ok(()) = draining.changed(), if !*draining.borrow() => continue,
            // Draining: once nobody is connected (an SSH or a web player), the server stops as if told to.
            () = tokio::time::sleep(DRAIN_LOOK), if *draining.borrow() => {
                if server.drained() {
                    break;
                }
                continue;
            }
        };
        if *draining.borrow() {
            tracing::info!(peer = %peer, "connection refused: the server is draining");
            metrics::refused(Door::Ssh, Refused::Draining);
            drop(socket);
            continue;
        }
        let admission = match limits.admit(peer.ip()) {
            Ok(admission) => admission,
            Err(refusal) => {
                tracing::warn!(peer = %peer, ?refusal, "connection refused");
                metrics::refused(Door::Ssh, Refused::Limits(refusal));
                drop(socket);
                continue;
            }
        };
        tracing::info!(
            peer = %peer,
            held = limits.held(),
            strangers = limits.strangers(),
            "connection"
        );
        let _ = socket.set_nodelay(true);
        // The address the client reached, for the command a friend types to join its games.
        let reached = socket.local_addr().ok();
        tokio::spawn(admission.deadline());
        let socket = CutStream::new(socket, admission.cut());
        let handler = Connection::new(Arc::clone(&shared), peer, reached, admission);
        let ssh = Arc::clone(&ssh);
        tokio::spawn(async move {
            match russh::server::run_stream(ssh, socket, handler).await {
                Ok(running) => {
                    if let Err(e) = running.await {
                        tracing::debug!(peer = %peer, error = %e, "connection ended with an error");
                    }
                }
                Err(e) => tracing::debug!(peer = %peer, error = %e, "handshake failed"),
            }
        });
    }
    server.wind_down(grace).await;
}

/// The SSH settings: the host key, slow refusals of failed sign-ins, and a connection dropped when it goes
/// silent for longer than a game may idle (`idle_timeout`).
fn ssh_config(host_key: PrivateKey, idle_timeout: Duration) -> russh::server::Config {
    russh::server::Config {
        keys: vec![host_key],
        // Every failed sign-in costs the client a second: guessing is slow, and a real user never notices.
        auth_rejection_time: Duration::from_secs(1),
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        inactivity_timeout: Some(idle_timeout + Duration::from_secs(60)),
        keepalive_interval: Some(Duration::from_secs(30)),
        nodelay: true,
        ..Default::default()
    }
}
