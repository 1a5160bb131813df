//! The databases checked against the rules: every value agrees with its successors, an independent solver
//! (plain value iteration over positions placed square by square) agrees on every position of up to three
//! pieces, the search agrees on short wins, and builds resume.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use super::egdb_build::*;
use crowned_engine::Rng;
use crowned_engine::egdb::*;
use crowned_rules::{Color, English, Piece, Position, Role, Square};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crowned-egdb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The tables of up to four pieces, built once for all the tests here.
fn shared_four() -> Arc<Egdb> {
    static DB: OnceLock<Arc<Egdb>> = OnceLock::new();
    Arc::clone(DB.get_or_init(|| {
        let dir = scratch("four");
        build(&dir, 4, 2, &|_| {}, &mut |_| {}).expect("the build succeeds");
        Arc::new(Egdb::open(&dir).expect("the database opens"))
    }))
}

pub(super) fn four() -> &'static Egdb {
    static DB: OnceLock<Arc<Egdb>> = OnceLock::new();
    DB.get_or_init(shared_four)
}

/// Every position of `m`, as an English position with Black to move.
fn positions(m: Material) -> impl Iterator<Item = Position<English>> {
    let layout = Layout::new(m);
    (0..layout.size()).map(move |i| layout.squares(i).position())
}

/// The value `pos` should have, from its successors' values in the database.
fn from_successors(db: &Egdb, pos: &Position<English>) -> DbValue {
    match db.best_move(pos) {
        Some((_, value)) => value,
        None => DbValue::Loss(0),
    }
}

#[test]
fn every_value_agrees_with_its_successors() {
    let db = four();
    assert_eq!(db.pieces(), 4);
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for m in Material::all_up_to(4) {
        let layout = Layout::new(m);
        // Every position of the small tables; a sample of the four-piece ones (they are checked whole by the
        // ignored test below).
        let sample = if m.pieces() <= 3 { layout.size() } else { 2000 };
        for k in 0..sample {
            let i = if sample == layout.size() {
                k
            } else {
                rng.below(layout.size() as usize) as u64
            };
            let pos = layout.squares(i).position();
            let value = db.probe(&pos).expect("in the database");
            assert_eq!(value, from_successors(db, &pos), "{} #{i}: {pos}", m.name());
            checked += 1;
        }
    }
    assert!(checked > 190_000);
}

#[test]
#[ignore = "a few minutes in a debug build: every four-piece position"]
fn every_four_piece_value_agrees_with_its_successors() {
    let db = four();
    for m in Material::all_up_to(4) {
        for pos in positions(m) {
            assert_eq!(db.probe(&pos), Some(from_successors(db, &pos)), "{pos}");
        }
    }
}

