//! What a table has told the people at its table and what it has sent to the records, kept side by side for the
//! property test of `interleavings.rs`, with the checks that they agree.
//!
//! Each person connected has a screen: an app at the table fed every update the table sends them, as a
//! connection feeds its session (what the app asks of the table in return is sent, as a connection sends it).
//! The records are the jobs the table sends its recorder, played into the moves, the result and the filed game
//! the records would hold (the store itself is left out: the recorder's own tests cover it). The witness answers
//! the table's commits as the records would: written, or, while the records are down, not; a crash loses the
//! commit in flight and everything not yet heard, and the table is resumed from the records. Every state a
//! screen hears is checked against the records as it comes (commit, then show), and whenever the table has
//! dealt with everything asked of it, the screens and the records are compared.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc as std_mpsc;

use super::recorded::{Recorded, same_moves};
use super::*;
use crate::app::{Action, App, Effect, Mode, Question, TableView};
use crate::serve::recorder::{Commit, CommitError, Job, RecordKey, Recorder};

/// How many times the witness lets the table run while it waits for an answer, before it calls the table stuck.
const PATIENCE: usize = 100_000;

/// How long slow records take to answer a commit: longer than a table waits before it tells the player who asked
/// that the records are slow.
const SLOW: Duration = Duration::from_secs(4);

/// What the witnesses of one test program have seen, for the simulation's figures: commits written and
/// refused, crashes, seats taken from a second connection, and states checked against the records.
pub(super) static TALLY: Tally = Tally::new();

/// See [`TALLY`].
pub(super) struct Tally {
    pub(super) written: AtomicUsize,
    pub(super) refused: AtomicUsize,
    pub(super) crashes: AtomicUsize,
    pub(super) taken_over: AtomicUsize,
    pub(super) states: AtomicUsize,
    pub(super) slowed: AtomicUsize,
}

impl Tally {
    const fn new() -> Tally {
        Tally {
            written: AtomicUsize::new(0),
            refused: AtomicUsize::new(0),
            crashes: AtomicUsize::new(0),
            taken_over: AtomicUsize::new(0),
            states: AtomicUsize::new(0),
            slowed: AtomicUsize::new(0),
        }
    }

