//! The evaluation's weights, in 64ths of a hundredth of a man, one per term of [`super::eval::terms`].
//!
//! The hand-written weights the engine started with, before any tuning; `crowned tune fit` writes this file.

use super::eval::TERMS;

/// The weights the engine plays with.
#[rustfmt::skip]
pub const WEIGHTS: [i32; TERMS] = [
    6400, // men
    8320, // kings
    64, // kings late
    96, // back row 1
    53, // back row 2
    96, // back row 3
    32, // back row 4
    13, // advance late
    3072, // runaway
    -448, // runaway to go
    1536, // runaway (kings)
    -224, // runaway (kings) to go
    192, // king centre
    -128, // king chase
    384, // king cornered
    11, // trade down
    128, // mobility
    0, // tempo
    0, // man on 1
    0, // man on 2
    0, // man on 3
    0, // man on 4
    0, // man on 5
    0, // man on 6
    0, // man on 7
    0, // man on 8
    0, // man on 9
    0, // man on 10
    0, // man on 11
    0, // man on 12
    0, // man on 13
    256, // man on 14
    256, // man on 15
    0, // man on 16
    0, // man on 17
    256, // man on 18
    256, // man on 19
    0, // man on 20
    0, // man on 21
    0, // man on 22
    0, // man on 23
    0, // man on 24
    0, // man on 25
    0, // man on 26
    0, // man on 27
    0, // man on 28
    0, // man on 29
    0, // man on 30
    0, // man on 31
    0, // man on 32
];
