//! The `crowned` command line.

mod cli;
mod commands;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Parser, error::ErrorKind};
use cli::{BenchTarget, Cli, Command, EgdbStep, PdnCommand, PlayArgs, TuneStep};
use crowned::config::{Settings, SettingsError};
use crowned::engine::{
    Contender, Level, Limits, MatchConfig, MatchOpenings, builtin_openings, openings_from_json,
};
use crowned::game::TimeControl;
use crowned::rules::{
    AnyPosition, Duplicates, GameType, Playable, Position, PositionVisitor, Variant, excerpt,
};
use crowned::store::Store;

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
    // Every engine of this process finds the endgame databases here, if they were built (opened on first use).
    if let Ok(store) = Store::locate() {
        crowned::engine::egdb::look_in(store.egdb_dir());
    }
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
                    flood,
                }),
            ..
        }) => {
            commands::bench_serve::bench_serve(&commands::bench_serve::LoadArgs {
                flooders: flood as usize,
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
            threads,
        }) => {
            let threads = threads.map_or_else(commands::cores, |t| t as usize);
            let limits = match (time, depth) {
                (Some(t), _) => Limits::time(Duration::from_secs_f64(t)),
                (None, Some(d)) => Limits::depth(d),
                (None, None) => Limits::time(Duration::from_secs(1)),
            };
            any_position()?.visit(commands::think::Think {
                level,
                limits: &limits,
                seed,
                threads,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Tune { step }) => {
            match step {
                TuneStep::Data {
                    games,
                    depth,
                    seed,
                    threads,
                    out,
                } => {
                    let threads = threads.map_or_else(commands::cores, |t| t as usize);
                    commands::tune::data(games as usize, depth, seed, threads, &out)?;
                }
                TuneStep::Fit { files, epochs, out } => {
                    commands::tune::fit(&files, epochs as usize, out.as_deref())?;
                }
                TuneStep::Net {
                    files,
                    epochs,
                    lambda,
                    seed,
                    threads,
                    out,
                } => {
                    anyhow::ensure!(
                        (0.0..=1.0).contains(&lambda),
                        "--lambda must be from 0 to 1"
                    );
                    let config = crowned::engine::tune::NetConfig {
                        epochs: epochs as usize,
                        lambda,
                        seed,
                        threads: threads.map_or_else(commands::cores, |t| t as usize),
                        ..Default::default()
                    };
                    commands::tune::net(&files, config, &out)?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Egdb { step }) => {
            match step {
                EgdbStep::Build {
                    pieces,
                    threads,
                    dir,
                } => {
                    let threads = threads.map_or_else(commands::cores, |t| t as usize);
                    commands::egdb::build(dir, pieces, threads)?;
                }
                EgdbStep::Info { dir } => commands::egdb::info(dir)?,
                EgdbStep::Verify {
                    positions,
                    seed,
                    dir,
                } => commands::egdb::verify(dir, positions, seed)?,
                EgdbStep::Probe { positions, dir } => commands::egdb::probe(dir, &positions)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Hub { threads, eval }) => {
            let options = crowned::engine::hub::HubOptions {
                threads: threads.map_or(1, |t| t as usize),
                evaluation: eval
                    .as_deref()
                    .and_then(crowned::engine::Evaluation::from_name)
                    .unwrap_or_default(),
            };
            crowned::engine::hub::serve_with(std::io::stdin(), std::io::stdout().lock(), options)
                .context("the conversation with the GUI failed")?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Match {
            a,
            b,
            a_hub,
            b_hub,
            sprt,
            clock,
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
            let contender = |level: Option<Level>, hub: Option<String>| match (level, hub) {
                (Some(level), _) => Ok(Contender::Level(level)),
                (None, Some(command)) if !command.trim().is_empty() => Ok(Contender::Hub(
                    command.split_whitespace().map(str::to_string).collect(),
                )),
                // clap requires one of the two.
                _ => Err(anyhow::anyhow!(
                    "give a level or a Hub engine's command for each player"
                )),
            };
            let config = MatchConfig {
                game_type,
                a: contender(a, a_hub)?,
                b: contender(b, b_hub)?,
                sprt,
                time: match clock {
                    Some(TimeControl::PerMove(step)) => step,
                    _ => Duration::from_secs_f64(time),
                },
                clock: match clock {
                    Some(TimeControl::Fischer { initial, increment }) => Some((initial, increment)),
                    _ => None,
                },
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
            max_strangers,
            max_strangers_per_address,
            sign_in_deadline,
            client_stall,
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
            server.max_strangers = max_strangers.unwrap_or(server.max_strangers);
            server.max_strangers_per_address =
                max_strangers_per_address.unwrap_or(server.max_strangers_per_address);
            server.sign_in_deadline = sign_in_deadline.unwrap_or(server.sign_in_deadline);
            server.client_stall = client_stall.unwrap_or(server.client_stall);
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
