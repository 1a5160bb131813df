//! Problems: the built-in collection proves, a file's solutions are checked, and mining finds the shots where
//! exactly one move wins.

use crowned::problems::mine::mine_games;
use crowned::problems::{BUILTIN, Goal, Prover, Refusal, load_problems};
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
        assert_eq!(p.goal, Goal::Win, "{}", p.title);
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
