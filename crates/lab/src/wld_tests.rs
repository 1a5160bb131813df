//! The win/draw/loss tables checked: on English draughts against its own databases (solved another way, with
//! distances), on international draughts against its moves and against known endgame theory, and as files.

use std::path::PathBuf;
use std::sync::OnceLock;

use super::wld_build::{build, positions_up_to};
use crowned_engine::Rng;
use crowned_engine::egdb::wld::{self, WldTables, shape_of};
use crowned_engine::egdb::{EgdbError, Layout, Material, Wld};
use crowned_rules::{Color, English, International, Piece, Position, Role, RuleSet, Square};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crowned-wld-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// International draughts' tables of up to three pieces, built once for the tests here.
fn international() -> &'static WldTables {
    static TABLES: OnceLock<WldTables> = OnceLock::new();
    TABLES.get_or_init(|| international_up_to(3))
}

fn international_up_to(pieces: u32) -> WldTables {
    let dir = scratch(&format!("international-{pieces}"));
    build::<International>(&dir, pieces, 2, &|_| {}, &mut |_| {}).expect("the build succeeds");
    let tables = WldTables::read::<International>(&dir, pieces).expect("the tables open");
    let _ = std::fs::remove_dir_all(dir);
    tables
}

/// Every position of `m` on `R`'s board with Black to move (numbers that stand for no position left out).
fn positions<R: RuleSet>(m: Material) -> impl Iterator<Item = Position<R>> {
    let layout = Layout::on(shape_of::<R>().expect("supported"), m);
    (0..layout.size())
        .map(move |i| layout.sets(i))
        .filter(|s| s.our_men & s.their_men == 0)
        .map(wld::position_of::<R>)
}

/// The outcome `pos` should have from its moves, each looked up in `tables` (or decided on the board).
fn from_moves<R: RuleSet>(tables: &WldTables, pos: &Position<R>) -> Wld {
    let mut best = Wld::Loss;
    for mv in &pos.legal_moves() {
        let next = pos.play(mv);
        let theirs = if next.count(next.side_to_move(), Role::Man)
            + next.count(next.side_to_move(), Role::King)
            == 0
        {
            Wld::Loss
        } else {
            tables
                .outcome(&next)
                .expect("the tables hold every successor")
        };
        match theirs {
            Wld::Loss => return Wld::Win,
            Wld::Draw => best = Wld::Draw,
            Wld::Win => {}
        }
    }
    best
}

#[test]
fn english_tables_solved_this_way_agree_with_its_databases_on_every_position() {
    // English draughts' databases are solved by their own builder, which unmakes moves by hand and counts
    // distances; these tables use the rules' generator both ways. Every position of up to three pieces must
    // agree (four with --ignored).
    english_agrees(3, 100_000);
}

#[test]
#[ignore = "builds every English table of four pieces twice (about a minute)"]
fn english_tables_of_four_pieces_agree_with_its_databases() {
    english_agrees(4, 5_000_000);
}

