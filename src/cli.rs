//! The command line's grammar: every subcommand and option, as clap reads them.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use crowned::app::{Orientation, Player};
use crowned::config::{
    CLIENT_STALL, ENGINE_MEGABYTES, ENGINE_THREADS, IDLE_TIMEOUT, MAX_PER_ADDRESS, MAX_SESSIONS,
    MAX_STRANGERS, Overrides, SEAT_GRACE, SIGN_IN_DEADLINE, check_seconds, parse_listen,
};
use crowned::engine::Level;
use crowned::engine::sprt::Sprt;
use crowned::game::TimeControl;
use crowned::rules::{SquareStyle, Variant};
use crowned::ui::{PieceStyle, ThemeName};

/// Draughts (checkers) in the terminal.
#[derive(Parser, Debug)]
#[command(
    name = "crowned",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,

    /// Start from this position (PDN FEN, e.g. "B:W21-32:B1-12") instead of the standard start.
    #[arg(long, global = true, value_name = "FEN")]
    pub(crate) fen: Option<String>,

    /// The rules: english, international, russian, brazilian, pool, italian, spanish, czech, thai or canadian.
    /// For PDN files, the variant of games without a GameType tag.
    #[arg(long, global = true, value_name = "NAME")]
    pub(crate) variant: Option<Variant>,

    /// The size of the board for English rules: 6, 8, 10, 12 or 14.
    #[arg(long, global = true, value_name = "N")]
    pub(crate) size: Option<u8>,

    /// Rows of men each side starts with (English rules; `size / 2 - 1` by default).
    #[arg(long, global = true, value_name = "R")]
    pub(crate) rows: Option<u8>,

    /// A PDN file to replay: its games are listed to choose from (a file of one game opens at once).
    #[arg(value_name = "FILE.pdn")]
    pub(crate) file: Option<PathBuf>,

    #[command(flatten)]
    pub(crate) play: PlayArgs,

    /// Print the settings in effect (the defaults, the settings file, then these options) as a settings file,
    /// and exit.
    #[arg(long)]
    pub(crate) print_config: bool,
}

/// How the game on screen is set up (when no command is given). Each option overrides its setting in the
/// settings file, which overrides the built-in default (`--print-config` shows the result).
#[derive(clap::Args, Debug)]
pub(crate) struct PlayArgs {
    /// Who plays Black (moves first): human, or an engine level (random, easy, medium, hard, max) [setting
    /// players.black, built in: human].
    #[arg(long, value_name = "PLAYER")]
    pub(crate) black: Option<Player>,
    /// Who plays White [setting players.white, built in: medium].
    #[arg(long, value_name = "PLAYER")]
    pub(crate) white: Option<Player>,
    /// Seconds the engine thinks per move [setting engine.time, built in: 1].
    #[arg(long = "time", value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) think_time: Option<f64>,
    /// In a game between engines, seconds each move stays on the board before the next is shown; 0 as fast as
    /// they play [setting engine.pace, built in: 1].
    #[arg(long, value_name = "SECONDS", value_parser = parse_pace)]
    pub(crate) pace: Option<f64>,
    /// Colour theme: classic (16 colours), wood (24-bit colour) or mono (no colour; also chosen by NO_COLOR)
    /// [setting display.theme, built in: classic].
    #[arg(long)]
    pub(crate) theme: Option<ThemeName>,
    /// Draw pieces with ASCII letters (b w B W) instead of Unicode symbols [setting display.pieces].
    #[arg(long)]
    pub(crate) ascii: bool,
    /// Hide the square numbers inside the squares [setting display.square-numbers].
    #[arg(long)]
    pub(crate) no_numbers: bool,
    /// How the move list writes moves: auto (each variant as its players write it: coordinates in Russian and
    /// Brazilian, numbers elsewhere), numbers (11-15) or coordinates (c3-d4) [setting display.notation, built in:
    /// auto].
    #[arg(long, value_name = "NOTATION", value_parser = parse_notation_arg)]
    pub(crate) notation: Option<NotationArg>,
    /// Which side is at the bottom: auto (Black when one person plays Black against the engine), black-bottom
    /// or white-bottom [setting display.orientation, built in: auto].
    #[arg(long)]
    pub(crate) orientation: Option<Orientation>,
    /// Do not mark the squares the selected piece can move to [setting display.legal-moves].
    #[arg(long)]
    pub(crate) no_legal_moves: bool,
    /// Show moves at once instead of stepping the piece along its path [setting display.animation-step].
    #[arg(long)]
    pub(crate) no_animation: bool,
    /// Save nothing without being asked: no autosave, no resume, no filing of finished games; :save still
    /// works [setting game.autosave].
    #[arg(long)]
    pub(crate) no_autosave: bool,
    /// Moves by each side without a capture or a man moving before the game is drawn [setting
    /// game.move-limit, built in: 40].
    #[arg(long, value_name = "MOVES", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub(crate) move_limit: Option<u32>,
    /// Clocks for a new game: minutes and an increment in seconds (5+3), seconds for every move (30s), or none; a
    /// side whose time runs out loses [setting game.clock, built in: none].
    #[arg(long, value_name = "CONTROL", value_parser = parse_clock_arg)]
    pub(crate) clock: Option<ClockArg>,
}

