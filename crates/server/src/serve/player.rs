//! One player's connection from its first frame to its last: the lobby, the game chosen there (against the
//! engine, or at a table with people) or asked for by a command (`join CODE` and the like), the rematch a table
//! sends them to, and back to the lobby when they leave a game.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use super::at_event::{Entered, EventChoice, create_and_enter, enter, run_event};
use super::connected::{ConnectedPlayer, settings_home, settings_of};
use super::door::{Doing, GameEnd, Output, Screen, ToGame, farewell};
use super::driver::Driver;
use super::ids::TableCode;
use super::lobby;
use super::play::{Channels, run};
use super::problems;
use super::seating::{self, Seated, TableAsk};
use super::sharing::Sharing;
use super::table::TableError;
use crate::app::TrainingKind;
use crate::app::lobby::{Choice, Lobby};
use crate::engine::EngineClient;
use crate::session::{self, Session, SessionEnd, SessionOpening};
use crate::store::StoreError;

/// Where a player starts.
pub enum Start {
    /// In the lobby.
    Lobby,
    /// At a table already taken.
    Table(Box<Seated>),
    /// Entered in a tournament.
    Event(Box<Entered>),
    /// Watching the table of this code.
    Watch(TableCode),
    /// Watching the TV: the highest-rated game in play, then the next.
    Tv,
}

/// What comes next on the connection.
enum Step {
    Lobby(Option<String>),
    /// A game against the engine; `true` to open the list of saved games first.
    Engine(bool),
    Table(Box<Seated>),
    Ask(TableAsk),
    /// The problem trainer.
    Problems(TrainingKind),
    /// The screen of the event the player is entered in.
    Event,
    /// The TV's next game.
    Tv,
}

/// Serves `player` on `screen` from `start` until they leave (or the connection, the server or the idle timeout
/// ends it); leaving a game goes back to the lobby, whether it was chosen there or asked for by a command (`join
/// K7QX`), and the player leaves from there. The player's terminal is given back and the channel closed at the
/// end.
pub async fn serve(
    player: ConnectedPlayer,
    screen: Screen,
    input: mpsc::Receiver<ToGame>,
    size: (u16, u16),
    start: Start,
) -> GameEnd {
    let Ok(mut out) = Output::new(screen, size) else {
        return GameEnd::Session(SessionEnd::InputClosed);
    };
    let mut doing = Doing::Lobby;
    // The player's folder comes from the other nodes before their settings or games are read here.
    let sharing = Sharing::start(&player.shared, &player.identity).await;
    let end = drive(&player, &mut out, input, start, &mut doing).await;
    farewell(&out.screen, end, doing).await;
    if let Some(sharing) = sharing {
        sharing.finish().await;
    }
    end
}

