//! A browser's WebSocket: one player's connection, as an SSH channel is one. Binary messages carry what the
//! player types (the bytes a terminal sends), a text message the window's size (`{"cols":100,"rows":30}`); the
//! server sends the frames as binary messages.
//!
//! Reading and writing are two tasks, as for SSH: the game may wait to send a frame while the player's keys wait
//! to be read, and neither may hold up the other.

use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::mpsc;

use crowned_server::serve::codes::read_code;
use crowned_server::serve::door::{
    ConnectedPlayer, Cut, InputBudget, NotReady, Screen, Start, ToDoor, ToGame, clamp_size, rejoin,
    serve_player, supervise,
};
use crowned_server::serve::metrics::{self, Refused};
use crowned_server::serve::records::conduct::BanTarget;
use crowned_server::serve::text::clean_line;
use crowned_server::serve::{Admission, ConnectionRefusal, Fingerprint, Identity};

use super::{Caller, Conn, Door, link, plain};

/// The largest message a browser may send: a piece of a paste (the page sends at most 4 KiB at once) or a
/// window size. A bigger one ends the connection.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// How many messages from the browser may wait for its game before reading pauses.
const INPUT_QUEUE: usize = 64;

/// How often the server pings a browser; one that answers nothing (no pong, no key) for [`SILENCE`] is gone.
const PING_EVERY: Duration = Duration::from_secs(30);
/// See [`PING_EVERY`].
const SILENCE: Duration = Duration::from_secs(90);

/// What a page asks for as its socket opens.
#[derive(Debug, Default, Deserialize)]
pub struct PageRequest {
    /// A table to watch (`/watch/CODE`).
    watch: Option<String>,
    /// The TV (`/tv`).
    tv: Option<String>,
    /// The terminal's size as the page fitted it.
    cols: Option<u32>,
    /// See `cols`.
    rows: Option<u32>,
}

/// A window size from the page.
#[derive(Deserialize)]
struct Size {
    cols: u32,
    rows: u32,
}

/// `GET /ws`: the page's terminal connects.
pub async fn upgrade(
    State(door): State<Arc<Door>>,
    Extension(conn): Extension<Conn>,
    caller: Caller,
    Query(ask): Query<PageRequest>,
    headers: HeaderMap,
    socket: WebSocketUpgrade,
) -> Response {
    if let Err(why) = door.same_origin(&headers, &caller) {
        tracing::info!(peer = %caller.client, why, "WebSocket refused");
        metrics::refused(metrics::Door::Web, Refused::Origin);
        return plain(StatusCode::FORBIDDEN, why);
    }
    // A draining server takes no new session: the players it has play on, and it stops as the last leaves.
    if let Err(NotReady::Draining) = door.shared.readiness() {
        metrics::refused(metrics::Door::Web, Refused::Draining);
        return plain(
            StatusCode::SERVICE_UNAVAILABLE,
            "this server is being restarted: connect again in a moment",
        );
    }
    // A connection's own place; through a proxy, the client's own, taken now.
    let admission = match conn.take_admission() {
        Some(admission) => Ok(admission),
        None => door.limits.admit(caller.client),
    };
    let identity = link::linked(&door, &headers).await;
    let reached_by = door.ssh_command(&headers, true);
    socket
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            let start = Opening {
                identity,
                ask,
                caller,
                reached_by,
            };
            match admission {
                Ok(admission) => session(door, socket, admission, start).await,
                Err(refusal) => refuse(socket, turned_away(refusal)).await,
            }
        })
}

/// What a socket opens with.
struct Opening {
    identity: Option<Identity>,
    ask: PageRequest,
    caller: Caller,
    reached_by: String,
}

/// Serves one browser's session from its socket's opening to its end.
async fn session(door: Arc<Door>, socket: WebSocket, mut admission: Admission, opening: Opening) {
    let Opening {
        identity,
        ask,
        caller,
        reached_by,
    } = opening;
    let watching = ask.watch.as_deref().map(read_code);
    if let Some(None) = watching {
        return refuse(socket, "crowned: that is not a table's code.").await;
    }
    let watching = watching.flatten();
    let tv = ask.tv.is_some();
    let guests = door.shared.config().guests;
    // A browser not linked is a guest; on a server without guests it may still watch, by link or the TV.
    let (identity, spectator) = match identity {
        Some(identity) => (identity, false),
        None if guests => (Identity::guest("guest"), false),
        None if watching.is_some() || tv => (Identity::guest("watcher"), true),
        None => {
            return refuse(
                socket,
                "crowned: this server lets in players with an SSH key only: link this browser to your key \
                 with the button above (\"Play as my SSH key\").",
            )
            .await;
        }
    };
    let key = (!identity.is_guest()).then(|| identity.fingerprint.clone());
    if let Err(refusal) = admission.sign_in(key.clone()) {
        metrics::refused(metrics::Door::Web, Refused::Limits(refusal));
        return refuse(socket, turned_away(refusal)).await;
    }
    if let Some(why) = banned(&door, key, caller.client).await {
        metrics::refused(metrics::Door::Web, Refused::Banned);
        return refuse(socket, &why).await;
    }
    tracing::info!(
        peer = %caller.client,
        player = %identity.fingerprint,
        name = %identity.name,
        "web session"
    );
    if !identity.is_guest() {
        door.shared.note_seen(&identity);
    }
    let start = match (watching, tv) {
        (Some(code), _) => Start::Watch(code),
        (None, true) => Start::Tv,
        (None, false) if identity.is_guest() => Start::Lobby,
        (None, false) => match rejoin(&door.shared, &identity).await {
            Some(Ok(seated)) => Start::Table(Box::new(seated)),
            Some(Err(why)) => {
                tracing::warn!(player = %identity.fingerprint, %why, "cannot rejoin");
                Start::Lobby
            }
            None => Start::Lobby,
        },
    };
    let size = clamp_size(ask.cols.unwrap_or(0), ask.rows.unwrap_or(0));
    let (sink, stream) = socket.split();
    let (screen, frames) = Screen::new();
    let cut = admission.cut();
    tokio::spawn(write(
        sink,
        frames,
        door.shared.config().client_stall,
        Arc::clone(&cut),
    ));
    let (input, input_rx) = mpsc::channel(INPUT_QUEUE);
    let player = ConnectedPlayer {
        shared: Arc::clone(&door.shared),
        identity: identity.clone(),
        no_color: false,
        reached_by: Some(reached_by),
        address: caller.client,
        spectator,
    };
    let peer = caller.client;
    let who = identity.fingerprint.clone();
    tokio::spawn(supervise(
        metrics::counted(
            metrics::Door::Web,
            serve_player(player, screen, input_rx, size, start),
        ),
        move |outcome| async move {
            match outcome {
                Ok(end) => tracing::info!(peer = %peer, player = %who, ?end, "web game ended"),
                Err(why) => tracing::error!(peer = %peer, player = %who, %why, "a web game failed"),
            }
        },
    ));
    read(stream, &input, &cut).await;
    let _ = input.send(ToGame::Closed).await;
    // The place is held until the browser has gone.
    drop(admission);
}

