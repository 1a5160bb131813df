//! `crowned pdn check`: replay the games of PDN files.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use crowned::game::pdn::check_games;

/// `crowned pdn check`: one line per problem game, then `games <total> ok <ok> errors <errors>`.
pub fn check_files(files: &[PathBuf]) -> Result<ExitCode> {
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
