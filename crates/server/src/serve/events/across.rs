//! Events on a server of several nodes: an event found here, on another node (through the relay) or, when its
//! node has died, taken over by this one from the records; what each heartbeat does for them (renewed with the
//! tables' leases; summaries written for the other nodes and theirs read; events lost or lapsed; events over
//! given up); and the link a resumed game of an event keeps to it, wherever the event runs.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use super::{EventHandle, Events, View, channel, locked, recorded_results, task, views_of};
use crate::serve::Shared;
use crate::serve::event_rules::director::{Director, event_tags};
use crate::serve::ids::{GameId, TableCode};
use crate::serve::nodes::cluster::{Beat, Cluster, EventOwner};
use crate::serve::nodes::event_listing::listing_text;
use crate::serve::nodes::{NodeName, Resumption, Sweep};
use crate::serve::records::{EventRecord, EventSpec, Records, RecordsError, Stage};
use crate::serve::table::{EventLink, GameEnded};

/// How long an event another node has just created is waited for in the records.
const RECORDS_WAIT: Duration = Duration::from_secs(2);

/// How many times a game's result is offered to its event's node before it is left to the records.
const REPORT_TRIES: usize = 60;

/// The pause between two offers of a result whose event has no live node just now (being taken over).
const REPORT_RETRY: Duration = Duration::from_secs(1);

impl Events {
    /// Joins the other nodes: events are created with a lease, and listed from theirs too.
    pub(crate) fn join_cluster(&self, cluster: Arc<Cluster>) {
        let _ = self.cluster.set(cluster);
    }

    /// The codes of the events this node holds (running, or over and not yet given up).
    pub fn codes_here(&self) -> Vec<TableCode> {
        self.running().keys().cloned().collect()
    }

    /// Each event here with its summary for the other nodes.
    fn listings(&self) -> Vec<(TableCode, String)> {
        self.running()
            .iter()
            .map(|(code, here)| (code.clone(), listing_text(&here.handle.view.borrow())))
            .collect()
    }

    /// Stops the event `code` here (another node holds it now, or is to: this node drains). Its state is the
    /// records': what it sent them is written, and the node that runs it next starts it from them.
    pub(crate) fn stop(&self, code: &TableCode) {
        if let Some(here) = self.running().remove(code) {
            here.task.abort();
        }
    }

    /// Whether the task of an event here has ended.
    fn any_ended(&self) -> bool {
        self.running()
            .values()
            .any(|here| here.handle.asks.is_closed())
    }

    /// Notes that the records hold the event `code` (taken over), so that no new event takes its code.
    fn known_code(&self, code: &TableCode) {
        locked(&self.known).insert(code.clone());
    }

    /// Takes out the events here whose tasks have ended: each with whether it is over (else the server is
    /// stopping).
    fn take_ended(&self) -> Vec<(TableCode, bool)> {
        let mut running = self.running();
        let ended: Vec<TableCode> = running
            .iter()
            .filter(|(_, here)| here.handle.asks.is_closed())
            .map(|(code, _)| code.clone())
            .collect();
        ended
            .into_iter()
            .filter_map(|code| {
                let here = running.remove(&code)?;
                let over = here.handle.view.borrow().stage == Stage::Finished;
                Some((code, over))
            })
            .collect()
    }

    /// The view of the event `code` that runs elsewhere, as last heard (starting from `first`): one channel for
    /// every player here who looks at it, kept fresh by the heartbeat.
    fn mirror(&self, code: &TableCode, first: Arc<View>) -> watch::Receiver<Arc<View>> {
        let mut mirrors = locked(&self.mirrors);
        mirrors
            .entry(code.clone())
            .or_insert_with(|| watch::channel(first).0)
            .subscribe()
    }

    /// The views of the events elsewhere looked at here, brought up to date from `elsewhere` (each event's
    /// view as its node last wrote it) and the events here (one taken over). Those nobody looks at any more are
    /// dropped; those no node lists any more are returned, to be read from the records.
    fn refresh_mirrors(&self, elsewhere: &HashMap<TableCode, Arc<View>>) -> Vec<TableCode> {
        let here: HashMap<TableCode, Arc<View>> = self
            .running()
            .iter()
            .map(|(code, h)| (code.clone(), h.handle.view.borrow().clone()))
            .collect();
        let mut gone = Vec::new();
        let mut mirrors = locked(&self.mirrors);
        mirrors.retain(|code, mirror| {
            if mirror.receiver_count() == 0 {
                return false;
            }
            match here.get(code).or_else(|| elsewhere.get(code)) {
                Some(view) => {
                    if !same_view(&mirror.borrow(), view) {
                        mirror.send_replace(Arc::clone(view));
                    }
                }
                None => gone.push(code.clone()),
            }
            true
        });
        gone
    }

