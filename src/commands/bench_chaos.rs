//! `crowned bench chaos`: the real server under faults. Pairs of real SSH clients play random legal games on
//! `crowned serve` (one node, its records in SQLite) while a nemesis kills the server (kill -9) and starts it
//! again on the same folder, or makes its disk refuse every write for a while (as a full disk does), and
//! players connect a second time to their tables. Afterwards the records are
//! opened and every move each game's players saw is looked for in them: a move seen and not recorded, a game
//! whose record differs from what was seen, a game recorded twice or with another result, or a table showing a
//! game other than the one its players saw, is an anomaly, and the command fails.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crowned::lab::chaos::{ChaosConfig, ChaosGame, run_chaos_games};
use crowned::lab::load_tables::TableServer;
use crowned::serve::records::{Records, SqliteRecords};
use rand::{RngExt, SeedableRng};
use tokio::sync::watch;

use super::bench_serve::Server;
use super::bench_tables::{EMBEDDED_RECORDS, table_of};

/// `crowned bench chaos`' options: the games, the faults and their pace.
#[derive(clap::Args, Debug)]
pub struct BenchChaosArgs {
    /// Games at once (two players each).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=500))]
    games: u64,
    /// Plies at most per game (then the pair starts another, until the last kill).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    plies: u64,
    /// Milliseconds a player pauses before each move (each a little more or less).
    #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    think: u64,
    /// Times the server is killed (kill -9) and started again.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    kills: u64,
    /// Times the server's disk refuses every write for a while (as long as the pause between faults), in turn
    /// with the kills: its file-size limit is lowered to one byte with prlimit(1), so that each write that would
    /// grow a file fails as on a full disk.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    full_disks: u64,
    /// Milliseconds between faults (each a little more or less).
    #[arg(long, default_value_t = 1_500, value_parser = clap::value_parser!(u64).range(100..=600_000))]
    every: u64,
    /// Before one move in this many the player to move connects a second time (0: never).
    #[arg(long, default_value_t = 10)]
    double_every: u64,
    /// The seed of the moves, of the second connections and of the kills' timing.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The program to run as the server (another build of crowned, to compare); this one by default.
    #[arg(long)]
    server: Option<std::path::PathBuf>,
}

/// `crowned bench chaos`.
pub fn run(args: &BenchChaosArgs) -> Result<()> {
    let home = std::env::temp_dir().join(format!("crowned-bench-chaos-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let result = chaos(args, &home);
    let _ = std::fs::remove_dir_all(&home);
    result
}

fn chaos(args: &BenchChaosArgs, home: &std::path::Path) -> Result<()> {
    // Both players, a second connection of one, and the connections of the last server not noticed gone yet.
    let sessions = args.games as usize * 6;
    let program = match &args.server {
        Some(program) => program.clone(),
        None => std::env::current_exe().context("cannot find this program")?,
    };
    let start = || Server::start_program(&program, home, sessions, &[]);
    let mut server = start()?;
    let whereabouts = |server: &Server| TableServer {
        address: server.address,
        host_key: server.fingerprint.clone(),
    };
    let (place, places) = watch::channel(Some(whereabouts(&server)));
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
    // The nemesis: at random moments, kill -9 and start the server again on the same folder, or make its disk
    // refuse writes for a while; the two kinds in a random order.
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    let (mut kills, mut full_disks) = (0, 0);
    // The players start game after game until the nemesis is done (a run without faults plays one round).
    if args.kills + args.full_disks == 0 {
        stop.send_replace(true);
    }
    while kills + full_disks < args.kills + args.full_disks && !games.is_finished() {
        let pause = Duration::from_millis(args.every).mul_f64(rng.random_range(0.5..1.5));
        std::thread::sleep(pause);
        if games.is_finished() {
            break;
        }
        let left = [args.kills - kills, args.full_disks - full_disks];
        if rng.random_range(0..left[0] + left[1]) < left[1] {
            full_disks += 1;
            refuse_writes(&server, true)?;
            std::thread::sleep(pause);
            refuse_writes(&server, false)?;
            continue;
        }
        place.send_replace(None);
        server.stop();
        kills += 1;
        server = start()
            .with_context(|| format!("the server did not start again after kill {kills}"))?;
        place.send_replace(Some(whereabouts(&server)));
    }
    // The games under way stop at their next move.
    stop.send_replace(true);
    let games: Vec<ChaosGame> = runtime.block_on(games).context("the players failed")?;
    let wall = started.elapsed();
    // The last fault: the server dies as the games end.
    server.stop();
    let file = home.join(EMBEDDED_RECORDS);
    let mut records = SqliteRecords::open(&file).context("cannot open the records")?;
    let anomalies = check(&mut records, &games)?;
    let sum = |f: fn(&ChaosGame) -> usize| games.iter().map(f).sum::<usize>();
    let doubles = sum(|g| g.doubles);
    let failed: Vec<&String> = games.iter().filter_map(|g| g.failed.as_ref()).collect();
    println!(
        "games: {} ({} ended by the rules, {} stopped by a failure of the load), {} moves seen, in {:.1} s",
        games.len(),
        games.iter().filter(|g| g.result.is_some()).count(),
        failed.len(),
        sum(|g| g.seen.len()),
        wall.as_secs_f64()
    );
    println!(
        "faults: {} ({kills} kills -9 of the server, {full_disks} full disks, {doubles} second connections to a \
         table); {} moves refused as unsaved; the players came back {} times",
        (kills + full_disks) as usize + doubles,
        sum(|g| g.refused),
        sum(|g| g.comebacks)
    );
    let mut kinds: HashMap<&str, usize> = HashMap::new();
    for (kind, _) in &anomalies {
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
    if let Some((kind, what)) = anomalies.first() {
        bail!("{kind}: {what}");
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
fn check(records: &mut SqliteRecords, games: &[ChaosGame]) -> Result<Vec<(&'static str, String)>> {
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
        let (recorded, result) = match (unfinished, finished.get(code).map(Vec::as_slice)) {
            (Some(_), Some(_)) => {
                anomalies.push(("split games", format!("{code}: both in play and ended")));
                continue;
            }
            (Some(record), None) => (record.moves, None),
            (None, Some([(result, moves)])) => (moves.clone(), Some(result.clone())),
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
