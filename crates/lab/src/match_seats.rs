//! The players of a match: crowned's engine at a level, or another engine through the Hub protocol, behind one
//! interface.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::contenders::{Contender, MatchError};
use super::hub_client::{HubEngine, HubError, PonderTally};
use crowned_engine::{AnySituation, Engine, EngineConfig, Level, Limits};
use crowned_game::AnyGame;
use crowned_rules::GameType;

/// A player's seat at the match: crowned's engine at a level, or an external engine.
pub(super) enum Seat {
    Own(Box<Engine>, Level),
    Hub(Box<HubEngine>),
}

impl Seat {
    pub(super) fn new(
        contender: &Contender,
        game_type: GameType,
        engine: &EngineConfig,
        stop: &Arc<AtomicBool>,
    ) -> Result<Seat, MatchError> {
        Ok(match contender {
            Contender::Level(level) => {
                let mut engine = Engine::with_config(engine.clone());
                engine.set_stop_flag(Arc::clone(stop));
                Seat::Own(Box::new(engine), *level)
            }
            Contender::Hub(command) => Seat::Hub(Box::new(HubEngine::start(command, game_type)?)),
        })
    }

    pub(super) fn name(&self) -> String {
        match self {
            Seat::Own(_, level) => format!("crowned {level}"),
            Seat::Hub(engine) => engine.name().to_string(),
        }
    }

    pub(super) fn new_game(&mut self) -> Result<(), MatchError> {
        match self {
            Seat::Own(engine, _) => engine.clear(),
            Seat::Hub(engine) => engine.new_game()?,
        }
        Ok(())
    }

    /// Starts a search on the opponent's time after this seat's move in `game`, for its next move under
    /// `limits`: an external engine only (the program's own players do not ponder).
    pub(super) fn ponder(&mut self, game: &AnyGame, limits: &Limits) -> Result<(), MatchError> {
        if let Seat::Hub(engine) = self {
            engine.ponder(game, limits)?;
        }
        Ok(())
    }

    /// How this seat's searches on the opponent's time have gone.
    pub(super) fn ponder_tally(&self) -> PonderTally {
        match self {
            Seat::Own(..) => PonderTally::default(),
            Seat::Hub(engine) => engine.ponder_tally(),
        }
    }

    /// The move chosen at the current point of `game`; `None` if the stop flag ended the search.
    pub(super) fn choose(
        &mut self,
        game: &AnyGame,
        limits: &Limits,
        seed: u64,
        stop: &AtomicBool,
    ) -> Result<Option<crowned_rules::Move>, MatchError> {
        match self {
            Seat::Own(engine, level) => {
                let choice = engine.think(
                    &AnySituation::of_game(game),
                    *level,
                    limits,
                    seed,
                    &mut |_| {},
                );
                Ok(choice.best)
            }
            Seat::Hub(engine) => match engine.play(game, limits, stop) {
                Ok(mv) => Ok(Some(mv)),
                Err(HubError::Stopped) => Ok(None),
                Err(e) => Err(e.into()),
            },
        }
    }
}
