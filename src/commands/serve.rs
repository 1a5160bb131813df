//! `crowned serve`: the game as an SSH server.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use crowned::config::{Overrides, ServerFlags, ServerSettings};
use crowned::serve::events::create::read_spec;
use crowned::serve::nodes::NodeName;
use crowned::serve::records::{Place, PostgresUrl};
use crowned::serve::{NodesSettings, Offered, Quota, ServeConfig, Server, Shutdown};
use crowned::ssh::{fingerprint, load_authorized_keys, load_or_create};
use crowned::store::Store;
use tracing_subscriber::EnvFilter;

use super::serve_conduct;

/// How long a stopping server waits for its games to say goodbye.
const GRACE: Duration = Duration::from_secs(3);

/// `crowned serve`'s options: each overrides its setting of the `[server]` table.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The `[server]` settings' flags, each overriding its setting.
    #[command(flatten)]
    server: ServerFlags,
    /// How the log on standard error is written: `text`, a line a message for people, or `json`, a JSON object
    /// a line for a log collector (each message's fields at the top level).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Check the settings, the host key, the records, the listeners, the web door's certificate and the
    /// variants without serving: a line each, and exit status 1 if the server would not start.
    #[arg(long)]
    check: bool,
    #[command(subcommand)]
    command: Option<ServeCommand>,
}

/// How the server's log is written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// A line a message, for people.
    Text,
    /// A JSON object a line, for a log collector.
    Json,
}

/// What `crowned serve` does besides serving.
#[derive(clap::Subcommand, Debug)]
pub enum ServeCommand {
    /// Copy the records of an SQLite file into an empty PostgreSQL database: players, games (numbers, moves,
    /// clocks, definitions, results, PDN), ratings, tournaments and the problem trainer's attempts; then the
    /// players' own folders (saved games, settings, autosaves), which the nodes share through the database.
    MigrateRecords {
        /// The SQLite records file (server/records.sqlite in the data folder).
        from: PathBuf,
        /// The PostgreSQL database (postgres://user@host:port/database).
        to: String,
        /// The players' folders (`players` beside the records file by default).
        #[arg(long, value_name = "DIR")]
        players: Option<PathBuf>,
    },
    /// Copy the records, while the server runs, to the new file DEST (SQLite's online copy, checked before it
    /// is named); to restore, stop the server and put the copy in the records' place. Records in PostgreSQL
    /// are backed up with pg_dump, as the README shows.
    Backup {
        /// The new file (an existing file is never replaced).
        dest: PathBuf,
    },
    /// List the latest reports players made about each other, newest first: when, who, whom (with their keys),
    /// at which game, and what they said.
    Reports {
        /// How many.
        #[arg(long, default_value_t = 50)]
        count: usize,
    },
    /// List the bans.
    Bans,
    /// Ban a key (its fingerprint, SHA256:...) or an address: refused at its next sign-in on every node, with
    /// the reason as the one line it is given.
    Ban {
        /// The key's fingerprint or the address.
        target: String,
        /// Why (the rest of the line).
        #[arg(required = true, num_args = 1..)]
        reason: Vec<String>,
    },
    /// Lift a ban.
    Unban {
        /// The key's fingerprint or the address.
        target: String,
    },
}

impl ServeArgs {
    /// The settings with each option given laid over its setting; an option not given leaves its setting alone.
    pub fn over(self, settings: ServerSettings) -> ServerSettings {
        self.server.over(settings)
    }
}

/// The events of `server.tournaments` that read (each checked now; one that does not is logged and left out).
fn scheduled_events(entries: &[String]) -> Vec<String> {
    let now = crowned::serve::events::unix_now();
    entries
        .iter()
        .filter(|words| match read_spec(words, None, now) {
            Ok(_) => true,
            Err(why) => {
                tracing::warn!(event = %words, %why, "a scheduled tournament is left out");
                false
            }
        })
        .cloned()
        .collect()
}

