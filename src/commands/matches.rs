//! `crowned match`: engine against engine over the ballot openings.

use anyhow::{Context, Result};
use crowned::engine::{MatchConfig, play_match};
use crowned::game::pdn::write_games;

/// `crowned match`: a line per game on stderr, the tally on stdout.
pub fn run_match(config: &MatchConfig, pdn: Option<&std::path::Path>) -> Result<()> {
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
