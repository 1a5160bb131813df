//! Draining: a server with nobody connected stops at once, with no connection needed to wake it; a node drained
//! while it runs a game hands the game to another node at once rather than after its lease's term, its own player
//! plays on through the relay, and it stops as that player leaves; the game goes on, every move in it, on the
//! node that took it. A node drained while it runs a tournament hands the tournament over too: its round's game
//! ends on the other node and the tournament's table is final there well within the lease's term.

use std::time::{Duration, Instant};

use crate::doors::ssh::{
    Dice, Server, Terminal, code_on, connect, new_key, play_moves, shown_after, your_move,
};
use crate::doors::web::{metric, metric_reaches};
use crate::serve_event_play::{NAMES, final_table};
use crate::serve_nodes::fresh_database;
use crate::serve_nodes_events::{alpha_resigns_at, round_under_way};
use crowned::game::AnyGame;
use crowned::rules::GameType;

/// The lease's term here: far longer than a hand-over may take, so that a game that moved within it was handed
/// over, not taken over after its node went silent.
const TERM: &str = "30";

fn node(name: &str, url: &str) -> Server {
    node_with_term(name, url, TERM)
}

/// A node whose leases last `term` seconds, with its metrics on a port of its own.
fn node_with_term(name: &str, url: &str, term: &str) -> Server {
    Server::start_with_files(
        &format!("nodes-{name}"),
        &[],
        &[
            "--records",
            url,
            "--node-name",
            name,
            "--lease-term",
            term,
            "--metrics",
            "127.0.0.1:0",
        ],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drained_server_with_nobody_connected_stops_at_once() {
    let mut server = Server::start("drain-empty");
    // SAFETY: kill with a child's own pid only sends it a signal.
    unsafe {
        libc::kill(server.child.id() as i32, libc::SIGUSR1);
    }
    let stopped = server.stopped_within(Duration::from_secs(5)).await;
    let exit = stopped.expect("stopped within five seconds");
    assert!(exit.success(), "{exit}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drained_node_hands_its_game_over_at_once_and_its_player_plays_on() {
    let url = fresh_database("nodes_drain");
    let mut one = node("d1", &url);
    let two = node("d2", &url);
    let (ann_key, bob_key) = (new_key(), new_key());
    let ann = connect(&one, &ann_key, "ann").await;
    let bob = connect(&two, &bob_key, "bob").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english 10+5 black").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());
    let mut b = Terminal::exec(&bob, 100, 30, &format!("join {code}")).await;
    let mut game = AnyGame::new(GameType::default());
    let mut dice = Dice(23);
    play_moves(&mut a, &mut b, &mut game, 2, &mut dice).await;
    // Bob's screen shows his move as he sends it; Ann's only once the table has written it. The drain waits for
    // that: a move still on its way to a table as the table stops is not played (its player is told so), and
    // this test is about the game handed over, not about that move.
    a.wait_for(&your_move(&game)).await;
    assert_eq!(metric(&one, "crowned_tables").await, Some(1.0));
    assert_eq!(metric(&two, "crowned_tables").await, Some(0.0));

    // Drained: the table leaves the first node and runs on the second, long before the lease's term.
    // SAFETY: kill with a child's own pid only sends it a signal.
    unsafe {
        libc::kill(one.child.id() as i32, libc::SIGUSR1);
    }
    let drained = Instant::now();
    metric_reaches(&one, "crowned_ready", 0.0).await;
    metric_reaches(&one, "crowned_tables", 0.0).await;
    metric_reaches(&two, "crowned_take_overs_total", 1.0).await;
    metric_reaches(&two, "crowned_tables", 1.0).await;
    // Ann, still connected to the drained node, plays on against Bob once her connection has found the game
    // where it runs now.
    play_through_the_move(&mut a, &mut game, &mut dice).await;
    play_moves(&mut a, &mut b, &mut game, 1, &mut dice).await;
    let moved = drained.elapsed();
    assert!(
        moved < Duration::from_secs(15),
        "the game moved and went on in {moved:?}, within the lease's term of {TERM} s"
    );
    assert!(one.is_running(), "not while Ann is connected");

    // Ann leaves: the drained node stops, cleanly.
    drop((a, ann));
    let stopped = one.stopped_within(Duration::from_secs(10)).await;
    let exit = stopped.expect("the drained node stops once empty");
    assert!(exit.success(), "{exit}");

    // She comes back by the other node: her game, with every move, and it goes on.
    let ann = connect(&two, &ann_key, "ann").await;
    let mut a = Terminal::open(&ann, 100, 30).await;
    a.wait_for(&your_move(&game)).await;
    play_moves(&mut a, &mut b, &mut game, 2, &mut dice).await;
    assert_eq!(metric(&two, "crowned_tables").await, Some(1.0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drained_node_hands_its_tournament_over_and_it_finishes_on_another() {
    // A lease far longer than the test: a tournament that finished on the other node was handed over, not taken
    // over after its node went silent.
    const EVENT_TERM: u64 = 90;
    let url = fresh_database("nodes_drain_event");
    let mut one = node_with_term("e1", &url, &EVENT_TERM.to_string());
    let two = node_with_term("e2", &url, &EVENT_TERM.to_string());
    let (alpha_key, bravo_key) = (new_key(), new_key());
    let keys = [&alpha_key, &bravo_key];
    let (code, terminals) = round_under_way([&one, &two], keys, "Drained Swiss").await;

    // Drained: the event and its round's game leave the first node; it stops as its players leave.
    // SAFETY: kill with a child's own pid only sends it a signal.
    unsafe {
        libc::kill(one.child.id() as i32, libc::SIGUSR1);
    }
    let drained = Instant::now();
    metric_reaches(&one, "crowned_handing_over", 0.0).await;
    metric_reaches(&two, "crowned_tables", 1.0).await;
    drop(terminals);
    let stopped = one.stopped_within(Duration::from_secs(10)).await;
    assert!(
        stopped
            .expect("the drained node stops once empty")
            .success()
    );

    // Both players at the other node: the game goes on there, Alpha resigns, and the event, run there now,
    // counts the result into its final table.
    let _terminals = alpha_resigns_at(&two, [&alpha_key, &bravo_key], &code).await;
    let (text, rows) = final_table(&two, &code).await;
    let names: Vec<&str> = rows
        .iter()
        .filter_map(|row| row.get(1))
        .map(String::as_str)
        .collect();
    assert_eq!(names, [NAMES[1], NAMES[0]], "{text}");
    let took = drained.elapsed();
    assert!(
        took < Duration::from_secs(EVENT_TERM / 2),
        "the tournament finished {took:?} after the drain: it waited out its lease ({EVENT_TERM} s)"
    );
}

/// Plays a random move for `mover`, whose game is moving to another node: a move typed while the connection
/// finds the game there is refused with a word (and kept in the input box), so it is typed again until the
/// screen shows it played.
async fn play_through_the_move(mover: &mut Terminal, game: &mut AnyGame, dice: &mut Dice) {
    let position = game.position();
    let moves = position.legal_moves();
    let mv = moves[dice.below(moves.len())];
    let text = position.write_move(&mv, game.variant().notation());
    let mut after = game.clone();
    after.play(&mv).expect("a legal move");
    let shown = shown_after(&after);
    for _ in 0..40 {
        mover.wait_for(&your_move(game)).await;
        mover.send(format!("{text}\r").as_bytes()).await;
        mover
            .until("the move shown, or refused", |t| {
                let screen = t.contents();
                screen.contains(&shown) || screen.contains("refused")
            })
            .await;
        if mover.contents().contains(&shown) {
            *game = after;
            return;
        }
        // Esc clears the refused text.
        mover.send(b"\x1b").await;
        mover
            .until("the refused move cleared", |t| {
                !t.contents().contains("refused")
            })
            .await;
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("{text} was never taken:\n{}", mover.contents());
}