    /// The event `code`, looked at elsewhere, is over or gone: its last view is `last` (from the records), and
    /// its mirror goes.
    fn end_mirror(&self, code: &TableCode, last: Option<Arc<View>>) {
        if let Some(mirror) = locked(&self.mirrors).remove(code)
            && let Some(last) = last
        {
            mirror.send_replace(last);
        }
    }
}

/// Whether two views of an event show the same.
fn same_view(a: &View, b: &View) -> bool {
    a.stage == b.stage
        && a.entrants == b.entrants
        && a.text == b.text
        && a.leaders == b.leaders
        && a.boards == b.boards
}

/// Joins the events to the other nodes: the relay finds the events here, and the events not finished that no
/// live node holds (this node's own from before it stopped, those of nodes that have died, those of a server
/// that ran alone before) are taken over here.
pub(crate) async fn join(shared: &Arc<Shared>, cluster: &Arc<Cluster>) -> Sweep {
    shared.events.join_cluster(Arc::clone(cluster));
    let weak = Arc::downgrade(shared);
    cluster
        .relay()
        .serve_events(Arc::new(move |code: &TableCode| {
            weak.upgrade()?.events.find(code)
        }));
    resume_unclaimed(shared, cluster).await
}

/// Takes over here every event not finished that no live node runs (this node's own from before it stopped,
/// those of nodes that have died, those of a server that ran alone before, or one whose take-over failed halfway
/// as the records went away).
pub(crate) async fn resume_unclaimed(shared: &Shared, cluster: &Arc<Cluster>) -> Sweep {
    let Some(unfinished) = shared
        .read_records(|records| {
            Ok(records
                .events()?
                .into_iter()
                .filter(|(_, stage)| *stage != Stage::Finished)
                .map(|(spec, _)| spec.code)
                .collect::<Vec<_>>())
        })
        .await
    else {
        return Sweep::UNREAD;
    };
    let mut sweep = Sweep::NOTHING_LEFT;
    for code in unfinished {
        if shared.events.find(&code).is_some() {
            continue;
        }
        sweep.count(claim_and_start(shared, cluster, &code).await);
    }
    sweep
}

