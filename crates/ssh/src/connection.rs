//! One SSH connection: who it is, what it may ask for, and the game it plays.
//!
//! A connection signs in with a public key (or, when the server allows guests, without one), asks for a
//! session channel with a pty and a shell, and gets the game; the one command it may run instead is `games`.
//! Everything else a client may ask for (another command, a subsystem such as sftp, port, agent or X11
//! forwarding, a second session channel while one is open) is refused.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use russh::keys::PublicKey;
use russh::server::{Auth, Msg, Session as SshSession};
use russh::{Channel, ChannelId, MethodKind, MethodSet, Pty};
use tokio::sync::mpsc;

use crate::SshError;
use crate::serve::door::{
    ConnectedPlayer, GameEnd, InputBudget, Shared, Start, ToGame, clamp_size, farewell_bytes,
    serve_player, supervise,
};
use crate::serve::records::conduct::BanTarget;
use crate::serve::text::clean_line;
use crate::serve::{Admission, ConnectionRefusal, Identity};
use crate::serve::{metrics, seating};
use crate::session::SessionEnd;
use crate::ssh_screen::SshScreen;

mod commands;
mod events;

/// How many messages from the client may wait for its game before reading from the connection pauses (the
/// client then waits, not the server's memory).
const INPUT_QUEUE: usize = 64;

/// What a client without a key is told.
const NO_KEY: &str = "crowned: this server knows players by their SSH key. Make one with `ssh-keygen -t ed25519` \
                      (press Enter at every question) and connect again.\r\n";

/// What a player whose game failed is told (after their terminal is given back).
const CRASHED: &str = "\r\ncrowned: this game stopped on an internal error; every move is saved, and connecting \
                       again offers to resume it.\r\n";

/// What a guest is told.
const GUEST: &str = "crowned: no SSH key offered, so you play as a guest and your games are not kept. \
                     `ssh-keygen -t ed25519` makes a key.\r\n";

/// One connection's state, as russh calls it.
pub struct Connection {
    shared: Arc<Shared>,
    peer: SocketAddr,
    /// The server's address as the client reached it, when known.
    reached: Option<SocketAddr>,
    /// Holds this connection's place in the limits while it lives: a stranger's until it signs in.
    admission: Admission,
    /// Why a client that signed in may not play (the line it is given): the players' places are full, or its
    /// key or address is banned.
    turned_away: Option<String>,
    started: Instant,
    identity: Option<Identity>,
    /// Whether a client without a key has been told how to make one (once is enough).
    explained: bool,
    /// The one session channel, once opened.
    channel: Option<ChannelId>,
    /// The pty asked for: its size.
    pty: Option<(u16, u16)>,
    /// Whether the player's terminal wants no colour: `TERM=dumb`, or `NO_COLOR` sent with `SetEnv`.
    no_color: bool,
    /// The running game's input, once it has started.
    game: Option<mpsc::Sender<ToGame>>,
    /// How fast the client may type.
    budget: InputBudget,
}

impl Connection {
    /// A new connection from `peer` to the server's address `reached`, holding `admission`.
    pub fn new(
        shared: Arc<Shared>,
        peer: SocketAddr,
        reached: Option<SocketAddr>,
        admission: Admission,
    ) -> Connection {
        Connection {
            shared,
            peer,
            reached,
            admission,
            turned_away: None,
            started: Instant::now(),
            identity: None,
            explained: false,
            channel: None,
            pty: None,
            no_color: false,
            game: None,
            budget: InputBudget::default(),
        }
    }

    /// `identity` has signed in: the connection takes a player's place, or is told on its channel that there is
    /// none (and stays a stranger, cut off at its deadline).
    fn signed_in(&mut self, identity: Identity) {
        let key = (!identity.is_guest()).then(|| identity.fingerprint.clone());
        if let Err(refusal) = self.admission.sign_in(key) {
            metrics::refused(metrics::Door::Ssh, metrics::Refused::Limits(refusal));
            tracing::warn!(peer = %self.peer, ?refusal, "signed in, but no player's place is free");
            self.turned_away = Some(turned_away(refusal).to_string());
        }
        self.identity = Some(identity);
    }

