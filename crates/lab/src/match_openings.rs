//! The openings a match starts its games from, under the rules of the match.
//!
//! English draughts has a deck every tournament uses (the 3-move ballot). Other variants have no deck of the
//! same standing here, so their matches start from short random openings drawn from the match's seed: each is
//! played with both colours, which cancels most of whatever advantage one opening gives.

use std::collections::{HashMap, HashSet};

use crowned_engine::{Opening, Rng};
use crowned_rules::defined::{DefinedBoard, DefinedId};
use crowned_rules::{
    AnyPosition, Color, GameType, Move, MoveList, MoveText, Playable, Position, Role, Strictness,
    write_move,
};

/// Tries per random opening wanted before the openings found so far are used again: a small board has few
/// distinct short openings, and looking for more than exist must end.
const TRIES_PER_OPENING: usize = 50;

/// A match opening: its name and the moves from the start, and the position they lead to (`P`: a built-in rule
/// set's position, or a defined variant's board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningLine<P> {
    /// The moves in the variant's notation, separated by spaces (the name a match reports).
    pub name: String,
    /// The moves from the start.
    pub moves: Vec<Move>,
    /// The position after them.
    pub position: P,
}

/// A match opening under the built-in rules `R`.
pub type MatchOpening<R> = OpeningLine<Position<R>>;

/// A match opening of a defined variant.
pub type DefinedOpening = OpeningLine<DefinedBoard>;

/// What drawing random openings asks of a position, built-in or defined: the same draw for both.
trait OpeningBoard: Copy + Eq + std::hash::Hash {
    /// The legal moves.
    fn legal(&self) -> MoveList;
    /// The position after `mv`.
    fn after(&self, mv: &Move) -> Self;
    /// `mv` in the variant's notation.
    fn word(&self, mv: &Move) -> String;
    /// Whether the game is decided here by a rule other than having no move (a defined variant's goal).
    fn decided(&self) -> bool;
    /// Whether both sides have as many pieces of each kind as the other.
    fn balanced(&self) -> bool;
    /// Whether the side to move must capture.
    fn capture_due(&self) -> bool;
}

impl<R: Playable> OpeningBoard for Position<R> {
    fn legal(&self) -> MoveList {
        self.legal_moves()
    }
    fn after(&self, mv: &Move) -> Self {
        self.play(mv)
    }
    fn word(&self, mv: &Move) -> String {
        write_move(self, mv, R::VARIANT.notation())
    }
    fn decided(&self) -> bool {
        false
    }
    fn balanced(&self) -> bool {
        [Role::Man, Role::King]
            .into_iter()
            .all(|role| self.count(Color::Black, role) == self.count(Color::White, role))
    }
    fn capture_due(&self) -> bool {
        self.must_capture()
    }
}

impl OpeningBoard for DefinedBoard {
    fn legal(&self) -> MoveList {
        self.legal_moves()
    }
    fn after(&self, mv: &Move) -> Self {
        self.play(mv)
    }
    fn word(&self, mv: &Move) -> String {
        self.write_move(mv)
    }
    fn decided(&self) -> bool {
        self.winner().is_some()
    }
    fn balanced(&self) -> bool {
        let mut counts = HashMap::new();
        for (_, (color, kind)) in self.occupants() {
            *counts.entry(kind).or_insert(0i32) += if color == Color::Black { 1 } else { -1 };
        }
        counts.values().all(|&c| c == 0)
    }
    fn capture_due(&self) -> bool {
        self.must_capture()
    }
}

/// The start of a game type as a position of its rule set.
pub fn start_of<R: Playable>(game_type: GameType) -> Position<R> {
    R::unwrap(&AnyPosition::start(game_type)).unwrap_or_else(Position::start)
}

/// The deck's openings under `R`, each replayed from the start of `game_type`; `None` when one does not fit
/// (the deck is English draughts on 8x8 from the standard start).
pub fn deck_under<R: Playable>(
    deck: &[Opening],
    game_type: GameType,
) -> Option<Vec<MatchOpening<R>>> {
    deck.iter()
        .map(|opening| {
            let start = start_of::<R>(game_type);
            let mut pos = start;
            let mut moves = Vec::with_capacity(opening.moves.len());
            for text in &opening.moves {
                let mv = MoveText::parse(text, R::GEOMETRY)
                    .and_then(|t| t.find(&pos, Strictness::Squares))
                    .ok()?;
                pos = pos.play(&mv);
                moves.push(mv);
            }
            // An opening given only as a position fits when it is one of this rule set.
            if moves.is_empty() {
                pos = R::unwrap(&AnyPosition::from(opening.position))?;
            } else if AnyPosition::from(opening.position) != R::wrap(pos) {
                return None;
            }
            Some(MatchOpening {
                name: opening.name.clone(),
                moves,
                position: pos,
            })
        })
        .collect()
}

/// How many random plies open a game on a board of `size`: as many as each side has rows of men, which is the
/// three plies of the English ballot on 8x8 and grows with the board.
pub fn random_plies(size: u8) -> usize {
    usize::from(size / 2).saturating_sub(1).max(1)
}

