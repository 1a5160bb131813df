//! An event's summary as its owner writes it in the event's lease, for the other nodes: their lobbies list the
//! event from it, and the players there who look at the event see its table from it (as fresh as the owner's
//! last heartbeat; what a player must hear at once, their pairing, comes as a message).

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::serve::event_rules::Colour;
use crate::serve::events::view::View;
use crate::serve::ids::{Fingerprint, TableCode};
use crate::serve::records::{EventKind, EventSpec, Stage};

/// An event's summary as the nodes write it.
#[derive(Debug, Serialize, Deserialize)]
struct Summary {
    name: String,
    kind: String,
    variant: String,
    clock: String,
    rated: bool,
    open: bool,
    starts: i64,
    seconds: u32,
    rounds: u32,
    created_by: Option<String>,
    stage: String,
    entrants: usize,
    text: String,
    leaders: String,
    /// Each player at a game under way: their key, the table, and whether they move first.
    boards: Vec<(String, String, bool)>,
}

/// `view` as text, for the other nodes.
pub fn listing_text(view: &View) -> String {
    let spec = &view.spec;
    let summary = Summary {
        name: spec.name.clone(),
        kind: spec.kind.as_str().to_string(),
        variant: spec.variant.clone(),
        clock: spec.clock.clone(),
        rated: spec.rated,
        open: spec.open,
        starts: spec.starts,
        seconds: spec.seconds,
        rounds: spec.rounds,
        created_by: spec.created_by.as_ref().map(ToString::to_string),
        stage: view.stage.as_str().to_string(),
        entrants: view.entrants,
        text: view.text.clone(),
        leaders: view.leaders.clone(),
        boards: view
            .boards
            .iter()
            .map(|(who, (code, colour))| {
                (who.to_string(), code.to_string(), *colour == Colour::First)
            })
            .collect(),
    };
    // Plain data with string keys: serialising cannot fail.
    serde_json::to_string(&summary).unwrap_or_default()
}

/// The event `code` as another node summarised it; `None` when the summary does not read (logged).
pub fn view_from_listing(code: &TableCode, text: &str) -> Option<Arc<View>> {
    let summary: Summary = serde_json::from_str(text)
        .inspect_err(|error| tracing::warn!(%error, %code, "another node's event summary"))
        .ok()?;
    let spec = EventSpec {
        code: code.clone(),
        name: summary.name,
        kind: EventKind::parse(&summary.kind)?,
        variant: summary.variant,
        clock: summary.clock,
        rated: summary.rated,
        open: summary.open,
        starts: summary.starts,
        seconds: summary.seconds,
        rounds: summary.rounds,
        created_by: summary.created_by.map(Fingerprint::new),
    };
    let boards: HashMap<Fingerprint, (TableCode, Colour)> = summary
        .boards
        .into_iter()
        .map(|(who, code, first)| {
            let colour = if first { Colour::First } else { Colour::Second };
            (Fingerprint::new(who), (TableCode::new(code), colour))
        })
        .collect();
    Some(Arc::new(View {
        spec,
        stage: Stage::parse(&summary.stage)?,
        entrants: summary.entrants,
        text: summary.text,
        leaders: summary.leaders,
        boards,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_reads_back_as_the_view_it_was_written_from() {
        let view = View {
            spec: EventSpec {
                code: TableCode::new("T4RN"),
                name: "Night arena".to_string(),
                kind: EventKind::Arena,
                variant: "english".to_string(),
                clock: "3+2".to_string(),
                rated: true,
                open: false,
                starts: 1_800_000_000,
                seconds: 1800,
                rounds: 0,
                created_by: Some(Fingerprint::new("SHA256:ann")),
            },
            stage: Stage::Running,
            entrants: 2,
            text: "the table\nline two".to_string(),
            leaders: "1. ann 2 · 2. bob 0".to_string(),
            boards: HashMap::from([
                (
                    Fingerprint::new("SHA256:ann"),
                    (TableCode::new("K7QX"), Colour::First),
                ),
                (
                    Fingerprint::new("SHA256:bob"),
                    (TableCode::new("K7QX"), Colour::Second),
                ),
            ]),
        };
        let back = view_from_listing(&view.spec.code, &listing_text(&view)).expect("reads");
        assert_eq!(back.spec, view.spec);
        assert_eq!(back.stage, view.stage);
        assert_eq!(back.entrants, view.entrants);
        assert_eq!(back.text, view.text);
        assert_eq!(back.leaders, view.leaders);
        assert_eq!(back.boards, view.boards);
        assert!(view_from_listing(&view.spec.code, "{\"name\": 3}").is_none());
    }
}
