//! Analysing a whole game, driven through the app by actions: one search a position, the costly moves marked in
//! the record with the engine's view as their comment, the marks jumped between, written to PDN, and the review
//! dropped when the game it judged changes.

use crowned::app::{Action, App, Effect, Mode, Player, Players, REVIEW_DEPTH, ReviewView, Timer};
use crowned::app::{BrowseAction, EngineNews};
use crowned::engine::{Level, Limits, Score};
use crowned::game::{AnyGame, MoveMark};
use crowned::rules::Color;

use crate::common::app::HUMANS;
use crate::common::screen::screen;

/// The position searches the effects ask for: search number and the FEN of its position.
fn evaluations(effects: &[Effect]) -> Vec<(u64, String, Limits)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Evaluate {
                search,
                situation,
                limits,
            } => Some((*search, situation.position.to_fen(), *limits)),
            _ => None,
        })
        .collect()
}

fn played(moves: &str) -> App {
    let (mut app, _) = App::new(HUMANS);
    for mv in moves.split_whitespace() {
        let _ = app.update(Action::Submit(mv.into()));
        assert!(app.input().value().is_empty(), "{mv}: {}", app.status());
    }
    while app.animation().is_some() {
        let _ = app.update(Action::Timer(Timer::Animation));
    }
    app
}

/// Answers the review's searches in turn with `scores` (centi-men for the side to move at each ply), each search
/// preferring another move than the one played next; returns the effects of the last answer.
fn answer_review(app: &mut App, first: Vec<Effect>, scores: &[i32]) -> Vec<Effect> {
    answer_review_choosing(app, first, scores, &[])
}

/// As [`answer_review`], but the search of each ply in `engine_s_choice` chooses the move that was played there
/// (the engine would have played it).
fn answer_review_choosing(
    app: &mut App,
    first: Vec<Effect>,
    scores: &[i32],
    engine_s_choice: &[usize],
) -> Vec<Effect> {
    let mut effects = first;
    for (ply, &score) in scores.iter().enumerate() {
        let asked = evaluations(&effects);
        assert_eq!(asked.len(), 1, "ply {ply}: {effects:?}");
        let (search, fen, limits) = asked[0].clone();
        let position = app.game().position_at(ply).expect("a ply");
        assert_eq!(fen, position.to_fen());
        assert_eq!(limits, Limits::depth(REVIEW_DEPTH));
        let played = app.game().moves().get(ply).copied();
        let best = if engine_s_choice.contains(&ply) {
            played.expect("a move played there")
        } else {
            let moves = position.legal_moves();
            moves
                .iter()
                .copied()
                .find(|mv| Some(*mv) != played)
                .unwrap_or(moves[0])
        };
        let _ = app.update(Action::Engine(EngineNews::Progress {
            search,
            depth: REVIEW_DEPTH,
            score: Score::Centi(score),
            pv: vec![best],
        }));
        effects = app.update(Action::Engine(EngineNews::Evaluated {
            search,
            score: Score::Centi(score),
        }));
    }
    effects
}

/// Six moves, and the score of each position for its side to move. Judged from the mover's side, 8-11 (ply 3)
/// goes from level to a man down (a mistake), 22-17 from a man up to two down (a blunder), 9-13 from two men up
/// to 1.3 (dubious) and 17-14 from 1.3 down to 3 down (a mistake).
const GAME: &str = "11-15 23-19 8-11 22-17 9-13 17-14";
const SCORES: [i32; 7] = [0, 0, 0, 100, 200, -130, 300];

