//! `crowned serve`: the game as an SSH server.

use std::io::Write;
use std::time::Duration;

use anyhow::{Context, Result};
use crowned::config::ServerSettings;
use crowned::serve::{
    Quota, ServeConfig, Server, Shutdown, fingerprint, load_authorized_keys, load_or_create,
};
use crowned::store::Store;
use tracing_subscriber::EnvFilter;

/// How long a stopping server waits for its games to say goodbye.
const GRACE: Duration = Duration::from_secs(3);

/// Runs the server until SIGTERM or SIGINT; logs go to stderr (`RUST_LOG` sets the level, `info` by default).
pub fn run(settings: &ServerSettings) -> Result<()> {
    if let Some(why) = settings.contradiction() {
        anyhow::bail!(why);
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
    let store = Store::locate().context("no folder for the server's files")?;
    // Held until the server stops: a second server on these records would serve the same games twice.
    let _only_server = store.claim_server()?;
    let host_key_path = settings
        .host_key
        .clone()
        .unwrap_or_else(|| store.server_dir().join("host_key_ed25519"));
    let (host_key, made) = load_or_create(&host_key_path)?;
    let authorized = settings
        .authorized_keys
        .as_deref()
        .map(load_authorized_keys)
        .transpose()?;
    let config = ServeConfig {
        host_key,
        players_dir: store.server_dir().join("players"),
        records: store.server_dir().join("records.sqlite"),
        authorized,
        guests: settings.guests,
        players: Quota {
            total: settings.max_sessions as usize,
            per_address: settings.max_per_address as usize,
        },
        strangers: Quota {
            total: settings.max_strangers as usize,
            per_address: settings.max_strangers_per_address as usize,
        },
        sign_in_deadline: Duration::from_secs(u64::from(settings.sign_in_deadline)),
        client_stall: Duration::from_secs(u64::from(settings.client_stall)),
        idle_timeout: Duration::from_secs(u64::from(settings.idle_timeout)),
        seat_grace: Duration::from_secs(u64::from(settings.seat_grace)),
        engine_threads: settings.engine_threads as usize,
        engine_megabytes: settings.engine_megabytes as usize,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("serve")
        .build()
        .context("cannot start the server's threads")?;
    let listen = settings.listen;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .with_context(|| {
                format!(
                    "cannot listen on {listen} (is another server there? --listen or server.listen chooses \
                     another address)"
                )
            })?;
        let address = listener.local_addr()?;
        let host_fingerprint = fingerprint(&config.host_key);
        let shutdown = Shutdown::new();
        // Everything is ready (the engine's threads and tables too) before the server says it listens.
        let server = Server::new(config, shutdown.clone())?;
        let key_note = if made { " (new)" } else { "" };
        // Whoever started the server may have stopped reading its output: that must not stop the server.
        say(&format!(
            "crowned serve: listening on {address}; host key {}{key_note} in {}\nconnect with: ssh -p {} {}",
            host_fingerprint,
            host_key_path.display(),
            address.port(),
            address.ip()
        ));
        watch_signals(shutdown)?;
        server.run(listener, GRACE).await;
        say("crowned serve: stopped");
        Ok(())
    })
}

/// A line on stdout, if anyone reads it.
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// SIGTERM and SIGINT stop the server: games are told, saved, and the server exits.
fn watch_signals(shutdown: Shutdown) -> Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).context("cannot watch for SIGTERM")?;
    let mut int = signal(SignalKind::interrupt()).context("cannot watch for SIGINT")?;
    tokio::spawn(async move {
        tokio::select! {
            _ = term.recv() => {},
            _ = int.recv() => {},
        }
        tracing::info!("stopping: every game is told and saved");
        shutdown.stop();
    });
    Ok(())
}
