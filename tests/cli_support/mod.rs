//! Helpers for the tests that run the `crowned` binary.

use std::path::Path;
use std::process::{Command, Output};

/// Runs the binary with its files under a home that is never created, so the user's own settings and games are
/// never read.
pub fn crowned(args: &[&str]) -> Output {
    let nowhere = std::env::temp_dir().join(format!("crowned-cli-nowhere-{}", std::process::id()));
    crowned_in(&nowhere, args)
}

/// Runs the binary with its files under `home`.
pub fn crowned_in(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(args)
        .env("CROWNED_HOME", home)
        .output()
        .expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs the binary and checks that it refused `args` with exit code 2 and one line on stderr containing
/// `expected`.
pub fn assert_one_line_error(args: &[&str], expected: &str) {
    let out = crowned(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(stdout(&out).is_empty(), "{args:?}");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(expected), "{args:?}: {err}");
}

/// A file in a fresh temporary folder, removed when dropped.
pub struct TempFile(pub std::path::PathBuf);

impl TempFile {
    /// Writes `contents` to a file called `name` in a new folder of its own.
    pub fn new(name: &str, contents: &str) -> TempFile {
        let dir = std::env::temp_dir().join(format!("crowned-cli-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        std::fs::write(&path, contents).expect("temp file");
        TempFile(path)
    }

    /// The path as text, for the command line.
    pub fn path(&self) -> &str {
        self.0.to_str().expect("UTF-8 temp path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
