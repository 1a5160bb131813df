//! `crowned match`: engine against engine over the ballot openings (English) or random openings (the variants).

use std::fs::File;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use std::time::Duration;

use anyhow::{Context, Result};
use crowned::engine::{EngineConfig, Level, builtin_openings, openings_from_json};
use crowned::game::TimeControl;
use crowned::lab::sprt::{Sprt, SprtVerdict};
use crowned::lab::{Contender, MatchConfig, MatchOpenings, MatchResult, play_match};
use crowned::rules::{GameType, Variant};
use crowned::store::{create_new, create_temporary};

use super::progress::TerminalProgress;
use super::{BoardOptions, parse_seconds};

/// The exit code of a match stopped by Ctrl-c, as shells report a process ended by SIGINT.
const INTERRUPTED: u8 = 130;

/// `crowned match`'s options: the two players and how they meet.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The first player's level (or --a-hub).
    #[arg(long, required_unless_present = "a_hub")]
    a: Option<Level>,
    /// The second player's level (or --b-hub).
    #[arg(long, required_unless_present = "b_hub")]
    b: Option<Level>,
    /// Another engine as the first player: a program that speaks the Hub protocol, with its arguments
    /// (another build of crowned: "path/to/crowned hub").
    #[arg(long, value_name = "COMMAND", conflicts_with = "a")]
    a_hub: Option<String>,
    /// Another engine as the second player (see --a-hub).
    #[arg(long, value_name = "COMMAND", conflicts_with = "b")]
    b_hub: Option<String>,
    /// The first player (a --a-hub engine) thinks on the opponent's time: after each of its moves it is told
    /// `go ponder` on the reply it expects, and `ponder-hit` when that reply is played. It takes a core of its
    /// own while the opponent thinks: measure it on a machine with a free core for each engine.
    #[arg(long, requires = "a_hub")]
    a_ponder: bool,
    /// The second player (a --b-hub engine) thinks on the opponent's time (see --a-ponder).
    #[arg(long, requires = "b_hub")]
    b_ponder: bool,
    /// Play until a sequential probability ratio test decides whether the first player is ELO1 or more
    /// stronger or no more than ELO0 (such as 0,10), 5% error either way, counting pairs of games; the
    /// openings are played again as needed, up to --games (default 20000).
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt, allow_hyphen_values = true)]
    sprt: Option<Sprt>,
    /// How many games (default: every opening of the deck twice; 100 from random openings).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Seconds per move.
    #[arg(long, default_value = "0.1", value_parser = parse_seconds)]
    time: f64,
    /// A clock for each side instead of a time per move: minutes and an increment in seconds (1+0.1), or
    /// seconds per move (0.5s); a side whose time runs out loses.
    #[arg(long, value_name = "CONTROL", conflicts_with = "time")]
    clock: Option<TimeControl>,
    /// English openings as JSON (`all`: name to FEN, `standard`: the deck); default: the built-in deck.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Write every game to this new PDN file, each as soon as it ends (an interrupted match keeps every
    /// finished game). An existing file is refused unless --force is given.
    #[arg(long, value_name = "OUT")]
    pdn: Option<PathBuf>,
    /// Replace the --pdn file if it exists (the old file is gone as soon as the match starts).
    #[arg(long, requires = "pdn")]
    force: bool,
    /// Seed for the random openings and the random choices of the weaker levels.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// The bounds of an SPRT: two Elo differences, `ELO0,ELO1`.