    fn add(counter: &AtomicUsize) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// The code of the witnessed table.
const CODE: &str = "W1TN";

/// The game's end as the first to hear of it heard it: how it ended, after which moves.
pub(super) type Ended = (Outcome, Vec<Move>);

/// Someone who may be at the table: a player (with a seat) or a watcher.
struct Screen {
    who: Identity,
    /// The player's colour; `None` for a watcher.
    seat: Option<Color>,
    /// While connected: what they are told, and how it shows.
    link: Option<Link>,
    /// Earlier connections that have gone without the server noticing yet (their end is still to come to the
    /// table), oldest first: nothing reads what reaches them.
    unnoticed: Vec<(mpsc::Receiver<Update>, WeakUpdates)>,
    /// Earlier connections still open and read when the player took their seat from another one: each must be
    /// told so, and hear nothing after.
    displaced: Vec<Displaced>,
}

/// A connection whose seat was taken from another connection.
struct Displaced {
    updates: mpsc::Receiver<Update>,
    /// Whether it has been told.
    told: bool,
}

/// A connection to the table.
struct Link {
    updates: mpsc::Receiver<Update>,
    /// Which connection this is, for leaving.
    line: WeakUpdates,
    /// The app the connection shows, fed every update.
    app: App,
    /// The last state the table sent.
    last: Option<Arc<Snapshot>>,
    /// Whether a state has told this connection the game is over.
    told_end: bool,
    /// The clocks last heard, after how many plies.
    clocks: Option<([Duration; 2], usize)>,
}

impl Link {
    /// Checks that no clock heard gives a side time back: between two moments of one game, a side's time only
    /// grows by what its moves earn (`earned` a move: the increment, or the whole time of a clock per move), and
    /// a takeback's is not judged.
    fn clocks_heard(&mut self, name: &str, clocks: [Duration; 2], plies: usize, earned: Duration) {
        if let Some((before, before_plies)) = self.clocks
            && plies >= before_plies
        {
            let moves = u32::try_from(plies - before_plies).unwrap_or(u32::MAX);
            for side in 0..2 {
                assert!(
                    clocks[side] <= before[side] + earned * moves,
                    "{name} hears side {side}'s clock given time back: {:?} after {:?}, {moves} moves later",
                    clocks[side],
                    before[side]
                );
            }
        }
        self.clocks = Some((clocks, plies));
    }
}

/// A table, the people who come and go at its table, and its records.
pub(super) struct Witness {
    table: TableHandle,
    config: TableConfig,
    /// Black's and White's players, then the watchers.
    people: Vec<Screen>,
    jobs: std_mpsc::Receiver<Job>,
    records: Recorded,
    /// Whether the game is recorded: no guest plays in it.
    recorded: bool,
    end: Option<Ended>,
    /// Whether the table has ended (it takes no more commands).
    closed: bool,
    /// Whether the records cannot be written: every commit is refused.
    down: bool,
    /// Whether the records are slow: each commit is answered [`SLOW`] after it comes.
    slow: bool,
    /// The commits the slow records have not answered yet, with when they will.
    held: Vec<(Instant, Commit)>,
}

impl Witness {
    /// A table with `watchers` people who may come to watch, and Bob a guest when `guest` (a guest's games are not
    /// recorded). Both players are seated at a new game; or, when the table `resumes` a game from the records
    /// (with the clocks as they were), both are away until they come back.
    pub(super) async fn open(
        config: TableConfig,
        guest: bool,
        watchers: usize,
        resumes: Option<(AnyGame, Option<[Duration; 2]>)>,
    ) -> Witness {
        let (recorder, jobs) = Recorder::by_hand();
        let person = |name: &str| Identity {
            fingerprint: format!("SHA256:{name}").into(),
            name: name.to_string(),
        };
        let bob = if guest {
            Identity::guest("bob")
        } else {
            person("bob")
        };
        let mut records = Recorded::default();
        let resumed = resumes.map(|(game, clocks)| {
            assert!(!guest, "a guest's game is not resumed");
            let record = RecordKey::fresh();
            records = Recorded::resumed(record, &game);
            Resumed {
                game,
                seats: [person("ann"), bob.clone()],
                clocks,
                ratings: [None, None],
                code: Some(CODE.into()),
                record,
            }
        });
        let mut people = vec![
            Screen::new(person("ann"), Some(Color::Black)),
            Screen::new(bob, Some(Color::White)),
        ];
        people.extend((0..watchers).map(|i| Screen::new(person(&format!("cy{i}")), None)));
        let fresh = resumed.is_none();
        let links = Links {
            code: CODE.into(),
            recorder: Some(recorder),
            resumed,
            ..Links::default()
        };
        let mut witness = Witness {
            table: open_table(config, links),
            config,
            people,
            jobs,
            records,
            recorded: !guest,
            end: None,
            closed: false,
            down: false,
            slow: false,
            held: Vec::new(),
        };
        if fresh {
            witness.arrive(0).await;
            witness.arrive(1).await;
        }
        witness.settle().await;
        witness
    }

    /// The game's rules and board.
    pub(super) fn game_type(&self) -> GameType {
        self.config.game_type
    }

    /// The game as `person` last heard of it, while they are connected.
    pub(super) fn seen_by(&self, person: usize) -> Option<&AnyGame> {
        let link = self.people[person].link.as_ref()?;
        link.last.as_ref().map(|s| &s.game)
    }

    /// The game as the people connected last heard of it (they agree: [`Witness::settle`] checks it).
    pub(super) fn seen(&self) -> Option<&AnyGame> {
        (0..self.people.len()).find_map(|p| self.seen_by(p))
    }

    /// The question open on `person`'s screen.
    pub(super) fn question(&self, person: usize) -> Option<Question> {
        self.people[person].link.as_ref()?.app.question()
    }

    /// Whether `person` is connected.
    pub(super) fn here(&self, person: usize) -> bool {
        self.people[person].link.is_some()
    }

