//! A load client for `crowned bench serve`: many players at once against one server, each a real SSH client
//! (or a browser's WebSocket, on the web door) pressing keys at a human pace, timing how long each key takes to
//! come back as a frame.
//!
//! Loopback only: the caller gives the address of a server it started itself on this machine.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use russh::ChannelMsg;
use russh::client::{self, Handle};
use russh::keys::{Algorithm, HashAlg, PrivateKey, PrivateKeyWithHashAlg, PublicKeyOrCertificate};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::{Barrier, watch};
use tokio::time::{Instant, timeout};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use thiserror::Error;

use crate::game::GameError;

/// Why a load client failed; the text goes into the report.
#[derive(Debug, Error)]
pub enum LoadClientError {
    /// No key could be made for the client.
    #[error("no key: {0}")]
    NoKey(russh::keys::ssh_key::Error),
    /// The player's settings could not be written before they connected.
    #[error("cannot write {}: {error}", path.display())]
    CannotWrite {
        /// The settings file.
        path: PathBuf,
        /// Why not.
        error: std::io::Error,
    },
    /// The server did not answer the connection in time.
    #[error("connecting took too long")]
    ConnectTimeout,
    /// The connection failed.
    #[error("cannot connect: {0}")]
    CannotConnect(russh::Error),
    /// Signing in failed.
    #[error("cannot sign in: {0}")]
    CannotSignIn(russh::Error),
    /// The server refused the key.
    #[error("signing in was refused")]
    SignInRefused,
    /// No session channel.
    #[error("no session: {0}")]
    NoSession(russh::Error),
    /// No terminal on the channel.
    #[error("no terminal: {0}")]
    NoTerminal(russh::Error),
    /// Bytes could not be sent.
    #[error("cannot send: {0}")]
    CannotSend(russh::Error),
    /// A browser's socket failed: opening it, or sending on it.
    #[error("web socket: {0}")]
    WebSocket(Box<tokio_tungstenite::tungstenite::Error>),
    /// The server closed the channel while a frame was awaited.
    #[error("the server closed the channel")]
    Closed,
    /// No frame came in time.
    #[error("no frame within {0:?}")]
    NoFrame(Duration),
    /// The channel closed before `text` was on the screen.
    #[error("the channel closed before {0}")]
    ClosedBefore(String),
    /// `text` was not on the screen in time.
    #[error("{text} was not shown within {patience:?} (the screen showed {shown:?})")]
    NotShown {
        /// What was awaited.
        text: String,
        /// How long.
        patience: Duration,
        /// What the screen showed instead, its last words.
        shown: String,
    },
    /// The table's code never came on the screen.
    #[error("no code on the screen")]
    NoCode,
    /// The channel closed while the code was awaited.
    #[error("the channel closed")]
    ChannelClosed,
    /// The client's own copy of the game refused a move (a bug of the load, not of the server).
    #[error("{0}")]
    Game(#[from] GameError),
    /// A move played has no text to look for.
    #[error("a move with no text")]
    NoMoveText,
    /// The opponent's client never came to the board.
    #[error("no opponent came to table {0}")]
    NoOpponent(String),
    /// The opponent's client stopped during the game (its own failure is reported for it).
    #[error("the opponent's client stopped")]
    OpponentGone,
}

/// The last words of a terminal emulator's screen (`contents`): its last lines with words on them (a frame's
/// edges are no words), joined by ` / `, for a failure to say what a player saw instead of what was awaited.
pub(super) fn screen_tail(contents: &str) -> String {
    const LIMIT: usize = 240;
    let mut lines: Vec<String> = Vec::new();
    let mut length = 0;
    for line in contents.lines().rev() {
        let words = line.split_whitespace().collect::<Vec<_>>().join(" ");
        if !words.chars().any(char::is_alphanumeric) {
            continue;
        }
        length += words.len() + 3;
        lines.push(words);
        if length >= LIMIT {
            break;
        }
    }
    lines.reverse();
    lines.join(" / ")
}

/// Bytes a flooder sends at a time.
const FLOOD_BURST: usize = 4096;

/// What the load is.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// The server (on this machine).
    pub address: SocketAddr,
    /// The fingerprint the server's key must have.
    pub host_key: String,
    /// Players connected at once.
    pub sessions: usize,
    /// Keys each player presses once everyone is connected.
    pub keys: usize,
    /// Time between one player's keys (each player waits a little more or less, so keys spread out).
    pub pause: Duration,
    /// One player in this many plays a move first, so that the engine is busy answering while keys are timed
    /// (0: none).
    pub engine_every: usize,
    /// How long any one answer may take before the player counts as failed.
    pub patience: Duration,
    /// Settings written for every player before it connects (the server's players folder, and the settings
    /// file's text), so that the load can choose, say, the engine's level and time.
    pub player_settings: Option<(PathBuf, String)>,
    /// Connections (besides `sessions`) that flood: once the players have pressed their keys, these type as
    /// fast as the server takes their bytes while the players press their keys a second time (0: no second
    /// round).
    pub flooders: usize,
    /// The web door, when some players come by it: the last `web_sessions` of `sessions` are browsers' sockets
    /// (guests) rather than SSH clients.
    pub web: Option<SocketAddr>,
    /// See `web`.
    pub web_sessions: usize,
}