/// `count` openings of [`random_plies`] random moves from the start of `game_type`, fixed by `seed`. Each
/// leaves both sides with as many men as the other, no capture to make (an opening that ends in the middle of
/// an exchange, or with a piece left hanging, starts one side a piece or two up by force: a match of such
/// openings measures the dice, not the players) and a move to play; they differ from each other while the
/// board has enough different ones (on a small board some come again rather than the search never ending).
pub fn random_openings<R: Playable>(
    game_type: GameType,
    count: usize,
    seed: u64,
) -> Vec<MatchOpening<R>> {
    draw(
        start_of::<R>(game_type),
        random_plies(game_type.size),
        count,
        seed,
    )
}

/// `count` openings of `plies` random moves from `start` (see [`random_openings`]), fixed by `seed`.
fn draw<P: OpeningBoard>(start: P, plies: usize, count: usize, seed: u64) -> Vec<OpeningLine<P>> {
    let mut rng = Rng::new(seed ^ 0x6f70_656e_696e_6773);
    let mut seen = HashSet::new();
    let mut found: Vec<OpeningLine<P>> = Vec::with_capacity(count);
    for _ in 0..count.saturating_mul(TRIES_PER_OPENING) {
        if found.len() == count {
            break;
        }
        let Some(opening) = random_line(start, plies, &mut rng) else {
            continue;
        };
        if opening.position.balanced()
            && !opening.position.capture_due()
            && seen.insert(opening.position)
        {
            found.push(opening);
        }
    }
    // Few distinct openings on this board: go round the ones there are.
    let distinct = found.len();
    for i in distinct..count {
        if distinct == 0 {
            break;
        }
        let again = found[i % distinct].clone();
        found.push(again);
    }
    found
}

/// One line of `plies` random legal moves from `start`, or `None` if the game ends on the way.
fn random_line<P: OpeningBoard>(start: P, plies: usize, rng: &mut Rng) -> Option<OpeningLine<P>> {
    let mut pos = start;
    let mut moves = Vec::with_capacity(plies);
    let mut words = Vec::with_capacity(plies);
    for _ in 0..plies {
        let legal = pos.legal();
        if legal.is_empty() || pos.decided() {
            return None;
        }
        let mv = legal[rng.below(legal.len())];
        words.push(pos.word(&mv));
        pos = pos.after(&mv);
        moves.push(mv);
    }
    if pos.legal().is_empty() || pos.decided() {
        return None;
    }
    Some(OpeningLine {
        name: words.join(" "),
        moves,
        position: pos,
    })
}

/// `count` random openings of a defined variant, as [`random_openings`] draws them for the built-in rule sets:
/// as many random plies as each side has rows of men (by the board's height), both sides left with the same
/// pieces of every kind, no capture to make and a move to play, distinct while the board has enough of them;
/// fixed by `seed`.
pub fn defined_openings(id: DefinedId, count: usize, seed: u64) -> Vec<DefinedOpening> {
    let height = u8::try_from(id.get().rules.height).unwrap_or(u8::MAX);
    draw(DefinedBoard::start(id), random_plies(height), count, seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_engine::builtin_openings;
    use crowned_rules::{English, EnglishOn, International, Variant};

    #[test]
    fn the_deck_fits_english_only() {
        let deck = builtin_openings();
        let english = deck_under::<English>(&deck, GameType::standard(Variant::English));
        let english = english.expect("the deck is English");
        assert_eq!(english.len(), deck.len());
        assert!(
            english
                .iter()
                .zip(&deck)
                .all(|(m, o)| m.position == o.position)
        );
        let ten = GameType::new(Variant::English, Some(10), None).expect("valid");
        assert!(deck_under::<EnglishOn<10>>(&deck, ten).is_none());
        let international = GameType::standard(Variant::International);
        assert!(deck_under::<International>(&deck, international).is_none());
    }

    #[test]
    fn random_openings_are_legal_balanced_quiet_distinct_and_fixed_by_the_seed() {
        let game_type = GameType::standard(Variant::International);
        let openings = random_openings::<International>(game_type, 20, 7);
        assert_eq!(openings.len(), 20);
        let positions: HashSet<_> = openings.iter().map(|o| o.position).collect();
        assert_eq!(positions.len(), 20);
        for opening in &openings {
            assert_eq!(opening.moves.len(), random_plies(10));
            let mut pos = start_of::<International>(game_type);
            for mv in &opening.moves {
                assert!(pos.legal_moves().contains(mv));
                pos = pos.play(mv);
            }
            assert_eq!(pos, opening.position);
            assert!(pos.balanced());
            assert!(!pos.must_capture(), "{}", opening.name);
            // Written in the variant's notation, one word per move.
            assert_eq!(
                opening.name.split(' ').count(),
                opening.moves.len(),
                "{}",
                opening.name
            );
        }
        assert_eq!(random_openings::<International>(game_type, 20, 7), openings);
        assert_ne!(random_openings::<International>(game_type, 20, 8), openings);
    }

    #[test]
    fn a_small_board_goes_round_its_few_openings() {
        // English on 6x6 with one row of men: very few short lines exist.
        let game_type = GameType::new(Variant::English, Some(6), Some(1)).expect("valid");
        let openings = random_openings::<EnglishOn<6>>(game_type, 40, 1);
        assert_eq!(openings.len(), 40);
        let distinct: HashSet<_> = openings.iter().map(|o| o.position).collect();
        assert!(distinct.len() < 40);
        assert!(openings.iter().all(|o| o.moves.len() == random_plies(6)));
    }
}
