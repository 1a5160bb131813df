//! Problems: the built-in collection proves, a file's solutions are checked, and mining finds the shots where
//! exactly one move wins.

use crowned::problems::mine::mine_games;
use crowned::problems::{BUILTIN, ProblemGoal, Prover, Refusal, load_problems};
use crowned::rules::{SquareStyle, write_move};

fn first_move(problem: &crowned::problems::Problem) -> String {
    write_move(&problem.start, &problem.solution[0], SquareStyle::Numbers)
}

#[test]
fn every_built_in_problem_is_proved_again() {
    let loaded = load_problems(BUILTIN, &mut Prover::new(None));
    assert!(loaded.refused.is_empty(), "{:?}", loaded.refused);
    assert!(loaded.problems.len() >= 10);
    for p in &loaded.problems {
        assert_eq!(p.goal, ProblemGoal::Win, "{}", p.title);
        assert!(!p.solution.is_empty());
    }
}

#[test]
fn a_solution_that_lets_the_win_go_is_refused() {
    // Gould's twelfth with a wrong first move written as the solution.
    let text = "[Event \"bad\"]\n[Result \"0-1\"]\n[SetUp \"1\"]\n[FEN \"W:WK17,K27:B18,K29,K30\"]\n\n1... 17-13 *\n";
    let loaded = load_problems(text, &mut Prover::new(None));
    assert!(loaded.problems.is_empty());
    assert_eq!(
        loaded.refused,
        [("bad".to_string(), Refusal::BadSolution("17-13".into()))]
    );
    // A result the position does not have is refused too, as is a position nothing proves.
    let text = "[Event \"claimed\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"W:WK17,K27:B18,K29,K30\"]\n*\n\n\
                [Event \"bare kings\"]\n[SetUp \"1\"]\n[FEN \"B:WK32:BK1\"]\n*\n";
    let loaded = load_problems(text, &mut Prover::new(None));
    assert!(loaded.problems.is_empty());
    assert_eq!(loaded.refused[0].1, Refusal::LossClaimed);
    assert_eq!(loaded.refused[1].1, Refusal::Unproved);
}

#[test]
fn mining_finds_the_shots_with_one_winning_move() {
    // Gould's 12th and 9th (one winning move each, found when the collection was mined), a position where the
    // capture is forced (no choice: no problem), and one with two winning moves (no problem either).
    let text = "[Event \"twelfth\"]\n[SetUp \"1\"]\n[FEN \"W:WK17,K27:B18,K29,K30\"]\n*\n\n\
                [Event \"ninth\"]\n[SetUp \"1\"]\n[FEN \"W:WK18,26:B9,K16\"]\n*\n\n\
                [Event \"forced\"]\n[SetUp \"1\"]\n[FEN \"B:W18:B14,K1\"]\n*\n\n\
                [Event \"two ways\"]\n[SetUp \"1\"]\n[FEN \"B:W28:BK19,K27\"]\n*\n";
    let mut prover = Prover::new(None);
    let mined = mine_games(text, &mut prover, &mut |_| {});
    assert_eq!(mined.games, 4);
    let found: Vec<(String, String)> = mined
        .problems
        .iter()
        .map(|p| (p.title.clone(), first_move(p)))
        .collect();
    assert_eq!(
        found,
        [
            ("twelfth, 1...".to_string(), "17-22".to_string()),
            ("ninth, 1...".to_string(), "18-15".to_string())
        ]
    );
    // Written as PDN with the solution as the main line, each reads back and proves again.
    let pdn: Vec<String> = mined.problems.iter().map(|p| p.to_pdn()).collect();
    let again = load_problems(&pdn.join("\n"), &mut Prover::new(None));
    assert!(again.refused.is_empty(), "{:?}", again.refused);
    assert_eq!(again.problems.len(), 2);
    for (a, b) in again.problems.iter().zip(&mined.problems) {
        assert_eq!(a.start, b.start);
        assert_eq!(a.solution, b.solution);
    }
}

#[test]
fn mining_with_databases_finds_the_one_move_that_draws() {
    // White's king on 14 against Black's king on 15 and the man on 22 about to crown: 14-18 alone attacks the
    // man (18x25 next) and holds the draw; each other move lets it crown, and two kings beat one. A draw is
    // only ever proved by the databases: without them the position is no problem.
    let text = "[Event \"hold\"]\n[SetUp \"1\"]\n[FEN \"W:WK14:BK15,22\"]\n*\n";
    let dir = std::env::temp_dir().join(format!("crowned-mine-egdb-{}", std::process::id()));
    crowned::lab::egdb_build::build(&dir, 3, 1, &|_| {}, &mut |_| {}).expect("three pieces built");
    let egdb = crowned::engine::egdb::open_in(&dir, false).expect("the tables just built");

    let mined = mine_games(text, &mut Prover::new(Some(egdb)), &mut |_| {});
    assert_eq!((mined.games, mined.positions), (1, 1));
    let found: Vec<(String, ProblemGoal, String)> = mined
        .problems
        .iter()
        .map(|p| (p.title.clone(), p.goal, first_move(p)))
        .collect();
    assert_eq!(
        found,
        [(
            "hold, 1...".to_string(),
            ProblemGoal::Draw,
            "14-18".to_string()
        )]
    );
    let pdn = mined.problems[0].to_pdn();
    assert!(pdn.contains("[Result \"1/2-1/2\"]"), "{pdn}");
    assert!(pdn.contains("1... 14-18 2. 15-10 18x25"), "{pdn}");

    let without = mine_games(text, &mut Prover::new(None), &mut |_| {});
    assert!(without.problems.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