/// What the load measured.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Players that connected, got their first frame and pressed all their keys.
    pub completed: usize,
    /// Players that failed, with the first reason.
    pub failed: Vec<String>,
    /// From the start of each connection to its first frame.
    pub first_frame: Vec<Duration>,
    /// From each key sent to the first bytes of the frame that answers it (SSH players).
    pub key_to_frame: Vec<Duration>,
    /// Bytes of each answering frame (SSH players).
    pub frame_bytes: Vec<usize>,
    /// The same for the players on the web door.
    pub web_key_to_frame: Vec<Duration>,
    /// See `web_key_to_frame`.
    pub web_frame_bytes: Vec<usize>,
    /// From each engine player's move to the engine's answer on its screen.
    pub engine_answer: Vec<Duration>,
    /// From each key sent to its frame in the second round, while the flooders typed.
    pub flooded_key_to_frame: Vec<Duration>,
    /// Bytes the flooders got the server to take, and for how long they typed.
    pub flooded: (u64, Duration),
}

/// Where the load stands, for the caller to measure the server at the right moments.
#[derive(Clone)]
pub struct Checkpoints {
    /// Everyone connected and idle: the caller measures, then waits here again to let the keys start.
    pub connected: Arc<Barrier>,
    /// The caller is done with the idle measurement.
    pub go: Arc<Barrier>,
}

impl Checkpoints {
    /// Checkpoints for `sessions` connections (players and flooders) and the caller.
    pub fn new(sessions: usize) -> Checkpoints {
        Checkpoints {
            connected: Arc::new(Barrier::new(sessions + 1)),
            go: Arc::new(Barrier::new(sessions + 1)),
        }
    }
}

