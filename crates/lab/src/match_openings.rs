//! The openings a match starts its games from, under the rules of the match.
//!
//! English draughts has a deck every tournament uses (the 3-move ballot). Other variants have no deck of the
//! same standing here, so their matches start from short random openings drawn from the match's seed: each is
//! played with both colours, which cancels most of whatever advantage one opening gives.

use std::collections::{HashMap, HashSet};

use crowned_engine::{Opening, Rng};
use crowned_rules::{
    AnyPosition, Color, GamePosition, GameType, Move, Playable, Position, Role, Strictness,
};

/// Tries per random opening wanted before the openings found so far are used again: a small board has few
/// distinct short openings, and looking for more than exist must end.
const TRIES_PER_OPENING: usize = 50;

/// A match opening: its name and the moves from the start, and the position they lead to (`P`: a position of
/// rules chosen at run time, or of one built-in rule set).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningLine<P> {
    /// The moves in the variant's notation, separated by spaces (the name a match reports).
    pub name: String,
    /// The moves from the start.
    pub moves: Vec<Move>,
    /// The position after them.
    pub position: P,
}

/// A match opening under any rules, built in or defined.
pub type AnyOpening = OpeningLine<AnyPosition>;

/// A match opening under the built-in rules `R`.
pub type MatchOpening<R> = OpeningLine<Position<R>>;

impl AnyOpening {
    /// The same opening as a position of the built-in rules `R`; `None` when it is not one of theirs.
    fn under<R: Playable>(self) -> Option<MatchOpening<R>> {
        Some(OpeningLine {
            position: R::unwrap(&self.position)?,
            name: self.name,
            moves: self.moves,
        })
    }
}

/// The deck's openings, each replayed from the start of `game_type`; `None` when one does not fit (the deck is
/// English draughts on 8x8 from the standard start: its moves must read as moves there, and lead where the
/// deck says).
pub fn deck_openings(deck: &[Opening], game_type: GameType) -> Option<Vec<AnyOpening>> {
    let start = AnyPosition::start(game_type);
    deck.iter()
        .map(|opening| {
            let mut pos = start;
            let mut moves = Vec::with_capacity(opening.moves.len());
            for text in &opening.moves {
                let mv = pos.parse_move(text, Strictness::Squares).ok()?;
                pos = pos.play(&mv);
                moves.push(mv);
            }
            let deck_position = AnyPosition::from(opening.position);
            // An opening given only as a position fits when it is one of these rules and board.
            if moves.is_empty()
                && deck_position.variant() == start.variant()
                && deck_position.geometry() == start.geometry()
            {
                pos = deck_position;
            } else if deck_position != pos {
                return None;
            }
            Some(OpeningLine {
                name: opening.name.clone(),
                moves,
                position: pos,
            })
        })
        .collect()
}

/// [`deck_openings`] as positions of the built-in rules `R`.
pub fn deck_under<R: Playable>(
    deck: &[Opening],
    game_type: GameType,
) -> Option<Vec<MatchOpening<R>>> {
    deck_openings(deck, game_type)?
        .into_iter()
        .map(AnyOpening::under)
        .collect()
}

/// How many random plies open a game on a board of `size`: as many as each side has rows of men, which is the
/// three plies of the English ballot on 8x8 and grows with the board.
pub fn random_plies(size: u8) -> usize {
    usize::from(size / 2).saturating_sub(1).max(1)
}

/// `count` openings of [`random_plies`] random moves (by the board's height) from the start of `game_type`,
/// built in or defined, fixed by `seed`. Each leaves both sides with as many pieces of each kind as the other,
/// no capture to make (an opening that ends in the middle of an exchange, or with a piece left hanging, starts
/// one side a piece or two up by force: a match of such openings measures the dice, not the players) and a move
/// to play; they differ from each other while the board has enough different ones (on a small board some come
/// again rather than the search never ending).
pub fn openings(game_type: GameType, count: usize, seed: u64) -> Vec<AnyOpening> {
    let start = AnyPosition::start(game_type);
    draw(start, random_plies(start.geometry().height), count, seed)
}

