//! `crowned hub` as another program sees it: started as a process and driven through the Hub protocol by the
//! library's client, in games, in matches (one player a Hub engine), in an SPRT match, and against engines that
//! misbehave.

use crate::cli_support;

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cli_support::{TempFile, assert_one_line_error, crowned, stdout};
use crowned::engine::nnue::{Network, NetworkFamily};
use crowned::engine::{EngineConfig, Level, Limits, builtin_openings};
use crowned::game::AnyGame;
use crowned::lab::sprt::{Sprt, SprtVerdict};
use crowned::lab::{
    Contender, HubEngine, HubError, MatchConfig, MatchError, MatchOpenings, play_match,
};
use crowned::rules::{GameType, Variant};

fn hub_command() -> Vec<String> {
    vec![env!("CARGO_BIN_EXE_crowned").to_string(), "hub".to_string()]
}

fn english() -> GameType {
    GameType::standard(Variant::English)
}

#[test]
fn a_game_against_the_hub_engine_stays_legal_and_sees_repetitions() {
    let never = AtomicBool::new(false);
    for game_type in [
        english(),
        GameType::standard(Variant::International),
        GameType::standard(Variant::Thai),
    ] {
        let mut engine = HubEngine::start(&hub_command(), game_type).expect("starts");
        assert!(engine.name().starts_with("crowned"), "{}", engine.name());
        engine.new_game().expect("new game");
        let mut game = AnyGame::new(game_type);
        while game.outcome().is_none() && game.len() < 40 {
            let mv = engine
                .play(&game, &Limits::time(Duration::from_millis(20)), &never)
                .expect("a legal move in time");
            game.play(&mv).expect("the client checked it");
        }
        assert!(game.len() >= 10 || game.outcome().is_some(), "{game_type}");
    }
    // Kings shuffling: the position is sent from the last man move with the king moves since.
    let mut game = AnyGame::from_fen(english(), "W:WK30,K32:BK1,K3").expect("valid");
    let mut engine = HubEngine::start(&hub_command(), english()).expect("starts");
    for _ in 0..12 {
        if game.outcome().is_some() {
            break;
        }
        let mv = engine
            .play(&game, &Limits::time(Duration::from_millis(10)), &never)
            .expect("a move");
        game.play(&mv).expect("legal");
    }
}

