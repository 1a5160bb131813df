//! The `crowned` command line: the game by default, else the command named; each command's options and work
//! are in its module of `commands`.

mod cli;
mod commands;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, error::ErrorKind};
use cli::{Cli, Command};
use commands::BoardOptions;

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
    if cli.print_config {
        return commands::settings::print(&cli.play.overrides());
    }
    // Checked for every command, even those that take no rules, as the options are global.
    let variant = commands::variant_named(cli.variant.as_deref(), cli.variant_file.as_deref())?;
    let board = BoardOptions::new(variant, cli.size, cli.rows, cli.fen)?;
    match cli.command {
        None => commands::play::run(&cli.play.overrides(), &board, cli.file.as_deref()),
        Some(Command::Show) => commands::show::run(&board),
        Some(Command::Think(args)) => commands::think::run(args, &board),
        Some(Command::Match(args)) => commands::matches::run(args, &board),
        Some(Command::Bench(args)) => commands::bench::run(args, &board),
        Some(Command::Pdn(args)) => commands::pdn::run(args, &board),
        Some(Command::Serve(args)) => commands::serve::run(*args),
        Some(Command::Tune(args)) => commands::tune::run(args, &board),
        Some(Command::Egdb(args)) => commands::egdb::run(args, &board),
        Some(Command::Book(args)) => commands::book::run(args),
        Some(Command::Problems(args)) => commands::problems::run(args, &cli.play.overrides()),
        Some(Command::Hub(args)) => commands::hub::run(args),
        Some(Command::Perft(args)) => commands::perft::run(args, &board),
        Some(Command::Variant(args)) => commands::variant::run(args),
    }
}
