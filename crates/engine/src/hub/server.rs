//! `crowned hub`: the engine side of the Hub protocol.
//!
//! One loop owns the conversation. Lines are read on a thread of their own and searches run on another, both
//! sending what happens to the loop, so that `stop`, `ping` and `ponder-hit` are answered while the engine thinks.
//! Other commands that arrive during a search wait for its `done`, in order.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use super::notation::{find_move, move_text, parse_position};
use super::syntax::HubLine;
use crate::book::Book;
use crate::egdb::Egdb;
use crate::time_plan::{Deadline, TimePlan};
use crate::{
    AnySituation, Engine, EngineConfig, Evaluation, Level, Limits, ParamOverrides, Progress, Score,
    SearchParams, SearchResult, TABLE_MEGABYTES, TimeLeft,
};
use crowned_game::AnyGame;
use crowned_rules::{AnyPosition, GameType, Variant};

/// The longest line read: a whole game's moves fit many times over; anything longer is refused, not stored.
const MAX_LINE: usize = 64 * 1024;
/// The largest transposition table the `hash` parameter accepts, in megabytes.
const MAX_HASH_MEGABYTES: usize = 4096;
/// The most search threads the `threads` parameter accepts.
const MAX_THREADS: usize = crate::MAX_THREADS;

/// What the loop hears about.
enum Wakeup {
    /// A line from the GUI.
    HubLine(String),
    /// A line too long to be a command.
    TooLong,
    /// The input closed (or failed): the GUI is gone.
    Closed,
    /// A search completed a depth.
    Progress(Progress),
    /// A search ended; the engine comes back with its answer.
    Done(Box<(Engine, SearchResult)>),
}

/// The engine's settings before the GUI sets any parameter.
#[derive(Clone, Debug)]
pub struct HubOptions {
    /// Search threads (the `threads` parameter).
    pub threads: usize,
    /// The evaluation where the rules have a network (the `eval` parameter).
    pub evaluation: Evaluation,
    /// The endgame databases the engine probes, if any.
    pub egdb: Option<Arc<Egdb>>,
    /// The search's parameters changed from the rule set's own (each also set by its name with `set-param`).
    pub params: ParamOverrides,
    /// An opening book full strength plays from.
    pub book: Option<Arc<Book>>,
    /// A time for every move that replaces the GUI's time limits, clock included, so that a match can measure
    /// the clock's planning against an even spread of the same time.
    pub fixed_move_time: Option<Duration>,
}

impl Default for HubOptions {
    fn default() -> Self {
        HubOptions {
            threads: 1,
            evaluation: Evaluation::default(),
            egdb: None,
            params: ParamOverrides::default(),
            book: None,
            fixed_move_time: None,
        }
    }
}

/// Speaks the Hub protocol on `input` and `output` until `quit` or the end of the input.
pub fn serve(input: impl Read + Send + 'static, output: impl Write) -> io::Result<()> {
    serve_with(input, output, HubOptions::default())
}

/// As [`serve`], starting from `options` until the GUI sets the parameters.
pub fn serve_with(
    input: impl Read + Send + 'static,
    mut output: impl Write,
    options: HubOptions,
) -> io::Result<()> {
    let (events, inbox) = mpsc::channel();
    let reader_events = events.clone();
    thread::spawn(move || read_lines(io::BufReader::new(input), &reader_events));
    let mut server = Server::new(events);
    server.threads = options.threads.clamp(1, MAX_THREADS);
    server.evaluation = options.evaluation;
    server.egdb = options.egdb;
    server.params = options.params;
    server.book = options.book;
    server.fixed_move_time = options.fixed_move_time;
    server.run(&inbox, &mut output)
}

