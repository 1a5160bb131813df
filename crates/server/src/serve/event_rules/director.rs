//! The director of one event: what happens when players join, go away, come back, finish games, and as time
//! passes. Pure like the rest of the module: the server's task feeds it [`DirectorInput`]s with the time, keeps the
//! [`DirectorAction`]s it answers in the records and starts the games it pairs.
//!
//! - An **arena** pairs its free players (present, not playing, not withdrawn) as soon as two can meet
//!   ([`arena::pair_free`]); a player away is not paired. It stops pairing when its time is up, and is over once
//!   the games under way have ended (their results still count).
//! - A **Swiss** event pairs a round when it starts and each next round when every game of the one before has
//!   ended. A player away when paired is paired all the same (their game is lost by the table's grace-period
//!   rules); a player who lost a round's game by being away is withdrawn after it, and is paired again only
//!   if they come back. It is over after its last round.
//!
//! Entrants are seeded in the order they joined.

use std::collections::{HashMap, HashSet};

use super::arena::{self, ArenaPlayer};
use super::standings::{self, StandingsRow};
use super::swiss::pair_round;
use super::{Entrant, GameResult, Pairing, Round, RoundBoard};
use crate::serve::ids::Fingerprint;
use crate::serve::records::{EventChange, EventKind, EventRecord, EventSpec, PairingRecord, Stage};

/// The most entrants one event takes (bounds its memory and the pairing's work).
pub const MAX_ENTRANTS: usize = 1000;

/// The most rounds a Swiss event plays, whatever it was set up with (a round number read back from the records
/// beyond it is ignored rather than allocated for).
pub const MAX_ROUNDS: u32 = 100;

/// What happens to an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectorInput {
    /// Someone enters (or comes back after withdrawing).
    Join {
        /// Who.
        who: Fingerprint,
        /// Their name.
        name: String,
    },
    /// An entrant's connection has gone.
    Away(Fingerprint),
    /// An entrant is connected again.
    Back(Fingerprint),
    /// An entrant withdraws.
    Withdraw(Fingerprint),
    /// A game of the event has ended.
    GameOver {
        /// The pairing's round (Swiss) or number (arena).
        round: u32,
        /// Its board.
        board: u32,
        /// How it ended.
        result: GameResult,
        /// Whether it was lost by a player who was away (their time or grace period ran out while they were).
        forfeit: bool,
    },
    /// Time passes (the director checks the start and the end).
    Tick,
}

/// What the director asks of the server: each is kept in the records ([`DirectorAction::change`]), and a pairing's game
/// is started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectorAction {
    /// A new entrant.
    Entered {
        /// Their number.
        entrant: Entrant,
        /// Who.
        who: Fingerprint,
        /// Their name.
        name: String,
    },
    /// An entrant withdrawn or back.
    Withdrawn {
        /// Who.
        entrant: Entrant,
        /// Withdrawn, or back.
        withdrawn: bool,
    },
    /// A game to start.
    Paired(PairingRecord),
    /// A bye.
    Bye {
        /// The round.
        round: u32,
        /// Who.
        entrant: Entrant,
    },
    /// A result to keep.
    Result {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// How it ended.
        result: GameResult,
    },
    /// The event moved on.
    Stage(Stage),
}

impl DirectorAction {
    /// The change to keep in the records.
    pub fn change(&self) -> EventChange<'_> {
        match self {
            DirectorAction::Entered { entrant, who, name } => EventChange::Entered {
                entrant: *entrant,
                fingerprint: who,
                name,
            },
            DirectorAction::Withdrawn { entrant, withdrawn } => EventChange::Withdrawn {
                entrant: *entrant,
                withdrawn: *withdrawn,
            },
            DirectorAction::Paired(p) => EventChange::Paired(p),
            DirectorAction::Bye { round, entrant } => EventChange::Bye {
                round: *round,
                entrant: *entrant,
            },
            DirectorAction::Result {
                round,
                board,
                result,
            } => EventChange::Result {
                round: *round,
                board: *board,
                result: *result,
            },
            DirectorAction::Stage(stage) => EventChange::Stage(*stage),
        }
    }
}

#[derive(Clone, Debug)]
struct Entry {
    who: Fingerprint,
    name: String,
    withdrawn: bool,
    away: bool,
    playing: bool,
}

