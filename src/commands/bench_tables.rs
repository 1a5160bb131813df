//! `crowned bench tables`: a server on this machine under many games between people at once, with watchers;
//! then the server is stopped and its records checked: every game that ended is there once, and replays to the
//! result its players saw. With `--nodes N`, the same load on one node with its embedded records, then on N
//! nodes of one server on a PostgreSQL database, each game's players at two different nodes.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crowned::game::pdn::check_games;
use crowned::serve::records::{PostgresRecords, PostgresUrl, Records, SqliteRecords};
use crowned::server_lab::load::quantile;
use crowned::server_lab::load_tables::{
    TableLoadConfig, TableLoadReport, TableServer, run_table_load,
};
use crowned::server_lab::local_postgres::{Durability, LocalPostgres};

use super::bench_serve::{Server, Usage, first_failure};

/// `crowned bench tables`' options: the games, their watchers and their pace, and the nodes.
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
    /// Nodes of one server on one PostgreSQL database (a server of the bench's own, on this machine, syncing
    /// every commit as the embedded records do), each game's two players at different nodes. With 2 or more,
    /// the same load on one node with the embedded records is measured first, in the same run.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=8))]
    nodes: u64,
}

/// `crowned bench tables`.
pub fn run(args: &BenchTablesArgs) -> Result<()> {
    let load = TablesArgs {
        games: args.games as usize,
        watchers: args.watchers as usize,
        clock_every: args.clock_every as usize,
        plies: args.plies as usize,
        think_ms: args.think,
    };
    if args.nodes == 1 {
        bench_tables(&load, &Backend::Embedded).map(|_| ())
    } else {
        println!("== one node, embedded records (SQLite) ==");
        let alone = bench_tables(&load, &Backend::Embedded)?;
        println!();
        println!(
            "== {} nodes, one PostgreSQL (on this machine, syncing every commit) ==",
            args.nodes
        );
        let postgres = LocalPostgres::start_with(Durability::Durable)
            .context("cannot start a PostgreSQL server for the nodes")?;
        let url = postgres
            .fresh_database("bench_tables")
            .context("cannot make the nodes' database")?;
        let nodes = bench_tables(
            &load,
            &Backend::Nodes {
                url,
                nodes: args.nodes as usize,
            },
        )?;
        println!();
        compare(&alone, &nodes, args.nodes);
        Ok(())
    }
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

/// Where the servers under load keep their records.
enum Backend {
    /// One server, its records embedded in its data folder.
    Embedded,
    /// `nodes` servers, one server to the players, on the PostgreSQL database at `url`.
    Nodes { url: String, nodes: usize },
}

/// The figures of one run that the comparison of two runs needs.
struct Measured {
    report: TableLoadReport,
    cpu_seconds: f64,
}

/// Starts the servers (`crowned serve`, each on a loopback port of its own, in a scratch folder of its own),
/// plays the games, stops the servers, checks their records and reports.
fn bench_tables(args: &TablesArgs, backend: &Backend) -> Result<Measured> {
    let count = match backend {
        Backend::Embedded => 1,
        Backend::Nodes { nodes, .. } => *nodes,
    };
    let base = std::env::temp_dir().join(format!("crowned-bench-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let connections = args.games * 2 + args.watchers.min(args.games);
    let mut servers = Vec::with_capacity(count);
    for n in 1..=count {
        let home = base.join(format!("node{n}"));
        let name = format!("n{n}");
        let extra: Vec<&str> = match backend {
            Backend::Embedded => Vec::new(),
            Backend::Nodes { url, .. } => vec!["--records", url, "--node-name", &name],
        };
        // Every node may hold every connection: the load spreads them, but a node does not know that.
        match Server::start_with(&home, connections, &extra) {
            Ok(server) => servers.push(server),
            Err(e) => {
                servers.iter_mut().for_each(Server::stop);
                let _ = std::fs::remove_dir_all(&base);
                return Err(e);
            }
        }
    }
    let result = measure(&mut servers, &base, backend, args);
    servers.iter_mut().for_each(Server::stop);
    let _ = std::fs::remove_dir_all(&base);
    result
}

fn measure(
    servers: &mut [Server],
    base: &Path,
    backend: &Backend,
    args: &TablesArgs,
) -> Result<Measured> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the load's threads")?;
    let config = TableLoadConfig {
        servers: servers
            .iter()
            .map(|s| TableServer {
                address: s.address,
                host_key: s.fingerprint.clone(),
            })
            .collect(),
        games: args.games,
        watchers: args.watchers,
        clock_every: args.clock_every,
        plies: args.plies,
        think: Duration::from_millis(args.think_ms),
        patience: Duration::from_secs(120),
    };
    let before = total(servers.iter().map(Server::settled_usage))?;
    let size_before = records_size(base, backend)?;
    let started = Instant::now();
    let (report, peak_kb) = runtime.block_on(async {
        let load = tokio::spawn(run_table_load(config));
        // The servers' memory, sampled while the games go on.
        let mut peak_kb = before.rss_kb;
        while !load.is_finished() {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if let Ok(usage) = total(servers.iter().map(Server::usage)) {
                peak_kb = peak_kb.max(usage.rss_kb);
            }
        }
        (load.await, peak_kb)
    });
    let wall = started.elapsed();
    let after = total(servers.iter().map(Server::usage))?;
    let report: TableLoadReport = report.context("the load failed")?;
    for server in servers.iter_mut() {
        stop_gently(server)?;
    }
    print_load(args, &report, before, after, peak_kb, wall, servers.len());
    let grown = records_size(base, backend)?.saturating_sub(size_before);
    match backend {
        Backend::Embedded => {
            let file = base.join("node1").join(EMBEDDED_RECORDS);
            let mut kept = SqliteRecords::open(&file).context("cannot open the records")?;
            check_records(&mut kept, grown, &report)?;
        }
        Backend::Nodes { url, .. } => {
            let parsed: PostgresUrl = url.parse().context("the database's URL")?;
            let mut kept = PostgresRecords::connect(&parsed).context("cannot open the records")?;
            check_records(&mut kept, grown, &report)?;
        }
    }
    if report.finished == 0 {
        bail!(
            "no game got through: {}",
            report.failed.first().map_or("", String::as_str)
        );
    }
    Ok(Measured {
        report,
        cpu_seconds: after.cpu_seconds - before.cpu_seconds,
    })
}

/// The servers' usage added up (memory and processor time are both sums over processes).
fn total(usages: impl Iterator<Item = Result<Usage>>) -> Result<Usage> {
    let mut sum = Usage {
        rss_kb: 0,
        cpu_seconds: 0.0,
    };
    for usage in usages {
        let usage = usage?;
        sum.rss_kb += usage.rss_kb;
        sum.cpu_seconds += usage.cpu_seconds;
    }
    Ok(sum)
}

/// Where a server keeps its embedded records, under its home.
pub(super) const EMBEDDED_RECORDS: &str = "data/server/records.sqlite";

/// The records' size on the disk, in bytes: the embedded file and its log, or the nodes' database.
fn records_size(base: &Path, backend: &Backend) -> Result<u64> {
    match backend {
        Backend::Embedded => {
            let file = base.join("node1").join(EMBEDDED_RECORDS);
            Ok(["", "-wal"]
                .iter()
                .filter_map(|suffix| std::fs::metadata(format!("{}{suffix}", file.display())).ok())
                .map(|m| m.len())
                .sum())
        }
        Backend::Nodes { url, .. } => database_size(url),
    }
}

/// The size of the database at `url` on the disk, in bytes.
fn database_size(url: &str) -> Result<u64> {
    let mut client = postgres::Client::connect(url, postgres::NoTls)
        .context("cannot reach the nodes' database")?;
    let row = client
        .query_one("SELECT pg_database_size(current_database())", &[])
        .context("cannot read the database's size")?;
    Ok(u64::try_from(row.get::<_, i64>(0)).unwrap_or(0))
}

/// The two runs side by side: what spreading the games over nodes costs a move on its way.
fn compare(alone: &Measured, nodes: &Measured, count: u64) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("== {count} nodes against one node, same load, same run ==");
    for (what, one, many) in [
        (
            "move to the opponent's screen",
            &alone.report.to_opponent,
            &nodes.report.to_opponent,
        ),
        (
            "move to a watcher's screen",
            &alone.report.to_watchers,
            &nodes.report.to_watchers,
        ),
    ] {
        let (p50a, p50n) = (ms(quantile(one, 0.5)), ms(quantile(many, 0.5)));
        let (p99a, p99n) = (ms(quantile(one, 0.99)), ms(quantile(many, 0.99)));
        println!(
            "{what}: p50 {p50a:.1} ms -> {p50n:.1} ms ({:.2}x), p99 {p99a:.1} ms -> {p99n:.1} ms ({:.2}x)",
            p50n / p50a.max(1e-9),
            p99n / p99a.max(1e-9)
        );
    }
    println!(
        "servers' CPU: {:.1} s -> {:.1} s ({:.2}x; PostgreSQL's own processes not counted)",
        alone.cpu_seconds,
        nodes.cpu_seconds,
        nodes.cpu_seconds / alone.cpu_seconds.max(1e-9)
    );
}

/// Stops the server as an operator would (SIGTERM) and waits for it: it writes what it holds and exits.
pub(super) fn stop_gently(server: &mut Server) -> Result<()> {
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
    nodes: usize,
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
        "{}CPU: {cpu:.1} s in {:.1} s ({:.0}% of one core); memory {:.1} MB before, {:.1} MB at most \
         ({:.2} MB per connection)",
        match nodes {
            1 => "server ".to_string(),
            n => format!("{n} nodes' "),
        },
        wall.as_secs_f64(),
        100.0 * cpu / wall.as_secs_f64().max(1e-9),
        before.rss_kb as f64 / 1024.0,
        peak_kb as f64 / 1024.0,
        peak_kb.saturating_sub(before.rss_kb) as f64
            / 1024.0
            / (args.games * 2 + args.watchers.min(args.games)).max(1) as f64
    );
}