/// Reads lines into events until the input ends. Long lines cost their length in time, never in memory.
fn read_lines(mut input: impl BufRead, events: &Sender<Wakeup>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf);
        let event = match read {
            Ok(0) | Err(_) => Wakeup::Closed,
            Ok(_) if buf.len() > MAX_LINE && !buf.ends_with(b"\n") => {
                if !skip_line(&mut input) {
                    let _ = events.send(Wakeup::TooLong);
                    let _ = events.send(Wakeup::Closed);
                    return;
                }
                Wakeup::TooLong
            }
            Ok(_) => Wakeup::HubLine(String::from_utf8_lossy(&buf).into_owned()),
        };
        let closed = matches!(event, Wakeup::Closed);
        if events.send(event).is_err() || closed {
            return;
        }
    }
}

/// Reads past the end of the current line; `false` if the input ended first.
fn skip_line(input: &mut impl BufRead) -> bool {
    loop {
        let (consumed, found) = match input.fill_buf() {
            Ok([]) | Err(_) => return false,
            Ok(bytes) => match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (bytes.len(), false),
            },
        };
        input.consume(consumed);
        if found {
            return true;
        }
    }
}

/// A search in progress.
struct Running {
    stop: Arc<AtomicBool>,
    /// A ponder search waits for `ponder-hit` before its time starts.
    pondering: bool,
    /// Dropped when the search ends, which lets its watch go.
    _watch: Option<Deadline>,
}

/// The engine's side of the conversation.
struct Server {
    events: Sender<Wakeup>,
    game_type: GameType,
    level: Level,
    hash_megabytes: usize,
    threads: usize,
    evaluation: Evaluation,
    egdb: Option<Arc<Egdb>>,
    params: ParamOverrides,
    book: Option<Arc<Book>>,
    /// A time per move that replaces the GUI's time limits.
    fixed_move_time: Option<Duration>,
    /// The engine between searches (a search has it on its thread).
    engine: Option<Engine>,
    situation: Option<AnySituation>,
    /// How the next search is limited, as the last `level` said.
    limits: Limits,
    running: Option<Running>,
    /// Commands that came during a search, for after it.
    waiting: VecDeque<HubLine>,
    searches: u64,
}

/// What the loop does after a command.
#[derive(PartialEq, Eq)]
enum Next {
    Continue,
    Quit,
}

impl Server {
    fn new(events: Sender<Wakeup>) -> Server {
        Server {
            events,
            game_type: GameType::standard(Variant::English),
            level: Level::Max,
            hash_megabytes: TABLE_MEGABYTES,
            threads: 1,
            evaluation: Evaluation::default(),
            egdb: None,
            params: ParamOverrides::default(),
            book: None,
            fixed_move_time: None,
            engine: None,
            situation: None,
            limits: Limits::default(),
            running: None,
            waiting: VecDeque::new(),
            searches: 0,
        }
    }

    fn run(&mut self, inbox: &Receiver<Wakeup>, out: &mut impl Write) -> io::Result<()> {
        while let Ok(event) = inbox.recv() {
            match event {
                Wakeup::HubLine(text) => {
                    let Some(line) = HubLine::parse(&text) else {
                        continue;
                    };
                    if self.command(line, out)? == Next::Quit {
                        break;
                    }
                }
                Wakeup::TooLong => send(
                    out,
                    error(format!("a line over {MAX_LINE} bytes was ignored")),
                )?,
                Wakeup::Closed => break,
                Wakeup::Progress(progress) => send(out, info(&progress))?,
                Wakeup::Done(done) => {
                    let (engine, result) = *done;
                    self.engine = Some(engine);
                    self.running = None;
                    send(out, done_line(&result))?;
                    while self.running.is_none() {
                        let Some(line) = self.waiting.pop_front() else {
                            break;
                        };
                        if self.command(line, out)? == Next::Quit {
                            return Ok(());
                        }
                    }
                }
            }
        }
        // The GUI is gone or said quit: a search still running is told to stop, and left to end on its own.
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
        Ok(())
    }

