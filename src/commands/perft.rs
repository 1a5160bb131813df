//! `crowned perft`: count the leaves of the legal-move tree.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use crowned::rules::{
    AnyPosition, Duplicates, GamePosition, Move, PerftReport, SquareStyle, perft_reporting,
};

use super::BoardOptions;
use super::progress::TerminalProgress;

/// `crowned perft`'s options.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// How many plies deep to count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=28))]
    depth: u32,
    /// Also list each move of the starting position with the count below it at DEPTH.
    #[arg(long)]
    divide: bool,
    /// Count capture routes that take the same pieces to the same square once (published tables count
    /// every route).
    #[arg(long)]
    no_dup: bool,
}

/// `crowned perft`: counts from the position of the command line, under its rules.
pub fn run(args: PerftArgs, board: &BoardOptions) -> Result<ExitCode> {
    let duplicates = if args.no_dup {
        Duplicates::Merge
    } else {
        Duplicates::Keep
    };
    run_perft(&board.position()?, args.depth, args.divide, duplicates)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints `perft <depth> <nodes>` for each depth as soon as it is known, then with `split` each root move with
/// its count at `depth`. On a terminal a bar on stderr shows the root moves done in the deepest walk. Each rule
/// set counts with its own generator (a defined variant's counts one move per route).
fn run_perft(
    position: &AnyPosition,
    depth: u32,
    split: bool,
    duplicates: Duplicates,
) -> Result<()> {
    let mut out = io::stdout().lock();
    let started = Instant::now();
    let mut progress: Option<TerminalProgress> = None;
    let mut root_counts: Vec<(Move, u64)> = Vec::new();
    let mut leaves = 1;
    // The first write error is kept and the rest of the count skipped: a closed pipe should end the command.
    let mut failure: Option<io::Error> = None;
    perft_reporting(position, depth, duplicates, &mut |report| {
        if failure.is_some() {
            return;
        }
        match report {
            PerftReport::Depth { depth: d, nodes } => {
                leaves = nodes;
                let line = format!("perft {d} {nodes}");
                let written = match &progress {
                    Some(bar) => bar.suspend(|| writeln!(out, "{line}")),
                    None => writeln!(out, "{line}"),
                };
                failure = written.and_then(|()| out.flush()).err();
            }
            PerftReport::DeepWalk { root_moves } => {
                progress = Some(TerminalProgress::on_terminal(
                    root_moves as u64,
                    &format!("root moves at depth {depth}"),
                ));
            }
            PerftReport::RootMove { done, mv, leaves } => {
                if let Some(bar) = &progress {
                    bar.set_done(done as u64);
                }
                root_counts.push((mv, leaves));
            }
        }
    });
    if let Some(bar) = &progress {
        bar.finish();
    }
    if let Some(e) = failure {
        return Err(e.into());
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{seconds:.3} s, {:.1} M leaves/s at depth {depth}",
        leaves as f64 / seconds.max(1e-9) / 1e6
    );
    if split {
        let all: Vec<Move> = root_counts.iter().map(|(m, _)| *m).collect();
        for (m, count) in &root_counts {
            writeln!(out, "{} {count}", root_move_text(position, m, &all))?;
        }
    }
    Ok(())
}

/// The shortest text that tells `m` apart from the other listed moves (which may include several routes with
/// the same effect).
fn root_move_text(position: &AnyPosition, m: &Move, listed: &[Move]) -> String {
    let clash = listed
        .iter()
        .any(|o| o != m && o.from() == m.from() && o.to() == m.to());
    if clash {
        position.write_route(m, SquareStyle::Numbers)
    } else {
        position.write_move(m, SquareStyle::Numbers)
    }
}
