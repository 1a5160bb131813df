//! The players of `crowned bench chaos`: pairs of real SSH clients playing random legal games on a server that
//! a nemesis kills (kill -9) and starts again or whose disk it makes refuse writes for a while, and that each
//! player now and then connects to a second time. A move the server says it could not save is one the table,
//! read again, must not have. Each
//! client reads its screen through a terminal emulator and keeps what it saw: a move counts as seen once the
//! opponent's screen shows the position after it. When the server dies, both players connect again (a plain
//! `ssh host`, which takes a player back to their game) and read where the table stands: the move that was on
//! its way may have been written or not, anything else must be as they saw it. What every game's players saw is
//! compared with the records afterwards, by the command. Loopback only: the caller gives the address of a server
//! it started itself.

use std::num::NonZeroU16;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use russh::keys::{Algorithm, PrivateKey};
use tokio::sync::watch;
use tokio::time::{Instant, sleep, timeout};

use super::chaos_waits::{SLOW, Wait};
use super::load::{Arrivals, KnownHost, LoadClientError, open_terminal, split_arrivals};
use super::load_tables::TableServer;
use crate::app::TAKEN_OVER;
use crate::game::AnyGame;
use crate::rules::{Color, GameType};

/// The players' terminals.
const SIZE: (NonZeroU16, NonZeroU16) = match (NonZeroU16::new(100), NonZeroU16::new(30)) {
    (Some(cols), Some(rows)) => (cols, rows),
    _ => panic!("a terminal has a size"),
};

/// What a screen says until the table's state has come.
const JOINING: &str = "joining the table";

/// What the mover's screen says when the server could not save a move (a full disk), or the table moved to
/// another node as it came.
const NOT_PLAYED: &str = "your move was not played";

/// What the mover's input box says while it keeps a move the server refused (a move typed while the game was
/// being found again, say).
const REFUSED: &str = "refused: type again";

/// How often a player waiting for the opponent's screen looks at their own for a refusal.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// How many times a player tries to open a table on a server that keeps dying before the game counts as failed.
const COMEBACKS: usize = 40;

/// How long a player tries to come back to a table (a node restarting, the database coming back, a take-over)
/// before the game counts as failed: counted in time, not tries, as a refusal may come at once or after the
/// server has waited for the game itself.
const COMEBACK_PATIENCE: Duration = Duration::from_secs(60);

/// Games one pair may fail to go on with before it stops (the server is then gone for good).
const FAILED_GAMES: usize = 20;

/// How long a pair waits after a game it could not go on with before it starts another.
const AFTER_A_FAILED_GAME: Duration = Duration::from_secs(2);

/// What the players do.
#[derive(Clone, Debug)]
pub struct ChaosConfig {
    /// Games at once (two players each).
    pub games: usize,
    /// Plies at most per game.
    pub plies: usize,
    /// A player's pause before each move (each waits a little more or less).
    pub think: Duration,
    /// How long any one answer may take.
    pub patience: Duration,
    /// Before one move in this many the player to move connects a second time (0: never).
    pub double_every: usize,
    /// The seed of the games' moves and of when players connect twice.
    pub seed: u64,
}

/// Where the server's nodes are now, one place each: `None` while a node is down (killed, not started again
/// yet). One node, or several nodes of one server on one database, any of which reaches every table.
pub type Whereabouts = watch::Receiver<Vec<Option<TableServer>>>;

/// What one game's players saw.
#[derive(Clone, Debug, Default)]
pub struct ChaosGame {
    /// The table's code.
    pub code: String,
    /// The moves the opponent's screen showed, in order, as written in the records' notation.
    pub seen: Vec<String>,
    /// The result both saw, when the game ended by its rules.
    pub result: Option<String>,
    /// Times a player took their seat from a second connection (the first told so each time).
    pub doubles: usize,
    /// Times the players came back after the server died.
    pub comebacks: usize,
    /// Moves the server refused because it could not save them (the table read again after each).
    pub refused: usize,
    /// What the players saw that cannot be: the table showing a game other than the one they saw.
    pub anomalies: Vec<String>,
    /// Whether the table went before its first move (its node died before the records had its start, as when
    /// the database was down as the second player sat): nothing was played in it, and the players, coming
    /// back, are at another table. The records must not hold its game (the command checks).
    pub vanished: bool,
    /// Why the game could not go on, when it could not (a failure of the load or of the machine).
    pub failed: Option<String>,
    /// Each move that took longer than [`SLOW`] to be settled (shown to the opponent, refused, or read from the
    /// table once the players came back for it): when it was sent, and how long it took. What a player waits
    /// through after a fault.
    pub waits: Vec<Wait>,
}