async fn drive(
    player: &ConnectedPlayer,
    out: &mut Output,
    input: mpsc::Receiver<ToGame>,
    start: Start,
    doing: &mut Doing,
) -> GameEnd {
    if !out.start().await {
        return GameEnd::Session(SessionEnd::InputClosed);
    }
    let mut driver = Driver::new(
        input,
        player.shared.shutdown.clone(),
        player.shared.config.idle_timeout,
    );
    let mut channels = Channels::new();
    // The lobby follows the player's keys, as their games do.
    let keys = settings_of(&player.shared, &player.identity).0.keys;
    let mut lobby = Lobby::new(&player.identity.name, player.identity.is_guest(), keys);
    lobby.offer(&player.shared.config.variants.variants());
    // Read (and so let go) only as the lobby first shows: a connection that goes straight to its table and drops
    // there keeps the word for the next one.
    let mut news_told = false;
    let mut next = start.first_step(&mut channels);
    // Keys typed after the one that chose a game, for that game.
    let mut typed_ahead = Vec::new();
    loop {
        *doing = next.doing(player);
        // A move that went nowhere as the table moved is told of at the game found again, and nowhere else.
        if !matches!(next, Step::Table(_)) {
            channels.unplayed = None;
        }
        let mut session = match next {
            // Someone who may only watch has nothing more to do once they leave the table.
            Step::Lobby(_) if player.spectator => return GameEnd::Session(SessionEnd::Quit),
            Step::Tv => {
                channels.tv = false;
                next = match super::tv::wait_for_game(&player.shared, &mut driver, out).await {
                    Ok(Some(code)) => {
                        channels.tv = true;
                        Step::Ask(TableAsk::Watch(code))
                    }
                    Ok(None) => Step::Lobby(None),
                    Err(end) => return end,
                };
                continue;
            }
            Step::Lobby(message) => {
                if let Some(message) = message {
                    lobby.message = message;
                }
                // Keys changed on the settings screen of a game just left hold here too.
                lobby.follow_keys(settings_of(&player.shared, &player.identity).0.keys);
                if !std::mem::replace(&mut news_told, true) {
                    lobby.tell_news(lobby::read_news(player).await);
                }
                let choice = match lobby::run_lobby(player, &mut lobby, &mut driver, out).await {
                    Ok((choice, ahead)) => {
                        typed_ahead = ahead;
                        choice
                    }
                    Err(end) => return end,
                };
                next = match after_lobby(player, choice, &mut channels).await {
                    Ok(step) => step,
                    Err(end) => return end,
                };
                continue;
            }
            Step::Ask(ask) => {
                next = ask_table(player, ask, &mut channels).await;
                continue;
            }
            Step::Event => {
                next = match event_step(player, &mut channels, &mut driver, out).await {
                    Ok(step) => step,
                    Err(end) => return end,
                };
                continue;
            }
            Step::Problems(kind) => {
                let client = engine_client(player, &mut channels);
                problems::trainer_session(player, kind, client, &mut channels).await
            }
            Step::Engine(saved_games) => {
                let client = engine_client(player, &mut channels);
                let mut session = engine_session(player, client);
                if saved_games {
                    session.list_saved_games();
                }
                session
            }
            // A move the player had on its way as the table went is settled by the game found again's first state
            // (`play`).
            Step::Table(seated) => table_session(player, *seated, &mut channels).await,
        };
        let ahead = std::mem::take(&mut typed_ahead);
        let ending = run(&mut session, &mut channels, &mut driver, out, ahead).await;
        next = match after_session(player, ending, *doing, &mut channels).await {
            Ok(step) => step,
            Err(end) => return end,
        };
    }
}

impl Start {
    /// The step a connection starts with; an event entered on the way in is the channels' from then on.
    fn first_step(self, channels: &mut Channels) -> Step {
        match self {
            Start::Lobby => Step::Lobby(None),
            Start::Table(seated) => Step::Table(seated),
            Start::Event(entered) => {
                channels.event = Some(*entered);
                Step::Event
            }
            Start::Watch(code) => Step::Ask(TableAsk::Watch(code)),
            Start::Tv => Step::Tv,
        }
    }
}

/// The player asks for a seat or to watch: the table, or where a refusal leads.
async fn ask_table(player: &ConnectedPlayer, ask: TableAsk, channels: &mut Channels) -> Step {
    match seating::take(&player.shared, &player.identity, ask).await {
        Ok(seated) => Step::Table(Box::new(seated)),
        // The TV's game ended between its choice and the watching: the next one, after a moment (a game listed
        // that cannot be watched must not make the TV spin).
        Err(_) if channels.tv => {
            tokio::time::sleep(Duration::from_secs(1)).await;
            Step::Tv
        }
        Err(why) => {
            tracing::info!(player = %player.identity.fingerprint, %why, "a table refused");
            // Out of the event too: its screen would send the player to the same table again.
            channels.event = None;
            Step::Lobby(Some(why.to_string()))
        }
    }
}

/// The screen of the event the player is entered in, until they go to a board or leave it.
async fn event_step(
    player: &ConnectedPlayer,
    channels: &mut Channels,
    driver: &mut Driver,
    out: &mut Output,
) -> Result<Step, GameEnd> {
    let Some(entered) = channels.event.as_mut() else {
        return Ok(Step::Lobby(None));
    };
    // The screen follows the player's keys, as the lobby and their games do.
    let keys = settings_of(&player.shared, &player.identity).0.keys;
    Ok(match run_event(entered, driver, out, &keys).await? {
        EventChoice::Board(code) => Step::Ask(TableAsk::Join(code)),
        EventChoice::Leave => {
            channels.event = None;
            Step::Lobby(None)
        }
    })
}