    /// `person` comes to the table: a player takes their seat (back), a watcher watches. A new connection, with
    /// an app that has heard nothing yet.
    pub(super) async fn arrive(&mut self, person: usize) {
        if self.here(person) || self.closed {
            return;
        }
        let (tx, updates) = mpsc::channel(UPDATES_QUEUE);
        let line = tx.downgrade();
        let screen = &self.people[person];
        let who = screen.who.clone();
        let seat = screen.seat;
        let sent = match seat {
            Some(color) => {
                let (reply, answer) = oneshot::channel();
                let name = who.name.clone();
                let sit = Command::Sit {
                    who,
                    color: None,
                    rating: None,
                    provisional: false,
                    returning: false,
                    updates: tx,
                    reply,
                };
                // A table that ends with the request on its way drops it unanswered.
                let got = match self.table.send(sit).await {
                    true => self.answering(answer).await,
                    false => None,
                };
                if let Some(got) = &got {
                    assert_eq!(*got, Ok(color), "{name} comes back to their seat");
                }
                got.is_some()
            }
            None => self.table.send(Command::Watch { who, updates: tx }).await,
        };
        if !sent {
            return self.gone();
        }
        let table = TableView::new(seat, CODE);
        self.people[person].link = Some(Link {
            updates,
            line,
            app: App::at_table(table, self.config.game_type),
            last: None,
            told_end: false,
            clocks: None,
        });
    }

    /// `person`'s connection goes: a player is away (their seat kept for the grace period), a watcher leaves. When
    /// an earlier connection of theirs went unnoticed, it is that one whose end the server notices now.
    pub(super) async fn leave(&mut self, person: usize) {
        let screen = &mut self.people[person];
        let ended = match screen.unnoticed.is_empty() {
            true => screen.link.take().map(|link| (link.updates, link.line)),
            false => Some(screen.unnoticed.remove(0)),
        };
        let Some((_, line)) = ended.filter(|_| !self.closed) else {
            return;
        };
        let who = screen.who.fingerprint.clone();
        if !self.table.send(Command::Leave { who, line }).await {
            self.gone();
        }
    }

    /// `person`'s connection goes without the server noticing (a network that stops answering), and they connect
    /// again; the first connection's end reaches the table later, as a [`Witness::leave`].
    pub(super) async fn reconnect(&mut self, person: usize) {
        let screen = &mut self.people[person];
        let Some(link) = screen.link.take() else {
            return;
        };
        screen.unnoticed.push((link.updates, link.line));
        self.arrive(person).await;
    }

    /// `person` asks `request` of the table, as their connection would send it (nothing while they are away).
    pub(super) async fn ask(&mut self, person: usize, request: TableRequest) {
        if !self.here(person) || self.closed {
            return;
        }
        let who = self.people[person].who.fingerprint.clone();
        if !self.table.ask(&who, request).await {
            self.gone();
        }
    }

    /// `person` does `action` on their screen; what their app asks of the table is sent.
    pub(super) async fn act(&mut self, person: usize, action: Action) {
        let Some(link) = self.people[person].link.as_mut() else {
            return;
        };
        for effect in link.app.update(action) {
            if let Effect::Table(request) = effect {
                self.ask(person, request).await;
            }
        }
    }

    /// Time passes (the table's clocks, countdowns and wake-ups with it), checked every half second.
    pub(super) async fn wait(&mut self, time: Duration) {
        let step = Duration::from_millis(500);
        let mut left = time;
        while !left.is_zero() {
            let now = left.min(step);
            tokio::time::sleep(now).await;
            left -= now;
            self.settle().await;
        }
    }

    /// Waits until the table has dealt with everything asked of it, takes in what it said, and checks that the
    /// screens and the records agree.
    pub(super) async fn settle(&mut self) {
        // What the screens ask of the table as they take in the news (as a connection sends it), until they
        // ask nothing more.
        for _ in 0..8 {
            if !self.closed {
                // Answered once the table has handled everything sent before; it changes nothing anyone sees.
                let (done, noted) = oneshot::channel();
                let sent = self.table.send(Command::NoteClocks { done }).await;
                if !sent || self.answering(noted).await.is_none() {
                    self.gone();
                }
            }
            self.answer_commits();
            let mut asked = Vec::new();
            let records = (self.recorded && self.records.key.is_some()).then_some(&self.records);
            // What a move may add to its side's clock.
            let earned = match self.config.clock {
                Some(TimeControl::Fischer { increment, .. }) => increment,
                Some(TimeControl::PerMove(step)) => step,
                None => Duration::ZERO,
            };
            for (person, screen) in self.people.iter_mut().enumerate() {
                asked.extend(
                    screen
                        .hear(&mut self.end, records, earned)
                        .into_iter()
                        .map(|r| (person, r)),
                );
            }
            if asked.is_empty() {
                return self.check();
            }
            for (person, request) in asked {
                self.ask(person, request).await;
            }
        }
        panic!("the screens never stop asking");
    }

