//! One running tournament's task: it owns the event's [`Director`], feeds it the players who come and go, the
//! results its rooms report and the time, and acts on what it answers: each change goes to the records, each
//! pairing opens an ordinary room with both players seated (away until they arrive), and the players present
//! are sent to their boards. Everyone who looks at the event sees its table through a [`watch`] channel.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::{mpsc, watch};

use super::{Ask, News, View};
use crate::game::TimeControl;
use crate::rules::GameType;
use crate::serve::identity::Identity;
use crate::serve::ids::{Fingerprint, RoomCode};
use crate::serve::recorder::{Job, Recorder};
use crate::serve::records::{Kind, PairingRecord, Stage};
use crate::serve::room::{GameEnded, RoomConfig, TournamentGame, variant_named};
use crate::serve::tables::Tables;
use crate::serve::tournament::director::{Action, Director, Event, event_tags};
use crate::serve::tournament::standings::show_half;
use crate::serve::tournament::table::render;
use crate::serve::tournament::{Colour, Entrant, GameResult};

/// How often the director looks at the time (an arena's end, an event's start).
const TICK: Duration = Duration::from_millis(500);

/// The seconds since the Unix epoch now.
pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// What the task works with besides its director.
pub(super) struct Running {
    pub director: Director,
    pub tables: Arc<Tables>,
    pub recorder: Recorder,
    pub grace: Duration,
    /// The rooms of the pairings under way, by (round, board).
    pub boards: HashMap<(u32, u32), RoomCode>,
    pub view: watch::Sender<Arc<View>>,
}

struct Task {
    run: Running,
    /// The event as everyone sees it (for its games' rooms, which show its leaders to their watchers).
    view: watch::Receiver<Arc<View>>,
    /// The connections of the players looking at the event, by key: where their boards are sent.
    present: HashMap<Fingerprint, mpsc::Sender<News>>,
    results: mpsc::UnboundedSender<GameEnded>,
}

/// Runs the event until it is over (then its table stays in the records) or the server stops. The results
/// already waiting are taken first, then pairings under way with no room (a restart that found no game for them)
/// are given one.
pub(super) async fn run(
    run: Running,
    mut asks: mpsc::Receiver<Ask>,
    results: (
        mpsc::UnboundedSender<GameEnded>,
        mpsc::UnboundedReceiver<GameEnded>,
    ),
    mut shutdown: watch::Receiver<bool>,
) {
    let (results, mut ended) = results;
    let view = run.view.subscribe();
    let mut task = Task {
        view,
        run,
        present: HashMap::new(),
        results,
    };
    // The results the records hold that the event had not heard (games that ended while it was not running)
    // first: a pairing already played is not given a new room.
    while let Ok(game) = ended.try_recv() {
        task.game_over(game);
    }
    let unseated: Vec<PairingRecord> = task
        .run
        .director
        .pairings()
        .iter()
        .filter(|p| p.result.is_none() && !task.run.boards.contains_key(&(p.round, p.board)))
        .cloned()
        .collect();
    for pairing in unseated {
        task.open_board(&pairing);
    }
    task.publish();
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while task.run.director.stage() != Stage::Finished {
        tokio::select! {
            ask = asks.recv() => match ask {
                Some(ask) => task.ask(ask),
                None => break,
            },
            Some(game) = ended.recv() => task.game_over(game),
            _ = tick.tick() => task.handle(Event::Tick),
            _ = shutdown.changed() => break,
        }
    }
    task.publish();
}

impl Task {
    fn ask(&mut self, ask: Ask) {
        match ask {
            Ask::Enter {
                who,
                news,
                taken_in,
            } => {
                let fingerprint = who.fingerprint.clone();
                self.present.insert(fingerprint.clone(), news);
                self.handle(Event::Join {
                    who: who.fingerprint,
                    name: who.name,
                });
                // The player may have gone already; nothing to tell then.
                let _ = taken_in.send(());
                // Back while a game of theirs is under way: to it at once.
                if let Some(code) = self.board_of(&fingerprint) {
                    self.tell(&fingerprint, News::Board(code));
                }
            }
            Ask::Leave { who, news } => {
                // Only the connection that leaves: the player may be back on a new one already.
                let this_one = self
                    .present
                    .get(&who)
                    .is_some_and(|held| news.upgrade().is_some_and(|n| n.same_channel(held)));
                if this_one {
                    self.present.remove(&who);
                    self.handle(Event::Away(who));
                }
            }
            Ask::Withdraw(who) => {
                self.present.remove(&who);
                self.handle(Event::Withdraw(who));
            }
        }
    }

    fn game_over(&mut self, game: GameEnded) {
        let pairing = self
            .run
            .director
            .pairings()
            .iter()
            .find(|p| p.round == game.round && p.board == game.board)
            .map(|p| p.pairing);
        self.run.boards.remove(&(game.round, game.board));
        self.handle(Event::GameOver {
            round: game.round,
            board: game.board,
            result: game.result,
            forfeit: game.forfeit,
        });
        // Neither came: a Swiss event withdraws both (each is back when they come again).
        if game.forfeit
            && game.result == GameResult::Draw
            && self.run.director.spec().kind == Kind::Swiss
            && let Some(pairing) = pairing
        {
            for entrant in [pairing.first, pairing.second] {
                if let Some(who) = self.run.director.who(entrant).cloned()
                    && !self.present.contains_key(&who)
                {
                    self.handle(Event::Withdraw(who));
                }
            }
        }
    }