#[test]
fn a_match_with_a_hub_engine_and_its_tags() {
    let config = MatchConfig {
        game_type: english(),
        a: Contender::Level(Level::Easy),
        b: Contender::Hub(hub_command()),
        time: Duration::from_millis(10),
        openings: MatchOpenings::Deck(builtin_openings().into_iter().take(1).collect()),
        games: Some(2),
        seed: 1,
        engine: EngineConfig::default(),
        ponder: [false; 2],
        sprt: None,
        clock: None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let mut tags = Vec::new();
    let result = play_match(&config, &stop, &mut |g, _| {
        tags.push(g.game.tags().get("White").map(str::to_string));
        ControlFlow::Continue(())
    })
    .expect("plays");
    assert_eq!(result.games(), 2);
    assert_eq!(result.pairs.count(), 1);
    assert_eq!(result.names[0], "crowned easy");
    assert!(
        result.names[1].starts_with("crowned 0."),
        "{:?}",
        result.names
    );
    // The first game has the Hub engine as White, the second crowned easy.
    assert_eq!(tags[1].as_deref(), Some("crowned easy"));
}

#[test]
fn a_hub_engine_ponders_on_the_reply_it_expects() {
    // The same engine on both sides: the reply the pondering side expects is the one its twin often plays.
    let config = MatchConfig {
        game_type: english(),
        a: Contender::Hub(hub_command()),
        b: Contender::Hub(hub_command()),
        time: Duration::from_millis(10),
        openings: MatchOpenings::Deck(builtin_openings().into_iter().take(1).collect()),
        games: Some(2),
        seed: 3,
        engine: EngineConfig::default(),
        ponder: [true, false],
        sprt: None,
        clock: None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let result = play_match(&config, &stop, &mut |_, _| ControlFlow::Continue(())).expect("plays");
    assert_eq!(result.games(), 2);
    let [a, b] = result.time_use;
    let tries = a.ponder.hits + a.ponder.misses;
    // One search on the opponent's time after each move of a's but its last of a game (or one that ends it),
    // so about as many as a's moves; every one counted once, hit or miss.
    assert!(tries > 0 && tries <= a.moves + a.forced, "{a:?}");
    assert!(a.ponder.hits > 0, "{a:?}");
    assert_eq!(b.ponder.hits + b.ponder.misses, 0, "{b:?}");
}

#[test]
fn an_sprt_match_stops_when_it_decides() {
    let config = MatchConfig {
        game_type: english(),
        a: Contender::Hub(hub_command()),
        b: Contender::Level(Level::Random),
        time: Duration::from_millis(5),
        // Two openings only, played again and again: the test decides long before the cap.
        openings: MatchOpenings::Deck(builtin_openings().into_iter().take(2).collect()),
        games: Some(400),
        seed: 2,
        engine: EngineConfig::default(),
        ponder: [false; 2],
        sprt: Some(Sprt::new(0.0, 100.0).expect("valid")),
        clock: None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let result = play_match(&config, &stop, &mut |_, _| ControlFlow::Continue(())).expect("plays");
    assert_eq!(result.verdict, Some(SprtVerdict::Elo1), "{result:?}");
    assert!(!result.stopped);
    assert!(
        result.games() < 400 && result.games().is_multiple_of(2),
        "{}",
        result.games()
    );
    assert!(
        result.pairs.elo().is_some_and(|e| e.low > 100.0),
        "{result:?}"
    );
}

#[test]
fn engines_that_misbehave_are_reported_not_waited_on_forever() {
    let sh = |script: &str| vec!["sh".to_string(), "-c".to_string(), script.to_string()];
    // Not a program at all.
    let missing = HubEngine::start(&["/nonexistent/engine".to_string()], english());
    assert!(matches!(missing, Err(HubError::Start { .. })));
    assert!(matches!(
        HubEngine::start(&[], english()),
        Err(HubError::NoCommand)
    ));
    // Quits at once.
    assert!(matches!(
        HubEngine::start(&sh("exit 0"), english()),
        Err(HubError::Closed { .. })
    ));
    // Introduces itself, then answers every search with an illegal move.
    let liar = sh(
        "read l; echo 'id name=liar'; echo wait; read l; read l; echo ready; \
         while read l; do case \"$l\" in go*) echo 'done move=11-18';; esac; done",
    );
    let mut engine = HubEngine::start(&liar, english()).expect("it introduces itself");
    assert_eq!(engine.name(), "liar");
    let never = AtomicBool::new(false);
    let game = AnyGame::new(english());
    let refused = engine.play(&game, &Limits::time(Duration::from_millis(10)), &never);
    assert!(
        matches!(refused, Err(HubError::IllegalMove { ref text, .. }) if text == "11-18"),
        "{refused:?}"
    );
    // Reports an error: the match ends with the engine's message.
    let complaining = sh("read l; echo wait; read l; read l; echo ready; \
         while read l; do case \"$l\" in go*) echo 'error message=\"out of memory\"';; esac; done");
    let config = MatchConfig {
        game_type: english(),
        a: Contender::Level(Level::Random),
        b: Contender::Hub(complaining),
        time: Duration::from_millis(5),
        openings: MatchOpenings::Deck(builtin_openings().into_iter().take(1).collect()),
        games: Some(2),
        seed: 1,
        engine: EngineConfig::default(),
        ponder: [false; 2],
        sprt: None,
        clock: None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let failed = play_match(&config, &stop, &mut |_, _| ControlFlow::Continue(()));
    match failed {
        Err(MatchError::Hub(HubError::Refused { message, .. })) => {
            assert_eq!(message, "out of memory")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_command_line_runs_an_sprt_match_against_a_hub_engine() {
    let hub = format!("{} hub", env!("CARGO_BIN_EXE_crowned"));
    // An old file in the way, replaced as asked.
    let file = TempFile::new("hub-match.pdn", "old");
    let pdn_text = file.path();
    let out = crowned(&[
        "match", "--pdn", pdn_text, "--force", "--a-hub", &hub, "--b", "random", "--time", "0.005",
        "--sprt", "0,150", "--games", "200",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("SPRT (elo0 0, elo1 150): a is at least 150 Elo stronger")),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("a against b: +")),
        "{text}"
    );
    assert!(lines.last().is_some_and(|l| l.starts_with("a ")), "{text}");
    // Every game is in the file, with the engine's own name for its side, and replays.
    let games = std::fs::read_to_string(&file.0).expect("written");
    assert!(games.contains("[Black \"crowned 0."), "{games}");
    let check = crowned(&["pdn", "check", pdn_text]);
    assert!(stdout(&check).contains("errors 0"), "{}", stdout(&check));
    // Bad bounds, and a player given twice, are refused by the command line.
    assert_one_line_error(
        &["match", "--a", "max", "--b", "random", "--sprt", "10,0"],
        "the first below the second",
    );
    assert_one_line_error(
        &["match", "--a", "max", "--b", "random", "--sprt", "ten"],
        "give two Elo differences",
    );
    let two = crowned(&["match", "--a", "max", "--a-hub", "x", "--b", "random"]);
    assert_eq!(two.status.code(), Some(2));
}

#[test]
fn a_clocked_match_plans_its_time_and_a_flag_falls_for_an_engine_that_ignores_it() {
    let clocked = |b: Contender, initial_ms: u64| MatchConfig {
        game_type: english(),
        a: Contender::Hub(hub_command()),
        b,
        time: Duration::from_millis(100),
        openings: MatchOpenings::Deck(builtin_openings().into_iter().take(1).collect()),
        games: Some(2),
        seed: 1,
        engine: EngineConfig::default(),
        ponder: [false; 2],
        sprt: None,
        clock: Some((Duration::from_millis(initial_ms), Duration::from_millis(20))),
    };
    let stop = Arc::new(AtomicBool::new(false));
    // Two seconds and 20 ms a move for each: both sides finish with time left.
    let result = play_match(
        &clocked(Contender::Level(Level::Max), 2000),
        &stop,
        &mut |g, _| {
            assert!(!g.outcome.to_string().contains("on time"), "{}", g.outcome);
            ControlFlow::Continue(())
        },
    )
    .expect("plays");
    for used in &result.time_use {
        assert_eq!(used.flag_falls, 0);
        assert!(
            used.least_left.is_some_and(|l| l > Duration::ZERO),
            "{used:?}"
        );
    }
    // An engine told to search without end (its level lines rewritten) is stopped when its time is up and
    // loses on time.
    let ignoring = vec![
        "sh".to_string(),
        "-c".to_string(),
        format!(
            "sed -u 's/^level.*/level infinite/' | {} hub",
            env!("CARGO_BIN_EXE_crowned")
        ),
    ];
    let mut endings = Vec::new();
    let result = play_match(
        &clocked(Contender::Hub(ignoring), 300),
        &stop,
        &mut |g, _| {
            endings.push(g.outcome.to_string());
            ControlFlow::Continue(())
        },
    )
    .expect("plays");
    assert_eq!(result.time_use[1].flag_falls, 2, "{endings:?}");
    assert_eq!(result.a_wins, 2);
    assert!(endings.iter().all(|e| e.contains("on time")), "{endings:?}");
}

#[test]
fn the_hub_engine_searches_on_the_threads_it_is_given() {
    let command = vec![
        env!("CARGO_BIN_EXE_crowned").to_string(),
        "hub".to_string(),
        "--threads".to_string(),
        "2".to_string(),
    ];
    let never = AtomicBool::new(false);
    let mut engine = HubEngine::start(&command, english()).expect("starts");
    let mut game = AnyGame::new(english());
    for _ in 0..6 {
        let mv = engine
            .play(&game, &Limits::time(Duration::from_millis(30)), &never)
            .expect("a legal move");
        game.play(&mv).expect("legal");
    }
    let refused = crowned(&["hub", "--threads", "0"]);
    assert_eq!(refused.status.code(), Some(2));
}

/// The scores a `crowned hub` with `extra` arguments reports, one a depth, searching the start of English
/// draughts to depth 4.
fn start_scores(extra: &[&str]) -> Vec<String> {
    start_scores_of("english", extra)
}

/// [`start_scores`] for `variant`'s start.
fn start_scores_of(variant: &str, extra: &[&str]) -> Vec<String> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .arg("hub")
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the hub starts");
    let mut input = child.stdin.take().expect("stdin");
    input
        .write_all(
            format!(
                "hub\nset-param name=variant value={variant}\ninit\npos\nlevel depth=4\ngo think\n"
            )
            .as_bytes(),
        )
        .expect("the hub reads");
    let mut scores = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("a line");
        if line.starts_with("info") {
            let score = line
                .split(' ')
                .find_map(|field| field.strip_prefix("score="))
                .expect("a score");
            scores.push(score.to_string());
        }
        if line.starts_with("done") {
            break;
        }
    }
    let _ = input.write_all(b"quit\n");
    drop(input);
    let _ = child.wait();
    scores
}

/// A network file of zeros for `family`: it scores every quiet position level.
fn zeros_of(family: NetworkFamily, name: &str) -> TempFile {
    let file = TempFile::new(name, "");
    std::fs::write(&file.0, Network::zeroed(family).to_bytes()).expect("written");
    file
}

/// Under `variant`, played by a network of its own family: `foreign`, a network of another family, changes
/// nothing, and `own`, a network of zeros of its family, scores the first plies level. The compiled-in
/// network's scores.
fn plays_its_own_family(variant: &str, own: &TempFile, foreign: &TempFile) -> Vec<String> {
    let builtin = start_scores_of(variant, &[]);
    assert_eq!(builtin.len(), 4, "{variant}: {builtin:?}");
    assert_eq!(
        start_scores_of(variant, &["--network", foreign.path()]),
        builtin,
        "{variant}"
    );
    let level = start_scores_of(variant, &["--network", own.path()]);
    assert!(level.iter().all(|s| s == "0.00"), "{variant}: {level:?}");
    builtin
}

#[test]
fn the_hub_plays_with_a_network_file_in_place_of_the_compiled_in_one() {
    let compiled_in = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/engine/src/nnue/weights.nnue"
    );
    let builtin = start_scores(&[]);
    assert_eq!(builtin.len(), 4, "{builtin:?}");
    assert_eq!(start_scores(&["--network", compiled_in]), builtin);
    // A network of zeros scores every quiet position level, and nothing is decided four plies from the start.
    let zeros = zeros_of(NetworkFamily::English, "zeros.nnue");
    let level = start_scores(&["--network", zeros.path()]);
    assert!(level.iter().all(|s| s == "0.00"), "{level:?}");
    assert_ne!(
        level, builtin,
        "the compiled-in network has a view of the start"
    );

    // International draughts has a network of its own: a network for the 8x8 board changes nothing there, one
    // for the 10x10 board replaces it, and `--eval classic` is the hand-written evaluation's view.
    let ten_zeros = zeros_of(NetworkFamily::International, "ten-zeros.nnue");
    let ten_builtin = plays_its_own_family("international", &ten_zeros, &zeros);
    let hand_written = start_scores_of("international", &["--eval", "classic"]);
    assert_ne!(hand_written, ten_builtin);
    // Russian draughts is played on English's board but by a network of its own family.
    let russian_zeros = zeros_of(NetworkFamily::Russian, "russian-zeros.nnue");
    plays_its_own_family("russian", &russian_zeros, &zeros);
    // Frisian draughts shares international draughts' network.
    plays_its_own_family("frisian", &ten_zeros, &russian_zeros);

    let damaged = TempFile::new("damaged.nnue", "CRWNNNUE and then nonsense");
    assert_one_line_error(&["hub", "--network", damaged.path()], "damaged.nnue");
    assert_one_line_error(&["hub", "--network", "no-such.nnue"], "no-such.nnue");
}