fn parse_sprt(text: &str) -> Result<Sprt, String> {
    let (low, high) = text
        .split_once(',')
        .ok_or_else(|| format!("{text:?}: give two Elo differences, such as 0,10"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<f64>()
            .map_err(|_| format!("{t:?} is not an Elo difference"))
    };
    Sprt::new(number(low)?, number(high)?).map_err(|e| e.to_string())
}

/// `crowned match` under the rules of the command line.
pub fn run(args: MatchArgs, board: &BoardOptions) -> Result<ExitCode> {
    let game_type = board.game_type;
    let openings = openings(args.openings, game_type)?;
    let config = MatchConfig {
        game_type,
        a: contender(args.a, args.a_hub)?,
        b: contender(args.b, args.b_hub)?,
        sprt: args.sprt,
        time: match args.clock {
            Some(TimeControl::PerMove(step)) => step,
            _ => Duration::from_secs_f64(args.time),
        },
        clock: match args.clock {
            Some(TimeControl::Fischer { initial, increment }) => Some((initial, increment)),
            _ => None,
        },
        openings,
        games: args.games.map(|g| g as usize),
        seed: args.seed,
        ponder: [args.a_ponder, args.b_ponder],
        engine: EngineConfig::default().with_egdb(super::databases()),
    };
    run_match(&config, args.pdn.as_deref(), args.force)
}

/// The openings of a match: a deck for English 8x8 (the file's, else the built-in one), random ones for the
/// rest.
fn openings(file: Option<PathBuf>, game_type: GameType) -> Result<MatchOpenings> {
    let english = game_type == GameType::standard(Variant::English);
    Ok(match file {
        Some(path) if english => {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            MatchOpenings::Deck(
                openings_from_json(&text).with_context(|| format!("{}", path.display()))?,
            )
        }
        Some(_) => anyhow::bail!(
            "--openings is a deck of English draughts openings; {game_type} matches start from random \
             openings drawn from --seed"
        ),
        None if english => MatchOpenings::Deck(builtin_openings()),
        None => MatchOpenings::Random,
    })
}

/// A player: a level of this engine, or another engine's command.
fn contender(level: Option<Level>, hub: Option<String>) -> Result<Contender> {
    match (level, hub) {
        (Some(level), _) => Ok(Contender::Level(level)),
        (None, Some(command)) if !command.trim().is_empty() => Ok(Contender::Hub(
            command.split_whitespace().map(str::to_string).collect(),
        )),
        // clap requires one of the two.
        _ => Err(anyhow::anyhow!(
            "give a level or a Hub engine's command for each player"
        )),
    }
}

/// A line per game on stderr (above a progress bar on a terminal), the tally on stdout.
///
/// With `pdn`, each game is appended to that file and synced to disk as soon as it ends, so an interrupted match
/// keeps every finished game. An existing file is replaced only when `force` is given.
fn run_match(config: &MatchConfig, pdn: Option<&Path>, force: bool) -> Result<ExitCode> {
    // Find out now, not after an hour of games, that the file cannot be written.
    let mut file = pdn.map(|path| GameFile::create(path, force)).transpose()?;
    let stop = Arc::new(AtomicBool::new(false));
    watch_interrupts(&stop)?;
    let total = config.total_games();
    let progress = TerminalProgress::on_terminal(total as u64, "games");
    let mut failure = None;
    let result = play_match(config, &stop, &mut |g, so_far| {
        // Saved first, so that a game reported is a game on disk.
        if let Some(Err(e)) = file.as_mut().map(|f| f.append(&g.game.to_pdn())) {
            failure = Some(e);
            return ControlFlow::Break(());
        }
        progress.line(&format!(
            "game {}/{total} {} (a: {}): {}",
            g.number, g.opening, g.a_color, g.outcome
        ));
        progress.set_done(g.number as u64);
        progress.set_message(match config.sprt {
            Some(test) => format!("{} LLR {:.2}", tally(so_far), test.llr(&so_far.pairs)),
            None => tally(so_far),
        });
        ControlFlow::Continue(())
    });
    progress.finish();
    let result = result?;
    if let Some(e) = failure {
        return Err(e);
    }
    // The tally last: scripts read the last line.
    println!("{}", time_use(&result, config));
    println!("a: {}; b: {}", result.names[0], result.names[1]);
    if let Some(elo) = result.pairs.elo() {
        println!(
            "a against b: {elo} over {} pairs of games",
            result.pairs.count()
        );
    }
    if let Some(test) = config.sprt {
        println!("{}", sprt_line(&test, &result));
    }
    println!("{}", tally(&result));
    if result.stopped {
        let kept = match pdn {
            Some(path) => format!("; the finished games are in {}", path.display()),
            None => String::new(),
        };
        eprintln!(
            "crowned: interrupted after {} of {total} games{kept}",
            result.games()
        );
        return Ok(ExitCode::from(INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// How each side used its time against the budget per move: `time per move (budget 100 ms): a average 96.1 ms,
/// longest 98.0 ms; b ...`.
fn time_use(result: &MatchResult, config: &MatchConfig) -> String {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let side = |name: &str, used: &crowned::lab::TimeUse| {
        let clock = match used.least_left {
            Some(least) if config.clock.is_some() => format!(
                ", least left {:.1} ms, {} lost on time",
                ms(least),
                used.flag_falls
            ),
            _ => String::new(),
        };
        let ponder = used.ponder;
        let pondered = match ponder.hits + ponder.misses {
            0 => String::new(),
            tries => format!(
                ", pondered {tries} times, {} hits ({:.0}%)",
                ponder.hits,
                100.0 * ponder.hits as f64 / tries as f64
            ),
        };
        format!(
            "{name} average {:.1} ms, longest {:.1} ms over {} moves (and {} forced){clock}{pondered}",
            ms(used.average()),
            ms(used.longest),
            used.moves,
            used.forced
        )
    };
    let budget = match config.clock {
        Some((initial, increment)) => format!(
            "clock {:.1} s + {:.1} ms a move",
            initial.as_secs_f64(),
            ms(increment)
        ),
        None => format!("budget {:.1} ms", ms(config.time)),
    };
    format!(
        "time per move ({budget}): {}; {}",
        side("a", &result.time_use[0]),
        side("b", &result.time_use[1])
    )
}

/// What the test decided: `SPRT (elo0 0, elo1 10): a is at least 10 Elo stronger (LLR 2.96, bounds -2.94 and
/// 2.94)`, or that it is undecided.
fn sprt_line(test: &Sprt, result: &MatchResult) -> String {
    let (lower, upper) = test.bounds();
    let decision = match result.verdict {
        Some(SprtVerdict::Elo1) => format!("a is at least {} Elo stronger", test.elo1),
        Some(SprtVerdict::Elo0) => format!("a is not more than {} Elo stronger", test.elo0),
        None => "undecided".to_string(),
    };
    format!(
        "SPRT (elo0 {}, elo1 {}): {decision} (LLR {:.2}, bounds {lower:.2} and {upper:.2})",
        test.elo0,
        test.elo1,
        test.llr(&result.pairs)
    )
}

/// `a <wins> b <wins> draws <draws>`.
fn tally(result: &MatchResult) -> String {
    format!(
        "a {} b {} draws {}",
        result.a_wins, result.b_wins, result.draws
    )
}

/// Ctrl-c (and a polite kill) raises `stop`, which ends the match after saving what is finished; a second one
/// ends the program at once, for when stopping takes too long. Finished games are on disk either way.
fn watch_interrupts(stop: &Arc<AtomicBool>) -> Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    for signal in [SIGINT, SIGTERM] {
        // The order matters: the exit is armed first, so it fires only when the flag was already raised.
        flag::register_conditional_shutdown(signal, i32::from(INTERRUPTED), Arc::clone(stop))
            .context("cannot watch for Ctrl-c")?;
        flag::register(signal, Arc::clone(stop)).context("cannot watch for Ctrl-c")?;
    }
    Ok(())
}

/// The PDN file of a match, written one game at a time.
struct GameFile {
    file: File,
    path: PathBuf,
    games: usize,
    /// With `--force`, the new file's temporary name beside the old one: the old file stays whole until the
    /// first game is on disk, then the new file takes its place.
    replacing: Option<PathBuf>,
}

impl GameFile {
    /// Opens a new, empty file at `path`. An existing file (or anything else at `path`, a symlink included) is
    /// refused unless `force` is given; then the new file takes its place once the first game is on disk (never
    /// writing through it), so a match stopped before any game ends leaves it as it was.
    fn create(path: &Path, force: bool) -> Result<GameFile> {
        let (file, replacing) = if force {
            let (temporary, file) = beside(path)?;
            (file, Some(temporary))
        } else {
            let file = create_new(path).map_err(|e| match e.kind() {
                io::ErrorKind::AlreadyExists => anyhow::anyhow!(
                    "{} already exists; choose another file or add --force to replace it",
                    path.display()
                ),
                _ => anyhow::Error::new(e).context(format!("cannot create {}", path.display())),
            })?;
            (file, None)
        };
        Ok(GameFile {
            file,
            path: path.to_owned(),
            games: 0,
            replacing,
        })
    }

    /// Adds a game and waits until it is on disk: a crash or Ctrl-c after this loses nothing of it.
    fn append(&mut self, game_text: &str) -> Result<()> {
        let mut text = String::with_capacity(game_text.len() + 1);
        // Games are separated by a blank line, as when a whole file is written at once.
        if self.games > 0 {
            text.push('\n');
        }
        text.push_str(game_text);
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data())
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        self.games += 1;
        if let Some(temporary) = self.replacing.take() {
            // A rename replaces a symlink at `path` rather than following it.
            std::fs::rename(&temporary, &self.path)
                .with_context(|| format!("cannot replace {}", self.path.display()))?;
        }
        Ok(())
    }
}

impl Drop for GameFile {
    fn drop(&mut self) {
        // No game was finished: the old file stays as it was, and the new one goes.
        if let Some(temporary) = self.replacing.take() {
            let _ = std::fs::remove_file(temporary);
        }
    }
}

/// A new empty file beside `path`, under an unpredictable name, to be renamed over it later.
fn beside(path: &Path) -> Result<(PathBuf, File)> {
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file name", path.display()))?;
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    create_temporary(folder.unwrap_or(Path::new(".")), name)
        .with_context(|| format!("cannot create a temporary file beside {}", path.display()))
}