/// The name a node goes by when it is given none: the machine's name and the port it listens on, so that two
/// nodes on one machine differ.
fn default_node_name(port: u16) -> NodeName {
    let machine = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default();
    let machine: String = machine
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(32)
        .collect();
    let machine = if machine.is_empty() {
        "node".to_string()
    } else {
        machine
    };
    format!("{machine}-{port}")
        .parse()
        .unwrap_or_else(|_| NodeName::from_port(port))
}

/// `crowned serve`: the `[server]` settings of the settings file, with the command line over them.
pub fn run(mut args: ServeArgs) -> Result<ExitCode> {
    let asked = match args.command.take() {
        Some(ServeCommand::MigrateRecords { from, to, players }) => {
            let players = players.unwrap_or_else(|| {
                from.parent()
                    .unwrap_or_else(|| std::path::Path::new("."))
                    .join("players")
            });
            return migrate(&from, &to, &players);
        }
        Some(ServeCommand::Backup { dest }) => {
            let (settings, _, problem) = super::settings::load(&Overrides::default());
            if let Some(problem) = problem {
                return Err(anyhow::Error::new(problem));
            }
            return backup(args.over(settings.server).records, &dest);
        }
        Some(ServeCommand::Reports { count }) => Some(serve_conduct::Asked::Reports(count)),
        Some(ServeCommand::Bans) => Some(serve_conduct::Asked::Bans),
        Some(ServeCommand::Ban { target, reason }) => {
            Some(serve_conduct::Asked::Ban(target, reason.join(" ")))
        }
        Some(ServeCommand::Unban { target }) => Some(serve_conduct::Asked::Unban(target)),
        None => None,
    };
    // The game's options cannot be given with a command, so there is nothing to lay over the file's settings
    // but this command's own options.
    let (settings, _, problem) = super::settings::load(&Overrides::default());
    // A server does not start on settings it was not given.
    if let Some(problem) = problem {
        return Err(anyhow::Error::new(problem));
    }
    // The operator's commands on conduct work on the records the settings (and --records) name.
    if let Some(asked) = asked {
        return serve_conduct::run(asked, args.over(settings.server).records);
    }
    if args.check {
        return super::serve_check::run(&args.over(settings.server));
    }
    let format = args.log_format;
    serve(&args.over(settings.server), format)?;
    Ok(ExitCode::SUCCESS)
}

/// `crowned serve backup DEST`: copies the SQLite records the settings name to `dest` and says what the copy
/// holds; for records in PostgreSQL, says how pg_dump backs them up.
fn backup(records: Option<PostgresUrl>, dest: &std::path::Path) -> Result<ExitCode> {
    if let Some(url) = records {
        anyhow::bail!(
            "the records are in PostgreSQL ({url}): back them up with `pg_dump --format=custom --file {} \
             '{url}'` (the password from PGPASSWORD or ~/.pgpass), and restore with pg_restore into an \
             empty database (the README's operator section)",
            dest.display()
        );
    }
    let from = Store::locate()
        .context("no folder for the server's files")?
        .server_dir()
        .join("records.sqlite");
    let started = std::time::Instant::now();
    let copied = crowned::serve::records::backup::backup_sqlite(&from, dest)?;
    say(&format!(
        "copied the records of {} players and {} games ({} finished, {} moves; schema version {}) from {} to \
         {}: {} bytes in {:.1} s, checked",
        copied.players,
        copied.games,
        copied.finished,
        copied.moves,
        copied.version,
        from.display(),
        dest.display(),
        copied.bytes,
        started.elapsed().as_secs_f64()
    ));
    Ok(ExitCode::SUCCESS)
}

