//! The test suite itself: every Rust file under `tests/` is compiled by some test program.
//!
//! The tests are a few programs (one a layer, `tests/<layer>/main.rs`), each naming its files as modules, so a file that
//! no program names is never compiled and its tests never run, without a word from cargo. This follows the module
//! declarations from each program's root, as the compiler resolves them, and names any file left out.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The roots of the test programs, as `Cargo.toml` declares them (`[[test]]` with its `path`).
fn roots(manifest: &str) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    let mut in_test = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_test = line == "[[test]]";
        } else if in_test && let Some(path) = line.strip_prefix("path = ") {
            roots.push(PathBuf::from(path.trim_matches('"')));
        }
    }
    roots
}

/// The files a source file declares as modules (`mod x;`, with or without `#[path = "..."]`), where the compiler
/// looks for them. `owns_dir` is true for a file whose plain `mod x;` are found beside it: a program's root, a
/// `mod.rs`, or a file itself reached through `#[path]`.
fn declared(file: &Path, text: &str, owns_dir: bool) -> Vec<(PathBuf, bool)> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut found = Vec::new();
    let mut path_attribute: Option<&str> = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("#[path = \"") {
            path_attribute = rest.strip_suffix("\"]");
            continue;
        }
        let declaration = ["mod ", "pub mod ", "pub(crate) mod "]
            .iter()
            .find_map(|p| line.strip_prefix(p))
            .and_then(|rest| rest.strip_suffix(';'));
        match (declaration, path_attribute.take()) {
            (Some(_), Some(path)) => found.push((dir.join(path), true)),
            (Some(name), None) => {
                let base = if owns_dir {
                    dir.to_path_buf()
                } else {
                    dir.join(file.file_stem().unwrap_or_default())
                };
                let flat = base.join(format!("{name}.rs"));
                let nested = base.join(name).join("mod.rs");
                if nested.is_file() {
                    found.push((nested, true));
                } else {
                    found.push((flat, false));
                }
            }
            _ => {}
        }
    }
    found
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, into: &mut BTreeSet<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.insert(path);
        }
    }
}

/// `a/b/../c` as `a/c`, so that two ways of naming one file compare equal.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn every_file_under_tests_is_compiled_by_a_test_program() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml reads");
    let mut queue: Vec<(PathBuf, bool)> = roots(&manifest)
        .into_iter()
        .map(|p| (normal(&root.join(p)), true))
        .collect();
    assert!(
        queue.len() >= 5,
        "the test programs of Cargo.toml: {queue:?}"
    );
    let mut compiled = BTreeSet::new();
    while let Some((file, owns_dir)) = queue.pop() {
        if !compiled.insert(file.clone()) {
            continue;
        }
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{} is declared but cannot be read: {e}", file.display()));
        let owns_dir = owns_dir || file.file_name().is_some_and(|n| n == "mod.rs");
        queue.extend(
            declared(&file, &text, owns_dir)
                .into_iter()
                .map(|(p, owns)| (normal(&p), owns)),
        );
    }
    let mut present = BTreeSet::new();
    rust_files(&root.join("tests"), &mut present);
    let left_out: Vec<_> = present
        .difference(&compiled)
        .map(|p| p.strip_prefix(root).unwrap_or(p).display().to_string())
        .collect();
    assert!(
        left_out.is_empty(),
        "no test program compiles these files (name each as a module of its layer's program, tests/<layer>/main.rs): {left_out:?}"
    );
    // The walk found the files it should: this one among them.
    assert!(compiled.contains(&root.join("tests/cli/suite.rs")));
}

#[test]
fn a_file_no_program_names_would_be_found() {
    let file = Path::new("/suite/tests/rules/main.rs");
    let text = "#[path = \"../common/mod.rs\"]\nmod common;\nmod perft;\nmod inline {\n}\n";
    assert_eq!(
        declared(file, text, true),
        [
            (PathBuf::from("/suite/tests/rules/../common/mod.rs"), true),
            (PathBuf::from("/suite/tests/rules/perft.rs"), false)
        ]
    );
    // A plain declaration in a file that is not a directory's owner is looked for in a folder of its name.
    let text = "pub mod cursor;\n";
    assert_eq!(
        declared(Path::new("/suite/tests/common/app.rs"), text, false),
        [(PathBuf::from("/suite/tests/common/app/cursor.rs"), false)]
    );
    assert_eq!(
        normal(Path::new("/suite/tests/rules/../common/mod.rs")),
        PathBuf::from("/suite/tests/common/mod.rs")
    );
    let manifest = "[[test]]\nname = \"rules\"\npath = \"tests/rules/main.rs\"\n\n[[bench]]\npath = \"x.rs\"\n";
    assert_eq!(roots(manifest), [PathBuf::from("tests/rules/main.rs")]);
}
