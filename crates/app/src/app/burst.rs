//! The optional capture effect (`display.capture-effect`): a short burst drawn over each taken piece as it leaves
//! the board, a few frames on the app's own timer.
//!
//! Like the animation, a burst is only a picture: the game has already changed when it starts, any key ends it at
//! once, and nothing waits for it. It keeps its own timer rather than the animation's so that it runs the same
//! whether moves step along their path or appear at once (`display.animation-step = 0`).

use std::time::Duration;

use crate::rules::Square;

pub use crate::config::{CaptureEffect, UnknownCaptureEffect};

/// How many frames a burst has: the flash, the ring, the dust.
pub const BURST_FRAMES: usize = 3;

/// How long each frame of a burst is shown: the whole burst (a quarter of a second) is over before a player
/// would think of pressing a key, and is short enough to cost little over a slow link.
pub const BURST_FRAME: Duration = Duration::from_millis(80);

/// The bursts on show: each taken square with the frame it has reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Burst {
    sparks: Vec<(Square, usize)>,
}

impl Burst {
    /// Starts a burst on each of `squares` at its first frame (a square already bursting starts again). Returns
    /// whether the bursts were idle before, and so need the timer started.
    pub fn add(&mut self, squares: impl IntoIterator<Item = Square>) -> bool {
        let idle = self.sparks.is_empty();
        for square in squares {
            self.sparks.retain(|&(s, _)| s != square);
            self.sparks.push((square, 0));
        }
        idle && !self.sparks.is_empty()
    }

    /// One frame on; the bursts past their last frame end. Returns whether any is still on show.
    pub fn advance(&mut self) -> bool {
        for (_, frame) in &mut self.sparks {
            *frame += 1;
        }
        self.sparks.retain(|&(_, frame)| frame < BURST_FRAMES);
        !self.sparks.is_empty()
    }

    /// The frame on show on `square`, if it is bursting.
    pub fn frame_at(&self, square: Square) -> Option<usize> {
        self.sparks
            .iter()
            .find(|&&(s, _)| s == square)
            .map(|&(_, frame)| frame)
    }

    /// The squares bursting, with their frames.
    pub fn sparks(&self) -> &[(Square, usize)] {
        &self.sparks
    }

    /// Whether nothing is bursting.
    pub fn is_empty(&self) -> bool {
        self.sparks.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u32) -> Square {
        Square::from_number(n, 32).expect("a square")
    }

    #[test]
    fn a_burst_runs_its_frames_and_ends() {
        let mut burst = Burst::default();
        assert!(burst.add([sq(18)]), "the first burst starts the timer");
        assert_eq!(burst.frame_at(sq(18)), Some(0));
        assert!(burst.advance());
        assert!(!burst.add([sq(27)]), "a second joins the running timer");
        assert_eq!(burst.sparks(), &[(sq(18), 1), (sq(27), 0)]);
        assert!(burst.advance());
        assert!(burst.advance(), "27 still on its last frame");
        assert_eq!(burst.sparks(), &[(sq(27), 2)]);
        assert!(!burst.advance());
        assert!(burst.is_empty());
        assert!(!burst.add([]), "nothing to show starts nothing");
    }
}
