//! The numbers that shape the full search: its window, pruning margins and reductions, gathered in one value so
//! that a match can compare two settings of one of them without editing the search.

use std::str::FromStr;

use thiserror::Error;

/// The search's margins and reductions. [`SearchParams::default`] holds the values the engine plays with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// The first iteration searched in a window around the previous score rather than a full one.
    pub aspiration_depth: i32,
    /// Half the width of that window, in hundredths of a man.
    pub aspiration_window: i32,
    /// How far a bound of the window moves when the score falls outside it.
    pub aspiration_widen: i32,
    /// The deepest node whose static score may cut it off at once, far enough above beta.
    pub futility_depth: i32,
    /// How far above beta, per ply of depth left, the static score must be for that.
    pub futility_margin: i32,
    /// The deepest node whose quiet moves may be skipped when the static score is far below alpha.
    pub quiet_prune_depth: i32,
    /// How far below alpha, per ply of depth left, the static score must be for that.
    pub quiet_prune_margin: i32,
    /// The deepest node whose late quiet moves are skipped outside the principal variation.
    pub late_move_depth: i32,
    /// Quiet moves tried before late ones are skipped there, at any depth.
    pub late_move_base: usize,
    /// Further quiet moves tried for each ply of depth left.
    pub late_move_per_ply: usize,
    /// The shallowest node whose late quiet moves are searched less deeply first.
    pub reduction_depth: i32,
    /// The reduction's constant part, in plies: `base + ln(depth) * ln(move number) / divisor`, rounded down.
    pub reduction_base: f32,
    /// The reduction's divisor of the product of the logarithms.
    pub reduction_divisor: f32,
    /// How far the static score is below alpha, in hundredths of a man, for each further ply a late quiet move
    /// is reduced; a static score above alpha takes one ply off the reduction instead (0: the static score
    /// does not change reductions).
    pub eval_reduction_margin: i32,
    /// The most plies the static score adds to a reduction.
    pub eval_reduction_max: i32,
    /// The shallowest node whose hash move may be extended as singular (0: never).
    pub singular_depth: i32,
    /// How far below the hash move's stored score every other move must fail, in hundredths of a man, for the
    /// hash move to be singular.
    pub singular_margin: i32,
    /// Whether a capture the side to move is forced to make costs no depth, in lines shorter than twice the
    /// iteration's depth (set by name as 1 or 0).
    pub capture_extension: bool,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            aspiration_depth: 5,
            aspiration_window: 40,
            aspiration_widen: 200,
            futility_depth: 4,
            futility_margin: 60,
            quiet_prune_depth: 3,
            quiet_prune_margin: 90,
            late_move_depth: 3,
            late_move_base: 3,
            late_move_per_ply: 2,
            reduction_depth: 3,
            reduction_base: 0.5,
            reduction_divisor: 1.6,
            // Off: -4 Elo (95%: -20 to +11) after 408 games at 0.05 s a move, going nowhere.
            eval_reduction_margin: 0,
            eval_reduction_max: 2,
            // Measured at 0.05 s a move over the ballot deck: +20 Elo (95%: +6 to +34), SPRT(0, 10) accepted.
            singular_depth: 6,
            singular_margin: 30,
            capture_extension: false,
        }
    }
}

/// Why a search parameter cannot be set as asked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParamError {
    /// No parameter has that name.
    #[error("there is no search parameter called {0:?} (there are {names})", names = SearchParams::NAMES.join(", "))]
    Unknown(String),
    /// The value is not a number of the parameter's kind.
    #[error("{name} is {kind}, not {value:?}")]
    BadValue {
        /// The parameter.
        name: &'static str,
        /// What it takes.
        kind: &'static str,
        /// The value given.
        value: String,
    },
    /// Not written `name=value`.
    #[error("a search parameter is set as name=value (futility-margin=70), not {0:?}")]
    NotAnAssignment(String),
}

/// The parameter called `name`, with the name as [`SearchParams::NAMES`] holds it.
fn known(name: &str) -> Result<&'static str, ParamError> {
    SearchParams::NAMES
        .iter()
        .find(|&&n| n == name)
        .copied()
        .ok_or_else(|| ParamError::Unknown(name.to_string()))
}

/// Reads `value` as the number `name` takes, described as `kind` when it is not one.
fn number<T: FromStr>(
    name: &'static str,
    kind: &'static str,
    value: &str,
) -> Result<T, ParamError> {
    value.trim().parse().map_err(|_| ParamError::BadValue {
        name,
        kind,
        value: value.to_string(),
    })
}

