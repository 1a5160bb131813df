//! A load of games between people for `crowned bench tables`: pairs of scripted players, each a real SSH
//! client, open a table (`new`), join it (`join CODE`) and play random legal moves at a human pace while
//! watchers watch (`watch CODE`), timing how long each move takes to reach the other screens.
//!
//! A move has reached a screen when its text has come in that screen's bytes: the terminals are tall enough
//! that the move list never scrolls, so each move is written into blank cells, in one piece. Every client reads
//! its channel all the time and stamps each piece of data as it arrives, so a screen read late is still timed
//! right. Loopback only: the caller gives the addresses of servers it started itself on this machine.
//!
//! With several servers (nodes of one server on one database), each game's two players sit at different
//! nodes, so every move crosses from one node to the other, and its watcher sits at a third where there is one.

use std::net::SocketAddr;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use russh::keys::{Algorithm, PrivateKey};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep, timeout};

use super::load::{LoadClientError, find, open_terminal, split_arrivals};
use crate::game::AnyGame;
use crate::rules::GameType;
use crate::serve::codes::ALPHABET;

/// The players' terminals: wide enough for the move pane, tall enough that a game's moves never scroll.
const SIZE: (u32, u32) = (100, 60);

/// A server the load connects to (on this machine).
#[derive(Clone, Debug)]
pub struct TableServer {
    /// Where it listens.
    pub address: SocketAddr,
    /// The fingerprint its key must have.
    pub host_key: String,
}

/// What the load is.
#[derive(Clone, Debug)]
pub struct TableLoadConfig {
    /// The servers: one, or the nodes of one server. Game `i`'s first player connects to server `i`, its
    /// second player to server `i + 1` and its watcher to server `i + 2` (counting round).
    pub servers: Vec<TableServer>,
    /// Games at once (two players each).
    pub games: usize,
    /// Watchers, one to a game from the first.
    pub watchers: usize,
    /// One game in this many has a clock (5+3); 0: none.
    pub clock_every: usize,
    /// Plies at most; a game still going then ends by resignation.
    pub plies: usize,
    /// A player's pause before each move (each waits a little more or less).
    pub think: Duration,
    /// How long any one answer may take before the game counts as failed.
    pub patience: Duration,
}

/// What the load measured.
#[derive(Clone, Debug, Default)]
pub struct TableLoadReport {
    /// Games played to their end.
    pub finished: usize,
    /// Games that failed, with the reason.
    pub failed: Vec<String>,
    /// From a move sent to its text on the opponent's screen.
    pub to_opponent: Vec<Duration>,
    /// From a move sent to its text on a watcher's screen.
    pub to_watchers: Vec<Duration>,
    /// Each finished game's code and result as the players saw it (`1-0`, `0-1`, `1/2-1/2`).
    pub results: Vec<(String, String)>,
}

/// Runs the load: every game at once, each from its table's opening to its end.
pub async fn run_table_load(config: TableLoadConfig) -> TableLoadReport {
    if config.servers.is_empty() {
        return TableLoadReport {
            failed: vec!["no server to connect to".into()],
            ..TableLoadReport::default()
        };
    }
    let mut tasks = Vec::with_capacity(config.games);
    for index in 0..config.games {
        let config = config.clone();
        tasks.push(tokio::spawn(async move {
            // Connections spread over the first second, as people arrive.
            sleep(Duration::from_millis((index as u64 * 997) % 1000)).await;
            play_game(&config, index).await
        }));
    }
    let mut report = TableLoadReport::default();
    for task in tasks {
        match task.await {
            Ok(Ok(game)) => {
                report.finished += 1;
                report.to_opponent.extend(game.to_opponent);
                report.to_watchers.extend(game.to_watchers);
                report.results.push((game.code, game.result));
            }
            Ok(Err(why)) => report.failed.push(why.to_string()),
            Err(e) => report.failed.push(format!("a game's task failed: {e}")),
        }
    }
    report
}

/// One client's screen: its bytes as they came, each piece stamped with when it arrived.
struct Screen {
    // Kept so that the connection lives as long as the screen.
    _handle: russh::client::Handle<super::load::KnownHost>,
    writer: russh::ChannelWriteHalf<russh::client::Msg>,
    arrivals: mpsc::UnboundedReceiver<(Instant, Vec<u8>)>,
    seen: Vec<u8>,
    /// When each stretch of `seen` arrived: (end offset, instant).
    stamps: Vec<(usize, Instant)>,
}