#[test]
fn every_position_is_judged_and_the_costly_moves_marked() {
    let mut app = played(GAME);
    let first = app.update(Action::AnalyseGame);
    assert!(
        app.status().starts_with("analysing the game"),
        "{}",
        app.status()
    );
    let view = app.review_view().expect("a review");
    assert_eq!((view.done, view.total), (0, 7));
    let _ = answer_review(&mut app, first, &SCORES);

    let marks: Vec<_> = (1..=6).map(|ply| app.game().mark(ply)).collect();
    assert_eq!(
        marks,
        [
            None,
            None,
            Some(MoveMark::Mistake),
            Some(MoveMark::Blunder),
            Some(MoveMark::Dubious),
            Some(MoveMark::Mistake)
        ]
    );
    // The comment names the move the engine preferred, with what it promised, and what the move played gave.
    let comment = app.game().comment(4).expect("a comment on the blunder");
    let before = app.game().position_at(3).expect("a ply");
    let preferred = before
        .legal_moves()
        .into_iter()
        .find(|mv| Some(mv) != app.game().moves().get(3))
        .expect("another move");
    let preferred = before.write_move(&preferred, crowned::rules::SquareStyle::Numbers);
    assert_eq!(
        comment,
        format!("best was {preferred}: +1.00 for White, not +2.00 for Black")
    );
    assert!(
        app.status().starts_with("analysed: 4 moves marked"),
        "{}",
        app.status()
    );

    let ReviewView {
        done,
        total,
        curve,
        viewer,
        counts,
    } = app.review_view().expect("the review stays");
    assert_eq!((done, total), (7, 7));
    assert_eq!(viewer, Color::White, "two people: the side at the bottom");
    assert_eq!(curve.len(), 7);
    assert!(curve[4] < 0.5 && curve[3] > 0.5, "{curve:?}");
    assert_eq!(counts[0], (Color::Black, [1, 1, 0]));
    assert_eq!(counts[1], (Color::White, [0, 1, 1]));

    // The marks and comments go to PDN, and come back.
    let pdn = app.game().to_pdn();
    assert!(pdn.contains("22-17??"), "{pdn}");
    assert!(pdn.contains("9-13?!"), "{pdn}");
}

#[test]
fn the_engine_s_own_choice_is_never_marked_whatever_the_scores() {
    // The searches before and after 22-17 (ply 4) and 9-13 (ply 5) disagree by far more than the margin, but the
    // search before each chose the move played: neither is marked, and the others still are.
    let mut app = played(GAME);
    let first = app.update(Action::AnalyseGame);
    let _ = answer_review_choosing(&mut app, first, &SCORES, &[3, 4]);
    let marks: Vec<_> = (1..=6).map(|ply| app.game().mark(ply)).collect();
    assert_eq!(
        marks,
        [
            None,
            None,
            Some(MoveMark::Mistake),
            None,
            None,
            Some(MoveMark::Mistake)
        ]
    );
    assert_eq!(app.game().comment(4), None);
    assert!(
        app.status().starts_with("analysed: 2 moves marked"),
        "{}",
        app.status()
    );
}

/// The mark of Black's 11-15 when the search of the position after it scores it `one_short` (for White) one ply
/// short of the full depth and +3.00 for White at it, the search of the start having chosen another move at
/// level.
fn mark_of_a_move_seen_deeper(one_short: i32) -> Option<MoveMark> {
    let mut app = played("11-15 23-19");
    let mut effects = app.update(Action::AnalyseGame);
    for (ply, (short, full)) in [(None, 0), (Some(one_short), 300), (None, 0)]
        .into_iter()
        .enumerate()
    {
        let (search, ..) = evaluations(&effects)[0].clone();
        let position = app.game().position_at(ply).expect("a ply");
        let played = app.game().moves().get(ply).copied();
        let best = position
            .legal_moves()
            .into_iter()
            .find(|mv| Some(*mv) != played)
            .expect("another move");
        for (depth, score) in [(REVIEW_DEPTH - 1, short), (REVIEW_DEPTH, Some(full))] {
            if let Some(score) = score {
                let _ = app.update(Action::Engine(EngineNews::Progress {
                    search,
                    depth,
                    score: Score::Centi(score),
                    pv: vec![best],
                }));
            }
        }
        effects = app.update(Action::Engine(EngineNews::Evaluated {
            search,
            score: Score::Centi(full),
        }));
    }
    assert!(app.status().starts_with("analysed"), "{}", app.status());
    app.game().mark(1)
}

#[test]
fn a_move_is_judged_as_deep_as_the_search_before_saw_its_own_choice() {
    // The start's search of 16 plies saw its move to 15 plies after it; the move played is judged to the same
    // depth. The one ply more that the full search of the position after sees is not the player's mistake.
    assert_eq!(mark_of_a_move_seen_deeper(0), None);
    assert_eq!(mark_of_a_move_seen_deeper(300), Some(MoveMark::Blunder));
}

