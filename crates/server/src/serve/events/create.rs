//! How an event is set up in words, as `ssh host tournament new ...` takes them (and the lobby's form writes
//! them): `arena` or `swiss`, a variant, a clock, `casual`, `private`, `in=MINUTES` or `at=HH:MM` (UTC),
//! `minutes=N` (an arena's length) or `rounds=N` (a Swiss event's), and `name=...` (the rest of the line).

use std::str::FromStr;

use thiserror::Error;

use crate::game::TimeControl;
use crate::rules::Variant;
use crate::serve::ids::{Fingerprint, TableCode};
use crate::serve::records::{EventKind, EventSpec};
use crate::serve::text::clean_line;

/// The longest event name kept, in characters.
pub const MAX_EVENT_NAME: usize = 40;
/// The shortest arena, in seconds (short ones are for trying the server out).
pub const MIN_ARENA_SECONDS: u32 = 10;
/// The longest arena, in seconds.
pub const MAX_ARENA_SECONDS: u32 = 24 * 3600;
/// The most rounds a Swiss event is set up with.
pub const MAX_SWISS_ROUNDS: u32 = 30;
/// The furthest ahead an event may start, in seconds.
pub const MAX_AHEAD: i64 = 7 * 24 * 3600;

/// Why the words of `tournament new` do not set up an event; the text is what the player is shown.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetUpError {
    /// Neither `arena` nor `swiss` was said.
    #[error("say `arena` or `swiss`")]
    NoKind,
    /// A word that means nothing here (made safe to show).
    #[error(
        "`{0}` is not arena, swiss, a variant, a clock (3+2), casual, private, in=MINUTES, at=HH:MM, \
         minutes=N, seconds=N, rounds=N or name=..."
    )]
    NotAWord(String),
    /// A number out of its range.
    #[error("{0} is out of range")]
    OutOfRange(&'static str),
}

/// Reads the words after `tournament new` into an event created by `by` at `now` (seconds since the epoch);
/// its code is left empty for the server to choose.
pub fn read_spec(words: &str, by: Option<Fingerprint>, now: i64) -> Result<EventSpec, SetUpError> {
    let (words, name) = match words.find("name=") {
        Some(at) => (
            &words[..at],
            Some(clean_line(&words[at + 5..], MAX_EVENT_NAME)),
        ),
        None => (words, None),
    };
    let mut kind = None;
    let mut variant = Variant::English;
    let mut clock: TimeControl = "3+2".parse().map_err(|_| SetUpError::NoKind)?;
    let (mut rated, mut open) = (true, true);
    let mut starts = now + 60;
    let mut seconds = None;
    let mut rounds = None;
    for word in words.split_whitespace() {
        let lower = word.to_ascii_lowercase();
        let (key, value) = lower.split_once('=').unwrap_or((lower.as_str(), ""));
        let number = |what: &'static str| {
            value
                .parse::<u32>()
                .map_err(|_| SetUpError::OutOfRange(what))
        };
        match key {
            "arena" => kind = Some(EventKind::Arena),
            "swiss" => kind = Some(EventKind::Swiss),
            "casual" | "unrated" => rated = false,
            "rated" => rated = true,
            "private" => open = false,
            "public" | "open" => open = true,
            "in" => starts = now + i64::from(number("in")?) * 60,
            "in-seconds" => starts = now + i64::from(number("in-seconds")?),
            "at" => starts = next_time_of_day(value, now).ok_or(SetUpError::OutOfRange("at"))?,
            "minutes" => seconds = Some(number("minutes")?.saturating_mul(60)),
            "seconds" => seconds = Some(number("seconds")?),
            "rounds" => rounds = Some(number("rounds")?),
            _ => {
                if let Ok(v) = Variant::from_str(&lower) {
                    variant = v;
                } else if let Ok(c) = lower.parse::<TimeControl>() {
                    clock = c;
                } else {
                    return Err(SetUpError::NotAWord(clean_line(word, 24)));
                }
            }
        }
    }
    let kind = kind.ok_or(SetUpError::NoKind)?;
    if starts > now + MAX_AHEAD {
        return Err(SetUpError::OutOfRange("the start"));
    }
    let (seconds, rounds) = match kind {
        EventKind::Arena => (seconds.unwrap_or(30 * 60), 0),
        EventKind::Swiss => (0, rounds.unwrap_or(5)),
    };
    if kind == EventKind::Arena && !(MIN_ARENA_SECONDS..=MAX_ARENA_SECONDS).contains(&seconds) {
        return Err(SetUpError::OutOfRange("the arena's length"));
    }
    if kind == EventKind::Swiss && !(1..=MAX_SWISS_ROUNDS).contains(&rounds) {
        return Err(SetUpError::OutOfRange("rounds"));
    }
    let kind_name = match kind {
        EventKind::Arena => "Arena",
        EventKind::Swiss => "Swiss",
    };
    Ok(EventSpec {
        code: TableCode::new(""),
        name: name
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| format!("{} {kind_name} {clock}", variant.title())),
        kind,
        variant: variant_word(variant),
        clock: clock.to_string(),
        rated,
        open,
        starts,
        seconds,
        rounds,
        created_by: by,
    })
}