    fn command(&mut self, line: HubLine, out: &mut impl Write) -> io::Result<Next> {
        if let Some(running) = &mut self.running {
            match line.command.as_str() {
                "ping" => send(out, HubLine::new("pong"))?,
                "stop" => running.stop.store(true, Ordering::Relaxed),
                "ponder-hit" => self.ponder_hit(),
                "quit" => return Ok(Next::Quit),
                _ => self.waiting.push_back(line),
            }
            return Ok(Next::Continue);
        }
        let answer = match line.command.as_str() {
            "hub" => {
                for line in self.introduction() {
                    send(out, line)?;
                }
                None
            }
            "set-param" => self.set_param(&line).err(),
            "init" => {
                self.engine();
                Some(HubLine::new("ready"))
            }
            "new-game" => {
                self.engine().clear();
                None
            }
            "pos" => self.position(&line).err(),
            "level" => self.level(&line).err(),
            "go" => self.go(&line).err(),
            "ping" => Some(HubLine::new("pong")),
            "quit" => return Ok(Next::Quit),
            // `stop` and `ponder-hit` with nothing running, and commands of later versions: ignored, as the
            // protocol asks.
            _ => None,
        };
        if let Some(answer) = answer {
            send(out, answer)?;
        }
        Ok(Next::Continue)
    }

    fn introduction(&self) -> Vec<HubLine> {
        let variants: Vec<&str> = Variant::ALL
            .iter()
            .map(|v| v.name())
            // Scan's names for international draughts, antidraughts and breakthrough.
            .chain(["normal", "losing", "bt"])
            .collect();
        let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        vec![
            HubLine::new("id")
                .arg("name", "crowned")
                .arg("version", env!("CARGO_PKG_VERSION"))
                .arg("author", "the crowned authors"),
            HubLine::new("param")
                .arg("name", "variant")
                .arg("value", self.game_type.variant.name())
                .arg("type", "enum")
                .arg("values", variants.join(" ")),
            HubLine::new("param")
                .arg("name", "level")
                .arg("value", self.level.name())
                .arg("type", "enum")
                .arg("values", levels.join(" ")),
            HubLine::new("param")
                .arg("name", "hash")
                .arg("value", self.hash_megabytes)
                .arg("type", "int")
                .arg("min", 1)
                .arg("max", MAX_HASH_MEGABYTES),
            HubLine::new("param")
                .arg("name", "threads")
                .arg("value", self.threads)
                .arg("type", "int")
                .arg("min", 1)
                .arg("max", MAX_THREADS),
            HubLine::new("param")
                .arg("name", "eval")
                .arg("value", self.evaluation.name())
                .arg("type", "enum")
                .arg("values", "network classic"),
            HubLine::new("wait"),
        ]
    }

    fn set_param(&mut self, line: &HubLine) -> Result<(), HubLine> {
        let value = line.get("value").unwrap_or_default();
        match line.get("name").unwrap_or_default() {
            "variant" => {
                let variant = match value {
                    "normal" => Ok(Variant::International),
                    name => name.parse::<Variant>().map_err(|e| e.to_string()),
                }
                .map_err(error)?;
                if variant != self.game_type.variant {
                    self.game_type = GameType::standard(variant);
                    self.situation = None;
                }
            }
            "level" => {
                self.level = value
                    .parse()
                    .map_err(|e: crate::UnknownLevel| error(e.to_string()))?
            }
            "hash" => {
                let megabytes = whole_in(value, "hash", MAX_HASH_MEGABYTES)?;
                if megabytes != self.hash_megabytes {
                    self.hash_megabytes = megabytes;
                    self.engine = None;
                }
            }
            "threads" => {
                self.threads = whole_in(value, "threads", MAX_THREADS)?;
                if let Some(engine) = &mut self.engine {
                    engine.set_threads(self.threads);
                }
            }
            "eval" => {
                self.evaluation = Evaluation::from_name(value)
                    .ok_or_else(|| error(format!("eval is network or classic, not {value:?}")))?;
                if let Some(engine) = &mut self.engine {
                    engine.set_evaluation(self.evaluation);
                }
            }
            // The search's own parameters, by name: not listed at the start, as a GUI has nothing to show
            // of them, but a match can compare two settings of one.
            name if SearchParams::NAMES.contains(&name) => {
                self.params
                    .set(name, value)
                    .map_err(|e| error(e.to_string()))?;
                let params = self.params.clone();
                if let Some(engine) = &mut self.engine {
                    engine.set_params(params);
                }
            }
            other => return Err(error(format!("there is no parameter called {other:?}"))),
        }
        Ok(())
    }

