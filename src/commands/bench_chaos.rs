//! `crowned bench chaos`: the real server under faults. Pairs of real SSH clients play random legal games on
//! `crowned serve` (one node with its records in SQLite, or `--nodes N` nodes of one server on a PostgreSQL
//! database of their own, each game's players at two different nodes) while a nemesis kills a node (kill -9)
//! and starts it again on the same folder, makes its disk refuse every write for a while (as a full disk does),
//! stops it (SIGSTOP) past its lease term and lets it go on, or stops the database for a while; and players
//! connect a second time to their tables, and come back after a fault at any node that is up. Afterwards the
//! records are opened and every move each game's players saw is looked for in them: a move seen and not
//! recorded, a game whose record differs from what was seen, a game recorded twice or with another result, or a
//! table showing a game other than the one its players saw, is an anomaly, and the command fails.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crowned::serve::records::{PostgresRecords, PostgresUrl, Records, SqliteRecords};
use crowned::server_lab::chaos::{ChaosConfig, ChaosGame, run_chaos_games};
use crowned::server_lab::chaos_waits::{SLOW, waits_by_fault};
use crowned::server_lab::load::quantile;
use crowned::server_lab::load_tables::TableServer;
use crowned::server_lab::local_postgres::{Durability, LocalPostgres};
use crowned::server_lab::scrape::scrape;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tokio::sync::watch;

use super::bench_serve::Server;
use super::bench_tables::{EMBEDDED_RECORDS, stop_gently, table_of};

/// `crowned bench chaos`' options: the games, the nodes, the faults and their pace.
#[derive(clap::Args, Debug)]
pub struct BenchChaosArgs {
    /// Games at once (two players each).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=500))]
    games: u64,
    /// Plies at most per game (then the pair starts another, until the last fault).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    plies: u64,
    /// Milliseconds a player pauses before each move (each a little more or less).
    #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    think: u64,
    /// Nodes of the server: 1 keeps its records in SQLite; 2 or more share a PostgreSQL database (a server of
    /// this run's own on loopback, syncing every commit), each game's players at two different nodes.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=8))]
    nodes: u64,
    /// Seconds a node's tables stay with it without its heartbeat, with 2 or more nodes (`serve --lease-term`).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(2..=600))]
    lease_term: u64,
    /// Times a node is killed (kill -9) and started again.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    kills: u64,
    /// Times a node's disk refuses every write for a while (as long as the pause between faults): its
    /// file-size limit is lowered to one byte with prlimit(1), so that each write that would grow a file fails
    /// as on a full disk.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    full_disks: u64,
    /// Times a node is stopped (SIGSTOP) for a second or two past its lease term and then let go on (SIGCONT),
    /// as a paused virtual machine or a long stall is: meanwhile another node may take its games over.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    stalls: u64,
    /// Times the database is stopped at once (as a crash of its server) for a while (as long as the pause
    /// between faults) and started again, with 2 or more nodes.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    outages: u64,
    /// Times a node is upgraded in place, the nodes in turn, as a rolling upgrade does it: drained (SIGUSR1, its
    /// tables handed to the other nodes and its new players sent elsewhere), stopped (SIGTERM) once its tables
    /// are gone, and started again on its folder; with 2 or more nodes.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    upgrades: u64,
    /// Milliseconds between faults (each a little more or less).
    #[arg(long, default_value_t = 1_500, value_parser = clap::value_parser!(u64).range(100..=600_000))]
    every: u64,
    /// Before one move in this many the player to move connects a second time (0: never).
    #[arg(long, default_value_t = 10)]
    double_every: u64,
    /// The seed of the moves, of the second connections and of the faults' kinds, nodes and timing.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The program to run as the server (another build of crowned, to compare); this one by default.
    #[arg(long)]
    server: Option<std::path::PathBuf>,
    /// The program a node runs once upgraded (`--upgrades`): the next version, so that the two versions serve
    /// side by side during the rolling upgrade, as they do for an operator. The nodes start on `--server`.
    #[arg(long)]
    upgrade_to: Option<std::path::PathBuf>,
}

/// The kinds of fault, in the order the report names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    Kill,
    FullDisk,
    Stall,
    Outage,
    Upgrade,
}

const FAULTS: [Fault; 5] = [
    Fault::Kill,
    Fault::FullDisk,
    Fault::Stall,
    Fault::Outage,
    Fault::Upgrade,
];