/// Runs the load; the caller waits on both checkpoints once each (after everyone has connected, and when it
/// has measured the idle server).
pub async fn run_load(config: LoadConfig, checkpoints: &Checkpoints) -> LoadReport {
    let (stop_flood, flood_stopped) = watch::channel(false);
    // Players and flooders meet here once the players' first round is over.
    let second_round = Arc::new(Barrier::new(config.sessions + config.flooders));
    let mut tasks = Vec::with_capacity(config.sessions);
    for index in 0..config.sessions {
        let config = config.clone();
        let checkpoints = checkpoints.clone();
        let second_round = Arc::clone(&second_round);
        tasks.push(tokio::spawn(async move {
            let player = Player::connect(&config, index).await;
            // Every player reaches every checkpoint, connected or not, so that nobody waits forever.
            checkpoints.connected.wait().await;
            checkpoints.go.wait().await;
            let first = match player {
                Ok(mut player) => {
                    let measured = player.press_keys(&config, index, true).await;
                    measured.map(|m| (player, m))
                }
                Err(why) => Err(why),
            };
            if config.flooders == 0 {
                return first.map(|(_, measured)| (measured, Vec::new()));
            }
            second_round.wait().await;
            let (mut player, measured) = first?;
            let flooded = player.press_keys(&config, index, false).await?;
            Ok((measured, flooded.keys))
        }));
    }
    let mut floods = Vec::with_capacity(config.flooders);
    for index in config.sessions..config.sessions + config.flooders {
        let config = config.clone();
        let checkpoints = checkpoints.clone();
        let second_round = Arc::clone(&second_round);
        let stop = flood_stopped.clone();
        floods.push(tokio::spawn(async move {
            let player = Player::connect(&config, index).await;
            checkpoints.connected.wait().await;
            checkpoints.go.wait().await;
            second_round.wait().await;
            player?.flood(stop).await
        }));
    }
    let mut report = LoadReport::default();
    for task in tasks {
        match task.await {
            Ok(Ok((measured, flooded))) => {
                report.completed += 1;
                report.first_frame.push(measured.first_frame);
                match measured.web {
                    true => {
                        report.web_key_to_frame.extend(measured.keys);
                        report.web_frame_bytes.extend(measured.bytes);
                    }
                    false => {
                        report.key_to_frame.extend(measured.keys);
                        report.frame_bytes.extend(measured.bytes);
                    }
                }
                report.engine_answer.extend(measured.engine_answer);
                report.flooded_key_to_frame.extend(flooded);
            }
            Ok(Err(why)) => report.failed.push(why.to_string()),
            Err(e) => report.failed.push(format!("a player's task failed: {e}")),
        }
    }
    stop_flood.send_replace(true);
    for flood in floods {
        match flood.await {
            Ok(Ok((bytes, took))) => {
                report.flooded.0 += bytes;
                report.flooded.1 = report.flooded.1.max(took);
            }
            Ok(Err(why)) => report.failed.push(format!("a flooder: {why}")),
            Err(e) => report.failed.push(format!("a flooder's task failed: {e}")),
        }
    }
    report
}

