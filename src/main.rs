//! The `crowned` command line.

mod commands;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, error::ErrorKind};
use crowned::app::{Orientation, Player};
use crowned::config::{
    ENGINE_MEGABYTES, ENGINE_THREADS, IDLE_TIMEOUT, MAX_PER_ADDRESS, MAX_SESSIONS, Overrides,
    SEAT_GRACE, Settings, SettingsError, check_seconds, parse_listen,
};
use crowned::engine::{
    Level, Limits, MatchConfig, MatchOpenings, builtin_openings, openings_from_json,
};
use crowned::rules::{
    AnyPosition, Duplicates, GameType, Playable, Position, PositionVisitor, SquareStyle, Variant,
    excerpt,
};
use crowned::store::Store;
use crowned::ui::{PieceStyle, ThemeName};

/// Draughts (checkers) in the terminal.
#[derive(Parser, Debug)]
#[command(
    name = "crowned",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// Start from this position (PDN FEN, e.g. "B:W21-32:B1-12") instead of the standard start.
    #[arg(long, global = true, value_name = "FEN")]
    fen: Option<String>,

    /// The rules: english, international, russian, brazilian, pool, italian, spanish, czech, thai or canadian.
    /// For PDN files, the variant of games without a GameType tag.
    #[arg(long, global = true, value_name = "NAME")]
    variant: Option<Variant>,

    /// The size of the board for English rules: 6, 8, 10, 12 or 14.
    #[arg(long, global = true, value_name = "N")]
    size: Option<u8>,

    /// Rows of men each side starts with (English rules; `size / 2 - 1` by default).
    #[arg(long, global = true, value_name = "R")]
    rows: Option<u8>,

    /// A PDN file to replay: its games are listed to choose from (a file of one game opens at once).
    #[arg(value_name = "FILE.pdn")]
    file: Option<PathBuf>,

    #[command(flatten)]
    play: PlayArgs,

    /// Print the settings in effect (the defaults, the settings file, then these options) as a settings file,
    /// and exit.
    #[arg(long)]
    print_config: bool,
}

