//! Another engine driven through the Hub protocol: a program started with its standard input and output as the
//! conversation, kept running from move to move (so its tables last the game), for matches between builds or
//! against other programs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use crowned_engine::hub::HubLine;
use crowned_engine::hub::notation::{find_move, move_text, position_text};
use crowned_engine::{AnySituation, Limits};
use crowned_game::AnyGame;
use crowned_rules::{GameType, Move, Variant};

/// How long an engine may take to introduce itself and to initialise (loading databases, say).
const START_TIME: Duration = Duration::from_secs(60);
/// How long past its time an engine may take to answer before it is given up on: process scheduling, a slow
/// machine.
const GRACE: Duration = Duration::from_secs(5);
/// How often a wait for the engine looks at the caller's stop flag.
const POLL: Duration = Duration::from_millis(50);

/// Why an external engine could not be used.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum HubError {
    /// An empty command line.
    #[error("no engine command given")]
    NoCommand,
    /// The program could not be started.
    #[error("cannot start {command}: {reason}")]
    Start {
        /// The command line.
        command: String,
        /// What the system said.
        reason: String,
    },
    /// Writing to the engine failed, or it closed its output: it has quit or crashed.
    #[error("{engine} quit (its output closed) while crowned was waiting for {waiting_for}")]
    Closed {
        /// The engine's name.
        engine: String,
        /// What was expected.
        waiting_for: String,
    },
    /// No answer in time.
    #[error("{engine} did not send {waiting_for} within {} s", .waited.as_secs_f64())]
    Timeout {
        /// The engine's name.
        engine: String,
        /// What was expected.
        waiting_for: String,
        /// How long crowned waited.
        waited: Duration,
    },
    /// The engine reported an error.
    #[error("{engine} said: {message}")]
    Refused {
        /// The engine's name.
        engine: String,
        /// Its message.
        message: String,
    },
    /// The engine's move is not legal in the position.
    #[error("{engine} played {text:?}, which is not legal here: {reason}")]
    IllegalMove {
        /// The engine's name.
        engine: String,
        /// The move as sent.
        text: String,
        /// Why it is refused.
        reason: String,
    },
    /// The wait was given up because the caller's stop flag was raised.
    #[error("stopped")]
    Stopped,
}

/// A running Hub engine.
pub struct HubEngine {
    name: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// The reply the engine expects to its last move (the `ponder` of its last `done`), as it wrote it.
    expected: Option<String>,
    /// A search on the opponent's time under way: the game's length when it started and the reply it
    /// assumes.
    pondering: Option<(usize, Move)>,
    /// How often the opponent played the reply pondered on, and how often not.
    ponder_tally: PonderTally,
}

/// How the searches on the opponent's time went: a hit when the opponent played the move the engine expected
/// (its search goes on as the real one), a miss when not (it is stopped and a new search starts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PonderTally {
    /// The opponent played the expected move.
    pub hits: usize,
    /// The opponent played another move, or the game ended.
    pub misses: usize,
}

