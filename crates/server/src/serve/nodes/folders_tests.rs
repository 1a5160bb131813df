//! The players' folders shared through a real PostgreSQL server, two nodes' copies as two folders.

use std::fs;
use std::path::{Path, PathBuf};

use tokio_postgres::{Config, NoTls};

use super::*;
use crate::local_postgres::LocalPostgres;

const OWNER: &str = "SHA256:folders-test";

/// A fresh database of its own.
async fn database() -> Config {
    let url = tokio::task::spawn_blocking(|| {
        let server =
            LocalPostgres::shared().unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
        server.fresh_database("folders").expect("a database")
    })
    .await
    .expect("made");
    url.parse().expect("a PostgreSQL URL")
}

/// An empty folder for one node's copy of a player's folder.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crowned-folders-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a folder");
    dir
}

fn put(folder: &Path, path: &str, text: &str) {
    let path = folder.join(path);
    fs::create_dir_all(path.parent().expect("a parent")).expect("made");
    fs::write(path, text).expect("written");
}

fn read(folder: &Path, path: &str) -> Option<String> {
    fs::read_to_string(folder.join(path)).ok()
}

#[tokio::test]
async fn a_folder_pushed_on_one_node_is_pulled_into_an_empty_folder_on_another() {
    let folders = Folders::connect(database().await).await.expect("connected");
    let (one, two) = (folder("push-one"), folder("push-two"));
    put(
        &one,
        "config/config.toml",
        "[display]\npieces = \"ascii\"\n",
    );
    put(&one, "data/autosave.pdn", "1. 11-15 *");
    put(&one, "data/games/game.pdn", "1. 9-13 *");
    // Locks and temporary files are this node's own.
    put(&one, "data/autosave.lock", "");
    put(&one, "data/.autosave.pdn.0123.tmp", "half");
    let pushed = folders.push(OWNER, &one).await.expect("pushed");
    assert_eq!(pushed.pushed, 3);
    assert!(pushed.refused.is_empty(), "{:?}", pushed.refused);
    // Nothing changed: nothing more to push.
    assert_eq!(folders.push(OWNER, &one).await.expect("pushed").pushed, 0);

    let pulled = folders.pull(OWNER, &two).await.expect("pulled");
    assert_eq!((pulled.pulled, pulled.pushed), (3, 0));
    assert_eq!(
        read(&two, "config/config.toml").as_deref(),
        Some("[display]\npieces = \"ascii\"\n")
    );
    assert_eq!(
        read(&two, "data/autosave.pdn").as_deref(),
        Some("1. 11-15 *")
    );
    assert_eq!(
        read(&two, "data/games/game.pdn").as_deref(),
        Some("1. 9-13 *")
    );
    assert!(!two.join("data/autosave.lock").exists());
    // Another player's folder is their own.
    let other = folder("push-other");
    let pulled = folders
        .pull("SHA256:someone-else", &other)
        .await
        .expect("pulled");
    assert_eq!(pulled.pulled, 0);
    // Pulling again brings nothing: the versions are known.
    assert_eq!(folders.pull(OWNER, &two).await.expect("pulled").pulled, 0);

    // A change on the second node reaches the first.
    put(&two, "config/config.toml", "[display]\ntheme = \"mono\"\n");
    assert_eq!(folders.push(OWNER, &two).await.expect("pushed").pushed, 1);
    let pulled = folders.pull(OWNER, &one).await.expect("pulled");
    assert_eq!(pulled.pulled, 1);
    assert!(pulled.set_aside.is_empty());
    assert_eq!(
        read(&one, "config/config.toml").as_deref(),
        Some("[display]\ntheme = \"mono\"\n")
    );
    for dir in [one, two, other] {
        let _ = fs::remove_dir_all(dir);
    }
}

