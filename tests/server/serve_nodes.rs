//! Three `crowned serve` nodes on one PostgreSQL database, end to end: a game created on one node, joined on a
//! second and watched from a third; the owning node killed mid-game, and the game going on where the players
//! reconnect; the result rated once. And a player's own folder (settings, a game against the engine) following
//! them from a node to another.

use std::time::{Duration, Instant};

use crate::common::screen::first_line_has_two_moves;
use crate::doors::ssh::{
    Dice, PATIENCE, Server, Terminal, code_on, connect, new_key, play_moves, shown_after, your_move,
};
use crowned::game::AnyGame;
use crowned::rules::{Color, GameType};
use crowned::serve::Fingerprint;
use crowned::serve::records::{GameRecords as _, PostgresRecords, PostgresUrl, RatingRecords as _};
use crowned::server_lab::local_postgres::LocalPostgres;
use russh::keys::HashAlg;

fn node(name: &str, url: &str) -> Server {
    node_with(name, url, &[])
}

/// A node on the database at `url` with a lease of 2 s, and these files in its home.
pub(crate) fn node_with(name: &str, url: &str, files: &[(&str, &str)]) -> Server {
    Server::start_with_files(
        &format!("nodes-{name}"),
        files,
        &["--records", url, "--node-name", name, "--lease-term", "2"],
    )
}

/// A new, empty database on the test program's PostgreSQL server: its URL.
pub(crate) fn fresh_database(hint: &str) -> String {
    // The test server's client blocks: not on the runtime's own threads.
    tokio::task::block_in_place(|| {
        let postgres =
            LocalPostgres::shared().unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
        postgres.fresh_database(hint).expect("a database")
    })
}