/// The event with `code`: here, on another node (through the relay), or, when its node has died, taken over by
/// this one from the records.
pub(crate) async fn find(shared: &Shared, code: &TableCode) -> Option<EventHandle> {
    if let Some(found) = shared.events.find(code) {
        return Some(found);
    }
    let cluster = shared.events.cluster.get()?;
    let owner = match cluster.event_owner(code).await {
        Ok(owner) => owner?,
        Err(error) => {
            tracing::warn!(%error, %code, "cannot look an event up on the other nodes");
            return None;
        }
    };
    let owner = match owner {
        EventOwner::Elsewhere(node) => node,
        EventOwner::Here => return shared.events.find(code),
        EventOwner::Lapsed => {
            if take_over(shared, cluster, code).await {
                return shared.events.find(code);
            }
            // Another node won it.
            match cluster.event_owner(code).await {
                Ok(Some(EventOwner::Elsewhere(node))) => node,
                _ => return shared.events.find(code),
            }
        }
    };
    let first = match cluster
        .other_events()
        .into_iter()
        .find(|(_, view)| view.spec.code == *code)
    {
        Some((_, view)) => view,
        // Not listed yet (created a moment ago): as the records have it, once they do.
        None => {
            let deadline = tokio::time::Instant::now() + RECORDS_WAIT;
            loop {
                if let Some(view) = view_in_records(shared, code).await {
                    break view;
                }
                if tokio::time::Instant::now() >= deadline {
                    return None;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    let view = shared.events.mirror(code, first);
    Some(cluster.relay().event_at(owner, code.clone(), view))
}

/// The event `code` as the records have it, as everyone sees it.
async fn view_in_records(shared: &Shared, code: &TableCode) -> Option<Arc<View>> {
    let wanted = code.clone();
    let record = shared
        .read_records(move |records| records.event(&wanted))
        .await??;
    Some(Arc::new(task::view_of(
        &Director::restore(&record),
        HashMap::new(),
    )))
}

/// Takes the event `code` over: claims its lease (exactly one node wins) and starts its task from the records,
/// with the results of its games that ended meanwhile and the tables of its games under way (wherever they run
/// now). An event over, or not in the records, is given up. Whether it runs here now.
pub(crate) async fn take_over(shared: &Shared, cluster: &Arc<Cluster>, code: &TableCode) -> bool {
    match claim_and_start(shared, cluster, code).await {
        Resumption::Here => true,
        Resumption::NotHere => false,
        Resumption::Unreadable => {
            // Its lease is this node's, or free: no other node will start it, so this one looks again once the
            // records answer.
            cluster.want_sweep();
            false
        }
    }
}

/// [`take_over`]: an event whose record cannot be read now keeps the lease just claimed (renewed with this node's
/// others) rather than be left with no node to run it.
async fn claim_and_start(shared: &Shared, cluster: &Arc<Cluster>, code: &TableCode) -> Resumption {
    if shared.events.find(code).is_some() {
        return Resumption::Here;
    }
    // A draining node hands its events to the others (`handover`): it takes none.
    if *shared.draining.borrow() {
        return Resumption::NotHere;
    }
    match cluster.claim_event(code).await {
        Ok(true) => {}
        Ok(false) => return Resumption::NotHere,
        Err(error) => {
            tracing::warn!(%error, %code, "cannot claim an event");
            return Resumption::Unreadable;
        }
    }
    let wanted = code.clone();
    let read = shared
        .read_records(move |records| {
            let Some(record) = records.event(&wanted)? else {
                return Ok(None);
            };
            let ended = records.event_games_ended(&wanted)?;
            let tables: HashMap<GameId, TableCode> = records
                .unfinished_games()?
                .into_iter()
                .filter_map(|game| Some((game.id, game.code?)))
                .collect();
            Ok(Some((record, ended, tables)))
        })
        .await;
    let Some(read) = read else {
        return Resumption::Unreadable;
    };
    let Some((record, ended, tables)) = read else {
        release(cluster, code).await;
        return Resumption::NotHere;
    };
    if record.stage == Stage::Finished {
        release(cluster, code).await;
        return Resumption::NotHere;
    }
    // Between the claim and now another call may have started it.
    if shared.events.find(code).is_some() {
        return Resumption::Here;
    }
    let boards = record
        .pairings
        .iter()
        .filter(|p| p.result.is_none())
        .filter_map(|p| Some(((p.round, p.board), tables.get(&p.game?)?.clone())))
        .collect();
    let director = Director::restore(&record);
    let results = channel();
    for game in recorded_results(&ended) {
        let _ = results.0.send(game);
    }
    let views = views_of(&director);
    shared.events.start(director, boards, results, views);
    shared.events.known_code(code);
    tracing::info!(event = %code, node = %cluster.node(), "an event taken over from the records");
    // The players here who were entered in it on its old node are entered here now.
    cluster.relay().event_moved(code, cluster.node()).await;
    Resumption::Here
}

async fn release(cluster: &Cluster, code: &TableCode) {
    if let Err(error) = cluster.release_event(code).await {
        tracing::warn!(%error, %code, "cannot give an event up");
    }
}

/// The pairing a game under way is the game of, if it is an event's: the event's spec, the round and the
/// board. Read from the events not finished in the records.
pub(crate) fn pairing_of_game(
    records: &mut dyn Records,
    game: GameId,
) -> Result<Option<(EventSpec, u32, u32)>, RecordsError> {
    for (spec, stage) in records.events()? {
        if stage == Stage::Finished {
            continue;
        }
        let Some(EventRecord { pairings, .. }) = records.event(&spec.code)? else {
            continue;
        };
        if let Some(p) = pairings
            .iter()
            .find(|p| p.game == Some(game) && p.result.is_none())
        {
            return Ok(Some((spec, p.round, p.board)));
        }
    }
    Ok(None)
}

/// The link a game of the event `spec` resumed here keeps to it: straight to the event when it runs here;
/// else its result goes to the event's node, wherever that is when the game ends (the records keep it too),
/// and its watchers are shown the event as this node last heard of it.
pub(crate) fn link_to_event(
    shared: &Shared,
    spec: &EventSpec,
    round: u32,
    board: u32,
) -> EventLink {
    let tags = event_tags(spec, round);
    if let Some(handle) = shared.events.find(&spec.code)
        && let Some(results) = handle.results.clone()
    {
        return EventLink {
            event: spec.code.clone(),
            round,
            board,
            tags,
            results,
            view: handle.view(),
        };
    }
    let cluster = shared.events.cluster.get();
    let first = cluster
        .and_then(|cluster| {
            cluster
                .other_events()
                .into_iter()
                .find(|(_, view)| view.spec.code == spec.code)
        })
        .map(|(_, view)| view)
        .unwrap_or_else(|| Arc::new(task::view_of(&Director::new(spec.clone()), HashMap::new())));
    let view = shared.events.mirror(&spec.code, first);
    let (results, ended) = mpsc::unbounded_channel();
    if let Some(cluster) = cluster {
        tokio::spawn(report_results(
            Arc::downgrade(cluster),
            spec.code.clone(),
            ended,
        ));
    }
    EventLink {
        event: spec.code.clone(),
        round,
        board,
        tags,
        results,
        view,
    }
}

/// Offers each result of a game of the event `code` that ended here to the event's node, until one takes it;
/// an event with no live node (it is being taken over) is offered it again a moment later, and after
/// [`REPORT_TRIES`] it is left to the records, from which the event's node reads it.
async fn report_results(
    cluster: Weak<Cluster>,
    code: TableCode,
    mut ended: mpsc::UnboundedReceiver<GameEnded>,
) {
    while let Some(game) = ended.recv().await {
        for _ in 0..REPORT_TRIES {
            let Some(cluster) = cluster.upgrade() else {
                return;
            };
            let taken = match cluster.event_owner(&code).await {
                Ok(Some(EventOwner::Here)) => cluster.relay().event_here(&code).map(|event| {
                    event.game_ended(game.clone());
                }),
                Ok(Some(EventOwner::Elsewhere(node))) => cluster
                    .relay()
                    .report_result(&node, &code, &game)
                    .await
                    .then_some(()),
                // No node holds it: it is over.
                Ok(None) => Some(()),
                Ok(Some(EventOwner::Lapsed)) => None,
                Err(error) => {
                    tracing::warn!(%error, event = %code, "cannot find an event's node");
                    None
                }
            };
            drop(cluster);
            if taken.is_some() {
                break;
            }
            tokio::time::sleep(REPORT_RETRY).await;
        }
    }
}

/// What the heartbeat does for the events, after `beat`: stops those another node took, takes over those whose
/// node died, gives up those over (once the records have them), writes their summaries, brings the views of
/// those elsewhere up to date, moves the players here to the node an event went to, and gives the events here
/// the results of their games that ended elsewhere that the records hold and they have not heard.
pub(crate) async fn after_beat(shared: &Arc<Shared>, cluster: &Arc<Cluster>, beat: &Beat) {
    let events = &shared.events;
    for code in &beat.lost_events {
        tracing::error!(event = %code, "an event was taken over by another node; it stops here");
        events.stop(code);
    }
    for code in &beat.lapsed_events {
        take_over(shared, cluster, code).await;
    }
    give_up_ended(shared, cluster).await;
    if let Err(error) = cluster.publish_events(&events.listings()).await {
        tracing::warn!(%error, "cannot share the events' summaries with the other nodes");
    }
    let elsewhere: HashMap<TableCode, (NodeName, Arc<View>)> = cluster
        .other_events()
        .into_iter()
        .map(|(node, view)| (view.spec.code.clone(), (node, view)))
        .collect();
    let views: HashMap<TableCode, Arc<View>> = elsewhere
        .iter()
        .map(|(code, (_, view))| (code.clone(), Arc::clone(view)))
        .collect();
    // The other nodes' events' codes are the records' too: a new event here takes another.
    for code in views.keys() {
        events.known_code(code);
    }
    for code in events.refresh_mirrors(&views) {
        let last = view_in_records(shared, &code).await;
        if last.as_ref().is_some_and(|v| v.stage == Stage::Finished) {
            events.end_mirror(&code, last);
        }
    }
    let here: HashSet<TableCode> = events.codes_here().into_iter().collect();
    for (code, node) in cluster.relay().events_away() {
        if here.contains(&code) {
            cluster.relay().event_moved(&code, cluster.node()).await;
        } else if let Some((owner, _)) = elsewhere.get(&code)
            && *owner != node
        {
            cluster.relay().event_moved(&code, owner).await;
        }
    }
    results_from_records(shared).await;
}

/// Gives up the leases of the events here that are over, once the records have everything their tasks sent
/// them (a node starting meanwhile would take an event whose end is not written yet for one still running).
async fn give_up_ended(shared: &Shared, cluster: &Cluster) {
    if !shared.events.any_ended() {
        return;
    }
    if !shared.recorder.caught_up().await {
        // Tried again on the next beat: the leases are still this node's until then.
        return;
    }
    for (code, over) in shared.events.take_ended() {
        if over {
            release(cluster, &code).await;
        }
    }
}

/// The events here with games under way on other nodes hear the results the records hold for them: a result
/// whose message never came (its node died as it sent it) is not lost.
async fn results_from_records(shared: &Shared) {
    let polled: Vec<(TableCode, EventHandle)> = shared
        .events
        .running()
        .iter()
        .filter(|(_, here)| !here.handle.asks.is_closed())
        .filter(|(_, here)| {
            here.handle
                .view
                .borrow()
                .boards
                .values()
                .any(|(table, _)| shared.tables.find(table).is_none())
        })
        .map(|(code, here)| (code.clone(), here.handle.clone()))
        .collect();
    for (code, event) in polled {
        let wanted = code.clone();
        let Some(ended) = shared
            .read_records(move |records| records.event_games_ended(&wanted))
            .await
        else {
            continue;
        };
        for game in recorded_results(&ended) {
            event.game_ended(game);
        }
    }
}
