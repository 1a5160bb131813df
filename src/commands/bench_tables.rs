//! `crowned bench tables`: a server on this machine under many games between people at once, with watchers;
//! then the server is stopped and its records checked: every game that ended is there, and replays to the
//! result its players saw.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crowned::game::pdn::check_games;
use crowned::lab::load::quantile;
use crowned::lab::load_tables::{TableLoadConfig, TableLoadReport, run_table_load};
use crowned::serve::records::{Records as _, SqliteRecords};

use super::bench_serve::{Server, Usage, first_failure};

/// `crowned bench tables`' options: the games, their watchers and their pace.
#[derive(clap::Args, Debug)]
pub struct BenchTablesArgs {
    /// Games at once (two players each).
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=2_000))]
    games: u64,
    /// Watchers, one to a game.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=2_000))]
    watchers: u64,
    /// One game in this many has a 5+3 clock (0: none).
    #[arg(long, default_value_t = 3)]
    clock_every: u64,
    /// Plies at most per game; a game still going then ends by resignation.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    plies: u64,
    /// Milliseconds a player pauses before each move (each a little more or less).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    think: u64,
}

/// `crowned bench tables`.
pub fn run(args: &BenchTablesArgs) -> Result<()> {
    bench_tables(&TablesArgs {
        games: args.games as usize,
        watchers: args.watchers as usize,
        clock_every: args.clock_every as usize,
        plies: args.plies as usize,
        think_ms: args.think,
    })
}

/// What the command line asks of the load, in the units the load counts in.
#[derive(Debug)]
struct TablesArgs {
    /// Games at once.
    games: usize,
    /// Watchers, one to a game.
    watchers: usize,
    /// One game in this many has a clock.
    clock_every: usize,
    /// Plies at most per game.
    plies: usize,
    /// Milliseconds a player pauses before each move.
    think_ms: u64,
}

/// Starts `crowned serve` on a loopback port of its own (in a scratch folder), plays the games, stops the
/// server, checks its records and reports.
fn bench_tables(args: &TablesArgs) -> Result<()> {
    let home = std::env::temp_dir().join(format!("crowned-bench-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let connections = args.games * 2 + args.watchers.min(args.games);
    let mut server = Server::start(&home, connections)?;
    let result = measure(&mut server, &home, args);
    server.stop();
    let _ = std::fs::remove_dir_all(&home);
    result
}

fn measure(server: &mut Server, home: &Path, args: &TablesArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the load's threads")?;
    let config = TableLoadConfig {
        address: server.address,
        host_key: server.fingerprint.clone(),
        games: args.games,
        watchers: args.watchers,
        clock_every: args.clock_every,
        plies: args.plies,
        think: Duration::from_millis(args.think_ms),
        patience: Duration::from_secs(120),
    };
    let before = server.settled_usage()?;
    let started = Instant::now();
    let (report, peak_kb) = runtime.block_on(async {
        let load = tokio::spawn(run_table_load(config));
        // The server's memory, sampled while the games go on.
        let mut peak_kb = before.rss_kb;
        while !load.is_finished() {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if let Ok(usage) = server.usage() {
                peak_kb = peak_kb.max(usage.rss_kb);
            }
        }
        (load.await, peak_kb)
    });
    let wall = started.elapsed();
    let after = server.usage()?;
    let report: TableLoadReport = report.context("the load failed")?;
    stop_gently(server)?;
    print_load(args, &report, before, after, peak_kb, wall);
    check_records(home, &report)?;
    if report.finished == 0 {
        bail!(
            "no game got through: {}",
            report.failed.first().map_or("", String::as_str)
        );
    }
    Ok(())
}

/// Stops the server as an operator would (SIGTERM) and waits for it: it writes what it holds and exits.
fn stop_gently(server: &mut Server) -> Result<()> {
    let pid = server.child.id().to_string();
    let status = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .context("cannot run kill")?;
    if !status.success() {
        bail!("kill -TERM {pid} failed");
    }
    server.child.wait().context("the server did not stop")?;
    Ok(())
}

fn print_load(
    args: &TablesArgs,
    report: &TableLoadReport,
    before: Usage,
    after: Usage,
    peak_kb: u64,
    wall: Duration,
) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "games: {} asked, {} finished, {} failed{}",
        args.games,
        report.finished,
        report.failed.len(),
        first_failure(&report.failed)
    );
    println!(
        "players: {} at once, {} watchers; one game in {} with a 5+3 clock; up to {} plies, {} ms to think",
        args.games * 2,
        args.watchers.min(args.games),
        args.clock_every,
        args.plies,
        args.think_ms
    );
    for (what, values) in [
        ("move to the opponent's screen", &report.to_opponent),
        ("move to a watcher's screen", &report.to_watchers),
    ] {
        println!(
            "{what} ({} moves): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            values.len(),
            ms(quantile(values, 0.5)),
            ms(quantile(values, 0.99)),
            ms(quantile(values, 1.0))
        );
    }
    let cpu = after.cpu_seconds - before.cpu_seconds;
    println!(
        "server CPU: {cpu:.1} s in {:.1} s ({:.0}% of one core); memory {:.1} MB before, {:.1} MB at most \
         ({:.2} MB per connection)",
        wall.as_secs_f64(),
        100.0 * cpu / wall.as_secs_f64().max(1e-9),
        before.rss_kb as f64 / 1024.0,
        peak_kb as f64 / 1024.0,
        peak_kb.saturating_sub(before.rss_kb) as f64
            / 1024.0
            / (args.games * 2 + args.watchers.min(args.games)).max(1) as f64
    );
}

/// Every game the players finished is in the records with the result they saw, and replays.
fn check_records(home: &Path, report: &TableLoadReport) -> Result<()> {
    let file = home.join("data/server/records.sqlite");
    let size: u64 = ["", "-wal"]
        .iter()
        .filter_map(|suffix| std::fs::metadata(format!("{}{suffix}", file.display())).ok())
        .map(|m| m.len())
        .sum();
    let mut records = SqliteRecords::open(&file).context("cannot open the records")?;
    let kept = records
        .finished_games()
        .context("cannot read the records")?;
    let mut by_table: HashMap<String, (String, String)> = HashMap::new();
    for (result, pdn) in kept {
        let site = pdn
            .lines()
            .find_map(|l| l.strip_prefix("[Site \"table "))
            .and_then(|rest| rest.strip_suffix("\"]"))
            .unwrap_or_default()
            .to_string();
        by_table.insert(site, (result, pdn));
    }
    let mut lost = Vec::new();
    for (code, result) in &report.results {
        match by_table.get(code) {
            None => lost.push(format!("{code}: not in the records")),
            Some((kept, _)) if kept != result => {
                lost.push(format!("{code}: recorded {kept}, played {result}"))
            }
            Some((_, pdn)) => {
                if let Some(problem) = check_games(pdn).into_iter().find_map(|c| c.problem) {
                    lost.push(format!("{code}: its PDN does not replay: {problem}"));
                }
            }
        }
    }
    println!(
        "records: {} games kept, {} KB ({:.1} MB per 1,000 games); {} of {} finished games missing or wrong",
        by_table.len(),
        size / 1024,
        size as f64 / 1_048_576.0 * 1000.0 / by_table.len().max(1) as f64,
        lost.len(),
        report.results.len()
    );
    if let Some(first) = lost.first() {
        bail!("the records lost games: {first}");
    }
    Ok(())
}
