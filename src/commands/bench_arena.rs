//! `crowned bench arena`: a server on this machine running one arena for many players at once, each a real SSH
//! client that plays whatever the event pairs it for; then the server is stopped and its records checked: every
//! game of the event is there once with its tags and replays to its result, and the event's table is the
//! arena's scoring of those games.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use crowned::serve::TableCode;
use crowned::serve::records::{EventRecords, SqliteRecords};
use crowned::server_lab::arena_check::{ArenaChecked, check_arena};
use crowned::server_lab::load::quantile;
use crowned::server_lab::load_arena::{
    ArenaLoadConfig, ArenaLoadReport, MAX_PLIES, ask, run_arena_load,
};
use crowned::server_lab::scrape::{Scraped, scrape};

use super::bench_serve::{Server, Usage, first_failure};
use super::bench_tables::{EMBEDDED_RECORDS, stop_gently};

/// `crowned bench arena`'s options: the players, the event and the pace.
#[derive(clap::Args, Debug)]
pub struct BenchArenaArgs {
    /// Players who enter the arena.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(2..=1_000))]
    players: u64,
    /// The arena's length in seconds (it pairs for this long, then its games under way finish).
    #[arg(long, default_value_t = 180, value_parser = clap::value_parser!(u64).range(10..=3_600))]
    seconds: u64,
    /// Seconds from the arena's creation to its start, for the players to enter.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(3..=600))]
    start_in: u64,
    /// The games' clock (minutes + seconds added a move).
    #[arg(long, default_value = "1+1")]
    clock: String,
    /// Plies at most per game; a game still going then ends by resignation or an agreed draw.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=MAX_PLIES as u64))]
    plies: u64,
    /// One game in this many that reaches its last ply ends in a draw (0: none).
    #[arg(long, default_value_t = 4)]
    draw_every: u64,
    /// Milliseconds a player pauses before each move (each a little more or less).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    think: u64,
}

/// The event's name in the records and on the players' screens.
const NAME: &str = "Bench arena";

