//! What the server counts for an operator's dashboard, in Prometheus's text format: sessions by door, tables,
//! moves, the records' commit latency, updates dropped for clients that fall behind, leases renewed and games
//! taken over, connections refused by reason.
//!
//! The counting goes through the `metrics` crate's facade, which does nothing until a recorder is installed:
//! the server's tests and the benches that run it in the same process count nothing, and the program installs
//! one ([`Metrics::install`]) only when an operator asks for the endpoint. Each metric is named here once, with
//! its help line; the rest of the server calls the functions below, never the facade's macros with a name.

use std::future::Future;
use std::time::Duration;

use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder, PrometheusHandle};
use thiserror::Error;

use super::Shared;
use super::limits::{ConnectionLimits, ConnectionRefusal};

const SESSIONS: &str = "crowned_sessions";
const TABLES: &str = "crowned_tables";
const CONNECTIONS: &str = "crowned_connections";
const READY: &str = "crowned_ready";
const MOVES: &str = "crowned_moves_total";
const COMMIT_SECONDS: &str = "crowned_records_commit_seconds";
const COMMITS_FAILED: &str = "crowned_records_commits_failed_total";
const UPDATES_DROPPED: &str = "crowned_updates_dropped_total";
const LEASE_RENEWALS: &str = "crowned_lease_renewals_total";
const LEASE_RENEWALS_FAILED: &str = "crowned_lease_renewals_failed_total";
const TAKE_OVERS: &str = "crowned_take_overs_total";
const TABLES_LOST: &str = "crowned_tables_lost_total";
const HANDED_OVER: &str = "crowned_tables_handed_over_total";
const HANDING_OVER: &str = "crowned_handing_over";
const REFUSED: &str = "crowned_connections_refused_total";

/// The commit latency's buckets, in seconds: a commit is a transaction on a local disk (a millisecond or two) or
/// on a database across a network (tens of milliseconds), and anything near a second is a stall players feel.
const COMMIT_BUCKETS: &[f64] = &[
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// The way a player came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Door {
    /// An SSH client.
    Ssh,
    /// A browser's WebSocket.
    Web,
}

impl Door {
    fn label(self) -> &'static str {
        match self {
            Door::Ssh => "ssh",
            Door::Web => "web",
        }
    }
}

/// Why a door turned a connection away, as the metrics name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The limits on connections (see [`ConnectionRefusal`]).
    Limits(ConnectionRefusal),
    /// The server is draining.
    Draining,
    /// A banned key or address.
    Banned,
    /// A browser's request from another site's page.
    Origin,
}

impl Refused {
    fn label(self) -> &'static str {
        match self {
            Refused::Limits(ConnectionRefusal::Full) => "full",
            Refused::Limits(ConnectionRefusal::TooManyFromAddress) => "too_many_from_address",
            Refused::Draining => "draining",
            Refused::Banned => "banned",
            Refused::Origin => "origin",
        }
    }
}

/// Which bounded queue dropped an update for a client that fell behind (it gets the newest state later).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queue {
    /// A table's queue to one of its players or watchers on this node.
    Table,
    /// The relay's queue to a player or watcher of a table on another node.
    Relay,
}

impl Queue {
    fn label(self) -> &'static str {
        match self {
            Queue::Table => "table",
            Queue::Relay => "relay",
        }
    }
}

/// Runs `session`, a player's connection through `door`, counted among the sessions open while it runs.
pub async fn counted<F: Future>(door: Door, session: F) -> F::Output {
    let _open = OpenSession::new(door);
    session.await
}

/// One session counted while it lives (dropped however the session ends, a panic included).
struct OpenSession(Door);

impl OpenSession {
    fn new(door: Door) -> OpenSession {
        gauge!(SESSIONS, "door" => door.label()).increment(1.0);
        OpenSession(door)
    }
}

impl Drop for OpenSession {
    fn drop(&mut self) {
        gauge!(SESSIONS, "door" => self.0.label()).decrement(1.0);
    }
}

/// A door turned a connection away.
pub fn refused(door: Door, why: Refused) {
    counter!(REFUSED, "door" => door.label(), "reason" => why.label()).increment(1);
}

/// A commit of `moves` moves was written, `waited` after it was asked for.
pub fn committed(moves: usize, waited: Duration) {
    histogram!(COMMIT_SECONDS).record(waited.as_secs_f64());
    if moves > 0 {
        counter!(MOVES).increment(moves as u64);
    }
}

/// A commit was not written (the records refused it, or could not be written).
pub fn commit_failed() {
    counter!(COMMITS_FAILED).increment(1);
}

