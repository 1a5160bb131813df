//! `crowned serve migrate-records`: an SQLite records file copied into PostgreSQL (a server of the test's own)
//! answers every question as the file did, and the players' folders come along; a database that already has
//! records is refused.

use std::path::Path;
use std::process::Command;

use crowned::serve::Identity;
use crowned::serve::records::conduct::{Ban, BanTarget, Conduct as _, PlayerReport};
use crowned::serve::records::creations::EventCreations as _;
use crowned::serve::records::links::{BrowserLinks as _, Offer, Proof};
use crowned::serve::records::news::NewsRecords as _;
use crowned::serve::records::{
    FinishedGame, GameRecords as _, NewGame, PlayerRecords as _, PostgresRecords, Records,
    SqliteRecords,
};
use crowned::server_lab::local_postgres::LocalPostgres;

fn player(name: &str) -> Identity {
    Identity {
        fingerprint: format!("SHA256:{name}").into(),
        name: name.to_string(),
    }
}

/// A small server's records: three players, a finished rated game, a finished unrated one, a game in progress
/// with clocks noted, and one of a variant written as a definition.
fn write_records(path: &Path) {
    let mut records = SqliteRecords::open(path).expect("created");
    let (ann, bob, cy) = (player("ann"), player("bob"), player("cy"));
    for someone in [&ann, &bob, &cy] {
        records.seen(someone).expect("seen");
    }
    // Each game under a code of its own: the nodes' records hold one game in progress per code.
    let mut codes = ["K7QX", "K7QY", "AB12", "CD34"].into_iter();
    let mut start =
        |records: &mut SqliteRecords, black: &Identity, white: &Identity, rated, definition| {
            records
                .start_game(&NewGame {
                    variant: "english",
                    black: &black.fingerprint,
                    white: &white.fingerprint,
                    rated,
                    clock: "5+3",
                    code: &codes.next().expect("a code").into(),
                    definition,
                })
                .expect("started")
        };
    for (black, white, rated, score) in [(&ann, &bob, true, 1.0), (&bob, &cy, false, 0.5)] {
        let game = start(&mut records, black, white, rated, None);
        records
            .add_move(game, 0, "11-15", Some([299_000, 300_000]))
            .expect("a move");
        records
            .record_result(
                game,
                &FinishedGame {
                    result: "1-0",
                    pdn: "[Result \"1-0\"]\n1. 11-15 1-0\n",
                    black_score: score,
                },
            )
            .expect("finished");
    }
    let going = start(&mut records, &cy, &ann, true, None);
    records
        .add_move(going, 0, "9-13", Some([298_000, 300_000]))
        .expect("a move");
    records
        .add_move(going, 1, "22-18", Some([298_000, 297_500]))
        .expect("a move");
    records
        .note_clocks(going, 2, [290_000, 297_500])
        .expect("noted");
    let defined = start(&mut records, &ann, &cy, false, Some("name = \"holes\"\n"));
    records.add_move(defined, 0, "e5-f4", None).expect("a move");
    // What keeps the server civil comes along too.
    records
        .set_block(&ann.fingerprint, &cy.fingerprint, "cy", true)
        .expect("blocked");
    let report = PlayerReport {
        at: 1_700_000_000,
        reporter: (ann.fingerprint.clone(), "ann".into()),
        reported: (cy.fingerprint.clone(), "cy".into()),
        game: "K7QX".into(),
        text: "rude in chat".into(),
    };
    records.add_report(&report).expect("reported");
    let ban = Ban {
        target: BanTarget::Address("192.0.2.7".parse().expect("an address")),
        reason: "flooding".into(),
        since: 1_700_000_001,
    };
    records.ban(&ban).expect("banned");
    // And what is kept for players: news, the events they created, their linked browsers.
    records
        .add_news(&ann.fingerprint, "you lost on time")
        .expect("news");
    records
        .note_creation(&ann.fingerprint, Some("192.0.2.7"), 1_700_000_002)
        .expect("noted");
    records
        .note_creation(&bob.fingerprint, None, 1_700_000_003)
        .expect("noted");
    let offer = Offer {
        token_hash: "abc123",
        code: "K7QXM2PA",
        address: "192.0.2.7",
        agent: "Firefox",
        at: 1_700_000_004,
    };
    assert!(records.offer_link(&offer).expect("offered"));
    let linked = records.prove_link("K7QXM2PA", &ann.fingerprint, "ann", 1_700_000_005);
    assert_eq!(linked.expect("proved"), Proof::Linked);
}

/// Every read of the records, as one comparable text.
fn answers(records: &mut dyn Records) -> String {
    let players = records.players().expect("players");
    let mut text = format!("{players:?}\n");
    text += &format!("{:?}\n", records.unfinished().expect("unfinished"));
    for game in records.unfinished_games().expect("unfinished games") {
        text += &format!("{game:?}\n{:?}\n", records.moves(game.id).expect("moves"));
    }
    text += &format!("{:?}\n", records.finished_games().expect("finished"));
    text += &format!(
        "{:?}\n",
        records.leaderboard("english", 10).expect("leaderboard")
    );
    for (_, fingerprint) in &players {
        text += &format!("{:?}\n", records.games_of(fingerprint).expect("games"));
        text += &format!(
            "{:?}\n",
            records.rating(fingerprint, "english").expect("rating")
        );
        text += &format!("{:?}\n", records.blocks_of(fingerprint).expect("blocks"));
    }
    text += &format!("{:?}\n", records.reports(10).expect("reports"));
    text += &format!("{:?}\n", records.bans().expect("bans"));
    for (_, fingerprint) in &players {
        text += &format!("{:?}\n", records.links_of(fingerprint).expect("links"));
        text += &format!(
            "{:?}\n",
            records
                .creations_since(fingerprint, Some("192.0.2.7"), 0)
                .expect("creations")
        );
    }
    text += &format!(
        "{:?}\n",
        records
            .linked_player("abc123", 1_700_000_006)
            .expect("linked")
    );
    text
}

