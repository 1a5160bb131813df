//! Tuning the search's parameters by game results: simultaneous perturbation stochastic approximation (SPSA,
//! Spall 1992/1998). Each iteration moves every chosen parameter at once by `±c_k` steps (the signs drawn at
//! random), plays game pairs between the engine set `theta + c_k·delta` and the one set `theta − c_k·delta`
//! (both colours from each opening, so the opening's own advantage cancels), and moves `theta` along `delta`
//! in proportion to the score difference. Spall's gain schedule: `a_k = a / (k + 1 + A)^0.602`,
//! `c_k = c / (k + 1)^0.101`.
//!
//! Games are played in-process, one search thread a player and a fixed number of nodes a move, so a run is
//! the same from the same seed on any number of threads, and a parameter that prunes more is judged by the
//! depth it reaches for the same work.

use crate::match_openings::random_openings;
use crowned_engine::{
    AnySituation, Engine, EngineConfig, Level, Limits, ParamError, ParamOverrides, Rng,
    SearchParams, Situation, rule_set_params,
};
use crowned_game::Game;
use crowned_rules::{Color, GameType, Playable, Position};

/// Spall's exponent of the step size's decay.
const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation's decay.
const GAMMA: f64 = 0.101;
/// A game still going after this many plies is a draw.
const MAX_PLIES: usize = 300;

/// One parameter to tune: its name (as [`SearchParams::set`] takes it), the range it stays in, and its step,
/// the size of a perturbation at the start (`c` = 1) and the unit the updates are measured in.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The parameter's name, one of [`SearchParams::NAMES`].
    pub name: &'static str,
    /// The least value allowed.
    pub min: f64,
    /// The greatest value allowed.
    pub max: f64,
    /// The perturbation at the start, in the parameter's units.
    pub step: f64,
}

impl Tuned {
    /// `name` with its usual range and step, or `name:min:max:step` with those given.
    pub fn parse(text: &str) -> Result<Tuned, ParamError> {
        let mut parts = text.split(':');
        let name = parts.next().unwrap_or_default().trim();
        let Some(&known) = SearchParams::NAMES.iter().find(|&&n| n == name) else {
            return Err(ParamError::Unknown(name.to_string()));
        };
        let rest: Vec<&str> = parts.collect();
        let (min, max, step) = match rest.as_slice() {
            [] => default_range(known),
            [min, max, step] => {
                let num = |v: &str| {
                    v.trim().parse::<f64>().map_err(|_| ParamError::BadValue {
                        name: known,
                        kind: "a range as name:min:max:step",
                        value: text.to_string(),
                    })
                };
                (num(min)?, num(max)?, num(step)?)
            }
            _ => {
                return Err(ParamError::BadValue {
                    name: known,
                    kind: "a range as name:min:max:step",
                    value: text.to_string(),
                });
            }
        };
        if !(min < max && step > 0.0 && step.is_finite()) {
            return Err(ParamError::BadValue {
                name: known,
                kind: "a range with min < max and a step above 0",
                value: text.to_string(),
            });
        }
        Ok(Tuned {
            name: known,
            min,
            max,
            step,
        })
    }
}

/// A parameter's usual range and step: wide enough to find a better value, narrow enough that no setting breaks
/// the search (a negative margin or a reduction table of zeros).
fn default_range(name: &str) -> (f64, f64, f64) {
    match name {
        "aspiration-depth" => (1.0, 12.0, 1.0),
        "aspiration-window" => (5.0, 200.0, 10.0),
        "aspiration-widen" => (20.0, 1000.0, 50.0),
        "futility-depth" | "quiet-prune-depth" | "late-move-depth" => (0.0, 8.0, 1.0),
        "futility-margin" | "quiet-prune-margin" => (10.0, 300.0, 15.0),
        "late-move-base" => (1.0, 12.0, 1.0),
        "late-move-per-ply" => (0.0, 8.0, 1.0),
        "reduction-depth" => (1.0, 8.0, 1.0),
        "reduction-base" => (0.0, 2.0, 0.15),
        _ => (0.5, 5.0, 0.2),
    }
}

/// A tuning run.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The parameters tuned; the others keep their values in `start`.
    pub tuned: Vec<Tuned>,
    /// Where the run starts: the parameters changed from the rule set's own values.
    pub start: ParamOverrides,
    /// Iterations (each a perturbation and its games).
    pub iterations: usize,
    /// Game pairs an iteration (each pair one opening, both colours).
    pub pairs: usize,
    /// Nodes a move for every player.
    pub nodes: u64,
    /// The step size's scale `a` (in steps per point of score difference).
    pub a: f64,
    /// The perturbation's scale `c` (in steps).
    pub c: f64,
    /// Spall's stability constant `A` (commonly a tenth of the iterations).
    pub stability: f64,
    /// Fixes the perturbations and the openings.
    pub seed: u64,
    /// Threads the games of an iteration are shared among (the result does not depend on it).
    pub threads: usize,
}

