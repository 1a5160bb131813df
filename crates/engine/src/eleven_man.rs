//! The 11-man ballot openings of English draughts.
//!
//! Newell Banks's system (1907): Black takes one of its men off squares 5-12 and White one of its men off
//! 21-28, then Black's first move is one of the seven standard first moves and White's one of the seven
//! standard replies, each of the four drawn by ballot. A drawn move whose man was taken off is played by the man
//! behind it on the same diagonal (11-15 with the man on 11 gone is 8-11). With no man behind (12-16 with 12
//! gone, 21-17 with 21 gone) the draw is void and drawn again. The first two moves never meet, so each side's
//! half of the ballot is independent: 55 valid pairs of a removal and a move each, of which 50 leave different
//! men, and 50 x 50 = 2,500 different openings: the count the North Carolina Checkers Association gives for the
//! system. Openings that lose a piece by force are not struck out here (tournaments reject them by agreement;
//! the published count does not).

use std::sync::LazyLock;

use crowned_rules::{English, Geometry, Position, Square, to_fen};

/// Black's first moves, as drawn.
const BLACK_MOVES: [(u32, u32); 7] = [
    (9, 13),
    (9, 14),
    (10, 14),
    (10, 15),
    (11, 15),
    (11, 16),
    (12, 16),
];

/// White's first moves, as drawn.
const WHITE_MOVES: [(u32, u32); 7] = [
    (21, 17),
    (22, 17),
    (22, 18),
    (23, 18),
    (23, 19),
    (24, 19),
    (24, 20),
];

/// One side's half of a ballot: the man taken off and the move played (after the man behind stood in, if it
/// did).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HalfBallot {
    /// The square the man was taken off.
    pub removed: u32,
    /// The move drawn.
    pub drawn: (u32, u32),
    /// The move played: the drawn one, or the man behind's.
    pub played: (u32, u32),
}

impl HalfBallot {
    /// The side's men after the removal and the move, by square number, in order.
    pub fn men(&self, start: std::ops::RangeInclusive<u32>) -> Vec<u32> {
        let mut men: Vec<u32> = start
            .filter(|&s| s != self.removed && s != self.played.0)
            .chain(std::iter::once(self.played.1))
            .collect();
        men.sort_unstable();
        men
    }
}

/// An 11-man ballot of the deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElevenMan {
    /// Its number in the deck, from 1.
    pub number: usize,
    /// Black's half.
    pub black: HalfBallot,
    /// White's half.
    pub white: HalfBallot,
}

impl ElevenMan {
    /// The position the game starts from, before the two moves: the standard start without the two men taken
    /// off, Black to move, as canonical PDN FEN (the form the game's `[FEN]` tag is written in).
    pub fn start_fen(&self) -> String {
        let mut start = Position::<English>::start();
        for removed in [self.black.removed, self.white.removed] {
            if let Some(square) =
                Square::from_number(removed, Position::<English>::GEOMETRY.squares())
            {
                start.set_piece(square, None);
            }
        }
        to_fen(&start)
    }

    /// The two moves played, as text (`8-11`, `24-20`).
    pub fn moves(&self) -> [String; 2] {
        [self.black.played, self.white.played].map(|(from, to)| format!("{from}-{to}"))
    }

    /// The ballot as players name it: `11-man ballot 137: 10 and 22 off, 11-15 24-20`.
    pub fn name(&self) -> String {
        let [black, white] = self.moves();
        format!(
            "11-man ballot {}: {} and {} off, {black} {white}",
            self.number, self.black.removed, self.white.removed
        )
    }
}

/// The square numbered `n` on the 8x8 board.
fn square(n: u32) -> Option<Square> {
    Square::from_number(n, 32)
}

/// Every valid half of a ballot for the side that takes men off `removals` and draws from `moves`, in the
/// order of the deck (by removal, then by move): a drawn move whose man is gone played by the man behind it,
/// and dropped when there is none.
fn valid_halves(removals: std::ops::RangeInclusive<u32>, moves: &[(u32, u32)]) -> Vec<HalfBallot> {
    let board = Geometry::square(8);
    let behind = |from: u32, to: u32| -> Option<u32> {
        let (fr, fc) = board.row_col(square(from)?);
        let (tr, tc) = board.row_col(square(to)?);
        let row = (2 * fr).checked_sub(tr)?;
        let col = (2 * fc).checked_sub(tc)?;
        board.at(row, col).map(|s| s.number())
    };
    removals
        .flat_map(|removed| {
            moves.iter().filter_map(move |&(from, to)| {
                let played = match from == removed {
                    false => (from, to),
                    true => (behind(from, to)?, from),
                };
                Some(HalfBallot {
                    removed,
                    drawn: (from, to),
                    played,
                })
            })
        })
        .collect()
}