    /// Whether `identity`'s key (a guest has none) or this connection's address is banned: if so the client is
    /// let through the handshake only to be given the ban's reason on its channel, and stays a stranger (cut off
    /// at the sign-in deadline, holding no player's place). Read from the records at each sign-in, so a ban made
    /// on any node holds on every node at once; records out of reach let the client in (logged).
    async fn banned(&mut self, identity: &Identity) -> bool {
        let key = (!identity.is_guest()).then(|| identity.fingerprint.clone());
        let address = self.peer.ip();
        let ban = self
            .shared
            .read_records(move |records| records.ban_on(key.as_ref(), address))
            .await
            .flatten();
        let Some(ban) = ban else {
            return false;
        };
        tracing::info!(peer = %self.peer, player = %identity.fingerprint, target = %ban.target, "banned: turned away");
        metrics::refused(metrics::Door::Ssh, metrics::Refused::Banned);
        let whose = match ban.target {
            BanTarget::Key(_) => "this key is",
            BanTarget::Address(_) => "connections from your address are",
        };
        self.turned_away = Some(format!(
            "crowned: {whose} banned from this server: {}\r\n",
            clean_line(&ban.reason, 200)
        ));
        self.identity = Some(identity.clone());
        true
    }

    fn who(&self) -> String {
        match &self.identity {
            Some(identity) => format!("{} ({})", identity.fingerprint, identity.name),
            None => "unauthenticated".to_string(),
        }
    }

    /// Starts the player on `channel`: back at their seat in a game against a person if they have one, else
    /// in the lobby.
    async fn start_game(&mut self, channel: ChannelId, size: (u16, u16), session: &mut SshSession) {
        let Some(identity) = self.identity.clone() else {
            return;
        };
        let start = match seating::rejoin(&self.shared, &identity).await {
            Some(Ok(seated)) => Start::Table(Box::new(seated)),
            Some(Err(why)) => {
                tracing::warn!(player = %identity.fingerprint, %why, "cannot rejoin");
                Start::Lobby
            }
            None => Start::Lobby,
        };
        self.spawn_player(channel, size, session, start);
    }

    /// Serves the player on `channel` from `start` in a task of its own, reading the channel's input.
    fn spawn_player(
        &mut self,
        channel: ChannelId,
        size: (u16, u16),
        session: &mut SshSession,
        start: Start,
    ) {
        let Some(identity) = self.identity.clone() else {
            return;
        };
        let (input, input_rx) = mpsc::channel(INPUT_QUEUE);
        let handle = session.handle();
        let screen = SshScreen {
            handle: handle.clone(),
            channel,
            cut: self.admission.cut(),
            stall: self.shared.config().client_stall,
        }
        .open();
        let player = ConnectedPlayer {
            shared: Arc::clone(&self.shared),
            identity,
            no_color: self.no_color,
            reached_by: self.reached.map(ssh_command),
            address: self.peer.ip(),
            spectator: false,
        };
        let peer = self.peer;
        let who = self.who();
        tokio::spawn(supervise(
            metrics::counted(
                metrics::Door::Ssh,
                serve_player(player, screen, input_rx, size, start),
            ),
            move |outcome| async move {
                match outcome {
                    Ok(ending) => {
                        tracing::info!(peer = %peer, player = %who, ending = describe(ending), "game ended");
                    }
                    Err(why) => {
                        tracing::error!(peer = %peer, player = %who, %why, "a game failed");
                        // Its moves were saved as they were played; the player is told and may connect again.
                        let _ = handle.data(channel, farewell_bytes(CRASHED)).await;
                        let _ = handle.exit_status_request(channel, 1).await;
                        let _ = handle.close(channel).await;
                    }
                }
            },
        ));
        self.game = Some(input);
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        tracing::info!(
            peer = %self.peer,
            player = %self.who(),
            seconds = self.started.elapsed().as_secs_f64(),
            "connection closed"
        );
    }
}