/// Reads the browser's messages into its game until it closes, goes silent, or breaks the rules.
async fn read(mut stream: SplitStream<WebSocket>, input: &mpsc::Sender<ToGame>, cut: &Cut) {
    let mut budget = InputBudget::default();
    loop {
        let message = match tokio::time::timeout(SILENCE, stream.next()).await {
            Ok(Some(Ok(message))) => message,
            Ok(Some(Err(e))) => {
                tracing::debug!(error = %e, "web socket ended with an error");
                return;
            }
            Ok(None) => return,
            Err(_) => {
                tracing::info!(
                    seconds = SILENCE.as_secs(),
                    "a browser said nothing: cut off"
                );
                cut.make();
                return;
            }
        };
        let to_game = match message {
            Message::Binary(bytes) => {
                // A browser typing past its budget is not read until the budget allows.
                if let Some(wait) = budget.spend(bytes.len(), tokio::time::Instant::now()) {
                    tokio::time::sleep(wait).await;
                }
                ToGame::Bytes(bytes.to_vec())
            }
            Message::Text(text) => match serde_json::from_str::<Size>(text.as_str()) {
                Ok(size) => {
                    let (width, height) = clamp_size(size.cols, size.rows);
                    ToGame::Resize(width, height)
                }
                Err(_) => continue,
            },
            Message::Close(_) => return,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if input.send(to_game).await.is_err() {
            return;
        }
    }
}

/// Writes the game's frames to the browser, each within `stall`, and pings it now and then.
async fn write(
    mut sink: SplitSink<WebSocket, Message>,
    mut frames: mpsc::Receiver<ToDoor>,
    stall: Duration,
    cut: Arc<Cut>,
) {
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        let message = tokio::select! {
            out = frames.recv() => match out {
                Some(ToDoor::Bytes(bytes)) => Message::Binary(bytes.into()),
                Some(ToDoor::Close(_)) | None => {
                    let _ = tokio::time::timeout(stall, sink.send(Message::Close(Some(CloseFrame {
                        code: 1000,
                        reason: "the session ended".into(),
                    }))))
                    .await;
                    return;
                }
            },
            _ = ping.tick() => Message::Ping(Vec::new().into()),
        };
        match tokio::time::timeout(stall, sink.send(message)).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return,
            Err(_) => {
                tracing::info!(
                    seconds = stall.as_secs(),
                    "the browser took no frame: connection cut off"
                );
                cut.make();
                return;
            }
        }
    }
}

/// Tells the browser `why` on its terminal and closes the socket.
async fn refuse(mut socket: WebSocket, why: &str) {
    let text = format!("{}\r\n", why.trim_end());
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        let _ = socket.send(Message::Binary(text.into_bytes().into())).await;
        let reason = clean_line(why.trim_start_matches("crowned: "), 100);
        let _ = socket
            .send(Message::Close(Some(CloseFrame {
                code: 1008,
                reason: reason.into(),
            })))
            .await;
    })
    .await;
}

/// What a browser turned away for want of a place is told.
fn turned_away(refusal: ConnectionRefusal) -> &'static str {
    match refusal {
        ConnectionRefusal::Full => {
            "crowned: the server is full: every player's place is taken. Try again in a few minutes."
        }
        ConnectionRefusal::TooManyFromAddress => {
            "crowned: your address already holds as many connections as one address may here; close one and \
             connect again."
        }
    }
}

/// Why this browser may not play, when its player's key or its address is banned (read from the records at
/// each connection, as over SSH; records out of reach let it in).
async fn banned(
    door: &Door,
    key: Option<Fingerprint>,
    address: std::net::IpAddr,
) -> Option<String> {
    let ban = door
        .shared
        .read_records(move |records| records.ban_on(key.as_ref(), address))
        .await
        .flatten()?;
    let whose = match ban.target {
        BanTarget::Key(_) => "this player is",
        BanTarget::Address(_) => "connections from your address are",
    };
    Some(format!(
        "crowned: {whose} banned from this server: {}",
        clean_line(&ban.reason, 200)
    ))
}