/// [`openings`] as positions of the built-in rules `R`.
pub fn random_openings<R: Playable>(
    game_type: GameType,
    count: usize,
    seed: u64,
) -> Vec<MatchOpening<R>> {
    openings(game_type, count, seed)
        .into_iter()
        .filter_map(AnyOpening::under)
        .collect()
}

/// `count` openings of `plies` random moves from `start` (see [`openings`]), fixed by `seed`.
fn draw(start: AnyPosition, plies: usize, count: usize, seed: u64) -> Vec<AnyOpening> {
    let mut rng = Rng::new(seed ^ 0x6f70_656e_696e_6773);
    let mut seen = HashSet::new();
    let mut found: Vec<AnyOpening> = Vec::with_capacity(count);
    for _ in 0..count.saturating_mul(TRIES_PER_OPENING) {
        if found.len() == count {
            break;
        }
        let Some(opening) = random_line(start, plies, &mut rng) else {
            continue;
        };
        if balanced(&opening.position)
            && !opening.position.must_capture()
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

/// One line of `plies` random legal moves from `start`, or `None` if the game ends on the way (no move, or a
/// winner named by the rules, as a definition's promotion goal does).
fn random_line(start: AnyPosition, plies: usize, rng: &mut Rng) -> Option<AnyOpening> {
    let mut pos = start;
    let mut moves = Vec::with_capacity(plies);
    let mut words = Vec::with_capacity(plies);
    let style = start.variant().notation();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.crowned_winner().is_some() {
            return None;
        }
        let mv = legal[rng.below(legal.len())];
        words.push(pos.write_move(&mv, style));
        pos = pos.play(&mv);
        moves.push(mv);
    }
    if pos.legal_moves().is_empty() || pos.crowned_winner().is_some() {
        return None;
    }
    Some(OpeningLine {
        name: words.join(" "),
        moves,
        position: pos,
    })
}

/// Whether both sides have as many pieces of each kind as the other: men and kings, or a definition's own
/// kinds, which a man or a king stands for only roughly.
fn balanced(pos: &AnyPosition) -> bool {
    if let Some(board) = pos.defined() {
        let mut counts = HashMap::new();
        for (_, (color, kind)) in board.occupants() {
            *counts.entry(kind).or_insert(0i32) += if color == Color::Black { 1 } else { -1 };
        }
        return counts.values().all(|&c| c == 0);
    }
    [Role::Man, Role::King]
        .into_iter()
        .all(|role| pos.count(Color::Black, role) == pos.count(Color::White, role))
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
            let mut pos =
                International::unwrap(&AnyPosition::start(game_type)).expect("international");
            for mv in &opening.moves {
                assert!(pos.legal_moves().contains(mv));
                pos = pos.play(mv);
            }
            assert_eq!(pos, opening.position);
            assert!(balanced(&pos.into()));
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

    #[test]
    fn a_defined_variant_draws_its_openings_as_the_built_ins_do() {
        let id = crowned_rules::defined::load_builtin("turkish")
            .expect("turkish is built in")
            .expect("it loads");
        let game_type = GameType::standard(Variant::Defined(id));
        let drawn = openings(game_type, 12, 3);
        assert_eq!(drawn.len(), 12);
        let distinct: HashSet<_> = drawn.iter().map(|o| o.position).collect();
        assert_eq!(distinct.len(), 12);
        for opening in &drawn {
            // Turkish on 8x8: three plies, each legal where it is played, written in coordinates.
            assert_eq!(opening.moves.len(), random_plies(8), "{}", opening.name);
            let mut pos = AnyPosition::start(game_type);
            for mv in &opening.moves {
                assert!(pos.legal_moves().contains(mv), "{}", opening.name);
                pos = pos.play(mv);
            }
            assert_eq!(pos, opening.position);
            assert!(balanced(&pos) && !pos.must_capture(), "{}", opening.name);
            assert!(
                opening
                    .name
                    .split(' ')
                    .all(|w| w.starts_with(|c: char| c.is_ascii_lowercase()))
            );
        }
        assert_eq!(openings(game_type, 12, 3), drawn);
        // The English deck is no opening of a defined variant.
        assert!(deck_openings(&builtin_openings(), game_type).is_none());
    }
}