#[test]
fn the_analysis_counts_moves_and_positions_rightly() {
    let mut app = played(GAME);
    let _ = app.update(Action::AnalyseGame);
    // Six plies are three moves by each side, and seven positions (the start among them).
    assert!(
        app.status()
            .starts_with("analysing the game: 3 moves (7 positions, each searched"),
        "{}",
        app.status()
    );
}

#[test]
fn the_marked_moves_are_jumped_between() {
    let mut app = played(GAME);
    let first = app.update(Action::AnalyseGame);
    let _ = answer_review(&mut app, first, &SCORES);
    let _ = app.update(Action::Browse(BrowseAction::First));
    for ply in 3..=5 {
        let _ = app.update(Action::Browse(BrowseAction::ToMark(true)));
        assert_eq!(app.mode(), Mode::Browsing { ply });
    }
    let _ = app.update(Action::Browse(BrowseAction::ToMark(true)));
    assert_eq!(
        app.mode(),
        Mode::Play,
        "the last marked move is the live one"
    );
    let _ = app.update(Action::Browse(BrowseAction::ToMark(true)));
    assert!(
        app.status().contains("no marked move after"),
        "{}",
        app.status()
    );
    let _ = app.update(Action::Browse(BrowseAction::ToMark(false)));
    assert_eq!(app.mode(), Mode::Browsing { ply: 5 });
}

#[test]
fn forced_moves_and_an_annotators_marks_are_left_alone() {
    // Black's 14x23 is the only move: however it is judged, it is not marked.
    let mut game = AnyGame::from_fen(Default::default(), "B:W18,30:B14,1").expect("FEN");
    game.play_text("14x23").expect("legal");
    assert!(game.set_mark(1, Some(MoveMark::Interesting)));
    let (mut app, _) = App::with_game(game, HUMANS);
    let first = app.update(Action::AnalyseGame);
    let _ = answer_review(&mut app, first, &[500, 300]);
    assert_eq!(app.game().mark(1), Some(MoveMark::Interesting));
}

#[test]
fn a_game_changed_under_the_review_drops_it() {
    let mut app = played(GAME);
    let first = app.update(Action::AnalyseGame);
    let (search, ..) = evaluations(&first)[0].clone();
    let _ = app.update(Action::Undo);
    let position = app.game().position();
    let other = position
        .legal_moves()
        .into_iter()
        .map(|mv| position.write_move(&mv, crowned::rules::SquareStyle::Numbers))
        .find(|text| text != "17-14")
        .expect("another move");
    let effects = app.update(Action::Submit(other));
    assert!(app.review_view().is_none(), "{}", app.status());
    assert!(evaluations(&effects).is_empty());
    // Its late answer changes nothing.
    let _ = app.update(Action::Engine(EngineNews::Evaluated {
        search,
        score: Score::Centi(0),
    }));
    assert!((1..=app.game().len()).all(|ply| app.game().mark(ply).is_none()));
}

#[test]
fn the_game_s_own_search_comes_first_and_the_review_resumes() {
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Medium),
    };
    let (mut app, _) = App::new(players);
    let effects = app.update(Action::Submit("11-15".into()));
    // The engine thinks about White's move; the review waits for it.
    let thinking = effects
        .iter()
        .find_map(|e| match e {
            Effect::Think { search, .. } => Some(*search),
            _ => None,
        })
        .expect("the engine thinks");
    let effects = app.update(Action::AnalyseGame);
    assert!(evaluations(&effects).is_empty(), "{effects:?}");
    let mv = app.game().position().legal_moves()[0];
    let effects = app.update(Action::Engine(EngineNews::Moved {
        search: thinking,
        mv: Some(mv),
    }));
    assert_eq!(evaluations(&effects).len(), 1, "{effects:?}");
}

#[test]
fn nothing_to_analyse_is_said() {
    let (mut app, _) = App::new(HUMANS);
    assert!(app.update(Action::AnalyseGame).is_empty());
    assert_eq!(app.status(), "no moves to analyse yet");
    assert!(app.review_view().is_none());
    let _ = app.update(Action::Browse(BrowseAction::ToMark(true)));
    assert!(app.status().contains("no marked moves"), "{}", app.status());
}

