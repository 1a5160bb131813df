//! One game on several nodes, simulated: the table's state machine run by whichever node holds the game's lease,
//! with leases that lapse in simulated time, fencing tokens the records check, nodes that are killed (a commit
//! in flight landing or not), paused past their lease and let go on, a database that stops for a while, and
//! players who come back to wherever the game runs now. Seeded and replayable: a failing seed is printed, run
//! alone with every input and effect told by `SIM_SEED=N SIM_TRACE=1 cargo test --profile fast --lib
//! one_game_on_nodes`, and is a test to add.
//!
//! The records are a model of the real ones' promises (the PostgreSQL driver's own tests check the real ones):
//! a commit is written whole or not at all, only when the generation it carries is the game's current one (a
//! claim takes the next), and a move only at the next ply. What is checked after every step:
//! - **commit, then show**: every state any table shows any player holds moves the records hold, in order, and an
//!   end only once the records hold that end; so nothing anyone saw is lost when a node dies;
//! - **one history, one result**: the records' moves only grow or are taken back by a recorded takeback, and the
//!   result is written once;
//! - **one owner**: a commit is taken only from the table of the current generation; a table whose commit is
//!   refused as not its node's stops, showing nothing of it;
//! - **one table per game**: each node runs one table of the game at most, and a player always comes back to the
//!   table of the node holding the lease.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::*;
use crate::serve::recorder::{CommitError, Job, RecordKey};
use crate::serve::table::Resumed;
use crate::serve::table::machine::{Conn, Input, Table, TableEffect, TableSetup};

/// The lease's term.
const TERM: Duration = Duration::from_secs(4);

/// How many nodes.
const NODES: usize = 3;

/// The schedules run by the test (each a seed).
const SCHEDULES: u64 = 10_000;

/// Steps in each schedule.
const STEPS: usize = 400;

/// The records as the nodes share them.
#[derive(Default)]
struct Records {
    started: bool,
    moves: Vec<String>,
    result: Option<String>,
    /// The generation of the game's current lease (0: never claimed).
    generation: u64,
    /// When the lease runs out.
    expires: Duration,
    /// The database does not answer until then.
    down_until: Duration,
    /// Commits taken, and refused as another generation's.
    written: usize,
    fenced: usize,
    takebacks: usize,
}

impl Records {
    fn up(&self, now: Duration) -> bool {
        now >= self.down_until
    }

    /// A commit from the table of generation `generation`: all of it, or none.
    fn commit(&mut self, generation: u64, jobs: &[Job], now: Duration) -> Result<(), CommitError> {
        if !self.up(now) {
            return Err(CommitError::Unwritable);
        }
        if generation != self.generation {
            self.fenced += 1;
            return Err(CommitError::NotHeld);
        }
        let mut moves = self.moves.clone();
        let mut result = self.result.clone();
        let mut started = self.started;
        for job in jobs {
            match job {
                Job::Start { .. } => started = true,
                Job::Move { ply, text, .. } if *ply == moves.len() && result.is_none() => {
                    moves.push(text.clone());
                }
                Job::TakeBack { ply, .. } if *ply <= moves.len() && result.is_none() => {
                    moves.truncate(*ply);
                    self.takebacks += 1;
                }
                Job::Finish { result: r, .. } if result.is_none() => result = Some(r.clone()),
                Job::Clocks { .. } => {}
                other => return Err(CommitError::Refused(format!("{other:?}"))),
            }
        }
        self.moves = moves;
        self.result = result;
        self.started = started;
        self.written += 1;
        Ok(())
    }
}

/// A node of the server.
#[derive(Default)]
struct Node {
    alive: bool,
    /// Stopped (SIGSTOP) until then.
    paused_until: Duration,
    /// Its table of the game, with the generation it claimed it under.
    table: Option<(Table, u64)>,
    /// The table's commit on its way to the records, and when it gets there.
    in_flight: Option<(Vec<Job>, Duration)>,
    /// When it last renewed its lease.
    renewed: Duration,
    /// What came for the table while it waited for the records, in order: given it once they answer, as the
    /// table's task does.
    waiting: std::collections::VecDeque<Input>,
}

impl Node {
    fn running(&self, now: Duration) -> bool {
        self.alive && now >= self.paused_until
    }
}

/// A player: where they are connected, and the last state they were shown there.
struct Player {
    who: Identity,
    /// The node whose table they are at, and their connection there.
    at: Option<(usize, Conn)>,
    shown: Option<Arc<TableState>>,
    /// The opponent's offer on their screen, not answered yet.
    offered: Option<OfferKind>,
}

struct World {
    rng: StdRng,
    now: Duration,
    records: Records,
    nodes: Vec<Node>,
    players: [Player; 2],
    next_conn: u64,
    /// States checked against the records.
    checked: usize,
    faults: usize,
    /// Whether every input and effect is told (`SIM_TRACE`), to follow a failing seed.
    trace: bool,
}

