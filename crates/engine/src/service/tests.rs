//! The service's promises, checked in debug builds: every wait is bounded by a generous timeout, so that a bug
//! fails a test rather than hangs it, and nothing depends on how fast the machine is.

use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::Duration;

use super::pool::PANICKING_SEARCH;
use super::*;
use crowned_rules::{AnyPosition, GameType};

/// Far longer than any of these searches takes, even on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(60);
/// How long to listen for a report that must never come. A report that came later would be missed, but none
/// can, as each test ends the request first; a quiet channel is the expected outcome, so this cannot flake.
const QUIET: Duration = Duration::from_millis(200);
/// Small tables: a debug build fills them slowly.
const MEGABYTES: usize = 2;

fn start() -> AnySituation {
    AnySituation::at(AnyPosition::start(GameType::default()))
}

fn request(search: u64, level: Level, limits: Limits) -> Request {
    Request {
        search,
        situation: start(),
        level,
        limits,
        seed: 7 ^ search,
    }
}

/// A search that runs until it is stopped.
fn endless(search: u64) -> Request {
    request(search, Level::Max, Limits::default())
}

fn listening(service: &EngineService) -> (EngineClient, Receiver<Report>) {
    let (sender, reports) = channel();
    let client = service.client(move |report| {
        let _ = sender.send(report);
    });
    (client, reports)
}

fn next(reports: &Receiver<Report>) -> Report {
    match reports.recv_timeout(PATIENCE) {
        Ok(report) => report,
        Err(RecvTimeoutError::Timeout) => panic!("no report within {PATIENCE:?}"),
        Err(RecvTimeoutError::Disconnected) => panic!("the client is gone"),
    }
}

/// Reports up to the end of the request, which must be `search`'s; all of them must be about `search`.
fn answer(reports: &Receiver<Report>, search: u64) -> (Vec<Progress>, Report) {
    let mut progress = Vec::new();
    loop {
        let report = next(reports);
        assert_eq!(report.search(), search, "{report:?}");
        match report {
            Report::Progress { progress: p, .. } => progress.push(p),
            last => return (progress, last),
        }
    }
}

fn assert_legal(last: &Report) {
    let Report::Done { result, .. } = last else {
        panic!("expected an answer, got {last:?}");
    };
    let mv = result.best.expect("a move");
    assert!(start().position.legal_moves().contains(&mv), "{mv:?}");
}

/// Starts a short full-strength search numbered `search` and checks that it answers with a legal move.
fn answers_legally(client: &EngineClient, reports: &Receiver<Report>, search: u64) {
    client
        .start(request(search, Level::Max, Limits::depth(3)))
        .expect("running");
    let (_, last) = answer(reports, search);
    assert_legal(&last);
}

/// Waits for the first completed depth of `search`, so that it is known to be running.
fn running(reports: &Receiver<Report>, search: u64) {
    let report = next(reports);
    assert!(
        matches!(report, Report::Progress { search: s, .. } if s == search),
        "{report:?}"
    );
}

fn quiet(reports: &Receiver<Report>) {
    if let Ok(report) = reports.recv_timeout(QUIET) {
        panic!("unexpected report {report:?}");
    }
}

#[test]
fn a_search_reports_its_depths_then_a_legal_move() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (client, reports) = listening(&service);
    client
        .start(request(1, Level::Max, Limits::depth(4)))
        .expect("running");
    let (progress, last) = answer(&reports, 1);
    let depths: Vec<u32> = progress.iter().map(|p| p.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4]);
    assert_legal(&last);
    assert!(!client.is_busy());
    quiet(&reports);
}

#[test]
fn a_new_request_supersedes_the_old_one() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (client, reports) = listening(&service);
    client.start(endless(1)).expect("running");
    running(&reports, 1);
    client
        .start(request(2, Level::Medium, Limits::depth(2)))
        .expect("running");
    // Reports of the first search sent before the second began may still be in the channel.
    let last = loop {
        let report = next(&reports);
        match report.search() {
            1 => assert!(matches!(report, Report::Progress { .. }), "{report:?}"),
            _ => break report,
        }
    };
    assert_legal(&last);
    assert_eq!(last.search(), 2);
    quiet(&reports);
}

#[test]
fn a_superseded_request_leaves_the_queue() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (busy, busy_reports) = listening(&service);
    busy.start(endless(1)).expect("running");
    running(&busy_reports, 1);
    let (client, reports) = listening(&service);
    for search in 10..15 {
        client
            .start(request(search, Level::Random, Limits::default()))
            .expect("queued");
    }
    assert_eq!(service.queued(), 1);
    busy.cancel();
    let (_, last) = answer(&reports, 14);
    assert_legal(&last);
    quiet(&reports);
}

#[test]
fn a_cancelled_search_never_answers() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (client, reports) = listening(&service);
    client.start(endless(1)).expect("running");
    running(&reports, 1);
    client.cancel();
    assert!(!client.is_busy());
    // What came before the cancel is in the channel already; nothing may follow.
    while reports.try_recv().is_ok() {}
    quiet(&reports);
    // The worker is free again, and only the new search is heard.
    answers_legally(&client, &reports, 2);
}

