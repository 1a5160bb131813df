//! The variants written as definitions that a server offers its players, besides the built-ins: Turkish (played
//! from its built-in definition) always, the definitions the operator puts in the server's variants folder, and
//! any given with `crowned serve --variant-file FILE`. Players never upload definitions: they choose among these.
//!
//! Each is known by a short word, which `ssh host new WORD` takes and the lobby's form shows beside its title:
//! the built-in's name (`turkish`), or the file's name without `.toml` (`holes` for `holes.toml`). A definition
//! that does not load is reported (file, line and problem) and left out; the server starts without it.

use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::rules::Variant;
use crate::rules::defined::{DefinedId, RegistryError, definition_only_builtins, register};
use crate::store::{LoadError, load_file, load_folder};

/// The words `ssh host new ...` reads as something other than a variant (clocks aside): a file named so is not
/// offered, as `new` could not ask for it.
pub const NEW_WORDS: &[&str] = &[
    "black", "white", "random", "either", "casual", "unrated", "rated", "public", "open", "private",
];

/// The most defined variants one server offers (a folder is read up to its own limit, and files given by name
/// count too).
pub const MAX_OFFERED: usize = 64;

/// One offered definition: the word it is asked for by, and the definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OfferedVariant {
    /// The short word (`turkish`, `holes`): lower case, no spaces.
    pub word: &'static str,
    /// The definition, loaded for play.
    pub id: DefinedId,
}

impl OfferedVariant {
    /// The variant.
    pub fn variant(self) -> Variant {
        Variant::Defined(self.id)
    }
}

/// The defined variants a server offers, in the order they are listed: the built-ins first, then the folder's
/// files in name order, then the files given one by one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offered {
    variants: Vec<OfferedVariant>,
}

/// Why a definition the operator gave is not offered.
#[derive(Debug, Error)]
pub enum OfferProblem {
    /// A built-in definition does not load (a fault of this program, not of the operator).
    #[error("the built-in definition {name} does not load: {error}")]
    Builtin {
        /// Its short name.
        name: &'static str,
        /// Why.
        error: RegistryError,
    },
    /// A file does not load: its path, line and problem.
    #[error("{0}")]
    File(#[from] LoadError),
    /// A file whose word is taken: by a variant already offered (the same word from another file, or a built-in
    /// variant's name), or by another of `new`'s words (`black`, `casual`, a clock).
    #[error(
        "{}: `{word}` names a variant offered already or is another of `new`'s words; rename the file to \
         offer it",
        .path.display()
    )]
    NameTaken {
        /// The file.
        path: PathBuf,
        /// Its word.
        word: String,
    },
    /// A definition whose name is a built-in variant's or another offered definition's: games, ratings and the
    /// lobby know a variant by its name, so two could not be told apart.
    #[error("{}: its name {name:?} is a variant's already; give it a name of its own to offer it", .path.display())]
    SameName {
        /// The file.
        path: PathBuf,
        /// The definition's name.
        name: String,
    },
    /// Past [`MAX_OFFERED`].
    #[error("{}: a server offers at most {MAX_OFFERED} defined variants", .0.display())]
    TooMany(PathBuf),
}

impl Offered {
    /// The variants offered by a server with the definitions of `folder` (when it exists) and `files`: each
    /// definition that loads, and the problems of those that do not (which are left out).
    pub fn load(folder: Option<&Path>, files: &[PathBuf]) -> (Offered, Vec<OfferProblem>) {
        let mut offered = Offered::default();
        let mut problems = Vec::new();
        // The built-ins with no fast generator (Turkish).
        for (name, text) in definition_only_builtins() {
            match register(text) {
                Ok(id) => offered.variants.push(OfferedVariant { word: name, id }),
                Err(error) => problems.push(OfferProblem::Builtin { name, error }),
            }
        }
        let mut loaded = Vec::new();
        if let Some(folder) = folder {
            let (found, bad) = load_folder(folder);
            loaded.extend(found.into_iter().map(Ok));
            problems.extend(bad.into_iter().map(OfferProblem::File));
        }
        for file in files {
            loaded.push(load_file(file).map(|id| (file.clone(), id)));
        }
        for result in loaded {
            match result {
                Ok((path, id)) => {
                    if let Err(problem) = offered.add(&path, id) {
                        problems.push(problem);
                    }
                }
                Err(e) => problems.push(OfferProblem::File(e)),
            }
        }
        (offered, problems)
    }

    /// Offers the definition `id` read from `path`, by the file's name; the same definition twice is offered
    /// once.
    fn add(&mut self, path: &Path, id: DefinedId) -> Result<(), OfferProblem> {
        if self.variants.iter().any(|v| v.id == id) {
            return Ok(());
        }
        let word = word_of(path);
        let taken = word.is_empty()
            || NEW_WORDS.contains(&word.as_str())
            || word.parse::<crate::game::TimeControl>().is_ok()
            || word.parse::<Variant>().is_ok()
            || self.find(&word).is_some();
        if taken {
            return Err(OfferProblem::NameTaken {
                path: path.to_path_buf(),
                word,
            });
        }
        let name = &id.get().rules.name;
        let same_name = name.parse::<Variant>().is_ok()
            || self
                .variants
                .iter()
                .any(|v| v.id.get().rules.name.eq_ignore_ascii_case(name));
        if same_name {
            return Err(OfferProblem::SameName {
                path: path.to_path_buf(),
                name: name.clone(),
            });
        }
        if self.variants.len() >= MAX_OFFERED {
            return Err(OfferProblem::TooMany(path.to_path_buf()));
        }
        // Offered for the life of the server, like the definition itself (the registry keeps it too).
        let word: &'static str = Box::leak(word.into_boxed_str());
        self.variants.push(OfferedVariant { word, id });
        Ok(())
    }

