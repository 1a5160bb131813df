//! The director: events run from joins, results and time, and an event restored from what it kept.

use super::director::{Director, DirectorAction, DirectorInput, event_tags};
use super::{Entrant, GameResult, Pairing};
use crate::serve::ids::Fingerprint;
use crate::serve::records::{EntryRecord, EventKind, EventRecord, EventSpec, PairingRecord, Stage};

const START: i64 = 1_000_000;

fn spec(kind: EventKind) -> EventSpec {
    EventSpec {
        code: "T1".into(),
        name: "Test event".to_string(),
        kind,
        variant: "english".to_string(),
        clock: "3+2".to_string(),
        rated: true,
        open: true,
        starts: START,
        seconds: if kind == EventKind::Arena { 60 } else { 0 },
        rounds: if kind == EventKind::Swiss { 5 } else { 0 },
        created_by: None,
    }
}

fn who(i: usize) -> Fingerprint {
    format!("SHA256:p{i}").into()
}

fn join_all(d: &mut Director, n: usize) {
    for i in 0..n {
        let actions = d.handle(
            DirectorInput::Join {
                who: who(i),
                name: format!("p{i}"),
            },
            START - 10,
        );
        assert!(
            matches!(actions[0], DirectorAction::Entered { entrant, .. } if entrant == i as Entrant)
        );
    }
}

fn paired(actions: &[DirectorAction]) -> Vec<PairingRecord> {
    actions
        .iter()
        .filter_map(|a| match a {
            DirectorAction::Paired(p) => Some(p.clone()),
            _ => None,
        })
        .collect()
}

/// The higher seed wins, neighbours draw (as in the hand-computed Swiss table).
fn seeded(p: Pairing) -> GameResult {
    let (lo, hi) = (p.first.min(p.second), p.first.max(p.second));
    if hi - lo == 1 {
        GameResult::Draw
    } else if p.first == lo {
        GameResult::FirstWins
    } else {
        GameResult::SecondWins
    }
}

#[test]
fn an_arena_pairs_free_players_scores_streaks_and_ends_on_time() {
    let mut d = Director::new(spec(EventKind::Arena));
    join_all(&mut d, 6);
    // Nothing before the start.
    assert!(paired(&d.handle(DirectorInput::Tick, START - 1)).is_empty());
    let mut now = START;
    let mut queue = paired(&d.handle(DirectorInput::Tick, now));
    assert_eq!(queue.len(), 3, "six free players make three games at once");
    let mut last: Vec<Option<Entrant>> = vec![None; 6];
    let mut played = 0;
    let mut finished = false;
    while let Some(game) = (!queue.is_empty()).then(|| queue.remove(0)) {
        now += 7;
        let result = seeded(game.pairing);
        let actions = d.handle(
            DirectorInput::GameOver {
                round: game.round,
                board: game.board,
                result,
                forfeit: false,
            },
            now,
        );
        played += 1;
        last[game.pairing.first as usize] = Some(game.pairing.second);
        last[game.pairing.second as usize] = Some(game.pairing.first);
        for p in paired(&actions) {
            // Never the last opponent again at once, never someone already playing.
            assert_ne!(last[p.pairing.first as usize], Some(p.pairing.second));
            assert!(
                queue
                    .iter()
                    .all(|q| !q.pairing.has(p.pairing.first) && !q.pairing.has(p.pairing.second))
            );
            assert!(now < START + 60, "no pairing after the time is up");
            queue.push(p);
        }
        finished |= actions.contains(&DirectorAction::Stage(Stage::Finished));
    }
    assert!(finished && d.stage() == Stage::Finished);
    assert!(played > 6, "players went on being paired: {played} games");
    // The table: points from the streak rule, recomputed here from each player's own sequence of results.
    for p in d.arena_players() {
        let mut points = 0;
        let mut in_row = 0;
        for record in d.pairings().iter().filter(|r| r.pairing.has(p.entrant)) {
            let score = record
                .pairing
                .score_of(p.entrant, record.result.expect("all ended"));
            let base = score.half_points();
            points += if in_row >= 2 { 2 * base } else { base };
            in_row = if base == 2 { in_row + 1 } else { 0 };
        }
        assert_eq!(p.points, points, "entrant {}", p.entrant);
    }
    let table: Vec<u32> = d.arena_table().iter().map(|p| p.points).collect();
    assert!(table.windows(2).all(|w| w[0] >= w[1]));
    // Seed 0 wins every game it does not draw with seed 1: it leads.
    assert_eq!(d.arena_table()[0].entrant, 0);
}