fn person(name: &str) -> Identity {
    Identity {
        fingerprint: format!("SHA256:{name}").into(),
        name: name.to_string(),
    }
}

fn texts(game: &AnyGame) -> Vec<String> {
    let notation = game.variant().notation();
    (1..=game.len())
        .filter_map(|ply| game.move_text(ply, notation))
        .collect()
}

impl World {
    fn new(seed: u64) -> World {
        let mut world = World {
            rng: StdRng::seed_from_u64(seed),
            now: Duration::ZERO,
            records: Records::default(),
            nodes: (0..NODES)
                .map(|_| Node {
                    alive: true,
                    ..Node::default()
                })
                .collect(),
            players: [
                Player {
                    who: person("ann"),
                    at: None,
                    shown: None,
                    offered: None,
                },
                Player {
                    who: person("bob"),
                    at: None,
                    shown: None,
                    offered: None,
                },
            ],
            next_conn: 1,
            checked: 0,
            faults: 0,
            trace: std::env::var_os("SIM_TRACE").is_some(),
        };
        // Node 0 opens the table, under the first generation; both players sit there.
        world.records.generation = 1;
        world.records.expires = TERM;
        let table = Table::new(config(None, 600_000), setup(None), Duration::ZERO);
        world.nodes[0].table = Some((table, 1));
        for p in 0..2 {
            world.connect(p, 0);
        }
        world
    }

    /// Player `p` connects to node `n`'s table.
    fn connect(&mut self, p: usize, n: usize) {
        let conn = Conn(self.next_conn);
        self.next_conn += 1;
        self.players[p].at = Some((n, conn));
        self.players[p].shown = None;
        self.players[p].offered = None;
        let sit = Input::Sit {
            who: self.players[p].who.clone(),
            color: None,
            rating: None,
            provisional: false,
            returning: false,
            conn,
        };
        self.feed(n, sit);
    }

    /// Gives node `n`'s table an input and carries out what it answers; while it waits for the records, only
    /// their answer and its wake-ups: the rest waits its turn.
    fn feed(&mut self, n: usize, input: Input) {
        let now = self.now;
        if self.trace {
            eprintln!(
                "{now:?} node {n} <- {input:?} (records {:?} {:?} gen {})",
                self.records.moves, self.records.result, self.records.generation
            );
        }
        let Some((table, _)) = self.nodes[n].table.as_mut() else {
            return;
        };
        let answer = matches!(input, Input::Committed(_) | Input::Wake);
        if table.awaiting_records() && !answer {
            self.nodes[n].waiting.push_back(input);
            return;
        }
        let effects = table.handle(input, now);
        self.carry_out(n, effects);
        loop {
            let node = &mut self.nodes[n];
            let Some((table, _)) = node.table.as_mut() else {
                return;
            };
            if table.awaiting_records() {
                return;
            }
            let Some(next) = node.waiting.pop_front() else {
                return;
            };
            let effects = table.handle(next, now);
            self.carry_out(n, effects);
        }
    }

    fn carry_out(&mut self, n: usize, effects: Vec<TableEffect>) {
        for effect in effects {
            if self.trace {
                eprintln!("{:?} node {n}: {effect:?}", self.now);
            }
            match effect {
                TableEffect::Send { to, update } => {
                    let Some(p) = self.players.iter().position(|p| p.at == Some((n, to))) else {
                        continue;
                    };
                    if let Update::State(state) = &update {
                        self.check_shown(state);
                        self.players[p].shown = Some(Arc::clone(state));
                    }
                    match update {
                        Update::TakenOver => self.players[p].at = None,
                        Update::Offer(kind) => self.players[p].offered = Some(kind),
                        _ => {}
                    }
                }
                TableEffect::Commit(jobs) => {
                    let lands = self.now + Duration::from_millis(self.rng.random_range(1..400));
                    self.nodes[n].in_flight = Some((jobs, lands));
                }
                TableEffect::Stop => self.stop_table(n),
                TableEffect::Seated(_)
                | TableEffect::Note(_)
                | TableEffect::Listing(_)
                | TableEffect::OpenRematch { .. }
                | TableEffect::EventResult(_)
                | TableEffect::ReadRatings { .. } => {}
            }
        }
    }

    /// Commit, then show: what a table shows is in the records.
    fn check_shown(&mut self, state: &TableState) {
        self.checked += 1;
        let shown = texts(&state.game);
        assert!(
            shown.len() <= self.records.moves.len()
                && shown[..] == self.records.moves[..shown.len()],
            "shown {shown:?}, the records hold {:?}",
            self.records.moves
        );
        if let Some(outcome) = state.game.outcome() {
            let token = state.game.result_token(Some(outcome)).to_string();
            assert_eq!(
                self.records.result.as_deref(),
                Some(token.as_str()),
                "an end shown that the records do not hold"
            );
            assert_eq!(shown, self.records.moves, "an end shown after other moves");
        }
    }

