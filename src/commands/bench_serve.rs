//! `crowned bench serve`: a server on this machine under many players at once.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crowned::engine::Level;
use crowned::server_lab::load::{Checkpoints, LoadConfig, LoadReport, quantile, run_load};

use super::parse_seconds;

/// `crowned bench serve`'s options: the players and what they do.
#[derive(clap::Args, Debug)]
pub struct BenchServeArgs {
    /// Players connected at once.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    sessions: u64,
    /// Keys each player presses once everyone is connected.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    keys: u64,
    /// Milliseconds between one player's keys.
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pause: u64,
    /// One player in this many plays a move first, keeping the engine busy while keys are timed (0: none).
    #[arg(long, default_value_t = 10)]
    engine_every: u64,
    /// The level the engine answers those moves at.
    #[arg(long, default_value = "medium")]
    engine_level: Level,
    /// Seconds the engine thinks per move.
    #[arg(long, default_value = "1", value_parser = parse_seconds)]
    engine_time: f64,
    /// Connections that flood the server with keys as fast as it takes them while the players press their
    /// keys a second time: reports that round's times beside the first's (0: one round, no flood).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1_000))]
    flood: u64,
    /// Players who come by the web door (browsers' sockets, as guests) beside the --sessions who come by SSH;
    /// each door's times are reported apart (0: no web door).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    web: u64,
}

/// `crowned bench serve`.
pub fn run(args: &BenchServeArgs) -> Result<()> {
    bench_serve(&LoadArgs {
        flooders: args.flood as usize,
        sessions: args.sessions as usize,
        web: args.web as usize,
        keys: args.keys as usize,
        pause_ms: args.pause,
        engine_every: args.engine_every as usize,
        engine_level: args.engine_level,
        engine_time: args.engine_time,
    })
}

/// What the command line asks of the load, in the units the load counts in.
#[derive(Debug)]
struct LoadArgs {
    /// Players at once.
    sessions: usize,
    /// Keys each presses.
    keys: usize,
    /// Milliseconds between one player's keys.
    pause_ms: u64,
    /// One player in this many plays a move, keeping the engine busy.
    engine_every: usize,
    /// The level the engine plays the players at.
    engine_level: Level,
    /// Seconds it thinks per move.
    engine_time: f64,
    /// Connections that flood the server with keys while the players press theirs a second time.
    flooders: usize,
    /// Players on the web door, besides `sessions` on SSH.
    web: usize,
}