    /// Waits for `answer` while answering the table's commits, as the records would (the table takes nothing else
    /// while one waits); `None` when the table drops the question unanswered.
    async fn answering<T>(&mut self, mut answer: oneshot::Receiver<T>) -> Option<T> {
        for _ in 0..PATIENCE {
            self.answer_commits();
            match answer.try_recv() {
                Ok(answer) => return Some(answer),
                Err(oneshot::error::TryRecvError::Closed) => return None,
                // Time passes while slow records hold a commit (the table waits for it).
                Err(oneshot::error::TryRecvError::Empty) if !self.held.is_empty() => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(oneshot::error::TryRecvError::Empty) => tokio::task::yield_now().await,
            }
        }
        panic!("the table never answers");
    }

    /// Takes in what the table has sent its recorder: each commit written (or, while the records are down,
    /// refused) and answered, at once or, while they are slow, once its time has come; anything else written in
    /// its turn.
    fn answer_commits(&mut self) {
        while let Ok(job) = self.jobs.try_recv() {
            match job {
                Job::Commit(commit) if self.slow => {
                    Tally::add(&TALLY.slowed);
                    self.held.push((Instant::now() + SLOW, commit));
                }
                Job::Commit(commit) => self.answer(commit),
                job => self.record(job),
            }
        }
        let now = Instant::now();
        while self.held.first().is_some_and(|(due, _)| *due <= now) {
            let (_, commit) = self.held.remove(0);
            self.answer(commit);
        }
    }

    /// Answers `commit` as the records would now: refused while they are down, else written.
    fn answer(&mut self, mut commit: Commit) {
        if self.down {
            Tally::add(&TALLY.refused);
            commit.answer(Err(CommitError::Unwritable));
            return;
        }
        for job in std::mem::take(&mut commit.jobs) {
            self.record(job);
        }
        Tally::add(&TALLY.written);
        commit.answer(Ok(()));
    }

    /// The records are slow from now on (`true`: each commit answered [`SLOW`] after it comes), or quick again
    /// (those held are still answered in their time).
    pub(super) fn records_slow(&mut self, slow: bool) {
        self.slow = slow;
    }

    /// The records cannot be written from now on (`true`), or can again.
    pub(super) fn records_down(&mut self, down: bool) {
        self.down = down;
    }

    /// The server dies: the commit in flight is lost with everything the table would have said after, every
    /// connection drops, and a new table resumes the game from the records (an unfinished game between two
    /// people whose start the records hold), its players away until they come back.
    pub(super) async fn crash(&mut self) {
        if self.closed {
            return;
        }
        Tally::add(&TALLY.crashes);
        while let Ok(job) = self.jobs.try_recv() {
            match job {
                // Never written: lost.
                Job::Commit(_) => {}
                job => self.record(job),
            }
        }
        // Nor are those the slow records held: the unsynced tail.
        self.held.clear();
        for screen in &mut self.people {
            screen.link = None;
            screen.unnoticed.clear();
            screen.displaced.clear();
        }
        // The old table is stopped; what it sends on its way out reaches no recorder.
        let (recorder, jobs) = Recorder::by_hand();
        self.jobs = jobs;
        let _ = self.table.send(Command::Yield).await;
        let resumable = self.recorded && self.records.finishes.is_empty();
        let Some(key) = self.records.key.filter(|_| resumable) else {
            self.closed = true;
            return;
        };
        let game = self
            .records
            .game
            .clone()
            .unwrap_or_else(|| AnyGame::new(self.config.game_type));
        let resumed = Resumed {
            game,
            seats: [self.people[0].who.clone(), self.people[1].who.clone()],
            clocks: self.records.clocks.map(|c| c.map(Duration::from_millis)),
            ratings: [None, None],
            code: Some(CODE.into()),
            record: key,
        };
        let links = Links {
            code: CODE.into(),
            recorder: Some(recorder),
            resumed: Some(resumed),
            ..Links::default()
        };
        self.table = open_table(self.config, links);
    }