#[test]
fn an_arena_does_not_pair_a_player_seated_at_a_game_elsewhere_until_it_ends() {
    let mut d = Director::new(spec(EventKind::Arena));
    join_all(&mut d, 3);
    // Player 1 plays at another event's board as the arena starts: the other two meet.
    d.set_busy([who(1)].into_iter().collect());
    let first = paired(&d.handle(DirectorInput::Tick, START));
    assert_eq!(first.len(), 1);
    assert!(!first[0].pairing.has(1));
    // Still busy at the next tick: nobody to meet anyway; free again, paired as soon as someone is.
    assert!(paired(&d.handle(DirectorInput::Tick, START + 1)).is_empty());
    d.set_busy(Default::default());
    let done = d.handle(
        DirectorInput::GameOver {
            round: 0,
            board: 0,
            result: GameResult::Draw,
            forfeit: false,
        },
        START + 2,
    );
    let next = paired(&done);
    assert_eq!(next.len(), 1);
    assert!(next[0].pairing.has(1));
}

#[test]
fn an_arena_never_pairs_two_players_one_of_whom_blocked_the_other() {
    let mut d = Director::new(spec(EventKind::Arena));
    join_all(&mut d, 2);
    // Player 1 blocked player 0: alone together, they wait.
    d.set_blocked([(who(1), who(0))]);
    assert!(paired(&d.handle(DirectorInput::Tick, START)).is_empty());
    assert!(paired(&d.handle(DirectorInput::Tick, START + 5)).is_empty());
    // A third comes: one of them meets the newcomer, the other waits.
    let third = d.handle(
        DirectorInput::Join {
            who: who(2),
            name: "p2".into(),
        },
        START + 6,
    );
    let mut games = paired(&third);
    games.extend(paired(&d.handle(DirectorInput::Tick, START + 7)));
    assert_eq!(games.len(), 1, "{games:?}");
    assert!(games[0].pairing.has(2));
    // In a Swiss, the blocked pair is kept apart while the round allows.
    let mut swiss = Director::new(spec(EventKind::Swiss));
    join_all(&mut swiss, 4);
    swiss.set_blocked([(who(0), who(2))]);
    let round = paired(&swiss.handle(DirectorInput::Tick, START));
    assert_eq!(round.len(), 2);
    assert!(
        !round.iter().any(|g| g.pairing.has(0) && g.pairing.has(2)),
        "{round:?}"
    );
}

#[test]
fn an_arena_does_not_pair_a_player_who_is_away() {
    let mut d = Director::new(spec(EventKind::Arena));
    join_all(&mut d, 3);
    d.handle(DirectorInput::Away(who(2)), START - 5);
    let first = paired(&d.handle(DirectorInput::Tick, START));
    assert_eq!(first.len(), 1);
    assert!(!first[0].pairing.has(2));
    // Back: paired at once with... nobody free (the other two are playing): waits.
    assert!(paired(&d.handle(DirectorInput::Back(who(2)), START + 1)).is_empty());
    let done = d.handle(
        DirectorInput::GameOver {
            round: 0,
            board: 0,
            result: GameResult::Draw,
            forfeit: false,
        },
        START + 2,
    );
    // The two who just met are not paired again; 2 gets one of them.
    let next = paired(&done);
    assert_eq!(next.len(), 1);
    assert!(next[0].pairing.has(2));
}

fn play_swiss(d: &mut Director, mut queue: Vec<PairingRecord>, now: i64) -> Vec<DirectorAction> {
    let mut all = Vec::new();
    while let Some(game) = (!queue.is_empty()).then(|| queue.remove(0)) {
        let actions = d.handle(
            DirectorInput::GameOver {
                round: game.round,
                board: game.board,
                result: seeded(game.pairing),
                forfeit: false,
            },
            now,
        );
        queue.extend(paired(&actions));
        all.extend(actions);
    }
    all
}