/// `queue` dropped an update for a client that fell behind.
pub fn update_dropped(queue: Queue) {
    counter!(UPDATES_DROPPED, "queue" => queue.label()).increment(1);
}

/// This node's heartbeat renewed its leases, or failed to.
pub fn lease_renewal(renewed: bool) {
    match renewed {
        true => counter!(LEASE_RENEWALS).increment(1),
        false => counter!(LEASE_RENEWALS_FAILED).increment(1),
    }
}

/// This node took a game over from a node that had gone.
pub fn taken_over() {
    counter!(TAKE_OVERS).increment(1);
}

/// Another node took over a game this node ran: it stopped here.
pub fn table_lost() {
    counter!(TABLES_LOST).increment(1);
}

/// This node, draining, handed `tables` tables to the other nodes.
pub fn handed_over(tables: u64) {
    counter!(HANDED_OVER).increment(tables);
}

/// Whether this node, draining, has tables or events still to hand over (here, or stopped and waiting for their
/// leases to be handed): an operator stops it once this is 0.
pub fn handing_over(pending: bool) {
    gauge!(HANDING_OVER).set(if pending { 1.0 } else { 0.0 });
}

/// Why the metrics' endpoint could not be set up.
#[derive(Debug, Error)]
pub enum MetricsError {
    /// The exporter refused its setup, or a recorder was installed already in this process.
    #[error("cannot set up the metrics: {0}")]
    Setup(#[from] BuildError),
}

/// The installed recorder: what the endpoint renders.
#[derive(Clone)]
pub struct Metrics {
    handle: PrometheusHandle,
}

impl Metrics {
    /// Installs the process's recorder (once a process) and describes every metric.
    pub fn install() -> Result<Metrics, MetricsError> {
        let handle = builder()?.install_recorder()?;
        describe();
        start_at_zero();
        Ok(Metrics { handle })
    }

    /// The metrics as Prometheus's text format, the gauges read from `shared` and `limits` as they stand.
    pub fn render(&self, shared: &Shared, limits: &ConnectionLimits) -> String {
        set_gauges(shared, limits);
        self.handle.render()
    }
}

/// The exporter's setup: the commit latency as a histogram with buckets (Prometheus can sum those across
/// nodes, where it cannot sum the quantiles of a summary), the rest as counted.
fn builder() -> Result<PrometheusBuilder, BuildError> {
    PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(COMMIT_SECONDS.into()), COMMIT_BUCKETS)
}

/// The help line of each metric.
fn describe() {
    describe_gauge!(SESSIONS, "Players' sessions open now, by door.");
    describe_gauge!(TABLES, "Tables (games between people) this node runs now.");
    describe_gauge!(
        CONNECTIONS,
        "Connections held now, signed in or not, by both doors."
    );
    describe_gauge!(
        READY,
        "1 while the server takes players, 0 while it drains, stops or cannot write its records."
    );
    describe_counter!(MOVES, "Moves written to the records (and then shown).");
    describe_histogram!(
        COMMIT_SECONDS,
        metrics::Unit::Seconds,
        "Time from a table's commit (a move, a takeback, a result) to the records' answer that it is durable."
    );
    describe_counter!(
        COMMITS_FAILED,
        "Commits not written: the records refused them or could not be written."
    );
    describe_counter!(
        UPDATES_DROPPED,
        "Updates not queued for a client that fell behind (it gets the newest state when it catches up), by queue."
    );
    describe_counter!(
        LEASE_RENEWALS,
        "Heartbeats that renewed this node's leases."
    );
    describe_counter!(
        LEASE_RENEWALS_FAILED,
        "Heartbeats that could not renew this node's leases."
    );
    describe_counter!(
        TAKE_OVERS,
        "Games taken over here from nodes that had gone."
    );
    describe_counter!(
        TABLES_LOST,
        "Games stopped here because another node took them over."
    );
    describe_counter!(
        HANDED_OVER,
        "Tables this node handed to the other nodes as it drained."
    );
    describe_gauge!(
        HANDING_OVER,
        "1 while this node, draining, has tables or events still to hand to the other nodes; else 0."
    );
    describe_counter!(REFUSED, "Connections turned away, by door and reason.");
}