    /// A player connects again while their first connection stays open and read: the new one takes the seat,
    /// the old one is told and hears nothing more. (Watchers may watch on two connections.)
    pub(super) async fn twice(&mut self, person: usize) {
        if self.people[person].seat.is_none() {
            return;
        }
        let Some(link) = self.people[person].link.take() else {
            return;
        };
        self.people[person].displaced.push(Displaced {
            updates: link.updates,
            told: false,
        });
        self.arrive(person).await;
    }

    /// The table has ended (checked with what it said before it did, by [`Witness::check`]).
    fn gone(&mut self) {
        self.closed = true;
    }

    /// A job the table sent the recorder, as the records take it.
    fn record(&mut self, job: Job) {
        assert!(
            self.recorded,
            "a game with a guest in it is recorded: {job:?}"
        );
        let players = [0, 1].map(|i| self.people[i].who.fingerprint.clone());
        self.records.take(job, &self.config, &players);
    }

    /// The screens and the records agree about the game and its end.
    fn check(&mut self) {
        let records = &self.records;
        // The game the players' saved games keep says how it ended, the reason too: the records' end is its.
        if let Some(filed) = records.filed.first() {
            let outcome = filed.outcome().expect("a finished game is filed");
            let seen = (outcome, filed.moves().to_vec());
            let end = self.end.get_or_insert_with(|| seen.clone());
            assert_eq!(
                *end, seen,
                "the records keep another end than the screens show"
            );
        }
        match &self.end {
            Some(end) if self.recorded && records.key.is_some() => {
                self.records.check_end(end, self.config.game_type);
            }
            Some(_) => {}
            None => {
                // A game called off before its first move while nobody is at the table ends unseen: there is
                // nobody to tell, and nothing anyone saw to lose. Anyone there would have been shown its end.
                let unseen = records.called_off() && self.people.iter().all(|p| p.link.is_none());
                assert!(
                    records.finishes.is_empty() || unseen,
                    "recorded as over: {records:?}"
                );
            }
        }
        let records = &self.records;
        // The moves recorded (none before the first), when the game is recorded.
        let recorded = match (self.recorded, &records.game) {
            (false, _) => None,
            (true, game) => Some(game.as_ref().map_or(&[][..], AnyGame::moves)),
        };
        for person in self.people.iter().filter(|p| p.link.is_some()) {
            person.check(&self.end, recorded);
        }
        for person in &self.people {
            let untold = person.displaced.iter().filter(|d| !d.told).count();
            assert!(
                untold == 0 || self.closed,
                "{}'s other connection is not told that the seat was taken from elsewhere",
                person.who.name
            );
        }
        if self.closed {
            // A table ends only when nobody is at the table and there is no game to come back to.
            let here: Vec<&str> = self
                .people
                .iter()
                .filter(|p| p.link.is_some())
                .map(|p| p.who.name.as_str())
                .collect();
            assert!(
                here.is_empty(),
                "the table ended with {here:?} at the table"
            );
            let never_began = records.key.is_none() && records.moves.is_empty();
            let never_played = never_began || records.called_off();
            assert!(
                self.end.is_some() || never_played,
                "the table ended with its game unfinished"
            );
        }
    }
}

impl Screen {
    fn new(who: Identity, seat: Option<Color>) -> Screen {
        Screen {
            who,
            seat,
            link: None,
            unnoticed: Vec::new(),
            displaced: Vec::new(),
        }
    }

