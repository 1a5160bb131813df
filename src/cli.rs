//! The command line's grammar as clap reads it: the global options, the game's options, and the commands, each
//! of which declares its own options in its module of `commands`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use crowned::config::{DisplayFlags, EngineFlags, GameFlags, Overrides, PlayersFlags};

use crate::commands::bench::BenchArgs;
use crate::commands::book::BookArgs;
use crate::commands::egdb::EgdbArgs;
use crate::commands::hub::HubArgs;
use crate::commands::matches::MatchArgs;
use crate::commands::pdn::PdnArgs;
use crate::commands::perft::PerftArgs;
use crate::commands::problems::ProblemsArgs;
use crate::commands::serve::ServeArgs;
use crate::commands::think::ThinkArgs;
use crate::commands::tune::TuneArgs;
use crate::commands::variant::VariantArgs;

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

    /// The rules: english, international, russian, brazilian, pool, italian, spanish, czech, thai, canadian,
    /// antidraughts, breakthrough, frisian, frysk or turkish, or the name of a definition NAME.toml in the variants folder
    /// beside the settings file. For PDN files, the variant of games without a GameType tag.
    #[arg(long, global = true, value_name = "NAME")]
    pub(crate) variant: Option<String>,

    /// Play the variant defined in this TOML file (see `crowned variant check`).
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "variant")]
    pub(crate) variant_file: Option<PathBuf>,

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
    /// The `[players]` table's flags: --black and --white.
    #[command(flatten)]
    pub(crate) players: PlayersFlags,
    /// The `[engine]` table's flags: --time and --pace.
    #[command(flatten)]
    pub(crate) engine: EngineFlags,
    /// The `[display]` table's flags: --theme, --ascii, --no-numbers, --notation, --orientation,
    /// --no-legal-moves and --no-animation.
    #[command(flatten)]
    pub(crate) display: DisplayFlags,
    /// The `[game]` table's flags: --no-autosave, --move-limit and --clock.
    #[command(flatten)]
    pub(crate) game: GameFlags,
}

/// The commands; each owns its options, in its module of [`commands`](crate::commands).
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Print the position (the start, or --fen) with its legal moves, without the full-screen game.
    Show,
    /// Let the engine choose a move: progress on stderr, then `bestmove <move> score <score> depth <d> nodes <n>`.
    Think(ThinkArgs),
    /// Play engine against engine, each opening with both colours: English over the 3-move ballot deck, the
    /// other variants and boards over random openings drawn from --seed; the last line is `a <wins> b <wins>
    /// draws <draws>`.
    Match(MatchArgs),
    /// Measure the engine: positions per second on a fixed set of positions, and the depth it reaches from the
    /// start in a given time.
    Bench(BenchArgs),
    /// Work with PDN game files.
    Pdn(PdnArgs),
    /// Serve the game over SSH: `ssh -p PORT host` and you are playing, nothing to install. Players are known
    /// by their SSH key; each has their own settings, autosave and saved games on the server.
    // Boxed: its settings' flags make it much the largest of the commands.
    Serve(Box<ServeArgs>),
    /// Tune the evaluation's weights on game results: make positions by self-play, then fit the weights to
    /// them and to master games.
    Tune(TuneArgs),
    /// Endgame databases for English draughts: build them, see what is there, look a position up.
    Egdb(EgdbArgs),
    /// Opening books for English draughts: build one by crowned's own analysis, look positions up in one.
    Book(BookArgs),
    /// Problems: the trainer (play and win, play and draw), proving a file of problems, mining games for them.
    Problems(ProblemsArgs),
    /// Speak the Hub protocol on standard input and output: the engine protocol of Scan, which draughts GUIs
    /// and tools such as pydraughts use (set-param name=variant value=english|normal|russian|...).
    Hub(HubArgs),
    /// Count the leaves of the legal-move tree to each depth from 1 to DEPTH (checks the move generator).
    Perft(PerftArgs),
    /// Variants written as definitions (TOML): check one, count its moves with the general generator (Turkish
    /// draughts' fast one where it applies), list the built-in ones.
    Variant(VariantArgs),
}

impl PlayArgs {
    /// The settings these options override.
    pub(crate) fn overrides(&self) -> Overrides {
        Overrides {
            players: self.players.clone(),
            engine: self.engine.clone(),
            display: self.display.clone(),
            game: self.game.clone(),
        }
    }
}
