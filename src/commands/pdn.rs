//! `crowned pdn check`: replay the games of PDN files.

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use crowned::game::pdn::{check_reader, quoted};

/// `crowned pdn check`: one line per problem game, then `games <total> ok <ok> errors <errors>`. Each file is
/// read and checked a game at a time, so its size does not matter; bytes that are not UTF-8 are read as
/// replacement characters (a stray byte should not hide the games around it).
pub fn check_files(files: &[PathBuf]) -> Result<ExitCode> {
    let mut out = io::stdout().lock();
    let (mut total, mut errors, mut unreadable) = (0, 0, false);
    for path in files {
        let prefix = if files.len() > 1 {
            format!("{}: ", path.display())
        } else {
            String::new()
        };
        let file = match File::open(path) {
            Ok(file) => file,
            Err(e) => {
                eprintln!("crowned: cannot read {}: {e}", path.display());
                unreadable = true;
                continue;
            }
        };
        let mut written = Ok(());
        let read = check_reader(BufReader::new(file), |game, _progress| {
            total += 1;
            if let Some(problem) = game.problem {
                errors += 1;
                if written.is_ok() {
                    written = writeln!(
                        out,
                        "{prefix}game {} {}: {problem}",
                        game.index,
                        quoted(&game.event)
                    );
                }
            }
        });
        written?;
        if let Err(e) = read {
            eprintln!("crowned: cannot read {}: {e}", path.display());
            unreadable = true;
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
