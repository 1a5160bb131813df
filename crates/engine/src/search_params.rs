//! The numbers that shape the full search: its window, pruning margins and reductions, gathered in one value so
//! that a match can compare two settings of one of them without editing the search.

use thiserror::Error;

/// How a parameter's values are read from text (`--param`, `set-param`) and carried as a number (a tuner's).
trait ParamKind {
    /// The value the search uses.
    type Value: Copy;
    /// What the parameter takes, as a message says it.
    const KIND: &'static str;
    /// Whether it takes whole numbers only.
    const WHOLE: bool = true;
    /// The value written `text`, if it is one.
    fn read(text: &str) -> Option<Self::Value>;
    /// The value as a number.
    fn number(value: Self::Value) -> f64;
    /// The value nearest to `number` that the parameter can hold.
    fn from_number(number: f64) -> Self::Value;
}

/// Any whole number.
struct Whole;

impl ParamKind for Whole {
    type Value = i32;
    const KIND: &'static str = "a whole number";

    fn read(text: &str) -> Option<i32> {
        text.parse().ok()
    }

    fn number(value: i32) -> f64 {
        f64::from(value)
    }

    fn from_number(number: f64) -> i32 {
        // `as` saturates, so a value beyond the type becomes its largest or smallest.
        number.round() as i32
    }
}

/// A whole number from 0, held as the search's `i32`.
struct Natural;

impl ParamKind for Natural {
    type Value = i32;
    const KIND: &'static str = "a whole number from 0";

    fn read(text: &str) -> Option<i32> {
        text.parse::<u16>().ok().map(i32::from)
    }

    fn number(value: i32) -> f64 {
        f64::from(value)
    }

    fn from_number(number: f64) -> i32 {
        (number.round() as i32).max(0)
    }
}

/// A count of moves.
struct Count;

impl ParamKind for Count {
    type Value = usize;
    const KIND: &'static str = "a whole number from 0";

    fn read(text: &str) -> Option<usize> {
        text.parse().ok()
    }

    fn number(value: usize) -> f64 {
        value as f64
    }

    fn from_number(number: f64) -> usize {
        number.round().max(0.0) as usize
    }
}

/// Any number.
struct Real;

impl ParamKind for Real {
    type Value = f32;
    const KIND: &'static str = "a number";
    const WHOLE: bool = false;

    fn read(text: &str) -> Option<f32> {
        text.parse().ok()
    }

    fn number(value: f32) -> f64 {
        f64::from(value)
    }

    fn from_number(number: f64) -> f32 {
        number as f32
    }
}

/// On or off: 1 or 0 (as a tuner writes a whole number), or true or false.
struct Flag;

impl ParamKind for Flag {
    type Value = bool;
    const KIND: &'static str = "0 or 1";

    fn read(text: &str) -> Option<bool> {
        match text {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        }
    }

    fn number(value: bool) -> f64 {
        f64::from(u8::from(value))
    }

    fn from_number(number: f64) -> bool {
        number != 0.0
    }
}

/// Reads `value` as the parameter `name` of kind `K` takes it.
fn read<K: ParamKind>(name: &'static str, value: &str) -> Result<K::Value, ParamError> {
    K::read(value.trim()).ok_or_else(|| ParamError::BadValue {
        name,
        kind: K::KIND,
        value: value.to_string(),
    })
}

/// One, whatever it is given: counts the parameters.
macro_rules! one {
    ($x:ident) => {
        1
    };
}