/// Every series the server knows of, at zero: a dashboard sees a count that has not moved yet as 0 rather than
/// as missing, and a rate over it from the start.
fn start_at_zero() {
    for door in [Door::Ssh, Door::Web] {
        gauge!(SESSIONS, "door" => door.label()).increment(0.0);
        for why in [
            Refused::Limits(ConnectionRefusal::Full),
            Refused::Limits(ConnectionRefusal::TooManyFromAddress),
            Refused::Draining,
            Refused::Banned,
            Refused::Origin,
        ] {
            counter!(REFUSED, "door" => door.label(), "reason" => why.label()).increment(0);
        }
    }
    for queue in [Queue::Table, Queue::Relay] {
        counter!(UPDATES_DROPPED, "queue" => queue.label()).increment(0);
    }
    for name in [
        MOVES,
        COMMITS_FAILED,
        LEASE_RENEWALS,
        LEASE_RENEWALS_FAILED,
        TAKE_OVERS,
        TABLES_LOST,
        HANDED_OVER,
    ] {
        counter!(name).increment(0);
    }
    handing_over(false);
    // A histogram is written once it holds a value; until the first commit, its count alone says none came.
    let _ = histogram!(COMMIT_SECONDS);
}

/// The gauges that are the server's state rather than a count of events: read as the endpoint is asked.
fn set_gauges(shared: &Shared, limits: &ConnectionLimits) {
    gauge!(TABLES).set(shared.tables.len() as f64);
    gauge!(CONNECTIONS).set(limits.held() as f64);
    gauge!(READY).set(if shared.readiness().is_ok() { 1.0 } else { 0.0 });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders what `count` counts with a recorder of its own (the process's global one is never installed by
    /// the tests), what it returns still held.
    fn rendered<T>(count: impl FnOnce() -> T) -> String {
        let recorder = builder().expect("the setup is valid").build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            describe();
            let held = count();
            let text = handle.render();
            drop(held);
            text
        })
    }

    fn value(text: &str, series: &str) -> Option<f64> {
        text.lines()
            .find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
    }

    #[test]
    fn sessions_are_counted_by_door_while_they_run_and_refusals_by_reason() {
        let text = rendered(|| {
            let ssh = [OpenSession::new(Door::Ssh), OpenSession::new(Door::Ssh)];
            let web = OpenSession::new(Door::Web);
            drop(web);
            drop(ssh);
            refused(Door::Ssh, Refused::Draining);
            refused(Door::Web, Refused::Limits(ConnectionRefusal::Full));
            refused(Door::Web, Refused::Limits(ConnectionRefusal::Full));
            OpenSession::new(Door::Ssh)
        });
        assert_eq!(
            value(&text, r#"crowned_sessions{door="ssh"}"#),
            Some(1.0),
            "{text}"
        );
        assert_eq!(
            value(&text, r#"crowned_sessions{door="web"}"#),
            Some(0.0),
            "{text}"
        );
        assert_eq!(
            value(
                &text,
                r#"crowned_connections_refused_total{door="web",reason="full"}"#
            ),
            Some(2.0),
            "{text}"
        );
        assert_eq!(
            value(
                &text,
                r#"crowned_connections_refused_total{door="ssh",reason="draining"}"#
            ),
            Some(1.0)
        );
        assert!(text.contains("# HELP crowned_sessions Players' sessions open now, by door."));
    }

    #[test]
    fn every_series_is_there_from_the_start() {
        let text = rendered(start_at_zero);
        for series in [
            r#"crowned_sessions{door="web"} 0"#,
            r#"crowned_connections_refused_total{door="ssh",reason="banned"} 0"#,
            r#"crowned_updates_dropped_total{queue="table"} 0"#,
            "crowned_moves_total 0",
            "crowned_take_overs_total 0",
            "crowned_lease_renewals_failed_total 0",
        ] {
            assert!(
                text.lines().any(|line| line == series),
                "{series} in {text}"
            );
        }
    }

    #[test]
    fn commits_make_a_histogram_in_seconds_and_count_their_moves() {
        let text = rendered(|| {
            committed(1, Duration::from_micros(700));
            committed(2, Duration::from_millis(30));
            committed(0, Duration::from_secs(3));
            commit_failed();
            update_dropped(Queue::Relay);
        });
        assert_eq!(value(&text, "crowned_moves_total"), Some(3.0), "{text}");
        assert_eq!(
            value(&text, "crowned_records_commit_seconds_count"),
            Some(3.0)
        );
        let bucket = |le: &str| {
            value(
                &text,
                &format!(r#"crowned_records_commit_seconds_bucket{{le="{le}"}}"#),
            )
        };
        assert_eq!(bucket("0.001"), Some(1.0), "{text}");
        assert_eq!(bucket("0.05"), Some(2.0));
        assert_eq!(bucket("5"), Some(3.0));
        assert_eq!(bucket("+Inf"), Some(3.0));
        assert_eq!(
            value(&text, "crowned_records_commits_failed_total"),
            Some(1.0)
        );
        assert_eq!(
            value(&text, r#"crowned_updates_dropped_total{queue="relay"}"#),
            Some(1.0)
        );
        assert!(text.contains("# TYPE crowned_records_commit_seconds histogram"));
    }
}