#[tokio::test]
async fn a_deletion_reaches_the_other_node() {
    let folders = Folders::connect(database().await).await.expect("connected");
    let (one, two) = (folder("delete-one"), folder("delete-two"));
    put(&one, "data/autosave.pdn", "1. 11-15 *");
    put(&one, "data/games/old.pdn", "1. 9-13 *");
    folders.push(OWNER, &one).await.expect("pushed");
    folders.pull(OWNER, &two).await.expect("pulled");
    assert!(two.join("data/autosave.pdn").exists());

    // The game ends on node one: its autosave is cleared, and a saved game deleted.
    fs::remove_file(one.join("data/autosave.pdn")).expect("removed");
    fs::remove_file(one.join("data/games/old.pdn")).expect("removed");
    assert_eq!(folders.push(OWNER, &one).await.expect("pushed").pushed, 2);
    let pulled = folders.pull(OWNER, &two).await.expect("pulled");
    assert_eq!(pulled.pulled, 2);
    assert!(!two.join("data/autosave.pdn").exists());
    assert!(!two.join("data/games/old.pdn").exists());
    // A node that never had them is not given them back.
    let three = folder("delete-three");
    assert_eq!(folders.pull(OWNER, &three).await.expect("pulled").pulled, 0);
    assert!(!three.join("data/autosave.pdn").exists());

    // A file of the same name made again later is shared again.
    put(&two, "data/autosave.pdn", "1. 10-14 *");
    folders.push(OWNER, &two).await.expect("pushed");
    folders.pull(OWNER, &one).await.expect("pulled");
    assert_eq!(
        read(&one, "data/autosave.pdn").as_deref(),
        Some("1. 10-14 *")
    );
    for dir in [one, two, three] {
        let _ = fs::remove_dir_all(dir);
    }
}

#[tokio::test]
async fn a_file_changed_here_and_not_pushed_survives_a_pull() {
    let folders = Folders::connect(database().await).await.expect("connected");
    let (one, two) = (folder("unpushed-one"), folder("unpushed-two"));
    put(&one, "data/autosave.pdn", "1. 11-15 *");
    put(&one, "config/config.toml", "# first\n");
    folders.push(OWNER, &one).await.expect("pushed");
    folders.pull(OWNER, &two).await.expect("pulled");

    // Node two's push failed (or it died first): its newer autosave was never shared. The database has not changed
    // since: the newer file stays, and is pushed.
    put(&two, "data/autosave.pdn", "1. 11-15 23-19 *");
    let pulled = folders.pull(OWNER, &two).await.expect("pulled");
    assert_eq!((pulled.pulled, pulled.pushed), (0, 1));
    assert_eq!(
        read(&two, "data/autosave.pdn").as_deref(),
        Some("1. 11-15 23-19 *")
    );

    // Both sides changed the same files: the database's copies take the paths, this node's are set aside.
    put(&one, "config/config.toml", "# from node one\n");
    put(&two, "config/config.toml", "# from node two, unpushed\n");
    put(&two, "data/autosave.pdn", "1. 11-15 23-19 2. 8-11 *");
    folders.pull(OWNER, &one).await.expect("pulled");
    folders.push(OWNER, &one).await.expect("pushed");
    put(&one, "data/autosave.pdn", "1. 9-13 *");
    folders.push(OWNER, &one).await.expect("pushed");
    let pulled = folders.pull(OWNER, &two).await.expect("pulled");
    assert_eq!(pulled.set_aside.len(), 2, "{pulled:?}");
    assert_eq!(
        read(&two, "config/config.toml").as_deref(),
        Some("# from node one\n")
    );
    assert_eq!(
        read(&two, "config/config-kept.toml").as_deref(),
        Some("# from node two, unpushed\n")
    );
    assert_eq!(
        read(&two, "data/autosave.pdn").as_deref(),
        Some("1. 9-13 *")
    );
    // The autosave set aside goes among the saved games, where the player can load it.
    assert_eq!(
        read(&two, "data/games/autosave-kept.pdn").as_deref(),
        Some("1. 11-15 23-19 2. 8-11 *")
    );
    // What was set aside is shared too.
    let three = folder("unpushed-three");
    folders.pull(OWNER, &three).await.expect("pulled");
    assert!(three.join("data/games/autosave-kept.pdn").exists());
    assert!(three.join("config/config-kept.toml").exists());

    // Changed here but deleted there: it stays, and is shared again.
    folders.pull(OWNER, &one).await.expect("pulled");
    fs::remove_file(one.join("data/games/autosave-kept.pdn")).expect("removed");
    folders.push(OWNER, &one).await.expect("pushed");
    put(&three, "data/games/autosave-kept.pdn", "1. 11-15 *");
    folders.pull(OWNER, &three).await.expect("pulled");
    assert_eq!(
        read(&three, "data/games/autosave-kept.pdn").as_deref(),
        Some("1. 11-15 *")
    );
    folders.pull(OWNER, &one).await.expect("pulled");
    assert!(one.join("data/games/autosave-kept.pdn").exists());
    for dir in [one, two, three] {
        let _ = fs::remove_dir_all(dir);
    }
}

