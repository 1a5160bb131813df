//! `crowned bench`: the engine's speed and depth, measured on this machine, under any rules.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Subcommand;
use crowned::engine::{
    AnySituation, Engine, EngineConfig, Evaluation, Level, Limits, builtin_openings, nnue,
};
use crowned::lab::openings;
use crowned::rules::{AnyPosition, English, GameType, Playable, Position, Variant};

use super::bench_arena::{self, BenchArenaArgs};
use super::bench_chaos::{self, BenchChaosArgs};
use super::bench_serve::{self, BenchServeArgs};
use super::bench_tables::{self, BenchTablesArgs};
use super::{BoardOptions, parse_seconds};

/// `crowned bench`'s options: the engine's measure, or another target.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// What to measure instead of the engine.
    #[command(subcommand)]
    target: Option<BenchTarget>,
    /// Seconds for the depth test from the start position.
    #[arg(long, default_value = "1", value_parser = parse_seconds)]
    time: f64,
    /// Plies each position is searched to (default: 14 for English 8x8, less on wider boards).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=40))]
    depth: Option<u32>,
}

/// What `crowned bench` can measure besides the engine.
#[derive(Subcommand, Debug)]
pub enum BenchTarget {
    /// Start `crowned serve` on a loopback port of its own and play many players against it at once, each a
    /// real SSH client pressing keys: reports the time from each key to its frame, and the server's memory
    /// and processor time.
    Serve(BenchServeArgs),
    /// Start `crowned serve` on a loopback port of its own and play many games between scripted people on it
    /// at once, with watchers, each a real SSH client: reports the time from each move to the other screens,
    /// the server's processor time and memory, and the size of its records, then checks that every game that
    /// ended is in the records and replays to its result.
    Tables(BenchTablesArgs),
    /// Start `crowned serve` on a loopback port of its own, create an arena and have many players enter it, each
    /// a real SSH client playing whatever the event pairs it for: reports the games, the pairings a minute, the
    /// wait from a game's end to the next board, the time each move takes to reach the screens, and the
    /// server's processor time and memory, then checks that the records hold every game of the event once,
    /// replaying to its result, and a table that is the arena's scoring of those games.
    Arena(BenchArenaArgs),
    /// Start `crowned serve` on a loopback port of its own and play games between scripted people on it, each a
    /// real SSH client, while the server is killed (kill -9) and started again and players connect to their
    /// tables a second time: reports the faults, the games and the moves seen, then checks every move each
    /// player saw against the records (seen and lost, split games, double or wrong results).
    Chaos(BenchChaosArgs),
}

