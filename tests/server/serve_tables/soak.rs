//! Memory under watchers who never read: the figure for the README, run by hand (ten minutes by default):
//! `CROWNED_SOAK_SECONDS=600 cargo test --profile fast --test server -- --ignored --nocapture never_reading`
//! (`CROWNED_SOAK_STALL=3600` to keep the watchers for the whole run instead of cutting them off after a minute).
//!
//! Two players cycle takebacks on a long game (each cycle a move, a takeback asked and accepted: three states
//! to everyone) while ten watchers never read: five stock OpenSSH clients whose output nobody reads (they go on
//! answering keepalives, and stop taking data once their pipe and window are full) and five russh clients with
//! a small window whose channel is never read (they stop at once). The server's memory is sampled every 30 s.

use std::process::{Child, Stdio};
use std::time::Duration;

use russh::client;
use tokio::time::Instant;

use super::*;
use crate::doors::ssh::connect_with;

/// The server's resident memory, in kilobytes.
fn rss_kb(server: &Server) -> u64 {
    std::fs::read_to_string(format!("/proc/{}/status", server.child.id()))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse().ok())
        })
        .unwrap_or(0)
}

/// A stock OpenSSH client watching `code`, its output never read.
fn openssh_watcher(server: &Server, code: &str, n: usize) -> Option<Child> {
    crate::doors::ssh::openssh(
        server,
        &new_key(),
        &format!("watcher{n}"),
        &format!("watcher-{n}"),
    )
    .arg(format!("watch {code}"))
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: ten minutes"]
async fn never_reading_watchers_leave_the_server_s_memory_flat() {
    let seconds: u64 = std::env::var("CROWNED_SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    // CROWNED_SOAK_STALL=3600 keeps the watchers who stopped reading for the whole run: the per-person queues
    // alone must then hold the memory flat.
    let stall: u64 = std::env::var("CROWNED_SOAK_STALL")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let server = Server::start_with(
        "soak",
        &format!("[server]\nidle-timeout = 3600\nclient-stall = {stall}\n"),
    );
    let ann = connect(&server, &new_key(), "ann").await;
    let bob = connect(&server, &new_key(), "bob").await;
    let mut a = Terminal::exec(&ann, 120, 40, "new english black").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());
    let mut b = Terminal::exec(&bob, 120, 40, &format!("join {code}")).await;
    let mut game = AnyGame::new(GameType::default());
    let mut dice = Dice(48);
    play_moves(&mut a, &mut b, &mut game, 40, &mut dice).await;
    assert!(game.outcome().is_none(), "the game goes on for the cycles");
    // The watchers.
    let mut openssh: Vec<Child> = (0..5)
        .filter_map(|n| openssh_watcher(&server, &code, n))
        .collect();
    let mut stalled = Vec::new();
    for n in 0..5 {
        let config = client::Config {
            window_size: 4096,
            channel_buffer_size: 1,
            ..Default::default()
        };
        let handle = connect_with(&server, &new_key(), &format!("stalled{n}"), config).await;
        let terminal = Terminal::exec(&handle, 200, 60, &format!("watch {code}")).await;
        stalled.push((handle, terminal));
    }
    let watching = openssh.len() + stalled.len();
    a.wait_for(&format!("{watching} watching")).await;
    eprintln!(
        "{} OpenSSH and {} russh watchers never reading; server memory every 30 s:",
        openssh.len(),
        stalled.len()
    );
    let started = Instant::now();
    let mut next_sample = started;
    let mut cycles = 0u64;
    let mut samples = Vec::new();
    while started.elapsed() < Duration::from_secs(seconds) {
        if Instant::now() >= next_sample {
            let kb = rss_kb(&server);
            let watchers = a
                .contents()
                .split(" watching")
                .next()
                .and_then(|before| before.rsplit(' ').next())
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0);
            eprintln!(
                "  {:>4} s: {:>6.1} MB, {cycles} cycles, {watchers} watching",
                started.elapsed().as_secs(),
                kb as f64 / 1024.0
            );
            samples.push(kb);
            next_sample += Duration::from_secs(30);
        }
        // A move by the side to move, taken back at its player's request and accepted by the other.
        let (mover, other) = match game.position().side_to_move() {
            Color::Black => (&mut a, &mut b),
            Color::White => (&mut b, &mut a),
        };
        mover.wait_for(&your_move(&game)).await;
        let position = game.position();
        let moves = position.legal_moves();
        let mv = moves[dice.below(moves.len())];
        let text = position.write_move(&mv, game.variant().notation());
        // Both clients take in what they were sent, so that neither stops sending for a full buffer of its own.
        mover.drain().await;
        other.drain().await;
        mover.send(format!("{text}\r").as_bytes()).await;
        let mut after = game.clone();
        after.play(&mv).expect("a legal move");
        let expected = your_move(&after);
        if tokio::time::timeout(Duration::from_secs(15), other.wait_for(&expected))
            .await
            .is_err()
        {
            mover.drain().await;
            panic!(
                "after {cycles} cycles, {text} by the mover did not reach the other in 15 s.\n\
                 The mover's screen:\n{}\nThe other's:\n{}",
                mover.contents(),
                other.contents()
            );
        }
        // The mover's own screen must have moved on too: a screen still showing "your move" from before would
        // let the next cycle's move go out before the takeback is through, to be refused as out of turn.
        let (number, side) = (
            after.next_move_number().number,
            after.position().side_to_move(),
        );
        mover
            .wait_for(&format!("move {number}, {side} to play:"))
            .await;
        mover.send(b"u").await;
        other.wait_for("asks to take back").await;
        other.drain().await;
        other.send(b"y").await;
        mover.wait_for(&your_move(&game)).await;
        cycles += 1;
    }
    let (first, last) = (samples[0], samples[samples.len() - 1]);
    let peak = samples.iter().copied().max().unwrap_or(0);
    eprintln!(
        "{cycles} cycles in {seconds} s: server memory {:.1} MB at the start, {:.1} MB at the end, {:.1} MB at most",
        first as f64 / 1024.0,
        last as f64 / 1024.0,
        peak as f64 / 1024.0
    );
    for child in &mut openssh {
        let _ = child.kill();
        let _ = child.wait();
    }
    drop(stalled);
}
