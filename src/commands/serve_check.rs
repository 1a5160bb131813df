//! `crowned serve --check`: everything a server needs, checked without serving: the settings (with the command
//! line over them), the host key, the authorized keys, the records, the listeners, the web door's certificate
//! and the variants offered. One line each, `ok` or `FAILED` with the reason; the exit status says whether the
//! server would start. No host key is made, no records file is created, the ports are let go at once; records
//! in PostgreSQL are connected to as a node connects, which brings an older schema up to date.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use crowned::config::ServerSettings;
use crowned::serve::Offered;
use crowned::serve::records::PostgresRecords;
use crowned::serve::records::backup::check;
use crowned::ssh::{fingerprint, load_authorized_keys, load_or_create};
use crowned::store::Store;

/// One check's outcome: what was checked, and what was found or why it failed.
type Checked = (&'static str, Result<String>);

/// Checks what serving on `settings` needs, prints each check, and exits 0 when all pass, 1 otherwise.
pub fn run(settings: &ServerSettings) -> Result<ExitCode> {
    let store = Store::locate().context("no folder for the server's files")?;
    let checks: [Checked; 8] = [
        (
            "settings",
            match settings.contradiction() {
                Some(why) => Err(anyhow::anyhow!(why)),
                None => Ok("read".to_string()),
            },
        ),
        ("host key", host_key(settings, &store)),
        ("authorized keys", authorized(settings)),
        ("records", records(settings, &store)),
        ("SSH door", listener(settings.listen)),
        ("web door", web(settings)),
        (
            "metrics",
            match settings.metrics {
                Some(address) => listener(address),
                None => Ok("closed (server.metrics or --metrics opens it)".into()),
            },
        ),
        ("variants", variants(settings, &store)),
    ];
    let mut failed = 0;
    for (what, outcome) in checks.iter() {
        match outcome {
            Ok(found) => println!("ok      {what}: {found}"),
            Err(why) => {
                failed += 1;
                println!("FAILED  {what}: {why:#}");
            }
        }
    }
    Ok(match failed {
        0 => ExitCode::SUCCESS,
        _ => {
            eprintln!("crowned: {failed} check(s) failed: the server would not start as it is");
            ExitCode::from(1)
        }
    })
}

fn host_key(settings: &ServerSettings, store: &Store) -> Result<String> {
    let path = settings
        .host_key
        .clone()
        .unwrap_or_else(|| store.server_dir().join("host_key_ed25519"));
    if !path.exists() {
        return Ok(format!(
            "none yet at {}: one is made as the server first starts",
            path.display()
        ));
    }
    let (key, _) = load_or_create(&path)?;
    Ok(format!("{} ({})", fingerprint(&key), path.display()))
}

fn authorized(settings: &ServerSettings) -> Result<String> {
    match &settings.authorized_keys {
        None if settings.guests => Ok("every key, and guests without one".into()),
        None => Ok("every key".into()),
        Some(path) => {
            let keys = load_authorized_keys(path)?;
            Ok(format!("{} keys from {}", keys.len(), path.display()))
        }
    }
}

fn records(settings: &ServerSettings, store: &Store) -> Result<String> {
    if let Some(url) = &settings.records {
        // Connected as a node connects (its schema brought up to date as a node's start would).
        PostgresRecords::connect(url).with_context(|| format!("cannot open {url}"))?;
        return Ok(format!("PostgreSQL at {url}, reachable"));
    }
    let path = store.server_dir().join("records.sqlite");
    if !path.exists() {
        return Ok(format!(
            "none yet at {}: the file is made as the server first starts",
            path.display()
        ));
    }
    let figures = check(&path)?;
    Ok(format!(
        "SQLite at {}: schema version {}, {} players, {} games, passes SQLite's integrity check",
        path.display(),
        figures.version,
        figures.players,
        figures.games
    ))
}

/// Whether `address` can be listened on now (it is let go at once).
fn listener(address: std::net::SocketAddr) -> Result<String> {
    std::net::TcpListener::bind(address)
        .with_context(|| format!("cannot listen on {address} (is a server there already?)"))?;
    Ok(format!("{address} is free"))
}

fn web(settings: &ServerSettings) -> Result<String> {
    let Some(address) = settings.web else {
        return Ok("closed (server.web or --web opens it)".into());
    };
    let free = listener(address)?;
    let tls = match (&settings.web_cert, &settings.web_key) {
        (Some(cert), Some(key)) => {
            crowned::web::load_tls(cert, key)?;
            format!("TLS with {}", cert.display())
        }
        _ => "plain HTTP (behind a proxy for TLS)".into(),
    };
    Ok(format!("{free}; {tls}"))
}

fn variants(settings: &ServerSettings, store: &Store) -> Result<String> {
    let folder: &Path = &store.variants_dir();
    let (offered, problems) = Offered::load(Some(folder), &settings.variant_files);
    if let Some(problem) = problems.first() {
        anyhow::bail!(
            "{problem} ({} definition(s) would be left out)",
            problems.len()
        );
    }
    let names: Vec<String> = offered.all().iter().map(ToString::to_string).collect();
    Ok(format!("defined variants offered: {}", names.join(", ")))
}