/// Plays `games` games at once, each pair of players starting another as soon as one ends (by the rules or at
/// `plies` moves), until `stop` is raised; what the players of each game saw.
pub async fn run_chaos_games(
    config: ChaosConfig,
    server: Whereabouts,
    stop: watch::Receiver<bool>,
) -> Vec<ChaosGame> {
    let mut tasks = Vec::with_capacity(config.games);
    for index in 0..config.games {
        let (config, server, stop) = (config.clone(), server.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            sleep(Duration::from_millis((index as u64 * 997) % 1000)).await;
            let mut players = match Players::new(config, index, server, stop) {
                Ok(players) => players,
                Err(e) => {
                    return vec![ChaosGame {
                        failed: Some(e.to_string()),
                        ..ChaosGame::default()
                    }];
                }
            };
            let mut played = Vec::new();
            let mut failures = 0;
            loop {
                players.play().await;
                let failed = players.log.failed.is_some();
                played.push(players.next_game());
                failures += usize::from(failed);
                // A game the load could not go on with (a table that could not be opened or read in the middle
                // of faults) is checked as far as it went; the pair starts another after a pause, so that the
                // nemesis keeps players to strike until its last fault, unless every try fails.
                if *players.stop.borrow() || failures >= FAILED_GAMES {
                    return played;
                }
                if failed {
                    sleep(AFTER_A_FAILED_GAME).await;
                }
            }
        }));
    }
    let mut games = Vec::with_capacity(tasks.len());
    for task in tasks {
        match task.await {
            Ok(played) => games.extend(played),
            Err(e) => games.push(ChaosGame {
                failed: Some(format!("a game's task failed: {e}")),
                ..ChaosGame::default()
            }),
        }
    }
    games
}

/// One client's terminal, its bytes fed to a terminal emulator.
struct Screen {
    _handle: russh::client::Handle<KnownHost>,
    writer: russh::ChannelWriteHalf<russh::client::Msg>,
    arrivals: Arrivals,
    terminal: vt100::Parser,
}

impl Screen {
    async fn open(
        server: &TableServer,
        patience: Duration,
        user: &str,
        key: &PrivateKey,
        command: Option<&str>,
    ) -> Result<Screen, LoadClientError> {
        let (handle, channel) = open_terminal(
            server.address,
            &server.host_key,
            patience,
            user,
            key.clone(),
            command,
            (u32::from(SIZE.0.get()), u32::from(SIZE.1.get())),
        )
        .await?;
        let (writer, arrivals) = split_arrivals(channel);
        let (cols, rows) = SIZE;
        Ok(Screen {
            _handle: handle,
            writer,
            arrivals,
            terminal: vt100::Parser::new(rows, cols, 0),
        })
    }

    fn text(&self) -> String {
        self.terminal.screen().contents()
    }

    /// Reads the screen until `done` holds for its text.
    async fn until(
        &mut self,
        patience: Duration,
        what: &str,
        done: impl Fn(&str) -> bool,
    ) -> Result<(), LoadClientError> {
        let deadline = Instant::now() + patience;
        loop {
            if done(&self.text()) {
                return Ok(());
            }
            match timeout(
                deadline.saturating_duration_since(Instant::now()),
                self.arrivals.recv(),
            )
            .await
            {
                Ok(Some((_, bytes))) => self.terminal.process(&bytes),
                Ok(None) => return Err(LoadClientError::ClosedBefore(what.to_string())),
                Err(_) => {
                    return Err(LoadClientError::NotShown {
                        text: what.to_string(),
                        patience,
                        shown: super::load::screen_tail(&self.text()),
                    });
                }
            }
        }
    }

    async fn send(&self, bytes: &[u8]) -> Result<(), LoadClientError> {
        self.writer
            .data(bytes)
            .await
            .map_err(LoadClientError::CannotSend)
    }
}