    /// The engine, made on first use with the table size asked for.
    fn engine(&mut self) -> &mut Engine {
        let (megabytes, threads, evaluation) = (self.hash_megabytes, self.threads, self.evaluation);
        let params = self.params.clone();
        let egdb = self.egdb.clone();
        let book = self.book.clone();
        self.engine.get_or_insert_with(|| {
            Engine::with_config(
                EngineConfig::default()
                    .with_table_megabytes(megabytes)
                    .with_threads(threads)
                    .with_evaluation(evaluation)
                    .with_params(params)
                    .with_egdb(egdb)
                    .with_book(book),
            )
        })
    }

    fn position(&mut self, line: &HubLine) -> Result<(), HubLine> {
        self.situation = None;
        let start = match line.get("pos") {
            Some(text) => parse_position(self.game_type, text).map_err(|e| error(e.to_string()))?,
            None => AnyPosition::start(self.game_type),
        };
        let mut game = AnyGame::from_position(start);
        for text in line.get("moves").unwrap_or_default().split_whitespace() {
            let mv = find_move(&game.position(), text).map_err(|e| error(e.to_string()))?;
            game.play(&mv).map_err(|e| error(format!("{text}: {e}")))?;
        }
        self.situation = Some(AnySituation::of_game(&game));
        Ok(())
    }

    fn level(&mut self, line: &HubLine) -> Result<(), HubLine> {
        let seconds = |name: &str| -> Result<Option<Duration>, HubLine> {
            line.get(name)
                .map(|text| {
                    text.parse::<f64>()
                        .ok()
                        .and_then(|s| Duration::try_from_secs_f64(s).ok())
                        .ok_or_else(|| {
                            error(format!("{name} is a number of seconds, not {text:?}"))
                        })
                })
                .transpose()
        };
        let whole = |name: &str| -> Result<Option<u64>, HubLine> {
            line.get(name)
                .map(|text| {
                    text.parse::<u64>()
                        .map_err(|_| error(format!("{name} is a whole number, not {text:?}")))
                })
                .transpose()
        };
        let mut limits = Limits {
            depth: whole("depth")?.map(|d| d.clamp(1, u64::from(u32::MAX)) as u32),
            nodes: whole("nodes")?,
            time: seconds("move-time")?,
            clock: None,
        };
        if let Some(remaining) = seconds("time")? {
            limits.clock = Some(TimeLeft {
                remaining,
                increment: seconds("inc")?.unwrap_or_default(),
                moves_to_go: whole("moves")?.map(|m| m.clamp(1, u64::from(u32::MAX)) as u32),
            });
        }
        if let Some(fixed) = self.fixed_move_time {
            limits.time = Some(fixed);
            limits.clock = None;
        }
        self.limits = limits;
        Ok(())
    }