/// Reads `value` as a switch: 1 or 0 (as a tuner writes a whole number), or true or false.
fn flag(name: &'static str, kind: &'static str, value: &str) -> Result<bool, ParamError> {
    match value.trim() {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(ParamError::BadValue {
            name,
            kind,
            value: value.to_string(),
        }),
    }
}

impl SearchParams {
    /// The parameters' names, as [`SearchParams::set`] takes them.
    pub const NAMES: [&'static str; 18] = [
        "aspiration-depth",
        "aspiration-window",
        "aspiration-widen",
        "futility-depth",
        "futility-margin",
        "quiet-prune-depth",
        "quiet-prune-margin",
        "late-move-depth",
        "late-move-base",
        "late-move-per-ply",
        "reduction-depth",
        "reduction-base",
        "reduction-divisor",
        "eval-reduction-margin",
        "eval-reduction-max",
        "singular-depth",
        "singular-margin",
        "capture-extension",
    ];

    /// Sets the parameter `name` to `value`, so that a match can set one from outside (`crowned hub --param`,
    /// the Hub protocol's `set-param`) and compare two values without an edit of the search.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        const WHOLE: &str = "a whole number";
        const COUNT: &str = "a whole number from 0";
        const REAL: &str = "a number";
        const FLAG: &str = "0 or 1";
        let name = known(name)?;
        match name {
            "aspiration-depth" => self.aspiration_depth = number(name, WHOLE, value)?,
            "aspiration-window" => self.aspiration_window = number(name, WHOLE, value)?,
            "aspiration-widen" => self.aspiration_widen = number(name, WHOLE, value)?,
            "futility-depth" => self.futility_depth = number(name, WHOLE, value)?,
            "futility-margin" => self.futility_margin = number(name, WHOLE, value)?,
            "quiet-prune-depth" => self.quiet_prune_depth = number(name, WHOLE, value)?,
            "quiet-prune-margin" => self.quiet_prune_margin = number(name, WHOLE, value)?,
            "late-move-depth" => self.late_move_depth = number(name, WHOLE, value)?,
            "late-move-base" => self.late_move_base = number(name, COUNT, value)?,
            "late-move-per-ply" => self.late_move_per_ply = number(name, COUNT, value)?,
            "reduction-depth" => self.reduction_depth = number(name, WHOLE, value)?,
            "reduction-base" => self.reduction_base = number(name, REAL, value)?,
            "reduction-divisor" => self.reduction_divisor = number(name, REAL, value)?,
            "eval-reduction-margin" => {
                self.eval_reduction_margin = i32::from(number::<u16>(name, COUNT, value)?)
            }
            "eval-reduction-max" => {
                self.eval_reduction_max = i32::from(number::<u16>(name, COUNT, value)?)
            }
            "singular-depth" => self.singular_depth = i32::from(number::<u16>(name, COUNT, value)?),
            "singular-margin" => self.singular_margin = number(name, WHOLE, value)?,
            _ => self.capture_extension = flag(name, FLAG, value)?,
        }
        Ok(())
    }

    /// The value of the parameter `name` as a number (whole ones too), `None` if there is no such parameter.
    pub fn get(&self, name: &str) -> Option<f64> {
        Some(match name {
            "aspiration-depth" => f64::from(self.aspiration_depth),
            "aspiration-window" => f64::from(self.aspiration_window),
            "aspiration-widen" => f64::from(self.aspiration_widen),
            "futility-depth" => f64::from(self.futility_depth),
            "futility-margin" => f64::from(self.futility_margin),
            "quiet-prune-depth" => f64::from(self.quiet_prune_depth),
            "quiet-prune-margin" => f64::from(self.quiet_prune_margin),
            "late-move-depth" => f64::from(self.late_move_depth),
            "late-move-base" => self.late_move_base as f64,
            "late-move-per-ply" => self.late_move_per_ply as f64,
            "reduction-depth" => f64::from(self.reduction_depth),
            "reduction-base" => f64::from(self.reduction_base),
            "reduction-divisor" => f64::from(self.reduction_divisor),
            "eval-reduction-margin" => f64::from(self.eval_reduction_margin),
            "eval-reduction-max" => f64::from(self.eval_reduction_max),
            "singular-depth" => f64::from(self.singular_depth),
            "singular-margin" => f64::from(self.singular_margin),
            "capture-extension" => f64::from(u8::from(self.capture_extension)),
            _ => return None,
        })
    }

    /// Sets the parameter `name` to `value`, as [`SearchParams::get`] gives it: whole parameters take the
    /// number rounded, switches are on for any value but 0. A name that is no parameter changes nothing.
    pub fn put(&mut self, name: &str, value: f64) {
        // `as` saturates, so a value beyond a parameter's type becomes its largest or smallest.
        let whole = value.round() as i32;
        let count = value.round().max(0.0) as usize;
        match name {
            "aspiration-depth" => self.aspiration_depth = whole,
            "aspiration-window" => self.aspiration_window = whole,
            "aspiration-widen" => self.aspiration_widen = whole,
            "futility-depth" => self.futility_depth = whole,
            "futility-margin" => self.futility_margin = whole,
            "quiet-prune-depth" => self.quiet_prune_depth = whole,
            "quiet-prune-margin" => self.quiet_prune_margin = whole,
            "late-move-depth" => self.late_move_depth = whole,
            "late-move-base" => self.late_move_base = count,
            "late-move-per-ply" => self.late_move_per_ply = count,
            "reduction-depth" => self.reduction_depth = whole,
            "reduction-base" => self.reduction_base = value as f32,
            "reduction-divisor" => self.reduction_divisor = value as f32,
            "eval-reduction-margin" => self.eval_reduction_margin = whole.max(0),
            "eval-reduction-max" => self.eval_reduction_max = whole.max(0),
            "singular-depth" => self.singular_depth = whole.max(0),
            "singular-margin" => self.singular_margin = whole,
            "capture-extension" => self.capture_extension = value != 0.0,
            _ => {}
        }
    }

    /// Whether the parameter `name` takes whole numbers only.
    pub fn is_whole(name: &str) -> bool {
        !matches!(name, "reduction-base" | "reduction-divisor")
    }
}