/// A variant as the records name it (the word `new` takes).
fn variant_word(variant: Variant) -> String {
    variant
        .to_string()
        .split_whitespace()
        .next()
        .unwrap_or("english")
        .to_ascii_lowercase()
}

/// The next time (seconds since the epoch) after `now` that the clock in UTC shows `hh:mm`.
pub fn next_time_of_day(text: &str, now: i64) -> Option<i64> {
    let (h, m) = text.split_once(':')?;
    let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    if !(0..24).contains(&h) || !(0..60).contains(&m) {
        return None;
    }
    let day = now.div_euclid(86_400) * 86_400;
    let today = day + h * 3600 + m * 60;
    Some(if today > now { today } else { today + 86_400 })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000;

    #[test]
    fn reads_an_event_s_words() {
        let spec = read_spec(
            "swiss rounds=5 5+3 casual private in=2 name=Club night",
            None,
            NOW,
        )
        .expect("a Swiss event");
        assert_eq!(spec.kind, EventKind::Swiss);
        assert_eq!(spec.rounds, 5);
        assert_eq!(spec.clock, "5+3");
        assert!(!spec.rated && !spec.open);
        assert_eq!(spec.starts, NOW + 120);
        assert_eq!(spec.name, "Club night");
        let arena =
            read_spec("arena russian seconds=30 in-seconds=3", None, NOW).expect("an arena");
        assert_eq!(arena.kind, EventKind::Arena);
        assert_eq!(arena.seconds, 30);
        assert_eq!(arena.variant, "russian");
        assert_eq!(arena.starts, NOW + 3);
        assert!(arena.variant.parse::<Variant>().is_ok());
    }

    #[test]
    fn refuses_what_does_not_set_up_an_event() {
        assert_eq!(read_spec("rounds=3", None, NOW), Err(SetUpError::NoKind));
        assert!(matches!(
            read_spec("arena frobnicate", None, NOW),
            Err(SetUpError::NotAWord(_))
        ));
        assert!(read_spec("arena seconds=2", None, NOW).is_err());
        assert!(read_spec("swiss rounds=0", None, NOW).is_err());
        assert!(read_spec("swiss rounds=x", None, NOW).is_err());
        assert!(read_spec("swiss in=100000", None, NOW).is_err());
        assert!(read_spec("swiss at=25:00", None, NOW).is_err());
    }

    #[test]
    fn a_time_of_day_is_the_next_one() {
        let midnight = NOW.div_euclid(86_400) * 86_400;
        let at = next_time_of_day("18:30", midnight).expect("a time");
        assert_eq!(at, midnight + 18 * 3600 + 1800);
        assert_eq!(next_time_of_day("00:00", midnight), Some(midnight + 86_400));
    }
}