impl Screen {
    async fn open(
        config: &TableLoadConfig,
        server: &TableServer,
        user: &str,
        command: &str,
    ) -> Result<Screen, LoadClientError> {
        let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)
            .map_err(LoadClientError::NoKey)?;
        let (handle, channel) = open_terminal(
            server.address,
            &server.host_key,
            config.patience,
            user,
            key,
            Some(command),
            SIZE,
        )
        .await?;
        let (writer, arrivals) = split_arrivals(channel);
        Ok(Screen {
            _handle: handle,
            writer,
            arrivals,
            seen: Vec::new(),
            stamps: Vec::new(),
        })
    }

    /// Waits for `text` in the bytes since the last [`Screen::forget`]; when the piece that completed it
    /// arrived.
    async fn wait_for(
        &mut self,
        text: &[u8],
        patience: Duration,
    ) -> Result<Instant, LoadClientError> {
        let deadline = Instant::now() + patience;
        loop {
            if let Some(at) = find(&self.seen, text) {
                let end = at + text.len();
                let stamp = self
                    .stamps
                    .iter()
                    .find(|(until, _)| *until >= end)
                    .map_or_else(Instant::now, |(_, when)| *when);
                return Ok(stamp);
            }
            match timeout(
                deadline.saturating_duration_since(Instant::now()),
                self.arrivals.recv(),
            )
            .await
            {
                Ok(Some((when, bytes))) => {
                    self.seen.extend_from_slice(&bytes);
                    self.stamps.push((self.seen.len(), when));
                }
                Ok(None) => {
                    return Err(LoadClientError::ClosedBefore(format!(
                        "{} (the screen's last words: {:?})",
                        String::from_utf8_lossy(text),
                        last_words(&self.seen)
                    )));
                }
                Err(_) => {
                    return Err(LoadClientError::NotShown {
                        text: String::from_utf8_lossy(text).into_owned(),
                        patience,
                        shown: last_words(&self.seen),
                    });
                }
            }
        }
    }

    /// Forgets what has been seen: the next wait looks at what comes after.
    fn forget(&mut self) {
        self.seen.clear();
        self.stamps.clear();
    }

    async fn send(&self, bytes: &[u8]) -> Result<(), LoadClientError> {
        self.writer
            .data(bytes)
            .await
            .map_err(LoadClientError::CannotSend)
    }

    /// The code in the title of the move pane (`table K7QX`). The first frame is drawn over blank cells, which
    /// ratatui skips: the code comes after a cursor move, not after a space.
    async fn code(&mut self, patience: Duration) -> Result<String, LoadClientError> {
        self.wait_for(b"table", patience).await?;
        loop {
            if let Some(code) =
                find(&self.seen, b"table").and_then(|at| code_after(&self.seen[at + 5..]))
            {
                return Ok(code);
            }
            let (when, bytes) = timeout(patience, self.arrivals.recv())
                .await
                .map_err(|_| LoadClientError::NoCode)?
                .ok_or(LoadClientError::ChannelClosed)?;
            self.seen.extend_from_slice(&bytes);
            self.stamps.push((self.seen.len(), when));
        }
    }
}

/// The printable text at the end of a screen's bytes, escape sequences left out: what a closed channel said
/// last (a refusal, an error), for the report.
pub(super) fn last_words(bytes: &[u8]) -> String {
    let tail = &bytes[bytes.len().saturating_sub(400)..];
    let mut text = String::new();
    let mut in_escape = false;
    for &b in tail {
        match (in_escape, b) {
            (false, 0x1b) => in_escape = true,
            (true, b) if b.is_ascii_alphabetic() => in_escape = false,
            (true, _) => {}
            (false, b) if b.is_ascii_graphic() || b == b' ' => text.push(char::from(b)),
            (false, _) => {}
        }
    }
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    text.chars()
        .rev()
        .take(120)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect()
}

/// A code at the start of `bytes`, after spaces and cursor moves (`ESC [ ... letter`).
fn code_after(bytes: &[u8]) -> Option<String> {
    let mut rest = bytes;
    loop {
        match rest {
            [b' ', tail @ ..] => rest = tail,
            [0x1b, b'[', tail @ ..] => {
                let end = tail.iter().position(u8::is_ascii_alphabetic)?;
                rest = &tail[end + 1..];
            }
            _ => break,
        }
    }
    let code = rest.get(..4)?;
    code.iter()
        .all(|b| ALPHABET.contains(b))
        .then(|| String::from_utf8_lossy(code).into_owned())
}

