//! `crowned serve`: the game as an SSH server.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use crowned::serve::{ServeConfig, Server, Shutdown, fingerprint, load_or_create};
use crowned::store::Store;
use tracing_subscriber::EnvFilter;

/// How long a stopping server waits for its games to say goodbye.
const GRACE: Duration = Duration::from_secs(3);

/// What the command line says about the server.
#[derive(Debug)]
pub struct ServeArgs {
    /// Where to listen.
    pub listen: SocketAddr,
    /// The host key file (default: in the data folder).
    pub host_key: Option<PathBuf>,
    /// Connections at once.
    pub max_sessions: usize,
    /// Connections at once from one address.
    pub max_per_address: usize,
    /// Seconds a game may go without a key.
    pub idle_timeout: u64,
    /// Search threads shared by all games.
    pub engine_threads: usize,
    /// Table memory shared by all games, in megabytes.
    pub engine_megabytes: usize,
}

/// Runs the server until SIGTERM or SIGINT; logs go to stderr (`RUST_LOG` sets the level, `info` by default).
pub fn run(args: ServeArgs) -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
    let store = Store::locate().context("no folder for the server's files")?;
    let host_key_path = args
        .host_key
        .unwrap_or_else(|| store.server_dir().join("host_key_ed25519"));
    let (host_key, made) = load_or_create(&host_key_path)?;
    let config = ServeConfig {
        host_key,
        players_dir: store.server_dir().join("players"),
        max_sessions: args.max_sessions,
        max_per_address: args.max_per_address,
        idle_timeout: Duration::from_secs(args.idle_timeout),
        engine_threads: args.engine_threads,
        engine_megabytes: args.engine_megabytes,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("serve")
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
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