/// Waits until the opponent's screen shows `status` (the move is seen: `true`) or the mover's says the move was
/// not played, or keeps it refused (`false`).
async fn seen_or_refused(
    screens: &mut [Screen; 2],
    mover: Color,
    status: &str,
    patience: Duration,
) -> Result<bool, LoadClientError> {
    let deadline = Instant::now() + patience;
    loop {
        let wait = LOOK_EVERY.min(deadline.saturating_duration_since(Instant::now()));
        match screens[mover.opponent().index()]
            .until(wait, status, |t| t.contains(status))
            .await
        {
            Ok(()) => return Ok(true),
            Err(LoadClientError::NotShown { .. }) if Instant::now() < deadline => {}
            Err(e) => return Err(e),
        }
        // What has come to the mover's screen meanwhile, read without waiting for more.
        match screens[mover.index()]
            .until(Duration::from_millis(1), NOT_PLAYED, |t| {
                t.contains(NOT_PLAYED) || t.contains(REFUSED)
            })
            .await
        {
            Ok(()) => return Ok(false),
            Err(LoadClientError::NotShown { .. }) => {}
            Err(e) => return Err(e),
        }
    }
}

/// What every screen at a table says once `game` stands as it does: its end, or whose move it is.
fn status_after(game: &AnyGame) -> String {
    match game.outcome() {
        Some(outcome) => outcome.to_string(),
        None => format!(
            "move {}, {} to play",
            game.next_move_number().number,
            game.position().side_to_move()
        ),
    }
}

/// The plies played in the game a screen shows, read from its status line (`move 12, White to play`, the last
/// such line: a message above it may quote a move); `None` when it shows none (a game over, or no table).
fn plies_shown(text: &str) -> Option<usize> {
    text.lines().rev().find_map(plies_in_line)
}

/// The plies a status line (`move 12, White to play`) says were played.
fn plies_in_line(line: &str) -> Option<usize> {
    line.match_indices("move ").find_map(|(at, _)| {
        let rest = &line[at + 5..];
        let (number, rest) = rest.split_once(", ")?;
        let number: usize = number.trim().parse().ok()?;
        let side = if rest.starts_with("Black to play") {
            0
        } else if rest.starts_with("White to play") {
            1
        } else {
            return None;
        };
        Some((number.checked_sub(1)?) * 2 + side)
    })
}