/// `crowned bench arena`: starts `crowned serve` on a loopback port of its own (in a scratch folder), creates the
/// arena, plays it, stops the server, checks its records and reports.
pub fn run(args: &BenchArenaArgs) -> Result<()> {
    if args.clock.split_whitespace().count() != 1 {
        bail!("--clock is one word, such as 1+1");
    }
    let home = std::env::temp_dir().join(format!("crowned-bench-arena-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let mut server = Server::start_with(
        &home,
        args.players as usize + 4,
        &["--metrics", "127.0.0.1:0"],
    )?;
    let result = measure(&mut server, &home, args);
    server.stop();
    let _ = std::fs::remove_dir_all(&home);
    result
}

/// Creates the arena, plays the load in it while the server is watched, then holds the server's records, its
/// metrics and its printed table against the games the players played.
fn measure(server: &mut Server, home: &std::path::Path, args: &BenchArenaArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the load's threads")?;
    let patience = Duration::from_secs(120);
    let (address, host_key) = (server.address, server.fingerprint.clone());
    let before = server.settled_usage()?;
    let config = runtime.block_on(create_arena(address, &host_key, args, patience))?;
    let code = config.event.clone();
    let metrics = server
        .metrics
        .context("the server did not say where its metrics are")?;
    let scraper = Scraper::start(metrics, patience);
    let started = Instant::now();
    let (report, peak_kb, shown) = runtime.block_on(async {
        let load = tokio::spawn(run_arena_load(config));
        // The server's memory, sampled while the event goes on.
        let mut peak_kb = before.rss_kb;
        while !load.is_finished() {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if let Ok(usage) = server.usage() {
                peak_kb = peak_kb.max(usage.rss_kb);
            }
        }
        let report = load.await;
        // The players are done; the event ends once its last games have (at once, if they all finished).
        let shown = final_table(address, &host_key, &code, patience).await;
        (report, peak_kb, shown)
    });
    let wall = started.elapsed();
    let after = server.usage()?;
    let report: ArenaLoadReport = report.context("the load failed")?;
    let shown = shown?;
    let scrape_times = scraper.stop();
    // The event is over: what the server counted, to hold against its records below.
    let counted = scrape(metrics, patience).context("cannot read the server's metrics")?;
    stop_gently(server)?;
    print_load(args, &report, before, after, peak_kb, wall);
    let checked = check_records(home, &code, &report, args)?;
    print_records(&checked);
    check_metrics(&counted, &checked, &scrape_times)?;
    check_printed_table(&shown, &checked, &code)?;
    check_turnout(&report, &checked, args)
}

/// Creates the arena as its organiser would (`tournament new arena ...`), starting `args.start_in` seconds
/// from now by the server's clock: the load's settings for it.
async fn create_arena(
    address: std::net::SocketAddr,
    host_key: &str,
    args: &BenchArenaArgs,
    patience: Duration,
) -> Result<ArenaLoadConfig> {
    // The server counts the start from its clock's second: so does the load.
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .context("the clock is before 1970")?;
    let starts = UNIX_EPOCH + Duration::from_secs(now.as_secs() + args.start_in);
    let words = format!(
        "tournament new arena seconds={} {} in-seconds={} name={NAME}",
        args.seconds, args.clock, args.start_in
    );
    let (said, status) = ask(address, host_key, "organiser", &words, patience)
        .await
        .context("cannot create the arena")?;
    if status != Some(0) {
        bail!("the server did not create the arena: {said}");
    }
    let code = said
        .split("tournament ")
        .nth(1)
        .map(|rest| rest.chars().take(4).collect::<String>())
        .context("no code in the server's answer")?;
    Ok(ArenaLoadConfig {
        address,
        host_key: host_key.to_string(),
        event: code,
        players: args.players as usize,
        starts,
        ends: starts + Duration::from_secs(args.seconds),
        plies: args.plies as usize,
        draw_every: args.draw_every as usize,
        think: Duration::from_millis(args.think),
        patience,
    })
}

/// The server's metrics scraped once a second while the event goes on, as Prometheus would: what a scrape
/// costs.
struct Scraper {
    scraping: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<Vec<Duration>>,
}

impl Scraper {
    fn start(metrics: std::net::SocketAddr, patience: Duration) -> Scraper {
        let scraping = Arc::new(AtomicBool::new(true));
        let thread = {
            let scraping = Arc::clone(&scraping);
            std::thread::spawn(move || {
                let mut took = Vec::new();
                while scraping.load(Ordering::Relaxed) {
                    if let Ok(scraped) = scrape(metrics, patience) {
                        took.push(scraped.took);
                    }
                    std::thread::sleep(Duration::from_secs(1));
                }
                took
            })
        };
        Scraper { scraping, thread }
    }

    /// Stops scraping: how long each scrape took.
    fn stop(self) -> Vec<Duration> {
        self.scraping.store(false, Ordering::Relaxed);
        self.thread.join().unwrap_or_default()
    }
}

/// The arena as the server's records keep it, checked against the games the players played (and its pairings a
/// minute printed).
fn check_records(
    home: &std::path::Path,
    code: &str,
    report: &ArenaLoadReport,
    args: &BenchArenaArgs,
) -> Result<ArenaChecked> {
    let file = home.join(EMBEDDED_RECORDS);
    let mut kept = SqliteRecords::open(&file).context("cannot open the records")?;
    let event = TableCode::new(code);
    let record = kept
        .event(&event)
        .context("cannot read the records")?
        .context("the arena is not in the records")?;
    let pdns = kept
        .event_games(&event)
        .context("cannot read the records")?;
    let checked = check_arena(&record, &pdns, &report.games);
    let pairings = record.pairings.len();
    println!(
        "pairings: {pairings} in {} s, {:.1} a minute",
        args.seconds,
        pairings as f64 * 60.0 / args.seconds as f64
    );
    checked.context("the records disagree with the games")
}

/// The table `tournament CODE` printed at the end is the scoring of the games the records hold.
fn check_printed_table(shown: &str, checked: &ArenaChecked, code: &str) -> Result<()> {
    let printed = printed_table(shown);
    if printed != checked.table {
        let first = printed
            .iter()
            .zip(&checked.table)
            .find(|(a, b)| a != b)
            .map_or_else(
                || format!("{} lines against {}", printed.len(), checked.table.len()),
                |(a, b)| format!("{a:?} against {b:?}"),
            );
        bail!("the table `tournament {code}` printed is not the games' scoring: {first}");
    }
    println!(
        "`tournament {code}` printed the same table ({} lines)",
        printed.len()
    );
    Ok(())
}

/// Every player entered, none failed, and games were played.
fn check_turnout(
    report: &ArenaLoadReport,
    checked: &ArenaChecked,
    args: &BenchArenaArgs,
) -> Result<()> {
    if report.joined < args.players as usize {
        bail!(
            "{} of {} players entered the arena",
            report.joined,
            args.players
        );
    }
    if !report.failed.is_empty() {
        bail!(
            "{} players failed{}",
            report.failed.len(),
            first_failure(&report.failed)
        );
    }
    if checked.games == 0 {
        bail!("no game was played");
    }
    Ok(())
}

/// Holds what the server counted (`counted`, its metrics once the event was over) against the records it kept:
/// the moves it wrote are the moves of the event's games, each timed as a commit, and no table is left.
fn check_metrics(
    counted: &Scraped,
    checked: &ArenaChecked,
    scrape_times: &[Duration],
) -> Result<()> {
    let value = |series: &str| {
        counted
            .value(series)
            .with_context(|| format!("no {series} in the server's metrics"))
    };
    let moves = value("crowned_moves_total")?;
    let commits = value("crowned_records_commit_seconds_count")?;
    let seconds = value("crowned_records_commit_seconds_sum")?;
    let tables = value("crowned_tables")?;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "metrics: {moves} moves written (the records' games hold {}), {commits} commits ({:.2} ms each on \
         average), {tables} tables left; a scrape took p50 {:.2} ms, max {:.2} ms ({} scrapes, {} bytes)",
        checked.moves,
        1e3 * seconds / commits.max(1.0),
        ms(quantile(scrape_times, 0.5)),
        ms(quantile(scrape_times, 1.0)),
        scrape_times.len(),
        counted.text.len()
    );
    if moves != checked.moves as f64 {
        bail!(
            "the server counted {moves} moves written, and its records' games hold {}",
            checked.moves
        );
    }
    if commits < moves {
        bail!("{commits} commits timed for {moves} moves");
    }
    if tables != 0.0 {
        bail!("{tables} tables left once the event was over");
    }
    Ok(())
}