impl Step {
    /// What the player is doing while on this step (what a farewell says and a take-over keeps).
    fn doing(&self, player: &ConnectedPlayer) -> Doing {
        match self {
            // A problem is not a game to keep: the trainer is left as the lobby is.
            Step::Lobby(_) | Step::Ask(_) | Step::Problems(_) | Step::Event | Step::Tv => {
                Doing::Lobby
            }
            Step::Engine(_) => Doing::Engine {
                guest: player.identity.is_guest(),
            },
            Step::Table(seated) if seated.table.seat().is_some() => Doing::Playing,
            Step::Table(_) => Doing::Watching,
        }
    }
}

/// Where the lobby's `choice` leads: a game, a table to ask for, an event entered (or created and entered), or
/// back to the lobby with the reason; quitting ends the connection.
async fn after_lobby(
    player: &ConnectedPlayer,
    choice: Choice,
    channels: &mut Channels,
) -> Result<Step, GameEnd> {
    Ok(match choice {
        Choice::Engine => Step::Engine(false),
        Choice::SavedGames => Step::Engine(true),
        Choice::New(new) => Step::Ask(TableAsk::New(new)),
        // The codes come from the server's own list, or were read as codes as they were typed.
        Choice::Join(code) => Step::Ask(TableAsk::Join(TableCode::new(code))),
        Choice::Watch(code) => Step::Ask(TableAsk::Watch(TableCode::new(code))),
        Choice::Problems(kind) => Step::Problems(kind),
        Choice::NewEvent(words) => {
            let address = Some(player.address);
            match create_and_enter(&player.shared, &player.identity, address, &words).await {
                Ok(entered) => {
                    channels.event = Some(entered);
                    Step::Event
                }
                Err(why) => Step::Lobby(Some(why)),
            }
        }
        Choice::Event(code) => match enter(&player.shared, &player.identity, &code).await {
            Some(entered) => {
                channels.event = Some(entered);
                Step::Event
            }
            None if player.identity.is_guest() => Step::Lobby(Some(
                "a guest cannot play in a tournament: connect with an SSH key".into(),
            )),
            None => Step::Lobby(Some(format!("tournament {code} is over"))),
        },
        Choice::Quit => return Err(GameEnd::Session(SessionEnd::Quit)),
        // Carried out in the lobby, which never ends for them.
        Choice::Settings | Choice::ChangeSetting(_) => Step::Lobby(None),
    })
}

/// The session at the table `seated` found: the table's link and the player's civility kept in `channels` for
/// it, their settings and the problem they are on read afresh.
async fn table_session(
    player: &ConnectedPlayer,
    seated: Seated,
    channels: &mut Channels,
) -> Session {
    let client = engine_client(player, channels);
    let Seated {
        mut table,
        game_type,
        link,
    } = seated;
    table.set_reached_by(player.reached_by.clone());
    channels.table = Some(link);
    // Read again at each table: a block made in another session (or on another node) holds here.
    let civility =
        super::civility::Civility::of(Arc::clone(&player.shared), player.identity.clone()).await;
    channels.civility = Some(civility);
    let (settings, problem) = settings_of(&player.shared, &player.identity);
    let (opened, config) = session::open_table(
        table,
        game_type,
        &settings,
        problem.as_ref(),
        player.no_color,
    );
    Session::new(opened, config, client)
        .keep_settings_in(settings_home(&player.shared, &player.identity))
}

