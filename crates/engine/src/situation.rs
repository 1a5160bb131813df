//! What a game looks like to the search: the position and the history that decides draws by repetition.

use crowned_game::{AnyGame, Game, GameVisitor, KingRuns};
use crowned_rules::{
    AnyPosition, Defined, English, Move, Playable, Position, Role, RuleSet, Rules, Square,
};

/// What a game looks like to the search: the position to search, and the positions before it since the last
/// capture or man move (for repetitions and the move limit). `Situation` alone is one of English draughts.
#[derive(Clone, Debug)]
pub struct Situation<R: RuleSet = English> {
    /// The position to move from.
    pub position: Position<R>,
    /// Earlier positions since the last capture or man move, oldest first (not including `position`).
    pub earlier: Vec<Position<R>>,
    /// Plies without capture or man move after which the game is drawn (80 for the 40-move rule; 0: never).
    pub move_limit_plies: u32,
    /// Each side's run of quiet moves by one king (Frisian: a king that has made three in a row may only
    /// capture), which the search carries on from here.
    pub king_runs: KingRuns,
}

impl Situation {
    /// An English position with no history.
    pub fn new(position: Position) -> Situation {
        Situation::at(position)
    }

    /// The situation at the current point of an English game.
    pub fn of_game(game: &Game) -> Situation {
        Situation::in_game(game)
    }
}

impl<R: RuleSet> Situation<R> {
    /// A position of any rule set with no history, and the default move limit.
    pub fn at(position: Position<R>) -> Situation<R> {
        Situation {
            position,
            earlier: Vec::new(),
            move_limit_plies: 2 * crowned_game::DEFAULT_MOVE_LIMIT,
            king_runs: KingRuns::none(R::VARIANT.king_moves_in_a_row() as u8),
        }
    }

    /// The king of the side to move that may not make another quiet move (Frisian), if there is one.
    pub fn barred_king(&self) -> Option<Square> {
        self.king_runs.barred(self.position.side_to_move())
    }

    /// The situation at the current point of a game of any rule set, with the game's own move limit.
    pub fn in_game(game: &Game<R>) -> Situation<R> {
        // Back over the reversible moves (king moves without capture): no position before a man's move or a
        // capture can stand again.
        let reversible = |before: &Position<R>, mv: &Move| {
            !mv.is_capture()
                && before
                    .piece_at(mv.from())
                    .is_some_and(|p| p.role == Role::King)
        };
        Situation {
            position: *game.position(),
            earlier: earlier_positions(game, reversible),
            move_limit_plies: game.move_limit() * 2,
            king_runs: game
                .king_runs_at(game.ply())
                .unwrap_or(KingRuns::none(R::VARIANT.king_moves_in_a_row() as u8)),
        }
    }
}

/// The positions before the current point of `game`, oldest first, back over the moves `reversible` says a
/// later position could undo.
fn earlier_positions<R: Rules>(
    game: &Game<R>,
    reversible: impl Fn(&R::Position, &Move) -> bool,
) -> Vec<R::Position> {
    let mut earlier = Vec::new();
    for i in (0..game.ply()).rev() {
        let (Some(before), Some(mv)) = (game.position_at(i), game.moves().get(i)) else {
            break;
        };
        if !reversible(before, mv) {
            break;
        }
        earlier.push(*before);
    }
    earlier.reverse();
    earlier
}

/// A situation of any rule set, chosen at run time: what the app and the engine service pass around.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnySituation {
    /// The position to move from.
    pub position: AnyPosition,
    /// Earlier positions since the last capture or man move, oldest first (not including `position`).
    pub earlier: Vec<AnyPosition>,
    /// Plies without capture or man move after which the game is drawn (0: never).
    pub move_limit_plies: u32,
    /// Each side's run of quiet moves by one king (Frisian: a king that has made three in a row may only
    /// capture), which the search carries on from here.
    pub king_runs: KingRuns,
}

impl AnySituation {
    /// A position with no history, and the default move limit.
    pub fn at(position: AnyPosition) -> AnySituation {
        // The variant's limit on a king's quiet moves in a row (Frisian's three), as [`Situation::at`] has it.
        let king_runs = KingRuns::none(position.variant().king_moves_in_a_row() as u8);
        AnySituation {
            position,
            earlier: Vec::new(),
            move_limit_plies: 2 * crowned_game::DEFAULT_MOVE_LIMIT,
            king_runs,
        }
    }

    /// The king of the side to move that may not make another quiet move (Frisian), if there is one.
    pub fn barred_king(&self) -> Option<Square> {
        self.king_runs.barred(self.position.side_to_move())
    }

    /// The situation at the current point of a game of any rule set.
    pub fn of_game(game: &AnyGame) -> AnySituation {
        struct Of;
        impl GameVisitor for Of {
            type Output = AnySituation;
            fn visit<R: Playable>(self, game: &Game<R>) -> AnySituation {
                AnySituation::from(Situation::in_game(game))
            }
            fn defined(self, game: &Game<Defined>) -> AnySituation {
                // Back to the last capture, as the game looks for repetitions: a man that moves sideways
                // (Turkish) can go back, so a move of a piece that could still promote does not end them.
                let earlier = earlier_positions(game, |_, mv| !mv.is_capture());
                AnySituation {
                    position: AnyPosition::from(*game.position()),
                    earlier: earlier.into_iter().map(AnyPosition::from).collect(),
                    move_limit_plies: game.move_limit() * 2,
                    king_runs: KingRuns::none(0),
                }
            }
        }
        game.visit(Of)
    }

    /// The situation under its own rule set `R`; `None` when it is of another.
    pub fn typed<R: Playable>(&self) -> Option<Situation<R>> {
        Some(Situation {
            position: R::unwrap(&self.position)?,
            earlier: self
                .earlier
                .iter()
                .map(R::unwrap)
                .collect::<Option<Vec<_>>>()?,
            move_limit_plies: self.move_limit_plies,
            king_runs: self.king_runs,
        })
    }
}

impl<R: Playable> From<Situation<R>> for AnySituation {
    fn from(situation: Situation<R>) -> AnySituation {
        AnySituation {
            position: R::wrap(situation.position),
            earlier: situation.earlier.into_iter().map(R::wrap).collect(),
            move_limit_plies: situation.move_limit_plies,
            king_runs: situation.king_runs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::{Frisian, Position};

    #[test]
    fn a_position_with_no_history_keeps_its_variants_limit_on_a_kings_run() {
        let start = Position::<Frisian>::start();
        let typed: AnySituation = Situation::at(start).into();
        let any = AnySituation::at(start.into());
        assert_eq!(any, typed);
        // A king's fourth quiet move in a row is barred in Frisian: the limit must reach the search.
        assert_ne!(any.king_runs, KingRuns::none(0));
    }
}
