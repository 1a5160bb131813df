//! A load of arena players for `crowned bench arena`: scripted players, each a real SSH client, enter one arena
//! (`tournament CODE`), and whenever the event sends them to a board they play its game with random legal
//! moves at a human pace, then wait at the end of it for their next pairing, until the arena stops pairing.
//!
//! Each player reads its own screen through a terminal emulator to see where the event has sent it (a new
//! table's code on the screen, and whether it moves first). The two players of a board meet in the load by the
//! table's code, each keeping its own copy of the game: the one to move tells the other which move it typed
//! and when, and the other times how long that move took to reach its screen (the move's text in the bytes
//! that came since, as `crowned bench tables` does: the terminals are tall enough that the move list never
//! scrolls). Loopback only: the caller gives the address of a server it started itself on this machine.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use russh::ChannelMsg;
use russh::keys::{Algorithm, PrivateKey};
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, sleep, timeout, timeout_at};

use super::load::{KnownHost, LoadClientError, find, open_terminal, sign_in, split_arrivals};
use super::load_tables::last_words;
use crate::game::AnyGame;
use crate::rules::{Color, GameType};

/// The players' terminals: wide enough for the move pane, tall enough that a game's moves never scroll.
const SIZE: (NonZeroU16, NonZeroU16) = match (NonZeroU16::new(100), NonZeroU16::new(60)) {
    (Some(cols), Some(rows)) => (cols, rows),
    _ => panic!("a terminal has cells"),
};

/// The most plies a game may be given before it is ended: more would scroll the move list off the screen.
pub const MAX_PLIES: usize = 80;

/// How long after the arena stops pairing a player still waits for a board (one paired at the last moment may
/// take a while to come on a busy machine).
const LAST_CALL: Duration = Duration::from_secs(5);

/// What the load is.
#[derive(Clone, Debug)]
pub struct ArenaLoadConfig {
    /// The server (on this machine).
    pub address: SocketAddr,
    /// The fingerprint its key must have.
    pub host_key: String,
    /// The arena's code.
    pub event: String,
    /// Players who enter it.
    pub players: usize,
    /// When the arena starts pairing.
    pub starts: SystemTime,
    /// When it stops.
    pub ends: SystemTime,
    /// Plies at most per game (up to [`MAX_PLIES`]); then the side to move resigns or offers a draw, which is
    /// accepted.
    pub plies: usize,
    /// One game in this many that reaches `plies` ends in a draw (0: none; the others by resignation).
    pub draw_every: usize,
    /// A player's pause before each move (each waits a little more or less).
    pub think: Duration,
    /// How long any one answer may take before the player counts as failed.
    pub patience: Duration,
}

/// One game as one of its players saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenGame {
    /// Its table's code.
    pub code: String,
    /// The player's name.
    pub player: String,
    /// Whether they moved first (Black).
    pub black: bool,
    /// The result as they saw it (`1-0`, `0-1`, `1/2-1/2`).
    pub result: String,
}

/// What the load measured.
#[derive(Clone, Debug, Default)]
pub struct ArenaLoadReport {
    /// Players the event took in.
    pub joined: usize,
    /// Players that failed, with the reason.
    pub failed: Vec<String>,
    /// Every game each player finished, as they saw it (each game twice, once by each player).
    pub games: Vec<SeenGame>,
    /// Boards the players were sent to (each game twice).
    pub boards: usize,
    /// From a player being free (the end of their last game on their screen) to their next board on their
    /// screen.
    pub waits: Vec<Duration>,
    /// From the arena's start (or the player's entry, when later) to their first board on their screen.
    pub first_boards: Vec<Duration>,
    /// From a move typed to its text on the mover's own screen.
    pub round_trips: Vec<Duration>,
    /// From a move typed to its text on the opponent's screen.
    pub to_opponent: Vec<Duration>,
}