/// `crowned bench`: the engine under the rules of the command line, or the target named.
pub fn run(args: BenchArgs, board: &BoardOptions) -> Result<ExitCode> {
    match args.target {
        Some(BenchTarget::Serve(load)) => bench_serve::run(&load)?,
        Some(BenchTarget::Tables(load)) => bench_tables::run(&load)?,
        Some(BenchTarget::Arena(load)) => bench_arena::run(&load)?,
        Some(BenchTarget::Chaos(load)) => bench_chaos::run(&load)?,
        None => {
            let game_type = board.game_type;
            Bench {
                game_type,
                depth: args.depth.unwrap_or_else(|| default_depth(game_type)),
                time: Duration::from_secs_f64(args.time),
                engine: EngineConfig::default().with_egdb(super::databases()),
            }
            .run()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Positions besides the start: for English every tenth opening of the ballot deck, for the other game types
/// as many random openings (drawn from a fixed seed, so every run searches the same positions).
const OPENINGS: usize = 16;

/// The depth every benchmark position is searched to when none is given: English 8x8 as deep as it has always
/// been benched (so figures stay comparable), the others to depths that take about as long here (a few tenths
/// of a second on one core), shallower as the board widens.
fn default_depth(game_type: GameType) -> u32 {
    match (game_type.variant, game_type.size) {
        // A definition's nodes are slower (the general generator works cell by cell): Turkish and a board with
        // holes take about as long at 10 as English at 14.
        (Variant::Defined(_), _) => 10,
        (Variant::English, 8) => 14,
        (_, size) if size <= 8 => 16,
        (_, 10) => 14,
        _ => 13,
    }
}

/// `crowned bench` for a game type, built in or defined: searches every position to `depth` with the full
/// search and with `medium`'s fixed-depth search (as a baseline in the same run), then the start position for
/// `time`.
struct Bench {
    /// The rules and board.
    game_type: GameType,
    /// The depth of the fixed-depth searches.
    depth: u32,
    /// The time of the search from the start.
    time: Duration,
    /// The engines' setup: the databases, if there are any.
    engine: EngineConfig,
}

impl Bench {
    fn run(self) -> Result<()> {
        let positions = positions(self.game_type);
        let situations: Vec<AnySituation> =
            positions.iter().map(|p| AnySituation::at(*p)).collect();
        let mut out = io::stdout().lock();
        let defined = matches!(self.game_type.variant, Variant::Defined(_));
        let kind = if defined { " (defined)" } else { "" };
        writeln!(out, "rules: {}{kind}", self.game_type)?;
        let depth = self.depth;
        let network = Evaluation::Network;
        let (full_nodes, full_time) =
            measure(&situations, Level::Max, depth, &self.engine, network);
        let (plain_nodes, plain_time) =
            measure(&situations, Level::Medium, 5, &self.engine, network);
        writeln!(
            out,
            "search: {} positions to depth {depth}: {full_nodes} nodes in {:.3} s, {:.2} M nodes/s",
            situations.len(),
            full_time.as_secs_f64(),
            rate(full_nodes, full_time) / 1e6
        )?;
        writeln!(
            out,
            "reference, medium on the same positions ({}): {plain_nodes} nodes in {:.3} s, {:.2} M nodes/s",
            medium_words(defined),
            plain_time.as_secs_f64(),
            rate(plain_nodes, plain_time) / 1e6,
        )?;
        let english = self.game_type == GameType::standard(Variant::English);
        if english {
            let english: Vec<Position> = positions.iter().filter_map(English::unwrap).collect();
            evaluation_alone(&mut out, &english)?;
        }
        // The rules with a network of their own: the same search with the hand-written evaluation, for its cost.
        if english || self.game_type == GameType::standard(Variant::International) {
            let classic = Evaluation::Classic;
            let (nodes, time) = measure(&situations, Level::Max, depth, &self.engine, classic);
            writeln!(
                out,
                "the same search with the hand-written evaluation instead of the network: {nodes} nodes in \
                 {:.3} s, {:.2} M nodes/s ({:.2}x the network's speed)",
                time.as_secs_f64(),
                rate(nodes, time) / 1e6,
                rate(nodes, time) / rate(full_nodes, full_time)
            )?;
        }
        start_depth(&mut out, &situations[0], self.time, &self.engine)
    }
}

/// What `medium` is, for the reference line: on a built-in rule set a plain minimax (it visits positions
/// without tables, ordering or pruning) to depth 5; on a definition's slower nodes the full search to three
/// plies.
fn medium_words(defined: bool) -> &'static str {
    if defined {
        "the full search to three plies"
    } else {
        "a plain minimax to depth 5, without tables, ordering or pruning"
    }
}

/// The last line of every bench: the depth `max` reaches from the start in `time`.
fn start_depth(
    out: &mut impl Write,
    start: &AnySituation,
    time: Duration,
    config: &EngineConfig,
) -> Result<()> {
    let mut engine = Engine::with_config(config.clone());
    let result = engine.think(start, Level::Max, &Limits::time(time), 0, &mut |_| {});
    writeln!(
        out,
        "start position, {:.1} s: depth {} ({} nodes)",
        time.as_secs_f64(),
        result.depth,
        result.nodes
    )?;
    Ok(())
}

/// Positions each evaluation is timed on: every position of the tree two plies deep below each bench position,
/// in the order a search visits them, so that the network's sums are brought up to date as in a search.
fn evaluation_walk(positions: &[Position]) -> Vec<(Position, usize)> {
    fn visit(pos: &Position, ply: usize, out: &mut Vec<(Position, usize)>) {
        out.push((*pos, ply));
        if ply < 3 {
            for m in pos.legal_moves() {
                visit(&pos.play(&m), ply + 1, out);
            }
        }
    }
    let mut out = Vec::new();
    for pos in positions {
        visit(pos, 0, &mut out);
    }
    out
}

/// The time of one static evaluation, the network's (its sums brought up to date as the search does) and the
/// hand-written one's, on the same positions: the fastest of [`REPEATS`] passes, each over all of them.
fn evaluation_alone(out: &mut impl Write, positions: &[Position]) -> Result<()> {
    let Some(net) = nnue::builtin(nnue::NetworkFamily::English) else {
        return Ok(());
    };
    let walk = evaluation_walk(positions);
    let mut cache = nnue::NetCache::new(net, 64);
    let network = fastest(&mut cache, nnue::NetCache::clear, |cache| {
        for (pos, ply) in &walk {
            std::hint::black_box(cache.evaluate(pos, *ply));
        }
    });
    let classic = fastest(
        &mut (),
        |_| {},
        |_| {
            for (pos, _) in &walk {
                std::hint::black_box(crowned::engine::evaluate(pos));
            }
        },
    );
    let each = |time: Duration| time.as_secs_f64() * 1e9 / walk.len() as f64;
    writeln!(
        out,
        "evaluation alone, {} positions of searched trees: the network ({}) {:.1} ns a position, the \
         hand-written one {:.1} ns ({:.2}x)",
        walk.len(),
        nnue::Cpu::detect().name(),
        each(network),
        each(classic),
        each(network) / each(classic),
    )?;
    Ok(())
}

/// Passes a timing keeps the fastest of: a busy machine slows some passes, never speeds one up.
const REPEATS: usize = 3;

/// The least time `work` takes over [`REPEATS`] runs, each after `prepare` (untimed: clearing an engine's tables
/// costs more than a small search, and would be measured as the search's).
fn fastest<S>(
    state: &mut S,
    mut prepare: impl FnMut(&mut S),
    mut work: impl FnMut(&mut S),
) -> Duration {
    (0..REPEATS)
        .map(|_| {
            prepare(state);
            let started = Instant::now();
            work(state);
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The start of the game type, then the openings: for English every tenth opening of the ballot deck, for the
/// others random openings drawn from a fixed seed.
fn positions(game_type: GameType) -> Vec<AnyPosition> {
    let mut list = vec![AnyPosition::start(game_type)];
    if game_type == GameType::standard(Variant::English) {
        let deck = builtin_openings();
        let english = deck.iter().step_by(10).take(OPENINGS);
        list.extend(english.map(|o| AnyPosition::from(o.position)));
    } else {
        list.extend(
            openings(game_type, OPENINGS, 0)
                .into_iter()
                .map(|o| o.position),
        );
    }
    list
}

fn rate(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9)
}

/// The nodes and the time of searching each of `situations` to `depth` at `level` with `evaluation` (each the
/// fastest of [`REPEATS`] searches, the tables cleared before each).
fn measure(
    situations: &[AnySituation],
    level: Level,
    depth: u32,
    engine: &EngineConfig,
    evaluation: Evaluation,
) -> (u64, Duration) {
    let mut nodes = 0;
    let mut spent = Duration::ZERO;
    let mut engine = Engine::with_config(engine.clone().with_evaluation(evaluation));
    for situation in situations {
        let mut searched = 0;
        spent += fastest(&mut engine, Engine::clear, |engine| {
            searched = engine
                .think(situation, level, &Limits::depth(depth), 0, &mut |_| {})
                .nodes;
        });
        nodes += searched;
    }
    (nodes, spent)
}