/// `--clock`'s value: a time control, or none. (A type of its own: clap would take an `Option` in an `Option` for
/// an option whose value may be left out.)
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClockArg(Option<TimeControl>);

fn parse_clock_arg(text: &str) -> Result<ClockArg, String> {
    crowned::config::parse_clock(text).map(ClockArg)
}

/// `--notation`'s value: a notation, or `auto` for each variant's own (a type of its own, as `--clock`'s).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NotationArg(Option<SquareStyle>);

fn parse_notation_arg(text: &str) -> Result<NotationArg, String> {
    crowned::config::parse_notation(text).map(NotationArg)
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
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
        /// Search threads at full strength (default: every core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: Option<u64>,
    },
    /// Play engine against engine, each opening with both colours: English over the 3-move ballot deck, the
    /// other variants and boards over random openings drawn from --seed; the last line is `a <wins> b <wins>
    /// draws <draws>`.
    Match {
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
        clock: Option<crowned::game::TimeControl>,
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
        /// Let clients without a key play as guests, whose games are not kept; not with --authorized-keys
        /// [setting server.guests].
        #[arg(long)]
        guests: bool,
        /// Connections held at once [setting server.max-sessions, built in: 500].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(MAX_SESSIONS))]
        max_sessions: Option<u32>,
        /// Connections held at once from one address [setting server.max-per-address, built in: 20].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(MAX_PER_ADDRESS))]
        max_per_address: Option<u32>,
        /// Connections at once that have not signed in yet, in their own places that never take a player's
        /// [setting server.max-strangers, built in: 100].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(MAX_STRANGERS))]
        max_strangers: Option<u32>,
        /// Of those, from one address [setting server.max-strangers-per-address, built in: 10].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(MAX_STRANGERS))]
        max_strangers_per_address: Option<u32>,
        /// Seconds a connection has to sign in before it is cut off [setting server.sign-in-deadline, built in:
        /// 20].
        #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u32).range(SIGN_IN_DEADLINE))]
        sign_in_deadline: Option<u32>,
        /// Seconds a client may leave a frame waiting (it stopped reading) before it is cut off [setting
        /// server.client-stall, built in: 60].
        #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u32).range(CLIENT_STALL))]
        client_stall: Option<u32>,
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
    /// Tune the evaluation's weights on game results: make positions by self-play, then fit the weights to
    /// them and to master games.
    Tune {
        #[command(subcommand)]
        step: TuneStep,
    },
    /// Endgame databases for English draughts: build them, see what is there, look a position up.
    Egdb {
        #[command(subcommand)]
        step: EgdbStep,
    },
    /// Speak the Hub protocol on standard input and output: the engine protocol of Scan, which draughts GUIs
    /// and tools such as pydraughts use (set-param name=variant value=english|normal|russian|...).
    Hub {
        /// Search threads until the GUI sets the threads parameter [default: 1].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: Option<u64>,
        /// The evaluation of English positions until the GUI sets the eval parameter: the network compiled in,
        /// or the tuned hand-written one (to measure one against the other).
        #[arg(long, value_parser = ["network", "classic"])]
        eval: Option<String>,
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
pub(crate) enum BenchTarget {
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
        /// Connections that flood the server with keys as fast as it takes them while the players press their
        /// keys a second time: reports that round's times beside the first's (0: one round, no flood).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1_000))]
        flood: u64,
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
pub(crate) enum EgdbStep {
    /// Build the win/draw/loss tables (with the distance to the next capture or crowning) of every position with
    /// up to N pieces, by retrograde analysis, into the data directory. An interrupted build goes on where it
    /// stopped when run again.
    Build {
        /// The most pieces on the board (6 takes about half an hour on two cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=crowned::engine::egdb::MAX_PIECES as i64))]
        pieces: u32,
        /// Threads to build on (default: every core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: Option<u64>,
        /// Build here rather than in the data directory (the engine only looks in the data directory).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Say which tables there are and how large they are.
    Info {
        /// Look here rather than in the data directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Check random positions of the largest tables against their moves: each value must be the best of the
    /// values after its moves, distances included.
    Verify {
        /// How many positions.
        #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
        positions: u64,
        /// Seed of the random choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Look here rather than in the data directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Look positions up (PDN FEN, English): the result with the distance to conversion, and the best moves.
    Probe {
        /// Positions, such as `W:WK10,K14:BK32`.
        #[arg(required = true, value_name = "FEN")]
        positions: Vec<String>,
        /// Look here rather than in the data directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
pub(crate) enum TuneStep {
    /// Play self-play games (ballot openings chosen by --seed, the full search at a fixed depth on both sides,
    /// a random move now and then early on) and write their quiet positions with each game's result to OUT,
    /// one `FEN;result` line each (result for Black: 1, 0.5 or 0).
    Data {
        /// Games to play.
        #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        games: u64,
        /// Plies each move is searched to.
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// Seed of the openings and the random moves: the same seed makes the same file.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads to play on (default: every core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: Option<u64>,
        /// The new file to write (an existing file is refused).
        #[arg(long, value_name = "OUT")]
        out: PathBuf,
    },
    /// Fit the weights to positions: files written by `tune data`, and PDN files of finished English games
    /// (by their .pdn extension), starting from the weights compiled in. Writes the Rust source of
    /// src/engine/eval_weights.rs to --out, or to standard output.
    Fit {
        /// Samples files and PDN files.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Passes of gradient descent.
        #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        epochs: u64,
        /// Where to write the weights' source (replaced if it exists).
        #[arg(long, value_name = "OUT")]
        out: Option<PathBuf>,
    },
    /// Train the network evaluation on positions (files written by `tune data`, and PDN files of finished
    /// English games) and write the network file compiled in as src/engine/nnue/weights.nnue to --out.
    Net {
        /// Samples files and PDN files.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Passes over the samples.
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        epochs: u64,
        /// Weight of the hand-written evaluation's prediction in the target, from 0 (the results alone) to 1.
        #[arg(long, default_value_t = 0.0)]
        lambda: f32,
        /// Seed of the starting weights and of the order of samples: the same seed makes the same network.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads computing gradients (default: every core; the network does not depend on it).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: Option<u64>,
        /// Where to write the network (replaced if it exists).
        #[arg(long, value_name = "OUT")]
        out: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
pub(crate) enum PdnCommand {
    /// Replay every game of the files with the rules and report the games that fail. Exit code 0 when all
    /// games are fine, 1 when some are not, 2 when a file cannot be read.
    Check {
        /// PDN files to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
}

impl PlayArgs {
    pub(crate) fn overrides(&self) -> Overrides {
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
            notation: self.notation.map(|NotationArg(notation)| notation),
            orientation: self.orientation,
            legal_moves: off(self.no_legal_moves),
            autosave: off(self.no_autosave),
            clock: self.clock.map(|ClockArg(clock)| clock),
            move_limit: self.move_limit,
        }
    }
}

/// The pace of a game between engines: seconds from 0 to 600.
pub(crate) fn parse_pace(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) => crowned::config::check_interval(s, crowned::config::MAX_PACE),
        Err(_) => Err(format!("{text:?} is not a number of seconds")),
    }
}

/// A number of seconds: positive and finite.
pub(crate) fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) => check_seconds(s),
        Err(_) => Err(format!("{text:?} is not a number of seconds")),
    }
}

/// The bounds of an SPRT: two Elo differences, `ELO0,ELO1`.
pub(crate) fn parse_sprt(text: &str) -> Result<Sprt, String> {
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
