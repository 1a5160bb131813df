//! The searcher of any rule set, chosen at run time, built from the same list of rule sets as
//! [`AnyPosition`]: the engine keeps its searchers in [`AnySearcher`] and reaches the typed one, and the code
//! generic over the rules, through [`SearcherSlot`] and [`EngineVisitor`].

use super::engine_rules::EngineRules;
use super::nnue::NetworkFamily;
use super::search::{Fast, Searcher};
use super::{EngineConfig, SearchParams};
use crowned_rules::defined::DefinedBoard;
use crowned_rules::{AnyPosition, Position, playable_rule_sets};

/// A rule set's place in [`AnySearcher`].
pub(crate) trait SearcherSlot: EngineRules {
    /// Whether `searcher` is one of this rule set.
    fn holds_searcher(searcher: &AnySearcher) -> bool;
    /// The searcher as one of any rule set.
    fn wrap_searcher(searcher: Box<Searcher<Fast<Self>>>) -> AnySearcher;
    /// The typed searcher, if `searcher` is one of this rule set.
    fn unwrap_searcher(searcher: AnySearcher) -> Option<Box<Searcher<Fast<Self>>>>;
}

/// Code generic over the rule set, run for the rule set of a position chosen at run time, with what the engine
/// needs of the rule set.
pub(crate) trait EngineVisitor {
    /// What the code gives back.
    type Output;
    /// Runs the code on the typed position.
    fn visit<R: SearcherSlot>(self, position: &Position<R>) -> Self::Output;
    /// Runs the code on a position of a defined variant, whose rules [`defined`](super::defined) gives the
    /// search.
    fn defined(self, board: &DefinedBoard) -> Self::Output;
}

macro_rules! any_searcher {
    ($($name:ident => $rules:ty),* $(,)?) => {
        /// The searcher of any of the rule sets this program plays. Boxed, as a searcher's tables are large and
        /// the engine moves its searchers in and out of their places.
        pub(crate) enum AnySearcher {
            $(#[allow(missing_docs)] $name(Box<Searcher<Fast<$rules>>>),)*
        }

        $(
            impl SearcherSlot for $rules {
                fn holds_searcher(searcher: &AnySearcher) -> bool {
                    matches!(searcher, AnySearcher::$name(_))
                }
                fn wrap_searcher(searcher: Box<Searcher<Fast<Self>>>) -> AnySearcher {
                    AnySearcher::$name(searcher)
                }
                fn unwrap_searcher(searcher: AnySearcher) -> Option<Box<Searcher<Fast<Self>>>> {
                    match searcher {
                        AnySearcher::$name(s) => Some(s),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            }
        )*

        impl AnySearcher {
            /// Follows `config` from now on ([`Searcher::configure`]).
            pub(crate) fn configure(&mut self, config: &EngineConfig) {
                match self {
                    $(AnySearcher::$name(s) => s.configure(config),)*
                }
            }

            /// Forgets what earlier searches learned ([`Searcher::clear`]).
            pub(crate) fn clear(&mut self) {
                match self {
                    $(AnySearcher::$name(s) => s.clear(),)*
                }
            }
        }

        /// Runs `visitor` on the typed position inside `position`.
        pub(crate) fn visit<V: EngineVisitor>(position: &AnyPosition, visitor: V) -> V::Output {
            match position {
                $(AnyPosition::$name(p) => visitor.visit(p),)*
                AnyPosition::Defined(board) => visitor.defined(board),
            }
        }
    };
}

playable_rule_sets!(any_searcher);

/// The search parameters of the rule set of `position` ([`EngineRules::search_params`]), so that code that
/// chooses the rules at run time (a tuner) starts from the values the engine plays with. A defined variant
/// has no parameters of its own: it gets the defaults.
pub fn rule_set_params(position: &AnyPosition) -> SearchParams {
    struct Params;
    impl EngineVisitor for Params {
        type Output = SearchParams;
        fn visit<R: SearcherSlot>(self, _: &Position<R>) -> SearchParams {
            R::search_params()
        }
        fn defined(self, _: &DefinedBoard) -> SearchParams {
            SearchParams::default()
        }
    }
    visit(position, Params)
}

/// The family of the network that evaluates positions of the rule set of `position`
/// ([`EngineRules::NETWORK`]), if it has one: which network file a tool may play that rule set with.
pub fn network_family(position: &AnyPosition) -> Option<NetworkFamily> {
    struct Family;
    impl EngineVisitor for Family {
        type Output = Option<NetworkFamily>;
        fn visit<R: SearcherSlot>(self, _: &Position<R>) -> Option<NetworkFamily> {
            R::NETWORK
        }
        fn defined(self, _: &DefinedBoard) -> Option<NetworkFamily> {
            None
        }
    }
    visit(position, Family)
}