/// The game analysed, the panel drawn after it.
fn reviewed(width: u16, height: u16) -> String {
    let mut app = played(GAME);
    let first = app.update(Action::Submit(":analyse".into()));
    let _ = answer_review(&mut app, first, &SCORES);
    screen(&app, width, height)
}

#[test]
fn analysed_game_80x24() {
    insta::assert_snapshot!(reviewed(80, 24));
}

#[test]
fn analysed_game_120x40() {
    insta::assert_snapshot!(reviewed(120, 40));
}

#[test]
fn analysing_80x24() {
    let mut app = played(GAME);
    let first = app.update(Action::AnalyseGame);
    let _ = answer_review(&mut app, first, &SCORES[..3]);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn marks_in_a_record_show_in_the_replayed_move_list() {
    let text = "[Event \"club\"]\n1. 11-15! 23-19 $2 2. 8-11 22-17?? *";
    let entry = crowned::store::games_in_text(text, "club.pdn").remove(0);
    let mut app = App::replaying(entry, HUMANS);
    let _ = app.update(Action::Browse(BrowseAction::Last));
    let shown = screen(&app, 80, 24);
    for written in ["11-15!", "23-19?", "22-17??"] {
        assert!(shown.contains(written), "{written}: {shown}");
    }
    // In a replay every move can be jumped to.
    let _ = app.update(Action::Browse(BrowseAction::First));
    let _ = app.update(Action::Browse(BrowseAction::ToMark(true)));
    assert_eq!(app.mode(), Mode::Browsing { ply: 1 });
}

/// How long the default analysis of a 60-move master game takes with one search thread (the local game's engine
/// uses every core). Run with `cargo test --profile fast --test study -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement: seconds in release"]
fn analysing_a_sixty_move_game_takes() {
    let text =
        std::fs::read_to_string("../shared/data/pdn/tinsley.pdn").expect("the reference games");
    // The readable game nearest to 60 moves (120 plies).
    let entry = crowned::store::games_in_text(&text, "tinsley.pdn")
        .into_iter()
        .filter(|entry| entry.error.is_none())
        .min_by_key(|entry| entry.game.len().abs_diff(120))
        .expect("a readable game");
    let mut app = App::replaying(entry, HUMANS);
    let plies = app.game().len();
    let mut engine = crowned::engine::Engine::new();
    let started = std::time::Instant::now();
    let mut effects = app.update(Action::AnalyseGame);
    let mut searches = 0;
    // Each position's final score and chosen move, for the earlier rule's marks below.
    let mut judged = Vec::new();
    while let Some((search, situation, limits)) = effects.iter().find_map(|e| match e {
        Effect::Evaluate {
            search,
            situation,
            limits,
        } => Some((*search, situation.clone(), *limits)),
        _ => None,
    }) {
        // The reports go to the app as the session sends them: each depth, then the final word.
        let mut reports = Vec::new();
        let result = engine.think(&situation, Level::Max, &limits, 0, &mut |p| {
            reports.push((p.depth, p.score, p.pv.clone()));
        });
        reports.push((result.depth, result.score, result.pv.clone()));
        judged.push((result.score, result.best));
        for (depth, score, pv) in reports {
            let _ = app.update(Action::Engine(EngineNews::Progress {
                search,
                depth,
                score,
                pv,
            }));
        }
        searches += 1;
        effects = app.update(Action::Engine(EngineNews::Evaluated {
            search,
            score: result.score,
        }));
    }
    let took = started.elapsed();
    let view = app.review_view().expect("a review");
    assert_eq!(view.done, view.total);
    println!(
        "analysed {plies} plies ({searches} searches to depth {REVIEW_DEPTH}) in {:.2} s, {:.0} ms a position; marks: {:?}",
        took.as_secs_f64(),
        took.as_secs_f64() * 1000.0 / searches.max(1) as f64,
        view.counts
    );
    // The earlier rule, for comparison: the full-depth scores of the positions before and after a move, whatever
    // the search before chose.
    let (mut earlier, mut own_choice) = (0, 0);
    for ply in 1..judged.len() {
        let before = app.game().position_at(ply - 1).expect("a ply");
        if before.legal_moves().len() < 2 {
            continue;
        }
        let cost = judged[ply - 1].0.expectation() - judged[ply].0.flipped().expectation();
        if cost >= crowned::app::DUBIOUS {
            earlier += 1;
            let played = app.game().moves()[ply - 1];
            own_choice += usize::from(judged[ply - 1].1.is_some_and(|b| b.same_effect(&played)));
        }
    }
    println!(
        "the earlier rule marked {earlier} moves, {own_choice} of them the engine's own choice; now marked: {}",
        (1..=plies)
            .filter(|&ply| app.game().mark(ply).is_some())
            .count()
    );
    let notation = app.game().variant().notation();
    for ply in (1..=plies).filter(|&ply| app.game().mark(ply).is_some()) {
        println!(
            "  {} {:?}: {}",
            app.game().move_text(ply, notation).unwrap_or_default(),
            app.game().mark(ply),
            app.game().comment(ply).unwrap_or_default()
        );
    }
}

#[test]
fn a_comment_is_added_to_the_move_on_show_and_shown() {
    let mut app = played("11-15 23-19 8-11");
    let effects = app.update(Action::Submit(":comment the Old Faithful".into()));
    assert!(effects.iter().any(|e| matches!(e, Effect::GameChanged(_))));
    assert_eq!(app.game().comment(3), Some("the Old Faithful"));
    assert!(
        app.status().starts_with("comment added to 8-11"),
        "{}",
        app.status()
    );
    assert!(screen(&app, 80, 24).contains("the Old Faithful"));
    // On a move browsed back to.
    let _ = app.update(Action::Browse(BrowseAction::Back));
    let _ = app.update(Action::Submit(":comment a solid reply".into()));
    assert_eq!(app.game().comment(2), Some("a solid reply"));
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("a solid reply") && !shown.contains("Old Faithful"),
        "{shown}"
    );
    // Removed.
    let _ = app.update(Action::Submit(":comment".into()));
    assert_eq!(app.game().comment(2), None);
    assert!(app.game().to_pdn().contains("{the Old Faithful}"));
}