impl russh::server::Handler for Connection {
    type Error = SshError;

    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        Ok(key_or_explanation())
    }

    async fn auth_password(&mut self, _user: &str, _password: &str) -> Result<Auth, Self::Error> {
        Ok(key_or_explanation())
    }

    /// A client that has no key (or no key it will offer) comes here last: it is shown how to make one, then
    /// refused, or let in as a guest when the server takes guests.
    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        response: Option<russh::server::Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        if self.shared.config().guests {
            return Ok(match response {
                None => Auth::Partial {
                    name: "crowned".into(),
                    instructions: GUEST.into(),
                    prompts: Vec::new().into(),
                },
                Some(_) => {
                    let identity = Identity::guest(user);
                    tracing::info!(peer = %self.peer, name = %identity.name, "guest signed in");
                    if !self.banned(&identity).await {
                        self.signed_in(identity);
                    }
                    Auth::Accept
                }
            });
        }
        Ok(match response {
            None if !self.explained => Auth::Partial {
                name: "crowned".into(),
                instructions: NO_KEY.into(),
                prompts: Vec::new().into(),
            },
            _ => {
                self.explained = true;
                Auth::Reject {
                    proceed_with_methods: Some(MethodSet::from(&[MethodKind::PublicKey][..])),
                    partial_success: false,
                }
            }
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: russh::server::VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let key: &PublicKey = key.public_key;
        let identity = crate::identity_of(key, user);
        if let Some(authorized) = &self.shared.config().authorized
            && !authorized.contains(identity.fingerprint.as_str())
        {
            tracing::info!(peer = %self.peer, player = %identity.fingerprint, "key not authorized");
            return Ok(Auth::Reject {
                proceed_with_methods: None,
                partial_success: false,
            });
        }
        if self.banned(&identity).await {
            return Ok(Auth::Accept);
        }
        tracing::info!(peer = %self.peer, player = %identity.fingerprint, name = %identity.name, "signed in");
        self.shared.note_seen(&identity);
        self.signed_in(identity);
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        if self.channel.is_some() {
            reply
                .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
                .await;
            return Ok(());
        }
        self.channel = Some(channel.id());
        reply.accept().await;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        width: u32,
        height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        if self.channel != Some(channel) || self.game.is_some() {
            session.channel_failure(channel)?;
            return Ok(());
        }
        self.pty = Some(clamp_size(width, height));
        self.no_color |= term == "dumb";
        session.channel_success(channel)?;
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        if self.channel != Some(channel) || self.game.is_some() {
            session.channel_failure(channel)?;
            return Ok(());
        }
        if let Some(why) = &self.turned_away {
            self.channel = None;
            return refuse(channel, session, why);
        }
        let Some(size) = self.pty else {
            self.channel = None;
            refuse(channel, session, &self.no_terminal(None))?;
            return Ok(());
        };
        session.channel_success(channel)?;
        self.start_game(channel, size, session).await;
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)?;
        if let Some(why) = &self.turned_away {
            if self.channel == Some(channel) {
                self.channel = None;
            }
            return refuse(channel, session, why);
        }
        let command = String::from_utf8_lossy(data);
        if let Some(ask) = seating::read_ask(&command, &self.shared.config().variants) {
            return self.exec_table(channel, session, &command, ask).await;
        }
        // `tournament CODE` in a terminal enters an event that has not finished.
        if let Some(Ok(events::Ask::Table(code))) = events::read_ask(&command)
            && self.channel == Some(channel)
            && self.game.is_none()
            && let (Some(identity), Some(size)) = (self.identity.clone(), self.pty)
            && let Some(entered) =
                crate::serve::at_event::enter(&self.shared, &identity, &code).await
        {
            self.spawn_player(channel, size, session, Start::Event(Box::new(entered)));
            return Ok(());
        }
        // `tournament new ...` in a terminal creates the event and enters its creator, as the lobby's form does
        // (without a terminal the code is printed, with the command that enters it).
        if let Some(Ok(events::Ask::New(words))) = events::read_ask(&command)
            && self.channel == Some(channel)
            && self.game.is_none()
            && let (Some(identity), Some(size)) = (self.identity.clone(), self.pty)
            && !identity.is_guest()
        {
            let entered = crate::serve::at_event::create_and_enter(
                &self.shared,
                &identity,
                Some(self.peer.ip()),
                &words,
            )
            .await;
            return match entered {
                Ok(entered) => {
                    self.spawn_player(channel, size, session, Start::Event(Box::new(entered)));
                    Ok(())
                }
                Err(why) => {
                    self.channel = None;
                    refuse(channel, session, &format!("crowned: {why}\r\n"))
                }
            };
        }
        // Any other command ends with its channel: the connection may open another.
        if self.channel == Some(channel) && self.game.is_none() {
            self.channel = None;
        }
        if let Some(ask) = events::read_ask(&command) {
            self.send_event(ask, channel, session);
            return Ok(());
        }
        match (command.trim(), &self.identity) {
            ("games", Some(identity)) if !identity.is_guest() => {
                self.send_games(identity.clone(), channel, session);
                Ok(())
            }
            ("games", _) => refuse(
                channel,
                session,
                "crowned: a guest has no games kept; connect with an SSH key to keep yours.\r\n",
            ),
            (line, identity)
                if line
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| w == "link" || w == "links") =>
            {
                let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
                match identity.as_ref().filter(|i| !i.is_guest()) {
                    Some(identity) if word == "link" => {
                        self.send_link(identity.clone(), rest, channel, session)
                    }
                    Some(identity) => self.send_links(identity.clone(), rest, channel, session),
                    None => {
                        return refuse(
                            channel,
                            session,
                            "crowned: a browser is linked to an SSH key: connect with yours to link it.\r\n",
                        );
                    }
                }
                Ok(())
            }
            (line, Some(identity))
                if !identity.is_guest() && (line == "blocks" || line.starts_with("unblock ")) =>
            {
                let name = line.strip_prefix("unblock ").map(str::trim);
                self.send_blocks(identity.clone(), name.map(str::to_string), channel, session);
                Ok(())
            }
            _ => refuse(
                channel,
                session,
                &format!("crowned: {}.\r\n", seating::USAGE),
            ),
        }
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        _name: &str,
        session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)?;
        if self.channel == Some(channel) && self.game.is_none() {
            self.channel = None;
            session.close(channel)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _protocol: &str,
        _cookie: &str,
        _screen: u32,
        session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)?;
        Ok(())
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        value: &str,
        session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        // NO_COLOR (no-color.org: set and not empty) is the one variable the game listens to; nothing else a
        // client sets changes anything.
        if name == "NO_COLOR" && self.channel == Some(channel) && self.game.is_none() {
            self.no_color = !value.is_empty();
            session.channel_success(channel)?;
        } else {
            session.channel_failure(channel)?;
        }
        Ok(())
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        _session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        if self.channel == Some(channel)
            && let Some(game) = &self.game
        {
            // A client typing past its budget is not read until the budget allows: it waits, nobody else does.
            if let Some(wait) = self.budget.spend(data.len(), tokio::time::Instant::now()) {
                tokio::time::sleep(wait).await;
            }
            // Waiting here when the game is behind holds back reading from the client, not memory.
            let _ = game.send(ToGame::Bytes(data.to_vec())).await;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        width: u32,
        height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        let (width, height) = clamp_size(width, height);
        if self.channel != Some(channel) {
            return Ok(());
        }
        match &self.game {
            Some(game) => {
                let _ = game.send(ToGame::Resize(width, height)).await;
            }
            None => self.pty = Some((width, height)),
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        _session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        self.close_game(channel).await;
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _session: &mut SshSession,
    ) -> Result<(), Self::Error> {
        self.close_game(channel).await;
        Ok(())
    }
}

