//! What a room has told the people at its table and what it has sent to the records, kept side by side for the
//! property test of `interleavings.rs`, with the checks that they agree.
//!
//! Each person connected has a screen: an app at the table fed every update the room sends them, as a
//! connection feeds its session (what the app asks of the table in return is sent, as a connection sends it).
//! The records are the jobs the room sends its recorder, played into the moves, the result and the filed game
//! the records would hold (the store itself is left out: the recorder's own tests cover it). Whenever the room
//! has dealt with everything asked of it, the screens and the records are compared.

use std::sync::Arc;
use std::sync::mpsc as std_mpsc;

use super::recorded::{Recorded, same_moves};
use super::*;
use crate::app::{Action, App, Effect, Mode, Question, Table};
use crate::serve::recorder::{Job, RecordKey, Recorder};

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
    /// room), oldest first: nothing reads what reaches them.
    unnoticed: Vec<(mpsc::Receiver<Update>, Line)>,
}

/// A connection to the table.
struct Link {
    updates: mpsc::Receiver<Update>,
    /// Which connection this is, for leaving.
    line: Line,
    /// The app the connection shows, fed every update.
    app: App,
    /// The last state the room sent.
    last: Option<Arc<Snapshot>>,
    /// Whether a state has told this connection the game is over.
    told_end: bool,
}

/// A room, the people who come and go at its table, and its records.
pub(super) struct Witness {
    room: RoomHandle,
    config: RoomConfig,
    /// Black's and White's players, then the watchers.
    people: Vec<Screen>,
    jobs: std_mpsc::Receiver<Job>,
    records: Recorded,
    /// Whether the game is recorded: no guest plays in it.
    recorded: bool,
    end: Option<Ended>,
    /// Whether the room has ended (it takes no more commands).
    closed: bool,
}

impl Witness {
    /// A room with `watchers` people who may come to watch, and Bob a guest when `guest` (a guest's games are not
    /// recorded). Both players are seated at a new game; or, when the room `resumes` a game from the records
    /// (with the clocks as they were), both are away until they come back.
    pub(super) async fn open(
        config: RoomConfig,
        guest: bool,
        watchers: usize,
        resumes: Option<(AnyGame, Option<[Duration; 2]>)>,
    ) -> Witness {
        let (recorder, jobs) = Recorder::capture();
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
            room: open_room(config, links),
            config,
            people,
            jobs,
            records,
            recorded: !guest,
            end: None,
            closed: false,
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
                let sit = Command::Sit {
                    who,
                    color: None,
                    rating: None,
                    updates: tx,
                    reply,
                };
                // A room that ends with the request on its way drops it unanswered.
                let got = match self.room.send(sit).await {
                    true => answer.await.ok(),
                    false => None,
                };
                if let Some(got) = &got {
                    assert_eq!(
                        *got,
                        Ok(color),
                        "{} comes back to their seat",
                        screen.who.name
                    );
                }
                got.is_some()
            }
            None => self.room.send(Command::Watch { who, updates: tx }).await,
        };
        if !sent {
            return self.gone();
        }
        let table = Table::new(seat, CODE);
        self.people[person].link = Some(Link {
            updates,
            line,
            app: App::at_table(table, self.config.game_type),
            last: None,
            told_end: false,
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
        if !self.room.send(Command::Leave { who, line }).await {
            self.gone();
        }
    }

    /// `person`'s connection goes without the server noticing (a network that stops answering), and they connect
    /// again; the first connection's end reaches the room later, as a [`Witness::leave`].
    pub(super) async fn reconnect(&mut self, person: usize) {
        let screen = &mut self.people[person];
        let Some(link) = screen.link.take() else {
            return;
        };
        screen.unnoticed.push((link.updates, link.line));
        self.arrive(person).await;
    }

    /// `person` asks `request` of the room, as their connection would send it (nothing while they are away).
    pub(super) async fn ask(&mut self, person: usize, request: TableRequest) {
        if !self.here(person) || self.closed {
            return;
        }
        let who = self.people[person].who.fingerprint.clone();
        if !self.room.ask(&who, request).await {
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

    /// Time passes (the room's clocks, countdowns and wake-ups with it), checked every half second.
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

    /// Waits until the room has dealt with everything asked of it, takes in what it said, and checks that the
    /// screens and the records agree.
    pub(super) async fn settle(&mut self) {
        // What the screens ask of the table as they take in the news (as a connection sends it), until they
        // ask nothing more.
        for _ in 0..8 {
            if !self.closed {
                // Answered once the room has handled everything sent before; it changes nothing anyone sees.
                let (done, noted) = oneshot::channel();
                if !self.room.send(Command::NoteClocks { done }).await || noted.await.is_err() {
                    self.gone();
                }
            }
            while let Ok(job) = self.jobs.try_recv() {
                self.record(job);
            }
            let mut asked = Vec::new();
            for (person, screen) in self.people.iter_mut().enumerate() {
                asked.extend(screen.hear(&mut self.end).into_iter().map(|r| (person, r)));
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

    /// The room has ended (checked with what it said before it did, by [`Witness::check`]).
    fn gone(&mut self) {
        self.closed = true;
    }

    /// A job the room sent the recorder, as the records take it.
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
            None => assert!(records.finishes.is_empty(), "recorded as over: {records:?}"),
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
        if self.closed {
            // A room ends only when nobody is at the table and there is no game to come back to.
            let here: Vec<&str> = self
                .people
                .iter()
                .filter(|p| p.link.is_some())
                .map(|p| p.who.name.as_str())
                .collect();
            assert!(here.is_empty(), "the room ended with {here:?} at the table");
            let never_began = records.key.is_none() && records.moves.is_empty();
            assert!(
                self.end.is_some() || never_began,
                "the room ended with its game unfinished"
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
        }
    }

    /// Takes in what the room has sent, checking that an end once told is never taken back or changed; what the
    /// screen asks of the table as it does.
    fn hear(&mut self, end: &mut Option<Ended>) -> Vec<TableRequest> {
        let mut asked = Vec::new();
        let Some(link) = self.link.as_mut() else {
            return asked;
        };
        let name = &self.who.name;
        let mut heard = 0;
        loop {
            let update = match link.updates.try_recv() {
                Ok(update) => update,
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => {
                    // The room has ended, and dropped the way to this person: a watcher (or player) who was
                    // on their way when it ended never arrived, anyone else was left at the table.
                    assert!(
                        link.last.is_none(),
                        "the room ended with {name} at the table"
                    );
                    self.link = None;
                    return asked;
                }
            };
            heard += 1;
            match &update {
                Update::State(state) => {
                    if let Some(outcome) = state.game.outcome() {
                        let told = (outcome, state.game.moves().to_vec());
                        let first = end.get_or_insert_with(|| told.clone());
                        assert_eq!(*first, told, "{name} is told another end");
                        assert_eq!(state.running, None, "a clock runs after the end");
                        link.told_end = true;
                    } else {
                        assert!(!link.told_end, "{name} is told the ended game goes on");
                    }
                    link.last = Some(state.clone());
                }
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