/// One event as it runs.
#[derive(Clone, Debug)]
pub struct Director {
    spec: EventSpec,
    stage: Stage,
    entries: Vec<Entry>,
    /// Every pairing made, in order.
    pairings: Vec<PairingRecord>,
    /// An arena's players, by entrant.
    arena: Vec<ArenaPlayer>,
    /// A Swiss event's rounds.
    rounds: Vec<Round>,
    /// Players seated at a game elsewhere (another event's board), as the server last said: an arena does not
    /// pair them until they are free, so that no one plays two events' games at once. Not kept: the server
    /// says it again before each step.
    busy: HashSet<Fingerprint>,
    /// Pairs of players one of whom has blocked the other (each pair in both orders), as the server last read
    /// them: never paired in an arena, kept apart in a Swiss round as far as it can be paired. Not kept either.
    blocked: HashMap<Fingerprint, HashSet<Fingerprint>>,
}

impl Director {
    /// A new event, waiting for its start.
    pub fn new(spec: EventSpec) -> Director {
        Director {
            spec,
            stage: Stage::Waiting,
            entries: Vec::new(),
            pairings: Vec::new(),
            arena: Vec::new(),
            rounds: Vec::new(),
            busy: HashSet::new(),
            blocked: HashMap::new(),
        }
    }

    /// The players seated at a game elsewhere just now (see [`Director`]'s `busy`): an arena pairs none of them.
    pub fn set_busy(&mut self, busy: HashSet<Fingerprint>) {
        self.busy = busy;
    }

    /// The blocks between the event's players (see [`Director`]'s `blocked`), as (who blocked, whom).
    pub fn set_blocked(&mut self, blocks: impl IntoIterator<Item = (Fingerprint, Fingerprint)>) {
        self.blocked.clear();
        for (a, b) in blocks {
            self.blocked.entry(a.clone()).or_default().insert(b.clone());
            self.blocked.entry(b).or_default().insert(a);
        }
    }

    /// Whether two entrants may be paired: neither has blocked the other.
    fn may_meet(&self, a: Entrant, b: Entrant) -> bool {
        match (self.who(a), self.who(b)) {
            (Some(a), Some(b)) => !self.blocked.get(a).is_some_and(|them| them.contains(b)),
            _ => true,
        }
    }

    /// Every player of the event, by key (to read the blocks between them).
    pub fn players(&self) -> Vec<Fingerprint> {
        self.entries.iter().map(|e| e.who.clone()).collect()
    }

    /// An event as the records kept it (after a restart): its entrants all away until they come back, its games
    /// under way still to end.
    pub fn restore(record: &EventRecord) -> Director {
        let mut director = Director::new(record.spec.clone());
        director.stage = record.stage;
        for e in &record.entries {
            director.entries.push(Entry {
                who: e.fingerprint.clone(),
                name: e.name.clone(),
                withdrawn: e.withdrawn,
                away: true,
                playing: false,
            });
            director.arena.push(ArenaPlayer::new(e.entrant));
        }
        for p in &record.pairings {
            director.note_pairing(p.clone());
            if let Some(result) = p.result {
                director.note_result(p.round, p.board, result);
            }
        }
        for &(round, entrant) in &record.byes {
            if let Some(r) = director.rounds.get_mut(round.saturating_sub(1) as usize) {
                r.bye = Some(entrant);
            }
        }
        director
    }

    /// How it was set up.
    pub fn spec(&self) -> &EventSpec {
        &self.spec
    }

    /// Where it stands.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// An entrant's name.
    pub fn name(&self, entrant: Entrant) -> Option<&str> {
        self.entries.get(entrant as usize).map(|e| e.name.as_str())
    }

    /// An entrant's key.
    pub fn who(&self, entrant: Entrant) -> Option<&Fingerprint> {
        self.entries.get(entrant as usize).map(|e| &e.who)
    }

    /// Whether an entrant is withdrawn.
    pub fn withdrawn(&self, entrant: Entrant) -> bool {
        self.entries
            .get(entrant as usize)
            .is_some_and(|e| e.withdrawn)
    }

    /// How many have entered.
    pub fn entrants(&self) -> usize {
        self.entries.len()
    }

    /// An entrant's number.
    pub fn entrant(&self, who: &Fingerprint) -> Option<Entrant> {
        self.entries
            .iter()
            .position(|e| &e.who == who)
            .map(|i| i as Entrant)
    }

    /// Every pairing so far, in order.
    pub fn pairings(&self) -> &[PairingRecord] {
        &self.pairings
    }

    /// A Swiss event's rounds so far.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// An arena's players, by entrant.
    pub fn arena_players(&self) -> &[ArenaPlayer] {
        &self.arena
    }

    /// A Swiss event's table.
    pub fn swiss_table(&self) -> Vec<StandingsRow> {
        standings::table(self.entries.len() as u32, &self.rounds)
    }