/// The `q`-th quantile of `values` (0.5 for the median), or zero when there are none.
pub fn quantile(values: &[Duration], q: f64) -> Duration {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((sorted.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
    sorted[rank]
}

/// Trusts the server only if its key has the fingerprint given.
pub(super) struct KnownHost(String);

impl client::Handler for KnownHost {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(match key {
            PublicKeyOrCertificate::PublicKey { key, .. } => {
                key.fingerprint(HashAlg::Sha256).to_string() == self.0
            }
            PublicKeyOrCertificate::Certificate(_) => false,
        })
    }
}

struct Player {
    link: Link,
    first_frame: Duration,
}

/// How a load player reaches the server.
enum Link {
    Ssh {
        // Kept so that the connection lives as long as the player.
        _handle: Handle<KnownHost>,
        channel: russh::Channel<client::Msg>,
    },
    Web(Box<WebSocketStream<MaybeTlsStream<TcpStream>>>),
}

struct Measured {
    /// Whether the player came by the web door.
    web: bool,
    first_frame: Duration,
    keys: Vec<Duration>,
    bytes: Vec<usize>,
    engine_answer: Option<Duration>,
}

impl Player {
    async fn connect(config: &LoadConfig, index: usize) -> Result<Player, LoadClientError> {
        let started = Instant::now();
        let link = match config.web {
            Some(web)
                if index + config.web_sessions >= config.sessions && index < config.sessions =>
            {
                Link::Web(Box::new(open_web(web, config.patience).await?))
            }
            _ => Player::ssh(config, index).await?,
        };
        let mut player = Player {
            link,
            first_frame: Duration::ZERO,
        };
        // The first frame is the lobby's; `e` starts a game against the engine, whose first frame has come when
        // its status line has ("Black to play", words placed one by one, as ratatui skips the blank cells between
        // them).
        let mut seen = Vec::new();
        while !contains(&seen, b"lobby") {
            let bytes = player.next_data(config.patience).await?;
            seen.extend_from_slice(&bytes);
        }
        player.first_frame = started.elapsed();
        player.send(b"e").await?;
        seen.clear();
        // A guest (a browser's player) is told instead that their games are not kept.
        while !contains(&seen, b"play") && !contains(&seen, b"kept") {
            let bytes = player.next_data(config.patience).await?;
            seen.extend_from_slice(&bytes);
        }
        Ok(player)
    }

    /// An SSH player with a key of its own (its settings written first, when the load has some).
    async fn ssh(config: &LoadConfig, index: usize) -> Result<Link, LoadClientError> {
        let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)
            .map_err(LoadClientError::NoKey)?;
        if let Some((players, text)) = &config.player_settings {
            let identity = crate::ssh::identity_of(key.public_key(), "load");
            let file = players
                .join(identity.folder_name())
                .join("config/config.toml");
            let written = std::fs::create_dir_all(file.parent().unwrap_or(players))
                .and_then(|()| std::fs::write(&file, text));
            written.map_err(|error| LoadClientError::CannotWrite { path: file, error })?;
        }
        let (handle, channel) = open_terminal(
            config.address,
            &config.host_key,
            config.patience,
            &format!("load{index}"),
            key,
            None,
            (80, 24),
        )
        .await?;
        Ok(Link::Ssh {
            _handle: handle,
            channel,
        })
    }

    /// The next bytes the server sends, or why none came.
    async fn next_data(&mut self, patience: Duration) -> Result<Vec<u8>, LoadClientError> {
        loop {
            match &mut self.link {
                Link::Ssh { channel, .. } => match timeout(patience, channel.wait()).await {
                    Ok(Some(ChannelMsg::Data { data })) => return Ok(data.to_vec()),
                    Ok(Some(ChannelMsg::Eof | ChannelMsg::Close)) | Ok(None) => {
                        return Err(LoadClientError::Closed);
                    }
                    Ok(Some(_)) => {}
                    Err(_) => return Err(LoadClientError::NoFrame(patience)),
                },
                Link::Web(socket) => match timeout(patience, socket.next()).await {
                    Ok(Some(Ok(Message::Binary(data)))) => return Ok(data.to_vec()),
                    Ok(Some(Ok(Message::Close(_)) | Err(_)) | None) => {
                        return Err(LoadClientError::Closed);
                    }
                    Ok(Some(Ok(_))) => {}
                    Err(_) => return Err(LoadClientError::NoFrame(patience)),
                },
            }
        }
    }

    /// Takes whatever the server has sent already, without waiting (so that it is not taken for the answer to
    /// the next key).
    async fn drain(&mut self) {
        match &mut self.link {
            Link::Ssh { channel, .. } => {
                while let Ok(Some(_)) = timeout(Duration::ZERO, channel.wait()).await {}
            }
            Link::Web(socket) => {
                while let Ok(Some(_)) = timeout(Duration::ZERO, socket.next()).await {}
            }
        }
    }

    /// Presses the player's keys, timing each; in the `first` round one player in `engine_every` first plays a
    /// move the engine answers.
    async fn press_keys(
        &mut self,
        config: &LoadConfig,
        index: usize,
        first: bool,
    ) -> Result<Measured, LoadClientError> {
        let mut engine_answer = None;
        if first && config.engine_every > 0 && index.is_multiple_of(config.engine_every) {
            engine_answer = Some(self.play_the_engine(config.patience).await?);
        }
        // Spread the players' keys over the pause, so that they do not all press at the same instant.
        let offset = config.pause.mul_f64((index % 97) as f64 / 97.0);
        tokio::time::sleep(offset).await;
        let mut keys = Vec::with_capacity(config.keys);
        let mut bytes = Vec::with_capacity(config.keys);
        for k in 0..config.keys {
            // Anything already sent (the engine's move, say) is not an answer to the next key.
            self.drain().await;
            let key: &[u8] = if k % 2 == 0 { b"\x1b[C" } else { b"\x1b[D" };
            let sent = Instant::now();
            self.send(key).await?;
            let frame = self.next_data(config.patience).await?;
            keys.push(sent.elapsed());
            bytes.push(frame.len());
            tokio::time::sleep(config.pause).await;
        }
        Ok(Measured {
            web: matches!(self.link, Link::Web(_)),
            first_frame: self.first_frame,
            keys,
            bytes,
            engine_answer,
        })
    }

    /// Plays a move and waits for the engine's answer: the status line says the engine is thinking, then
    /// names Black, whose turn it is again.
    async fn play_the_engine(&mut self, patience: Duration) -> Result<Duration, LoadClientError> {
        let sent = Instant::now();
        self.send(b"11-15\r").await?;
        let mut seen = Vec::new();
        let mut thinking = None;
        loop {
            seen.extend_from_slice(&self.next_data(patience).await?);
            if thinking.is_none() {
                thinking = find(&seen, b"thinking");
            }
            if let Some(at) = thinking
                && find(&seen[at..], b"Black").is_some()
            {
                return Ok(sent.elapsed());
            }
        }
    }

    /// Types arrow keys as fast as the server takes them (reading every frame it sends back, as a terminal
    /// would) until `stop`; the bytes taken and for how long.
    async fn flood(
        mut self,
        mut stop: watch::Receiver<bool>,
    ) -> Result<(u64, Duration), LoadClientError> {
        let started = Instant::now();
        let typed = Arc::new(AtomicU64::new(0));
        // Flooders come by SSH.
        let Link::Ssh { channel, .. } = &mut self.link else {
            return Ok((0, Duration::ZERO));
        };
        let mut writer = channel.make_writer();
        let count = Arc::clone(&typed);
        let mut typing_stopped = stop.clone();
        let typing = tokio::spawn(async move {
            let burst = b"\x1b[C\x1b[D".repeat(FLOOD_BURST / 6);
            loop {
                tokio::select! {
                    _ = typing_stopped.wait_for(|stopped| *stopped) => return,
                    written = writer.write_all(&burst) => {
                        if written.is_err() {
                            return;
                        }
                        count.fetch_add(burst.len() as u64, Ordering::Relaxed);
                    }
                }
            }
        });
        loop {
            tokio::select! {
                _ = stop.wait_for(|stopped| *stopped) => break,
                message = channel.wait() => match message {
                    Some(ChannelMsg::Eof | ChannelMsg::Close) | None => break,
                    Some(_) => {}
                },
            }
        }
        let _ = typing.await;
        Ok((typed.load(Ordering::Relaxed), started.elapsed()))
    }

    async fn send(&mut self, bytes: &[u8]) -> Result<(), LoadClientError> {
        match &mut self.link {
            Link::Ssh { channel, .. } => channel
                .data_bytes(bytes.to_vec())
                .await
                .map_err(LoadClientError::CannotSend),
            Link::Web(socket) => socket
                .send(Message::Binary(bytes.to_vec().into()))
                .await
                .map_err(|e| LoadClientError::WebSocket(Box::new(e))),
        }
    }
}

