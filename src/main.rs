//! The `crowned` command line.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, error::ErrorKind};

use crowned::game::pdn::check_games;
use crowned::rules::{
    Duplicates, English, Move, Position, SquareStyle, divide, full_route, parse_fen,
    perft_by_depth, to_fen, write_move,
};

/// Draughts (checkers) in the terminal.
#[derive(Parser, Debug)]
#[command(name = "crowned", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// Start from this position (PDN FEN, e.g. "B:W21-32:B1-12") instead of the standard start.
    #[arg(long, global = true, value_name = "FEN")]
    fen: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Work with PDN game files.
    Pdn {
        #[command(subcommand)]
        command: PdnCommand,
    },
    /// Count the leaves of the legal-move tree to each depth from 1 to DEPTH (checks the move generator).
    Perft {
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
    },
}

#[derive(Subcommand, Debug)]
enum PdnCommand {
    /// Replay every game of the files with the rules and report the games that fail. Exit code 0 when all
    /// games are fine, 1 when some are not, 2 when a file cannot be read.
    Check {
        /// PDN files to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line is enough to say what is wrong; `--help` has the rest.
            let text = e.to_string();
            let summary: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!(
                "crowned: {}",
                summary.join(" ").trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("crowned: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let position = match &cli.fen {
        Some(text) => parse_fen::<English>(text).with_context(|| format!("bad FEN {text:?}"))?,
        None => Position::start(),
    };
    match cli.command {
        Some(Command::Perft {
            depth,
            divide: split,
            no_dup,
        }) => {
            let duplicates = if no_dup {
                Duplicates::Merge
            } else {
                Duplicates::Keep
            };
            run_perft(&position, depth, split, duplicates)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Pdn {
            command: PdnCommand::Check { files },
        }) => check_files(&files),
        None => {
            show(&position)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `crowned pdn check`: one line per problem game, then `games <total> ok <ok> errors <errors>`.
fn check_files(files: &[PathBuf]) -> Result<ExitCode> {
    let mut out = io::stdout().lock();
    let (mut total, mut errors, mut unreadable) = (0, 0, false);
    for path in files {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("crowned: cannot read {}: {e}", path.display());
                unreadable = true;
                continue;
            }
        };
        // Real files are not always UTF-8; a stray byte should not hide the games around it.
        let text = String::from_utf8_lossy(&bytes);
        let prefix = if files.len() > 1 {
            format!("{}: ", path.display())
        } else {
            String::new()
        };
        for game in check_games(&text) {
            total += 1;
            if let Some(problem) = game.problem {
                errors += 1;
                writeln!(
                    out,
                    "{prefix}game {} {:?}: {problem}",
                    game.index, game.event
                )?;
            }
        }
    }
    writeln!(out, "games {total} ok {} errors {errors}", total - errors)?;
    Ok(if unreadable {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn run_perft(position: &Position, depth: u32, split: bool, duplicates: Duplicates) -> Result<()> {
    let mut out = io::stdout().lock();
    let started = Instant::now();
    let counts = perft_by_depth(position, depth, duplicates);
    let seconds = started.elapsed().as_secs_f64();
    for (d, nodes) in (1..).zip(&counts) {
        writeln!(out, "perft {d} {nodes}")?;
    }
    out.flush()?;
    let leaves = counts.last().copied().unwrap_or(1);
    eprintln!(
        "{seconds:.3} s, {:.1} M leaves/s at depth {depth} (every depth from one walk of the tree)",
        leaves as f64 / seconds.max(1e-9) / 1e6
    );
    if split {
        let moves = divide(position, depth, duplicates);
        let all: Vec<Move> = moves.iter().map(|(m, _)| *m).collect();
        for (m, count) in &moves {
            writeln!(out, "{} {count}", root_move_text(position, m, &all))?;
        }
    }
    Ok(())
}

/// The shortest text that tells `m` apart from the other listed moves (which may include several routes with
/// the same effect).
fn root_move_text(position: &Position, m: &Move, listed: &[Move]) -> String {
    let clash = listed
        .iter()
        .any(|o| o != m && o.from() == m.from() && o.to() == m.to());
    if clash {
        full_route(m, SquareStyle::Numbers, Position::<English>::GEOMETRY)
    } else {
        write_move(position, m, SquareStyle::Numbers)
    }
}

/// Until the full-screen game exists: print the position and its legal moves.
fn show(position: &Position) -> Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{position}")?;
    writeln!(out, "FEN {}", to_fen(position))?;
    let moves = position.legal_moves();
    if moves.is_empty() {
        writeln!(
            out,
            "{} has no legal move and loses.",
            position.side_to_move()
        )?;
    } else {
        let texts: Vec<String> = moves
            .iter()
            .map(|m| write_move(position, m, SquareStyle::Numbers))
            .collect();
        writeln!(out, "Legal moves: {}", texts.join(" "))?;
    }
    writeln!(
        out,
        "(The full-screen game is not built yet; this prints the position. See `crowned --help`.)"
    )?;
    Ok(())
}