/// Where a session that ended with `ending` while the player was `doing` leads: the TV's next game, a rematch's
/// table, the lobby after a take-over, the game found again on another node, the event's screen or the lobby;
/// any other ending ends the connection.
async fn after_session(
    player: &ConnectedPlayer,
    ending: Option<SessionEnd>,
    doing: Doing,
    channels: &mut Channels,
) -> Result<Step, GameEnd> {
    // The trainer's decisions still queued are kept by its writer, which ends once they are.
    channels.trained = None;
    if std::mem::take(&mut channels.tv_next) {
        return Ok(Step::Tv);
    }
    channels.tv = false;
    if let (Some(SessionEnd::Quit), Some(code)) = (ending, channels.rematch.take()) {
        // A rematch was agreed: players take their seats at its table, watchers watch it.
        return Ok(Step::Ask(match doing {
            Doing::Watching => TableAsk::Watch(code),
            _ => TableAsk::Join(code),
        }));
    }
    if std::mem::take(&mut channels.taken_over) {
        return Ok(played_elsewhere());
    }
    if let (Some(SessionEnd::Quit), Some(code)) = (ending, channels.lost.take()) {
        return Ok(match find_again(player, doing, code).await {
            Ok(seated) => Step::Table(Box::new(seated)),
            // They connected again while this connection looked for the game: it is played from there.
            Err(TableError::SeatedElsewhere) => played_elsewhere(),
            Err(why) => {
                tracing::warn!(player = %player.identity.fingerprint, %why, "a game that went is not found again");
                Step::Lobby(Some(format!("the game's server went away: {why}")))
            }
        });
    }
    match ending {
        // A tournament's player goes back to its screen, to wait for their next game.
        Some(SessionEnd::Quit) if channels.event.is_some() => Ok(Step::Event),
        Some(SessionEnd::Quit) => Ok(Step::Lobby(None)),
        Some(ending) => Err(GameEnd::Session(ending)),
        None => Err(GameEnd::Idle),
    }
}

/// The lobby, for a player whose seat is taken by another connection of theirs, with the way back to it.
fn played_elsewhere() -> Step {
    Step::Lobby(Some(format!(
        "{}; choose it among your games in progress to play it here",
        crate::app::TAKEN_OVER
    )))
}

/// Finds the game of a table that went away while `player` was at it (its node died, or another node took it
/// over) where it runs now: their seat again, or their place among its watchers. It keeps trying until another
/// node can have taken the table over.
async fn find_again(
    player: &ConnectedPlayer,
    doing: Doing,
    code: TableCode,
) -> Result<Seated, TableError> {
    let give_up =
        tokio::time::Instant::now() + super::elsewhere::take_over_patience(&player.shared);
    let (shared, identity) = (&player.shared, &player.identity);
    loop {
        let found = match doing {
            Doing::Watching => seating::watch(shared, identity, &code).await,
            // Their seat, unless they have connected again meanwhile and sit from there.
            _ => seating::come_back(shared, identity, &code).await,
        };
        match found {
            Ok(seated) => return Ok(seated),
            Err(TableError::SeatedElsewhere) => return Err(TableError::SeatedElsewhere),
            Err(why) if tokio::time::Instant::now() >= give_up => return Err(why),
            Err(_) => tokio::time::sleep(Duration::from_secs(1)).await,
        }
    }
}

/// The longest the analysis panel searches one position on the server.
const SERVER_ANALYSIS_TIME: Duration = Duration::from_secs(3);

/// A new engine client for the next session, its reports coming to `channels` (a session's search numbers
/// start again at one: the last session's late reports must not reach the next).
fn engine_client(player: &ConnectedPlayer, channels: &mut Channels) -> EngineClient {
    let (engine_tx, engine_rx) = mpsc::unbounded_channel();
    channels.engine = engine_rx;
    player.shared.engine.client(move |report| {
        // The game has ended when nobody listens: the report is not wanted.
        let _ = engine_tx.send(report);
    })
}

/// A game against the engine for `player`: their own settings and saved games under the server's data folder,
/// and the offer to resume an unfinished game, as locally.
fn engine_session(player: &ConnectedPlayer, engine: EngineClient) -> Session {
    let (shared, identity) = (&player.shared, &player.identity);
    let store = match identity.is_guest() {
        true => Err(StoreError::Guest),
        false => Ok(shared.store_of(identity)),
    };
    let (settings, problem) = settings_of(shared, identity);
    let (mut opened, config) = session::open_with_settings(
        store,
        SessionOpening::Standard(settings.game_type),
        &settings,
        problem.as_ref(),
        player.no_color,
    );
    // The engine's threads are shared by every game on the server: the analysis panel takes its turn in the
    // queue a position at a time, briefly.
    let mut preferences = opened.app.preferences().clone();
    preferences.analysis_time = preferences.analysis_time.min(SERVER_ANALYSIS_TIME);
    // The engine threads are every player's: none is kept busy on one player's time.
    preferences.ponder = false;
    opened.app.set_preferences(preferences);
    Session::new(opened, config, engine).keep_settings_in(settings_home(shared, identity))
}
