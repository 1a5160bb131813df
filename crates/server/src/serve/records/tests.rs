//! The records: games with their moves and clocks, ratings, the schema's versions.
//!
//! Each test of what every backend does runs twice, on SQLite in memory and on a fresh database of a PostgreSQL
//! server of the test program's own ([`LocalPostgres::shared`]): the two must answer alike.

use super::schema::SQLITE_MIGRATIONS as MIGRATIONS;
use super::*;
use crate::local_postgres::LocalPostgres;
use crate::serve::identity::Identity;

/// Records on a new database of the test program's PostgreSQL server. A test that needs it fails, saying what
/// is missing, when the server cannot be started: it is never skipped.
pub(super) fn fresh_postgres(test: &str) -> PostgresRecords {
    let server = LocalPostgres::shared().unwrap_or_else(|e| panic!("PostgreSQL is needed: {e}"));
    let url = server
        .fresh_database(test)
        .unwrap_or_else(|e| panic!("a database: {e}"));
    PostgresRecords::connect(&url.parse().expect("a URL")).unwrap_or_else(|e| panic!("opens: {e}"))
}

/// Runs each test named, a function of `&mut dyn Records`, on both backends.
macro_rules! on_both {
    ($($test:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[test]
                fn $test() {
                    super::$test(&mut super::SqliteRecords::in_memory().expect("opens"));
                }
            )*
        }
        mod on_postgres {
            $(
                #[test]
                fn $test() {
                    super::$test(&mut super::fresh_postgres(stringify!($test)));
                }
            )*
        }
    };
}

on_both!(
    a_rated_game_is_kept_with_its_moves_and_moves_both_ratings,
    clocks_noted_after_the_last_move_are_what_a_restart_goes_on_from,
    a_defined_variant_s_game_keeps_its_definition_and_resumes_from_it,
    players_and_finished_games_are_listed_in_order,
    a_batch_goes_on_past_a_write_that_fails,
    the_same_move_written_twice_is_kept_once,
    a_player_s_unfinished_games_and_a_table_s_are_read_alone,
    a_game_called_off_ends_without_touching_the_ratings,
    blocks_reports_and_bans_are_kept_and_read_back,
    news_is_told_once_in_order_and_bounded,
    events_created_are_counted_by_key_and_address_over_a_day,
    a_browser_is_linked_once_by_a_fresh_code_and_unlinked_by_its_player,
);

fn player(name: &str) -> Identity {
    Identity {
        fingerprint: format!("SHA256:{name}").into(),
        name: name.to_string(),
    }
}

fn a_rated_game_is_kept_with_its_moves_and_moves_both_ratings(records: &mut dyn Records) {
    let (ann, bob) = (player("ann"), player("bob"));
    records.seen(&ann).expect("seen");
    records.seen(&bob).expect("seen");
    assert_eq!(records.players().expect("listed").len(), 2);
    let game = records
        .start_game(&NewGame {
            variant: "english",
            black: &ann.fingerprint,
            white: &bob.fingerprint,
            rated: true,
            clock: "5+3",
            code: &"K7QX".into(),
            definition: None,
        })
        .expect("started");
    for (ply, text) in ["11-15", "23-19", "8-11"].iter().enumerate() {
        let clocks = [300_000 - ply as u64, 299_000 - ply as u64];
        records
            .add_move(game, ply, text, Some(clocks))
            .expect("a move");
    }
    // A move written twice is refused: the owner of a game writes each ply once.
    assert!(records.add_move(game, 1, "22-18", None).is_err());
    records.take_back(game, 2).expect("taken back");
    assert_eq!(records.moves(game).expect("moves"), ["11-15", "23-19"]);
    assert_eq!(records.unfinished().expect("listed"), [game]);
    let unfinished = records.unfinished_games().expect("listed");
    assert_eq!(unfinished.len(), 1);
    let resumed = &unfinished[0];
    assert_eq!(resumed.black, (ann.fingerprint.clone(), "ann".to_string()));
    assert_eq!(resumed.code, Some("K7QX".into()));
    assert_eq!(resumed.moves, ["11-15", "23-19"]);
    assert_eq!(resumed.clocks, Some([299_999, 298_999]));
    // Many changes as one: kept together, or none of them when one fails.
    records
        .all_or_nothing(&mut |records| records.seen(&player("cy")))
        .expect("kept");
    assert_eq!(records.players().expect("listed").len(), 3);
    let failed = records.all_or_nothing(&mut |records| {
        records.seen(&player("dan"))?;
        // Ply 0 is written already: refused, and Dan goes with it.
        records.add_move(game, 0, "9-13", None)
    });
    assert!(failed.is_err());
    assert_eq!(records.players().expect("listed").len(), 3);
    let won = FinishedGame {
        result: "1-0",
        pdn: "[Result \"1-0\"]\n1. 11-15 23-19 1-0\n",
        black_score: 1.0,
    };
    records.record_result(game, &won).expect("finished");
    assert!(records.unfinished().expect("listed").is_empty());
    let (ann_rating, ann_games) = records.rating(&ann.fingerprint, "english").expect("rated");
    let (bob_rating, _) = records.rating(&bob.fingerprint, "english").expect("rated");
    assert_eq!(ann_games, 1);
    assert!(ann_rating.rating > 1500.0 && bob_rating.rating < 1500.0);
    let board = records.leaderboard("english", 10).expect("a leaderboard");
    assert_eq!(
        board.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["ann", "bob"]
    );
    assert_eq!(records.games_of(&bob.fingerprint).expect("games").len(), 1);
    // A game ends once.
    assert!(matches!(
        records.record_result(
            game,
            &FinishedGame {
                result: "0-1",
                pdn: "",
                black_score: 0.0
            }
        ),
        Err(RecordsError::NoGame(_))
    ));
}