#[test]
fn a_long_comment_wraps_and_a_replayed_record_keeps_its_own() {
    let long = "a very long comment ".repeat(30);
    let text = format!("1. 11-15 {{{long}}} 23-19 *");
    let entry = crowned::store::games_in_text(&text, "club.pdn").remove(0);
    let mut app = App::replaying(entry, HUMANS);
    let _ = app.update(Action::Browse(BrowseAction::First));
    let _ = app.update(Action::Browse(BrowseAction::Forward));
    assert!(app.game().comment(1).is_some(), "{:?}", app.game().to_pdn());
    let shown = screen(&app, 80, 24);
    assert!(shown.matches("long comment").count() >= 3, "{shown}");
    assert!(
        shown.contains('…'),
        "cut at a word with an ellipsis: {shown}"
    );
    let effects = app.update(Action::Submit(":comment mine".into()));
    assert!(effects.is_empty());
    assert!(app.status().contains("not changed"), "{}", app.status());
}

#[test]
fn a_marked_move_s_comment_has_two_lines_at_80x24_under_the_game_over_panel() {
    let mut app = played(GAME);
    let _ = app.update(Action::Submit(":resign".into()));
    let _ = app.update(Action::Answer(true));
    assert!(matches!(app.mode(), Mode::Over(_)), "{:?}", app.mode());
    let first = app.update(Action::AnalyseGame);
    let _ = answer_review(&mut app, first, &SCORES);
    let comment = app.game().comment(6).expect("the last move is marked");
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Game over"), "{shown}");
    // The whole comment, over two lines: the better move and what it promised, then what the move played left.
    let lines: Vec<&str> = shown
        .lines()
        .filter_map(|row| row.split('│').nth(1))
        .map(str::trim)
        .collect();
    let at = lines
        .iter()
        .position(|line| line.starts_with("best was"))
        .unwrap_or_else(|| panic!("no comment: {shown}"));
    assert_eq!(
        format!("{} {}", lines[at], lines[at + 1]),
        comment,
        "{shown}"
    );
}