/// Every game the players finished is in the records once, with the result they saw, and replays.
/// The code of the table a game of the server's records was played at, from its `Site` tag (`table K7QX`);
/// empty when it has none.
pub(super) fn table_of(pdn: &str) -> String {
    pdn.lines()
        .find_map(|l| l.strip_prefix("[Site \"table "))
        .and_then(|rest| rest.strip_suffix("\"]"))
        .unwrap_or_default()
        .to_string()
}

fn check_records(records: &mut dyn Records, size: u64, report: &TableLoadReport) -> Result<()> {
    let kept = records
        .finished_games()
        .context("cannot read the records")?;
    let mut by_table: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for (result, pdn) in kept {
        by_table
            .entry(table_of(&pdn))
            .or_default()
            .push((result, pdn));
    }
    let mut lost = Vec::new();
    for (code, result) in &report.results {
        match by_table.get(code).map(Vec::as_slice) {
            None | Some([]) => lost.push(format!("{code}: not in the records")),
            Some([(kept, pdn)]) => {
                if kept != result {
                    lost.push(format!("{code}: recorded {kept}, played {result}"));
                } else if let Some(problem) = check_games(pdn).into_iter().find_map(|c| c.problem) {
                    lost.push(format!("{code}: its PDN does not replay: {problem}"));
                }
            }
            Some(several) => lost.push(format!("{code}: recorded {} times", several.len())),
        }
    }
    let games: usize = by_table.values().map(Vec::len).sum();
    println!(
        "records: {games} games kept, {} KB grown ({:.1} MB per 1,000 games); {} of {} finished games \
         missing, wrong or recorded twice",
        size / 1024,
        size as f64 / 1_048_576.0 * 1000.0 / games.max(1) as f64,
        lost.len(),
        report.results.len()
    );
    if let Some(first) = lost.first() {
        bail!("the records lost games: {first}");
    }
    Ok(())
}