/// Asks for the event's table (`tournament CODE`, as anyone can) until it says the event is over: the table.
async fn final_table(
    address: std::net::SocketAddr,
    host_key: &str,
    code: &str,
    patience: Duration,
) -> Result<String> {
    let deadline = tokio::time::Instant::now() + patience;
    loop {
        let (text, _) = ask(
            address,
            host_key,
            "onlooker",
            &format!("tournament {code}"),
            patience,
        )
        .await
        .context("cannot ask for the arena's table")?;
        if text.lines().next().is_some_and(|l| l.contains("finished")) {
            return Ok(text);
        }
        if tokio::time::Instant::now() >= deadline {
            bail!("the arena did not finish within {patience:?} of its players: {text}");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// The lines of a printed arena table as `NAME POINTS W-D-L` (its heading and column titles left out).
fn printed_table(text: &str) -> Vec<String> {
    text.lines()
        .skip(2)
        .take_while(|l| !l.starts_with("Playing") && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .skip(1)
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

fn print_load(
    args: &BenchArenaArgs,
    report: &ArenaLoadReport,
    before: Usage,
    after: Usage,
    peak_kb: u64,
    wall: Duration,
) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let finished = report.games.len() / 2;
    println!(
        "players: {} asked, {} joined, {} failed{}",
        args.players,
        report.joined,
        report.failed.len(),
        first_failure(&report.failed)
    );
    println!(
        "arena: {} s, {} clock, up to {} plies a game, {} ms to think; games: {} started, {} finished",
        args.seconds,
        args.clock,
        args.plies,
        args.think,
        report.boards / 2,
        finished
    );
    for (what, values) in [
        ("from the start to a first board", &report.first_boards),
        ("from the end of a game to the next board", &report.waits),
    ] {
        println!(
            "{what} ({} times): p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
            values.len(),
            ms(quantile(values, 0.5)),
            ms(quantile(values, 0.95)),
            ms(quantile(values, 1.0))
        );
    }
    for (what, values) in [
        ("move to the mover's screen", &report.round_trips),
        ("move to the opponent's screen", &report.to_opponent),
    ] {
        println!(
            "{what} ({} moves): p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            values.len(),
            ms(quantile(values, 0.5)),
            ms(quantile(values, 0.95)),
            ms(quantile(values, 0.99)),
            ms(quantile(values, 1.0))
        );
    }
    let cpu = after.cpu_seconds - before.cpu_seconds;
    println!(
        "server CPU: {cpu:.1} s in {:.1} s ({:.0}% of one core); memory {:.1} MB before, {:.1} MB at most \
         ({:.2} MB per player)",
        wall.as_secs_f64(),
        100.0 * cpu / wall.as_secs_f64().max(1e-9),
        before.rss_kb as f64 / 1024.0,
        peak_kb as f64 / 1024.0,
        peak_kb.saturating_sub(before.rss_kb) as f64 / 1024.0 / args.players.max(1) as f64
    );
}

fn print_records(checked: &ArenaChecked) {
    println!(
        "records: {} games of the event ({} won, {} drawn), each once with its [Event] and [Round] and \
         replaying to its result; {} games as both players saw them; the table of {} players is the games' \
         scoring ({} points of streak bonus)",
        checked.games,
        checked.decisive,
        checked.draws,
        checked.seen / 2,
        checked.entrants,
        checked.streak_bonus
    );
}