/// How the game on screen is set up (when no command is given). Each option overrides its setting in the
/// settings file, which overrides the built-in default (`--print-config` shows the result).
#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// Who plays Black (moves first): human, or an engine level (random, easy, medium, hard, max) [setting
    /// players.black, built in: human].
    #[arg(long, value_name = "PLAYER")]
    black: Option<Player>,
    /// Who plays White [setting players.white, built in: medium].
    #[arg(long, value_name = "PLAYER")]
    white: Option<Player>,
    /// Seconds the engine thinks per move [setting engine.time, built in: 1].
    #[arg(long = "time", value_name = "SECONDS", value_parser = parse_seconds)]
    think_time: Option<f64>,
    /// In a game between engines, seconds each move stays on the board before the next is shown; 0 as fast as
    /// they play [setting engine.pace, built in: 1].
    #[arg(long, value_name = "SECONDS", value_parser = parse_pace)]
    pace: Option<f64>,
    /// Colour theme: classic (16 colours), wood (24-bit colour) or mono (no colour; also chosen by NO_COLOR)
    /// [setting display.theme, built in: classic].
    #[arg(long)]
    theme: Option<ThemeName>,
    /// Draw pieces with ASCII letters (b w B W) instead of Unicode symbols [setting display.pieces].
    #[arg(long)]
    ascii: bool,
    /// Hide the square numbers inside the squares [setting display.square-numbers].
    #[arg(long)]
    no_numbers: bool,
    /// How the move list writes moves: numbers (11-15) or coordinates (c3-d4) [setting display.notation, built
    /// in: numbers].
    #[arg(long)]
    notation: Option<SquareStyle>,
    /// Which side is at the bottom: auto (Black when one person plays Black against the engine), black-bottom
    /// or white-bottom [setting display.orientation, built in: auto].
    #[arg(long)]
    orientation: Option<Orientation>,
    /// Do not mark the squares the selected piece can move to [setting display.legal-moves].
    #[arg(long)]
    no_legal_moves: bool,
    /// Show moves at once instead of stepping the piece along its path [setting display.animation-step].
    #[arg(long)]
    no_animation: bool,
    /// Save nothing without being asked: no autosave, no resume, no filing of finished games; :save still
    /// works [setting game.autosave].
    #[arg(long)]
    no_autosave: bool,
    /// Moves by each side without a capture or a man moving before the game is drawn [setting
    /// game.move-limit, built in: 40].
    #[arg(long, value_name = "MOVES", value_parser = clap::value_parser!(u32).range(1..=1000))]
    move_limit: Option<u32>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the position (the start, or --fen) with its legal moves, without the full-screen game.
    Show,
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
    /// Play engine against engine, each opening with both colours: English over the 3-move ballot deck, the
    /// other variants and boards over random openings drawn from --seed; the last line is `a <wins> b <wins>
    /// draws <draws>`.
    Match {
        /// The first player's level.
        #[arg(long)]
        a: Level,
        /// The second player's level.
        #[arg(long)]
        b: Level,
        /// How many games (default: every opening of the deck twice; 100 from random openings).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        games: Option<u64>,
        /// Seconds per move.
        #[arg(long, default_value = "0.1", value_parser = parse_seconds)]
        time: f64,
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
    },
    /// Measure the engine: positions per second on a fixed set of positions, and the depth it reaches from the
    /// start in a given time.
    Bench {
        /// What to measure instead of the engine.
        #[command(subcommand)]
        target: Option<BenchTarget>,
        /// Seconds for the depth test from the start position.
        #[arg(long, default_value = "1", value_parser = parse_seconds)]
        time: f64,
        /// Plies each position is searched to (default: 14 for English 8x8, less on wider boards).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: Option<u32>,
    },
    /// Work with PDN game files.
    Pdn {
        #[command(subcommand)]
        command: PdnCommand,
    },
    /// Serve the game over SSH: `ssh -p PORT host` and you are playing, nothing to install. Players are known
    /// by their SSH key; each has their own settings, autosave and saved games on the server.
    Serve {
        /// Address and port to listen on; 0.0.0.0:2222 (or [::]:2222) serves other machines [setting
        /// server.listen, built in: 127.0.0.1:2222].
        #[arg(long, value_name = "ADDR:PORT", value_parser = parse_listen)]
        listen: Option<std::net::SocketAddr>,
        /// The host key (an OpenSSH private key); made on first start if missing [setting server.host-key,
        /// built in: server/host_key_ed25519 in the data folder].
        #[arg(long, value_name = "FILE")]
        host_key: Option<PathBuf>,
        /// Only the keys of this OpenSSH authorized_keys file may connect [setting server.authorized-keys,
        /// built in: every key may].
        #[arg(long, value_name = "FILE")]
        authorized_keys: Option<PathBuf>,
        /// Let clients without a key play as guests, whose games are not kept [setting server.guests].
        #[arg(long)]
        guests: bool,
        /// Connections held at once [setting server.max-sessions, built in: 500].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(MAX_SESSIONS))]
        max_sessions: Option<u32>,
        /// Connections held at once from one address [setting server.max-per-address, built in: 20].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(MAX_PER_ADDRESS))]
        max_per_address: Option<u32>,
        /// Seconds a game may wait for a key before it ends (it is saved and offered on the next connection)
        /// [setting server.idle-timeout, built in: 1800].
        #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u32).range(IDLE_TIMEOUT))]
        idle_timeout: Option<u32>,
        /// Seconds a player who drops out of a game against a person keeps their seat (their clock runs on)
        /// [setting server.seat-grace, built in: 180].
        #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u32).range(SEAT_GRACE))]
        seat_grace: Option<u32>,
        /// Search threads shared by every game on the server [setting server.engine-threads, built in: 1].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(ENGINE_THREADS))]
        engine_threads: Option<u32>,
        /// Transposition-table memory shared by every game, in megabytes [setting server.engine-megabytes,
        /// built in: 64].
        #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u32).range(ENGINE_MEGABYTES))]
        engine_megabytes: Option<u32>,
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
enum BenchTarget {
    /// Start `crowned serve` on a loopback port of its own and play many players against it at once, each a
    /// real SSH client pressing keys: reports the time from each key to its frame, and the server's memory
    /// and processor time.
    Serve {
        /// Players connected at once.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        sessions: u64,
        /// Keys each player presses once everyone is connected.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        keys: u64,
        /// Milliseconds between one player's keys.
        #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(0..=60_000))]
        pause: u64,
        /// One player in this many plays a move first, keeping the engine busy while keys are timed (0: none).
        #[arg(long, default_value_t = 10)]
        engine_every: u64,
        /// The level the engine answers those moves at.
        #[arg(long, default_value = "medium")]
        engine_level: Level,
        /// Seconds the engine thinks per move.
        #[arg(long, default_value = "1", value_parser = parse_seconds)]
        engine_time: f64,
    },
    /// Start `crowned serve` on a loopback port of its own and play many games between scripted people on it
    /// at once, with watchers, each a real SSH client: reports the time from each move to the other screens,
    /// the server's processor time and memory, and the size of its records, then checks that every game that
    /// ended is in the records and replays to its result.
    Tables {
        /// Games at once (two players each).
        #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=2_000))]
        games: u64,
        /// Watchers, one to a game.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=2_000))]
        watchers: u64,
        /// One game in this many has a 5+3 clock (0: none).
        #[arg(long, default_value_t = 3)]
        clock_every: u64,
        /// Plies at most per game; a game still going then ends by resignation.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=1_000))]
        plies: u64,
        /// Milliseconds a player pauses before each move (each a little more or less).
        #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(0..=60_000))]
        think: u64,
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
    if cli.print_config {
        let (settings, store, problem) = settings(&cli.play);
        if let Some(problem) = &problem {
            eprintln!("crowned: {problem}; the default settings are used");
        }
        let file = match &store {
            // A broken file is not used at all.
            Ok(store) if problem.is_some() => {
                format!("not {} (it has a mistake)", store.settings_file().display())
            }
            Ok(store) => store.settings_file().display().to_string(),
            Err(_) => "no settings file (there is no home directory)".to_string(),
        };
        println!(
            "# The settings in effect: the built-in defaults, then {file}, then the command line."
        );
        print!("{}", settings.to_toml());
        return Ok(ExitCode::SUCCESS);
    }
    let chosen = cli.variant.is_some() || cli.size.is_some() || cli.rows.is_some();
    let game_type = GameType::new(cli.variant.unwrap_or(Variant::English), cli.size, cli.rows)?;
    // Read when a command needs it: the game itself reads the FEN under the settings' variant when the command
    // line names none.
    let position_of = |game_type: GameType| -> Result<AnyPosition> {
        Ok(match &cli.fen {
            Some(text) => AnyPosition::from_fen(game_type, text)
                .with_context(|| format!("bad FEN {:?} for {game_type}", excerpt(text)))?,
            None => AnyPosition::start(game_type),
        })
    };
    let any_position = || position_of(game_type);
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
            any_position()?.visit(Perft {
                depth,
                split,
                duplicates,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Show) => {
            any_position()?.visit(Show)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Pdn {
            command: PdnCommand::Check { files },
        }) => commands::pdn::check_files(&files, chosen.then_some(game_type)),
        Some(Command::Bench {
            target:
                Some(BenchTarget::Serve {
                    sessions,
                    keys,
                    pause,
                    engine_every,
                    engine_level,
                    engine_time,
                }),
            ..
        }) => {
            commands::bench_serve::bench_serve(&commands::bench_serve::LoadArgs {
                sessions: sessions as usize,
                keys: keys as usize,
                pause_ms: pause,
                engine_every: engine_every as usize,
                engine_level,
                engine_time,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Bench {
            target:
                Some(BenchTarget::Tables {
                    games,
                    watchers,
                    clock_every,
                    plies,
                    think,
                }),
            ..
        }) => {
            commands::bench_tables::bench_tables(&commands::bench_tables::TablesArgs {
                games: games as usize,
                watchers: watchers as usize,
                clock_every: clock_every as usize,
                plies: plies as usize,
                think_ms: think,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Bench {
            target: None,
            time,
            depth,
        }) => {
            game_type.visit(commands::bench::Bench {
                game_type,
                depth: depth.unwrap_or_else(|| commands::bench::default_depth(game_type)),
                time: Duration::from_secs_f64(time),
            })?;
            Ok(ExitCode::SUCCESS)
        }
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
            any_position()?.visit(commands::think::Think {
                level,
                limits: &limits,
                seed,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Match {
            a,
            b,
            games,
            time,
            openings,
            pdn,
            force,
            seed,
        }) => {
            let english = game_type == GameType::standard(Variant::English);
            let openings = match openings {
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
            };
            let config = MatchConfig {
                game_type,
                a,
                b,
                time: Duration::from_secs_f64(time),
                openings,
                games: games.map(|g| g as usize),
                seed,
            };
            commands::matches::run_match(&config, pdn.as_deref(), force)
        }
        Some(Command::Serve {
            listen,
            host_key,
            authorized_keys,
            guests,
            max_sessions,
            max_per_address,
            idle_timeout,
            seat_grace,
            engine_threads,
            engine_megabytes,
        }) => {
            let (settings, _, problem) = settings(&cli.play);
            // A server does not start on settings it was not given.
            if let Some(problem) = problem {
                return Err(anyhow::Error::new(problem));
            }
            let mut server = settings.server;
            server.listen = listen.unwrap_or(server.listen);
            server.host_key = host_key.or(server.host_key);
            server.authorized_keys = authorized_keys.or(server.authorized_keys);
            server.guests |= guests;
            server.max_sessions = max_sessions.unwrap_or(server.max_sessions);
            server.max_per_address = max_per_address.unwrap_or(server.max_per_address);
            server.idle_timeout = idle_timeout.unwrap_or(server.idle_timeout);
            server.seat_grace = seat_grace.unwrap_or(server.seat_grace);
            server.engine_threads = engine_threads.unwrap_or(server.engine_threads);
            server.engine_megabytes = engine_megabytes.unwrap_or(server.engine_megabytes);
            commands::serve::run(&server)?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let (settings, store, problem) = settings(&cli.play);
            // The command line's variant, else the settings' (a FEN is read under the one chosen).
            let game_type = if chosen {
                game_type
            } else {
                settings.game_type
            };
            let start = position_of(game_type)?;
            commands::play::play(
                start,
                game_type,
                chosen.then_some(game_type),
                &settings,
                problem.as_ref(),
                store,
                cli.file.as_deref(),
            )
        }
    }
}

/// `crowned perft` under the rules of the position.
struct Perft {
    depth: u32,
    split: bool,
    duplicates: Duplicates,
}

impl PositionVisitor for Perft {
    type Output = Result<()>;
    fn visit<R: Playable>(self, position: &Position<R>) -> Result<()> {
        commands::perft::run_perft(position, self.depth, self.split, self.duplicates)
    }
}

/// `crowned show` under the rules of the position.
struct Show;

impl PositionVisitor for Show {
    type Output = Result<()>;
    fn visit<R: Playable>(self, position: &Position<R>) -> Result<()> {
        commands::show::show(position)
    }
}

/// The settings in effect: the user's file over the defaults (or the defaults alone, with the reason, when the
/// file cannot be used), then the command line. Also the place for files, which the game needs too.
fn settings(
    args: &PlayArgs,
) -> (
    Settings,
    Result<Store, crowned::store::StoreError>,
    Option<SettingsError>,
) {
    let store = Store::locate();
    // Without a home directory there is no settings file: the defaults, and the game says files are not saved.
    let (mut settings, problem) = match &store {
        Ok(store) => Settings::load_or_defaults(&store.settings_file()),
        Err(_) => (Settings::defaults(), None),
    };
    settings.override_with(&args.overrides());
    (settings, store, problem)
}

impl PlayArgs {
    fn overrides(&self) -> Overrides {
        // A switch that is not given leaves its setting alone.
        let off = |given: bool| given.then_some(false);
        Overrides {
            black: self.black,
            white: self.white,
            engine_time: self.think_time,
            pace: self.pace,
            animation_step: self.no_animation.then_some(0.0),
            theme: self.theme,
            pieces: self.ascii.then_some(PieceStyle::Ascii),
            square_numbers: off(self.no_numbers),
            notation: self.notation,
            orientation: self.orientation,
            legal_moves: off(self.no_legal_moves),
            autosave: off(self.no_autosave),
            move_limit: self.move_limit,
        }
    }
}

/// The pace of a game between engines: seconds from 0 to 600.
fn parse_pace(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) => crowned::config::check_interval(s, 600.0),
        Err(_) => Err(format!("{text:?} is not a number of seconds")),
    }
}

/// A number of seconds: positive and finite.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) => check_seconds(s),
        Err(_) => Err(format!("{text:?} is not a number of seconds")),
    }
}
