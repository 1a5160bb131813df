//! `crowned match`: engine against engine over the ballot openings.

use std::path::Path;

use anyhow::{Context, Result};
use crowned::engine::{MatchConfig, play_match};
use crowned::game::pdn::write_games;

/// `crowned match`: a line per game on stderr, the tally on stdout.
pub fn run_match(config: &MatchConfig, pdn: Option<&Path>) -> Result<()> {
    if let Some(path) = pdn {
        // Find out now, not after an hour of games, that the file cannot be written.
        write_atomically(path, "")?;
    }
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
        write_atomically(path, &write_games(&games))?;
    }
    println!(
        "a {} b {} draws {}",
        result.a_wins, result.b_wins, result.draws
    );
    Ok(())
}

/// Writes `text` to a temporary file beside `path`, then renames it over `path`: a crash or a full disk never
/// leaves a half-written file, and an old file is replaced only by a complete new one.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = Path::new(&temporary);
    std::fs::write(temporary, text)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(temporary, path).with_context(|| {
        let _ = std::fs::remove_file(temporary);
        format!("cannot replace {}", path.display())
    })
}