    /// Node `n`'s table stops: its people find the game again where it runs.
    fn stop_table(&mut self, n: usize) {
        self.nodes[n].table = None;
        self.nodes[n].in_flight = None;
        self.nodes[n].waiting.clear();
        for player in &mut self.players {
            if player.at.is_some_and(|(at, _)| at == n) {
                player.at = None;
                player.shown = None;
            }
        }
    }

    /// A commit reaches the records (the node running), and its answer the table.
    fn land_commits(&mut self) {
        for n in 0..NODES {
            if !self.nodes[n].running(self.now) {
                continue;
            }
            let due = self.nodes[n]
                .in_flight
                .as_ref()
                .is_some_and(|(_, at)| *at <= self.now);
            if !due {
                continue;
            }
            let Some((jobs, _)) = self.nodes[n].in_flight.take() else {
                continue;
            };
            let generation = self.nodes[n].table.as_ref().map_or(0, |(_, g)| *g);
            let answer = self.records.commit(generation, &jobs, self.now);
            self.feed(n, Input::Committed(answer));
        }
    }

    /// The heartbeats: a running node renews its lease while it is the game's (else its table stops, as its beat
    /// finds the lease lost), and a lapsed lease is claimed by a running node, which resumes the game from the
    /// records.
    fn beat(&mut self) {
        let now = self.now;
        if !self.records.up(now) {
            return;
        }
        for n in 0..NODES {
            if !self.nodes[n].running(now) || now < self.nodes[n].renewed + TERM / 4 {
                continue;
            }
            self.nodes[n].renewed = now;
            let Some(generation) = self.nodes[n].table.as_ref().map(|(_, g)| *g) else {
                continue;
            };
            if generation == self.records.generation && now < self.records.expires {
                self.records.expires = now + TERM;
            } else if generation != self.records.generation {
                self.stop_table(n);
            }
        }
        if now >= self.records.expires && self.records.result.is_none() {
            let running: Vec<usize> = (0..NODES).filter(|n| self.nodes[*n].running(now)).collect();
            if running.is_empty() {
                return;
            }
            let n = running[self.rng.random_range(0..running.len())];
            self.take_over(n);
        }
    }

    /// Node `n` claims the game (the next generation) and resumes it from the records.
    fn take_over(&mut self, n: usize) {
        self.records.generation += 1;
        self.records.expires = self.now + TERM;
        // A table of an older generation here stops first: one table per game on a node.
        self.stop_table(n);
        let mut game = AnyGame::new(GameType::standard(Variant::English));
        for text in &self.records.moves {
            game.play_text(text).expect("the records hold legal moves");
        }
        let resumed = self.records.started.then(|| Resumed {
            game,
            seats: [person("ann"), person("bob")],
            clocks: None,
            ratings: [None, None],
            code: Some(TableCode::new("N0DE")),
            record: RecordKey::fresh(),
        });
        let table = Table::new(config(None, 600_000), setup(resumed), self.now);
        self.nodes[n].table = Some((table, self.records.generation));
        self.nodes[n].renewed = self.now;
    }

    /// The node running the current generation's table, if one does.
    fn owner(&self) -> Option<usize> {
        (0..NODES).find(|n| {
            self.nodes[*n].alive
                && self.nodes[*n]
                    .table
                    .as_ref()
                    .is_some_and(|(_, g)| *g == self.records.generation)
        })
    }

    fn step(&mut self) {
        self.now += Duration::from_millis(self.rng.random_range(0..300));
        self.land_commits();
        self.beat();
        for n in 0..NODES {
            if !self.nodes[n].running(self.now) {
                continue;
            }
            let wake = self.nodes[n]
                .table
                .as_mut()
                .and_then(|(table, _)| table.next_wake());
            if wake.is_some_and(|at| at <= self.now) {
                self.feed(n, Input::Wake);
            }
        }
        match self.rng.random_range(0..100) {
            // A player moves, from the screen they have (a node paused does not hear them until it goes on).
            0..60 => self.a_player_moves(),
            60..70 => self.a_player_comes_back(),
            70..73 => self.a_node_dies(),
            73..76 => self.a_node_pauses(),
            76..78 => self.the_database_stops(),
            78..80 => self.a_node_restarts(),
            _ => {}
        }
    }