    /// Every offered definition, in order.
    pub fn all(&self) -> &[OfferedVariant] {
        &self.variants
    }

    /// The offered variants, in order.
    pub fn variants(&self) -> Vec<Variant> {
        self.variants.iter().map(|v| v.variant()).collect()
    }

    /// The offered definition a player's word names: its short word, or its name with spaces written as dashes
    /// (`english-draughts-with-holes`), in any case.
    pub fn find(&self, word: &str) -> Option<OfferedVariant> {
        let word = word.trim().to_lowercase();
        self.variants.iter().copied().find(|v| {
            v.word == word || v.id.get().rules.name.to_lowercase().replace(' ', "-") == word
        })
    }

    /// The offered definition of `variant`, when it is one.
    pub fn of(&self, variant: Variant) -> Option<OfferedVariant> {
        self.variants
            .iter()
            .copied()
            .find(|v| v.variant() == variant)
    }

    /// Every variant a player may ask for, by its word: the built-ins, then these.
    pub fn words(&self) -> Vec<&'static str> {
        let mut words = Variant::names();
        words.extend(self.variants.iter().map(|v| v.word));
        words
    }
}

impl fmt::Display for OfferedVariant {
    /// `holes (English draughts with holes)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.word, self.id.get().rules.name)
    }
}

/// A file's word: its name without `.toml`, in lower case, spaces made dashes.
fn word_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().trim().to_lowercase().replace(' ', "-"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("crowned-offered-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir
    }

    const HOLES: &str = include_str!("../../../../variants/holes.toml");
    const LEAPERS: &str = include_str!("../../../../variants/leapers.toml");

    #[test]
    fn turkish_the_folder_and_the_files_are_offered_and_bad_files_reported() {
        let dir = temp_dir("folder");
        std::fs::write(dir.join("holes.toml"), HOLES).expect("written");
        std::fs::write(
            dir.join("broken.toml"),
            HOLES.replace("width = 6", "widht = 6"),
        )
        .expect("written");
        std::fs::write(dir.join("english.toml"), LEAPERS).expect("written");
        std::fs::write(dir.join("casual.toml"), LEAPERS).expect("written");
        // Known by a built-in's name, and by Holes' name: neither could be told apart from the other.
        std::fs::write(
            dir.join("fake.toml"),
            LEAPERS.replace("name = \"Leapers\"", "name = \"Russian\""),
        )
        .expect("written");
        std::fs::write(
            dir.join("twin.toml"),
            HOLES.replace("quiet_moves = 40", "quiet_moves = 30"),
        )
        .expect("written");
        let extra = temp_dir("extra").join("Leapers.toml");
        std::fs::write(
            &extra,
            LEAPERS.replace("name = \"Leapers\"", "name = \"Frogs\""),
        )
        .expect("written");
        let (offered, problems) =
            Offered::load(Some(&dir), &[extra.clone(), dir.join("holes.toml")]);
        let words: Vec<&str> = offered.all().iter().map(|v| v.word).collect();
        // Turkish while it is played from its definition; never the English rules on other boards.
        let builtins: Vec<&str> = definition_only_builtins().map(|(name, _)| name).collect();
        assert!(builtins.iter().all(|name| !name.starts_with("english-")));
        assert_eq!(words, [builtins.clone(), vec!["holes", "leapers"]].concat());
        let holes = offered.all()[builtins.len()];
        assert_eq!(offered.find("HOLES"), Some(holes));
        assert_eq!(offered.find("english-draughts-with-holes"), Some(holes));
        assert_eq!(offered.find("frogs").map(|v| v.word), Some("leapers"));
        assert_eq!(offered.find("english"), None);
        assert!(offered.words().contains(&"holes") && offered.words().contains(&"english"));
        let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(problems.len(), 5, "{problems:?}");
        let line = HOLES
            .lines()
            .position(|l| l.contains("width = 6"))
            .expect("there")
            + 1;
        assert!(
            problems[0].contains(&format!("broken.toml:{line}:")) && problems[0].contains("widht"),
            "{problems:?}"
        );
        assert!(
            problems[1].contains("casual.toml") && problems[1].contains("another of `new`'s words"),
            "{problems:?}"
        );
        assert!(
            problems[2].contains("english.toml") && problems[2].contains("offered already"),
            "{problems:?}"
        );
        assert!(
            problems[3].contains("fake.toml") && problems[3].contains("\"Russian\" is a variant's"),
            "{problems:?}"
        );
        assert!(
            problems[4].contains("twin.toml") && problems[4].contains("a name of its own"),
            "{problems:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_dir_all(extra.parent().expect("a folder"));
    }
}
