//! Scripted conversations with the engine side: lines go in one at a time, and each answer is awaited before the
//! next line, as a GUI does.

use std::io::{self, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use super::{HubOptions, serve_with};
use crate::hub::notation::{find_move, position_text};
use crate::hub::syntax::HubLine;
use crowned_rules::{AnyPosition, GameType, Variant};

/// Bytes sent to the engine, one chunk at a time; the end of the input when the sender is dropped.
struct Input {
    chunks: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            match self.chunks.recv() {
                Ok(chunk) => self.pending = chunk,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// The engine's output, line by line.
struct Output {
    lines: Sender<String>,
    partial: Vec<u8>,
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let _ = self
                .lines
                .send(String::from_utf8_lossy(&line).trim_end().to_string());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A GUI's end of a conversation with `serve` running on a thread.
struct Gui {
    to_engine: Option<Sender<Vec<u8>>>,
    from_engine: Receiver<String>,
    finished: Receiver<io::Result<()>>,
}

impl Gui {
    fn start() -> Gui {
        Gui::start_with(HubOptions::default())
    }

    /// An engine started with `options`, as `crowned hub`'s command line gives them.
    fn start_with(options: HubOptions) -> Gui {
        let (to_engine, chunks) = mpsc::channel();
        let (lines, from_engine) = mpsc::channel();
        let (done, finished) = mpsc::channel();
        thread::spawn(move || {
            let input = Input {
                chunks,
                pending: Vec::new(),
            };
            let output = Output {
                lines,
                partial: Vec::new(),
            };
            let _ = done.send(serve_with(input, output, options));
        });
        Gui {
            to_engine: Some(to_engine),
            from_engine,
            finished,
        }
    }

    fn send(&self, text: &str) {
        if let Some(to) = &self.to_engine {
            to.send(format!("{text}\n").into_bytes())
                .expect("the engine reads");
        }
    }

    /// Lines up to and including the first whose command is `end`.
    fn until(&self, end: &str) -> Vec<HubLine> {
        let mut lines = Vec::new();
        loop {
            let text = self
                .from_engine
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|e| panic!("no {end} line ({e}); had {lines:?}"));
            let line = HubLine::parse(&text).expect("the engine sends no blank lines");
            let stop = line.command == end;
            lines.push(line);
            if stop {
                return lines;
            }
        }
    }

    fn ends(mut self) -> bool {
        self.to_engine = None;
        matches!(
            self.finished.recv_timeout(Duration::from_secs(10)),
            Ok(Ok(()))
        )
    }
}

fn english() -> GameType {
    GameType::standard(Variant::English)
}

#[test]
fn introduction_parameters_and_a_search() {
    let gui = Gui::start();
    gui.send("hub");
    let intro = gui.until("wait");
    assert_eq!(intro[0].command, "id");
    assert_eq!(intro[0].get("name"), Some("crowned"));
    let variant = intro
        .iter()
        .find(|l| l.command == "param" && l.get("name") == Some("variant"))
        .expect("a variant parameter");
    assert_eq!(variant.get("value"), Some("english"));
    let values = variant.get("values").unwrap_or_default();
    assert!(
        [
            "normal",
            "russian",
            "frisian",
            "losing",
            "bt",
            "antidraughts"
        ]
        .iter()
        .all(|name| values.split(' ').any(|v| v == *name)),
        "{values}"
    );
    gui.send("set-param name=level value=max");
    gui.send("init");
    assert_eq!(gui.until("ready").len(), 1, "nothing comes before ready");
    let start = position_text(&AnyPosition::start(english()));
    gui.send(&format!("pos pos={start} moves=\"11-15 23-19\""));
    gui.send("level depth=6");
    gui.send("go think");
    let lines = gui.until("done");
    let infos: Vec<&HubLine> = lines.iter().filter(|l| l.command == "info").collect();
    assert_eq!(infos.len(), 6, "one info per depth: {lines:?}");
    assert_eq!(infos[5].get("depth"), Some("6"));
    assert!(
        infos
            .iter()
            .all(|i| i.get("pv").is_some_and(|pv| !pv.is_empty()))
    );
    let done = lines.last().expect("done");
    let mut after = AnyPosition::start(english());
    for text in ["11-15", "23-19"] {
        after = after.play(&find_move(&after, text).expect("legal"));
    }
    let best = find_move(&after, done.get("move").expect("a move")).expect("a legal move");
    // The expected reply is legal after the move.
    let reply = done.get("ponder").expect("a ponder move");
    assert!(find_move(&after.play(&best), reply).is_ok(), "{reply}");
    gui.send("ping");
    assert_eq!(gui.until("pong").len(), 1);
    assert!(gui.ends(), "the end of the input ends the engine");
}

#[test]
fn stop_ping_and_commands_during_a_search() {
    let gui = Gui::start();
    gui.send("init");
    gui.until("ready");
    gui.send("pos");
    gui.send("level infinite");
    gui.send("go analyze");
    // While it searches: ping is answered, other commands wait for the search to end.
    gui.send("ping");
    gui.until("pong");
    gui.send("level depth=2");
    gui.send("go think");
    gui.send("stop");
    let first = gui.until("done");
    assert!(first.last().and_then(|d| d.get("move")).is_some());
    // The waiting `go think` then runs with depth 2.
    let second = gui.until("done");
    let depths: Vec<&str> = second.iter().filter_map(|l| l.get("depth")).collect();
    assert_eq!(depths.last(), Some(&"2"), "{second:?}");
    gui.send("quit");
    assert!(gui.ends());
}

#[test]
fn ponder_hit_starts_the_clock() {
    let gui = Gui::start();
    gui.send("pos");
    gui.send("level move-time=0.2");
    gui.send("go ponder");
    // Pondering runs without a time limit until the opponent's move comes.
    assert!(gui.quiet_until_done_absent());
    gui.send("ponder-hit");
    let lines = gui.until("done");
    assert!(lines.last().and_then(|d| d.get("move")).is_some());
    assert!(gui.ends());
}

impl Gui {
    /// No `done` in the next half second (progress lines may come).
    fn quiet_until_done_absent(&self) -> bool {
        let until = std::time::Instant::now() + Duration::from_millis(500);
        loop {
            let left = until.saturating_duration_since(std::time::Instant::now());
            match self.from_engine.recv_timeout(left) {
                Ok(text) if text.starts_with("done") => return false,
                Ok(_) => continue,
                Err(_) => return true,
            }
        }
    }
}

#[test]
fn variants_by_name_and_scan_s_name_for_international() {
    let gui = Gui::start();
    gui.send("set-param name=variant value=normal");
    let international = GameType::standard(Variant::International);
    let start = position_text(&AnyPosition::start(international));
    gui.send(&format!("pos pos={start}"));
    gui.send("level depth=3");
    gui.send("go think");
    let done = gui.until("done");
    let text = done.last().and_then(|d| d.get("move")).expect("a move");
    assert!(
        find_move(&AnyPosition::start(international), text).is_ok(),
        "{text}"
    );
    gui.send("set-param name=variant value=russian");
    gui.send("pos");
    gui.send("go think");
    let done = gui.until("done");
    let russian = AnyPosition::start(GameType::standard(Variant::Russian));
    let text = done.last().and_then(|d| d.get("move")).expect("a move");
    assert!(find_move(&russian, text).is_ok(), "{text}");
    assert!(gui.ends());
}

#[test]
fn a_search_parameter_is_set_by_its_name_and_the_engine_plays_with_it() {
    let gui = Gui::start();
    gui.send("set-param name=futility-margin value=75");
    gui.send("set-param name=reduction-divisor value=1.8");
    gui.send("ping");
    let answer = gui.until("pong");
    assert!(
        answer.iter().all(|line| line.command != "error"),
        "{answer:?}"
    );
    let start = position_text(&AnyPosition::start(english()));
    gui.send(&format!("pos pos={start}"));
    gui.send("level depth=4");
    gui.send("go think");
    assert!(
        gui.until("done")
            .last()
            .and_then(|d| d.get("move"))
            .is_some()
    );
    assert!(gui.ends());
}

#[test]
fn bad_input_gets_an_error_and_the_engine_carries_on() {
    let gui = Gui::start();
    let refused = [
        "set-param name=variant value=chess",
        "set-param name=hash value=0",
        "set-param name=level value=grandmaster",
        "set-param name=colour value=red",
        "set-param name=futility-margin value=wide",
        "set-param name=late-move-base value=-2",
        "pos pos=Wxyz",
        "pos moves=\"11-15 11-15\"",
        "level move-time=-1",
        "level depth=deep",
        "level time=5 inc=x",
        "go think",
    ];
    for text in refused {
        gui.send(text);
        let answer = gui.until("error");
        let message = answer[0].get("message").unwrap_or_default();
        assert!(!message.is_empty(), "{text}");
    }
    // Unknown commands and blank lines are ignored; a huge line is refused without being kept.
    gui.send("");
    gui.send("frobnicate now=1");
    gui.send(&"x".repeat(200_000));
    assert!(
        gui.until("error")[0]
            .get("message")
            .is_some_and(|m| m.contains("over"))
    );
    gui.send("ping");
    assert_eq!(gui.until("pong").len(), 1);
    // A position with no legal move is refused rather than searched.
    let lost = AnyPosition::from_fen(english(), "W:W:B1").expect("valid");
    gui.send(&format!("pos pos={}", position_text(&lost)));
    gui.send("go think");
    assert!(gui.until("error")[0].get("message").is_some());
    assert!(gui.ends());
}

#[test]
fn a_clock_is_planned_not_spent_at_once() {
    let gui = Gui::start();
    gui.send("pos");
    gui.send("level time=2 inc=0");
    let started = std::time::Instant::now();
    gui.send("go think");
    gui.until("done");
    // Two seconds for the rest of the game: one move takes a small share.
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "{:?}",
        started.elapsed()
    );
    assert!(gui.ends());
}

#[test]
fn a_fixed_time_per_move_replaces_the_clock() {
    let gui = Gui::start_with(HubOptions {
        fixed_move_time: Some(Duration::from_millis(600)),
        ..HubOptions::default()
    });
    gui.send("pos");
    // A clock of a tenth of a second would end the move at once; the fixed time is spent whole instead.
    gui.send("level time=0.1 inc=0");
    let started = std::time::Instant::now();
    gui.send("go think");
    gui.until("done");
    assert!(
        started.elapsed() >= Duration::from_millis(400),
        "{:?}",
        started.elapsed()
    );
    // And a long clock no longer stretches the move: ten minutes would give it many seconds.
    gui.send("level time=600 inc=0");
    let started = std::time::Instant::now();
    gui.send("go think");
    gui.until("done");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(gui.ends());
}

#[test]
fn threads_are_a_parameter() {
    let gui = Gui::start();
    gui.send("hub");
    let intro = gui.until("wait");
    assert!(intro.iter().any(|l| l.get("name") == Some("threads")));
    gui.send("set-param name=threads value=2");
    gui.send("init");
    gui.until("ready");
    gui.send("pos");
    gui.send("level depth=8");
    gui.send("go think");
    let done = gui.until("done");
    assert!(done.last().and_then(|d| d.get("move")).is_some());
    gui.send("set-param name=threads value=0");
    assert!(
        gui.until("error")[0]
            .get("message")
            .is_some_and(|m| m.contains("threads"))
    );
    assert!(gui.ends());
}

#[test]
fn the_evaluation_is_a_parameter() {
    let gui = Gui::start();
    gui.send("hub");
    let intro = gui.until("wait");
    let param = intro
        .iter()
        .find(|l| l.get("name") == Some("eval"))
        .expect("an eval parameter");
    assert_eq!(param.get("value"), Some("network"));
    // Each evaluation searches and answers; a search after switching uses the new one.
    for eval in ["classic", "network"] {
        gui.send(&format!("set-param name=eval value={eval}"));
        gui.send("init");
        gui.until("ready");
        let start = position_text(&AnyPosition::start(english()));
        gui.send(&format!("pos pos={start}"));
        gui.send("level depth=6");
        gui.send("go think");
        let done = gui.until("done");
        assert!(done.last().and_then(|d| d.get("move")).is_some(), "{eval}");
    }
    gui.send("set-param name=eval value=oracle");
    assert!(
        gui.until("error")[0]
            .get("message")
            .is_some_and(|m| m.contains("network or classic"))
    );
    assert!(gui.ends());
}