/// What one player tells the other at their board.
#[derive(Debug)]
enum Note {
    /// The mover typed the `index`-th legal move at `sent`, and has seen it on their own screen.
    Moved { index: usize, sent: Instant },
    /// The mover resigned.
    Resigned,
    /// The mover offered a draw.
    DrawOffered,
}

/// One player's end of a board's line to the other.
struct Line {
    tell: mpsc::UnboundedSender<Note>,
    hear: mpsc::UnboundedReceiver<Note>,
}

/// A player at a board whose opponent has not come yet: the line kept for the opponent, and the call that
/// tells the first that the second has come.
struct Waiting {
    line: Line,
    come: oneshot::Sender<()>,
}

/// Where the players of a board find each other, by table code.
#[derive(Clone, Default)]
struct Meeting(Arc<Mutex<HashMap<String, Waiting>>>);

impl Meeting {
    /// Meets the opponent at the board `code`: this player's line once both are there.
    async fn meet(&self, code: &str, patience: Duration) -> Result<Line, LoadClientError> {
        let come = {
            let mut boards = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(waiting) = boards.remove(code) {
                // The first has waited; it is told, and this player has the line kept for them.
                let _ = waiting.come.send(());
                return Ok(waiting.line);
            }
            let (to_second, from_first) = mpsc::unbounded_channel();
            let (to_first, from_second) = mpsc::unbounded_channel();
            let (come, came) = oneshot::channel();
            boards.insert(
                code.to_string(),
                Waiting {
                    line: Line {
                        tell: to_first,
                        hear: from_first,
                    },
                    come,
                },
            );
            (
                Line {
                    tell: to_second,
                    hear: from_second,
                },
                came,
            )
        };
        let (line, came) = come;
        match timeout(patience, came).await {
            Ok(Ok(())) => Ok(line),
            _ => {
                self.0
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .remove(code);
                Err(LoadClientError::NoOpponent(code.to_string()))
            }
        }
    }
}

/// Runs the load: every player enters the arena, then plays what it is paired for until the arena stops.
pub async fn run_arena_load(config: ArenaLoadConfig) -> ArenaLoadReport {
    let meeting = Meeting::default();
    let mut tasks = Vec::with_capacity(config.players);
    for index in 0..config.players {
        let config = config.clone();
        let meeting = meeting.clone();
        tasks.push(tokio::spawn(async move {
            // Entries spread over the first seconds, as people arrive.
            sleep(Duration::from_millis((index as u64 * 997) % 3000)).await;
            let mut run = PlayerRun::default();
            let outcome = play_arena(&config, index, &meeting, &mut run).await;
            (run, outcome)
        }));
    }
    let mut report = ArenaLoadReport::default();
    for task in tasks {
        match task.await {
            Ok((run, outcome)) => {
                report.joined += usize::from(run.joined);
                report.boards += run.boards;
                report.games.extend(run.games);
                report.waits.extend(run.waits);
                report.first_boards.extend(run.first_board);
                report.round_trips.extend(run.round_trips);
                report.to_opponent.extend(run.to_opponent);
                if let Err(why) = outcome {
                    report.failed.push(why.to_string());
                }
            }
            Err(e) => report.failed.push(format!("a player's task failed: {e}")),
        }
    }
    report
}

/// What one player did, kept as it goes (a player that fails keeps what it measured before).
#[derive(Default)]
struct PlayerRun {
    joined: bool,
    boards: usize,
    games: Vec<SeenGame>,
    waits: Vec<Duration>,
    first_board: Option<Duration>,
    round_trips: Vec<Duration>,
    to_opponent: Vec<Duration>,
}

/// `instant` as a point of the load's clock (a time already past is now).
fn at(instant: SystemTime) -> Instant {
    let now = SystemTime::now();
    Instant::now() + instant.duration_since(now).unwrap_or(Duration::ZERO)
}