/// A browser's terminal of 80x24 on the web door at `address`, as its page opens it (a guest).
async fn open_web(
    address: SocketAddr,
    patience: Duration,
) -> Result<WebSocketStream<MaybeTlsStream<TcpStream>>, LoadClientError> {
    let web_error = |e| LoadClientError::WebSocket(Box::new(e));
    let mut request = format!("ws://{address}/ws?cols=80&rows=24")
        .into_client_request()
        .map_err(web_error)?;
    // The page's own origin, which the door insists on.
    if let Ok(origin) = format!("http://{address}").parse() {
        request.headers_mut().insert("origin", origin);
    }
    let (socket, _) = timeout(patience, tokio_tungstenite::connect_async(request))
        .await
        .map_err(|_| LoadClientError::ConnectTimeout)?
        .map_err(web_error)?;
    Ok(socket)
}

/// What a terminal's channel brings, each piece with the moment it came: so that a load client times what its
/// screen shows from when the bytes arrived, not from when it got round to reading them.
pub(super) type Arrivals = tokio::sync::mpsc::UnboundedReceiver<(Instant, Vec<u8>)>;

/// Splits a terminal's channel into its writer and its [`Arrivals`], read by a task of their own until the
/// channel ends or nobody listens. Unbounded, as a load client reads all it is sent and the server bounds what it
/// sends.
pub(super) fn split_arrivals(
    channel: russh::Channel<client::Msg>,
) -> (russh::ChannelWriteHalf<client::Msg>, Arrivals) {
    let (mut reader, writer) = channel.split();
    let (tx, arrivals) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(message) = reader.wait().await {
            let going_on = match message {
                ChannelMsg::Data { data } => tx.send((Instant::now(), data.to_vec())).is_ok(),
                ChannelMsg::Eof | ChannelMsg::Close => false,
                _ => true,
            };
            if !going_on {
                break;
            }
        }
    });
    (writer, arrivals)
}

