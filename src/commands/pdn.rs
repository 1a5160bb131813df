//! `crowned pdn check`: replay the games of PDN files.

use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Subcommand;
use crowned::game::pdn::{check_reader_as, quoted};
use crowned::rules::GameType;

use super::BoardOptions;
use super::progress::TerminalProgress;

/// `crowned pdn`'s options: what to do with the files.
#[derive(clap::Args, Debug)]
pub struct PdnArgs {
    #[command(subcommand)]
    command: PdnCommand,
}

/// What `crowned pdn` does.
#[derive(Subcommand, Debug)]
pub enum PdnCommand {
    /// Replay every game of the files with the rules and report the games that fail. Exit code 0 when all
    /// games are fine, 1 when some are not, 2 when a file cannot be read.
    Check {
        /// PDN files to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
}

/// `crowned pdn`: games without a `GameType` tag are read under the rules of the command line when it names
/// any.
pub fn run(args: PdnArgs, board: &BoardOptions) -> Result<ExitCode> {
    match args.command {
        PdnCommand::Check { files } => check_files(&files, board.named()),
    }
}

/// `crowned pdn check`: one line per problem game, then `games <total> ok <ok> errors <errors>`. Each file is
/// read and checked a game at a time, so its size does not matter; bytes that are not UTF-8 are read as
/// replacement characters (a stray byte should not hide the games around it). On a terminal a bar on stderr
/// shows how much of the files has been read. Games without a `GameType` tag are of `default` when given.
fn check_files(files: &[PathBuf], default: Option<GameType>) -> Result<ExitCode> {
    let mut out = io::stdout().lock();
    let (mut total, mut errors, mut unreadable) = (0, 0, false);
    let size = files
        .iter()
        .filter_map(|path| std::fs::metadata(path).ok())
        .map(|m| m.len())
        .sum();
    let bar = TerminalProgress::bytes_on_terminal(size);
    let mut before = 0;
    for path in files {
        let prefix = if files.len() > 1 {
            format!("{}: ", path.display())
        } else {
            String::new()
        };
        let file = match crowned::bounded::open_regular(path) {
            Ok(file) => file,
            Err(e) => {
                bar.line(&format!("crowned: cannot read {}: {e}", path.display()));
                unreadable = true;
                continue;
            }
        };
        let mut written = Ok(());
        let read = check_reader_as(BufReader::new(file), default, |game, progress| {
            total += 1;
            bar.set_done(before + progress.bytes_read);
            if let Some(problem) = game.problem {
                errors += 1;
                if written.is_ok() {
                    // The bar steps aside while a line goes to the terminal they may share.
                    written = bar.suspend(|| {
                        writeln!(
                            out,
                            "{prefix}game {} {}: {problem}",
                            game.index,
                            quoted(&game.event)
                        )
                    });
                }
            }
            bar.set_message(format!("{total} games, {errors} with errors"));
        });
        written?;
        match read {
            Ok(progress) => before += progress.bytes_read,
            Err(e) => {
                bar.line(&format!("crowned: cannot read {}: {e}", path.display()));
                unreadable = true;
            }
        }
    }
    bar.finish();
    writeln!(out, "games {total} ok {} errors {errors}", total - errors)?;
    Ok(if unreadable {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