impl HubEngine {
    /// Starts `command` (a program and its arguments), introduces itself, sets the engine's `variant` for
    /// `game_type` and waits until it is ready.
    pub fn start(command: &[String], game_type: GameType) -> Result<HubEngine, HubError> {
        let (program, args) = command.split_first().ok_or(HubError::NoCommand)?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| HubError::Start {
                command: command.join(" "),
                reason: e.to_string(),
            })?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(HubError::Start {
                command: command.join(" "),
                reason: "its standard input and output could not be connected".into(),
            });
        };
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let name = std::path::Path::new(program)
            .file_name()
            .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned());
        let mut engine = HubEngine {
            name,
            child,
            input,
            lines,
            expected: None,
            pondering: None,
            ponder_tally: PonderTally::default(),
        };
        engine.send(&HubLine::new("hub"), "its introduction")?;
        let never = AtomicBool::new(false);
        let introduction = engine.wait_for(&["wait"], START_TIME, "wait", &never)?;
        for line in &introduction {
            if line.command == "id"
                && let Some(name) = line.get("name").filter(|n| !n.is_empty())
            {
                engine.name = match line.get("version") {
                    Some(version) if !version.is_empty() => format!("{name} {version}"),
                    _ => name.to_string(),
                };
            }
        }
        let variant = hub_variant_name(game_type.variant);
        let set = HubLine::new("set-param")
            .arg("name", "variant")
            .arg("value", variant);
        engine.send(&set, "ready")?;
        engine.send(&HubLine::new("init"), "ready")?;
        engine.wait_for(&["ready"], START_TIME, "ready", &never)?;
        Ok(engine)
    }

    /// The engine's name, as it gave it (or its program's file name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Tells the engine that a new game starts (a search on the opponent's time left from the last game is
    /// stopped first).
    pub fn new_game(&mut self) -> Result<(), HubError> {
        if self.pondering.take().is_some() {
            self.ponder_tally.misses += 1;
            self.stop_pondering()?;
        }
        self.expected = None;
        self.send(&HubLine::new("new-game"), "the next position")
    }

    /// How the searches on the opponent's time have gone so far.
    pub fn ponder_tally(&self) -> PonderTally {
        self.ponder_tally
    }

    /// Starts a search on the opponent's time (`go ponder`): in `game`, where the opponent is to move after
    /// this engine's last move, on the reply the engine said it expects, with the `limits` its own next move
    /// will have (the time starts only on a hit, when [`HubEngine::play`] finds that reply played). Whether a
    /// search started: not when the engine named no reply or one that is not legal here.
    pub fn ponder(&mut self, game: &AnyGame, limits: &Limits) -> Result<bool, HubError> {
        let Some(text) = self.expected.take() else {
            return Ok(false);
        };
        if game.outcome().is_some() {
            return Ok(false);
        }
        let Ok(reply) = find_move(&game.position(), &text) else {
            return Ok(false);
        };
        let mut after = game.clone();
        if after.play(&reply).is_err() || after.outcome().is_some() {
            return Ok(false);
        }
        self.send_position(&after)?;
        self.send(&level_line(limits).0, "done")?;
        self.send(&HubLine::new("go").flag("ponder"), "done")?;
        self.pondering = Some((game.ply(), reply));
        Ok(true)
    }

    /// Stops a search on the opponent's time and reads (and drops) its answer.
    fn stop_pondering(&mut self) -> Result<(), HubError> {
        let never = AtomicBool::new(false);
        // No time at all: the wait asks the engine to stop at once, then gives it the grace to answer.
        self.wait_for(&["done"], Duration::ZERO, "done", &never)
            .map(drop)
    }

    /// The engine's move at the current point of `game`, within `limits` (a time per move, a clock, or a depth).
    /// The position is sent as it was after the last capture or man move, with the moves since, so that the
    /// engine sees repetitions. A search on the opponent's time ([`HubEngine::ponder`]) goes on as this one
    /// when the opponent played the reply it assumed (`ponder-hit`), and is stopped otherwise. `stop` raised by
    /// another thread asks the engine to stop and gives up the wait.
    pub fn play(
        &mut self,
        game: &AnyGame,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Move, HubError> {
        let (level, time) = level_line(limits);
        let hit = match self.pondering.take() {
            Some((ply, reply)) => {
                let hit = game.ply() == ply + 1 && game.moves().get(ply) == Some(&reply);
                if hit {
                    self.ponder_tally.hits += 1;
                    // The search under way goes on as the real one, its time counted from now.
                    self.send(&HubLine::new("ponder-hit"), "done")?;
                } else {
                    self.ponder_tally.misses += 1;
                    self.stop_pondering()?;
                }
                hit
            }
            None => false,
        };
        if !hit {
            self.send_position(game)?;
            self.send(&level, "done")?;
            self.send(&HubLine::new("go").flag("think"), "done")?;
        }
        let lines = self.wait_for(&["done"], time, "done", stop)?;
        let done = lines.last().cloned().unwrap_or_default();
        self.expected = done.get("ponder").map(str::to_string);
        let text = done.get("move").unwrap_or_default().to_string();
        find_move(&game.position(), &text).map_err(|e| HubError::IllegalMove {
            engine: self.name.clone(),
            text,
            reason: e.to_string(),
        })
    }

    /// Sends the game's position as it was after the last capture or man move, with the moves since, so that
    /// the engine sees repetitions.
    fn send_position(&mut self, game: &AnyGame) -> Result<(), HubError> {
        let ply = game.ply();
        let moves = &game.moves()[..ply];
        // The moves since the last one that cannot be undone on the board (a capture or a man's move): the
        // positions the search's own situation keeps for repetitions.
        let since = ply - AnySituation::of_game(game).earlier.len();
        let base = game.position_at(since).unwrap_or_else(|| game.position());
        let written: Vec<String> = moves[since..].iter().map(move_text).collect();
        let mut pos = HubLine::new("pos").arg("pos", position_text(&base));
        if !written.is_empty() {
            pos = pos.arg("moves", written.join(" "));
        }
        self.send(&pos, "done")
    }

    fn send(&mut self, line: &HubLine, waiting_for: &str) -> Result<(), HubError> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|_| HubError::Closed {
                engine: self.name.clone(),
                waiting_for: waiting_for.to_string(),
            })
    }

    /// Reads lines until one whose command is in `ends`, returning every line read (that one last). An `error`
    /// line from the engine ends the wait with its message.
    ///
    /// Past `time` (the engine's budget), the engine is told to stop; past `time` and [`GRACE`] it is given up
    /// on.
    fn wait_for(
        &mut self,
        ends: &[&str],
        time: Duration,
        waiting_for: &str,
        stop: &AtomicBool,
    ) -> Result<Vec<HubLine>, HubError> {
        let started = Instant::now();
        let within = time + GRACE;
        let deadline = started + within;
        let mut read = Vec::new();
        let mut told_to_stop = false;
        let mut caller_stopped = false;
        loop {
            caller_stopped |= stop.load(Ordering::Relaxed);
            if (caller_stopped || started.elapsed() >= time) && !told_to_stop {
                told_to_stop = true;
                let _ = self.send(&HubLine::new("stop"), waiting_for);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(HubError::Timeout {
                    engine: self.name.clone(),
                    waiting_for: waiting_for.to_string(),
                    waited: within,
                });
            }
            let text = match self.lines.recv_timeout(POLL.min(deadline - now)) {
                Ok(text) => text,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(HubError::Closed {
                        engine: self.name.clone(),
                        waiting_for: waiting_for.to_string(),
                    });
                }
            };
            let Some(line) = HubLine::parse(&text) else {
                continue;
            };
            if line.command == "error" {
                return Err(HubError::Refused {
                    engine: self.name.clone(),
                    message: line.get("message").unwrap_or_default().to_string(),
                });
            }
            let end = ends.contains(&line.command.as_str());
            read.push(line);
            if end {
                if caller_stopped {
                    return Err(HubError::Stopped);
                }
                return Ok(read);
            }
        }
    }
}