/// Connects to the server at `address` (whose key must have the fingerprint `host_key`) as `user` with `key`,
/// and opens a terminal of `size` running `command` (a shell when `None`).
pub(super) async fn open_terminal(
    address: SocketAddr,
    host_key: &str,
    patience: Duration,
    user: &str,
    key: PrivateKey,
    command: Option<&str>,
    (cols, rows): (u32, u32),
) -> Result<(Handle<KnownHost>, russh::Channel<client::Msg>), LoadClientError> {
    let handle = sign_in(address, host_key, patience, user, key).await?;
    let channel = handle
        .channel_open_session()
        .await
        .map_err(LoadClientError::NoSession)?;
    let ask = async {
        channel
            .request_pty(false, "xterm-256color", cols, rows, 0, 0, &[])
            .await?;
        match command {
            Some(command) => channel.exec(false, command).await,
            None => channel.request_shell(false).await,
        }
    };
    ask.await.map_err(LoadClientError::NoTerminal)?;
    Ok((handle, channel))
}

/// Connects to the server at `address` (whose key must have the fingerprint `host_key`) and signs in as `user`
/// with `key`.
pub(super) async fn sign_in(
    address: SocketAddr,
    host_key: &str,
    patience: Duration,
    user: &str,
    key: PrivateKey,
) -> Result<Handle<KnownHost>, LoadClientError> {
    let ssh = Arc::new(client::Config::default());
    let mut handle = timeout(
        patience,
        client::connect(ssh, address, KnownHost(host_key.to_string())),
    )
    .await
    .map_err(|_| LoadClientError::ConnectTimeout)?
    .map_err(LoadClientError::CannotConnect)?;
    let auth = handle
        .authenticate_publickey(user, PrivateKeyWithHashAlg::new(Arc::new(key), None))
        .await
        .map_err(LoadClientError::CannotSignIn)?;
    if !auth.success() {
        return Err(LoadClientError::SignInRefused);
    }
    Ok(handle)
}

/// Whether `needle` occurs in `haystack`.
pub(super) fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    find(haystack, needle).is_some()
}

/// Where `needle` first occurs in `haystack`.
pub(super) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screen_s_tail_is_its_last_words_not_its_frames() {
        let screen = "┌ crowned · lobby ┐\n│ games  │\n│ there is no game K7QX │\n└──────┘└──┘\n\n ↑↓ choose; q leaves \n";
        assert_eq!(
            screen_tail(screen),
            "┌ crowned · lobby ┐ / │ games │ / │ there is no game K7QX │ / ↑↓ choose; q leaves"
        );
    }

    #[test]
    fn quantiles() {
        let ms = |n| Duration::from_millis(n);
        let values: Vec<Duration> = (1..=100).map(ms).collect();
        assert_eq!(quantile(&values, 0.5), ms(51));
        assert_eq!(quantile(&values, 0.99), ms(99));
        assert_eq!(quantile(&values, 1.0), ms(100));
        assert_eq!(quantile(&[], 0.5), Duration::ZERO);
    }
}
