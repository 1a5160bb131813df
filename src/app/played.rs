//! The rules the app plays by and the board they are played on.

/// The rule set the app plays: English draughts, until the choice of variant reaches the app. Every place that
/// assumes it names this alias or [`BOARD`], so that the compiler finds them all when it becomes a choice.
pub type PlayedRules = crate::rules::English;

/// The board of [`PlayedRules`].
pub const BOARD: crate::rules::Geometry = <PlayedRules as crate::rules::RuleSet>::GEOMETRY;