/// The line of a screen that says where its game stands, for a report.
fn status_line(text: &str) -> String {
    text.lines()
        .rev()
        .find(|line| plies_in_line(line).is_some())
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// One game's two players.
struct Players {
    config: ChaosConfig,
    index: usize,
    server: Whereabouts,
    stop: watch::Receiver<bool>,
    keys: [PrivateKey; 2],
    names: [String; 2],
    game: AnyGame,
    rng: StdRng,
    log: ChaosGame,
}

impl Players {
    fn new(
        config: ChaosConfig,
        index: usize,
        server: Whereabouts,
        stop: watch::Receiver<bool>,
    ) -> Result<Players, LoadClientError> {
        let key = || {
            PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).map_err(LoadClientError::NoKey)
        };
        let seed = config.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Ok(Players {
            config,
            index,
            server,
            stop,
            keys: [key()?, key()?],
            names: [format!("black{index}"), format!("white{index}")],
            game: AnyGame::new(GameType::default()),
            rng: StdRng::seed_from_u64(seed),
            log: ChaosGame::default(),
        })
    }

    /// A node of the server as it is now, waiting while every node is down: the player's own node (each
    /// game's two players at different nodes when there are several) when it is up and `anywhere` is not
    /// asked, else any node that is up, chosen at random (as a load balancer would).
    async fn server(&mut self, color: Color, anywhere: bool) -> Option<TableServer> {
        let deadline = Instant::now() + self.config.patience * 4;
        loop {
            let up: Vec<(usize, TableServer)> = self
                .server
                .borrow()
                .iter()
                .enumerate()
                .filter_map(|(n, place)| place.clone().map(|server| (n, server)))
                .collect();
            let nodes = self.server.borrow().len().max(1);
            let own = (self.index + color.index()) % nodes;
            if let Some((_, server)) = up.iter().find(|(n, _)| *n == own && !anywhere) {
                return Some(server.clone());
            }
            if !up.is_empty() {
                let pick = self.rng.random_range(0..up.len());
                return Some(up[pick].1.clone());
            }
            if Instant::now() >= deadline
                || timeout(self.config.patience, self.server.changed())
                    .await
                    .is_ok_and(|changed| changed.is_err())
            {
                return None;
            }
        }
    }

    async fn open(
        &mut self,
        color: Color,
        command: Option<&str>,
        anywhere: bool,
    ) -> Result<Screen, LoadClientError> {
        let server = self
            .server(color, anywhere)
            .await
            .ok_or(LoadClientError::ChannelClosed)?;
        let i = color.index();
        Screen::open(
            &server,
            self.config.patience,
            &self.names[i],
            &self.keys[i],
            command,
        )
        .await
    }

    /// Black opens the table and White joins it.
    async fn sit_down(&mut self) -> Result<[Screen; 2], LoadClientError> {
        let patience = self.config.patience;
        let mut black = self
            .open(Color::Black, Some("new english black casual"), false)
            .await?;
        black
            .until(patience, "a table's code", |t| code_on(t).is_some())
            .await?;
        let code = code_on(&black.text()).ok_or(LoadClientError::NoCode)?;
        self.log.code = code.clone();
        let mut white = self
            .open(Color::White, Some(&format!("join {code}")), false)
            .await?;
        let start = status_after(&self.game);
        for screen in [&mut black, &mut white] {
            screen
                .until(patience, &start, |t| t.contains(&start))
                .await?;
        }
        Ok([black, white])
    }

    async fn play(&mut self) {
        // The server may die while the table is opened: a new one is opened (the first never began).
        let mut tries = 0;
        let mut screens = loop {
            match self.sit_down().await {
                Ok(screens) => break screens,
                Err(_) if tries < COMEBACKS => {
                    tries += 1;
                    sleep(Duration::from_millis(250)).await;
                }
                Err(e) => {
                    self.log.failed = Some(format!("game {}: {e}", self.index));
                    return;
                }
            }
        };
        let patience = self.config.patience;
        while self.game.outcome().is_none() && self.game.len() < self.config.plies {
            // The table went before its first move: the pair starts another.
            if *self.stop.borrow() || self.log.vanished {
                return;
            }
            let think = self.config.think.mul_f64(self.rng.random_range(0.5..1.5));
            sleep(think).await;
            let mover = self.game.position().side_to_move();
            if self.config.double_every > 0
                && self.rng.random_range(0..self.config.double_every) == 0
            {
                match self.connect_twice(&mut screens, mover).await {
                    Ok(()) => {}
                    Err(_) => match self.come_back(None).await {
                        Ok(again) => screens = again,
                        Err(e) => return self.fail(e),
                    },
                }
                continue;
            }
            let position = self.game.position();
            let moves = position.legal_moves();
            let mv = moves[self.rng.random_range(0..moves.len())];
            let notation = self.game.variant().notation();
            let typed = position.write_move(&mv, notation);
            let mut after = self.game.clone();
            if let Err(e) = after.play(&mv) {
                return self.fail(e.into());
            }
            let status = status_after(&after);
            let sent_at = std::time::Instant::now();
            let sent = screens[mover.index()]
                .send(format!("{typed}\r").as_bytes())
                .await;
            let seen = match sent {
                Ok(()) => seen_or_refused(&mut screens, mover, &status, patience).await,
                Err(e) => Err(e),
            };
            let slow = |log: &mut ChaosGame, dropped: bool| {
                let waited = sent_at.elapsed();
                if waited > SLOW {
                    log.waits.push(Wait {
                        table: log.code.clone(),
                        sent: sent_at,
                        waited,
                        dropped,
                    });
                }
            };
            match seen {
                Ok(true) => {
                    slow(&mut self.log, false);
                    self.played(after);
                }
                // The server said the move was not played: the table, read again, must not have it.
                Ok(false) => {
                    self.log.refused += 1;
                    match self.rejoin().await {
                        Ok(again) => {
                            screens = again;
                            slow(&mut self.log, false);
                        }
                        Err(e) => return self.fail(e),
                    }
                }
                // The server died (or stalled): the move's fate is read from the table once it is back.
                Err(e) => match self.come_back(Some(after)).await {
                    Ok(again) => {
                        screens = again;
                        let dropped = !matches!(e, LoadClientError::NotShown { .. });
                        slow(&mut self.log, dropped);
                    }
                    Err(e) => return self.fail(e),
                },
            }
        }
        // Long enough: the side to move resigns, so that the game ends as players end theirs (left in play, the
        // pair's games would pile up to the server's limit of games in progress for one player).
        if self.game.outcome().is_none() && !*self.stop.borrow() && !self.log.vanished {
            self.resign(&mut screens).await;
        }
        if self.game.outcome().is_some() {
            self.log.result = Some(self.game.result_token(self.game.outcome()).to_string());
        }
    }

    /// The side to move resigns (`:resign`, then `y` to the question); once both screens show the game over, it
    /// is the game's end. A resignation the screens do not show (a fault meanwhile) is not counted: the records
    /// may hold it or not, and the moves seen are checked either way.
    async fn resign(&mut self, screens: &mut [Screen; 2]) {
        let side = self.game.position().side_to_move();
        let mut after = self.game.clone();
        if after.resign(side).is_err() {
            return;
        }
        let status = status_after(&after);
        let patience = self.config.patience;
        let asked = async {
            screens[side.index()].send(b":resign\r").await?;
            sleep(Duration::from_millis(50)).await;
            screens[side.index()].send(b"y").await?;
            for screen in screens.iter_mut() {
                screen
                    .until(patience, &status, |t| t.contains(&status))
                    .await?;
            }
            Ok::<_, LoadClientError>(())
        };
        if asked.await.is_ok() {
            self.game = after;
        }
    }

    /// The log of the game just played, and a fresh game for the next.
    fn next_game(&mut self) -> ChaosGame {
        self.game = AnyGame::new(GameType::default());
        std::mem::take(&mut self.log)
    }

    /// A move the opponent's screen showed: it is the game's.
    fn played(&mut self, after: AnyGame) {
        let notation = after.variant().notation();
        if let Some(text) = after.move_text(after.len(), notation) {
            self.log.seen.push(text);
        }
        self.game = after;
    }

    fn fail(&mut self, e: LoadClientError) {
        self.log.failed = Some(format!("game {} ({}): {e}", self.index, self.log.code));
    }

    /// The player to move connects a second time: the new connection must show the table, the old one say
    /// that the game is played from elsewhere; the new one is played from then on.
    async fn connect_twice(
        &mut self,
        screens: &mut [Screen; 2],
        color: Color,
    ) -> Result<(), LoadClientError> {
        let patience = self.config.patience;
        let status = status_after(&self.game);
        let mut again = self.open(color, None, false).await?;
        again
            .until(patience, &status, |t| {
                t.contains(&status) && !t.contains(JOINING)
            })
            .await?;
        let old = &mut screens[color.index()];
        old.until(patience, TAKEN_OVER, |t| t.contains(TAKEN_OVER))
            .await?;
        screens[color.index()] = again;
        self.log.doubles += 1;
        Ok(())
    }

    /// Both players connect again after the server died, and read where the table stands: as they saw it, or
    /// one move on when the move on its way (`pending`, the game after it) was written before the server died.
    async fn come_back(
        &mut self,
        pending: Option<AnyGame>,
    ) -> Result<[Screen; 2], LoadClientError> {
        self.read_table(pending, false).await
    }

    /// Both players open the table again by its code (`join CODE`: the server is up, and a plain `ssh host`
    /// might take them to an older game they left unfinished) after it refused a move, and read where it
    /// stands: as they saw it.
    async fn rejoin(&mut self) -> Result<[Screen; 2], LoadClientError> {
        self.read_table(None, true).await
    }

    /// Both players connect again, by a plain `ssh host` or by the table's code (`by_code`), and read where the
    /// table stands: as they saw it, or one move on when `pending` (the game after the move on its way) was
    /// written.
    async fn read_table(
        &mut self,
        pending: Option<AnyGame>,
        by_code: bool,
    ) -> Result<[Screen; 2], LoadClientError> {
        let patience = self.config.patience;
        let join = format!("join {}", self.log.code);
        let command = by_code.then_some(join.as_str());
        let mut last = LoadClientError::ChannelClosed;
        let give_up = std::time::Instant::now() + COMEBACK_PATIENCE;
        while std::time::Instant::now() < give_up {
            if *self.stop.borrow() && self.server.borrow().iter().all(Option::is_none) {
                break;
            }
            let attempt = async {
                // Back at any node that is up: a player whose node died goes wherever the balancer sends them.
                let mut black = self.open(Color::Black, command, true).await?;
                let mut white = self.open(Color::White, command, true).await?;
                // Until the table's state comes, the screen shows the start "joining the table…". A table nothing
                // was played at may have gone (its start never reached the records: its node lost it as it
                // began): the players are then shown the lobby. (The checker holds that the records have no game
                // under its code.)
                let unplayed = self.game.is_empty();
                let shown = |t: &str| {
                    !t.contains(JOINING)
                        && (plies_shown(t).is_some()
                            || t.contains("over")
                            || (unplayed && in_lobby(t)))
                };
                black.until(patience, "the table", shown).await?;
                white.until(patience, "the table", shown).await?;
                // A table gone is gone for both: one player at it and the other in the lobby is a player not
                // back at it yet (a node taking it over), and both connect again.
                if in_lobby(&black.text()) != in_lobby(&white.text()) {
                    let lost = if in_lobby(&black.text()) {
                        &black
                    } else {
                        &white
                    };
                    return Err(LoadClientError::NotShown {
                        text: "the table to both players".to_string(),
                        patience,
                        shown: super::load::screen_tail(&lost.text()),
                    });
                }
                // The two screens may be a move apart for a moment: a move on its way as the mover's connection
                // dropped lands after one of them was drawn. What the table holds is what both show once they
                // agree; screens that never do are the checker's to report.
                let agreed = std::time::Instant::now() + patience;
                while plies_shown(&black.text()) != plies_shown(&white.text())
                    && std::time::Instant::now() < agreed
                {
                    for screen in [&mut black, &mut white] {
                        match screen.until(LOOK_EVERY, "the same game", |_| false).await {
                            Err(LoadClientError::NotShown { .. }) => {}
                            Err(e) => return Err(e),
                            Ok(()) => {}
                        }
                    }
                }
                Ok::<_, LoadClientError>([black, white])
            };
            match attempt.await {
                Ok(screens) => {
                    self.log.comebacks += 1;
                    let shows = screens
                        .iter()
                        .map(|s| plies_shown(&s.text()))
                        .collect::<Vec<_>>();
                    let seen = self.game.len();
                    let ended_by = |after: &AnyGame| {
                        after.outcome().is_some()
                            && screens[0].text().contains(&status_after(after))
                    };
                    let elsewhere = code_on(&screens[0].text()).is_some_and(|c| c != self.log.code)
                        || in_lobby(&screens[0].text());
                    match (shows[0], &pending) {
                        // Nothing was played at the table, and it is gone (the players are at another, or in the
                        // lobby): they start another.
                        _ if seen == 0 && elsewhere => {
                            self.log.vanished = true;
                            return Ok(screens);
                        }
                        (Some(plies), _) if plies == seen => {}
                        (Some(plies), Some(after)) if plies == seen + 1 => {
                            let after = after.clone();
                            self.played(after);
                        }
                        (None, Some(after)) if ended_by(after) => {
                            let after = after.clone();
                            self.played(after);
                        }
                        (shown, _) => self.log.anomalies.push(format!(
                            "table {}: the players saw {seen} plies, the table shows {shown:?} (as table {})",
                            self.log.code,
                            code_on(&screens[0].text()).unwrap_or_default()
                        )),
                    }
                    if shows[0] != shows[1] {
                        self.log.anomalies.push(format!(
                            "table {}: the two players are shown {:?} and {:?} plies (as tables {:?} and {:?}: \
                             {:?}, {:?})",
                            self.log.code,
                            shows[0],
                            shows[1],
                            code_on(&screens[0].text()),
                            code_on(&screens[1].text()),
                            status_line(&screens[0].text()),
                            status_line(&screens[1].text()),
                        ));
                    }
                    return Ok(screens);
                }
                Err(e) => {
                    last = e;
                    sleep(Duration::from_millis(250)).await;
                }
            }
        }
        Err(last)
    }
}