/// Declares the search's parameters once: each one's documentation, field, name, type, kind and the value the
/// engine plays with; the struct, its default, its names and setting a parameter by name (from text or from a
/// number) are made from the list.
macro_rules! search_params {
    (
        $(
            $(#[doc = $doc:literal])*
            $field:ident ($name:literal): $ty:ty as $kind:ty = $default:expr;
        )*
    ) => {
        /// The search's margins and reductions. [`SearchParams::default`] holds the values the engine plays with.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct SearchParams {
            $(
                $(#[doc = $doc])*
                pub $field: $ty,
            )*
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams {
                    $($field: $default,)*
                }
            }
        }

        impl SearchParams {
            /// The parameters' names, as [`SearchParams::set`] takes them.
            pub const NAMES: [&'static str; 0 $(+ one!($field))*] = [$($name),*];

            /// Sets the parameter `name` to `value`, so that a match can set one from outside (`crowned hub
            /// --param`, the Hub protocol's `set-param`) and compare two values without an edit of the search.
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
                match name {
                    $($name => self.$field = read::<$kind>($name, value)?,)*
                    _ => return Err(ParamError::Unknown(name.to_string())),
                }
                Ok(())
            }

            /// The value of the parameter `name` as a number (whole ones too, switches as 1 or 0), `None` if
            /// there is no such parameter.
            pub fn get(&self, name: &str) -> Option<f64> {
                match name {
                    $($name => Some(<$kind as ParamKind>::number(self.$field)),)*
                    _ => None,
                }
            }

            /// Sets the parameter `name` to `value`, as [`SearchParams::get`] gives it: whole parameters take
            /// the number rounded (saturating at their type's ends, at 0 for those from 0), switches are on for
            /// any value but 0. A name that is no parameter changes nothing.
            pub fn put(&mut self, name: &str, value: f64) {
                match name {
                    $($name => self.$field = <$kind as ParamKind>::from_number(value),)*
                    _ => {}
                }
            }

            /// Whether the parameter `name` takes whole numbers only.
            pub fn is_whole(name: &str) -> bool {
                match name {
                    $($name => <$kind as ParamKind>::WHOLE,)*
                    _ => true,
                }
            }
        }
    };
}

search_params! {
    /// The first iteration searched in a window around the previous score rather than a full one.
    aspiration_depth ("aspiration-depth"): i32 as Whole = 5;
    /// Half the width of that window, in hundredths of a man.
    aspiration_window ("aspiration-window"): i32 as Whole = 40;
    /// How far a bound of the window moves when the score falls outside it.
    aspiration_widen ("aspiration-widen"): i32 as Whole = 200;
    /// The deepest node whose static score may cut it off at once, far enough above beta.
    futility_depth ("futility-depth"): i32 as Whole = 4;
    /// How far above beta, per ply of depth left, the static score must be for that.
    futility_margin ("futility-margin"): i32 as Whole = 60;
    /// The deepest node whose quiet moves may be skipped when the static score is far below alpha.
    quiet_prune_depth ("quiet-prune-depth"): i32 as Whole = 3;
    /// How far below alpha, per ply of depth left, the static score must be for that.
    quiet_prune_margin ("quiet-prune-margin"): i32 as Whole = 90;
    /// The deepest node whose late quiet moves are skipped outside the principal variation.
    late_move_depth ("late-move-depth"): i32 as Whole = 3;
    /// Quiet moves tried before late ones are skipped there, at any depth.
    late_move_base ("late-move-base"): usize as Count = 3;
    /// Further quiet moves tried for each ply of depth left.
    late_move_per_ply ("late-move-per-ply"): usize as Count = 2;
    /// The shallowest node whose late quiet moves are searched less deeply first.
    reduction_depth ("reduction-depth"): i32 as Whole = 3;
    /// The reduction's constant part, in plies: `base + ln(depth) * ln(move number) / divisor`, rounded down.
    reduction_base ("reduction-base"): f32 as Real = 0.5;
    /// The reduction's divisor of the product of the logarithms.
    reduction_divisor ("reduction-divisor"): f32 as Real = 1.6;
    /// How far the static score is below alpha, in hundredths of a man, for each further ply a late quiet move
    /// is reduced; a static score above alpha takes one ply off the reduction instead (0: the static score
    /// does not change reductions).
    // Off: -4 Elo (95%: -20 to +11) after 408 games at 0.05 s a move, going nowhere.
    eval_reduction_margin ("eval-reduction-margin"): i32 as Natural = 0;
    /// The most plies the static score adds to a reduction.
    eval_reduction_max ("eval-reduction-max"): i32 as Natural = 2;
    /// The shallowest node whose hash move may be extended as singular (0: never).
    // Measured at 0.05 s a move over the ballot deck: +20 Elo (95%: +6 to +34), SPRT(0, 10) accepted.
    singular_depth ("singular-depth"): i32 as Natural = 6;
    /// How far below the hash move's stored score every other move must fail, in hundredths of a man, for the
    /// hash move to be singular.
    singular_margin ("singular-margin"): i32 as Whole = 30;
    /// Whether a capture the side to move is forced to make costs no depth, in lines shorter than twice the
    /// iteration's depth (set by name as 1 or 0).
    capture_extension ("capture-extension"): bool as Flag = false;
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
