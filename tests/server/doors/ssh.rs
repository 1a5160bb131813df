//! A real `crowned serve` for end-to-end tests: the binary serving on a loopback port chosen at run time, and
//! players driving it with a real SSH client library (russh), their screens read through a terminal emulator
//! (vt100).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use russh::client::{self, Handle};
use russh::keys::{Algorithm, HashAlg, PrivateKey, PrivateKeyWithHashAlg};
use russh::{ChannelMsg, client::Msg};
use tokio::time::{Instant, timeout};

/// How long anything may take before the test fails (the engine thinks for a second at most).
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The server, stopped (and its folder removed) when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
    pub fingerprint: String,
    pub home: PathBuf,
    /// The web door's port, when the server was started with `--web`.
    pub web: Option<u16>,
    /// The operator's listener's port (metrics and health), when the server was started with `--metrics`.
    pub metrics: Option<u16>,
}

/// A new, empty folder for a server named `name`: each server its own, even when two tests running at once name
/// theirs alike.
fn fresh_home(name: &str) -> PathBuf {
    static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let home =
        std::env::temp_dir().join(format!("crowned-serve-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    home
}

impl Server {
    pub fn start(name: &str) -> Server {
        Server::start_with(name, "[server]\nidle-timeout = 600\n")
    }

    /// A server whose settings file holds `settings`.
    pub fn start_with(name: &str, settings: &str) -> Server {
        let home = fresh_home(name);
        std::fs::create_dir_all(home.join("config")).expect("a config folder");
        std::fs::write(home.join("config/config.toml"), settings).expect("settings written");
        Server::start_in(home)
    }

    /// A server whose folder holds `files` (paths under it, with their text) besides the settings, started
    /// with the options `args` too.
    pub fn start_with_files(name: &str, files: &[(&str, &str)], args: &[&str]) -> Server {
        let home = fresh_home(name);
        std::fs::create_dir_all(home.join("config")).expect("a config folder");
        std::fs::write(
            home.join("config/config.toml"),
            "[server]\nidle-timeout = 600\n",
        )
        .expect("settings written");
        for (path, text) in files {
            let path = home.join(path);
            if let Some(folder) = path.parent() {
                std::fs::create_dir_all(folder).expect("a folder");
            }
            std::fs::write(&path, text).expect("a file written");
        }
        Server::start_in_with(home, args)
    }

    /// A server on the folder `home` as it is (its settings, host key and records).
    fn start_in(home: PathBuf) -> Server {
        Server::start_in_with(home, &[])
    }

    /// [`Server::start_in`] with more options.
    fn start_in_with(home: PathBuf, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crowned"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .env("CROWNED_HOME", &home)
            // Warnings only, unless a developer looking into a test asks for more
            // (CROWNED_TEST_SERVER_LOG=info).
            .env(
                "RUST_LOG",
                std::env::var("CROWNED_TEST_SERVER_LOG").unwrap_or("warn".into()),
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let Ports {
            first,
            ssh: port,
            web,
            metrics,
        } = read_all_ports(
            &mut stdout,
            args.contains(&"--web"),
            args.contains(&"--metrics"),
        );
        // The rest of what it prints is read (and dropped) as it comes, so that it never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
        let fingerprint = first
            .split("host key ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("no fingerprint in {first:?}"))
            .to_string();
        Server {
            child,
            port,
            fingerprint,
            home,
            web,
            metrics,
        }
    }

    /// Kills the server without warning (as a crash or a power cut would) and starts it again on the same
    /// folder; it listens on a new port.
    pub fn crash_and_restart(mut self) -> Server {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let home = std::mem::take(&mut self.home);
        // The folder is the new server's now: this one's drop must not remove it.
        std::mem::forget(self);
        Server::start_in(home)
    }

    /// Stops the server with SIGTERM (as a service manager would), waits for it to exit, and starts it again
    /// on the same folder; it listens on a new port.
    pub fn stop_and_restart(self) -> Server {
        self.stop_and_restart_after(|_| {})
    }

    /// [`Server::stop_and_restart`], with `between` done to the server's folder while it is stopped (as an
    /// operator restoring a backup would).
    pub fn stop_and_restart_after(mut self, between: impl FnOnce(&Path)) -> Server {
        // SAFETY: kill with a child's own pid only sends it a signal.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let status = self.child.wait().expect("the server exits");
        assert!(status.success(), "the server stopped with {status}");
        let home = std::mem::take(&mut self.home);
        std::mem::forget(self);
        between(&home);
        Server::start_in(home)
    }

    pub fn player_dirs(&self) -> Vec<PathBuf> {
        std::fs::read_dir(self.home.join("data/server/players"))
            .map(|dir| dir.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default()
    }

    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Waits up to `within` for the server to stop by itself: how it exited, or `None` if it is still running.
    pub async fn stopped_within(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + within;
        loop {
            if let Ok(Some(exit)) = self.child.try_wait() {
                return Some(exit);
            }
            if Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

/// What a starting server prints on `stdout`: its first line ("crowned serve: listening on 127.0.0.1:PORT; host
/// key SHA256:... (new) in ..."), the SSH port in it, and, when `web`, the web door's port from the line that
/// says where it is open ("crowned serve: the web door is open at http://...").
pub fn read_ports(stdout: &mut impl BufRead, web: bool) -> (String, u16, Option<u16>) {
    let ports = read_all_ports(stdout, web, false);
    (ports.first, ports.ssh, ports.web)
}

/// Where a starting server listens, as it says on `stdout`.
pub struct Ports {
    /// Its first line.
    pub first: String,
    /// The SSH door's port.
    pub ssh: u16,
    /// The web door's, when asked for.
    pub web: Option<u16>,
    /// The operator's listener's (metrics and health), when asked for.
    pub metrics: Option<u16>,
}

/// [`read_ports`], and the operator's listener's port too when `metrics` ("crowned serve: metrics at
/// http://...").
pub fn read_all_ports(stdout: &mut impl BufRead, web: bool, metrics: bool) -> Ports {
    let mut first = String::new();
    stdout
        .read_line(&mut first)
        .expect("the server says where it listens");
    assert!(
        !first.is_empty(),
        "the server ended before saying where it listens (what it said is above)"
    );
    let port = first
        .split("listening on ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|address| address.rsplit(':').next())
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no port in {first:?}"));
    let port_after = |line: &str, marker: &str| -> Option<u16> {
        let address = line.split(marker).nth(1)?;
        let address = address.split_whitespace().next()?.trim_end_matches('/');
        let address = address.strip_suffix("/metrics").unwrap_or(address);
        Some(
            address
                .rsplit(':')
                .next()
                .and_then(|p| p.parse().ok())
                .unwrap_or_else(|| panic!("no port in {line:?}")),
        )
    };
    let (mut web_port, mut metrics_port) = (None, None);
    while (web && web_port.is_none()) || (metrics && metrics_port.is_none()) {
        let mut line = String::new();
        let read = stdout
            .read_line(&mut line)
            .expect("the server says where its listeners are");
        assert!(read > 0, "the server ended without saying where it listens");
        web_port = web_port.or(port_after(&line, "web door is open at "));
        metrics_port = metrics_port.or(port_after(&line, "metrics at "));
    }
    Ports {
        first,
        ssh: port,
        web: web_port,
        metrics: metrics_port,
    }
}

/// Ann and Bob, each with a key of their own, seated at the table Ann opens with `command` (`new english 5+3
/// black`): Bob has joined and sees her. Their connections are held open with their terminals.
pub struct TwoAtATable {
    /// Ann's key and Bob's.
    pub keys: [Arc<PrivateKey>; 2],
    /// Their connections.
    pub handles: [Handle<KnownHost>; 2],
    /// Ann's terminal at the table.
    pub a: Terminal,
    /// Bob's.
    pub b: Terminal,
    /// The table's code.
    pub code: String,
}

impl TwoAtATable {
    /// Seats them at `server`.
    pub async fn seat(server: &Server, command: &str) -> TwoAtATable {
        let keys = [new_key(), new_key()];
        let ann = connect(server, &keys[0], "ann").await;
        let bob = connect(server, &keys[1], "bob").await;
        let mut a = Terminal::exec(&ann, 100, 30, command).await;
        a.wait_for("waiting for an opponent").await;
        let code = code_on(&a.contents());
        let mut b = Terminal::exec(&bob, 100, 30, &format!("join {code}")).await;
        b.wait_for("ann").await;
        // Ann's screen too: a move she typed before her session heard of Bob would be refused (the game has not
        // begun), and a test that moves at once would wait for it in vain.
        a.wait_for("bob").await;
        TwoAtATable {
            keys,
            handles: [ann, bob],
            a,
            b,
            code,
        }
    }
}

/// Ann and Bob at `server` with one game finished (Black resigned after `11-15`) and a second in play, `9-13`
/// played in it: what a backup taken now must hold.
pub struct OneFinishedOneInPlay {
    /// Ann's key and Bob's.
    pub keys: [Arc<PrivateKey>; 2],
    /// The second game's code.
    pub second: String,
    /// Their connections and terminals, kept open while the backup is taken.
    pub held: (Vec<Handle<KnownHost>>, Vec<Terminal>),
}

impl OneFinishedOneInPlay {
    /// Plays the first game to its end and the second's first move at `server`.
    pub async fn play(server: &Server) -> OneFinishedOneInPlay {
        let TwoAtATable {
            keys,
            handles: [ann, bob],
            mut a,
            mut b,
            ..
        } = TwoAtATable::seat(server, "new english 5+3 black").await;
        a.send(b"11-15\r").await;
        b.wait_for("11-15").await;
        a.send(b":resign\r").await;
        a.send(b"y").await;
        a.wait_for("Black resigned").await;
        let ann_again = connect(server, &keys[0], "ann").await;
        let bob_again = connect(server, &keys[1], "bob").await;
        let mut a2 = Terminal::exec(&ann_again, 100, 30, "new english 5+3 black").await;
        a2.wait_for("waiting for an opponent").await;
        let second = code_on(&a2.contents());
        let mut b2 = Terminal::exec(&bob_again, 100, 30, &format!("join {second}")).await;
        b2.wait_for("ann").await;
        a2.wait_for("bob").await;
        a2.send(b"9-13\r").await;
        b2.wait_for("9-13").await;
        OneFinishedOneInPlay {
            keys,
            second,
            held: (vec![ann, bob, ann_again, bob_again], vec![a, b, a2, b2]),
        }
    }
}

/// Trusts the server only if its key is the one it printed.
pub struct KnownHost(pub String);

impl client::Handler for KnownHost {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        let russh::keys::PublicKeyOrCertificate::PublicKey { key, .. } = key else {
            return Ok(false);
        };
        Ok(key.fingerprint(HashAlg::Sha256).to_string() == self.0)
    }
}

pub fn new_key() -> Arc<PrivateKey> {
    Arc::new(PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).expect("a key"))
}

pub async fn connect(server: &Server, key: &Arc<PrivateKey>, user: &str) -> Handle<KnownHost> {
    connect_with(server, key, user, client::Config::default()).await
}

/// [`connect`] with the client's own settings (its window, its buffers).
pub async fn connect_with(
    server: &Server,
    key: &Arc<PrivateKey>,
    user: &str,
    config: client::Config,
) -> Handle<KnownHost> {
    let config = Arc::new(config);
    let mut handle = client::connect(
        config,
        ("127.0.0.1", server.port),
        KnownHost(server.fingerprint.clone()),
    )
    .await
    .expect("connects, and the host key is the one printed");
    let auth = handle
        .authenticate_publickey(user, PrivateKeyWithHashAlg::new(Arc::clone(key), None))
        .await
        .expect("authenticates");
    assert!(auth.success());
    handle
}

/// A player's terminal: the channel and what it shows.
pub struct Terminal {
    pub channel: russh::Channel<Msg>,
    pub screen: vt100::Parser,
    pub closed: bool,
    pub exit_status: Option<u32>,
    /// Bytes the server sent on the channel.
    pub received: usize,
}

impl Terminal {
    pub async fn open(handle: &Handle<KnownHost>, cols: u16, rows: u16) -> Terminal {
        Terminal::open_with(handle, cols, rows, &[]).await
    }

    /// A terminal that sends these environment variables first.
    pub async fn open_with(
        handle: &Handle<KnownHost>,
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> Terminal {
        Terminal::start(handle, (cols, rows), env, None).await
    }

    /// A terminal that runs `command` (`join K7QX`) instead of a shell, with a pty as `ssh -t` asks.
    pub async fn exec(handle: &Handle<KnownHost>, cols: u16, rows: u16, command: &str) -> Terminal {
        Terminal::start(handle, (cols, rows), &[], Some(command)).await
    }

    /// A session channel with a pty of `cols` x `rows`, the environment `env`, and a shell or `command`.
    async fn start(
        handle: &Handle<KnownHost>,
        (cols, rows): (u16, u16),
        env: &[(&str, &str)],
        command: Option<&str>,
    ) -> Terminal {
        let channel = handle.channel_open_session().await.expect("a session");
        for (name, value) in env {
            channel.set_env(true, *name, *value).await.expect("sent");
        }
        channel
            .request_pty(
                true,
                "xterm-256color",
                u32::from(cols),
                u32::from(rows),
                0,
                0,
                &[],
            )
            .await
            .expect("a pty");
        match command {
            Some(command) => channel.exec(true, command).await.expect("a command"),
            None => channel.request_shell(true).await.expect("a shell"),
        }
        Terminal {
            channel,
            screen: vt100::Parser::new(nz(rows), nz(cols), 0),
            closed: false,
            exit_status: None,
            received: 0,
        }
    }

    /// A terminal at a game against the engine: a shell, the lobby, and `e`.
    pub async fn to_engine(handle: &Handle<KnownHost>, cols: u16, rows: u16) -> Terminal {
        Terminal::to_engine_with(handle, cols, rows, &[]).await
    }

    /// [`Terminal::to_engine`] sending these environment variables first.
    pub async fn to_engine_with(
        handle: &Handle<KnownHost>,
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> Terminal {
        let mut terminal = Terminal::open_with(handle, cols, rows, env).await;
        terminal.wait_for("lobby").await;
        terminal.send(b"e").await;
        terminal.wait_for("Moves").await;
        terminal
    }

    pub fn contents(&self) -> String {
        self.screen.screen().contents()
    }

    /// Reads what comes until `done` holds of the screen; fails the test after [`PATIENCE`].
    pub async fn until(&mut self, what: &str, done: impl Fn(&Terminal) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            match timeout(left, self.channel.wait()).await {
                Ok(Some(ChannelMsg::Data { data })) => {
                    self.received += data.len();
                    self.screen.process(&data);
                }
                Ok(Some(ChannelMsg::ExitStatus { exit_status })) => {
                    self.exit_status = Some(exit_status)
                }
                Ok(Some(ChannelMsg::Eof | ChannelMsg::Close)) | Ok(None) => {
                    self.closed = true;
                    if !done(self) {
                        panic!("the channel closed before {what}:\n{}", self.contents());
                    }
                }
                Ok(Some(_)) => {}
                Err(_) => panic!("no {what} after {PATIENCE:?}:\n{}", self.contents()),
            }
        }
    }

    pub async fn wait_for(&mut self, text: &str) {
        self.until(text, |t| t.contents().contains(text)).await;
    }

    /// Takes in what has come already, without waiting: a russh client whose channel is left unread stops
    /// sending too once its buffer is full.
    pub async fn drain(&mut self) {
        while let Ok(Some(message)) = timeout(Duration::ZERO, self.channel.wait()).await {
            match message {
                ChannelMsg::Data { data } => {
                    self.received += data.len();
                    self.screen.process(&data);
                }
                ChannelMsg::ExitStatus { exit_status } => self.exit_status = Some(exit_status),
                ChannelMsg::Eof | ChannelMsg::Close => self.closed = true,
                _ => {}
            }
        }
    }

    pub async fn send(&self, bytes: &[u8]) {
        self.channel.data_bytes(bytes.to_vec()).await.expect("sent");
    }

    pub async fn resize(&mut self, cols: u16, rows: u16) {
        self.channel
            .window_change(u32::from(cols), u32::from(rows), 0, 0)
            .await
            .expect("resized");
        self.screen.screen_mut().set_size(nz(rows), nz(cols));
    }

    pub async fn wait_closed(&mut self) {
        self.until("the channel's end", |t| t.closed).await;
    }
}

/// The code on a screen at a table: the move pane's title says `table K7QX`.
pub fn code_on(screen: &str) -> String {
    screen
        .split("table ")
        .nth(1)
        .map(|rest| rest.chars().take(4).collect())
        .unwrap_or_else(|| panic!("no code on the screen:\n{screen}"))
}

pub fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("a size above zero")
}

pub fn has_file(dir: &Path, name: &str) -> bool {
    dir.join(name).exists()
}

/// Everything a channel says until it closes, and its exit status.
pub async fn read_all(channel: &mut russh::Channel<Msg>) -> (String, Option<u32>) {
    let (out, _, status) = read_both(channel).await;
    (out, status)
}

/// Reads a channel to its end: what it printed on its output and on its error output, and its exit status.
pub async fn read_both(channel: &mut russh::Channel<Msg>) -> (String, String, Option<u32>) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut status = None;
    loop {
        match timeout(PATIENCE, channel.wait())
            .await
            .expect("the channel ends")
        {
            Some(ChannelMsg::Data { data }) => out.extend_from_slice(&data),
            Some(ChannelMsg::ExtendedData { data, .. }) => err.extend_from_slice(&data),
            Some(ChannelMsg::ExitStatus { exit_status }) => status = Some(exit_status),
            Some(ChannelMsg::Close) | None => break,
            Some(_) => {}
        }
    }
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    (text(out), text(err), status)
}

/// A small random number generator, so that the game played is the same every run.
pub struct Dice(pub u64);

impl Dice {
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// What every screen at a table says once `game` stands as it does: its end, or whose move it is.
pub fn shown_after(game: &crowned::game::AnyGame) -> String {
    match game.outcome() {
        Some(outcome) => outcome.to_string(),
        None => format!(
            "move {}, {} to play",
            game.next_move_number().number,
            game.position().side_to_move()
        ),
    }
}

/// What the status line says when it is `game`'s side to move and it is this player's turn.
pub fn your_move(game: &crowned::game::AnyGame) -> String {
    format!(
        "move {}, {} to play: your move",
        game.next_move_number().number,
        game.position().side_to_move()
    )
}

/// Plays `plies` random legal moves (or to the end), each typed by the player to move once their screen says it
/// is their turn; the game as played.
pub async fn play_moves(
    black: &mut Terminal,
    white: &mut Terminal,
    game: &mut crowned::game::AnyGame,
    plies: usize,
    dice: &mut Dice,
) {
    for _ in 0..plies {
        if game.outcome().is_some() {
            return;
        }
        let position = game.position();
        let moves = position.legal_moves();
        let mv = moves[dice.below(moves.len())];
        let text = position.write_move(&mv, game.variant().notation());
        let mover = match position.side_to_move() {
            crowned::rules::Color::Black => &mut *black,
            crowned::rules::Color::White => &mut *white,
        };
        mover.wait_for(&your_move(game)).await;
        mover.send(format!("{text}\r").as_bytes()).await;
        game.play(&mv).expect("a legal move");
        // The mover's screen shows the move at once (or the end it brought).
        mover.wait_for(&shown_after(game)).await;
    }
}

/// Runs `command` without a terminal on a connection of its own with `key` as `user`: what it printed on its
/// output and on its error output, and its exit status.
pub async fn exec_as(
    server: &Server,
    key: &Arc<PrivateKey>,
    user: &str,
    command: &str,
) -> (String, String, Option<u32>) {
    let handle = connect(server, key, user).await;
    let mut channel = handle.channel_open_session().await.expect("a session");
    channel.exec(true, command).await.expect("asked");
    read_both(&mut channel).await
}

/// The stock OpenSSH client, set to sign in to `server` with `key` as `user` (its key file written into the
/// server's folder as `key-FILE`, private to its owner, as ssh insists), asking for a terminal and trusting the
/// host; the caller adds the command (if any), its input and output.
pub fn openssh(server: &Server, key: &PrivateKey, user: &str, file: &str) -> Command {
    use std::os::unix::fs::PermissionsExt;
    let path = server.home.join(format!("key-{file}"));
    let text = key
        .to_openssh(russh::keys::ssh_key::LineEnding::LF)
        .expect("an OpenSSH key");
    std::fs::write(&path, text.as_bytes()).expect("written");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("private");
    let mut command = Command::new("ssh");
    command
        .args(["-tt", "-p", &server.port.to_string(), "-i"])
        .arg(&path)
        .args([
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "BatchMode=yes",
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "LogLevel=ERROR",
            "-l",
            user,
            "127.0.0.1",
        ]);
    command
}
