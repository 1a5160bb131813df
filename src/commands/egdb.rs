//! `crowned egdb`: build the endgame databases, list them, look positions up.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Subcommand;
use crowned::engine::egdb::wld;
use crowned::engine::egdb::{self, DbValue, Egdb, Material};
use crowned::lab::egdb_bench;
use crowned::lab::egdb_build::{self, TableReport};
use crowned::lab::wld_build;
use crowned::rules::{
    English, GameType, Position, RulesVisitor, SquareStyle, Variant, parse_fen, to_fen, write_move,
};
use crowned::store::Store;

use super::progress::TerminalProgress;
use super::{BoardOptions, cores};

/// `crowned egdb`'s options: the step to take.
#[derive(clap::Args, Debug)]
pub struct EgdbArgs {
    #[command(subcommand)]
    step: EgdbStep,
}

/// What `crowned egdb` does.
#[derive(Subcommand, Debug)]
pub enum EgdbStep {
    /// Build the win/draw/loss tables (with the distance to the next capture or crowning) of every position with
    /// up to N pieces, by retrograde analysis, into the data directory. An interrupted build goes on where it
    /// stopped when run again.
    Build {
        /// The most pieces on the board (6 takes about half an hour on two cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=egdb::MAX_PIECES as i64), required_unless_present = "only")]
        pieces: Option<u32>,
        /// Build only this signature's table and its swap (`0m4k-0m3k`: four kings to move against three),
        /// with the tables they lead into: what one table of a larger database costs.
        #[arg(long, value_name = "SIGNATURE", value_parser = parse_material, conflicts_with = "pieces")]
        only: Option<Material>,
        /// Threads to build on (default: every core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: Option<u64>,
        /// Build here rather than in the data directory (the engine only looks in the data directory).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Say which tables there are and how large they are.
    Info {
        /// Look here rather than in the data directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Check random positions of the largest tables against their moves: each value must be the best of the
    /// values after its moves, distances included.
    Verify {
        /// How many positions.
        #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
        positions: u64,
        /// Seed of the random choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Look here rather than in the data directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Measure what the search gets from the databases: probes of random positions through the cache of
    /// blocks and from the win/draw/loss outcomes kept in memory, then searches of endings that reach into
    /// the tables, each way.
    Bench {
        /// Random positions probed (from the largest tables kept in memory).
        #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        probes: u64,
        /// Endings searched, reached by random play from the start.
        #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(1..=1000))]
        endings: u64,
        /// Pieces on the board in the endings searched.
        #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(3..=24))]
        pieces: u32,
        /// Plies each ending is searched to.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,
        /// Look here rather than in the data directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Look positions up (PDN FEN, English): the result with the distance to conversion, and the best moves.
    Probe {
        /// Positions, such as `W:WK10,K14:BK32`.
        #[arg(required = true, value_name = "FEN")]
        positions: Vec<String>,
        /// Look here rather than in the data directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// `crowned egdb`: the step asked for, for English draughts or (`--variant`) the rule set named.
pub fn run(args: EgdbArgs, board: &BoardOptions) -> Result<ExitCode> {
    if let Some(named) = board.named()
        && named != GameType::standard(Variant::English)
    {
        return run_outcomes_only(args, named);
    }
    match args.step {
        EgdbStep::Build {
            pieces,
            only,
            threads,
            dir,
        } => {
            let what = match (only, pieces) {
                (Some(target), _) => What::Only(target),
                (None, Some(pieces)) => What::UpTo(pieces),
                (None, None) => anyhow::bail!("give --pieces or --only"),
            };
            build(dir, what, threads.map_or_else(cores, |t| t as usize))?
        }
        EgdbStep::Info { dir } => info(dir)?,
        EgdbStep::Verify {
            positions,
            seed,
            dir,
        } => verify(dir, positions, seed)?,
        EgdbStep::Probe { positions, dir } => probe(dir, &positions)?,
        EgdbStep::Bench {
            probes,
            endings,
            pieces,
            depth,
            dir,
        } => bench(dir, probes as usize, endings as usize, pieces, depth)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The directory asked for, or the data directory's.
fn dir_or_default(dir: Option<PathBuf>) -> Result<PathBuf> {
    match dir {
        Some(dir) => Ok(dir),
        None => Ok(Store::locate()
            .context("cannot find the data directory")?
            .egdb_dir()),
    }
}

/// The database in `dir`, or why there is none.
fn open(dir: &std::path::Path) -> Result<Egdb> {
    let db = Egdb::open(dir).map_err(|e| match e {
        egdb::EgdbError::Io { .. } | egdb::EgdbError::Empty(_) => anyhow::anyhow!(
            "no endgame database in {} (crowned egdb build --pieces 6 makes one)",
            dir.display()
        ),
        other => anyhow::Error::new(other)
            .context(format!("the database in {} is damaged", dir.display())),
    })?;
    // Only other rule sets' tables beside it.
    if db.pieces() == 0 {
        anyhow::bail!(
            "no endgame database in {} (crowned egdb build --pieces 6 makes one)",
            dir.display()
        );
    }
    Ok(db)
}

/// A signature, by its name.
fn parse_material(text: &str) -> Result<Material, String> {
    Material::from_name(text)
        .filter(|m| m.pieces() <= egdb::MAX_PIECES)
        .filter(|m| m.our_men + m.our_kings > 0 && m.their_men + m.their_kings > 0)
        .ok_or_else(|| {
            format!(
                "{text:?} is not a signature such as 2m1k-1m2k (men and kings of the side to move, then of the other, each side with a piece, {} pieces at most)",
                egdb::MAX_PIECES
            )
        })
}

/// What `crowned egdb build` builds.
#[derive(Clone, Copy)]
enum What {
    /// Every table of up to this many pieces.
    UpTo(u32),
    /// One signature and its swap, with what they lead into.
    Only(Material),
}

/// `crowned egdb build`.
fn build(dir: Option<PathBuf>, what: What, threads: usize) -> Result<()> {
    let dir = dir_or_default(dir)?;
    let (pieces, total, named) = match what {
        What::UpTo(pieces) => (
            pieces,
            egdb_build::positions_up_to(pieces),
            format!("up to {pieces} pieces"),
        ),
        What::Only(target) => (
            target.pieces(),
            Material::all_up_to(target.pieces())
                .into_iter()
                .filter(|&m| egdb_build::may_lead_to(target, m))
                .map(|m| egdb::Layout::new(m).size())
                .sum(),
            format!("{} and what it leads into", target.name()),
        ),
    };
    eprintln!(
        "building the tables of {named} ({total} positions) in {} on {threads} threads",
        dir.display()
    );
    let progress = TerminalProgress::on_terminal(total, "positions");
    let done = AtomicU64::new(0);
    let started = Instant::now();
    let mut per_pieces = [(0u64, 0u64, 0u16); egdb::MAX_PIECES as usize + 1];
    let mut report = |t: &TableReport| {
        let entry = &mut per_pieces[t.material.pieces() as usize];
        entry.0 += t.positions;
        entry.1 += t.bytes;
        entry.2 = entry.2.max(t.longest);
        progress.line(&table_line(t, true));
    };
    let advance = |n| progress.set_done(done.fetch_add(n, Ordering::Relaxed) + n);
    match what {
        What::UpTo(_) => egdb_build::build(&dir, pieces, threads, &advance, &mut report),
        What::Only(target) => egdb_build::build_one(&dir, target, threads, &advance, &mut report),
    }
    .with_context(|| format!("the build in {} stopped", dir.display()))?;
    progress.finish();
    for (n, (positions, bytes, longest)) in per_pieces.iter().enumerate().skip(2) {
        if *positions > 0 {
            eprintln!(
                "{n} pieces: {positions} positions, {bytes} bytes on disk ({:.3} bits a position), longest conversion {longest} plies",
                *bytes as f64 * 8.0 / *positions as f64
            );
        }
    }
    eprintln!("done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// The build's line for a finished table, with its longest conversion where the tables keep distances.
fn table_line(t: &TableReport, distances: bool) -> String {
    let [w, d, l] = t.counts;
    let (name, positions) = (t.material.name(), t.positions);
    if t.resumed {
        return format!("{name:>10} {positions:>13} positions, already built");
    }
    let longest = if distances {
        format!("; longest {} plies", t.longest)
    } else {
        String::new()
    };
    format!(
        "{name:>10} {positions:>13} positions: {w} wins, {d} draws, {l} losses{longest}; {} bytes; {:.1} s",
        t.bytes,
        t.time.as_secs_f64()
    )
}

/// `crowned egdb info`.
fn info(dir: Option<PathBuf>) -> Result<()> {
    let dir = dir_or_default(dir)?;
    let db = open(&dir)?;
    println!(
        "{}: every position with up to {} pieces",
        dir.display(),
        db.pieces()
    );
    let mut positions = 0;
    let mut bytes = 0;
    for m in Material::all_up_to(db.pieces()) {
        positions += egdb::Layout::new(m).size();
        bytes += std::fs::metadata(dir.join(format!("{}.egdb", m.name()))).map_or(0, |md| md.len());
    }
    println!(
        "{positions} positions in {bytes} bytes ({:.3} bits a position)",
        bytes as f64 * 8.0 / positions as f64
    );
    probe_cost(&db);
    Ok(())
}

/// Times probes of random positions with the most pieces: the first time each (blocks read and unpacked), then
/// again (blocks in the cache as far as it holds them).
fn probe_cost(db: &Egdb) {
    const PROBES: usize = 20_000;
    let tables: Vec<egdb::Layout> = Material::all_up_to(db.pieces())
        .into_iter()
        .filter(|m| m.pieces() == db.pieces())
        .map(egdb::Layout::new)
        .collect();
    // A fixed xorshift sequence: the same positions every run.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let positions: Vec<Position<English>> = (0..PROBES)
        .map(|_| {
            let layout = &tables[next() as usize % tables.len()];
            layout.squares(next() % layout.size()).position()
        })
        .collect();
    for pass in ["first", "again"] {
        let started = Instant::now();
        let known = positions.iter().filter(|p| db.probe(p).is_some()).count();
        let each = started.elapsed().as_secs_f64() / PROBES as f64;
        println!(
            "probe, {pass}: {:.2} µs each over {PROBES} random {}-piece positions ({known} answered)",
            each * 1e6,
            db.pieces()
        );
    }
}

/// `crowned egdb bench`.
fn bench(
    dir: Option<PathBuf>,
    probes: usize,
    endings: usize,
    pieces: u32,
    depth: u32,
) -> Result<()> {
    let dir = dir_or_default(dir)?;
    let on_disk = Arc::new(open(&dir)?.without_outcomes());
    let in_memory = Arc::new(open(&dir)?);
    let largest = in_memory.pieces_in_memory();
    println!(
        "{}: up to {} pieces; outcomes kept in memory up to {largest} pieces",
        dir.display(),
        in_memory.pieces()
    );
    let started = Instant::now();
    let bytes = in_memory.keep_outcomes();
    println!(
        "outcomes made in {:.1} s: {:.0} MB",
        started.elapsed().as_secs_f64(),
        bytes as f64 / 1e6
    );
    let positions = egdb_bench::random_quiet_positions(largest.max(2), probes, 1);
    // Random positions miss the cache of blocks almost every time: a tenth of them tell its speed.
    let few = &positions[..positions.len().div_ceil(10)];
    for (name, db, positions) in [("files", &on_disk, few), ("memory", &in_memory, &positions)] {
        let speed = egdb_bench::probe_speed(db, positions);
        println!(
            "probes, {name:<6}: {:>7.3} M/s ({} random {largest}-piece positions; {} blocks read)",
            speed.millions_per_second(),
            positions.len(),
            speed.loads
        );
    }
    let endings = egdb_bench::endings(pieces, endings, 1);
    for (name, db) in [("files", &on_disk), ("memory", &in_memory)] {
        let speed = egdb_bench::search_speed(Arc::clone(db), &endings, depth);
        println!(
            "search, {name:<6}: {:>6.2} M nodes/s ({} nodes in {:.2} s; {} endings of {pieces} pieces to depth {depth}; {} blocks read)",
            speed.millions_per_second(),
            speed.count,
            speed.time.as_secs_f64(),
            endings.len(),
            speed.loads
        );
    }
    Ok(())
}

/// `crowned egdb verify`.
fn verify(dir: Option<PathBuf>, positions: u64, seed: u64) -> Result<()> {
    let dir = dir_or_default(dir)?;
    let db = open(&dir)?;
    let progress = TerminalProgress::on_terminal(positions, "positions");
    let done = AtomicU64::new(0);
    let started = Instant::now();
    let checked = db
        .verify(positions, seed, &|n| {
            progress.set_done(done.fetch_add(n, Ordering::Relaxed) + n)
        })
        .context("the database is wrong")?;
    progress.finish();
    println!(
        "{checked} random {}-piece positions agree with their moves ({:.1} s)",
        db.pieces(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `crowned egdb probe`.
fn probe(dir: Option<PathBuf>, positions: &[String]) -> Result<()> {
    let dir = dir_or_default(dir)?;
    let db = open(&dir)?;
    for text in positions {
        let pos: Position<English> =
            parse_fen(text).with_context(|| format!("not a position: {text}"))?;
        let started = Instant::now();
        let value = db.probe(&pos);
        let took = started.elapsed();
        let side = pos.side_to_move();
        let said = match value {
            None => format!("not in the database (more than {} pieces)", db.pieces()),
            Some(DbValue::Draw) => "draw".to_string(),
            Some(DbValue::Win(d)) => format!("{side} wins; the next conversion in {d} plies"),
            Some(DbValue::Loss(d)) => {
                format!("{} wins; the next conversion in {d} plies", side.opponent())
            }
        };
        let mut at = pos;
        let line: Vec<String> = db
            .line(&pos, 12)
            .iter()
            .map(|m| {
                let text = write_move(&at, m, SquareStyle::Numbers);
                at = at.play(m);
                text
            })
            .collect();
        println!("{}: {said} ({} µs)", to_fen(&pos), took.as_micros());
        if !line.is_empty() {
            println!("  {}", line.join(" "));
        }
    }
    Ok(())
}

/// `crowned egdb` for a rule set other than English draughts: win/draw/loss tables, built and listed.
fn run_outcomes_only(args: EgdbArgs, named: GameType) -> Result<ExitCode> {
    let variant = named.variant;
    if !named.is_standard() || wld::shape_for(variant).is_none() {
        anyhow::bail!(
            "endgame tables are built for English draughts and for international, Brazilian, Russian, pool, \
             Czech and Thai draughts on their own boards, not for {named}"
        );
    }
    match args.step {
        EgdbStep::Build {
            pieces,
            only,
            threads,
            dir,
        } => {
            if only.is_some() {
                anyhow::bail!("--only is for English draughts' tables; give --pieces");
            }
            let pieces = pieces.context("give --pieces")?;
            if pieces > WLD_MAX_PIECES {
                anyhow::bail!(
                    "win/draw/loss tables go up to {WLD_MAX_PIECES} pieces (they are solved in memory)"
                );
            }
            let threads = threads.map_or_else(cores, |t| t as usize);
            build_outcomes_only(variant_dir(dir, variant)?, named, pieces, threads)?;
        }
        EgdbStep::Info { dir } => {
            let dir = variant_dir(dir, variant)?;
            let tables = wld::WldTables::open_variant(&dir, variant)
                .with_context(|| format!("the tables in {} are damaged", dir.display()))?;
            let Some(tables) = tables else {
                anyhow::bail!(
                    "no {} tables in {} (crowned egdb build --variant {} --pieces 4 makes them)",
                    variant.name(),
                    dir.display(),
                    variant.name()
                );
            };
            let shape = wld::shape_for(variant).context("a supported variant")?;
            let pieces = tables.pieces(variant);
            let bytes: u64 = Material::all_up_to(pieces)
                .into_iter()
                .map(|m| std::fs::metadata(dir.join(wld::file_name(m))).map_or(0, |md| md.len()))
                .sum();
            println!(
                "{}: win/draw/loss of every {} position with up to {pieces} pieces: {} positions, {bytes} bytes on disk, {} in memory",
                dir.display(),
                variant.name(),
                wld_build::positions_up_to(shape, pieces),
                tables.bytes()
            );
        }
        _ => anyhow::bail!(
            "verify, probe and bench are for English draughts' databases; {} has build and info",
            variant.name()
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// The most pieces of a win/draw/loss build: a pair of tables is solved in memory, two bytes a position, beside
/// the finished tables at two bits (on 10x10, the largest 5-piece pair takes 0.4 GB, the largest 6-piece pair
/// 8.3 GB and the finished tables 12 GB more).
const WLD_MAX_PIECES: u32 = 6;

/// The directory asked for, or the data directory's for `variant`'s tables.
fn variant_dir(dir: Option<PathBuf>, variant: Variant) -> Result<PathBuf> {
    match dir {
        Some(dir) => Ok(dir),
        None => Ok(Store::locate()
            .context("cannot find the data directory")?
            .egdb_dir_of(variant)),
    }
}

/// `crowned egdb build --variant V --pieces N` into `dir`.
fn build_outcomes_only(dir: PathBuf, named: GameType, pieces: u32, threads: usize) -> Result<()> {
    struct Build<'a> {
        dir: &'a std::path::Path,
        pieces: u32,
        threads: usize,
    }
    impl RulesVisitor for Build<'_> {
        type Output = Result<()>;
        fn visit<R: crowned::rules::Playable>(self) -> Result<()> {
            let shape = wld::shape_of::<R>()?;
            let total = wld_build::positions_up_to(shape, self.pieces);
            eprintln!(
                "building the win/draw/loss tables of {} up to {} pieces ({total} positions) in {} on {} threads",
                R::NAME,
                self.pieces,
                self.dir.display(),
                self.threads
            );
            let progress = TerminalProgress::on_terminal(total, "positions");
            let done = AtomicU64::new(0);
            let started = Instant::now();
            let mut report = |t: &TableReport| {
                progress.line(&table_line(t, false));
            };
            let advance = |n| progress.set_done(done.fetch_add(n, Ordering::Relaxed) + n);
            wld_build::build::<R>(self.dir, self.pieces, self.threads, &advance, &mut report)
                .with_context(|| format!("the build in {} stopped", self.dir.display()))?;
            progress.finish();
            eprintln!("done in {:.1} s", started.elapsed().as_secs_f64());
            Ok(())
        }
        fn defined(self, _: crowned::rules::defined::DefinedId) -> Result<()> {
            anyhow::bail!("a defined variant has no endgame tables")
        }
    }
    named.visit(Build {
        dir: &dir,
        pieces,
        threads,
    })
}