#[test]
fn the_file_survives_reopening_and_a_newer_schema_is_refused() {
    let dir = std::env::temp_dir().join(format!("crowned-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("records.sqlite");
    {
        let mut records = SqliteRecords::open(&path).expect("created");
        records.seen(&player("cy")).expect("seen");
        let mode: String = records
            .db
            .pragma_query_value(None, "journal_mode", |row| row.get(0))
            .expect("a mode");
        assert_eq!(mode.to_lowercase(), "wal");
    }
    let records = SqliteRecords::open(&path).expect("reopened");
    assert_eq!(
        records.version().expect("a version"),
        MIGRATIONS.len() as i64
    );
    let name: String = records
        .db
        .query_row("SELECT name FROM players", [], |row| row.get(0))
        .expect("kept");
    assert_eq!(name, "cy");
    records
        .db
        .pragma_update(None, "user_version", 99)
        .expect("set");
    drop(records);
    assert!(matches!(
        SqliteRecords::open(&path),
        Err(RecordsError::TooNew { found: 99, .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

fn clocks_noted_after_the_last_move_are_what_a_restart_goes_on_from(records: &mut dyn Records) {
    let (ann, bob) = (player("ann"), player("bob"));
    records.seen(&ann).expect("seen");
    records.seen(&bob).expect("seen");
    let game = records
        .start_game(&NewGame {
            variant: "english",
            black: &ann.fingerprint,
            white: &bob.fingerprint,
            rated: false,
            clock: "5+3",
            code: &"K7QX".into(),
            definition: None,
        })
        .expect("started");
    let clocks = |records: &mut dyn Records| records.unfinished_games().expect("listed")[0].clocks;
    // Before any move and any note: no clocks to go on from (they start full).
    assert_eq!(clocks(records), None);
    records
        .note_clocks(game, 0, [290_000, 300_000])
        .expect("noted");
    assert_eq!(clocks(records), Some([290_000, 300_000]));
    records
        .add_move(game, 0, "11-15", Some([293_000, 300_000]))
        .expect("a move");
    // A note from before the last move is left aside: the move's clocks are later.
    assert_eq!(clocks(records), Some([293_000, 300_000]));
    records
        .note_clocks(game, 1, [293_000, 212_000])
        .expect("noted");
    assert_eq!(clocks(records), Some([293_000, 212_000]));
    // Taken back: the note was of a move no longer played.
    records.take_back(game, 0).expect("taken back");
    assert_eq!(clocks(records), None);
}

fn a_defined_variant_s_game_keeps_its_definition_and_resumes_from_it(records: &mut dyn Records) {
    let (ann, bob) = (player("ann"), player("bob"));
    records.seen(&ann).expect("seen");
    records.seen(&bob).expect("seen");
    let text = include_str!("../../../../../variants/holes.toml");
    let game = records
        .start_game(&NewGame {
            variant: "English draughts with holes",
            black: &ann.fingerprint,
            white: &bob.fingerprint,
            rated: true,
            clock: "",
            code: &"K7QX".into(),
            definition: Some(text),
        })
        .expect("started");
    records.add_move(game, 0, "e5-f4", None).expect("a move");
    let unfinished = records.unfinished_games().expect("listed");
    assert_eq!(unfinished[0].definition.as_deref(), Some(text));
    // Resumed from the definition recorded, which no server offer is needed for.
    let (config, resumed) = crate::serve::table::resumed_from(
        unfinished[0].clone(),
        std::time::Duration::from_secs(60),
    )
    .expect("resumed");
    assert_eq!(
        config.game_type.variant.name(),
        "English draughts with holes"
    );
    assert_eq!(resumed.game.len(), 1);
    // A definition that no longer reads is the game's problem alone, told.
    let mut broken = unfinished[0].clone();
    broken.definition = Some("name = 1".into());
    let why = crate::serve::table::resumed_from(broken, std::time::Duration::from_secs(60))
        .expect_err("not resumed");
    assert!(why.to_string().contains("definition"), "{why}");
}

fn players_and_finished_games_are_listed_in_order(records: &mut dyn Records) {
    let (ann, bob, cy) = (player("ann"), player("bob"), player("cy"));
    for someone in [&ann, &bob, &cy] {
        records.seen(someone).expect("seen");
    }
    // Seen again under another name: the latest name is kept, the first sighting's place too.
    records
        .seen(&Identity {
            fingerprint: ann.fingerprint.clone(),
            name: "annie".into(),
        })
        .expect("seen");
    let players = records.players().expect("listed");
    let mut names: Vec<&str> = players.iter().map(|(name, _)| name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["annie", "bob", "cy"]);
    let mut finished = Vec::new();
    for (black, white, result, score) in [
        (&ann, &bob, "1-0", 1.0),
        (&bob, &cy, "1/2-1/2", 0.5),
        (&cy, &cy, "0-1", 0.0),
    ] {
        let game = records
            .start_game(&NewGame {
                variant: "russian",
                black: &black.fingerprint,
                white: &white.fingerprint,
                rated: true,
                clock: "",
                code: &"AB12".into(),
                definition: None,
            })
            .expect("started");
        let pdn = format!("[Result \"{result}\"]\n{result}\n");
        records
            .record_result(
                game,
                &FinishedGame {
                    result,
                    pdn: &pdn,
                    black_score: score,
                },
            )
            .expect("finished");
        finished.push((result.to_string(), pdn));
    }
    assert_eq!(records.finished_games().expect("listed"), finished);
    assert_eq!(records.games_of(&bob.fingerprint).expect("games").len(), 2);
    assert_eq!(records.games_of(&cy.fingerprint).expect("games").len(), 2);
    // A game against oneself changes no rating.
    let (_, cy_games) = records.rating(&cy.fingerprint, "russian").expect("rated");
    assert_eq!(cy_games, 1);
    let board = records.leaderboard("russian", 2).expect("a leaderboard");
    assert_eq!(board.len(), 2);
    assert_eq!(board[0].name, "annie");
    assert!(board[0].rating.rating >= board[1].rating.rating);
    assert!(
        records
            .leaderboard("english", 10)
            .expect("empty")
            .is_empty()
    );
    assert!(matches!(
        records.add_move(GameId::new(999), 0, "11-15", None),
        Err(e) if !e.is_storage()
    ));
    assert!(matches!(
        records.record_result(
            GameId::new(999),
            &FinishedGame {
                result: "1-0",
                pdn: "",
                black_score: 1.0
            }
        ),
        Err(RecordsError::NoGame(_))
    ));
}

fn a_batch_goes_on_past_a_write_that_fails(records: &mut dyn Records) {
    let (ann, bob) = (player("ann"), player("bob"));
    records.seen(&ann).expect("seen");
    let game = records
        .start_game(&NewGame {
            variant: "english",
            black: &ann.fingerprint,
            white: &ann.fingerprint,
            rated: false,
            clock: "",
            code: &"AB12".into(),
            definition: None,
        })
        .expect("started");
    records.add_move(game, 0, "11-15", None).expect("a move");
    // As the recorder does: a write that can never be made is let go, and the batch's other writes are kept.
    records
        .all_or_nothing(&mut |records| {
            assert!(records.add_move(game, 0, "9-13", None).is_err());
            records.seen(&bob)?;
            records.add_move(game, 1, "22-18", None)
        })
        .expect("kept");
    assert_eq!(records.players().expect("listed").len(), 2);
    assert_eq!(records.moves(game).expect("moves"), ["11-15", "22-18"]);
}

fn the_same_move_written_twice_is_kept_once(records: &mut dyn Records) {
    let ann = player("ann");
    records.seen(&ann).expect("seen");
    let game = records
        .start_game(&NewGame {
            variant: "english",
            black: &ann.fingerprint,
            white: &ann.fingerprint,
            rated: false,
            clock: "",
            code: &"AB12".into(),
            definition: None,
        })
        .expect("started");
    // A batch tried again after its answer was lost brings its moves again.
    for _ in 0..2 {
        records
            .all_or_nothing(&mut |records| {
                records.add_move(game, 0, "11-15", Some([1000, 1000]))?;
                records.add_move(game, 1, "23-19", Some([900, 1000]))
            })
            .expect("kept");
    }
    assert_eq!(records.moves(game).expect("moves"), ["11-15", "23-19"]);
    // Another move at a ply written is refused, and changes nothing.
    assert!(matches!(
        records.add_move(game, 1, "22-18", None),
        Err(RecordsError::PlyTaken { ply: 1, .. })
    ));
    assert_eq!(records.moves(game).expect("moves"), ["11-15", "23-19"]);
}

fn a_player_s_unfinished_games_and_a_table_s_are_read_alone(records: &mut dyn Records) {
    let (ann, bob, cy) = (player("ann"), player("bob"), player("cy"));
    for someone in [&ann, &bob, &cy] {
        records.seen(someone).expect("seen");
    }
    let mut start = |black: &Identity, white: &Identity, code: &str| {
        records
            .start_game(&NewGame {
                variant: "english",
                black: &black.fingerprint,
                white: &white.fingerprint,
                rated: false,
                clock: "",
                code: &code.into(),
                definition: None,
            })
            .expect("started")
    };
    let ann_bob = start(&ann, &bob, "AB12");
    let bob_cy = start(&bob, &cy, "BC34");
    let cy_ann = start(&cy, &ann, "CA56");
    records
        .record_result(
            cy_ann,
            &FinishedGame {
                result: "1-0",
                pdn: "1-0",
                black_score: 1.0,
            },
        )
        .expect("ended");
    records.add_move(bob_cy, 0, "11-15", None).expect("a move");
    let ids = |games: Vec<Unfinished>| games.into_iter().map(|g| g.id).collect::<Vec<_>>();
    let of = |records: &mut dyn Records, who: &Identity| {
        ids(records.unfinished_games_of(&who.fingerprint).expect("read"))
    };
    assert_eq!(of(records, &ann), [ann_bob]);
    assert_eq!(of(records, &bob), [ann_bob, bob_cy]);
    assert_eq!(of(records, &cy), [bob_cy]);
    let found = records
        .unfinished_game(&"BC34".into())
        .expect("read")
        .expect("in progress");
    assert_eq!((found.id, found.moves), (bob_cy, vec!["11-15".to_string()]));
    assert_eq!(found.black.0, bob.fingerprint);
    // An ended game's table, and a table never used, have none.
    assert!(
        records
            .unfinished_game(&"CA56".into())
            .expect("read")
            .is_none()
    );
    assert!(
        records
            .unfinished_game(&"ZZ99".into())
            .expect("read")
            .is_none()
    );
    // The codes of the games in progress, oldest first, without the ended one.
    let codes: Vec<TableCode> = vec!["AB12".into(), "BC34".into()];
    assert_eq!(records.unfinished_codes().expect("read"), codes);
}

fn a_game_called_off_ends_without_touching_the_ratings(records: &mut dyn Records) {
    let (ann, bob) = (player("ann"), player("bob"));
    records.seen(&ann).expect("seen");
    records.seen(&bob).expect("seen");
    let game = records
        .start_game(&NewGame {
            variant: "english",
            black: &ann.fingerprint,
            white: &bob.fingerprint,
            rated: true,
            clock: "1+0",
            code: &"AB12".into(),
            definition: None,
        })
        .expect("started");
    records.add_move(game, 0, "11-15", None).expect("a move");
    let aborted = FinishedGame {
        result: "*",
        pdn: "[Result \"*\"]\n1. 11-15 *\n",
        black_score: 0.5,
    };
    assert!(!aborted.counts());
    records.record_result(game, &aborted).expect("ended");
    // Over, so never resumed; and neither player's rating nor count of games moved.
    assert!(records.unfinished().expect("listed").is_empty());
    for who in [&ann, &bob] {
        let (rating, games) = records.rating(&who.fingerprint, "english").expect("read");
        assert_eq!(games, 0, "{}", who.name);
        assert!((rating.rating - 1500.0).abs() < f64::EPSILON, "{rating:?}");
    }
}

fn blocks_reports_and_bans_are_kept_and_read_back(records: &mut dyn Records) {
    use super::conduct::{Ban, BanTarget, PlayerReport};
    let (ann, bob, cid) = (player("ann"), player("bob"), player("cid"));
    let (a, b, c) = (&ann.fingerprint, &bob.fingerprint, &cid.fingerprint);
    // A block is one way in the list, both ways for seating; blocking twice changes nothing.
    assert!(records.set_block(a, b, "bob", true).expect("blocks"));
    assert!(!records.set_block(a, b, "bob", true).expect("blocks again"));
    assert!(records.blocked_between(a, b).expect("reads"));
    assert!(records.blocked_between(b, a).expect("reads"));
    assert!(!records.blocked_between(a, c).expect("reads"));
    let listed = records.blocks_of(a).expect("reads");
    assert_eq!(
        listed.iter().map(|x| x.name.as_str()).collect::<Vec<_>>(),
        ["bob"]
    );
    assert!(records.blocks_of(b).expect("reads").is_empty());
    // Among a tournament's players: the blocks between two of them, whoever made them.
    let among = records
        .blocks_among(&[b.clone(), c.clone(), a.clone()])
        .expect("reads");
    assert_eq!(among, [(a.clone(), b.clone())]);
    assert!(
        records
            .blocks_among(&[a.clone(), c.clone()])
            .expect("reads")
            .is_empty()
    );
    assert!(records.set_block(a, b, "bob", false).expect("unblocks"));
    assert!(!records.blocked_between(a, b).expect("reads"));
    // Reports, newest first, as many as asked.
    for (at, text) in [(100, "rude in chat"), (200, "stalls when losing")] {
        let report = PlayerReport {
            at,
            reporter: (a.clone(), "ann".into()),
            reported: (b.clone(), "bob".into()),
            game: "K7QX".into(),
            text: text.into(),
        };
        records.add_report(&report).expect("reported");
    }
    let reports = records.reports(10).expect("reads");
    assert_eq!(
        reports.iter().map(|r| r.text.as_str()).collect::<Vec<_>>(),
        ["stalls when losing", "rude in chat"]
    );
    assert_eq!(reports[0].reported, (b.clone(), "bob".to_string()));
    assert_eq!(records.reports(1).expect("reads").len(), 1);
    // Bans: by key and by address, the key's found first; a second ban of one target takes its reason.
    let address: std::net::IpAddr = "192.0.2.7".parse().expect("an address");
    assert_eq!(records.ban_on(Some(b), address).expect("reads"), None);
    for (target, reason) in [
        (BanTarget::Address(address), "spam"),
        (BanTarget::Key(b.clone()), "abuse"),
        (BanTarget::Key(b.clone()), "abuse in chat"),
    ] {
        let ban = Ban {
            target,
            reason: reason.into(),
            since: 1000,
        };
        records.ban(&ban).expect("bans");
    }
    let found = records.ban_on(Some(b), address).expect("reads");
    assert_eq!(found.map(|b| b.reason), Some("abuse in chat".to_string()));
    let found = records.ban_on(Some(c), address).expect("reads");
    assert_eq!(found.map(|b| b.reason), Some("spam".to_string()));
    let elsewhere: std::net::IpAddr = "198.51.100.1".parse().expect("an address");
    assert_eq!(records.ban_on(Some(c), elsewhere).expect("reads"), None);
    assert_eq!(records.bans().expect("reads").len(), 2);
    assert!(records.unban(&BanTarget::Address(address)).expect("lifts"));
    assert!(!records.unban(&BanTarget::Address(address)).expect("lifts"));
    assert_eq!(records.ban_on(Some(c), address).expect("reads"), None);
}

fn news_is_told_once_in_order_and_bounded(records: &mut dyn Records) {
    use super::news::MAX_NEWS;
    let (ann, bob) = (player("ann"), player("bob"));
    assert!(
        records
            .take_news(&ann.fingerprint)
            .expect("reads")
            .is_empty()
    );
    records.add_news(&ann.fingerprint, "first").expect("kept");
    records.add_news(&ann.fingerprint, "second").expect("kept");
    records.add_news(&bob.fingerprint, "for bob").expect("kept");
    assert_eq!(
        records.take_news(&ann.fingerprint).expect("reads"),
        ["first", "second"]
    );
    assert!(
        records
            .take_news(&ann.fingerprint)
            .expect("reads")
            .is_empty(),
        "told once"
    );
    assert_eq!(
        records.take_news(&bob.fingerprint).expect("reads"),
        ["for bob"]
    );
    // However long a player stays away, the newest are kept.
    for n in 0..MAX_NEWS + 5 {
        records
            .add_news(&ann.fingerprint, &format!("game {n}"))
            .expect("kept");
    }
    let told = records.take_news(&ann.fingerprint).expect("reads");
    assert_eq!(told.len(), MAX_NEWS);
    assert_eq!(told.first().map(String::as_str), Some("game 5"));
    assert_eq!(told.last().map(String::as_str), Some("game 24"));
}

fn events_created_are_counted_by_key_and_address_over_a_day(records: &mut dyn Records) {
    let (ann, bob) = (player("ann"), player("bob"));
    let day = 24 * 3600;
    let now = 10 * day;
    assert_eq!(
        records
            .creations_since(&ann.fingerprint, Some("192.0.2.7"), now - day)
            .expect("reads"),
        (0, 0)
    );
    records
        .note_creation(&ann.fingerprint, Some("192.0.2.7"), now - 2 * 3600)
        .expect("kept");
    records
        .note_creation(&bob.fingerprint, Some("192.0.2.7"), now - 3600)
        .expect("kept");
    records
        .note_creation(&ann.fingerprint, None, now)
        .expect("kept");
    // Older than a day: not counted.
    records
        .note_creation(&ann.fingerprint, Some("192.0.2.7"), now - day - 1)
        .expect("kept");
    assert_eq!(
        records
            .creations_since(&ann.fingerprint, Some("192.0.2.7"), now - day)
            .expect("reads"),
        (2, 2)
    );
    assert_eq!(
        records
            .creations_since(&bob.fingerprint, None, now - day)
            .expect("reads"),
        (1, 0)
    );
    assert_eq!(
        records
            .creations_since(&bob.fingerprint, Some("198.51.100.1"), now - day)
            .expect("reads"),
        (1, 0)
    );
}

fn a_browser_is_linked_once_by_a_fresh_code_and_unlinked_by_its_player(records: &mut dyn Records) {
    use super::links::{CODE_LIFETIME, LINKS_PER_PLAYER, OFFERS_PER_ADDRESS, Offer, Proof};
    let (ann, bob) = (player("ann"), player("bob"));
    let now = 1_000_000;
    fn offer<'a>(token_hash: &'a str, code: &'a str, address: &'a str, at: i64) -> Offer<'a> {
        Offer {
            token_hash,
            code,
            address,
            agent: "Firefox",
            at,
        }
    }
    assert!(
        records
            .offer_link(&offer("h1", "AAAAAAAA", "192.0.2.7", now))
            .expect("kept")
    );
    assert_eq!(
        records.linked_player("h1", now).expect("reads"),
        None,
        "not proved yet"
    );
    // A wrong code links nothing; the right one links the browser once, to the first who proves it.
    assert_eq!(
        records
            .prove_link("BBBBBBBB", &ann.fingerprint, "ann", now)
            .expect("reads"),
        Proof::Unknown
    );
    assert_eq!(
        records
            .prove_link("AAAAAAAA", &ann.fingerprint, "ann", now + 10)
            .expect("reads"),
        Proof::Linked
    );
    assert_eq!(
        records
            .prove_link("AAAAAAAA", &bob.fingerprint, "bob", now + 11)
            .expect("reads"),
        Proof::Unknown
    );
    assert_eq!(
        records.linked_player("h1", now + 20).expect("reads"),
        Some((ann.fingerprint.clone(), "ann".to_string()))
    );
    // A code out of time is no code.
    assert!(
        records
            .offer_link(&offer("h2", "CCCCCCCC", "192.0.2.7", now))
            .expect("kept")
    );
    assert_eq!(
        records
            .prove_link("CCCCCCCC", &ann.fingerprint, "ann", now + CODE_LIFETIME + 1)
            .expect("reads"),
        Proof::Unknown
    );
    // One address may have only so many codes waiting; old ones are let go as new ones come.
    let codes = ["D1", "D2", "D3", "D4", "D5", "D6", "D7"];
    let mut kept = 0;
    for (i, code) in codes.iter().enumerate() {
        let hash = format!("w{i}");
        if records
            .offer_link(&offer(&hash, code, "198.51.100.1", now))
            .expect("reads")
        {
            kept += 1;
        }
    }
    assert_eq!(kept, OFFERS_PER_ADDRESS as usize);
    assert!(
        records
            .offer_link(&offer(
                "late",
                "E1",
                "198.51.100.1",
                now + CODE_LIFETIME + 1
            ))
            .expect("reads"),
        "the old codes ran out"
    );
    // The player lists and revokes their links; nobody else can.
    let links = records.links_of(&ann.fingerprint).expect("reads");
    assert_eq!(links.len(), 1);
    assert_eq!((links[0].number, links[0].agent.as_str()), (1, "Firefox"));
    assert_eq!(links[0].used_at, Some(now + 20));
    assert!(
        !records
            .revoke_link(&bob.fingerprint, &links[0].token_hash)
            .expect("reads")
    );
    assert!(
        records
            .revoke_link(&ann.fingerprint, &links[0].token_hash)
            .expect("reads")
    );
    assert_eq!(records.linked_player("h1", now + 30).expect("reads"), None);
    // However many browsers a player links, the newest are kept.
    for i in 0..LINKS_PER_PLAYER + 3 {
        let (hash, code) = (format!("many{i}"), format!("M{i:07}"));
        let at = now + 100 + i as i64;
        assert!(
            records
                .offer_link(&offer(&hash, &code, "203.0.113.9", at))
                .expect("reads")
        );
        assert_eq!(
            records
                .prove_link(&code, &bob.fingerprint, "bob", at)
                .expect("reads"),
            Proof::Linked
        );
    }
    let links = records.links_of(&bob.fingerprint).expect("reads");
    assert_eq!(links.len(), LINKS_PER_PLAYER);
    assert_eq!(
        records.linked_player("many0", now + 200).expect("reads"),
        None,
        "the oldest went"
    );
    assert!(
        records
            .linked_player("many22", now + 200)
            .expect("reads")
            .is_some()
    );
}

#[test]
fn a_statement_written_once_numbers_its_parameters_for_sqlite() {
    assert_eq!(
        for_sqlite("UPDATE t SET a = $2 WHERE b = $1 AND c = $10 AND d = '$'"),
        "UPDATE t SET a = ?2 WHERE b = ?1 AND c = ?10 AND d = '$'"
    );
    // Bound by number, not by the order of first use.
    let db = rusqlite::Connection::open_in_memory().expect("an in-memory database");
    let pair: (i64, i64) = db
        .query_row(
            &for_sqlite("SELECT $2, $1"),
            rusqlite::params![1, 2],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .expect("a row");
    assert_eq!(pair, (2, 1));
}