/// Starts `crowned serve` on a loopback port of its own (in a scratch folder), connects the players, measures
/// the idle server, lets them press their keys, and reports.
fn bench_serve(args: &LoadArgs) -> Result<()> {
    let home = std::env::temp_dir().join(format!("crowned-bench-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let everyone = args.sessions + args.web + args.flooders;
    let mut server = match args.web {
        0 => Server::start(&home, everyone)?,
        _ => Server::start_with(&home, everyone, &["--web", "127.0.0.1:0", "--guests"])?,
    };
    let result = measure(&server, &home, args);
    server.stop();
    let _ = std::fs::remove_dir_all(&home);
    result
}

fn measure(server: &Server, home: &std::path::Path, args: &LoadArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the load's threads")?;
    let config = LoadConfig {
        address: server.address,
        host_key: server.fingerprint.clone(),
        sessions: args.sessions + args.web,
        keys: args.keys,
        pause: Duration::from_millis(args.pause_ms),
        engine_every: args.engine_every,
        patience: Duration::from_secs(600),
        flooders: args.flooders,
        web: server.web,
        web_sessions: args.web,
        player_settings: Some((
            home.join("data/server/players"),
            format!(
                "[players]\nwhite = \"{}\"\n[engine]\ntime = {}\n",
                args.engine_level, args.engine_time
            ),
        )),
    };
    let empty = server.settled_usage()?;
    let checkpoints = Checkpoints::new(args.sessions + args.web + args.flooders);
    let (report, idle, busy_cpu, wall) = runtime.block_on(async {
        let theirs = checkpoints.clone();
        let load = tokio::spawn(async move { run_load(config, &theirs).await });
        checkpoints.connected.wait().await;
        // Let the last frames settle before the idle server is measured.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let idle = server.usage();
        let started = Instant::now();
        checkpoints.go.wait().await;
        let report = load.await;
        let after = server.usage();
        (report, idle, after, started.elapsed())
    });
    let report: LoadReport = report.context("the load failed")?;
    let (idle, busy) = (idle?, busy_cpu?);
    print_report(args, &report, empty, idle, busy, wall);
    if report.completed == 0 {
        bail!(
            "no player got through: {}",
            report.failed.first().map_or("", String::as_str)
        );
    }
    Ok(())
}

fn print_report(
    args: &LoadArgs,
    report: &LoadReport,
    empty: Usage,
    idle: Usage,
    busy: Usage,
    wall: Duration,
) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "players: {} asked ({} by SSH, {} by the web door), {} completed, {} failed{}",
        args.sessions + args.web,
        args.sessions,
        args.web,
        report.completed,
        report.failed.len(),
        first_failure(&report.failed)
    );
    println!(
        "connect to first frame: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms(quantile(&report.first_frame, 0.5)),
        ms(quantile(&report.first_frame, 0.99)),
        ms(quantile(&report.first_frame, 1.0))
    );
    let frame_bytes: usize = report.frame_bytes.iter().sum();
    println!(
        "key to frame ({} keys, one player in {} keeping the engine busy): p50 {:.1} ms, p99 {:.1} ms, max {:.1} \
         ms; {:.0} bytes per frame",
        report.key_to_frame.len(),
        args.engine_every,
        ms(quantile(&report.key_to_frame, 0.5)),
        ms(quantile(&report.key_to_frame, 0.99)),
        ms(quantile(&report.key_to_frame, 1.0)),
        frame_bytes as f64 / report.frame_bytes.len().max(1) as f64
    );
    if args.web > 0 {
        let web_bytes: usize = report.web_frame_bytes.iter().sum();
        println!(
            "key to frame on the web door ({} keys, in the same run): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
             {:.0} bytes per frame",
            report.web_key_to_frame.len(),
            ms(quantile(&report.web_key_to_frame, 0.5)),
            ms(quantile(&report.web_key_to_frame, 0.99)),
            ms(quantile(&report.web_key_to_frame, 1.0)),
            web_bytes as f64 / report.web_frame_bytes.len().max(1) as f64
        );
    }
    if !report.engine_answer.is_empty() {
        println!(
            "engine answers ({} players asking at once, {} at {} s a move, one search thread): p50 {:.1} ms, \
             p99 {:.1} ms, max {:.1} ms",
            report.engine_answer.len(),
            args.engine_level,
            args.engine_time,
            ms(quantile(&report.engine_answer, 0.5)),
            ms(quantile(&report.engine_answer, 0.99)),
            ms(quantile(&report.engine_answer, 1.0))
        );
    }
    if args.flooders > 0 {
        let (bytes, typing) = report.flooded;
        let (calm, flooded) = (
            quantile(&report.key_to_frame, 0.99),
            quantile(&report.flooded_key_to_frame, 0.99),
        );
        println!(
            "key to frame while {} connections flooded ({:.1} MB handed to their clients in {:.1} s, {:.0} KB/s): \
             p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; p99 {:.2}x the first round's",
            args.flooders,
            bytes as f64 / 1e6,
            typing.as_secs_f64(),
            bytes as f64 / 1e3 / typing.as_secs_f64().max(1e-9),
            ms(quantile(&report.flooded_key_to_frame, 0.5)),
            ms(flooded),
            ms(quantile(&report.flooded_key_to_frame, 1.0)),
            flooded.as_secs_f64() / calm.as_secs_f64().max(1e-9)
        );
    }
    let held = report.completed.max(1) as f64;
    println!(
        "server memory: {:.1} MB with no player, {:.1} MB with {} idle players: {:.2} MB per player",
        empty.rss_kb as f64 / 1024.0,
        idle.rss_kb as f64 / 1024.0,
        report.completed,
        (idle.rss_kb.saturating_sub(empty.rss_kb)) as f64 / 1024.0 / held
    );
    let cpu = busy.cpu_seconds - idle.cpu_seconds;
    println!(
        "server CPU while keys were pressed: {cpu:.2} s in {:.2} s ({:.0}% of one core), {:.2} ms per key",
        wall.as_secs_f64(),
        100.0 * cpu / wall.as_secs_f64().max(1e-9),
        1e3 * cpu / report.key_to_frame.len().max(1) as f64
    );
}

/// A server process under measurement.
pub(super) struct Server {
    pub(super) child: Child,
    pub(super) address: std::net::SocketAddr,
    pub(super) fingerprint: String,
    /// The web door's address, when it was started with one.
    pub(super) web: Option<std::net::SocketAddr>,
    /// The operator's listener's address (`/metrics`), when it was started with one.
    pub(super) metrics: Option<std::net::SocketAddr>,
}

/// A process's resident memory and the processor time it has used.
#[derive(Clone, Copy, Debug)]
pub(super) struct Usage {
    pub(super) rss_kb: u64,
    pub(super) cpu_seconds: f64,
}

impl Server {
    pub(super) fn start(home: &std::path::Path, sessions: usize) -> Result<Server> {
        Server::start_with(home, sessions, &[])
    }

    /// [`Server::start`] with more of `crowned serve`'s options (`--records URL --node-name N`).
    pub(super) fn start_with(
        home: &std::path::Path,
        sessions: usize,
        extra: &[&str],
    ) -> Result<Server> {
        let program = std::env::current_exe().context("cannot find this program")?;
        Server::start_program(&program, home, sessions, extra)
    }