#[test]
fn a_swiss_event_runs_its_rounds_and_matches_the_hand_computed_table() {
    let mut d = Director::new(spec(EventKind::Swiss));
    join_all(&mut d, 7);
    let start = d.handle(DirectorInput::Tick, START);
    assert_eq!(start[0], DirectorAction::Stage(Stage::Running));
    let actions = play_swiss(&mut d, paired(&start), START + 1);
    assert_eq!(
        actions.last(),
        Some(&DirectorAction::Stage(Stage::Finished))
    );
    assert_eq!(d.rounds().len(), 5);
    // The same table as `swiss_tests::seven_players_five_rounds_as_computed_by_hand`.
    let got: Vec<_> = d
        .swiss_table()
        .iter()
        .map(|l| (l.entrant, l.points, l.buchholz, l.sonneborn_berger))
        .collect();
    assert_eq!(
        got,
        vec![
            (0, 9, 28, 48),
            (1, 8, 29, 42),
            (2, 7, 23, 20),
            (3, 5, 25, 11),
            (4, 5, 25, 11),
            (5, 3, 24, 3),
            (6, 3, 23, 3)
        ]
    );
    assert_eq!(
        event_tags(d.spec(), 3),
        [
            ("Event", "Test event".to_string()),
            ("Round", "3".to_string())
        ]
    );
    // As shown: the table with the tie-breaks written out, then each round's boards and bye.
    let text = super::table::render(&d);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].contains("Swiss of 5 rounds") && lines[0].contains("finished"),
        "{text}"
    );
    let first: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(first, ["1", "p0", "4.5", "14", "12"], "{text}");
    let fourth: Vec<&str> = lines[5].split_whitespace().collect();
    assert_eq!(fourth, ["4", "p3", "2.5", "12.5", "2.75"], "{text}");
    let bye_of_round_5 = text.split("Round 5").nth(1).unwrap_or("");
    assert!(
        bye_of_round_5
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["p2", "bye"]),
        "{text}"
    );
}

/// What the records would hold after `actions` (as the server keeps them).
fn kept(spec: &EventSpec, actions: &[DirectorAction]) -> EventRecord {
    let mut record = EventRecord {
        spec: spec.clone(),
        stage: Stage::Waiting,
        entries: Vec::new(),
        pairings: Vec::new(),
        byes: Vec::new(),
    };
    for a in actions {
        match a {
            DirectorAction::Entered { entrant, who, name } => record.entries.push(EntryRecord {
                entrant: *entrant,
                fingerprint: who.clone(),
                name: name.clone(),
                withdrawn: false,
            }),
            DirectorAction::Withdrawn { entrant, withdrawn } => {
                record.entries[*entrant as usize].withdrawn = *withdrawn
            }
            DirectorAction::Paired(p) => record.pairings.push(p.clone()),
            DirectorAction::Bye { round, entrant } => record.byes.push((*round, *entrant)),
            DirectorAction::Result {
                round,
                board,
                result,
            } => {
                if let Some(p) = record
                    .pairings
                    .iter_mut()
                    .find(|p| p.round == *round && p.board == *board)
                {
                    p.result = Some(*result);
                }
            }
            DirectorAction::Stage(stage) => record.stage = *stage,
        }
    }
    record
}

#[test]
fn a_swiss_event_restored_mid_round_goes_on_as_if_nothing_happened() {
    let spec = spec(EventKind::Swiss);
    let mut d = Director::new(spec.clone());
    let mut log = Vec::new();
    for i in 0..7 {
        log.extend(d.handle(
            DirectorInput::Join {
                who: who(i),
                name: format!("p{i}"),
            },
            START - 10,
        ));
    }
    let start = d.handle(DirectorInput::Tick, START);
    log.extend(start.clone());
    // Round 1 and one game of round 2 are played, then the server stops.
    let round_one = paired(&start);
    let mut next = Vec::new();
    for game in &round_one {
        let actions = d.handle(
            DirectorInput::GameOver {
                round: 1,
                board: game.board,
                result: seeded(game.pairing),
                forfeit: false,
            },
            START + 1,
        );
        next.extend(paired(&actions));
        log.extend(actions);
    }
    let first_of_two = next.remove(0);
    log.extend(d.handle(
        DirectorInput::GameOver {
            round: 2,
            board: first_of_two.board,
            result: seeded(first_of_two.pairing),
            forfeit: false,
        },
        START + 2,
    ));
    let mut restored = Director::restore(&kept(&spec, &log));
    assert_eq!(restored.stage(), Stage::Running);
    assert_eq!(restored.rounds(), d.rounds());
    for i in 0..7 {
        restored.handle(DirectorInput::Back(who(i)), START + 3);
    }
    play_swiss(&mut restored, next.clone(), START + 4);
    play_swiss(&mut d, next, START + 4);
    assert_eq!(restored.stage(), Stage::Finished);
    assert_eq!(restored.swiss_table(), d.swiss_table());
    assert_eq!(restored.pairings(), d.pairings());
}