/// The rated games `player` has played in English draughts, as the records at `url` say.
pub(crate) async fn games_rated(url: &PostgresUrl, player: &Fingerprint) -> i64 {
    let (url, player) = (url.clone(), player.clone());
    tokio::task::spawn_blocking(move || {
        PostgresRecords::connect(&url)
            .and_then(|mut records| records.rating(&player, "english"))
            .map(|(_, games)| games)
            .unwrap_or(0)
    })
    .await
    .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_crosses_three_nodes_and_outlives_the_one_that_ran_it() {
    let url = fresh_database("three_nodes");
    let one = node("n1", &url);
    let two = node("n2", &url);
    let three = node("n3", &url);
    let (ann_key, bob_key, cy_key) = (new_key(), new_key(), new_key());

    // Ann opens a game on node 1; Bob joins it by its code on node 2; Cy watches from node 3.
    let ann = connect(&one, &ann_key, "ann").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english 10+5 black").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());
    let bob = connect(&two, &bob_key, "bob").await;
    let mut b = Terminal::exec(&bob, 100, 30, &format!("join {code}")).await;
    let cy = connect(&three, &cy_key, "cy").await;
    let mut c = Terminal::exec(&cy, 100, 30, &format!("watch {code}")).await;
    let mut game = AnyGame::new(GameType::default());
    b.wait_for("bob (1500?) · you").await;
    a.wait_for(&your_move(&game)).await;
    c.wait_for("1 watching").await;

    // Moves, chat and a draw offer cross between the nodes both ways.
    let mut dice = Dice(5);
    play_moves(&mut a, &mut b, &mut game, 4, &mut dice).await;
    c.wait_for(&shown_after(&game)).await;
    a.send(b":say from node one\r").await;
    b.wait_for("ann: from node one").await;
    c.wait_for("ann: from node one").await;
    b.send(b":draw\r").await;
    a.wait_for("offers a draw").await;
    a.send(b"n").await;
    b.wait_for("declines a draw").await;
    play_moves(&mut a, &mut b, &mut game, 2, &mut dice).await;

    // Node 1 dies with the game on it. Once the moves are in the records, it is killed; Ann connects again to
    // node 3 and Bob, whose node goes on, finds the game again by himself: it goes on where it stood.
    let records_url: crowned::serve::records::PostgresUrl = url.parse().expect("a URL");
    wait_recorded(&records_url, game.len()).await;
    drop((a, ann));
    drop(one);
    let killed = Instant::now();
    let ann = connect(&three, &ann_key, "ann").await;
    let mut a = Terminal::open(&ann, 100, 30).await;
    a.wait_for(&your_move(&game)).await;
    // The take-over time, for the record (`--nocapture` shows it): with a lease of 2 s, the wait for the dead
    // node's answer and the lease's lapse.
    eprintln!(
        "the game was playable again on another node {:.1} s after its node was killed",
        killed.elapsed().as_secs_f64()
    );
    assert!(
        a.contents().contains(&code),
        "the same code:\n{}",
        a.contents()
    );
    play_moves(&mut a, &mut b, &mut game, 4, &mut dice).await;

    // Bob resigns: both see it, and the result is rated once.
    let side = game.position().side_to_move();
    let loser = if side == Color::Black { &mut a } else { &mut b };
    loser.wait_for(&your_move(&game)).await;
    loser.send(b":resign\r").await;
    loser.send(b"y").await;
    game.resign(side).expect("resigned");
    let result = game.outcome().expect("over").to_string();
    a.wait_for(&result).await;
    b.wait_for(&result).await;
    let ann_print = Fingerprint::new(
        ann_key
            .public_key()
            .fingerprint(HashAlg::Sha256)
            .to_string(),
    );
    wait_until("the result is rated", || async {
        games_rated(&records_url, &ann_print).await >= 1
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(games_rated(&records_url, &ann_print).await, 1);
    // The game is filed among both players' saved games by the node that ran it, and shared with the others.
    wait_until("the game is filed for both players", || async {
        filed_games(&url).await >= 2
    })
    .await;
    drop((two, three));
}

/// A game in progress that no node runs: its node killed, and its lease gone (as when a take-over claimed it and
/// then could not read the records, or a node restarted while they were out of reach). No node takes it over by
/// itself on its lease's lapse (there is none left to lapse); a player coming back to another node finds it there,
/// as it stood.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_no_node_runs_is_taken_over_when_a_player_comes_back() {
    let url = fresh_database("no_node");
    let one = node("n1", &url);
    let two = node("n2", &url);
    let (ann_key, bob_key) = (new_key(), new_key());
    let ann = connect(&one, &ann_key, "ann").await;
    let mut a = Terminal::exec(&ann, 100, 30, "new english black").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());
    let bob = connect(&one, &bob_key, "bob").await;
    let mut b = Terminal::exec(&bob, 100, 30, &format!("join {code}")).await;
    let mut game = AnyGame::new(GameType::default());
    a.wait_for(&your_move(&game)).await;
    play_moves(&mut a, &mut b, &mut game, 3, &mut Dice(11)).await;
    let records_url: PostgresUrl = url.parse().expect("a URL");
    wait_recorded(&records_url, game.len()).await;
    drop((a, b, ann, bob));
    drop(one);
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("the nodes' database");
    tokio::spawn(connection);
    let gone = client
        .execute("DELETE FROM room_leases WHERE code = $1", &[&code])
        .await
        .expect("the lease deleted");
    assert_eq!(gone, 1, "the game had a lease");

    let ann = connect(&two, &ann_key, "ann").await;
    let mut a = Terminal::open(&ann, 100, 30).await;
    a.wait_for(&shown_after(&game)).await;
    assert!(
        a.contents().contains(&code),
        "the same code:\n{}",
        a.contents()
    );
    let owner = client
        .query_one("SELECT owner FROM room_leases WHERE code = $1", &[&code])
        .await
        .expect("a lease again");
    assert_eq!(
        owner.get::<_, String>(0),
        "n2",
        "the node the player came to runs it"
    );
    drop(two);
}

/// Waits until the records at `url` hold the first game in progress with `played` moves or more.
async fn wait_recorded(url: &PostgresUrl, played: usize) {
    wait_until("the moves are recorded", || {
        let url = url.clone();
        async move {
            tokio::task::spawn_blocking(move || {
                PostgresRecords::connect(&url)
                    .and_then(|mut records| records.unfinished_games())
                    .map(|games| games.first().is_some_and(|g| g.moves.len() >= played))
                    .unwrap_or(false)
            })
            .await
            .unwrap_or(false)
        }
    })
    .await;
}

/// Waits until `done` says so, failing after [`PATIENCE`].
pub(crate) async fn wait_until<F: std::future::Future<Output = bool>>(
    what: &str,
    done: impl Fn() -> F,
) {
    let deadline = Instant::now() + PATIENCE;
    while !done().await {
        assert!(Instant::now() < deadline, "{what}: not in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How many saved games of players' folders the nodes share in the database.
async fn filed_games(url: &str) -> i64 {
    let Ok((client, connection)) = tokio_postgres::connect(url, tokio_postgres::NoTls).await else {
        return 0;
    };
    tokio::spawn(connection);
    let counted = client
        .query_one(
            "SELECT count(*) FROM player_files WHERE path LIKE 'data/games/%' AND contents IS NOT NULL",
            &[],
        )
        .await;
    counted.map_or(0, |row| row.get(0))
}

/// The text of a file of a player's folder as the nodes share it in the database, if it is there.
async fn shared_file(url: &str, path: &str) -> Option<String> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .ok()?;
    tokio::spawn(connection);
    let row = client
        .query_opt(
            "SELECT contents FROM player_files WHERE path = $1",
            &[&path],
        )
        .await
        .ok()??;
    let contents: Option<Vec<u8>> = row.get(0);
    contents.map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_settings_and_game_against_the_engine_follow_them_to_another_node() {
    let url = fresh_database("folders");
    let one = node("f1", &url);
    let two = node("f2", &url);
    let ann_key = new_key();
    let folder = crowned::ssh::identity_of(ann_key.public_key(), "ann").folder_name();

    // Ann, signed in on node 1, changes her settings there (her settings file is the way: ASCII pieces, and a
    // quick engine); the change is shared while she is connected.
    let ann = connect(&one, &ann_key, "ann").await;
    let mut a = Terminal::open(&ann, 100, 30).await;
    a.wait_for("lobby").await;
    let settings = one
        .home
        .join("data/server/players")
        .join(&folder)
        .join("config/config.toml");
    std::fs::create_dir_all(settings.parent().expect("a folder")).expect("made");
    std::fs::write(
        &settings,
        "[display]\npieces = \"ascii\"\n[players]\nwhite = \"random\"\n",
    )
    .expect("written");
    wait_until("the settings are shared", || async {
        shared_file(&url, "config/config.toml")
            .await
            .is_some_and(|text| text.contains("ascii"))
    })
    .await;

    // A game against the engine on node 1, with her settings: a move and the engine's answer.
    a.send(b"e").await;
    a.wait_for("Black to play").await;
    assert!(
        !a.contents().contains('●'),
        "ASCII pieces:\n{}",
        a.contents()
    );
    a.send(b"11-15\r").await;
    a.until("the engine's reply", |t| {
        first_line_has_two_moves(&t.contents())
    })
    .await;
    // Its autosave reaches the database within a scan or two, without Ann leaving.
    let answered = Instant::now();
    wait_until("the autosave is shared", || async {
        shared_file(&url, "data/autosave.pdn")
            .await
            .is_some_and(|text| first_line_has_two_moves(&text))
    })
    .await;
    let shared_after = answered.elapsed();
    assert!(
        shared_after < Duration::from_secs(5),
        "the autosave was shared {shared_after:?} after the move"
    );

    // Node 1 is killed outright (its folder goes with it); Ann connects to node 2: her settings are there, and her
    // game is offered and goes on where it stood.
    drop(one);
    drop((a, ann));
    let ann = connect(&two, &ann_key, "ann").await;
    let mut a = Terminal::open(&ann, 100, 30).await;
    a.wait_for("lobby").await;
    a.send(b"e").await;
    a.wait_for("Resume?").await;
    a.send(b"y").await;
    a.until("the resumed game", |t| {
        first_line_has_two_moves(&t.contents())
    })
    .await;
    assert!(
        !a.contents().contains('●'),
        "ASCII pieces:\n{}",
        a.contents()
    );
    drop((a, ann, two));
}
