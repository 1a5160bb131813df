//! What a single setting's value may be: times in seconds, players, clocks, each checked the same way whether it
//! comes from the settings file or the command line, with a message that says what is accepted.

use std::time::Duration;

use crate::engine::Level;
use crate::engine::Player;
use crate::game::{TimeControl, TimeControlError};
use crate::rules::SquareStyle;

/// The longest time per move, in seconds: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// A number of seconds per move, as the settings and the command line accept it.
pub fn check_seconds(seconds: f64) -> Result<f64, String> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS {
        Ok(seconds)
    } else {
        Err(format!(
            "the time is a number of seconds above 0 and at most {MAX_SECONDS}, not {seconds}"
        ))
    }
}

/// The longest pace a game between engines may be given: ten minutes a move.
pub const MAX_PACE: f64 = 600.0;

/// The longest step of a move's animation: a second (longer would only be waiting).
pub(super) const MAX_ANIMATION_STEP: f64 = 1.0;

/// A number of seconds from 0 (off) to `max`, as the settings and the command line accept it.
pub fn check_interval(seconds: f64, max: f64) -> Result<f64, String> {
    if seconds.is_finite() && (0.0..=max).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!(
            "the time is a number of seconds from 0 (off) to {max}, not {seconds}"
        ))
    }
}

/// A time in seconds as a setting gives it (a pace, an animation step), `None` for 0 (off).
pub fn interval(seconds: f64) -> Option<Duration> {
    (seconds > 0.0).then(|| Duration::from_secs_f64(seconds))
}

pub(super) fn parse_player(text: &str) -> Result<Player, String> {
    text.parse().map_err(|_| {
        let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        format!(
            "unknown player {text:?}: a player is \"human\" or an engine level ({})",
            levels.join(", ")
        )
    })
}

/// A time control as the settings and the command line write it: `none`, or one [`TimeControl`] reads.
pub fn parse_clock(text: &str) -> Result<Option<TimeControl>, String> {
    if text.trim().eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|e: TimeControlError| format!("{e}, or none"))
}

/// A notation as the settings and the command line name it: `auto` (`None`: each variant's own), `numbers` or
/// `coordinates`.
pub fn parse_notation(text: &str) -> Result<Option<SquareStyle>, String> {
    if text.trim().eq_ignore_ascii_case("auto") {
        Ok(None)
    } else {
        text.parse().map(Some).map_err(|e| format!("{e} (or auto)"))
    }
}