impl Fault {
    fn wanted(self, args: &BenchChaosArgs) -> u64 {
        match self {
            Fault::Kill => args.kills,
            Fault::FullDisk => args.full_disks,
            Fault::Stall => args.stalls,
            Fault::Outage => args.outages,
            Fault::Upgrade => args.upgrades,
        }
    }

    /// The fault's name in the report, in the plural.
    fn plural(self) -> &'static str {
        match self {
            Fault::Kill => "kills",
            Fault::FullDisk => "full disks",
            Fault::Stall => "stalls",
            Fault::Outage => "outages",
            Fault::Upgrade => "upgrades",
        }
    }
}

/// `crowned bench chaos`.
pub fn run(args: &BenchChaosArgs) -> Result<()> {
    if args.nodes == 1 && args.outages > 0 {
        bail!("--outages stops the nodes' database: it needs --nodes 2 or more");
    }
    if args.upgrade_to.is_some() && args.upgrades == 0 {
        bail!("--upgrade-to is the program a node runs once upgraded: it needs --upgrades");
    }
    if args.nodes == 1 && args.upgrades > 0 {
        bail!("--upgrades hands a node's tables to the others: it needs --nodes 2 or more");
    }
    let home = std::env::temp_dir().join(format!("crowned-bench-chaos-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let result = chaos(args, &home);
    match &result {
        // The nodes' logs (each node's serve.log) stay for a look at what went wrong.
        Err(_) => {
            tell_logs(&home);
            eprintln!("the nodes' folders and logs are kept in {}", home.display());
        }
        Ok(()) => {
            let _ = std::fs::remove_dir_all(&home);
        }
    }
    result
}

/// The server's nodes, their database when they share one, and how to start a node again.
struct Nodes {
    /// The program each node runs (the next version's, once upgraded with `--upgrade-to`).
    programs: Vec<PathBuf>,
    /// The program a node runs once upgraded.
    upgraded: PathBuf,
    base: PathBuf,
    sessions: usize,
    lease_term: String,
    /// Whether each node opens the operator's listener (its metrics say when a drain has handed its tables over).
    metrics: bool,
    /// The database and its address, with 2 or more nodes.
    shared: Option<(LocalPostgres, String)>,
    nodes: Vec<Server>,
}

impl Nodes {
    fn start(args: &BenchChaosArgs, base: &Path) -> Result<Nodes> {
        let program = match &args.server {
            Some(program) => program.clone(),
            None => std::env::current_exe().context("cannot find this program")?,
        };
        let shared = match args.nodes {
            1 => None,
            _ => {
                let postgres = LocalPostgres::start_with(Durability::Durable)
                    .context("cannot start a PostgreSQL server for the nodes")?;
                let url = postgres
                    .fresh_database("chaos")
                    .context("cannot make the nodes' database")?;
                Some((postgres, url))
            }
        };
        let mut nodes = Nodes {
            programs: vec![program.clone(); args.nodes as usize],
            upgraded: args.upgrade_to.clone().unwrap_or(program),
            base: base.to_path_buf(),
            // Every game's players, a second connection of one, and the connections of a node not noticed
            // gone yet: any node may hold them all.
            sessions: args.games as usize * 6,
            lease_term: args.lease_term.to_string(),
            metrics: args.upgrades > 0,
            shared,
            nodes: Vec::new(),
        };
        for n in 0..args.nodes as usize {
            let node = nodes.start_node(n)?;
            nodes.nodes.push(node);
        }
        Ok(nodes)
    }

    /// Starts node `n` (again), on its own folder and, with several nodes, under its own name.
    fn start_node(&self, n: usize) -> Result<Server> {
        let name = format!("n{}", n + 1);
        let mut extra: Vec<&str> = match &self.shared {
            None => Vec::new(),
            Some((_, url)) => vec![
                "--records",
                url,
                "--node-name",
                &name,
                "--lease-term",
                &self.lease_term,
            ],
        };
        if self.metrics {
            extra.extend(["--metrics", "127.0.0.1:0"]);
        }
        let home = match self.shared {
            None => self.base.clone(),
            Some(_) => self.base.join(&name),
        };
        Server::start_program(&self.programs[n], &home, self.sessions, &extra)
            .with_context(|| format!("node {name} did not start"))
    }

    fn places(&self) -> Vec<Option<TableServer>> {
        self.nodes
            .iter()
            .map(|node| Some(whereabouts(node)))
            .collect()
    }

    /// The records the nodes kept.
    fn records(&self) -> Result<Box<dyn Records>> {
        Ok(match &self.shared {
            None => Box::new(
                SqliteRecords::open(&self.base.join(EMBEDDED_RECORDS))
                    .context("cannot open the records")?,
            ),
            Some((_, url)) => {
                let parsed: PostgresUrl = url.parse().context("the database's URL")?;
                Box::new(PostgresRecords::connect(&parsed).context("cannot open the records")?)
            }
        })
    }
}

fn whereabouts(server: &Server) -> TableServer {
    TableServer {
        address: server.address,
        host_key: server.fingerprint.clone(),
    }
}

fn chaos(args: &BenchChaosArgs, home: &Path) -> Result<()> {
    let mut nodes = Nodes::start(args, home)?;
    let (place, places) = watch::channel(nodes.places());
    let (stop, stopping) = watch::channel(false);
    let config = ChaosConfig {
        games: args.games as usize,
        plies: args.plies as usize,
        think: Duration::from_millis(args.think),
        patience: Duration::from_secs(20),
        double_every: args.double_every as usize,
        seed: args.seed,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the players' threads")?;
    let started = Instant::now();
    let games = runtime.spawn(run_chaos_games(config, places, stopping));
    // The nemesis: at random moments, one fault of a kind chosen at random among those still to come, at a node
    // chosen at random.
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut done = [0u64; FAULTS.len()];
    let mut struck = Vec::new();
    // How long each upgrade's drain took to hand the node's tables over.
    let mut handovers = Vec::new();
    let wanted: u64 = FAULTS.iter().map(|f| f.wanted(args)).sum();
    // The players start game after game until the nemesis is done (a run without faults plays one round).
    if wanted == 0 {
        stop.send_replace(true);
    }
    while done.iter().sum::<u64>() < wanted && !games.is_finished() {
        let pause = Duration::from_millis(args.every).mul_f64(rng.random_range(0.5..1.5));
        std::thread::sleep(pause);
        if games.is_finished() {
            break;
        }
        let left: Vec<u64> = FAULTS
            .iter()
            .zip(done)
            .map(|(f, d)| f.wanted(args) - d)
            .collect();
        let mut pick = rng.random_range(0..left.iter().sum::<u64>());
        let kind = FAULTS
            .iter()
            .zip(&left)
            .find(|(_, n)| {
                let here = pick < **n;
                pick = pick.saturating_sub(**n);
                here
            })
            .map_or(Fault::Kill, |(f, _)| *f);
        let n = rng.random_range(0..nodes.nodes.len());
        // An upgrade goes through the nodes in turn, as an operator's does.
        let n = match kind {
            Fault::Upgrade => done[4] as usize % nodes.nodes.len(),
            _ => n,
        };
        struck.push((Instant::now(), kind.plural()));
        let lease_term = Duration::from_secs(args.lease_term);
        if let Some(handed) = strike(kind, n, &mut nodes, &place, pause, lease_term, &mut rng)? {
            handovers.push(handed);
        }
        if let Some(i) = FAULTS.iter().position(|f| *f == kind) {
            done[i] += 1;
        }
    }
    // The games under way stop at their next move.
    stop.send_replace(true);
    let games: Vec<ChaosGame> = runtime.block_on(games).context("the players failed")?;
    let wall = started.elapsed();
    // The last fault: the nodes die as the games end.
    nodes.nodes.iter_mut().for_each(Server::stop);
    let mut records = nodes.records()?;
    let anomalies = check(records.as_mut(), &games)?;
    let failed = report(args, &games, done, &anomalies, (started, &struck), wall);
    if !handovers.is_empty() {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let took: Vec<Duration> = handovers.iter().map(|h| h.took).collect();
        let tables: Vec<u64> = handovers.iter().map(|h| h.tables).collect();
        println!(
            "upgrades: a drained node's tables were handed over in p50 {:.0} ms, max {:.0} ms ({} drains of {} to \
             {} tables, {} not within the lease's term)",
            ms(quantile(&took, 0.5)),
            ms(quantile(&took, 1.0)),
            handovers.len(),
            tables.iter().min().unwrap_or(&0),
            tables.iter().max().unwrap_or(&0),
            handovers.iter().filter(|h| !h.in_time).count()
        );
    }
    for (kind, what) in anomalies.iter().take(SHOWN) {
        println!("  {kind}: {what}");
    }
    if let Some((kind, what)) = anomalies.first() {
        bail!("{kind}: {what}");
    }
    // A player who could not play on is the server's failure to come back in time (or the load's own): either
    // way the run says so, and keeps the nodes' logs.
    if let Some(first) = failed.first() {
        bail!("the load failed: {first}");
    }
    Ok(())
}

/// One fault of `kind` at node `n`: a kill (and a new start), a full disk or a database outage for `pause`, a
/// stall past `lease_term` (by a random part of it, drawn from `rng` only for a stall, so that a seed makes the
/// same run), or an upgrade in place; for an upgrade, how long its drain took to hand the node's tables over.
fn strike(
    kind: Fault,
    n: usize,
    nodes: &mut Nodes,
    place: &watch::Sender<Vec<Option<TableServer>>>,
    pause: Duration,
    lease_term: Duration,
    rng: &mut StdRng,
) -> Result<Option<Handover>> {
    match kind {
        Fault::Kill => {
            place.send_modify(|places| places[n] = None);
            nodes.nodes[n].stop();
            nodes.nodes[n] = nodes
                .start_node(n)
                .context("a node did not start again after a kill")?;
            place.send_modify(|places| places[n] = Some(whereabouts(&nodes.nodes[n])));
        }
        Fault::FullDisk => {
            refuse_writes(&nodes.nodes[n], true)?;
            std::thread::sleep(pause);
            refuse_writes(&nodes.nodes[n], false)?;
        }
        Fault::Stall => {
            let stall = lease_term.mul_f64(rng.random_range(1.2..2.0));
            signal(&nodes.nodes[n], libc::SIGSTOP)?;
            std::thread::sleep(stall);
            signal(&nodes.nodes[n], libc::SIGCONT)?;
        }
        Fault::Outage => {
            let Some((postgres, _)) = &nodes.shared else {
                bail!("an outage needs the nodes' database");
            };
            postgres.crash().context("cannot stop the database")?;
            std::thread::sleep(pause);
            postgres
                .start_again()
                .context("cannot start the database again")?;
        }
        Fault::Upgrade => {
            // No new player goes to it; those on it play on through the relay until it stops.
            place.send_modify(|places| places[n] = None);
            let tables = tables_at(&nodes.nodes[n]);
            let started = Instant::now();
            signal(&nodes.nodes[n], libc::SIGUSR1)?;
            let in_time = handed_over(&nodes.nodes[n], lease_term)?;
            let handed = Handover {
                took: started.elapsed(),
                tables,
                in_time,
            };
            stop_gently(&mut nodes.nodes[n])?;
            nodes.programs[n] = nodes.upgraded.clone();
            nodes.nodes[n] = nodes
                .start_node(n)
                .context("a node did not start again after its upgrade")?;
            place.send_modify(|places| places[n] = Some(whereabouts(&nodes.nodes[n])));
            return Ok(Some(handed));
        }
    }
    Ok(None)
}

/// An upgrade's drain: how long the node took to hand its tables over, and whether it did within the lease's
/// term (else it was stopped anyway, its tables taken over once their leases lapsed).
#[derive(Clone, Copy, Debug)]
struct Handover {
    took: Duration,
    /// The tables the node ran as it was told to drain.
    tables: u64,
    in_time: bool,
}

/// The tables `node` runs now, as its metrics say (0 when they do not answer).
fn tables_at(node: &Server) -> u64 {
    let counted = node
        .metrics
        .and_then(|metrics| scrape(metrics, Duration::from_secs(2)).ok());
    counted
        .and_then(|c| c.value("crowned_tables"))
        .map_or(0, |tables| tables as u64)
}

/// Waits for a draining node to have handed its tables over, as its metrics say: draining (not ready), no table
/// left here and none waiting for its lease to be handed. At most `patience`, after which it is stopped anyway
/// and its tables are taken over once their leases lapse: whether it did in time.
fn handed_over(node: &Server, patience: Duration) -> Result<bool> {
    let started = Instant::now();
    let metrics = node.metrics.context("the node did not open its metrics")?;
    loop {
        let counted = scrape(metrics, Duration::from_secs(2)).ok();
        let value = |series: &str| counted.as_ref().and_then(|c| c.value(series));
        let done = ["crowned_ready", "crowned_tables", "crowned_handing_over"]
            .iter()
            .all(|series| value(series) == Some(0.0));
        if done {
            return Ok(true);
        }
        if started.elapsed() >= patience {
            return Ok(false);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Prints the run's figures: the games, the faults, the anomalies by kind, and the slow moves by the fault
/// before them. Returns the load's failures.
fn report<'a>(
    args: &BenchChaosArgs,
    games: &'a [ChaosGame],
    done: [u64; FAULTS.len()],
    anomalies: &[(&str, String)],
    (began, struck): (Instant, &[(Instant, &'static str)]),
    wall: Duration,
) -> Vec<&'a String> {
    let sum = |f: fn(&ChaosGame) -> usize| games.iter().map(f).sum::<usize>();
    let doubles = sum(|g| g.doubles);
    let failed: Vec<&String> = games.iter().filter_map(|g| g.failed.as_ref()).collect();
    println!(
        "games: {} ({} ended, by the rules or a resignation; {} stopped by a failure of the load), {} moves seen, in {:.1} s",
        games.len(),
        games.iter().filter(|g| g.result.is_some()).count(),
        failed.len(),
        sum(|g| g.seen.len()),
        wall.as_secs_f64()
    );
    let [kills, full_disks, stalls, outages, upgrades] = done;
    let server = match args.nodes {
        1 => "the server".to_string(),
        n => format!("a node of {n}"),
    };
    println!(
        "faults: {} ({kills} kills -9 of {server}, {full_disks} full disks, {stalls} stalls past the lease, \
         {outages} database outages, {upgrades} upgrades in place, {doubles} second connections to a table); {} \
         moves refused as unsaved; \
         the players came back {} times; {} tables went before their first move",
        done.iter().sum::<u64>() as usize + doubles,
        sum(|g| g.refused),
        sum(|g| g.comebacks),
        games.iter().filter(|g| g.vanished).count()
    );
    let mut kinds: HashMap<&str, usize> = HashMap::new();
    for (kind, _) in anomalies {
        *kinds.entry(kind).or_default() += 1;
    }
    let mut kinds: Vec<_> = kinds.into_iter().collect();
    kinds.sort();
    println!(
        "anomalies: {}{}",
        anomalies.len(),
        kinds
            .iter()
            .map(|(kind, n)| format!(", {n} {kind}"))
            .collect::<String>()
    );
    if let Some(first) = failed.first() {
        println!("first failure of the load: {first}");
    }
    let waits = waits_by_fault(began, struck, games.iter().flat_map(|g| &g.waits));
    if !waits.is_empty() {
        println!(
            "moves settled after more than {} s, by the last fault begun before:",
            SLOW.as_secs()
        );
        for line in waits {
            println!("  {line}");
        }
    }
    failed
}

/// Lines of each node's log told when a run fails, for a failure far away (a CI machine) to be read.
const LOG_TAIL: usize = 25;

/// Tells the last lines of each node's log under `home` (its own folder with several nodes).
fn tell_logs(home: &Path) {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(home)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .map(|dir| dir.join("serve.log"))
        .chain(std::iter::once(home.join("serve.log")))
        .filter(|log| log.is_file())
        .collect();
    logs.sort();
    for log in logs {
        let Ok(text) = std::fs::read_to_string(&log) else {
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        eprintln!("the last lines of {}:", log.display());
        for line in &lines[lines.len().saturating_sub(LOG_TAIL)..] {
            eprintln!("  {line}");
        }
    }
}

/// Anomalies told one by one at most (the count of each kind is told in any case).
const SHOWN: usize = 12;

/// Sends a node a signal (`SIGSTOP`, `SIGCONT`).
fn signal(server: &Server, which: libc::c_int) -> Result<()> {
    let pid = libc::pid_t::try_from(server.child.id()).context("a process number out of range")?;
    // SAFETY: kill(2) takes no memory of ours; the process is a child this program started and has not waited
    // for, so its number is still its own.
    if unsafe { libc::kill(pid, which) } != 0 {
        bail!(
            "cannot signal node {pid}: {}",
            std::io::Error::last_os_error()
        );
    }
    Ok(())
}

/// Makes the server's disk refuse every write that would grow a file (`refuse`), or take them again: its
/// file-size limit (RLIMIT_FSIZE) is set to one byte, or back to none, by prlimit(1) from util-linux. The server
/// catches SIGXFSZ, so that such a write fails with an error, as on a full disk, rather than kill it.
fn refuse_writes(server: &Server, refuse: bool) -> Result<()> {
    let limit = match refuse {
        true => "--fsize=1:",
        false => "--fsize=unlimited:",
    };
    let status = std::process::Command::new("prlimit")
        .arg("--pid")
        .arg(server.child.id().to_string())
        .arg(limit)
        .status()
        .context("cannot run prlimit (util-linux) to fill the server's disk")?;
    if !status.success() {
        bail!("prlimit {limit} failed: {status}");
    }
    Ok(())
}

/// Every game's record against what its players saw: the anomalies, each with its kind.
fn check(records: &mut dyn Records, games: &[ChaosGame]) -> Result<Vec<(&'static str, String)>> {
    let mut finished: HashMap<String, Vec<(String, Vec<String>)>> = HashMap::new();
    for (result, pdn) in records
        .finished_games()
        .context("cannot read the records")?
    {
        let site = table_of(&pdn);
        let moves = crowned::game::pdn::parse_games(&pdn)
            .into_iter()
            .next()
            .and_then(Result::ok)
            .map(|game| crowned::game::pdn::open_game(&game, None).0)
            .map(|game| {
                let notation = game.variant().notation();
                (1..=game.len())
                    .filter_map(|ply| game.move_text(ply, notation))
                    .collect()
            })
            .unwrap_or_default();
        finished.entry(site).or_default().push((result, moves));
    }
    let mut anomalies = Vec::new();
    for game in games.iter().filter(|g| !g.code.is_empty()) {
        anomalies.extend(
            game.anomalies
                .iter()
                .map(|a| ("tables showing another game", a.clone())),
        );
        let code = &game.code;
        let unfinished = records
            .unfinished_game(&code.as_str().into())
            .context("cannot read the records")?;
        // A code is free again once its game has ended, so the records may hold several ended games under
        // one code: this game's are those that begin with the moves its players saw.
        let theirs: Vec<(String, Vec<String>)> = finished
            .get(code)
            .into_iter()
            .flatten()
            .filter(|(_, moves)| moves.starts_with(&game.seen))
            .cloned()
            .collect();
        // A game of which nothing was seen and that is in play is not the ended one under its code.
        let in_play_unseen = game.seen.is_empty() && unfinished.is_some();
        let theirs = (!theirs.is_empty() && !in_play_unseen).then_some(theirs.as_slice());
        let (recorded, result) = match (unfinished, theirs) {
            (Some(_), _) | (_, Some(_)) if game.vanished => {
                anomalies.push((
                    "tables gone that the records hold",
                    format!("{code}: its players were taken elsewhere"),
                ));
                continue;
            }
            (Some(_), Some(_)) => {
                anomalies.push(("split games", format!("{code}: both in play and ended")));
                continue;
            }
            (Some(record), None) => (record.moves, None),
            (None, Some([(result, moves)])) => (moves.clone(), Some(result.clone())),
            // Ended games under a code used again that its players saw nothing of: not told apart.
            (None, Some(_)) if game.seen.is_empty() => continue,
            (None, Some(several)) => {
                anomalies.push((
                    "double results",
                    format!("{code}: ended {} times", several.len()),
                ));
                continue;
            }
            (None, None) if game.seen.is_empty() => continue,
            (None, None) => {
                anomalies.push(("moves seen and lost", format!("{code}: not in the records")));
                continue;
            }
        };
        if recorded.len() < game.seen.len() || recorded[..game.seen.len()] != game.seen[..] {
            anomalies.push((
                "moves seen and lost",
                format!("{code}: seen {:?}, recorded {:?}", game.seen, recorded),
            ));
        }
        if let (Some(seen), Some(kept)) = (&game.result, &result)
            && seen != kept
        {
            anomalies.push((
                "wrong results",
                format!("{code}: seen {seen}, recorded {kept}"),
            ));
        }
    }
    Ok(anomalies)
}