/// The halves that leave different men, the first of each kind kept.
fn distinct(halves: Vec<HalfBallot>, men: std::ops::RangeInclusive<u32>) -> Vec<HalfBallot> {
    let mut seen = std::collections::HashSet::new();
    halves
        .into_iter()
        .filter(|half| seen.insert(half.men(men.clone())))
        .collect()
}

/// The deck: Black's halves in order, each with White's in order.
static DECK: LazyLock<Vec<ElevenMan>> = LazyLock::new(|| {
    let black = distinct(valid_halves(5..=12, &BLACK_MOVES), 1..=12);
    let white = distinct(valid_halves(21..=28, &WHITE_MOVES), 21..=32);
    black
        .iter()
        .flat_map(|b| white.iter().map(move |w| (*b, *w)))
        .enumerate()
        .map(|(i, (black, white))| ElevenMan {
            number: i + 1,
            black,
            white,
        })
        .collect()
});

/// The 2,500 openings of the 11-man ballot, numbered from 1.
pub fn eleven_man_ballots() -> &'static [ElevenMan] {
    &DECK
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::{AnyPosition, GameType};
    use std::collections::HashSet;

    /// The position after both moves, Black to move, as the rules read it.
    fn played(black: &HalfBallot, white: &HalfBallot) -> AnyPosition {
        let list = |men: Vec<u32>| {
            men.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let fen = format!(
            "B:W{}:B{}",
            list(white.men(21..=32)),
            list(black.men(1..=12))
        );
        AnyPosition::from_fen(GameType::default(), &fen).expect("a position")
    }

    #[test]
    fn the_man_behind_stands_in_and_a_missing_one_voids_the_draw() {
        let black = valid_halves(5..=12, &BLACK_MOVES);
        let white = valid_halves(21..=28, &WHITE_MOVES);
        assert_eq!(
            (black.len(), white.len()),
            (55, 55),
            "56 draws less one void"
        );
        let find = |halves: &[HalfBallot], removed, drawn| {
            halves
                .iter()
                .find(|h| h.removed == removed && h.drawn == drawn)
                .map(|h| h.played)
        };
        // The examples of the system's description.
        assert_eq!(find(&black, 11, (11, 15)), Some((8, 11)));
        assert_eq!(find(&black, 9, (9, 14)), Some((5, 9)));
        assert_eq!(find(&black, 11, (11, 16)), Some((7, 11)));
        assert_eq!(find(&white, 24, (24, 20)), Some((27, 24)));
        assert_eq!(find(&black, 5, (9, 14)), Some((9, 14)), "another man gone");
        assert_eq!(
            find(&black, 12, (12, 16)),
            None,
            "nobody behind 12 on that line"
        );
        assert_eq!(find(&white, 21, (21, 17)), None);
    }

    #[test]
    fn the_deck_holds_every_different_opening_once_two_thousand_five_hundred() {
        let deck = eleven_man_ballots();
        assert_eq!(deck.len(), 2_500);
        // Every valid draw, both halves together, gives one of the deck's positions, and every position of the
        // deck comes from one: the deck is exactly the set of openings the draws make.
        let black = valid_halves(5..=12, &BLACK_MOVES);
        let white = valid_halves(21..=28, &WHITE_MOVES);
        let mut from_draws = HashSet::new();
        for b in &black {
            for w in &white {
                from_draws.insert(played(b, w));
            }
        }
        let from_deck: HashSet<AnyPosition> =
            deck.iter().map(|e| played(&e.black, &e.white)).collect();
        assert_eq!(from_deck.len(), 2_500, "all different");
        assert_eq!(from_deck, from_draws);
        for (i, ballot) in deck.iter().enumerate() {
            assert_eq!(ballot.number, i + 1);
        }
    }

    #[test]
    fn a_ballot_is_played_by_the_rules_from_its_start() {
        for ballot in eleven_man_ballots().iter().step_by(37) {
            let mut game =
                crowned_game::AnyGame::from_fen(GameType::default(), &ballot.start_fen())
                    .expect("a start");
            for text in ballot.moves() {
                game.play_text(&text).expect("a legal first move");
            }
            assert_eq!(game.position(), played(&ballot.black, &ballot.white));
        }
        let first = &eleven_man_ballots()[0];
        assert_eq!(first.name(), "11-man ballot 1: 5 and 21 off, 9-13 22-17");
    }
}