/// Where a run stands after an iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaReport {
    /// Iterations done.
    pub iteration: usize,
    /// The tuned parameters' current values, in the order given.
    pub theta: Vec<f64>,
    /// The last iteration's score difference, plus side's points less minus side's, over its games (-1 to 1).
    pub difference: f64,
}

/// The search parameters `theta` stands for: `start` with each tuned parameter set, whole ones rounded.
pub fn params_of(start: &ParamOverrides, tuned: &[Tuned], theta: &[f64]) -> ParamOverrides {
    let mut params = start.clone();
    for (t, &value) in tuned.iter().zip(theta) {
        let value = if SearchParams::is_whole(t.name) {
            value.round()
        } else {
            value
        };
        params.put(t.name, value);
    }
    params
}

/// A parameter's value as `name=value` takes it: whole numbers rounded.
pub fn format_value(name: &str, value: f64) -> String {
    if SearchParams::is_whole(name) {
        format!("{}", value.round() as i64)
    } else {
        format!("{value:.3}")
    }
}

/// Runs SPSA as `config` says under the rules `R` on the board of `game_type`, each game pair from a random
/// balanced opening of that board, telling `progress` after each iteration; returns the final values of the
/// tuned parameters, in the order given, each within its range.
pub fn spsa<R: Playable>(
    game_type: GameType,
    config: &SpsaConfig,
    progress: &mut dyn FnMut(&SpsaReport),
) -> Vec<f64> {
    let start = config
        .start
        .over(rule_set_params(&R::wrap(Position::<R>::start())));
    let mut theta: Vec<f64> = config
        .tuned
        .iter()
        .map(|t| start.get(t.name).unwrap_or(t.min).clamp(t.min, t.max))
        .collect();
    let mut rng = Rng::new(config.seed ^ 0x7370_7361);
    for k in 0..config.iterations {
        let kf = k as f64;
        let a_k = config.a / (kf + 1.0 + config.stability).powf(ALPHA);
        let c_k = config.c / (kf + 1.0).powf(GAMMA);
        let delta: Vec<f64> = config
            .tuned
            .iter()
            .map(|_| if rng.next_u64() & 1 == 0 { -1.0 } else { 1.0 })
            .collect();
        let shifted = |sign: f64| -> Vec<f64> {
            config
                .tuned
                .iter()
                .zip(&theta)
                .zip(&delta)
                .map(|((t, &v), &d)| (v + sign * c_k * t.step * d).clamp(t.min, t.max))
                .collect()
        };
        let plus = params_of(&config.start, &config.tuned, &shifted(1.0));
        let minus = params_of(&config.start, &config.tuned, &shifted(-1.0));
        let openings = random_openings::<R>(game_type, config.pairs, rng.next_u64());
        let starts: Vec<Game<R>> = openings
            .iter()
            .map(|o| {
                let mut game = Game::new();
                for m in &o.moves {
                    let _ = game.play(m);
                }
                game
            })
            .collect();
        let points = play_pairs(&starts, &plus, &minus, config.nodes, config.threads);
        let games = (2 * starts.len()).max(1) as f64;
        // Plus side's points less minus side's, a game's worth being 1.
        let difference = points / games;
        for ((value, t), &d) in theta.iter_mut().zip(&config.tuned).zip(&delta) {
            // The gradient estimate difference / (2 c_k step d), scaled by step² so that the move is measured
            // in steps whatever the parameter's units.
            let moved = *value + a_k * t.step * difference / (2.0 * c_k * d);
            *value = moved.clamp(t.min, t.max);
        }
        progress(&SpsaReport {
            iteration: k + 1,
            theta: theta.clone(),
            difference,
        });
    }
    theta
}

