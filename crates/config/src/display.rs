//! The `[display]` table: how the board looks, declared once for the file, the printed settings and the command
//! line.

use super::schema::{CliFlag, Interval, Notation, Switch, Word, settings_table};
use super::values::MAX_ANIMATION_STEP;
use super::{CaptureEffect, Orientation, PieceStyle, ThemeName};
use crate::rules::SquareStyle;

settings_table! {
    /// How the board looks: the `[display]` table.
    table "display", Settings.display => DisplaySettings, DisplayFlags;

    /// Colours: classic (the 16 standard colours), wood (24-bit colour) or mono (no colour; also chosen by
    /// NO_COLOR).
    theme ("theme"): ThemeName = Word(ThemeName::Classic), CliFlag::Flag("theme", "THEME");
    /// Piece glyphs: unicode symbols, or ascii letters (b w B W) for fonts without those symbols.
    pieces ("pieces"): PieceStyle = Word(PieceStyle::Unicode), CliFlag::Preset(
        "ascii", "ascii", "Draw pieces with ASCII letters (b w B W) instead of Unicode symbols"
    );
    /// Each playable square's number in its corner, when the squares are big enough.
    square_numbers ("square-numbers"): bool = Switch, CliFlag::Preset(
        "no-numbers", "false", "Hide the square numbers inside the squares"
    );
    /// How the move list writes moves: auto (each variant as its players write it: coordinates in Russian and
    /// Brazilian, numbers elsewhere), numbers (11-15) or coordinates (c3-d4).
    notation ("notation"): Option<SquareStyle> = Notation, CliFlag::Flag("notation", "NOTATION");
    /// Which side is at the bottom: auto (Black when one person plays Black against the engine), black-bottom
    /// or white-bottom.
    orientation ("orientation"): Orientation = Word(Orientation::Auto), CliFlag::Flag("orientation", "SIDE");
    /// Marks on the squares the selected piece can move to.
    legal_moves ("legal-moves"): bool = Switch, CliFlag::Preset(
        "no-legal-moves", "false", "Do not mark the squares the selected piece can move to"
    );
    /// Seconds each step of a move is shown as the piece moves along its path; 0 shows moves at once.
    animation_step ("animation-step"): f64 = Interval(MAX_ANIMATION_STEP), CliFlag::Preset(
        "no-animation", "0", "Show moves at once instead of stepping the piece along its path"
    );
    /// What is drawn as a piece is taken: none, or explode.
    capture_effect ("capture-effect"): CaptureEffect = Word(CaptureEffect::None), CliFlag::FileOnly;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;
    use crate::schema::{flags_given, flags_help};

    fn flags(args: &[&str]) -> Result<DisplaySettings, String> {
        Ok(flags_given::<DisplayFlags>(args)?.over(Settings::defaults().display))
    }

    #[test]
    fn a_switch_that_presets_a_value_sets_it_and_leaves_the_rest_to_the_file() {
        let built_in = Settings::defaults().display;
        assert_eq!(flags(&[]), Ok(built_in.clone()));
        let set = flags(&[
            "--ascii",
            "--no-animation",
            "--no-legal-moves",
            "--theme",
            "mono",
        ])
        .expect("valid flags");
        assert_eq!(set.pieces, PieceStyle::Ascii);
        assert_eq!(set.animation_step, 0.0);
        assert!(!set.legal_moves);
        assert_eq!(set.theme, ThemeName::Mono);
        assert_eq!(set.square_numbers, built_in.square_numbers);
        assert_eq!(set.orientation, built_in.orientation);
        let error = flags(&["--notation", "roman"]).expect_err("refused");
        assert!(error.contains("or auto"), "{error}");
        let error = flags(&["--ascii=no"]).expect_err("a switch takes no value");
        assert!(error.contains("--ascii"), "{error}");
    }

    #[test]
    fn a_preset_switch_says_what_it_sets() {
        let help = flags_help::<DisplayFlags>();
        assert!(
            help.contains("[sets display.pieces to ascii, built in: unicode]"),
            "{help}"
        );
        assert!(
            help.contains("[setting display.theme, built in: classic]"),
            "{help}"
        );
        assert!(
            !help.contains("capture-effect"),
            "a file-only setting: {help}"
        );
    }
}