#[tokio::test]
async fn limits_and_hostile_paths_are_refused() {
    for bad in [
        "../outside",
        "/etc/passwd",
        "data/../../outside",
        "data/./x",
        "data//x",
        ".crowned-shared.json",
        "data/autosave.lock",
        "data/\u{1b}[2J",
        "",
    ] {
        assert!(check_path(bad).is_err(), "{bad:?}");
    }
    assert!(check_path(&"x".repeat(MAX_PATH + 1)).is_err());
    assert!(check_path("data/games/game-2.pdn").is_ok());

    let config = database().await;
    let folders = Folders::connect(config.clone()).await.expect("connected");
    let one = folder("limits-one");
    let big = "x".repeat(MAX_FILE + 1);
    put(&one, "data/games/huge.pdn", &big);
    put(&one, "data/games/fine.pdn", "1. 11-15 *");
    let pushed = folders.push(OWNER, &one).await.expect("pushed");
    assert_eq!(pushed.pushed, 1);
    assert!(matches!(
        pushed.refused.as_slice(),
        [FileRefusal::FileTooLarge { path, .. }] if path == "data/games/huge.pdn"
    ));
    // Too many files: those past the limit are not shared (and stay here).
    for n in 0..MAX_FILES {
        put(&one, &format!("data/games/g{n:04}.pdn"), "*");
    }
    let pushed = folders.push(OWNER, &one).await.expect("pushed");
    assert_eq!(pushed.pushed, MAX_FILES - 1);
    assert!(
        pushed
            .refused
            .iter()
            .any(|r| matches!(r, FileRefusal::TooManyFiles { .. }))
    );
    assert!(one.join("data/games/g0511.pdn").exists());

    // Rows another program wrote into the database with paths out of the folder are refused, nothing written.
    let (client, connection) = config.connect(NoTls).await.expect("connected");
    tokio::spawn(connection);
    for path in [
        "../escaped.pdn",
        "/tmp/crowned-escaped.pdn",
        "data/../../escaped.pdn",
    ] {
        client
            .execute(
                "INSERT INTO player_files (owner, path, contents, version) VALUES ($1, $2, $3, 1)",
                &[&"SHA256:hostile", &path, &b"gotcha".to_vec()],
            )
            .await
            .expect("inserted");
    }
    client
        .execute(
            "INSERT INTO player_files (owner, path, contents, version) VALUES ($1, $2, $3, 1)",
            &[&"SHA256:hostile", &"data/big.pdn", &big.as_bytes().to_vec()],
        )
        .await
        .expect("inserted");
    let base = folder("limits-hostile");
    let two = base.join("player");
    let pulled = folders.pull("SHA256:hostile", &two).await.expect("pulled");
    assert_eq!(pulled.pulled, 0);
    assert_eq!(pulled.refused.len(), 4, "{:?}", pulled.refused);
    assert!(!base.join("escaped.pdn").exists());
    assert!(!Path::new("/tmp/crowned-escaped.pdn").exists());
    assert!(!two.join("data/big.pdn").exists());
    for dir in [one, base] {
        let _ = fs::remove_dir_all(dir);
    }
}