/// Search parameters chosen from outside the engine (`crowned hub --param`, the Hub protocol's `set-param`, a
/// tuner), each laid over the values of the rule set searched ([`super::EngineRules::search_params`]) when a
/// search is set up: setting one parameter changes that one and keeps every rule set's own tuning of the others.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamOverrides {
    /// Each parameter set, once, with its value as [`SearchParams::get`] gives it, in the order first set.
    values: Vec<(&'static str, f64)>,
}

impl ParamOverrides {
    /// Sets the parameter `name` to `value`, refusing a name that is no parameter and a value it cannot take.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let name = known(name)?;
        // Read by the parameter's own rules, so that the value is refused here rather than at a search.
        let mut read = SearchParams::default();
        read.set(name, value)?;
        if let Some(number) = read.get(name) {
            self.put(name, number);
        }
        Ok(())
    }

    /// Sets a parameter written `name=value`.
    pub fn assign(&mut self, assignment: &str) -> Result<(), ParamError> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| ParamError::NotAnAssignment(assignment.to_string()))?;
        self.set(name.trim(), value)
    }

    /// Sets the parameter `name` (one of [`SearchParams::NAMES`]) to the number `value`, as
    /// [`SearchParams::put`] takes it.
    pub fn put(&mut self, name: &'static str, value: f64) {
        match self.values.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => *v = value,
            None => self.values.push((name, value)),
        }
    }

    /// `base` with every parameter set here changed.
    pub fn over(&self, mut base: SearchParams) -> SearchParams {
        for &(name, value) in &self.values {
            base.put(name, value);
        }
        base
    }

    /// Whether no parameter is set.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

impl From<SearchParams> for ParamOverrides {
    /// Every parameter set to its value in `params`, whatever the rule set's own.
    fn from(params: SearchParams) -> ParamOverrides {
        let mut overrides = ParamOverrides::default();
        for name in SearchParams::NAMES {
            if let Some(value) = params.get(name) {
                overrides.put(name, value);
            }
        }
        overrides
    }
}

/// The depths and move numbers a reduction is looked up by (beyond, the last row or column serves).
const REDUCTION_INDEX: usize = 64;

/// Plies to take off a late quiet move, by depth and move number, computed once from the parameters: more for
/// later moves and deeper searches (it grows with the logarithms of both).
#[derive(Clone)]
pub(crate) struct Reductions(Box<[[u8; REDUCTION_INDEX]; REDUCTION_INDEX]>);

