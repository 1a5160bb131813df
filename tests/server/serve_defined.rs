//! Variants written as definitions on `crowned serve`, end to end: the server offers those of its variants
//! folder and of `--variant-file`, players open, join and watch tables of them, the table plays them to the end,
//! the records keep their definition (so a restart resumes a game whose file is gone), and a definition that
//! does not load is reported at start-up and left out.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::doors::ssh::{
    Dice, Server, Terminal, code_on, connect, new_key, read_all, shown_after, your_move,
};
use crowned::game::AnyGame;
use crowned::rules::defined::register;
use crowned::rules::{Color, GameType, Variant};

const HOLES: &str = include_str!("../../variants/holes.toml");
const LEAPERS: &str = include_str!("../../variants/leapers.toml");

/// Plays random legal moves until `enough` holds of the game (or it ends), each typed by the player to move once
/// their screen says it is their turn, and seen by the watcher; how many were captures.
async fn play_until(
    players: [&mut Terminal; 2],
    watcher: &mut Terminal,
    game: &mut AnyGame,
    dice: &mut Dice,
    enough: impl Fn(&AnyGame, usize) -> bool,
) -> usize {
    let [black, white] = players;
    let mut captures = 0;
    while game.outcome().is_none() && !enough(game, captures) {
        let position = game.position();
        let moves = game.legal_moves();
        let mv = moves[dice.below(moves.len())];
        let text = position.write_move(&mv, game.variant().notation());
        captures += usize::from(mv.is_capture());
        let mover = match position.side_to_move() {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        mover.wait_for(&your_move(game)).await;
        mover.send(format!("{text}\r").as_bytes()).await;
        game.play(&mv).expect("a legal move");
        let shown = shown_after(game);
        mover.wait_for(&shown).await;
        watcher.wait_for(&shown).await;
    }
    captures
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_of_a_defined_variant_with_holes_is_played_watched_recorded_and_resumed() {
    // Holes in the server's variants folder, Leapers given on the command line.
    let elsewhere =
        std::env::temp_dir().join(format!("crowned-serve-defined-{}", std::process::id()));
    std::fs::create_dir_all(&elsewhere).expect("a folder");
    let leapers_file = elsewhere.join("leapers.toml");
    std::fs::write(&leapers_file, LEAPERS).expect("written");
    let leapers_arg = leapers_file.to_string_lossy().into_owned();
    let server = Server::start_with_files(
        "defined",
        &[("config/variants/holes.toml", HOLES)],
        &["--variant-file", &leapers_arg],
    );
    let (alice_key, bob_key, carol_key) = (new_key(), new_key(), new_key());
    let alice = connect(&server, &alice_key, "alice").await;

    // A variant the server does not offer is refused with the list of those it does.
    let mut refused = Terminal::exec(&alice, 200, 30, "new chess").await;
    refused.wait_closed().await;
    let said = refused
        .contents()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        said.contains("`chess` is not a variant")
            && said.contains("turkish")
            && said.contains("holes, leapers)"),
        "{said}"
    );

    // Alice opens a table of the board with holes, by its file's name; Bob joins by the code, Carol watches.
    let alice = connect(&server, &alice_key, "alice").await;
    let mut a = Terminal::exec(&alice, 100, 30, "new holes black 5+3").await;
    a.wait_for("waiting for an opponent").await;
    let code = code_on(&a.contents());
    let bob = connect(&server, &bob_key, "bob").await;
    let carol = connect(&server, &carol_key, "carol").await;
    let mut b = Terminal::exec(&bob, 100, 30, &format!("join {code}")).await;
    let mut c = Terminal::exec(&carol, 100, 30, &format!("watch {code}")).await;
    let holes = Variant::Defined(register(HOLES).expect("the definition loads"));
    let mut game = AnyGame::new(GameType::standard(holes));
    a.wait_for(&your_move(&game)).await;
    // Rated per variant, as the built-ins are: both start at 1500 in it.
    b.wait_for("bob (1500?) · you").await;
    c.wait_for("1 watching").await;
    // The board has its holes on every screen, the watcher's too.
    for t in [&a, &b, &c] {
        assert!(t.contents().contains('░'), "no holes:\n{}", t.contents());
    }

    // Moves until one has captured, every screen following; then the server dies. (The first seed whose random
    // game has a capture before its end, found here with the same dice, so that the test does not hang on one
    // game's luck.)
    let enough = |g: &AnyGame, captures: usize| captures > 0 && g.len() >= 6;
    let seed = (1..1000)
        .find(|&seed| {
            let (mut g, mut dice, mut captures) = (game.clone(), Dice(seed), 0);
            while g.outcome().is_none() && !enough(&g, captures) {
                let moves = g.legal_moves();
                let mv = moves[dice.below(moves.len())];
                captures += usize::from(mv.is_capture());
                g.play(&mv).expect("a legal move");
            }
            g.outcome().is_none()
        })
        .expect("a seed");
    let mut dice = Dice(seed);
    let captures = play_until([&mut a, &mut b], &mut c, &mut game, &mut dice, enough).await;
    assert!(captures > 0, "no capture in {} plies", game.len());
    assert!(game.outcome().is_none(), "the game ended early");
    let records = server.home.join("data/server/records.sqlite");
    let deadline = std::time::Instant::now() + crate::doors::ssh::PATIENCE;
    while recorded_moves(&records) < game.len() {
        assert!(
            std::time::Instant::now() < deadline,
            "the moves never reached the records"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop((a, b, c, alice, bob, carol));

    // The operator takes the file away: the game carries its definition, so it is resumed all the same.
    std::fs::remove_file(server.home.join("config/variants/holes.toml")).expect("removed");
    let server = server.crash_and_restart();
    let alice = connect(&server, &alice_key, "alice").await;
    let bob = connect(&server, &bob_key, "bob").await;
    let carol = connect(&server, &carol_key, "carol").await;
    let mut a = Terminal::open(&alice, 100, 30).await;
    let mut b = Terminal::open(&bob, 100, 30).await;
    let mut c = Terminal::exec(&carol, 100, 30, &format!("watch {code}")).await;
    let turn = your_move(&game);
    match game.position().side_to_move() {
        Color::Black => a.wait_for(&turn).await,
        Color::White => b.wait_for(&turn).await,
    }
    // The watcher sees the game where it stood, holes and all.
    c.until("the board with holes", |t| t.contents().contains('░'))
        .await;

    // Played to its end by the definition's goal (or resigned, should it run long).
    play_until([&mut a, &mut b], &mut c, &mut game, &mut dice, |g, _| {
        g.len() >= 200
    })
    .await;
    if game.outcome().is_none() {
        let side = game.position().side_to_move();
        let loser = if side == Color::Black { &mut a } else { &mut b };
        loser.wait_for(&your_move(&game)).await;
        loser.send(b":resign\r").await;
        loser.send(b"y").await;
        game.resign(side).expect("resigned");
    }
    let result = game.outcome().expect("over").to_string();
    for t in [&mut a, &mut b, &mut c] {
        t.wait_for(&result).await;
    }

    // The record's PDN carries the definition: `games` prints it and crowned replays it.
    drop((a, alice));
    let alice = connect(&server, &alice_key, "alice").await;
    let mut tries = 0;
    let text = loop {
        let mut channel = alice.channel_open_session().await.expect("a session");
        channel.exec(true, "games").await.expect("a command");
        let (text, status) = read_all(&mut channel).await;
        assert_eq!(status, Some(0), "{text}");
        tries += 1;
        if text.contains("[Event ") || tries == 50 {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        text.contains("[Variant \"English draughts with holes\"]")
            && text.contains("[VariantDefinition \"")
            && text.contains("[Black \"alice\"]"),
        "{text}"
    );
    let file = server.home.join("alice.pdn");
    std::fs::write(&file, &text).expect("written");
    let check = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(["pdn", "check"])
        .arg(&file)
        .output()
        .expect("runs");
    assert!(
        check.status.success(),
        "{text}\n{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    let _ = std::fs::remove_dir_all(&elsewhere);
}

/// The moves of the one unfinished game in the records at `path` (read beside the running server).
fn recorded_moves(path: &std::path::Path) -> usize {
    use crowned::serve::records::{GameRecords as _, SqliteRecords};
    SqliteRecords::open(path)
        .and_then(|mut records| records.unfinished_games())
        .ok()
        .and_then(|games| games.first().map(|game| game.moves.len()))
        .unwrap_or(0)
}

#[test]
fn a_definition_that_does_not_load_is_reported_at_start_and_the_server_starts_without_it() {
    let home = std::env::temp_dir().join(format!("crowned-serve-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(home.join("config/variants")).expect("a folder");
    let broken = HOLES.replace("width = 6", "widht = 6");
    std::fs::write(home.join("config/variants/broken.toml"), &broken).expect("written");
    std::fs::write(home.join("config/variants/holes.toml"), HOLES).expect("written");
    let mut child = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("CROWNED_HOME", &home)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a line");
    assert!(first.contains("listening on"), "{first:?}");
    let _ = child.kill();
    let _ = child.wait();
    let mut log = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut log)
        .expect("the log");
    let line = broken
        .lines()
        .position(|l| l.contains("widht"))
        .expect("there")
        + 1;
    assert!(
        log.contains(&format!("broken.toml:{line}:")) && log.contains("widht"),
        "{log}"
    );
    assert!(
        log.contains("holes (English draughts with holes)") && !log.contains("broken ("),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&home);
}