impl Connection {
    /// The session channel closed: its game ends, and the connection may open another.
    async fn close_game(&mut self, channel: ChannelId) {
        if self.channel != Some(channel) {
            return;
        }
        if let Some(game) = self.game.take() {
            let _ = game.send(ToGame::Closed).await;
        }
        self.channel = None;
        self.pty = None;
    }
}

/// Tells the client `why` on its channel and closes it with a failing exit status.
pub(super) fn refuse(
    channel: ChannelId,
    session: &mut SshSession,
    why: &str,
) -> Result<(), SshError> {
    session.data(channel, why.as_bytes().to_vec())?;
    session.exit_status_request(channel, 1)?;
    session.eof(channel)?;
    session.close(channel)?;
    Ok(())
}

impl Connection {
    /// What a client that asked for no terminal is told: the command that gets one, with `command` (`join K7QX`)
    /// when it ran one.
    fn no_terminal(&self, command: Option<&str>) -> String {
        let ssh = self
            .reached
            .map_or_else(|| "ssh -t -p PORT HOST".to_string(), ssh_command);
        let command = command.map(|c| clean_line(c, 40));
        match command.as_deref() {
            Some(command) => format!(
                "crowned: `{command}` needs a terminal; ask ssh for one with -t: `{ssh} {command}`.\r\n"
            ),
            None => format!("crowned: the game needs a terminal; connect with `{ssh}`.\r\n"),
        }
    }
}

/// The command that reaches the server at `address` with a terminal: `ssh -t -p 2222 192.0.2.7` (no `-p` for
/// SSH's own port).
pub(super) fn ssh_command(address: SocketAddr) -> String {
    let host = address.ip().to_canonical();
    match address.port() {
        22 => format!("ssh -t {host}"),
        port => format!("ssh -t -p {port} {host}"),
    }
}

/// What a client that signed in is told when there is no player's place for it.
fn turned_away(refusal: ConnectionRefusal) -> &'static str {
    match refusal {
        ConnectionRefusal::Full => {
            "crowned: the server is full: every player's place is taken. Try again in a few minutes.\r\n"
        }
        ConnectionRefusal::TooManyFromAddress => {
            "crowned: your address already holds as many games as one address may here; close one and connect \
             again.\r\n"
        }
    }
}

/// A refusal that leaves the client the two ways this server takes: a key, or being told how to make one.
fn key_or_explanation() -> Auth {
    Auth::Reject {
        proceed_with_methods: Some(MethodSet::from(
            &[MethodKind::PublicKey, MethodKind::KeyboardInteractive][..],
        )),
        partial_success: false,
    }
}

/// How a game ended, for the log.
fn describe(end: GameEnd) -> &'static str {
    match end {
        GameEnd::Session(SessionEnd::Quit) => "quit",
        GameEnd::Session(SessionEnd::Signal(_)) => "server shutdown",
        GameEnd::Session(SessionEnd::InputClosed) => "connection closed",
        GameEnd::Session(SessionEnd::EngineFailed) => "engine failed",
        GameEnd::Idle => "idle",
    }
}