impl Reductions {
    /// The table of `params`.
    pub(crate) fn new(params: &SearchParams) -> Reductions {
        let mut table = Box::new([[0u8; REDUCTION_INDEX]; REDUCTION_INDEX]);
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate() {
                let value = params.reduction_base
                    + (d as f32).ln() * (i as f32 + 1.0).ln() / params.reduction_divisor;
                // `as` saturates: a negative value is no reduction, a huge one the most a byte holds.
                *r = value as u8;
            }
        }
        Reductions(table)
    }

    /// The reduction at `depth` for the move at `index` in the order tried.
    #[inline]
    pub(crate) fn get(&self, depth: i32, index: usize) -> i32 {
        let d = (depth.max(0) as usize).min(REDUCTION_INDEX - 1);
        i32::from(self.0[d][index.min(REDUCTION_INDEX - 1)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_reductions_grow_with_depth_and_move_number() {
        let table = Reductions::new(&SearchParams::default());
        assert_eq!(table.get(1, 10), 0);
        assert_eq!(table.get(3, 1), 0);
        assert!(table.get(8, 10) > table.get(4, 10));
        assert!(table.get(8, 20) >= table.get(8, 10));
        assert_eq!(table.get(200, 200), table.get(63, 63));
    }

    #[test]
    fn every_parameter_is_set_by_its_name_and_a_bad_one_says_why() {
        for name in SearchParams::NAMES {
            let mut params = SearchParams::default();
            let value = if name == "capture-extension" {
                "1"
            } else {
                "7"
            };
            params.set(name, value).expect("a number");
            assert_ne!(params, SearchParams::default(), "{name} changes nothing");
        }
        let mut params = SearchParams::default();
        params.set("futility-margin", " 70").expect("a number");
        assert_eq!(params.futility_margin, 70);
        params.set("reduction-divisor", "1.75").expect("a real");
        assert_eq!(params.reduction_divisor, 1.75);
        assert!(matches!(
            params.set("futility-margins", "70"),
            Err(ParamError::Unknown(name)) if name == "futility-margins"
        ));
        assert!(matches!(
            params.set("late-move-base", "-1"),
            Err(ParamError::BadValue {
                name: "late-move-base",
                ..
            })
        ));
        assert_eq!(
            params.futility_margin, 70,
            "a refused value changes nothing"
        );
        assert!(matches!(
            params.set("capture-extension", "2"),
            Err(ParamError::BadValue {
                name: "capture-extension",
                ..
            })
        ));
        params.set("capture-extension", "1").expect("a switch");
        assert!(params.capture_extension);
        assert_eq!(params.get("capture-extension"), Some(1.0));
        // Whatever the values, the reductions are made without a panic.
        params.set("reduction-divisor", "0").expect("a real");
        params.set("reduction-base", "-1e30").expect("a real");
        let _ = Reductions::new(&params);
    }

    #[test]
    fn every_parameter_put_as_it_is_got_is_the_same() {
        let mut changed = SearchParams::default();
        for name in SearchParams::NAMES {
            let value = if name == "capture-extension" {
                "1"
            } else {
                "5"
            };
            changed.set(name, value).expect("a number");
        }
        let mut copy = SearchParams::default();
        for name in SearchParams::NAMES {
            copy.put(name, changed.get(name).expect("a parameter"));
        }
        assert_eq!(copy, changed);
    }

    #[test]
    fn overrides_change_what_they_set_and_keep_the_rule_sets_other_values() {
        let base = SearchParams {
            futility_margin: 54,
            reduction_divisor: 1.725,
            ..SearchParams::default()
        };
        let mut overrides = ParamOverrides::default();
        assert!(overrides.is_empty());
        assert_eq!(overrides.over(base), base, "nothing set changes nothing");
        overrides.assign("quiet-prune-margin=94").expect("a number");
        overrides.set("reduction-base", "0.479").expect("a real");
        overrides
            .set("quiet-prune-margin", "95")
            .expect("set again");
        let params = overrides.over(base);
        assert_eq!(params.quiet_prune_margin, 95, "the last value set holds");
        assert_eq!(params.reduction_base, 0.479);
        assert_eq!(params.futility_margin, 54, "the rule set's own value stays");
        assert_eq!(params.reduction_divisor, 1.725);
        // A refused name or value is not kept.
        assert!(matches!(
            overrides.assign("futility-margins=1"),
            Err(ParamError::Unknown(_))
        ));
        assert!(matches!(
            overrides.set("singular-depth", "-2"),
            Err(ParamError::BadValue { .. })
        ));
        assert!(matches!(
            overrides.assign("late-move-base"),
            Err(ParamError::NotAnAssignment(_))
        ));
        assert_eq!(overrides.over(base), params);
        // A whole set stands in for any rule set's values.
        assert_eq!(ParamOverrides::from(base).over(params), base);
    }
}
