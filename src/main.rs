//! The `crowned` command line.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, error::ErrorKind};

use crowned::engine::{
    Engine, Level, Limits, MatchConfig, Situation, builtin_openings, openings_from_json, play_match,
};
use crowned::game::pdn::{check_games, write_games};
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
    /// Let the engine choose a move: progress on stderr, then `bestmove <move> score <score> depth <d> nodes <n>`.
    Think {
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
    },
    /// Play engine against engine over the 3-move ballot openings, each with both colours; the last line is
    /// `a <wins> b <wins> draws <draws>`.
    Match {
        /// The first player's level.
        #[arg(long)]
        a: Level,
        /// The second player's level.
        #[arg(long)]
        b: Level,
        /// How many games (default: every opening twice).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        games: Option<u64>,
        /// Seconds per move.
        #[arg(long, default_value = "0.1", value_parser = parse_seconds)]
        time: f64,
        /// Openings as JSON (`all`: name to FEN, `standard`: the deck); default: the built-in deck.
        #[arg(long, value_name = "FILE")]
        openings: Option<PathBuf>,
        /// Write every game to this PDN file.
        #[arg(long, value_name = "OUT")]
        pdn: Option<PathBuf>,
        /// Seed for the random choices of the weaker levels.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
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
        Some(Command::Think {
            time,
            depth,
            level,
            seed,
        }) => {
            let limits = match (time, depth) {
                (Some(t), _) => Limits::time(Duration::from_secs_f64(t)),
                (None, Some(d)) => Limits::depth(d),
                (None, None) => Limits::time(Duration::from_secs(1)),
            };
            think(&position, level, &limits, seed)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Match {
            a,
            b,
            games,
            time,
            openings,
            pdn,
            seed,
        }) => {
            let openings = match openings {
                Some(path) => {
                    let text = std::fs::read_to_string(&path)
                        .with_context(|| format!("cannot read {}", path.display()))?;
                    openings_from_json(&text).with_context(|| format!("{}", path.display()))?
                }
                None => builtin_openings(),
            };
            let config = MatchConfig {
                a,
                b,
                time: Duration::from_secs_f64(time),
                openings,
                games: games.map(|g| g as usize),
                seed,
            };
            run_match(&config, pdn.as_deref())?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            show(&position)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A number of seconds: positive and finite.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(s),
        Ok(_) => Err(format!(
            "{text} is not a number of seconds between 0 and 86400"
        )),
        Err(_) => Err(format!("{text:?} is not a number of seconds")),
    }
}

/// `crowned think`: progress on stderr, the decision on stdout.
fn think(position: &Position, level: Level, limits: &Limits, seed: u64) -> Result<()> {
    let mut engine = Engine::new();
    let situation = Situation::new(*position);
    let result = engine.think(&situation, level, limits, seed, &mut |p| {
        let line = pv_text(position, &p.pv);
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
            write_move(position, &mv, SquareStyle::Numbers),
            result.score,
            result.depth,
            result.nodes
        )?,
    }
    Ok(())
}

/// Moves of a line in standard notation, each written in the position it is played from.
fn pv_text(start: &Position, pv: &[crowned::rules::Move]) -> String {
    let mut pos = *start;
    let mut words = Vec::new();
    for mv in pv {
        words.push(write_move(&pos, mv, SquareStyle::Numbers));
        pos = pos.play(mv);
    }
    words.join(" ")
}

/// `crowned match`: a line per game on stderr, the tally on stdout.
fn run_match(config: &MatchConfig, pdn: Option<&std::path::Path>) -> Result<()> {
    let mut games = Vec::new();
    let total = config.games.unwrap_or(config.openings.len() * 2);
    let result = play_match(config, &mut |g| {
        let a_side = g.a_color;
        eprintln!(
            "game {}/{total} {} (a: {a_side}): {}",
            g.number, g.opening, g.outcome
        );
        games.push(g.game.clone());
    });
    if let Some(path) = pdn {
        let text = write_games(&games);
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    println!(
        "a {} b {} draws {}",
        result.a_wins, result.b_wins, result.draws
    );
    Ok(())
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