/// Plays each start twice (plus side as Black, then as White); returns the plus side's points less the minus
/// side's, summed over the games (a win 1, a draw 0, a loss -1). Games are shared among `threads`.
fn play_pairs<R: Playable>(
    starts: &[Game<R>],
    plus: &ParamOverrides,
    minus: &ParamOverrides,
    nodes: u64,
    threads: usize,
) -> f64 {
    let jobs: Vec<(usize, bool)> = (0..starts.len())
        .flat_map(|i| [(i, true), (i, false)])
        .collect();
    let threads = threads.clamp(1, jobs.len().max(1));
    let total: i64 = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let jobs = &jobs;
                scope.spawn(move || {
                    let engine = |params: &ParamOverrides| {
                        Engine::with_config(
                            EngineConfig::default()
                                .with_table_megabytes(8)
                                .with_threads(1)
                                .with_params(params.clone()),
                        )
                    };
                    let (mut p, mut m) = (engine(plus), engine(minus));
                    jobs.iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|&(i, plus_black)| {
                            let (black, white) = if plus_black {
                                (&mut p, &mut m)
                            } else {
                                (&mut m, &mut p)
                            };
                            let black_points = one_game(&starts[i], black, white, nodes);
                            if plus_black {
                                black_points
                            } else {
                                -black_points
                            }
                        })
                        .sum::<i64>()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    });
    total as f64
}

/// One game from `start`, each side searching `nodes` nodes a move from fresh tables; returns Black's points
/// less White's (1, 0 or -1).
fn one_game<R: Playable>(
    start: &Game<R>,
    black: &mut Engine,
    white: &mut Engine,
    nodes: u64,
) -> i64 {
    let mut game = start.clone();
    black.clear();
    white.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    while game.outcome().is_none() && game.len() < MAX_PLIES {
        let situation = AnySituation::from(Situation::in_game(&game));
        let engine = match game.position().side_to_move() {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let Some(mv) = engine
            .think(&situation, Level::Max, &limits, 0, &mut |_| {})
            .best
        else {
            break;
        };
        if game.play(&mv).is_err() {
            break;
        }
    }
    match game.outcome().and_then(|o| o.winner()) {
        Some(Color::Black) => 1,
        Some(Color::White) => -1,
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::{English, International, Variant};

    fn tiny(seed: u64) -> SpsaConfig {
        SpsaConfig {
            tuned: vec![
                Tuned::parse("futility-margin:40:80:15").expect("range"),
                Tuned::parse("reduction-divisor").expect("name"),
            ],
            start: ParamOverrides::default(),
            iterations: 3,
            pairs: 2,
            nodes: 300,
            a: 20.0,
            c: 1.0,
            stability: 1.0,
            seed,
            threads: 2,
        }
    }

    #[test]
    fn a_run_is_fixed_by_its_seed_and_stays_in_bounds() {
        let mut reports = Vec::new();
        let english = GameType::standard(Variant::English);
        let one = spsa::<English>(english, &tiny(5), &mut |r| reports.push(r.clone()));
        let mut single = tiny(5);
        single.threads = 1;
        assert_eq!(
            spsa::<English>(english, &single, &mut |_| {}),
            one,
            "whatever the threads"
        );
        assert_eq!(reports.len(), 3);
        assert_eq!(reports.last().map(|r| r.theta.clone()), Some(one.clone()));
        assert!((40.0..=80.0).contains(&one[0]), "{one:?}");
        assert!((0.5..=5.0).contains(&one[1]), "{one:?}");
        // A large step size moves the values: the games decided something.
        assert!(
            reports.iter().any(|r| r.difference != 0.0),
            "every iteration drawn: {reports:?}"
        );
    }

    #[test]
    fn a_run_under_other_rules_plays_their_board() {
        let international = GameType::standard(Variant::International);
        let mut config = tiny(8);
        config.iterations = 2;
        config.pairs = 1;
        let mut differences = Vec::new();
        let one = spsa::<International>(international, &config, &mut |r| {
            differences.push(r.difference)
        });
        config.threads = 1;
        assert_eq!(
            spsa::<International>(international, &config, &mut |_| {}),
            one,
            "whatever the threads"
        );
        assert_eq!(differences.len(), 2);
        assert!((40.0..=80.0).contains(&one[0]), "{one:?}");
        // A pair of games scores between -1 and 1 a game.
        assert!(
            differences.iter().all(|d| d.abs() <= 1.0),
            "{differences:?}"
        );
    }

    #[test]
    fn ranges_are_read_and_checked() {
        assert_eq!(
            Tuned::parse("futility-margin:10:90:5"),
            Ok(Tuned {
                name: "futility-margin",
                min: 10.0,
                max: 90.0,
                step: 5.0
            })
        );
        assert!(Tuned::parse("futility-margin:90:10:5").is_err());
        assert!(Tuned::parse("futility-margin:1:2").is_err());
        assert!(matches!(
            Tuned::parse("no-such"),
            Err(ParamError::Unknown(_))
        ));
        let p = params_of(
            &ParamOverrides::default(),
            &[Tuned::parse("late-move-base").expect("name")],
            &[4.6],
        );
        assert_eq!(p.over(SearchParams::default()).late_move_base, 5);
        assert_eq!(format_value("reduction-base", 0.25), "0.250");
    }
}
