//! `crowned book`: build an opening book by crowned's own analysis, and look positions up in one.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Subcommand;
use crowned::engine::book::Book;
use crowned::engine::{EngineConfig, builtin_openings};
use crowned::lab::book_build::{BookPlan, build_book};
use crowned::rules::{English, Position, SquareStyle, parse_fen, write_move};

use super::cores;
use super::progress::TerminalProgress;

/// `crowned book`'s options: the step to take.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    step: BookStep,
}

/// What `crowned book` does.
#[derive(Subcommand, Debug)]
pub enum BookStep {
    /// Build an English opening book from the start and every opening of the 3-move ballot deck by drop-out
    /// expansion: every move of a book position searched to --depth, the values minimaxed, and the next position
    /// the one the best lines of both sides lead to. Use it with `crowned hub --book FILE`.
    Build {
        /// The file to write (refused if it exists, unless --force).
        #[arg(long)]
        out: PathBuf,
        /// Replace --out if it exists.
        #[arg(long)]
        force: bool,
        /// Plies each move is searched to.
        #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,
        /// Positions the book is to hold.
        #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        positions: u64,
        /// What following a line one ply further costs, against the value given away on it, in hundredths of a
        /// man: higher makes a wider, shallower book.
        #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(i32).range(0..=1000))]
        ply_cost: i32,
        /// Threads searching at once (default: every core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: Option<u64>,
    },
    /// Print the book's moves for positions (PDN FEN), best first.
    Probe {
        /// The book file.
        #[arg(long)]
        book: PathBuf,
        /// The positions.
        #[arg(required = true)]
        fens: Vec<String>,
    },
}

/// `crowned book`: the step asked for.
pub fn run(args: BookArgs) -> Result<ExitCode> {
    match args.step {
        BookStep::Build {
            out,
            force,
            depth,
            positions,
            ply_cost,
            threads,
        } => {
            if out.exists() && !force {
                bail!("{} exists; --force replaces it", out.display());
            }
            let mut roots: Vec<Position<English>> = vec![Position::start()];
            roots.extend(builtin_openings().iter().map(|o| o.position));
            let plan = BookPlan {
                depth,
                positions: positions as usize,
                ply_cost,
                threads: threads.map_or_else(cores, |t| t as usize),
                engine: EngineConfig::default().with_egdb(super::databases()),
            };
            let progress = TerminalProgress::on_terminal(positions, "positions");
            let book = build_book(&roots, &plan, &mut |done| progress.set_done(done as u64));
            progress.finish();
            std::fs::write(&out, book.to_text())
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!("{} positions written to {}", book.len(), out.display());
        }
        BookStep::Probe { book, fens } => {
            let book = read(&book)?;
            for fen in fens {
                let pos: Position<English> =
                    parse_fen(&fen).with_context(|| format!("the position {fen:?}"))?;
                match book.moves(&pos) {
                    Some(moves) => {
                        let listed: Vec<String> = moves
                            .iter()
                            .map(|(m, v)| {
                                format!("{}={v}", write_move(&pos, m, SquareStyle::Numbers))
                            })
                            .collect();
                        println!("{fen}: {}", listed.join(" "));
                    }
                    None => println!("{fen}: not in the book"),
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a book file.
pub fn read(path: &std::path::Path) -> Result<Arc<Book>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the book {}", path.display()))?;
    let book = Book::from_text(&text).with_context(|| format!("the book {}", path.display()))?;
    Ok(Arc::new(book))
}