async fn play_arena(
    config: &ArenaLoadConfig,
    index: usize,
    meeting: &Meeting,
    run: &mut PlayerRun,
) -> Result<(), LoadClientError> {
    let name = format!("p{index:03}");
    let mut screen = Screen::open(config, &name, &format!("tournament {}", config.event)).await?;
    screen
        .until(config.patience, |s| {
            s.contains("you are in") || s.contains("waiting for your pairing") || board(s).is_some()
        })
        .await?;
    run.joined = true;
    let mut rng = StdRng::seed_from_u64(index as u64);
    let mut free_since = Instant::now().max(at(config.starts));
    let mut last: Option<String> = None;
    let last_call = at(config.ends) + LAST_CALL;
    loop {
        let Some((code, black, shown_at)) = screen.next_board(last.as_deref(), last_call).await?
        else {
            return Ok(());
        };
        let wait = shown_at.saturating_duration_since(free_since);
        match run.boards {
            0 => run.first_board = Some(wait),
            _ => run.waits.push(wait),
        }
        run.boards += 1;
        // What came before the board is not an answer to anything played at it.
        screen.forget();
        let line = meeting.meet(&code, config.patience).await?;
        let (result, over_at) = play_board(config, &mut screen, line, black, &mut rng, run).await?;
        run.games.push(SeenGame {
            code: code.clone(),
            player: name.clone(),
            black,
            result,
        });
        free_since = over_at;
        last = Some(code);
    }
}

/// Plays one board's game to its end; the result as this player saw it, and when its end came on the screen.
async fn play_board(
    config: &ArenaLoadConfig,
    screen: &mut Screen,
    mut line: Line,
    black: bool,
    rng: &mut StdRng,
    run: &mut PlayerRun,
) -> Result<(String, Instant), LoadClientError> {
    let patience = config.patience;
    let me = if black { Color::Black } else { Color::White };
    let mut game = AnyGame::new(GameType::default());
    let notation = game.variant().notation();
    while game.outcome().is_none() {
        if game.position().side_to_move() == me {
            if game.len() >= config.plies.min(MAX_PLIES) {
                // Long enough: a draw offered (and accepted), or a resignation (the app asks first).
                screen.forget();
                if config.draw_every > 0 && rng.random_range(0..config.draw_every) == 0 {
                    screen.send(b":draw\r").await?;
                    let _ = line.tell.send(Note::DrawOffered);
                    game.agree_draw()?;
                } else {
                    screen.send(b":resign\r").await?;
                    sleep(Duration::from_millis(50)).await;
                    screen.send(b"y").await?;
                    let _ = line.tell.send(Note::Resigned);
                    game.resign(me)?;
                }
                break;
            }
            sleep(config.think.mul_f64(rng.random_range(0.5..1.5))).await;
            let position = game.position();
            let moves = position.legal_moves();
            let index = rng.random_range(0..moves.len());
            let mv = moves[index];
            let typed = position.write_move(&mv, notation);
            game.play(&mv)?;
            let shown = game
                .move_text(game.len(), notation)
                .ok_or(LoadClientError::NoMoveText)?;
            let sent = Instant::now();
            screen.send(format!("{typed}\r").as_bytes()).await?;
            let echoed = screen.wait_for(shown.as_bytes(), patience).await?;
            run.round_trips.push(echoed.saturating_duration_since(sent));
            // The end of the game may have come in the same bytes as the move: kept for the wait below.
            if game.outcome().is_none() {
                screen.forget();
            }
            let _ = line.tell.send(Note::Moved { index, sent });
        } else {
            let note = timeout(patience, line.hear.recv())
                .await
                .ok()
                .flatten()
                .ok_or(LoadClientError::OpponentGone)?;
            match note {
                Note::Moved { index, sent } => {
                    let position = game.position();
                    let moves = position.legal_moves();
                    let mv = *moves.get(index).ok_or(LoadClientError::OpponentGone)?;
                    game.play(&mv)?;
                    let shown = game
                        .move_text(game.len(), notation)
                        .ok_or(LoadClientError::NoMoveText)?;
                    let arrived = screen.wait_for(shown.as_bytes(), patience).await?;
                    run.to_opponent
                        .push(arrived.saturating_duration_since(sent));
                    if game.outcome().is_none() {
                        screen.forget();
                    }
                }
                Note::Resigned => {
                    game.resign(me.opponent())?;
                }
                Note::DrawOffered => {
                    screen
                        .until(patience, |s| s.contains("offers a draw"))
                        .await?;
                    screen.send(b"y").await?;
                    game.agree_draw()?;
                }
            }
        }
    }
    // The game-over panel's title ("Game over", its two words placed apart).
    let over_at = screen.wait_for(b"over", patience).await?;
    Ok((game.result_token(game.outcome()).to_string(), over_at))
}