/// `crowned serve migrate-records FROM TO`: copies the records and the players' folders, and says how many of
/// each.
fn migrate(from: &std::path::Path, to: &str, players: &std::path::Path) -> Result<ExitCode> {
    let to: PostgresUrl = to.parse()?;
    let copied = crowned::serve::records::migrate::sqlite_to_postgres(from, &to)?;
    say(&format!(
        "copied {} players, {} games, {} moves, {} clock notes and {} ratings ({} tournaments, {} problem \
         attempts, {} blocks, reports and bans, {} news, event creations and linked browsers) from {} to {to}",
        copied.players,
        copied.games,
        copied.moves,
        copied.clocks,
        copied.ratings,
        copied.tournaments,
        copied.problem_attempts,
        copied.conduct,
        copied.more,
        from.display()
    ));
    let identities = crowned::serve::records::migrate::players_of(from)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the folders' copy")?;
    let folders = runtime.block_on(copy_folders(&identities, players, &to))?;
    say(&format!(
        "copied the folders of {} players ({} files: saved games, settings, autosaves) from {}; the database \
         holds {} files of theirs{}",
        folders.players,
        folders.copied,
        players.display(),
        folders.held,
        match folders.refused.first() {
            Some(first) => format!("; {} not copied (first: {first})", folders.refused.len()),
            None => String::new(),
        }
    ));
    if folders.held != folders.copied {
        anyhow::bail!(
            "the database holds {} of the {} files copied from the players' folders",
            folders.held,
            folders.copied
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What copying the players' folders did, all players together.
#[derive(Default)]
struct FoldersCopied {
    players: usize,
    copied: usize,
    held: usize,
    refused: Vec<String>,
}

/// Copies the folder of each of `identities` under `players` (those who have one) into the database at `to`.
async fn copy_folders(
    identities: &[crowned::serve::Identity],
    players: &std::path::Path,
    to: &PostgresUrl,
) -> Result<FoldersCopied> {
    let mut copied = FoldersCopied::default();
    if !players.is_dir() {
        return Ok(copied);
    }
    let folders = crowned::serve::nodes::Folders::connect(to.async_config()?).await?;
    for identity in identities {
        let folder = players.join(identity.folder_name());
        if !folder.is_dir() {
            continue;
        }
        let one = folders
            .copy_in(identity.fingerprint.as_str(), &folder)
            .await
            .with_context(|| format!("cannot copy the folder {}", folder.display()))?;
        copied.players += 1;
        copied.copied += one.copied;
        copied.held += one.held;
        copied.refused.extend(
            one.refused
                .iter()
                .map(|r| format!("{}: {r}", folder.display())),
        );
    }
    Ok(copied)
}

/// The problem trainer's collection: the built-in problems, then those of the operator's file (`problems.pdn`
/// beside the settings) that crowned proves (each refused one is logged with the reason), before the server
/// listens. A problem in both is offered once.
fn server_problems(
    file: &std::path::Path,
    egdb: Option<std::sync::Arc<crowned::engine::egdb::Egdb>>,
) -> Vec<crowned::problems::Problem> {
    let mut problems = crowned::problems::builtin_problems();
    let bytes = match crowned::bounded::read_bounded(file, super::problems::MAX_PROBLEMS_FILE) {
        Ok(bytes) => bytes,
        // The operator's collection is optional: most servers have none.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return problems,
        Err(error) => {
            tracing::warn!(file = %file.display(), %error, "cannot read the problems file");
            return problems;
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut prover = crowned::problems::Prover::new(egdb);
    let loaded = crowned::problems::load_problems(&text, &mut prover);
    for (title, why) in &loaded.refused {
        tracing::warn!(file = %file.display(), "problem {title} not offered: {why}");
    }
    let known: std::collections::HashSet<String> = problems.iter().map(|p| p.key()).collect();
    let before = problems.len();
    problems.extend(
        loaded
            .problems
            .into_iter()
            .filter(|p| !known.contains(&p.key())),
    );
    tracing::info!(
        file = %file.display(),
        added = problems.len() - before,
        "the operator's problems offered"
    );
    problems
}

/// Runs the server until SIGTERM or SIGINT; logs go to stderr (`RUST_LOG` sets the level, `info` by default).
fn serve(settings: &ServerSettings, format: LogFormat) -> Result<()> {
    if let Some(why) = settings.contradiction() {
        anyhow::bail!(why);
    }
    init_log(format);
    // Installed before anything runs, so that what the server does as it starts (games resumed, leases taken)
    // is counted.
    let metrics = match settings.metrics {
        Some(_) => Some(crowned::serve::metrics::Metrics::install()?),
        None => None,
    };
    let store = Store::locate().context("no folder for the server's files")?;
    let records = match &settings.records {
        Some(url) => Place::Postgres(url.clone()),
        None => Place::Sqlite(store.server_dir().join("records.sqlite")),
    };
    // Held until the server stops: a second server on this machine's SQLite records would serve the same games
    // twice. Records in PostgreSQL are shared by several servers on purpose: no lock here.
    let _only_server = match records {
        Place::Sqlite(_) => Some(store.claim_server()?),
        Place::Postgres(_) => None,
    };
    let host_key_path = settings
        .host_key
        .clone()
        .unwrap_or_else(|| store.server_dir().join("host_key_ed25519"));
    let (host_key, made) = load_or_create(&host_key_path)?;
    let mut config = serve_config(settings, &store, records)?;
    // The web door's TLS is read before anything starts: a certificate that does not load stops the server.
    let web_tls = match (&settings.web_cert, &settings.web_key) {
        (Some(cert), Some(key)) => Some(crowned::web::load_tls(cert, key)?),
        _ => None,
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
        // Records in PostgreSQL make this server one node of a service: it joins the others on them.
        if let Place::Postgres(url) = &config.records {
            config.nodes = Some(NodesSettings {
                database: url.async_config()?,
                node: settings
                    .node_name
                    .clone()
                    .unwrap_or_else(|| default_node_name(address.port())),
                lease_term: Duration::from_secs(u64::from(settings.lease_term)),
            });
        }
        let host_fingerprint = fingerprint(&host_key);
        let shutdown = Shutdown::new();
        // Everything is ready (the engine's threads and tables too) before the server says it listens.
        let server = Server::new(config, shutdown.clone())?;
        server.join_nodes().await?;
        let web_note = match settings.web {
            Some(web) => Some(open_web_door(&server, settings, web, web_tls, address).await?),
            None => None,
        };
        let metrics_note = match (settings.metrics, metrics) {
            (Some(at), Some(metrics)) => Some(open_metrics(&server, at, metrics).await?),
            _ => None,
        };
        // The signals are watched before the server says it listens: whoever reads that line (a service manager,
        // a script) may signal it at once.
        watch_signals(shutdown)?;
        let key_note = if made { " (new)" } else { "" };
        // Whoever started the server may have stopped reading its output: that must not stop the server.
        say(&format!(
            "crowned serve: listening on {address}; host key {}{key_note} in {}\nconnect with: ssh -p {} {}",
            host_fingerprint,
            host_key_path.display(),
            address.port(),
            address.ip()
        ));
        // After the SSH door's line, which scripts read first.
        for note in [web_note, metrics_note].into_iter().flatten() {
            say(&note);
        }
        crowned::ssh::run(server, listener, GRACE, host_key).await;
        say("crowned serve: stopped");
        Ok(())
    })
}

/// The log on stderr: `RUST_LOG` sets the level (`info` by default), `format` the shape of a line.
fn init_log(format: LogFormat) {
    let log = tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_target(false)
        // A log line that cannot be written (stderr on a full disk, or closed) is dropped: said about on stderr
        // itself, the failure would panic whichever thread logged, the records' thread among them.
        .log_internal_errors(false);
    match format {
        LogFormat::Text => log.init(),
        LogFormat::Json => log.json().flatten_event(true).init(),
    }
}

/// The server's configuration from its settings and its files: the players' keys, the defined variants and
/// problems offered, the endgame databases, the limits. Nodes are joined later, once the address is known.
fn serve_config(settings: &ServerSettings, store: &Store, records: Place) -> Result<ServeConfig> {
    let authorized = settings
        .authorized_keys
        .as_deref()
        .map(load_authorized_keys)
        .transpose()?;
    // The defined variants offered: a definition that does not load is told (file, line, problem) and left
    // out; the server starts without it.
    let (variants, problems) = Offered::load(Some(&store.variants_dir()), &settings.variant_files);
    for problem in &problems {
        tracing::warn!("variant not offered: {problem}");
    }
    let offered: Vec<String> = variants.all().iter().map(ToString::to_string).collect();
    tracing::info!("defined variants offered: {}", offered.join(", "));
    let egdb = super::databases();
    let problems = server_problems(&store.problems_file(), egdb.clone());
    Ok(ServeConfig {
        players_dir: store.server_dir().join("players"),
        records,
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
        egdb,
        variants,
        problems,
        nodes: None,
        tournaments: scheduled_events(&settings.tournaments),
        event_caps: crowned::serve::events::caps::EventCaps {
            per_key: settings.events_per_key,
            per_address: settings.events_per_address,
            at_once: settings.players_events,
        },
    })
}

/// Opens the web door on `web` beside the SSH door at `ssh`; the line that says where it is open.
async fn open_web_door(
    server: &Server,
    settings: &ServerSettings,
    web: std::net::SocketAddr,
    tls: Option<std::sync::Arc<tokio_rustls::rustls::ServerConfig>>,
    ssh: std::net::SocketAddr,
) -> Result<String> {
    let web_listener = tokio::net::TcpListener::bind(web).await.with_context(|| {
        format!("cannot listen on {web} for the web door (--web or server.web chooses another)")
    })?;
    let web_address = web_listener.local_addr()?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    crowned::web::open(
        server,
        web_listener,
        crowned::web::WebSettings {
            listen: web_address,
            tls,
            proxies: settings.web_proxies.clone(),
        },
        ssh,
    );
    Ok(format!(
        "crowned serve: the web door is open at {scheme}://{web_address}/"
    ))
}

/// Opens the operator's listener (metrics and health) on `at`; the line that says where it is.
async fn open_metrics(
    server: &Server,
    at: std::net::SocketAddr,
    metrics: crowned::serve::metrics::Metrics,
) -> Result<String> {
    let listener = tokio::net::TcpListener::bind(at).await.with_context(|| {
        format!(
            "cannot listen on {at} for the metrics (--metrics or server.metrics chooses another)"
        )
    })?;
    let address = crowned::web::open_operator(server, listener, metrics)?;
    Ok(format!(
        "crowned serve: metrics at http://{address}/metrics (health at /healthz, /readyz)"
    ))
}

/// A line on stdout, if anyone reads it.
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// SIGTERM and SIGINT stop the server: games are told, saved, and the server exits. SIGUSR1 drains it: no new
/// connection is taken (`/readyz` answers 503, so a load balancer sends players elsewhere), the players connected
/// play on, and the server stops as the last one leaves; a signal rather than a command, so that a service manager
/// sends it as it sends SIGTERM (`systemctl kill -s USR1 crowned`), with no control socket to secure. SIGXFSZ (a write past the
/// file-size limit) is caught, as PostgreSQL ignores it: the write fails with an error, the records say they
/// cannot be written, and play resumes once they can, rather than the server dying.
fn watch_signals(shutdown: Shutdown) -> Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).context("cannot watch for SIGTERM")?;
    let mut int = signal(SignalKind::interrupt()).context("cannot watch for SIGINT")?;
    let mut usr1 = signal(SignalKind::user_defined1()).context("cannot watch for SIGUSR1")?;
    let draining = shutdown.clone();
    tokio::spawn(async move {
        if usr1.recv().await.is_some() {
            tracing::info!("draining: no new connection; stopping as the last one leaves");
            draining.drain();
        }
    });
    let mut too_big = signal(SignalKind::from_raw(signal_hook::consts::SIGXFSZ))
        .context("cannot watch for SIGXFSZ")?;
    tokio::spawn(async move {
        while too_big.recv().await.is_some() {
            tracing::debug!("a write went past the file-size limit");
        }
    });
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