    /// [`Server::start_with`] running `program` as the server (another build, to compare).
    pub(super) fn start_program(
        program: &std::path::Path,
        home: &std::path::Path,
        sessions: usize,
        extra: &[&str],
    ) -> Result<Server> {
        let table = (sessions + 8).to_string();
        // The server's log goes to a file in its folder, as an operator's would: a full disk (the chaos
        // benchmark's) then refuses the log's writes too.
        std::fs::create_dir_all(home).context("cannot make the server's folder")?;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(home.join("serve.log"))
            .context("cannot open the server's log")?;
        let mut command = Command::new(program);
        die_with_parent(&mut command);
        let mut child = command
            .args(["serve", "--listen", "127.0.0.1:0", "--idle-timeout", "3600"])
            .args(["--max-sessions", &table, "--max-per-address", &table])
            // Every load client comes from this machine's one address, all signing in at once.
            .args([
                "--max-strangers",
                &table,
                "--max-strangers-per-address",
                &table,
            ])
            .args(extra)
            .env("CROWNED_HOME", home)
            // Warnings only, unless whoever runs the benchmark asks for more (CROWNED_BENCH_SERVER_LOG=info).
            .env(
                "RUST_LOG",
                std::env::var("CROWNED_BENCH_SERVER_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .context("cannot start the server")?;
        let mut stdout = BufReader::new(child.stdout.take().context("no output from the server")?);
        let mut first = String::new();
        stdout.read_line(&mut first)?;
        // With a web door or the metrics, later lines say where: "... the web door is open at http://ADDRESS/",
        // "... metrics at http://ADDRESS/metrics ...".
        let (mut web, mut metrics) = (None, None);
        let (want_web, want_metrics) = (extra.contains(&"--web"), extra.contains(&"--metrics"));
        let mut line = String::new();
        while ((want_web && web.is_none()) || (want_metrics && metrics.is_none()))
            && stdout.read_line(&mut line)? > 0
        {
            let after = |marker: &str| -> Option<std::net::SocketAddr> {
                let rest = line.split(marker).nth(1)?;
                rest.split(['/', ' ']).next()?.trim().parse().ok()
            };
            web = web.or_else(|| after("web door is open at http://"));
            metrics = metrics.or_else(|| after("metrics at http://"));
            line.clear();
        }
        std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
        // "crowned serve: listening on ADDRESS; host key FINGERPRINT ..."
        let address = first
            .split("listening on ")
            .nth(1)
            .and_then(|rest| rest.split(';').next())
            .and_then(|a| a.parse().ok());
        let fingerprint = first
            .split("host key ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next());
        match (address, fingerprint) {
            (Some(address), Some(fingerprint)) => Ok(Server {
                child,
                address,
                fingerprint: fingerprint.to_string(),
                web,
                metrics,
            }),
            _ => {
                let _ = child.kill();
                bail!("the server did not say where it listens: {first:?}")
            }
        }
    }

    /// Resident memory from /proc/PID/status, processor time from /proc/PID/stat (in the kernel's clock ticks,
    /// 100 a second on Linux).
    pub(super) fn usage(&self) -> Result<Usage> {
        let pid = self.child.id();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .context("cannot read the server's memory (this needs Linux's /proc)")?;
        let rss_kb = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .context("no VmRSS for the server")?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
        // Fields after the command name, which is in parentheses and may hold spaces.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace().collect())
            .unwrap_or_default();
        let ticks = |i: usize| {
            fields
                .get(i)
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0)
        };
        // utime and stime are fields 14 and 15 of the line: 11 and 12 counting from 0 after the name.
        let cpu_seconds = (ticks(11) + ticks(12)) as f64 / 100.0;
        Ok(Usage {
            rss_kb,
            cpu_seconds,
        })
    }

    /// The usage once the server's memory has stopped growing: its engine threads take their tables just after
    /// it starts, and those are not the players' memory.
    pub(super) fn settled_usage(&self) -> Result<Usage> {
        let mut last = self.usage()?;
        for _ in 0..50 {
            std::thread::sleep(Duration::from_millis(100));
            let now = self.usage()?;
            if now.rss_kb == last.rss_kb {
                return Ok(now);
            }
            last = now;
        }
        Ok(last)
    }

    pub(super) fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// ` (first: WHY)` for the first of `failed`, or nothing when nothing failed.
pub(super) fn first_failure(failed: &[String]) -> String {
    failed
        .first()
        .map(|why| format!(" (first: {why})"))
        .unwrap_or_default()
}

/// Makes the server started by `command` die with the thread that starts it (the benchmark's main thread): a
/// benchmark killed, or its terminal closed, leaves no server behind still holding its port and its folder.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec, and makes one async-signal-safe call.
    unsafe {
        command.pre_exec(|| {
            match libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) {
                -1 => Err(std::io::Error::last_os_error()),
                _ => Ok(()),
            }
        });
    }
}

/// Elsewhere the server is stopped by the benchmark as it ends, and only then.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_: &mut Command) {}