    fn a_player_moves(&mut self) {
        let p = self.rng.random_range(0..2);
        let (Some((n, _)), Some(shown)) = (self.players[p].at, self.players[p].shown.clone())
        else {
            return;
        };
        let color = [Color::Black, Color::White][p];
        if shown.game.outcome().is_some() || !self.nodes[n].running(self.now) {
            return;
        }
        let who = self.players[p].who.fingerprint.clone();
        // An offer on the screen is answered now and then; the player who has just moved may ask for a
        // takeback or offer a draw.
        if let Some(kind) = self.players[p].offered.take() {
            let accept = self.rng.random_bool(0.6);
            return self.feed(
                n,
                Input::Ask {
                    who,
                    request: TableRequest::Answer { kind, accept },
                },
            );
        }
        if shown.game.position().side_to_move() != color {
            if self.rng.random_range(0..10) == 0 {
                let kind = match self.rng.random_bool(0.7) {
                    true => OfferKind::Takeback,
                    false => OfferKind::Draw,
                };
                self.feed(
                    n,
                    Input::Ask {
                        who,
                        request: TableRequest::Offer(kind),
                    },
                );
            }
            return;
        }
        let request = match self.rng.random_range(0..40) {
            0 => TableRequest::Resign,
            _ => {
                let moves = shown.game.position().legal_moves();
                TableRequest::Play(moves[self.rng.random_range(0..moves.len())])
            }
        };
        self.feed(n, Input::Ask { who, request });
    }

    /// A player without a table (theirs stopped or died) comes back to the owner's table, when there is one.
    fn a_player_comes_back(&mut self) {
        let p = self.rng.random_range(0..2);
        if self.players[p]
            .at
            .is_some_and(|(n, _)| self.nodes[n].table.is_some())
        {
            return;
        }
        if let Some(n) = self.owner().filter(|n| self.nodes[*n].running(self.now)) {
            self.connect(p, n);
        }
    }

    fn a_node_dies(&mut self) {
        let n = self.rng.random_range(0..NODES);
        if !self.nodes[n].alive {
            return;
        }
        self.faults += 1;
        // A commit on its way may reach the records before the node dies, or not.
        if let Some((jobs, _)) = self.nodes[n].in_flight.take()
            && self.rng.random_bool(0.5)
        {
            let generation = self.nodes[n].table.as_ref().map_or(0, |(_, g)| *g);
            let _ = self.records.commit(generation, &jobs, self.now);
        }
        self.stop_table(n);
        self.nodes[n].alive = false;
    }

    fn a_node_restarts(&mut self) {
        if let Some(n) = (0..NODES).find(|n| !self.nodes[*n].alive) {
            self.nodes[n] = Node {
                alive: true,
                ..Node::default()
            };
        }
    }

    /// A node stops (SIGSTOP) for up to two lease terms: its table hears nothing and says nothing meanwhile.
    fn a_node_pauses(&mut self) {
        let n = self.rng.random_range(0..NODES);
        self.faults += 1;
        let pause = TERM.mul_f64(self.rng.random_range(0.1..2.0));
        self.nodes[n].paused_until = self.now + pause;
    }

    fn the_database_stops(&mut self) {
        self.faults += 1;
        let outage = Duration::from_millis(self.rng.random_range(100..6_000));
        self.records.down_until = self.now + outage;
    }
}

fn setup(resumed: Option<Resumed>) -> TableSetup {
    TableSetup {
        code: TableCode::new("N0DE"),
        recorded: true,
        writing: true,
        resumed,
        ..TableSetup::default()
    }
}

#[test]
fn one_game_on_nodes_that_die_stall_and_lose_their_database_keeps_one_history() {
    let (mut checked, mut faults, mut written, mut fenced, mut plies) = (0, 0, 0, 0, 0);
    let (mut takebacks, mut ended) = (0, 0);
    let only: Option<u64> = std::env::var("SIM_SEED").ok().and_then(|s| s.parse().ok());
    for seed in only.map_or(0..SCHEDULES, |s| s..s + 1) {
        let mut world = World::new(seed);
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for _ in 0..STEPS {
                world.step();
            }
        }));
        if let Err(panic) = run {
            eprintln!("the schedule of seed {seed} failed");
            std::panic::resume_unwind(panic);
        }
        checked += world.checked;
        faults += world.faults;
        written += world.records.written;
        fenced += world.records.fenced;
        plies += world.records.moves.len();
        takebacks += world.records.takebacks;
        ended += usize::from(world.records.result.is_some());
    }
    println!(
        "{SCHEDULES} schedules: {faults} faults, {written} commits written, {fenced} refused as another \
         node's, {plies} plies kept, {takebacks} takebacks, {ended} games ended, {checked} states checked"
    );
    assert!(
        takebacks > 0 && ended > 0,
        "no takeback or no end was ever written"
    );
    // The faults bit: some commits came from a table that had lost its game to another node.
    assert!(fenced > 0, "no commit was ever fenced");
    assert!(plies > SCHEDULES as usize, "the games hardly moved");
}
