//! The settings in effect, for the game and the server: the built-in defaults, the user's file, the command line.

use std::process::ExitCode;

use anyhow::Result;
use crowned::config::{Overrides, Settings, SettingsError};
use crowned::store::{Store, StoreError};

/// The settings in effect: the user's file over the defaults (or the defaults alone, with the reason, when the
/// file cannot be used), then the command line. Also the place for files, which the game needs too.
pub fn load(overrides: &Overrides) -> (Settings, Result<Store, StoreError>, Option<SettingsError>) {
    let store = Store::locate();
    // Without a home directory there is no settings file: the defaults, and the game says files are not saved.
    let (mut settings, problem) = match &store {
        Ok(store) => Settings::load_or_defaults(&store.settings_file()),
        Err(_) => (Settings::defaults(), None),
    };
    settings.override_with(overrides);
    (settings, store, problem)
}

/// `crowned --print-config`: the settings in effect as a settings file, after a comment saying where they come
/// from.
pub fn print(overrides: &Overrides) -> Result<ExitCode> {
    let (settings, store, problem) = load(overrides);
    if let Some(problem) = &problem {
        eprintln!("crowned: {problem}; the default settings are used");
    }
    let file = match &store {
        // A broken file is not used at all.
        Ok(store) if problem.is_some() => {
            format!("not {} (it has a mistake)", store.settings_file().display())
        }
        Ok(store) => store.settings_file().display().to_string(),
        Err(_) => "no settings file (there is no home directory)".to_string(),
    };
    println!(
        "# The settings in effect: the built-in defaults, then {file}, then the command line."
    );
    print!("{}", settings.to_toml());
    Ok(ExitCode::SUCCESS)
}