/// Runs `command` on the server at `address` (whose key must have the fingerprint `host_key`) without a
/// terminal, as `user` with a key of its own: what it printed, and its exit status.
pub async fn ask(
    address: SocketAddr,
    host_key: &str,
    user: &str,
    command: &str,
    patience: Duration,
) -> Result<(String, Option<u32>), LoadClientError> {
    let key =
        PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).map_err(LoadClientError::NoKey)?;
    let handle = sign_in(address, host_key, patience, user, key).await?;
    let mut channel = handle
        .channel_open_session()
        .await
        .map_err(LoadClientError::NoSession)?;
    channel
        .exec(true, command)
        .await
        .map_err(LoadClientError::NoTerminal)?;
    let deadline = Instant::now() + patience;
    let (mut said, mut status) = (Vec::new(), None);
    loop {
        match timeout_at(deadline, channel.wait()).await {
            Ok(Some(ChannelMsg::Data { data } | ChannelMsg::ExtendedData { data, .. })) => {
                // An answer is a table at most; a server that talks on is cut short.
                if said.len() < ASK_LIMIT {
                    said.extend_from_slice(&data);
                }
            }
            Ok(Some(ChannelMsg::ExitStatus { exit_status })) => status = Some(exit_status),
            Ok(Some(ChannelMsg::Close) | None) => break,
            Ok(Some(_)) => {}
            Err(_) => {
                return Err(LoadClientError::NotShown {
                    text: format!("the end of {command:?}"),
                    patience,
                    shown: last_words(&said),
                });
            }
        }
    }
    Ok((String::from_utf8_lossy(&said).into_owned(), status))
}

/// The most bytes of an answer [`ask`] keeps.
const ASK_LIMIT: usize = 1 << 20;

/// The board a screen shows, if it shows one at its first move: its table's code and whether this player moves
/// first. The moves pane's title says `table K7QX`; the status line `move 1, Black to play: your move` to the
/// player who moves first and `... NAME is thinking` to the other.
fn board(screen: &str) -> Option<(String, bool)> {
    let code: String = screen.split("table ").nth(1)?.chars().take(4).collect();
    if code.chars().count() < 4 || screen.contains("resigned") || screen.contains("Game over") {
        return None;
    }
    if screen.contains("move 1, Black to play: your move") {
        Some((code, true))
    } else if screen.contains("move 1, Black to play: ") && screen.contains("is thinking") {
        Some((code, false))
    } else {
        None
    }
}

/// One player's screen: its bytes since the last [`Screen::forget`], each piece stamped with when it arrived,
/// and the whole screen as a terminal shows it.
struct Screen {
    // Kept so that the connection lives as long as the screen.
    _handle: russh::client::Handle<KnownHost>,
    writer: russh::ChannelWriteHalf<russh::client::Msg>,
    arrivals: mpsc::UnboundedReceiver<(Instant, Vec<u8>)>,
    terminal: vt100::Parser,
    seen: Vec<u8>,
    /// When each stretch of `seen` arrived: (end offset, instant).
    stamps: Vec<(usize, Instant)>,
}