/// The `level` line for `limits` (a clock, a time per move, a depth, or none), and how long the engine may
/// take under them.
fn level_line(limits: &Limits) -> (HubLine, Duration) {
    let seconds = |d: Duration| format!("{:.3}", d.as_secs_f64());
    match (limits.clock, limits.time, limits.depth) {
        (Some(clock), _, _) => {
            let mut level = HubLine::new("level")
                .arg("time", seconds(clock.remaining))
                .arg("inc", seconds(clock.increment));
            if let Some(moves) = clock.moves_to_go {
                level = level.arg("moves", moves);
            }
            (level, clock.remaining)
        }
        (None, Some(time), _) => (HubLine::new("level").arg("move-time", seconds(time)), time),
        (None, None, Some(depth)) => (HubLine::new("level").arg("depth", depth), START_TIME),
        (None, None, None) => (HubLine::new("level").flag("infinite"), START_TIME),
    }
}

impl Drop for HubEngine {
    /// Asks the engine to quit, and makes sure it does.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit").and_then(|()| self.input.flush());
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A variant's name in the Hub protocol: Scan's (`normal`, `losing`, `breakthrough`, `frisian`; Scan 3.1's
/// `var.cpp`), crowned's own for the variants Scan does not play.
pub fn hub_variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::International => "normal",
        Variant::Antidraughts => "losing",
        other => other.name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_s_names_are_sent_for_the_variants_it_plays() {
        assert_eq!(hub_variant_name(Variant::International), "normal");
        assert_eq!(hub_variant_name(Variant::Antidraughts), "losing");
        assert_eq!(hub_variant_name(Variant::Breakthrough), "breakthrough");
        assert_eq!(hub_variant_name(Variant::Frisian), "frisian");
        // Every name sent is one crowned's own Hub engine takes back.
        for variant in Variant::ALL {
            let sent = hub_variant_name(variant);
            let back = match sent {
                "normal" => Variant::International,
                name => name.parse().expect("a name crowned reads"),
            };
            assert_eq!(back, variant);
        }
    }
}