/// Whether the screen is the lobby (its frame's title: `crowned · lobby · NAME`).
fn in_lobby(text: &str) -> bool {
    text.contains("crowned · lobby")
}

/// The table's code in the move pane's title (`Moves · table K7QX`).
fn code_on(text: &str) -> Option<String> {
    let at = text.find("table ")?;
    let code: String = text[at + 6..].chars().take(4).collect();
    (code.len() == 4
        && code
            .bytes()
            .all(|b| crate::serve::codes::ALPHABET.contains(&b)))
    .then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plies_are_read_from_the_status_line() {
        assert_eq!(plies_shown("  move 1, Black to play: your move"), Some(0));
        assert_eq!(plies_shown("move 1, White to play"), Some(1));
        assert_eq!(plies_shown("x move 12, White to play"), Some(23));
        assert_eq!(plies_shown("move 0, Black to play"), None);
        assert_eq!(plies_shown("moves: none"), None);
        // The status line is the last: a line above it that quotes a move is not it.
        let screen =
            "your move, 3, White to play\nmove 21, White to play\n move 18, Black to play: bob\n";
        assert_eq!(plies_shown(screen), Some(34));
        assert_eq!(status_line(screen), "move 18, Black to play: bob");
        assert_eq!(code_on("│ Moves · table K7QX ──"), Some("K7QX".into()));
        assert_eq!(code_on("table 12"), None);
    }
}
