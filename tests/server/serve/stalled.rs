//! Clients that stop reading: cut off once a frame has waited past the server's limit, whatever else they
//! answer, while everyone else plays on.

use std::time::Duration;

use russh::client;
use tokio::time::Instant;

use crate::doors::ssh::{PATIENCE, Server, Terminal, code_on, connect, connect_with, new_key};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_who_stops_reading_is_cut_off_and_the_game_goes_on() {
    let server = Server::start_with(
        "stalled-watcher",
        "[server]\nidle-timeout = 600\nclient-stall = 2\n",
    );
    let ann = connect(&server, &new_key(), "ann").await;
    let bob = connect(&server, &new_key(), "bob").await;
    // A watcher whose client takes a few kilobytes and then nothing more: a small window, and a channel that
    // is never read.
    let stops_reading = client::Config {
        window_size: 4096,
        channel_buffer_size: 1,
        ..Default::default()
    };
    let cy = connect_with(&server, &new_key(), "cy", stops_reading).await;
    let mut a = Terminal::exec(&ann, 120, 30, "new english 5+3 black").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());
    let mut b = Terminal::exec(&bob, 120, 30, &format!("join {code}")).await;
    let _never_read = Terminal::exec(&cy, 120, 30, &format!("watch {code}")).await;
    a.wait_for("1 watching").await;
    // The clocks tick and the players chat (each within the chat's pace): every second brings the watcher's
    // screen something new, which it never takes.
    let deadline = Instant::now() + 2 * PATIENCE;
    let mut said = 0;
    while a.contents().contains("1 watching") && Instant::now() < deadline {
        said += 1;
        let line = format!("line {said} of the chat");
        let speaker = if said % 2 == 0 { &a } else { &b };
        speaker.send(format!(":say {line}\r").as_bytes()).await;
        a.wait_for(&line).await;
        b.wait_for(&line).await;
        tokio::time::sleep(Duration::from_millis(1000)).await;
    }
    // Its connection was cut off and it left the table. (Its client cannot tell yet: it reads nothing, not
    // even the end of its connection.)
    assert!(
        !a.contents().contains("1 watching"),
        "the watcher who stopped reading is still at the table:\n{}",
        a.contents()
    );
    eprintln!("the watcher who stopped reading left the table after {said} chat lines");
    // The players were never held up, and play on.
    a.send(b"11-15\r").await;
    b.wait_for("11-15").await;
}