/// Outcomes by plain value iteration: every position of up to `pieces` pieces placed square by square,
/// values improved until nothing changes. Shares nothing with the build but the move generator.
fn value_iteration(pieces: usize) -> HashMap<Position<English>, Wld> {
    let kinds = [
        Piece::new(Color::Black, Role::Man),
        Piece::new(Color::Black, Role::King),
        Piece::new(Color::White, Role::Man),
        Piece::new(Color::White, Role::King),
    ];
    let mut all: Vec<Position<English>> = Vec::new();
    fn place(
        from: u8,
        left: usize,
        pos: Position<English>,
        kinds: &[Piece; 4],
        all: &mut Vec<Position<English>>,
    ) {
        let black = pos.count(Color::Black, Role::Man) + pos.count(Color::Black, Role::King);
        let white = pos.count(Color::White, Role::Man) + pos.count(Color::White, Role::King);
        if black > 0 && white > 0 {
            all.push(pos);
            all.push(pos.with_side_to_move(Color::White));
        }
        if left == 0 {
            return;
        }
        for s in from..32 {
            for piece in kinds {
                let row = s / 4;
                let crowning = match piece.color {
                    Color::Black => row == 7,
                    Color::White => row == 0,
                };
                if piece.role == Role::Man && crowning {
                    continue;
                }
                let mut next = pos;
                next.set_piece(Square::from_index(s), Some(*piece));
                place(s + 1, left - 1, next, kinds, all);
            }
        }
    }
    place(0, pieces, Position::empty(Color::Black), &kinds, &mut all);
    // Each position's successors are found once, as indices into `all` (a successor with no piece of the side to
    // move is a loss for it and has no index): the passes below then only read values, where generating moves
    // again at every pass for every position not yet known (every draw, at every pass) was most of the time.
    let index: HashMap<Position<English>, usize> =
        all.iter().enumerate().map(|(i, pos)| (*pos, i)).collect();
    let successors: Vec<Vec<Option<usize>>> = all
        .iter()
        .map(|pos| {
            pos.legal_moves()
                .iter()
                .map(|m| {
                    let child = pos.play(m);
                    let gone = child.count(child.side_to_move(), Role::Man)
                        + child.count(child.side_to_move(), Role::King)
                        == 0;
                    if gone { None } else { Some(index[&child]) }
                })
                .collect()
        })
        .collect();
    let mut known: Vec<Option<Wld>> = vec![None; all.len()];
    loop {
        let mut changed = false;
        for (i, children) in successors.iter().enumerate() {
            if known[i].is_some() {
                continue;
            }
            let mut win = false;
            let mut all_lose = true;
            for child in children {
                match child.map_or(Some(Wld::Loss), |c| known[c]) {
                    Some(Wld::Loss) => win = true,
                    Some(Wld::Win) => {}
                    _ => all_lose = false,
                }
            }
            if win {
                known[i] = Some(Wld::Win);
                changed = true;
            } else if all_lose {
                known[i] = Some(Wld::Loss);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    all.into_iter()
        .zip(known)
        .map(|(pos, value)| (pos, value.unwrap_or(Wld::Draw)))
        .collect()
}

#[test]
fn an_independent_solver_agrees_on_every_position_of_three_pieces() {
    let db = four();
    let reference = value_iteration(3);
    // Both colours to move, both sides on the board: twice the normalised count.
    let normalised: u64 = Material::all_up_to(3)
        .iter()
        .map(|&m| Layout::new(m).size())
        .sum();
    assert_eq!(reference.len() as u64, 2 * normalised);
    let mut outcomes = [0; 3];
    for (pos, expected) in &reference {
        let value = db.probe(pos).expect("in the database");
        assert_eq!(value.outcome(), *expected, "{pos}");
        outcomes[*expected as usize] += 1;
    }
    assert!(outcomes.iter().all(|&n| n > 1000), "{outcomes:?}");
}

#[test]
fn the_search_never_contradicts_the_database() {
    // The search (without the database) proves wins and losses it sees to the end; each must be the
    // database's result, and a database draw is never proved either way.
    let db = four();
    let mut rng = Rng::new(11);
    let mut engine = crowned_engine::Engine::new();
    let materials: Vec<Material> = Material::all_up_to(4)
        .into_iter()
        .filter(|m| m.pieces() >= 3)
        .collect();
    let mut proved = 0;
    for _ in 0..300 {
        let m = materials[rng.below(materials.len())];
        let layout = Layout::new(m);
        let pos = layout
            .squares(rng.below(layout.size() as usize) as u64)
            .position();
        let value = db.probe(&pos).expect("in the database");
        engine.clear();
        let situation = crowned_engine::Situation::new(pos).into();
        let found = engine.think(
            &situation,
            crowned_engine::Level::Max,
            &crowned_engine::Limits::depth(13),
            1,
            &mut |_| {},
        );
        let proof = match found.score {
            crowned_engine::Score::Win(_) => Wld::Win,
            crowned_engine::Score::Loss(_) => Wld::Loss,
            _ => continue,
        };
        assert_eq!(
            value.outcome(),
            proof,
            "{pos}: {value:?}, search {:?}",
            found.score
        );
        proved += 1;
    }
    assert!(proved >= 30, "only {proved} proofs to compare");
}

#[test]
fn counts_match_positions_placed_by_hand() {
    // One man each: Black's on 28 squares, White's on 28 less the one Black may hold (24 of Black's squares
    // are White's too); one king and one man: 28 * 31.
    assert_eq!(
        positions_up_to(2),
        (4 * 28 + 24 * 27) + 2 * 28 * 31 + 32 * 31
    );
}

#[test]
fn an_interrupted_or_damaged_build_is_finished_and_matches() {
    let whole = scratch("whole");
    build(&whole, 3, 1, &|_| {}, &mut |_| {}).expect("built");
    let resumed = scratch("resumed");
    build(&resumed, 3, 2, &|_| {}, &mut |_| {}).expect("built");
    // One table lost, one damaged (as an interrupted or broken copy would leave them), a stray partial file.
    let lost = resumed.join("1m1k-0m1k.egdb");
    std::fs::remove_file(&lost).expect("removed");
    let damaged = resumed.join("2m0k-1m0k.egdb");
    let mut bytes = std::fs::read(&damaged).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x5A;
    bytes[60] ^= 0x5A;
    std::fs::write(&damaged, bytes).expect("written");
    std::fs::write(resumed.join("0m2k-1m0k.egdb.part"), b"partial").expect("written");
    let mut again = Vec::new();
    build(&resumed, 3, 2, &|_| {}, &mut |t| {
        again.push((t.material, t.resumed))
    })
    .expect("built again");
    assert!(
        again.iter().any(|(_, resumed)| *resumed),
        "tables on disk are kept"
    );
    assert!(again.contains(&(Material::from_name("1m1k-0m1k").expect("name"), false)));
    for m in Material::all_up_to(3) {
        let name = format!("{}.egdb", m.name());
        assert_eq!(
            std::fs::read(whole.join(&name)).expect("whole"),
            std::fs::read(resumed.join(&name)).expect("resumed"),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(whole);
    let _ = std::fs::remove_dir_all(resumed);
}

#[test]
fn a_database_is_only_as_deep_as_its_complete_piece_count() {
    let dir = scratch("partial");
    build(&dir, 3, 1, &|_| {}, &mut |_| {}).expect("built");
    assert_eq!(Egdb::open(&dir).expect("opens").pieces(), 3);
    std::fs::remove_file(dir.join("0m1k-2m0k.egdb")).expect("removed");
    assert_eq!(Egdb::open(&dir).expect("opens").pieces(), 2);
    std::fs::write(dir.join("0m1k-0m1k.egdb"), b"not a table").expect("written");
    assert!(matches!(Egdb::open(&dir), Err(EgdbError::Corrupt(..))));
    assert!(matches!(
        Egdb::open(&dir.join("nothing")),
        Err(EgdbError::Io { .. })
    ));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_won_ending_is_played_out_to_the_win() {
    let db = four();
    // Two kings against one (a long win: the lone king runs for the double corner).
    let start: Position<English> = crowned_rules::parse_fen("B:WK32:BK1,K5").expect("fen");
    assert!(matches!(db.probe(&start), Some(DbValue::Win(_))));
    let end = play_out(start, |pos, _| db.best_move(pos).expect("a move").0);
    assert_eq!(
        end.side_to_move(),
        Color::White,
        "White is left without a move"
    );
}

/// Plays `choose`'s moves (given the position and the ply) from `start` until the side to move has lost; at
/// most 200 plies.
fn play_out(
    start: Position<English>,
    mut choose: impl FnMut(&Position<English>, usize) -> crowned_rules::Move,
) -> Position<English> {
    let mut pos = start;
    let mut plies = 0;
    while !pos.is_lost() {
        pos = pos.play(&choose(&pos, plies));
        plies += 1;
        assert!(plies < 200, "no progress from {start}");
    }
    pos
}

#[test]
fn the_engine_plays_won_endings_from_the_database_and_sees_them_in_search() {
    use crowned_engine::{Engine, Level, Limits, Score, Situation};
    let mut engine = Engine::new();
    engine.set_egdb(Some(shared_four()));
    // Five pieces: not in the tables, but Black's forced capture leaves three kings against one.
    let start: Position<English> = crowned_rules::parse_fen("B:WK32,K23:BK1,K5,K19").expect("fen");
    let seen = engine.think(
        &Situation::new(start).into(),
        Level::Max,
        &Limits::depth(4),
        1,
        &mut |_| {},
    );
    assert_eq!(seen.score, Score::DatabaseWin);
    let end = play_out(start, |pos, plies| {
        let result = engine.think(
            &Situation::new(*pos).into(),
            Level::Max,
            &Limits::depth(6),
            1,
            &mut |_| {},
        );
        if pos.side_to_move() == Color::Black && plies > 0 {
            assert_eq!(result.score, Score::DatabaseWin, "{pos}");
            assert_eq!(result.depth, 0, "played from the tables, no search");
        }
        result.best.expect("a move")
    });
    assert_eq!(
        end.side_to_move(),
        Color::White,
        "White is left without a move"
    );
    // Without the database the same search sees only a large advantage.
    engine.set_egdb(None);
    let blind = engine.think(
        &Situation::new(start).into(),
        Level::Max,
        &Limits::depth(4),
        1,
        &mut |_| {},
    );
    assert!(
        matches!(blind.score, Score::Centi(c) if c > 200),
        "{:?}",
        blind.score
    );
}

#[test]
fn verify_finds_a_table_that_disagrees_with_its_moves() {
    let dir = scratch("tampered");
    build(&dir, 3, 2, &|_| {}, &mut |_| {}).expect("built");
    let db = Egdb::open(&dir).expect("opens");
    assert_eq!(db.verify(3000, 5, &|_| {}), Ok(3000));
    drop(db);
    // Every win of one table one ply longer than it is: a copy damaged in a way no checksum of the file sees.
    let m = Material::from_name("2m0k-1m0k").expect("name");
    let path = dir.join(file::file_name(m));
    let table = file::TableFile::open(&path).expect("opens");
    let stored = table.read_all().expect("reads");
    let codes: Vec<u16> = (0..stored.len())
        .map(|i| match stored.value(i) {
            DbValue::Win(d) => DbValue::Win(d + 1).code(),
            other => other.code(),
        })
        .collect();
    drop(table);
    file::write_table(&path, m, &file::Stored::new(codes, 100)).expect("written");
    let db = Egdb::open(&dir).expect("opens");
    let found = db.verify(3000, 5, &|_| {});
    assert!(found.is_err(), "{found:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_stopped_search_reads_no_more_than_one_block_from_the_tables() {
    // Reading a block may wait on the disk for longer than the nodes between two looks at the clock: a
    // search told to stop must not go on reading blocks until its next periodic look.
    use crowned_engine::{Engine, Level, Limits, Situation};
    use std::sync::atomic::AtomicBool;
    let dir = shared_four().dir().to_path_buf();
    // Six pieces with exchanges to come: the search reaches the four-piece tables everywhere.
    let start: Position<English> =
        crowned_rules::parse_fen("B:W21,22,K30:B9,K14,K15").expect("fen");
    let situation = Situation::new(start).into();
    let loads = |stop: bool, limits: &Limits| {
        // Each search with tables of its own, so that no block is in the cache yet, and none kept in memory
        // (their probes would not read the files at all).
        let db = Arc::new(
            Egdb::open(&dir)
                .expect("the database opens")
                .without_outcomes(),
        );
        let mut engine = Engine::new();
        engine.set_threads(1);
        engine.set_egdb(Some(Arc::clone(&db)));
        engine.set_stop_flag(Arc::new(AtomicBool::new(stop)));
        let result = engine.think(&situation, Level::Max, limits, 1, &mut |_| {});
        assert!(result.best.is_some(), "a move even when stopped at once");
        db.loads()
    };
    let running = loads(
        false,
        &Limits {
            nodes: Some(1023),
            ..Limits::default()
        },
    );
    assert!(
        running >= 20,
        "the same nodes read {running} blocks when not stopped"
    );
    assert!(loads(true, &Limits::default()) <= 1);
}

#[test]
fn the_outcomes_kept_in_memory_are_the_tables_results() {
    let dir = shared_four().dir().to_path_buf();
    let db = Egdb::open(&dir).expect("opens");
    assert_eq!(db.pieces_in_memory(), 4);
    assert_eq!(
        db.outcomes_bytes(),
        0,
        "nothing is made before it is asked for"
    );
    let expected: u64 = Material::all_up_to(4)
        .into_iter()
        .map(|m| Layout::new(m).size().div_ceil(4))
        .sum();
    assert_eq!(db.keep_outcomes(), expected);
    let on_disk = Egdb::open(&dir).expect("opens").without_outcomes();
    assert_eq!(on_disk.pieces_in_memory(), 0);
    let mut rng = Rng::new(11);
    let mut checked = 0;
    for m in Material::all_up_to(4) {
        let layout = Layout::new(m);
        let sample = if m.pieces() <= 3 { layout.size() } else { 3000 };
        for k in 0..sample {
            let index = if m.pieces() <= 3 {
                k
            } else {
                rng.next_u64() % layout.size()
            };
            let pos = layout.squares(index).position();
            if pos.must_capture() {
                continue;
            }
            let value = db.probe(&pos).map(DbValue::outcome);
            assert!(value.is_some(), "{pos}");
            assert_eq!(db.outcome_quiet(&pos), value, "{pos}");
            assert_eq!(on_disk.outcome_quiet(&pos), value, "{pos}");
            checked += 1;
        }
    }
    assert!(checked > 100_000, "{checked}");
    assert_eq!(on_disk.outcomes_bytes(), 0, "a database on disk keeps none");
    // Positions the tables do not hold are not answered from memory either.
    let five: Position<English> = crowned_rules::parse_fen("B:W21,22,K30:B9,K14").expect("fen");
    assert_eq!(db.outcome_quiet(&five), None);
}

#[test]
fn the_first_probe_of_a_search_starts_keeping_the_outcomes_in_the_background() {
    let dir = shared_four().dir().to_path_buf();
    let db = Egdb::open(&dir).expect("opens");
    let pos: Position<English> = crowned_rules::parse_fen("B:WK30:BK14,K15").expect("fen");
    assert_eq!(db.outcome_quiet(&pos), Some(Wld::Win));
    let expected: u64 = Material::all_up_to(4)
        .into_iter()
        .map(|m| Layout::new(m).size().div_ceil(4))
        .sum();
    let started = std::time::Instant::now();
    while db.outcomes_bytes() < expected && started.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(db.outcomes_bytes(), expected);
    assert_eq!(db.outcome_quiet(&pos), Some(Wld::Win));
}

#[test]
fn one_signature_is_built_with_only_the_tables_it_leads_into() {
    let target = Material::from_name("0m2k-0m1k").expect("name");
    let name = |m: Material| format!("{}.egdb", m.name());
    assert!(may_lead_to(
        target,
        Material::from_name("0m1k-0m2k").expect("name")
    ));
    assert!(may_lead_to(
        target,
        Material::from_name("0m1k-0m1k").expect("name")
    ));
    assert!(!may_lead_to(
        target,
        Material::from_name("1m0k-0m1k").expect("name")
    ));
    assert!(!may_lead_to(
        target,
        Material::from_name("0m3k-0m1k").expect("name")
    ));
    // Men may be crowned, pieces may be taken: a man and a king lead to two kings, to one, and to a man alone.
    let with_men = Material::from_name("1m1k-1m0k").expect("name");
    for reached in [
        "0m2k-1m0k",
        "1m0k-0m1k",
        "0m1k-0m1k",
        "1m0k-1m0k",
        "0m1k-1m1k",
    ] {
        assert!(
            may_lead_to(with_men, Material::from_name(reached).expect("name")),
            "{reached}"
        );
    }
    assert!(!may_lead_to(
        with_men,
        Material::from_name("2m0k-0m1k").expect("name")
    ));

    let one = scratch("one");
    let mut built = Vec::new();
    build_one(&one, target, 2, &|_| {}, &mut |t| built.push(t.material)).expect("built");
    let mut names: Vec<String> = built.iter().map(|m| m.name()).collect();
    names.sort();
    assert_eq!(names, ["0m1k-0m1k", "0m1k-0m2k", "0m2k-0m1k"]);
    let whole = scratch("one-whole");
    build(&whole, 3, 2, &|_| {}, &mut |_| {}).expect("built");
    for m in &built {
        assert_eq!(
            std::fs::read(one.join(name(*m))).expect("one"),
            std::fs::read(whole.join(name(*m))).expect("whole"),
            "{}",
            m.name()
        );
    }
    let _ = std::fs::remove_dir_all(one);
    let _ = std::fs::remove_dir_all(whole);
}
