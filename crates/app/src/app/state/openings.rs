//! How a new game starts: from the standard position, a 3-move ballot or an 11-man ballot (chosen in the new-game
//! dialog, with `:ballot` or `:eleven`, or again by a rematch), a ballot drawn at random following the session's
//! seed.

use super::App;
use crate::app::action::Effect;
use crate::app::ballot::{OPENING_TAG, OpeningChoice, deck_size};
use crate::engine::{Players, Rng, eleven_man_ballots};
use crate::game::AnyGame;
use crate::rules::GameType;

impl App {
    /// Starts a new game of `game_type` with `players` from `opening`: a ballot's moves are played for them.
    pub(super) fn start_with_opening(
        &mut self,
        game_type: GameType,
        players: Players,
        opening: OpeningChoice,
    ) -> Vec<Effect> {
        let ballot = opening.resolved(|size| self.draw_ballot(size));
        let Some((ballot, game)) = ballot.and_then(|b| Some((b, b.game()?))) else {
            return self.start_game(AnyGame::new(game_type), players);
        };
        let name = game.tags().get(OPENING_TAG).unwrap_or_default().to_string();
        let effects = self.start_game(game, players);
        self.ballot = Some(ballot);
        if self.play.thinking().is_none() {
            self.status = format!("{name}; {}", self.mode_message());
        }
        effects
    }

    /// `:ballot [N]`: a new game from ballot `N` of the deck (counted from 1), or from one drawn at random, with
    /// the same players.
    pub(super) fn ballot_command(&mut self, argument: Option<&str>) -> Result<Vec<Effect>, String> {
        let (random, chosen) = (OpeningChoice::RandomBallot, OpeningChoice::Ballot);
        self.start_ballot(argument, "ballot", deck_size(), random, chosen)
    }

    /// `:eleven [N]`: a new game from 11-man ballot `N` (counted from 1), or from one drawn at random, with the
    /// same players.
    pub(super) fn eleven_command(&mut self, argument: Option<&str>) -> Result<Vec<Effect>, String> {
        let (random, chosen) = (OpeningChoice::RandomEleven, OpeningChoice::Eleven);
        let size = eleven_man_ballots().len();
        self.start_ballot(argument, "11-man ballot", size, random, chosen)
    }

    /// A new game of English draughts with the same players from the ballot numbered (from 1) by `argument` in
    /// a deck of `size` called `deck`, or from `random` without one.
    fn start_ballot(
        &mut self,
        argument: Option<&str>,
        deck: &str,
        size: usize,
        random: OpeningChoice,
        chosen: fn(usize) -> OpeningChoice,
    ) -> Result<Vec<Effect>, String> {
        let opening = match argument.map(str::trim).filter(|a| !a.is_empty()) {
            None => random,
            Some(text) => match text.parse::<usize>() {
                Ok(n) if (1..=size).contains(&n) => chosen(n - 1),
                _ => return Err(format!("which {deck}? a number from 1 to {size}")),
            },
        };
        Ok(self.start_with_opening(GameType::default(), self.players, opening))
    }

    /// A number below `size` for a ballot drawn at random: from the session's seed, different for each draw.
    fn draw_ballot(&mut self, size: usize) -> usize {
        self.draws += 1;
        Rng::new(self.seed.wrapping_add(self.draws)).below(size)
    }
}
