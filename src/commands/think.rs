//! `crowned think`: let the engine choose a move.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use crowned::engine::{AnySituation, Engine, EngineConfig, Level, Limits};
use crowned::rules::{AnyPosition, Move, SquareStyle};

use super::{BoardOptions, cores, parse_seconds};

/// `crowned think`'s options.
#[derive(clap::Args, Debug)]
pub struct ThinkArgs {
    /// Seconds to think.
    #[arg(long, value_name = "SECONDS", conflicts_with = "depth", value_parser = parse_seconds)]
    time: Option<f64>,
    /// Plies to search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=96))]
    depth: Option<u32>,
    /// Playing level: random, easy, medium, hard or max.
    #[arg(long, default_value = "max")]
    level: Level,
    /// Seed for the random choices of the weaker levels.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Search threads at full strength (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: Option<u64>,
}

/// `crowned think`: the engine's move in the position of the command line; a second when neither a time nor a
/// depth is given.
pub fn run(args: ThinkArgs, board: &BoardOptions) -> Result<ExitCode> {
    let limits = match (args.time, args.depth) {
        (Some(t), _) => Limits::time(Duration::from_secs_f64(t)),
        (None, Some(d)) => Limits::depth(d),
        (None, None) => Limits::time(Duration::from_secs(1)),
    };
    think(&board.position()?, args, &limits)?;
    Ok(ExitCode::SUCCESS)
}

/// The engine's move in `position`, under its rules (built-in or defined, one engine for both): progress on
/// stderr, the decision on stdout, moves in the variant's notation.
fn think(position: &AnyPosition, args: ThinkArgs, limits: &Limits) -> Result<()> {
    let variant = position.variant();
    let egdb = super::databases();
    // Analysis wants the win/draw/loss tables from its first node, not once a thread has read them (a variant
    // without tables, a defined one among them, has nothing to load).
    if let Some(tables) = egdb.as_deref().and_then(|db| db.wld())
        && let Err(e) = tables.load(variant)
    {
        eprintln!("crowned: warning: {e}; the search goes on without that table");
    }
    let config = EngineConfig::default()
        .with_threads(args.threads.map_or_else(cores, |t| t as usize))
        .with_egdb(egdb);
    let mut engine = Engine::with_config(config);
    let style = variant.notation();
    let situation = AnySituation::at(*position);
    let result = engine.think(&situation, args.level, limits, args.seed, &mut |p| {
        let line = pv_text(position, &p.pv, style);
        eprintln!(
            "depth {} score {} nodes {} nps {} time {:.3} pv {line}",
            p.depth,
            p.score,
            p.nodes,
            p.nodes_per_second(),
            p.elapsed.as_secs_f64()
        );
    });
    let mut out = io::stdout().lock();
    match result.best {
        None => writeln!(out, "bestmove none")?,
        Some(mv) => writeln!(
            out,
            "bestmove {} score {} depth {} nodes {}",
            position.write_move(&mv, style),
            result.score,
            result.depth,
            result.nodes
        )?,
    }
    Ok(())
}

/// Moves of a line in the variant's notation, each written in the position it is played from.
fn pv_text(start: &AnyPosition, pv: &[Move], style: SquareStyle) -> String {
    let mut pos = *start;
    let mut words = Vec::new();
    for mv in pv {
        words.push(pos.write_move(mv, style));
        pos = pos.play(mv);
    }
    words.join(" ")
}
