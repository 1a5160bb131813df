//! The evaluation's weights, in 64ths of a hundredth of a man, one per term of [`super::eval::terms`].
//!
//! Written by `crowned tune fit` from 5350137 positions (selfplay-d8.txt, tinsley.pdn), 800 epochs: mean squared error 0.052802 before,
//! 0.049000 after, with a sigmoid scale of 0.00569 per hundredth of a man.

/// The weights the engine plays with.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 50] = [
    6400, // men
    10782, // kings
    -161, // kings late
    511, // back row 1
    705, // back row 2
    507, // back row 3
    103, // back row 4
    0, // advance late
    3569, // runaway
    -982, // runaway to go
    1766, // runaway (kings)
    -179, // runaway (kings) to go
    -242, // king centre
    -290, // king chase
    2408, // king cornered
    25, // trade down
    55, // mobility
    -77, // tempo
    470, // man on 1
    613, // man on 2
    985, // man on 3
    -994, // man on 4
    261, // man on 5
    867, // man on 6
    1169, // man on 7
    -303, // man on 8
    120, // man on 9
    1063, // man on 10
    -174, // man on 11
    -237, // man on 12
    623, // man on 13
    -22, // man on 14
    895, // man on 15
    -667, // man on 16
    585, // man on 17
    3, // man on 18
    -121, // man on 19
    371, // man on 20
    597, // man on 21
    319, // man on 22
    64, // man on 23
    -543, // man on 24
    648, // man on 25
    579, // man on 26
    417, // man on 27
    -866, // man on 28
    0, // man on 29
    0, // man on 30
    0, // man on 31
    0, // man on 32
];