fn migrate(from: &Path, to: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_crowned"))
        .args(["serve", "migrate-records"])
        .arg(from)
        .arg(to)
        .output()
        .expect("runs")
}

#[test]
fn sqlite_records_migrated_to_postgres_answer_alike() {
    let server = LocalPostgres::shared().unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
    let dir = std::env::temp_dir().join(format!("crowned-migrate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let file = dir.join("records.sqlite");
    write_records(&file);
    let url = server.fresh_database("migrate").expect("a database");
    // Ann's folder beside the records: her saved games and settings, as the server keeps them; Bob has none.
    let ann_folder = dir.join("players").join(player("ann").folder_name());
    std::fs::create_dir_all(ann_folder.join("games")).expect("a folder");
    let saved = "[Event \"casual\"]\n1. 11-15 23-19 *\n";
    std::fs::write(ann_folder.join("games").join("first.pdn"), saved).expect("written");
    std::fs::write(ann_folder.join("settings.toml"), "theme = \"mono\"\n").expect("written");

    let out = migrate(&file, &url);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("copied 3 players, 4 games, 5 moves, 1 clock notes and 2 ratings"),
        "{said}"
    );

    assert!(
        said.contains("copied the folders of 1 players (2 files")
            && said.contains("the database holds 2 files of theirs"),
        "{said}"
    );
    let mut db = postgres::Client::connect(&url, postgres::NoTls).expect("connects");
    let kept: Vec<(String, Vec<u8>)> = db
        .query(
            "SELECT path, contents FROM player_files WHERE owner = $1 ORDER BY path",
            &[&"SHA256:ann"],
        )
        .expect("read")
        .into_iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
    assert_eq!(
        kept,
        [
            ("games/first.pdn".to_string(), saved.as_bytes().to_vec()),
            ("settings.toml".to_string(), b"theme = \"mono\"\n".to_vec()),
        ]
    );

    let mut sqlite = SqliteRecords::open(&file).expect("opens");
    let mut postgres = PostgresRecords::connect(&url.parse().expect("a URL")).expect("connects");
    assert_eq!(answers(&mut postgres), answers(&mut sqlite));
    let told = postgres
        .take_news(&player("ann").fingerprint)
        .expect("news");
    assert_eq!(told, ["you lost on time"]);
    // New games are numbered after those copied.
    let (ann, bob) = (player("ann"), player("bob"));
    let next = postgres
        .start_game(&NewGame {
            variant: "english",
            black: &ann.fingerprint,
            white: &bob.fingerprint,
            rated: false,
            clock: "",
            code: &"EF56".into(),
            definition: None,
        })
        .expect("started");
    assert_eq!(next.get(), 5);

    // Copied again: refused, the records there left as they are.
    let again = migrate(&file, &url);
    let why = String::from_utf8_lossy(&again.stderr);
    assert!(!again.status.success());
    assert!(
        why.contains("already has records (3 players, 5 games)"),
        "{why}"
    );
    // A file that is not there is not made.
    let missing = migrate(&dir.join("none.sqlite"), &url);
    assert!(!missing.status.success());
    assert!(!dir.join("none.sqlite").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A server that ran alone may have let a code be taken again while an abandoned game kept it: the nodes' records
/// hold one game in progress per code, so the newest keeps it and the older loses it (it stays in progress).
#[test]
fn games_in_progress_under_one_code_are_migrated_with_the_newest_keeping_it() {
    let server = LocalPostgres::shared().unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
    let dir = std::env::temp_dir().join(format!("crowned-migrate-codes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let file = dir.join("records.sqlite");
    let mut records = SqliteRecords::open(&file).expect("created");
    let (ann, bob) = (player("ann"), player("bob"));
    for someone in [&ann, &bob] {
        records.seen(someone).expect("seen");
    }
    for _ in 0..2 {
        records
            .start_game(&NewGame {
                variant: "english",
                black: &ann.fingerprint,
                white: &bob.fingerprint,
                rated: false,
                clock: "",
                code: &"K7QX".into(),
                definition: None,
            })
            .expect("started");
    }
    drop(records);
    let url = server.fresh_database("migrate_codes").expect("a database");
    let out = migrate(&file, &url);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut postgres = PostgresRecords::connect(&url.parse().expect("a URL")).expect("connects");
    let codes: Vec<Option<String>> = postgres
        .unfinished_games()
        .expect("read")
        .into_iter()
        .map(|game| game.code.map(|c| c.to_string()))
        .collect();
    assert_eq!(codes, vec![None, Some("K7QX".to_string())]);
    let _ = std::fs::remove_dir_all(&dir);
}