    /// Takes in what the table has sent, checking that an end once told is never taken back or changed, and that
    /// every state heard is one the `records` (of a recorded game) have held: moves and end; what the screen asks
    /// of the table as it does.
    fn hear(
        &mut self,
        end: &mut Option<Ended>,
        records: Option<&Recorded>,
        earned: Duration,
    ) -> Vec<TableRequest> {
        let name = &self.who.name;
        for displaced in &mut self.displaced {
            while let Ok(update) = displaced.updates.try_recv() {
                assert!(
                    !displaced.told,
                    "{name}'s displaced connection hears {update:?} after it was told"
                );
                displaced.told = matches!(update, Update::TakenOver);
                if displaced.told {
                    Tally::add(&TALLY.taken_over);
                }
            }
        }
        // A displaced connection is told once the table has seated the new one; then the table lets it go.
        self.displaced
            .retain(|d| !(d.told && d.updates.is_closed()));
        let mut asked = Vec::new();
        let Some(link) = self.link.as_mut() else {
            return asked;
        };
        let mut heard = 0;
        loop {
            let update = match link.updates.try_recv() {
                Ok(update) => update,
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => {
                    // The table has ended, and dropped the way to this person: a watcher (or player) who was
                    // on their way when it ended never arrived, anyone else was left at the table.
                    assert!(
                        link.last.is_none(),
                        "the table ended with {name} at the table"
                    );
                    self.link = None;
                    return asked;
                }
            };
            heard += 1;
            match &update {
                Update::State(state) => {
                    Tally::add(&TALLY.states);
                    if let Some(records) = records {
                        let moves = state.game.moves();
                        assert!(
                            records.ever_held(moves),
                            "{name} is shown {moves:?}, which the records never held: {:?}",
                            records.moves
                        );
                        assert!(
                            state.game.outcome().is_none() || !records.finishes.is_empty(),
                            "{name} is shown an end the records do not hold"
                        );
                    }
                    if let Some(outcome) = state.game.outcome() {
                        let told = (outcome, state.game.moves().to_vec());
                        let first = end.get_or_insert_with(|| told.clone());
                        assert_eq!(*first, told, "{name} is told another end");
                        assert_eq!(state.running, None, "a clock runs after the end");
                        link.told_end = true;
                    } else {
                        assert!(!link.told_end, "{name} is told the ended game goes on");
                    }
                    if let Some(clocks) = state.clocks {
                        link.clocks_heard(name, clocks, state.game.len(), earned);
                    }
                    link.last = Some(state.clone());
                }
                Update::Clocks(clocks) => {
                    let plies = link.last.as_ref().map_or(0, |s| s.game.len());
                    link.clocks_heard(name, *clocks, plies, earned);
                }
                Update::TakenOver => panic!("{name}'s only connection is told it was taken over"),
                Update::Offer(kind) => assert!(
                    !link.told_end || *kind == OfferKind::Rematch,
                    "{name} is offered {} after the end",
                    kind.words()
                ),
                _ => {}
            }
            for effect in link.app.update(Action::Table(update)) {
                if let Effect::Table(request) = effect {
                    asked.push(request);
                }
            }
        }
        // Every update was seen: none was dropped for a full queue.
        assert!(heard < UPDATES_QUEUE, "{name}'s queue filled up");
        asked
    }

    /// What this connection shows agrees with the end (if any) and with the moves recorded (when recorded).
    fn check(&self, end: &Option<Ended>, recorded: Option<&[Move]>) {
        let name = &self.who.name;
        let link = self.link.as_ref().expect("connected");
        let state = link
            .last
            .as_ref()
            .unwrap_or_else(|| panic!("{name} is told nothing"));
        let (game, shown) = (&state.game, link.app.game());
        assert_eq!(
            shown.moves(),
            game.moves(),
            "{name}'s screen and table differ"
        );
        assert_eq!(
            shown.outcome(),
            game.outcome(),
            "{name}'s screen and table differ"
        );
        if let Some(recorded) = recorded {
            let moves = game.moves();
            let same = same_moves(moves, recorded);
            assert!(same, "{name} is shown {moves:?}, recorded {recorded:?}");
        }
        if let Some(seat) = self.seat {
            let away = state.seats[seat.index()].as_ref().and_then(|s| s.away);
            assert_eq!(away, None, "{name} is at the table but shown away");
        }
        match end {
            Some((outcome, moves)) => {
                assert_eq!(game.outcome(), Some(*outcome), "{name} is not told the end");
                assert_eq!(game.moves(), moves.as_slice(), "{name} is told other moves");
                assert_eq!(link.app.mode(), Mode::Over(*outcome), "{name}'s screen");
                let open = link.app.question();
                assert!(
                    !matches!(open, Some(Question::Offered(kind)) if kind != OfferKind::Rematch),
                    "{name}'s screen asks {open:?} after the end"
                );
            }
            None => assert_eq!(game.outcome(), None),
        }
    }
}