impl Screen {
    async fn open(
        config: &ArenaLoadConfig,
        user: &str,
        command: &str,
    ) -> Result<Screen, LoadClientError> {
        let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)
            .map_err(LoadClientError::NoKey)?;
        let (cols, rows) = SIZE;
        let (handle, channel) = open_terminal(
            config.address,
            &config.host_key,
            config.patience,
            user,
            key,
            Some(command),
            (u32::from(cols.get()), u32::from(rows.get())),
        )
        .await?;
        let (writer, arrivals) = split_arrivals(channel);
        Ok(Screen {
            _handle: handle,
            writer,
            arrivals,
            terminal: vt100::Parser::new(rows, cols, 0),
            seen: Vec::new(),
            stamps: Vec::new(),
        })
    }

    /// The next piece of data by `deadline`: `Ok(false)` when none came.
    async fn take(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<bool, LoadClientError> {
        match timeout_at(deadline, self.arrivals.recv()).await {
            Ok(Some((when, bytes))) => {
                self.terminal.process(&bytes);
                self.seen.extend_from_slice(&bytes);
                self.stamps.push((self.seen.len(), when));
                Ok(true)
            }
            Ok(None) => Err(LoadClientError::ClosedBefore(format!(
                "{waiting_for} (the screen's last words: {:?})",
                last_words(&self.seen)
            ))),
            Err(_) => Ok(false),
        }
    }

    /// Waits for `text` in the bytes since the last [`Screen::forget`]; when the piece that completed it
    /// arrived.
    async fn wait_for(
        &mut self,
        text: &[u8],
        patience: Duration,
    ) -> Result<Instant, LoadClientError> {
        let deadline = Instant::now() + patience;
        let what = String::from_utf8_lossy(text).into_owned();
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
            if !self.take(deadline, &what).await? {
                return Err(LoadClientError::NotShown {
                    text: what,
                    patience,
                    shown: last_words(&self.seen),
                });
            }
        }
    }

    /// Waits until the screen, as a terminal shows it, satisfies `done`.
    async fn until(
        &mut self,
        patience: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<(), LoadClientError> {
        let deadline = Instant::now() + patience;
        while !done(&self.terminal.screen().contents()) {
            if !self.take(deadline, "the screen awaited").await? {
                return Err(LoadClientError::NotShown {
                    text: "the screen awaited".to_string(),
                    patience,
                    shown: last_words(&self.seen),
                });
            }
        }
        Ok(())
    }

    /// Waits until `deadline` for a board other than `last` on the screen: its code, whether this player moves
    /// first, and when the piece that showed it arrived; `None` when no board came.
    async fn next_board(
        &mut self,
        last: Option<&str>,
        deadline: Instant,
    ) -> Result<Option<(String, bool, Instant)>, LoadClientError> {
        loop {
            let now = self.terminal.screen().contents();
            if let Some((code, black)) = board(&now)
                && last != Some(code.as_str())
            {
                let when = self.stamps.last().map_or_else(Instant::now, |s| s.1);
                return Ok(Some((code, black, when)));
            }
            if !self.take(deadline, "the next board").await? {
                return Ok(None);
            }
        }
    }

    /// Forgets the bytes seen: the next wait looks at what comes after.
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
}

#[cfg(test)]
mod tests {
    use super::board;

    #[test]
    fn a_board_is_read_with_who_moves_first() {
        let black = "x table K7QX y\n move 1, Black to play: your move";
        let white = "table K7QX\n move 1, Black to play: p001 is thinking";
        assert_eq!(board(black), Some(("K7QX".to_string(), true)));
        assert_eq!(board(white), Some(("K7QX".to_string(), false)));
        // The end of the last game is not a new board, nor is a game under way.
        assert_eq!(board(&format!("{black}\nGame over")), None);
        assert_eq!(board("table K7QX\n move 3, Black to play: your move"), None);
        assert_eq!(board("move 1, Black to play: your move"), None);
    }
}