struct Played {
    code: String,
    result: String,
    to_opponent: Vec<Duration>,
    to_watchers: Vec<Duration>,
}

async fn play_game(config: &TableLoadConfig, index: usize) -> Result<Played, LoadClientError> {
    let patience = config.patience;
    let clocked = config.clock_every > 0 && index.is_multiple_of(config.clock_every);
    let command = format!(
        "new english black{}{}",
        if clocked { " 5+3" } else { "" },
        if index.is_multiple_of(2) {
            ""
        } else {
            " casual"
        }
    );
    let server = |seat: usize| &config.servers[(index + seat) % config.servers.len()];
    let mut black = Screen::open(config, server(0), &format!("black{index}"), &command).await?;
    let code = black.code(patience).await?;
    let mut white = Screen::open(
        config,
        server(1),
        &format!("white{index}"),
        &format!("join {code}"),
    )
    .await?;
    white.wait_for(b"you", patience).await?;
    let mut watcher = match index < config.watchers {
        true => {
            let mut screen = Screen::open(
                config,
                server(2),
                &format!("watcher{index}"),
                &format!("watch {code}"),
            )
            .await?;
            screen.wait_for(b"table", patience).await?;
            Some(screen)
        }
        false => None,
    };
    // Black's screen hears that White has sat down a moment after White's first frame.
    sleep(Duration::from_millis(200)).await;
    let mut rng = StdRng::seed_from_u64(index as u64);
    let mut game = AnyGame::new(GameType::default());
    let notation = game.variant().notation();
    let (mut to_opponent, mut to_watchers) = (Vec::new(), Vec::new());
    for screen in [&mut black, &mut white] {
        screen.forget();
    }
    if let Some(w) = watcher.as_mut() {
        w.forget();
    }
    while game.outcome().is_none() && game.len() < config.plies {
        let think = config.think.mul_f64(rng.random_range(0.5..1.5));
        sleep(think).await;
        let position = game.position();
        let moves = position.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        let typed = position.write_move(&mv, notation);
        game.play(&mv)?;
        let shown = game
            .move_text(game.len(), notation)
            .ok_or(LoadClientError::NoMoveText)?;
        let black_moved = game.len() % 2 == 1;
        let (mover, other) = match black_moved {
            true => (&mut black, &mut white),
            false => (&mut white, &mut black),
        };
        // What came before the move is not an answer to it (the same text may be earlier in the list).
        mover.forget();
        other.forget();
        if let Some(w) = watcher.as_mut() {
            w.forget();
        }
        let sent = Instant::now();
        mover.send(format!("{typed}\r").as_bytes()).await?;
        let arrived = other.wait_for(shown.as_bytes(), patience).await?;
        to_opponent.push(arrived.saturating_duration_since(sent));
        if let Some(w) = watcher.as_mut() {
            let arrived = w.wait_for(shown.as_bytes(), patience).await?;
            to_watchers.push(arrived.saturating_duration_since(sent));
        }
        mover.wait_for(shown.as_bytes(), patience).await?;
    }
    if game.outcome().is_none() {
        // Long enough: the side to move resigns (the app asks first).
        let side = game.position().side_to_move();
        for screen in [&mut black, &mut white] {
            screen.forget();
        }
        let loser = if side == crate::rules::Color::Black {
            &mut black
        } else {
            &mut white
        };
        loser.send(b":resign\r").await?;
        sleep(Duration::from_millis(50)).await;
        loser.send(b"y").await?;
        game.resign(side)?;
    }
    // The game-over panel's title ("Game over", its two words placed apart).
    for screen in [&mut black, &mut white] {
        screen.wait_for(b"over", patience).await?;
    }
    let result = game.result_token(game.outcome()).to_string();
    Ok(Played {
        code,
        result,
        to_opponent,
        to_watchers,
    })
}

#[cfg(test)]
mod tests {
    use super::code_after;

    #[test]
    fn a_code_is_read_past_cursor_moves() {
        assert_eq!(code_after(b"\x1b[1;70HK7QX \x1b"), Some("K7QX".into()));
        assert_eq!(code_after(b" K7QX"), Some("K7QX".into()));
        assert_eq!(code_after(b"\x1b[1;70HK7"), None);
        assert_eq!(code_after(b"\x1b[1;70Hzzzz"), None);
    }
}
