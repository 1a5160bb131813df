//! `crowned tune`: a tiny self-play run, the weights fitted to it, and a network trained on it that the library
//! reads back.

use crate::cli_support;

use cli_support::{TempFile, assert_one_line_error, crowned, stderr};
use crowned::engine::nnue::{Network, NetworkFamily};

/// Six self-play games at depth 2 from seed 3 into `out`, with `extra` arguments: the file's text, checked to
/// hold a good number of positions.
fn self_play(out: &std::path::Path, extra: &[&str]) -> String {
    let out_arg = out.to_string_lossy();
    let mut args = vec![
        "tune", "data", "--games", "6", "--depth", "2", "--seed", "3", "--out", &out_arg,
    ];
    args.extend_from_slice(extra);
    let data = crowned(&args);
    assert!(data.status.success(), "{}", stderr(&data));
    let text = std::fs::read_to_string(out).expect("the samples");
    assert!(text.lines().count() > 100, "{} lines", text.lines().count());
    text
}

#[test]
fn self_play_then_a_fit_and_a_network_trained_on_it() {
    let marker = TempFile::new("tune-dir", "");
    let dir = marker.0.with_extension("d");
    std::fs::create_dir_all(&dir).expect("a directory");
    let samples = dir.join("samples.txt");
    let samples_arg = samples.to_string_lossy().into_owned();

    let text = self_play(&samples, &[]);

    // An existing file is never replaced by self-play.
    let again = crowned(&["tune", "data", "--games", "1", "--out", &samples_arg]);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(&samples).expect("kept"), text);

    let fit = crowned(&["tune", "fit", &samples_arg, "--epochs", "5"]);
    assert!(fit.status.success(), "{}", stderr(&fit));
    assert!(String::from_utf8_lossy(&fit.stdout).contains("pub const WEIGHTS"));

    // Trained on two threads, then on one: the same seed makes the same network either way.
    let train = |name: &str, threads: &str| {
        let path = dir.join(name);
        let out = crowned(&[
            "tune",
            "net",
            &samples_arg,
            "--epochs",
            "2",
            "--threads",
            threads,
            "--out",
            &path.to_string_lossy(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        (
            stderr(&out),
            std::fs::read(&path).expect("the network file"),
        )
    };
    let (log, bytes) = train("net.nnue", "2");
    assert!(log.contains("epoch   2:"), "{log}");
    assert!(log.contains("held-out mean squared error"), "{log}");
    let network = Network::from_bytes(&bytes).expect("a network the engine reads");
    assert_ne!(network, Network::zeroed(NetworkFamily::English));
    assert_eq!(train("net2.nnue", "1").1, bytes);

    // The same games played by that network rather than the one compiled in: another file.
    let net = dir.join("net.nnue").to_string_lossy().into_owned();
    let other = self_play(&dir.join("by-network.txt"), &["--network", &net]);
    assert_ne!(other, text, "the network played the games");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn international_games_train_a_network_for_the_ten_by_ten_board_that_plays_them() {
    let marker = TempFile::new("tune-ten-dir", "");
    let dir = marker.0.with_extension("d");
    std::fs::create_dir_all(&dir).expect("a directory");
    let samples = dir.join("samples.txt");
    let samples_arg = samples.to_string_lossy().into_owned();
    let text = self_play(&samples, &["--variant", "international"]);
    assert!(text.starts_with("W:W31-50:B1-20;"), "{}", &text[..40]);
    let path = dir.join("ten.nnue");
    let net_arg = path.to_string_lossy().into_owned();
    let train = |variant: &str| {
        crowned(&[
            "tune",
            "net",
            &samples_arg,
            "--epochs",
            "2",
            "--variant",
            variant,
            "--out",
            &net_arg,
        ])
    };
    let out = train("international");
    assert!(out.status.success(), "{}", stderr(&out));
    let network = Network::from_bytes(&std::fs::read(&path).expect("the network")).expect("reads");
    assert_eq!(network.family(), NetworkFamily::International);
    assert_ne!(network, Network::zeroed(NetworkFamily::International));

    // The network plays international games (unlike the hand-written evaluation) and is refused for English.
    let other = self_play(
        &dir.join("by-network.txt"),
        &["--variant", "international", "--network", &net_arg],
    );
    assert_ne!(other, text, "the network played the games");
    assert_one_line_error(
        &[
            "tune",
            "data",
            "--network",
            &net_arg,
            "--out",
            "/dev/null/never",
        ],
        "the network is for international draughts (10x10)",
    );
    // Frisian draughts shares international draughts' network, so it plays its games with it; Italian has none.
    let frisian = self_play(
        &dir.join("frisian.txt"),
        &["--variant", "frisian", "--network", &net_arg],
    );
    assert!(frisian.starts_with("W:W31-50:B1-20;"), "{}", &frisian[..40]);
    assert_one_line_error(
        &[
            "tune",
            "data",
            "--variant",
            "italian",
            "--network",
            &net_arg,
            "--out",
            "/dev/null/never",
        ],
        "italian has no network evaluation",
    );
    // Rules without a network: refused before any work.
    let brazilian = train("brazilian");
    assert_eq!(brazilian.status.code(), Some(2), "{}", stderr(&brazilian));
    assert!(
        stderr(&brazilian).contains("English, international and Russian draughts only"),
        "{}",
        stderr(&brazilian)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_training_input_is_a_clear_error() {
    let bad = TempFile::new("tune-bad.txt", "B:W21-32:B1-12;0.5\nnot a position;1\n");
    assert_one_line_error(&["tune", "net", bad.path(), "--out", "/dev/null"], "line 2");
    // A defined variant has no network to train.
    let pond = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/pond.toml");
    assert_one_line_error(
        &[
            "tune",
            "net",
            bad.path(),
            "--variant-file",
            pond,
            "--out",
            "/dev/null",
        ],
        "networks are trained for English, international and Russian draughts only",
    );
    assert_one_line_error(
        &[
            "tune",
            "data",
            "--network",
            bad.path(),
            "--out",
            "/dev/null/never",
        ],
        "not a crowned network file",
    );
    let empty = TempFile::new("tune-empty.txt", "");
    let out = crowned(&["tune", "net", empty.path(), "--out", "/dev/null"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no positions to train on"),
        "{}",
        stderr(&out)
    );
    let sample = TempFile::new("tune-one.txt", "B:W21-32:B1-12;0.5\n");
    assert_one_line_error(
        &[
            "tune",
            "net",
            sample.path(),
            "--lambda",
            "2",
            "--out",
            "/dev/null",
        ],
        "--lambda",
    );
}

#[test]
fn spsa_prints_values_a_hub_takes_and_refuses_unknown_parameters() {
    let run = || {
        crowned(&[
            "tune",
            "spsa",
            "--param",
            "futility-margin:40:80:15",
            "--param",
            "reduction-base",
            "--iterations",
            "2",
            "--pairs",
            "1",
            "--nodes",
            "200",
            "--seed",
            "3",
        ])
    };
    let out = run();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let mut params = crowned::engine::ParamOverrides::default();
    for line in &lines {
        params
            .assign(line)
            .expect("a NAME=VALUE line the hub takes");
    }
    let params = params.over(crowned::engine::SearchParams::default());
    assert!((40..=80).contains(&params.futility_margin), "{text}");
    assert!(stderr(&out).contains("iteration 2"), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&run().stdout),
        text,
        "the same seed"
    );
    assert_one_line_error(&["tune", "spsa", "--param", "no-such"], "no-such");
    // Any built-in rules: international draughts' search is tuned on its own board.
    let international = crowned(&[
        "tune",
        "spsa",
        "--variant",
        "international",
        "--param",
        "futility-margin:40:80:15",
        "--iterations",
        "1",
        "--pairs",
        "1",
        "--nodes",
        "200",
    ]);
    assert!(international.status.success(), "{}", stderr(&international));
    assert!(
        String::from_utf8_lossy(&international.stdout).starts_with("futility-margin="),
        "{}",
        String::from_utf8_lossy(&international.stdout)
    );
}
