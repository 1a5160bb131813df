//! What a table does on one node, done across two: a flag fall, a takeback asked and granted, a player who drops
//! and does not come back (the grace, then the claim), the finished games printed by `games` on the node that
//! did not run them, and each result rated once. The players sit at different nodes; the game runs on the first.

use std::time::Duration;

use crate::doors::ssh::{
    Dice, Server, Terminal, code_on, connect, new_key, play_moves, read_all, your_move,
};
use crate::serve_nodes::{fresh_database, games_rated, node_with, wait_until};
use crowned::game::AnyGame;
use crowned::rules::GameType;
use crowned::serve::Fingerprint;
use crowned::serve::records::PostgresUrl;
use russh::keys::HashAlg;

/// A node on the database at `url`, with a short lease and the shortest grace for a player who drops.
fn node(name: &str, url: &str) -> Server {
    node_with(
        name,
        url,
        &[(
            "config/config.toml",
            "[server]\nidle-timeout = 600\nseat-grace = 5\n",
        )],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flags_takebacks_claims_and_results_cross_nodes_as_on_one() {
    let url = fresh_database("nodes_play");
    let one = node("p1", &url);
    let two = node("p2", &url);
    let (ann_key, bob_key) = (new_key(), new_key());

    // A flag falls on the node that runs the clock; the player on the other node sees it too.
    let ann = connect(&one, &ann_key, "ann").await;
    let bob = connect(&two, &bob_key, "bob").await;
    // 0.02 minutes each: Black's 1.2 seconds run out after the first moves, which no clock times.
    let mut a = Terminal::exec(&ann, 100, 30, "new english 0.02+0 black").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());
    let mut b = Terminal::exec(&bob, 100, 30, &format!("join {code}")).await;
    let mut game = AnyGame::new(GameType::default());
    a.wait_for("a first move within").await;
    play_moves(&mut a, &mut b, &mut game, 2, &mut Dice(5)).await;
    b.wait_for("White wins on time").await;
    a.wait_for("White wins on time").await;
    drop((a, b, ann, bob));

    // A takeback asked on one node and granted on the other.
    let ann = connect(&one, &ann_key, "ann").await;
    let bob = connect(&two, &bob_key, "bob").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english 10+5 black").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());
    let mut b = Terminal::exec(&bob, 100, 30, &format!("join {code}")).await;
    game = AnyGame::new(GameType::default());
    a.wait_for(&your_move(&game)).await;
    let mut dice = Dice(11);
    play_moves(&mut a, &mut b, &mut game, 2, &mut dice).await;
    a.wait_for(&your_move(&game)).await;
    // Ann is to move: taking back her move takes back Bob's answer too.
    a.send(b"u").await;
    b.wait_for("asks to take back").await;
    b.send(b"y").await;
    assert!(game.undo() && game.undo(), "two plies to take back");
    a.wait_for(&your_move(&game)).await;
    play_moves(&mut a, &mut b, &mut game, 3, &mut dice).await;

    // Bob's connection to his node drops on his move; his time to come back runs out on the owner's clock, and
    // Ann claims the game.
    b.wait_for(&your_move(&game)).await;
    drop((b, bob));
    a.wait_for("bob has not come back: :claim wins the game, :claim draw calls it a draw")
        .await;
    a.send(b":claim\r").await;
    a.wait_for("Black wins: White left the game").await;
    // The result is in the records: Ann sees how both ratings moved, read from there.
    a.wait_for("Ratings: ann ").await;
    assert!(a.contents().contains(" → "), "{}", a.contents());
    drop((a, ann));

    // Both games are in the records, rated once each, and the node that ran neither prints them.
    let records_url: PostgresUrl = url.parse().expect("a URL");
    let ann_print = fingerprint(&ann_key);
    wait_until("both results rated", || async {
        games_rated(&records_url, &ann_print).await >= 2
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        games_rated(&records_url, &ann_print).await,
        2,
        "each result rated once"
    );

    let ann = connect(&two, &ann_key, "ann").await;
    let mut channel = ann.channel_open_session().await.expect("a session");
    channel.exec(true, "games").await.expect("a command");
    let (text, status) = read_all(&mut channel).await;
    assert_eq!(status, Some(0), "{text}");
    // English results count from Black, who moves first: the flag fall is White's win, the claim Black's.
    let results: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Result \""))
        .filter_map(|l| l.strip_suffix("\"]"))
        .collect();
    assert_eq!(results, ["0-1", "1-0"], "{text}");
    assert_eq!(text.matches("[White \"bob\"]").count(), 2, "{text}");
    drop((one, two));
}

/// The fingerprint a key signs in with.
fn fingerprint(key: &russh::keys::PrivateKey) -> Fingerprint {
    Fingerprint::new(key.public_key().fingerprint(HashAlg::Sha256).to_string())
}
