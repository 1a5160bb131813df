//! The packaging in the repository (the systemd unit and the container image's definition) runs this program as
//! it is: the options they start the server with are ones it takes, checked with `crowned serve --check` (on
//! loopback, port chosen by the system, in a folder of the test's own), and the unit keeps its hardening.

use std::path::PathBuf;
use std::process::Command;

/// The repository's file at `path`.
fn packaging(path: &str) -> String {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// Runs `crowned` with `args` as `crowned serve --check` would be run in their place: every listening address
/// made a loopback one on a port the system chooses, `--check` added. What it printed, and whether it passed.
fn check_as(name: &str, args: &[String]) -> (String, bool) {
    let home =
        std::env::temp_dir().join(format!("crowned-packaging-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).expect("a folder");
    let mut args: Vec<String> = args
        .iter()
        .map(|a| match a.parse::<std::net::SocketAddr>() {
            Ok(_) => "127.0.0.1:0".to_string(),
            Err(_) => a.clone(),
        })
        .collect();
    if !args.iter().any(|a| a == "--check") {
        args.push("--check".into());
    }
    assert_eq!(args.first().map(String::as_str), Some("serve"), "{args:?}");
    let out = Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(&args)
        .env("CROWNED_HOME", &home)
        .output()
        .expect("runs");
    let _ = std::fs::remove_dir_all(&home);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (text, out.status.success())
}

/// The words after the program in each of the unit's lines starting with `key=`.
fn commands(unit: &str, key: &str) -> Vec<Vec<String>> {
    unit.lines()
        .filter_map(|line| line.strip_prefix(&format!("{key}=")))
        .map(|command| {
            let mut words = command.split_whitespace();
            assert_eq!(words.next(), Some("/usr/local/bin/crowned"), "{command}");
            words.map(String::from).collect()
        })
        .collect()
}

#[test]
fn the_systemd_unit_starts_the_server_with_options_it_takes_and_keeps_its_hardening() {
    let unit = packaging("packaging/crowned.service");
    for setting in [
        "DynamicUser=yes",
        "StateDirectory=crowned",
        "Environment=CROWNED_HOME=/var/lib/crowned",
        "NoNewPrivileges=yes",
        "CapabilityBoundingSet=",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "PrivateTmp=yes",
        "PrivateDevices=yes",
        "KillSignal=SIGTERM",
    ] {
        assert!(unit.lines().any(|l| l == setting), "{setting} is missing");
    }
    let pre = commands(&unit, "ExecStartPre");
    let start = commands(&unit, "ExecStart");
    assert_eq!((pre.len(), start.len()), (1, 1));
    assert!(pre[0].contains(&"--check".to_string()), "{pre:?}");
    for (name, args) in [("unit-pre", &pre[0]), ("unit", &start[0])] {
        let (said, ok) = check_as(name, args);
        assert!(ok, "{args:?}: {said}");
        assert!(
            said.contains("ok      SSH door") && said.contains("ok      web door"),
            "{said}"
        );
    }
}

#[test]
fn the_container_image_starts_the_server_with_options_it_takes_and_keeps_its_files_in_the_volume() {
    let image = packaging("packaging/Containerfile");
    let entry = image
        .lines()
        .find_map(|l| l.strip_prefix("ENTRYPOINT "))
        .expect("an entry point");
    let words: Vec<String> = entry
        .trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|w| w.trim().trim_matches('"').to_string())
        .collect();
    assert_eq!(words[0], "/usr/local/bin/crowned");
    let (said, ok) = check_as("image", &words[1..]);
    assert!(ok, "{words:?}: {said}");
    assert!(image.contains("ENV CROWNED_HOME=/var/lib/crowned"));
    assert!(image.contains("VOLUME /var/lib/crowned"));
    assert!(image.contains("USER crowned"));
    assert!(image.contains("--bin crowned"));
}