    fn go(&mut self, line: &HubLine) -> Result<(), HubLine> {
        let Some(situation) = self.situation.clone() else {
            return Err(error("no position: send pos before go"));
        };
        if situation.position.legal_moves().is_empty() {
            return Err(error("the side to move has no legal move"));
        }
        let pondering = line.has("ponder");
        // A ponder search runs until ponder-hit starts its time, or stop ends it.
        let limits = if pondering {
            Limits::default()
        } else {
            self.limits
        };
        let stop = Arc::new(AtomicBool::new(false));
        // The time counts from the command, not from the search's start: whatever comes before the search (the
        // engine made on first use, the book and the databases at the root) is within the deadline too.
        let watch =
            TimePlan::new(&limits).map(|plan| Deadline::start(Arc::clone(&stop), plan.hard));
        self.engine();
        let Some(mut engine) = self.engine.take() else {
            return Err(error("the engine could not be made"));
        };
        engine.set_stop_flag(Arc::clone(&stop));
        let level = self.level;
        self.searches += 1;
        let seed = self.searches;
        let events = self.events.clone();
        thread::spawn(move || {
            let progress_events = events.clone();
            let result = engine.think(&situation, level, &limits, seed, &mut |p| {
                let _ = progress_events.send(Wakeup::Progress(p.clone()));
            });
            let _ = events.send(Wakeup::Done(Box::new((engine, result))));
        });
        self.running = Some(Running {
            stop,
            pondering,
            _watch: watch,
        });
        Ok(())
    }

    /// The opponent played the expected move: the ponder search becomes the real one, with the time the level
    /// gives counted from now.
    fn ponder_hit(&mut self) {
        let Some(running) = &mut self.running else {
            return;
        };
        if !running.pondering {
            return;
        }
        running.pondering = false;
        let Some(plan) = TimePlan::new(&self.limits) else {
            return;
        };
        running._watch = Some(Deadline::start(Arc::clone(&running.stop), plan.budget()));
    }
}

/// A parameter's value that must be a whole number from 1 to `most`.
fn whole_in(value: &str, name: &str, most: usize) -> Result<usize, HubLine> {
    value
        .parse()
        .ok()
        .filter(|n| (1..=most).contains(n))
        .ok_or_else(|| {
            error(format!(
                "{name} is a whole number from 1 to {most}, not {value:?}"
            ))
        })
}

/// Writes one line and flushes it: the GUI reads line by line.
fn send(out: &mut impl Write, line: HubLine) -> io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

fn error(message: impl Into<String>) -> HubLine {
    HubLine::new("error").arg("message", message.into())
}

/// A score in men, as Hub GUIs show it; a forced win in `n` moves is `99.nn` less than 100 (`99.97` for a win in
/// three), a loss the same below zero.
fn score_in_men(score: Score) -> String {
    match score {
        Score::Centi(c) => format!("{:.2}", f64::from(c) / 100.0),
        Score::Win(n) => format!("{:.2}", 100.0 - f64::from(n.min(99)) / 100.0),
        Score::Loss(n) => format!("{:.2}", -100.0 + f64::from(n.min(99)) / 100.0),
        // Above any evaluation, below the forced wins the search sees to the end.
        Score::DatabaseWin => "90.00".to_string(),
        Score::DatabaseLoss => "-90.00".to_string(),
    }
}

fn info(progress: &Progress) -> HubLine {
    let pv: Vec<String> = progress.pv.iter().map(move_text).collect();
    let seconds = progress.elapsed.as_secs_f64();
    HubLine::new("info")
        .arg("depth", progress.depth)
        .arg("score", score_in_men(progress.score))
        .arg("nodes", progress.nodes)
        .arg("time", format!("{seconds:.3}"))
        .arg(
            "nps",
            format!("{:.1}", progress.nodes_per_second() as f64 / 1e6),
        )
        .arg("pv", pv.join(" "))
}

fn done_line(result: &SearchResult) -> HubLine {
    let mut line = HubLine::new("done");
    if let Some(best) = &result.best {
        line = line.arg("move", move_text(best));
    }
    if let Some(reply) = result.pv.get(1) {
        line = line.arg("ponder", move_text(reply));
    }
    line
}

#[cfg(test)]
#[path = "server_tests.rs"]
mod tests;