    /// An arena's table, best first.
    pub fn arena_table(&self) -> Vec<&ArenaPlayer> {
        let mut table: Vec<&ArenaPlayer> = self.arena.iter().collect();
        table.sort_by(|a, b| arena::rank(a, b));
        table
    }

    /// When an arena's pairing stops, in seconds since the epoch.
    pub fn ends(&self) -> i64 {
        self.spec.starts + i64::from(self.spec.seconds)
    }

    /// Handles `event` at `now` (seconds since the epoch); what the server is to do, in order.
    pub fn handle(&mut self, event: DirectorInput, now: i64) -> Vec<DirectorAction> {
        let mut actions = Vec::new();
        match event {
            DirectorInput::Join { who, name } => self.join(who, name, &mut actions),
            DirectorInput::Away(who) => self.set(&who, |e| e.away = true),
            DirectorInput::Back(who) => self.set(&who, |e| e.away = false),
            DirectorInput::Withdraw(who) => {
                if let Some(entrant) = self.entrant(&who) {
                    self.withdraw(entrant, true, &mut actions);
                }
            }
            DirectorInput::GameOver {
                round,
                board,
                result,
                forfeit,
            } => self.game_over(round, board, result, forfeit, &mut actions),
            DirectorInput::Tick => {}
        }
        self.advance(now, &mut actions);
        actions
    }

    fn set(&mut self, who: &Fingerprint, change: impl FnOnce(&mut Entry)) {
        if let Some(entry) = self.entries.iter_mut().find(|e| &e.who == who) {
            change(entry);
        }
    }

    fn join(&mut self, who: Fingerprint, name: String, actions: &mut Vec<DirectorAction>) {
        if self.stage == Stage::Finished {
            return;
        }
        if let Some(entrant) = self.entrant(&who) {
            self.set(&who, |e| e.away = false);
            if self.entries[entrant as usize].withdrawn {
                self.withdraw(entrant, false, actions);
            }
            return;
        }
        if self.entries.len() >= MAX_ENTRANTS {
            return;
        }
        let entrant = self.entries.len() as Entrant;
        self.entries.push(Entry {
            who: who.clone(),
            name: name.clone(),
            withdrawn: false,
            away: false,
            playing: false,
        });
        self.arena.push(ArenaPlayer::new(entrant));
        actions.push(DirectorAction::Entered { entrant, who, name });
    }

    fn withdraw(&mut self, entrant: Entrant, withdrawn: bool, actions: &mut Vec<DirectorAction>) {
        if let Some(entry) = self.entries.get_mut(entrant as usize)
            && entry.withdrawn != withdrawn
        {
            entry.withdrawn = withdrawn;
            actions.push(DirectorAction::Withdrawn { entrant, withdrawn });
        }
    }

    fn note_pairing(&mut self, p: PairingRecord) {
        for who in [p.pairing.first, p.pairing.second] {
            if let Some(e) = self.entries.get_mut(who as usize) {
                e.playing = p.result.is_none();
            }
        }
        if self.spec.kind == EventKind::Swiss {
            if p.round == 0 || p.round > MAX_ROUNDS {
                return;
            }
            let index = p.round as usize - 1;
            while self.rounds.len() <= index {
                self.rounds.push(Round::default());
            }
            self.rounds[index].boards.push(RoundBoard {
                pairing: p.pairing,
                result: None,
            });
        }
        self.pairings.push(p);
    }

    /// Notes a result; the pairing it ended, if it was under way.
    fn note_result(&mut self, round: u32, board: u32, result: GameResult) -> Option<Pairing> {
        let kind = self.spec.kind;
        let p = self
            .pairings
            .iter_mut()
            .find(|p| p.round == round && p.board == board)?;
        let pairing = p.pairing;
        p.result = Some(result);
        for who in [pairing.first, pairing.second] {
            if let Some(e) = self.entries.get_mut(who as usize) {
                e.playing = false;
            }
        }
        match kind {
            EventKind::Arena => {
                for who in [pairing.first, pairing.second] {
                    let (opponent, colour) = pairing.seen_by(who);
                    if let Some(player) = self.arena.get_mut(who as usize) {
                        player.record(opponent, colour, pairing.score_of(who, result));
                    }
                }
            }
            EventKind::Swiss => {
                let r = self.rounds.get_mut(round.saturating_sub(1) as usize)?;
                let b = r.boards.get_mut(board as usize)?;
                b.result = Some(result);
            }
        }
        Some(pairing)
    }