fn english_agrees(pieces: u32, at_least: u64) {
    let dir = scratch(&format!("english-{pieces}"));
    build::<English>(&dir, pieces, 2, &|_| {}, &mut |_| {}).expect("built");
    let tables = WldTables::read::<English>(&dir, pieces).expect("opens");
    let db = super::egdb_tests::four();
    let mut compared = 0u64;
    for m in Material::all_up_to(pieces) {
        for pos in positions::<English>(m) {
            let theirs = db.probe(&pos).expect("held").outcome();
            assert_eq!(
                tables.outcome(&pos),
                Some(theirs),
                "{}",
                crowned_rules::to_fen(&pos)
            );
            compared += 1;
        }
    }
    assert!(compared > at_least, "{compared}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_international_outcome_agrees_with_its_moves() {
    let tables = international();
    assert_eq!(tables.pieces(crowned_rules::Variant::International), 3);
    let mut rng = Rng::new(11);
    let mut seen = [0u64; 3];
    for m in Material::all_up_to(3) {
        let layout = Layout::on(shape_of::<International>().expect("supported"), m);
        let sample = if m.pieces() <= 2 { layout.size() } else { 3000 };
        for k in 0..sample {
            let index = if m.pieces() <= 2 {
                k
            } else {
                rng.below(layout.size() as usize) as u64
            };
            let sets = layout.sets(index);
            if sets.our_men & sets.their_men != 0 {
                continue;
            }
            let pos = wld::position_of::<International>(sets);
            let outcome = tables.outcome(&pos).expect("held");
            assert_eq!(
                outcome,
                from_moves(tables, &pos),
                "{}",
                crowned_rules::to_fen(&pos)
            );
            seen[outcome.bits() as usize] += 1;
        }
    }
    // Draws, wins and losses all occur.
    assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
}

#[test]
#[ignore = "builds international draughts' tables of four pieces (about a minute on two cores)"]
fn three_kings_against_one_is_usually_a_draw_and_a_lone_king_draws_against_one() {
    // The FMJD's endgame course: on 10x10, three kings against one "usually is a draw", with exceptions (shots
    // through the compulsory capture). Unlike the 8x8 flying-king games, holding the long diagonal does not win.
    let tables = &international_up_to(4);
    let m = Material::from_name("0m3k-0m1k").expect("name");
    let (mut quiet, mut won) = (0u64, 0u64);
    for pos in positions::<International>(m) {
        if !pos.must_capture() {
            quiet += 1;
            won += u64::from(tables.outcome(&pos) == Some(Wld::Win));
        }
    }
    assert!(won > 0 && won * 2 < quiet, "{won} of {quiet} won");
    // A king against a king: won when it can take the other; otherwise drawn but for a few positions where a
    // king in a corner has only moves that give it up (a few dozen of some two thousand).
    let m = Material::from_name("0m1k-0m1k").expect("name");
    let mut decided = [0u64; 3];
    for pos in positions::<International>(m) {
        let outcome = tables.outcome(&pos).expect("held");
        if pos.must_capture() {
            assert_eq!(outcome, Wld::Win);
        } else {
            decided[outcome.bits() as usize] += 1;
        }
    }
    let [draws, wins, losses] = decided;
    assert!((wins + losses) * 50 < draws, "{decided:?}");
}

/// Outcomes of every position of the signatures `order` (each next to its swap, every conversion leading to
/// one before), by plain value iteration: each unknown position is looked at again until nothing changes. No
/// move is ever unmade, so a predecessor the builder misses cannot hide here.
fn value_iteration<R: RuleSet>(
    order: &[Material],
) -> std::collections::HashMap<Material, Vec<Wld>> {
    use std::collections::HashMap;
    let shape = shape_of::<R>().expect("supported");
    let mut done: HashMap<Material, Vec<Wld>> = HashMap::new();
    let layouts: HashMap<Material, Layout> =
        order.iter().map(|&m| (m, Layout::on(shape, m))).collect();
    for pair in order.chunks(2) {
        // Each position's successors are found once: a value already known (a loss for a side left without
        // pieces, or a signature solved before) or a position of this pair. The passes then only read values;
        // generating the moves of every unknown position again at every pass was most of the time.
        enum Next {
            Known(Wld),
            Pending(usize, usize),
        }
        // A signature that is its own swap comes twice: it is solved once.
        let mut members = pair.to_vec();
        members.dedup();
        let at = |nm: Material| members.iter().position(|&p| p == nm);
        let mut successors: Vec<Vec<(usize, Vec<Next>)>> = Vec::new();
        for &m in &members {
            let mut of_m = Vec::new();
            for i in 0..layouts[&m].size() as usize {
                let sets = layouts[&m].sets(i as u64);
                if sets.our_men & sets.their_men != 0 {
                    continue;
                }
                let pos = wld::position_of::<R>(sets);
                let next = pos
                    .legal_moves()
                    .iter()
                    .map(|mv| {
                        let next = wld::sets_of(shape, &pos.play(mv));
                        let nm = next.material();
                        if nm.our_men + nm.our_kings == 0 {
                            return Next::Known(Wld::Loss);
                        }
                        let index = layouts[&nm].index_of(next) as usize;
                        match at(nm) {
                            Some(p) => Next::Pending(p, index),
                            None => Next::Known(done[&nm][index]),
                        }
                    })
                    .collect();
                of_m.push((i, next));
            }
            successors.push(of_m);
        }
        let mut known: Vec<Vec<Option<Wld>>> = members
            .iter()
            .map(|m| vec![None; layouts[m].size() as usize])
            .collect();
        loop {
            let mut changed = false;
            for (p, of_m) in successors.iter().enumerate() {
                for (i, next) in of_m {
                    if known[p][*i].is_some() {
                        continue;
                    }
                    let mut all_won = true;
                    let mut value = None;
                    for n in next {
                        let theirs = match *n {
                            Next::Known(v) => Some(v),
                            Next::Pending(q, j) => known[q][j],
                        };
                        match theirs {
                            Some(Wld::Loss) => value = Some(Wld::Win),
                            Some(Wld::Win) => {}
                            _ => all_won = false,
                        }
                    }
                    if value.is_none() && all_won {
                        value = Some(Wld::Loss);
                    }
                    if value.is_some() {
                        known[p][*i] = value;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let known = members.iter().copied().zip(known);
        for (m, values) in known {
            done.insert(
                m,
                values.into_iter().map(|v| v.unwrap_or(Wld::Draw)).collect(),
            );
        }
    }
    done
}

#[test]
fn plain_value_iteration_agrees_on_flying_kings_and_a_man_against_a_king() {
    let tables = international();
    let names = [
        "0m1k-0m1k",
        "1m0k-0m1k",
        "0m1k-1m0k",
        "0m2k-0m1k",
        "0m1k-0m2k",
    ];
    let order: Vec<Material> = names
        .iter()
        .map(|n| Material::from_name(n).expect("name"))
        .collect();
    let solved = value_iteration::<International>(&[
        order[0], order[0], order[1], order[2], order[3], order[4],
    ]);
    let shape = shape_of::<International>().expect("supported");
    let mut wins = 0;
    for m in order {
        let layout = Layout::on(shape, m);
        for (i, &expected) in solved[&m].iter().enumerate() {
            let sets = layout.sets(i as u64);
            if sets.our_men & sets.their_men != 0 {
                continue;
            }
            let pos = wld::position_of::<International>(sets);
            assert_eq!(
                tables.outcome(&pos),
                Some(expected),
                "{}",
                crowned_rules::to_fen(&pos)
            );
            wins += u64::from(expected == Wld::Win);
        }
    }
    assert!(wins > 1000, "{wins}");
}

#[test]
fn tables_read_back_and_damaged_ones_are_refused() {
    let dir = scratch("files");
    let mut reports = Vec::new();
    build::<International>(&dir, 3, 1, &|_| {}, &mut |r| reports.push(r.clone())).expect("built");
    let shape = shape_of::<International>().expect("supported");
    assert_eq!(
        reports.iter().map(|r| r.positions).sum::<u64>(),
        positions_up_to(shape, 3)
    );
    assert!(reports.iter().all(|r| !r.resumed));
    // A second build finds every table and solves nothing.
    let mut again = Vec::new();
    build::<International>(&dir, 3, 1, &|_| {}, &mut |r| again.push(r.clone())).expect("built");
    assert!(again.iter().all(|r| r.resumed), "{again:?}");
    let whole = WldTables::read::<International>(&dir, 3).expect("reads");
    // Damage: cut short, another signature's table, another variant's name, garbage.
    let victim = dir.join(wld::file_name(
        Material::from_name("1m0k-0m1k").expect("name"),
    ));
    let good = std::fs::read(&victim).expect("read");
    let other = std::fs::read(dir.join(wld::file_name(
        Material::from_name("0m1k-1m0k").expect("name"),
    )))
    .expect("read");
    let mut renamed = good.clone();
    renamed[9..9 + "international".len()].copy_from_slice(b"internatiomal");
    for bad in [
        good[..good.len() - 3].to_vec(),
        other,
        renamed,
        b"CRWLD\x001\nxx".to_vec(),
        Vec::new(),
    ] {
        std::fs::write(&victim, &bad).expect("written");
        assert!(
            matches!(
                WldTables::read::<International>(&dir, 3),
                Err(EgdbError::Corrupt(..))
            ),
            "{bad:?}"
        );
    }
    // A damaged table is solved again by the next build, and the same outcomes come back.
    build::<International>(&dir, 3, 2, &|_| {}, &mut |_| {}).expect("built");
    let rebuilt = WldTables::read::<International>(&dir, 3).expect("reads");
    for m in Material::all_up_to(3) {
        for pos in positions::<International>(m) {
            assert_eq!(whole.outcome(&pos), rebuilt.outcome(&pos));
        }
    }
    // Opened from the databases' directory, the tables stop at the last complete piece count.
    let databases = scratch("databases");
    let moved = wld::dir_for(&databases, crowned_rules::Variant::International);
    std::fs::create_dir_all(&databases).expect("made");
    std::fs::rename(&dir, &moved).expect("moved");
    let opened = WldTables::open(&databases).expect("found");
    assert_eq!(opened.pieces(crowned_rules::Variant::International), 3);
    std::fs::remove_file(moved.join(wld::file_name(
        Material::from_name("0m2k-0m1k").expect("name"),
    )))
    .expect("removed");
    let opened = WldTables::open(&databases).expect("found");
    assert_eq!(opened.pieces(crowned_rules::Variant::International), 2);
    // Another rule set's positions are not answered from them.
    let english = Position::<English>::start();
    assert_eq!(opened.outcome(&english), None);
    assert!(WldTables::open(&databases.join("nothing")).is_none());
    let _ = std::fs::remove_dir_all(databases);
}

#[test]
fn opened_tables_are_read_on_their_first_probe_and_a_damaged_one_is_left_out() {
    use crowned_rules::Variant;
    let databases = scratch("lazy");
    let dir = wld::dir_for(&databases, Variant::International);
    build::<International>(&dir, 3, 2, &|_| {}, &mut |_| {}).expect("built");
    let damaged = Material::from_name("0m2k-0m1k").expect("name");
    std::fs::write(dir.join(wld::file_name(damaged)), b"CRWLD\x001\nxx").expect("written");
    let opened = WldTables::open(&databases).expect("found");
    // Only the files' names were looked at: three pieces, nothing read.
    assert_eq!(opened.pieces(Variant::International), 3);
    assert_eq!(opened.bytes(), 0);
    let two = Layout::on(
        shape_of::<International>().expect("supported"),
        Material::from_name("0m1k-0m1k").expect("name"),
    );
    let pos = (0..two.size())
        .map(|i| wld::position_of::<International>(two.sets(i)))
        .find(|p| !p.must_capture())
        .expect("a quiet position");
    // The first probe is not answered: it starts the reading on a thread of its own.
    assert_eq!(opened.outcome(&pos), None);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while opened.outcome(&pos).is_none() {
        assert!(std::time::Instant::now() < deadline, "never read");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(opened.outcome(&pos), international().outcome(&pos));
    // The damaged table answers nothing, the others answer, and reading them all says which one.
    let error = opened
        .load(Variant::International)
        .expect_err("one is damaged");
    assert!(
        matches!(&error, EgdbError::Corrupt(path, _) if path.ends_with(wld::file_name(damaged))),
        "{error}"
    );
    let mut answered = 0;
    for m in Material::all_up_to(3) {
        for pos in positions::<International>(m)
            .filter(|p| !p.must_capture())
            .take(50)
        {
            let outcome = opened.outcome(&pos);
            if m == damaged {
                assert_eq!(outcome, None);
            } else {
                assert_eq!(outcome, international().outcome(&pos));
                answered += 1;
            }
        }
    }
    assert!(answered > 100, "{answered}");
    let _ = std::fs::remove_dir_all(databases);
}

#[test]
fn a_lone_square_is_numbered_where_the_rules_put_it() {
    // Square 46 (index 45) is on White's back row: White's men may not stand there, Black's may; the long
    // diagonal's first square is 46.
    let shape = shape_of::<International>().expect("supported");
    assert_eq!(shape.squares(), 50);
    assert_eq!(
        shape.our_men() & 1 << 45,
        0,
        "Black is crowned on the last row"
    );
    assert_ne!(shape.their_men() & 1 << 45, 0);
    assert_eq!(shape.turned(1 << 45), 1 << 4);
    let mut pos = Position::<International>::empty(Color::White);
    pos.set_piece(
        Square::from_index(45),
        Some(Piece::new(Color::White, Role::Man)),
    );
    pos.set_piece(
        Square::from_index(4),
        Some(Piece::new(Color::Black, Role::King)),
    );
    let sets = wld::sets_of(shape, &pos);
    assert_eq!(sets.our_men, 1 << 4);
    assert_eq!(sets.their_kings, 1 << 45);
    assert_eq!(
        wld::position_of::<International>(sets.flipped(shape))
            .pieces()
            .count(),
        2
    );
}

#[test]
fn the_search_scores_a_conversion_into_a_won_table_as_a_known_win() {
    use crowned_engine::egdb::Egdb;
    use crowned_engine::{Engine, Level, Limits, Score, Situation};
    // The tables of up to three pieces where the engine finds them: beside English's (absent) directory.
    let root = scratch("search");
    let dir = wld::dir_for(&root, crowned_rules::Variant::International);
    build::<International>(&dir, 3, 2, &|_| {}, &mut |_| {}).expect("built");
    let db = Egdb::open(&root.join("english")).expect("the other rule sets' tables open alone");
    assert_eq!(db.pieces(), 0, "no English tables");
    let db = std::sync::Arc::new(db);
    let tables = db.wld().expect("found");
    // Opened, nothing is read yet; the first probe starts reading, and `load` waits for all of it.
    assert_eq!(tables.bytes(), 0);
    tables
        .load(crowned_rules::Variant::International)
        .expect("the tables read");
    assert!(tables.bytes() > 0);
    let mut engine = Engine::new();
    engine.set_egdb(Some(std::sync::Arc::clone(&db)));
    let shape = shape_of::<International>().expect("supported");
    let mut rng = Rng::new(5);
    let (mut known, mut checked) = (0, 0);
    for name in ["1m1k-1m1k", "0m2k-1m1k", "2m0k-0m2k", "1m1k-2m0k"] {
        let layout = Layout::on(shape, Material::from_name(name).expect("name"));
        for _ in 0..40 {
            let sets = layout.sets(rng.below(layout.size() as usize) as u64);
            let pos = wld::position_of::<International>(sets);
            if sets.our_men & sets.their_men != 0 || pos.must_capture() {
                continue;
            }
            let result = engine.think(
                &Situation::at(pos).into(),
                Level::Max,
                &Limits::depth(3),
                1,
                &mut |_| {},
            );
            let Score::Centi(score) = result.score else {
                continue;
            };
            if score.abs() < 5000 {
                continue;
            }
            // A known win or loss: the line leads to a position of three pieces the tables decide that way.
            known += 1;
            let mut here = pos;
            let mut sign = 1;
            for mv in &result.pv {
                here = here.play(mv);
                sign = -sign;
                let pieces = here.pieces().count();
                if pieces < 4 && !here.must_capture() {
                    let expected = if (score > 0) == (sign > 0) {
                        Wld::Win
                    } else {
                        Wld::Loss
                    };
                    assert_eq!(
                        tables.outcome(&here),
                        Some(expected),
                        "{} then {:?}",
                        crowned_rules::to_fen(&pos),
                        result.pv
                    );
                    checked += 1;
                    break;
                }
            }
        }
    }
    assert!(
        known >= 5 && checked >= 3,
        "{known} known wins or losses, {checked} lines checked"
    );
    let _ = std::fs::remove_dir_all(root);
}