#[test]
fn moving_now_answers_a_search_without_limits() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (client, reports) = listening(&service);
    client.start(endless(1)).expect("running");
    running(&reports, 1);
    client.move_now();
    let (_, last) = answer(&reports, 1);
    assert_legal(&last);
    quiet(&reports);
}

#[test]
fn moving_now_answers_a_queued_search() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (busy, busy_reports) = listening(&service);
    busy.start(endless(1)).expect("running");
    running(&busy_reports, 1);
    let (client, reports) = listening(&service);
    client.start(endless(2)).expect("queued");
    client.move_now();
    busy.cancel();
    let (_, last) = answer(&reports, 2);
    assert_legal(&last);
}

#[test]
fn two_clients_search_at_once_and_one_cancel_spares_the_other() {
    let service = EngineService::new(2, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (a, a_reports) = listening(&service);
    let (b, b_reports) = listening(&service);
    a.start(endless(1)).expect("running");
    b.start(request(2, Level::Max, Limits::depth(7)))
        .expect("running");
    // Both report a depth before either ends: they run at once, on the two threads.
    running(&a_reports, 1);
    running(&b_reports, 2);
    a.cancel();
    let (_, last) = answer(&b_reports, 2);
    assert_legal(&last);
    // Stopped early, it would have answered from a shallower depth.
    assert!(
        matches!(&last, Report::Done { result, .. } if result.depth == 7),
        "{last:?}"
    );
    while a_reports.try_recv().is_ok() {}
    quiet(&a_reports);
}

#[test]
fn requests_are_served_in_the_order_they_were_made() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (busy, busy_reports) = listening(&service);
    busy.start(endless(1)).expect("running");
    running(&busy_reports, 1);
    let (sender, reports) = channel();
    let clients: Vec<EngineClient> = (0..3)
        .map(|_| {
            let sender = sender.clone();
            service.client(move |report| {
                let _ = sender.send(report);
            })
        })
        .collect();
    for (search, client) in (10..).zip(&clients) {
        client
            .start(request(search, Level::Random, Limits::default()))
            .expect("queued");
    }
    assert_eq!(service.queued(), 3);
    busy.cancel();
    let order: Vec<u64> = (0..3).map(|_| next(&reports).search()).collect();
    assert_eq!(order, [10, 11, 12]);
}

#[test]
fn a_panicking_search_fails_alone_and_the_pool_serves_on() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (failing, failing_reports) = listening(&service);
    let (other, other_reports) = listening(&service);
    failing
        .start(request(PANICKING_SEARCH, Level::Max, Limits::depth(3)))
        .expect("running");
    other
        .start(request(2, Level::Max, Limits::depth(3)))
        .expect("queued");
    let (_, last) = answer(&failing_reports, PANICKING_SEARCH);
    assert_eq!(
        last,
        Report::Failed {
            search: PANICKING_SEARCH
        }
    );
    assert!(!failing.is_busy());
    let (_, last) = answer(&other_reports, 2);
    assert_legal(&last);
    // The same client and thread search again.
    answers_legally(&failing, &failing_reports, 3);
}

#[test]
fn dropping_a_client_cancels_its_search() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (gone, gone_reports) = listening(&service);
    gone.start(endless(1)).expect("running");
    running(&gone_reports, 1);
    drop(gone);
    // With one thread, this answer comes only if the dropped client's search ended.
    let (client, reports) = listening(&service);
    answers_legally(&client, &reports, 2);
}

#[test]
fn dropping_the_service_stops_a_running_search() {
    let service = EngineService::new(2, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("threads");
    let (client, reports) = listening(&service);
    let (waiting, _waiting_reports) = listening(&service);
    client.start(endless(1)).expect("running");
    running(&reports, 1);
    // The drop happens on a thread of its own, so that a hang fails the test instead of stalling it.
    let (dropped, done) = channel();
    thread::spawn(move || {
        drop(service);
        let _ = dropped.send(());
    });
    done.recv_timeout(PATIENCE).expect("the service stops");
    while reports.try_recv().is_ok() {}
    quiet(&reports);
    assert!(!client.is_busy());
    assert_eq!(waiting.start(endless(2)), Err(ServiceStopped));
    assert!(!waiting.is_busy());
}

#[test]
fn a_ponder_hit_gives_an_endless_search_its_time_and_it_answers() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("the service starts");
    let (client, reports) = listening(&service);
    // With nothing live, a hit changes nothing.
    client.ponder_hit(&Limits::time(Duration::from_millis(1)));
    client.start(endless(1)).expect("running");
    // Pondering: at least one depth done, and no answer without a hit.
    assert!(matches!(next(&reports), Report::Progress { search: 1, .. }));
    client.ponder_hit(&Limits::time(Duration::from_millis(30)));
    let (_, last) = answer(&reports, 1);
    assert_legal(&last);
    assert!(!client.is_busy());
}

#[test]
fn a_ponder_hit_without_a_time_limit_answers_at_once() {
    let service = EngineService::new(1, EngineConfig::default().with_table_megabytes(MEGABYTES))
        .expect("the service starts");
    let (client, reports) = listening(&service);
    client.start(endless(1)).expect("running");
    assert!(matches!(next(&reports), Report::Progress { search: 1, .. }));
    client.ponder_hit(&Limits::depth(4));
    let (_, last) = answer(&reports, 1);
    assert_legal(&last);
}
