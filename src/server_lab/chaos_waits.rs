//! What the faults of `crowned bench chaos` cost the players: the moves that took long to settle, by the fault
//! that caused each.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// A move that took long to settle: what a player waited through.
#[derive(Clone, Debug)]
pub struct Wait {
    /// The table's code, for the longest wait to be looked up in the nodes' logs.
    pub table: String,
    /// When the move was sent.
    pub sent: Instant,
    /// How long until it was settled.
    pub waited: Duration,
    /// Whether the mover's connection dropped meanwhile (their node died): the wait is then the time to find
    /// the game again, not a patience spent looking at a table that said nothing.
    pub dropped: bool,
}

/// A move settled later than this after it was sent is counted as a wait ([`ChaosGame::waits`](super::chaos::ChaosGame::waits)): a move takes
/// milliseconds when nothing fails.
pub const SLOW: Duration = Duration::from_secs(1);

/// The waits of the players (moves settled late, [`ChaosGame::waits`](super::chaos::ChaosGame::waits)) by the kind of fault that caused each, as
/// report lines: how many, the median and the longest. `struck` is when each fault began and its kind's name, in
/// order. A wait goes with the first fault that began while it lasted (a move sent just before a node died waits
/// for it), else with the last one begun before it (a fault whose effects outlast it). A fault at another node
/// than the game's may be counted too: the figures bound what the faults cost the players, they do not time one
/// node's take-over alone. The longest of each kind names its table and when it was sent, counted from `began`.
pub fn waits_by_fault<'a>(
    began: Instant,
    struck: &[(Instant, &'static str)],
    waits: impl IntoIterator<Item = &'a Wait>,
) -> Vec<String> {
    let mut by_kind: BTreeMap<String, Vec<&Wait>> = BTreeMap::new();
    for wait in waits {
        let (sent, ended) = (wait.sent, wait.sent + wait.waited);
        let during = struck.iter().find(|(at, _)| (sent..=ended).contains(at));
        let before = || struck.iter().rev().find(|(at, _)| *at < sent);
        let kind = during.or_else(before).map_or("no fault", |(_, kind)| *kind);
        let how = match wait.dropped {
            true => "connection dropped",
            false => "table silent",
        };
        by_kind
            .entry(format!("{kind}, {how}"))
            .or_default()
            .push(wait);
    }
    let mut lines: Vec<String> = by_kind
        .into_iter()
        .map(|(kind, mut waits)| {
            waits.sort_by_key(|wait| wait.waited);
            let median = waits[(waits.len() - 1) / 2].waited;
            let longest = waits[waits.len() - 1];
            format!(
                "after {kind}: {} moves, median {:.1} s, longest {:.1} s (table {}, sent {:.1} s into the run)",
                waits.len(),
                median.as_secs_f64(),
                longest.waited.as_secs_f64(),
                longest.table,
                longest.sent.saturating_duration_since(began).as_secs_f64(),
            )
        })
        .collect();
    lines.sort();
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_go_with_the_last_fault_begun_before_they_ended() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let struck = [(at(1_000), "kills"), (at(5_000), "stalls")];
        let waits = [
            // Sent before the kill, settled after it.
            (900, 2_000, true),
            (1_100, 1_200, true),
            // Sent into a stall, settled long after it began.
            (6_000, 1_500, false),
            (5_500, 4_000, false),
            (10, 300, false),
        ]
        .map(|(sent, waited, dropped)| Wait {
            table: format!("T{sent}"),
            sent: at(sent),
            waited: Duration::from_millis(waited),
            dropped,
        });
        assert_eq!(
            waits_by_fault(start, &struck, &waits),
            [
                "after kills, connection dropped: 2 moves, median 1.2 s, longest 2.0 s (table T900, sent 0.9 s \
                 into the run)",
                "after no fault, table silent: 1 moves, median 0.3 s, longest 0.3 s (table T10, sent 0.0 s into \
                 the run)",
                "after stalls, table silent: 2 moves, median 1.5 s, longest 4.0 s (table T5500, sent 5.5 s into \
                 the run)",
            ]
        );
    }
}