    /// Feeds the director and acts on its answer.
    fn handle(&mut self, event: Event) {
        let ticked = matches!(event, Event::Tick);
        let actions = self.run.director.handle(event, unix_now());
        if ticked && actions.is_empty() {
            return;
        }
        for action in actions {
            // The pairing is recorded before its room opens: the room records its game's start against it,
            // and the records take jobs in order (the other way round, that link was lost whenever the room's
            // task ran first).
            let paired = match &action {
                Action::Paired(pairing) => Some(pairing.clone()),
                _ => None,
            };
            self.run.recorder.send(Job::Tournament {
                event: self.run.director.spec().code.clone(),
                action,
            });
            if let Some(pairing) = paired {
                self.open_board(&pairing);
            }
        }
        self.publish();
    }

    /// Opens the room of `pairing`, both players seated away until they arrive, and sends those present there.
    fn open_board(&mut self, pairing: &PairingRecord) {
        let spec = self.run.director.spec();
        let game_type = match variant_named(&spec.variant, None) {
            Ok(variant) => GameType::standard(variant),
            Err(why) => {
                tracing::error!(event = %spec.code, %why, "a tournament's variant is not known");
                return;
            }
        };
        let clock = spec.clock.parse::<TimeControl>().ok();
        let config = RoomConfig {
            game_type,
            clock,
            grace: self.run.grace,
            rated: spec.rated,
            private: false,
        };
        let identity = |entrant: Entrant| {
            Some(Identity {
                fingerprint: self.run.director.who(entrant)?.clone(),
                name: self.run.director.name(entrant)?.to_string(),
            })
        };
        let (Some(first), Some(second)) = (
            identity(pairing.pairing.first),
            identity(pairing.pairing.second),
        ) else {
            return;
        };
        // The seats go Black, White; the side that moves first is the variant's.
        let seats = match game_type.variant.first_to_move() {
            crate::rules::Color::Black => [first, second],
            crate::rules::Color::White => [second, first],
        };
        let link = TournamentGame {
            event: spec.code.clone(),
            round: pairing.round,
            board: pairing.board,
            tags: event_tags(spec, pairing.round),
            results: self.results.clone(),
            view: self.view.clone(),
        };
        let Some((code, _)) = self.run.tables.open_tournament(config, seats.clone(), link) else {
            tracing::error!(event = %spec.code, "no code is free for a tournament's game");
            return;
        };
        self.run
            .boards
            .insert((pairing.round, pairing.board), code.clone());
        for who in seats {
            self.tell(&who.fingerprint, News::Board(code.clone()));
        }
    }

    /// The room of `who`'s game under way, if they have one.
    fn board_of(&self, who: &Fingerprint) -> Option<RoomCode> {
        let entrant = self.run.director.entrant(who)?;
        self.run
            .director
            .pairings()
            .iter()
            .filter(|p| p.result.is_none() && p.pairing.has(entrant))
            .find_map(|p| self.run.boards.get(&(p.round, p.board)).cloned())
    }

    fn tell(&mut self, who: &Fingerprint, news: News) {
        let gone = self.present.get(who).is_some_and(|line| {
            matches!(
                line.try_send(news),
                Err(mpsc::error::TrySendError::Closed(_))
            )
        });
        if gone {
            self.present.remove(who);
        }
    }

    /// The event as it stands, for everyone looking at it.
    fn publish(&self) {
        let director = &self.run.director;
        let mut pairings = HashMap::new();
        for p in director.pairings().iter().filter(|p| p.result.is_none()) {
            if let Some(code) = self.run.boards.get(&(p.round, p.board)) {
                for (entrant, colour) in [
                    (p.pairing.first, Colour::First),
                    (p.pairing.second, Colour::Second),
                ] {
                    if let Some(who) = director.who(entrant) {
                        pairings.insert(who.clone(), (code.clone(), colour));
                    }
                }
            }
        }
        self.run
            .view
            .send_replace(Arc::new(view_of(director, pairings)));
    }
}

/// How many leaders the one-line standings name.
const LEADERS: usize = 5;

/// `director`'s event as everyone sees it, with the games under way at `boards`.
pub(super) fn view_of(
    director: &Director,
    boards: HashMap<Fingerprint, (RoomCode, Colour)>,
) -> View {
    let name = |entrant: Entrant| director.name(entrant).unwrap_or("?").to_string();
    let leaders: Vec<String> = match director.spec().kind {
        Kind::Swiss => director
            .swiss_table()
            .iter()
            .take(LEADERS)
            .enumerate()
            .map(|(i, line)| {
                format!(
                    "{}. {} {}",
                    i + 1,
                    name(line.entrant),
                    show_half(line.points)
                )
            })
            .collect(),
        Kind::Arena => director
            .arena_table()
            .iter()
            .take(LEADERS)
            .enumerate()
            .map(|(i, p)| format!("{}. {} {}", i + 1, name(p.entrant), p.points))
            .collect(),
    };
    View {
        spec: director.spec().clone(),
        stage: director.stage(),
        entrants: director.entrants(),
        text: render(director),
        leaders: leaders.join(" · "),
        boards,
    }
}