    fn game_over(
        &mut self,
        round: u32,
        board: u32,
        result: GameResult,
        forfeit: bool,
        actions: &mut Vec<DirectorAction>,
    ) {
        let known = self
            .pairings
            .iter()
            .any(|p| p.round == round && p.board == board && p.result.is_none());
        if !known {
            return;
        }
        let Some(pairing) = self.note_result(round, board, result) else {
            return;
        };
        actions.push(DirectorAction::Result {
            round,
            board,
            result,
        });
        // Swiss: a game lost while away is a missed round; its loser is withdrawn until they come back.
        if forfeit && self.spec.kind == EventKind::Swiss {
            let loser = match result {
                GameResult::FirstWins => Some(pairing.second),
                GameResult::SecondWins => Some(pairing.first),
                GameResult::Draw => None,
            };
            if let Some(loser) =
                loser.filter(|&l| self.entries.get(l as usize).is_some_and(|e| e.away))
            {
                self.withdraw(loser, true, actions);
            }
        }
    }

    /// Starts, pairs and ends the event as the time and its state allow.
    fn advance(&mut self, now: i64, actions: &mut Vec<DirectorAction>) {
        if self.stage == Stage::Waiting && now >= self.spec.starts {
            self.stage = Stage::Running;
            actions.push(DirectorAction::Stage(Stage::Running));
        }
        if self.stage != Stage::Running {
            return;
        }
        let under_way = self.pairings.iter().any(|p| p.result.is_none());
        match self.spec.kind {
            EventKind::Arena => {
                if now < self.ends() {
                    self.pair_arena(actions);
                } else if !under_way {
                    self.stage = Stage::Finished;
                    actions.push(DirectorAction::Stage(Stage::Finished));
                }
            }
            EventKind::Swiss => {
                if under_way {
                    return;
                }
                if self.rounds.len() as u32 >= self.spec.rounds.min(MAX_ROUNDS) {
                    self.stage = Stage::Finished;
                    actions.push(DirectorAction::Stage(Stage::Finished));
                    return;
                }
                let active: Vec<Entrant> = (0..self.entries.len() as Entrant)
                    .filter(|&e| !self.entries[e as usize].withdrawn)
                    .collect();
                if active.len() < 2 {
                    // Nobody left to play: the event ends where it stands.
                    self.stage = Stage::Finished;
                    actions.push(DirectorAction::Stage(Stage::Finished));
                    return;
                }
                // The blocked pairs among the active players (few: looked up from each blocker).
                let avoid: Vec<(Entrant, Entrant)> = self
                    .blocked
                    .iter()
                    .flat_map(|(a, them)| them.iter().map(move |b| (a, b)))
                    .filter_map(|(a, b)| Some((self.entrant(a)?, self.entrant(b)?)))
                    .filter(|&(a, b)| a < b && active.contains(&a) && active.contains(&b))
                    .collect();
                let round = pair_round(self.entries.len() as u32, &self.rounds, &active, &avoid);
                let number = self.rounds.len() as u32 + 1;
                let bye = round.bye;
                self.rounds.push(Round {
                    boards: Vec::new(),
                    bye,
                });
                for (board, b) in round.boards.iter().enumerate() {
                    let record = PairingRecord {
                        round: number,
                        board: board as u32,
                        pairing: b.pairing,
                        result: None,
                        game: None,
                    };
                    self.note_pairing(record.clone());
                    actions.push(DirectorAction::Paired(record));
                }
                if let Some(entrant) = bye {
                    actions.push(DirectorAction::Bye {
                        round: number,
                        entrant,
                    });
                }
            }
        }
    }

    fn pair_arena(&mut self, actions: &mut Vec<DirectorAction>) {
        let free: Vec<ArenaPlayer> = self
            .arena
            .iter()
            .filter(|p| {
                self.entries.get(p.entrant as usize).is_some_and(|e| {
                    !e.away && !e.playing && !e.withdrawn && !self.busy.contains(&e.who)
                })
            })
            .cloned()
            .collect();
        for pairing in arena::pair_free(&free, |a, b| self.may_meet(a, b)) {
            let record = PairingRecord {
                round: self.pairings.len() as u32,
                board: 0,
                pairing,
                result: None,
                game: None,
            };
            self.note_pairing(record.clone());
            actions.push(DirectorAction::Paired(record));
        }
    }
}

/// The PDN tags a tournament game carries: `[Event]` is the event's name, `[Round]` its round (Swiss) or the
/// game's number in the arena (from 1).
pub fn event_tags(spec: &EventSpec, round: u32) -> [(&'static str, String); 2] {
    let round = match spec.kind {
        EventKind::Swiss => round,
        EventKind::Arena => round + 1,
    };
    [("Event", spec.name.clone()), ("Round", round.to_string())]
}