#[test]
fn a_swiss_player_who_loses_while_away_is_withdrawn_until_back() {
    let mut d = Director::new(spec(EventKind::Swiss));
    join_all(&mut d, 4);
    let round_one = paired(&d.handle(DirectorInput::Tick, START));
    let gone = round_one[0].pairing.second;
    d.handle(DirectorInput::Away(who(gone as usize)), START + 1);
    let actions = d.handle(
        DirectorInput::GameOver {
            round: 1,
            board: 0,
            result: GameResult::FirstWins,
            forfeit: true,
        },
        START + 2,
    );
    assert!(actions.contains(&DirectorAction::Withdrawn {
        entrant: gone,
        withdrawn: true
    }));
    let round_two = paired(&d.handle(
        DirectorInput::GameOver {
            round: 1,
            board: 1,
            result: GameResult::Draw,
            forfeit: false,
        },
        START + 3,
    ));
    assert_eq!(round_two.len(), 1, "three players left: one game and a bye");
    assert!(round_two.iter().all(|p| !p.pairing.has(gone)));
    assert!(d.rounds()[1].bye.is_some_and(|b| b != gone));
    // Back: entering again puts them in the next round.
    let back = d.handle(
        DirectorInput::Join {
            who: who(gone as usize),
            name: "again".into(),
        },
        START + 4,
    );
    assert_eq!(
        back,
        vec![DirectorAction::Withdrawn {
            entrant: gone,
            withdrawn: false
        }]
    );
}

/// The pairing's cost with many players: an arena of 200 over many games, and 200-player Swiss rounds. The
/// figures print with `--nocapture`; the bounds are loose (a busy 2-core machine), there to catch a blow-up.
#[test]
fn two_hundred_players_are_paired_quickly() {
    use std::time::{Duration, Instant};
    let mut arena = Spec200::arena();
    join_all(&mut arena, 200);
    let began = Instant::now();
    let mut queue = paired(&arena.handle(DirectorInput::Tick, START));
    assert_eq!(queue.len(), 100);
    let mut worst = Duration::ZERO;
    let mut games = 0;
    // 2,000 games ending one by one, each answered by the pairing of whoever is free.
    while games < 2000 {
        let game = queue.remove(0);
        let t = Instant::now();
        let actions = arena.handle(
            DirectorInput::GameOver {
                round: game.round,
                board: game.board,
                result: seeded(game.pairing),
                forfeit: false,
            },
            START + 1,
        );
        worst = worst.max(t.elapsed());
        queue.extend(paired(&actions));
        games += 1;
    }
    let arena_time = began.elapsed();
    let mut swiss = Spec200::swiss();
    join_all(&mut swiss, 200);
    let t = Instant::now();
    let mut queue = paired(&swiss.handle(DirectorInput::Tick, START));
    let mut slowest_round = Duration::ZERO;
    while !queue.is_empty() {
        let game = queue.remove(0);
        let t = Instant::now();
        let actions = swiss.handle(
            DirectorInput::GameOver {
                round: game.round,
                board: game.board,
                result: seeded(game.pairing),
                forfeit: false,
            },
            START + 1,
        );
        slowest_round = slowest_round.max(t.elapsed());
        queue.extend(paired(&actions));
    }
    println!(
        "arena of 200: 2000 games in {arena_time:?}, slowest answer {worst:?}; Swiss of 200, 5 rounds in {:?}, \
         slowest answer {slowest_round:?}",
        t.elapsed()
    );
    assert_eq!(swiss.stage(), Stage::Finished);
    assert!(worst < Duration::from_millis(200), "{worst:?}");
    assert!(slowest_round < Duration::from_secs(2), "{slowest_round:?}");
}

struct Spec200;

impl Spec200 {
    fn arena() -> Director {
        let mut s = spec(EventKind::Arena);
        s.seconds = 3600;
        Director::new(s)
    }

    fn swiss() -> Director {
        Director::new(spec(EventKind::Swiss))
    }
}
