//! Variant definitions in files: one read and loaded for play, or every `.toml` file of a folder, each problem
//! named by file and line. The rules read a definition's text; reading files, bounded, is the store's work.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use crowned_rules::defined::{
    DefinedId, DefinitionError, MAX_DEFINITION_BYTES, RegistryError, load_builtin, register,
};

/// The most definition files read from one folder.
pub const MAX_FOLDER_FILES: usize = 64;

/// A definition file that could not be loaded: the file, the line when it is known, and what is wrong.
#[derive(Debug)]
pub struct LoadError {
    /// The file.
    pub path: PathBuf,
    /// The 1-based line the problem is on, when it can be told.
    pub line: Option<usize>,
    /// What is wrong.
    pub problem: LoadProblem,
}

/// What keeps a definition file from loading.
#[derive(Debug, thiserror::Error)]
pub enum LoadProblem {
    /// It cannot be read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// It is not a definition that can be played.
    #[error(transparent)]
    Registry(#[from] RegistryError),
}

/// The problem is written in the message (`file:line: problem`), so it is not given again as the error's
/// source: a chain printed whole (`crowned: ...`) says it once.
impl std::error::Error for LoadError {}

impl fmt::Display for LoadError {
    /// `file:line: problem`, as compilers write it, so that editors can jump there.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        match &self.problem {
            // The reader's message has the line in front already; it is given above.
            LoadProblem::Registry(RegistryError::Definition(DefinitionError::Syntax {
                message,
                ..
            })) => write!(f, ": {message}"),
            other => write!(f, ": {other}"),
        }
    }
}

/// Reads a definition file and loads it for play.
pub fn load_file(path: &Path) -> Result<DefinedId, LoadError> {
    let fail = |line, problem| LoadError {
        path: path.to_path_buf(),
        line,
        problem,
    };
    // Only a regular file, and no more than one definition's worth of it: a device (`/dev/zero`) or a huge
    // file is refused without being read through.
    let text = crate::bounded::read_text_bounded(path, MAX_DEFINITION_BYTES as u64)
        .map_err(|e| fail(None, e.into()))?;
    register(&text).map_err(|e| {
        let line = match &e {
            RegistryError::Definition(d) => line_of(d, &text),
            _ => None,
        };
        fail(line, e.into())
    })
}

/// Every `.toml` file of a folder, in name order, loaded: those that load, and the problems of the others. A
/// folder that does not exist holds none; at most [`MAX_FOLDER_FILES`] files are read.
pub fn load_folder(dir: &Path) -> (Vec<(PathBuf, DefinedId)>, Vec<LoadError>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return (Vec::new(), Vec::new());
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .collect();
    paths.sort();
    paths.truncate(MAX_FOLDER_FILES);
    let (mut loaded, mut problems) = (Vec::new(), Vec::new());
    for path in paths {
        match load_file(&path) {
            Ok(id) => loaded.push((path, id)),
            Err(e) => problems.push(e),
        }
    }
    (loaded, problems)
}

/// The definition in `dir` whose file stem is `name` (`leapers` for `leapers.toml`), loaded; `None` when there
/// is no such file.
pub fn find_in_folder(dir: &Path, name: &str) -> Option<Result<DefinedId, LoadError>> {
    let stem_ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "-_".contains(c));
    let path = dir.join(format!("{name}.toml"));
    (stem_ok && path.is_file()).then(|| load_file(&path))
}

/// Why no variant goes by a name.
#[derive(Debug, thiserror::Error)]
pub enum VariantNameError {
    /// No built-in variant, built-in definition or file in the folder has the name.
    #[error("{unknown}, turkish, or a definition NAME.toml in {}", folder.as_ref().map_or_else(|| "the variants folder".to_string(), |d| d.display().to_string()))]
    Unknown {
        /// The built-ins' refusal, which lists them.
        unknown: crowned_rules::UnknownVariant,
        /// The folder looked in.
        folder: Option<PathBuf>,
    },
    /// A built-in definition that does not load (the registry is full).
    #[error(transparent)]
    Builtin(#[from] RegistryError),
    /// The file of that name does not load.
    #[error(transparent)]
    File(#[from] LoadError),
}

/// The variant a name stands for, on the command line or in the settings: a built-in variant (`international`),
/// a built-in definition (`turkish`), or a definition `NAME.toml` in `folder` (the variants folder beside the
/// settings file).
pub fn variant_by_name(
    name: &str,
    folder: Option<&Path>,
) -> Result<crowned_rules::Variant, VariantNameError> {
    use crowned_rules::Variant;
    let unknown = match name.parse::<Variant>() {
        Ok(variant) => return Ok(variant),
        Err(unknown) => unknown,
    };
    if let Some(builtin) = load_builtin(name.trim()) {
        return Ok(Variant::Defined(builtin?));
    }
    match folder.and_then(|dir| find_in_folder(dir, name.trim())) {
        Some(found) => Ok(Variant::Defined(found?)),
        None => Err(VariantNameError::Unknown {
            unknown,
            folder: folder.map(Path::to_path_buf),
        }),
    }
}

/// The line of the text a definition error is about: the reader's own line, or for a checked field (a dotted
/// path such as `pieces[1].promotion.row`) the line where that field is written, found by walking its parts.
pub fn line_of(error: &DefinitionError, text: &str) -> Option<usize> {
    let field = match error {
        DefinitionError::Syntax { line, .. } => return *line,
        DefinitionError::BoardSize { .. } => "board.width",
        DefinitionError::BadSquare { field, .. }
        | DefinitionError::UnknownKind { field, .. }
        | DefinitionError::Invalid { field, .. } => field,
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut at: Option<usize> = None;
    let mut prefix = String::new();
    for part in field.split('.') {
        let (key, index) = match part.split_once('[') {
            Some((key, rest)) => (key, rest.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        let path = if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        };
        let from = at.unwrap_or(0);
        // An array of tables (`[[pieces]]`): the index-th header; a table (`[board]`) its header; else the key.
        let headers: Vec<usize> = (from..lines.len())
            .filter(|&i| lines[i].trim() == format!("[[{path}]]"))
            .collect();
        let found = match (index, headers.is_empty()) {
            (Some(i), false) => headers.get(i).copied(),
            _ => (from..lines.len()).find(|&i| {
                let line = lines[i].trim_start();
                line == format!("[{path}]")
                    || line
                        .strip_prefix(key)
                        .is_some_and(|rest| rest.trim_start().starts_with('='))
                    || (at.is_some() && line.contains(&format!("{key} =")))
            }),
        };
        match found {
            Some(i) => at = Some(i),
            None => break,
        }
        prefix = path;
    }
    at.map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEAPERS: &str = include_str!("../../../variants/leapers.toml");

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("crowned-defined-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a temporary folder");
        dir
    }

    #[test]
    fn a_bad_file_is_named_with_its_line_and_problem() {
        let dir = temp_dir("bad");
        let row = LEAPERS.replace(
            "captures = { directions",
            "promotion = { to = \"toad\" }\ncaptures = { directions",
        );
        fs::write(dir.join("toad.toml"), &row).expect("written");
        fs::write(
            dir.join("typo.toml"),
            LEAPERS.replace("width = 5", "widht = 5"),
        )
        .expect("written");
        fs::write(dir.join("good.toml"), LEAPERS).expect("written");
        fs::write(dir.join("notes.txt"), "not a definition").expect("written");
        let (loaded, problems) = load_folder(&dir);
        assert_eq!(loaded.len(), 1);
        assert_eq!(problems.len(), 2);
        let toad = problems[0].to_string();
        let line = row.lines().position(|l| l.contains("toad")).expect("there") + 1;
        assert!(toad.contains(&format!("toad.toml:{line}:")), "{toad}");
        assert!(toad.contains("no piece kind is named \"toad\""), "{toad}");
        let typo = problems[1].to_string();
        let line = LEAPERS
            .lines()
            .position(|l| l.contains("width = 5"))
            .expect("there")
            + 1;
        assert!(typo.contains(&format!("typo.toml:{line}:")), "{typo}");
        assert!(typo.contains("widht"), "{typo}");
        assert_eq!(find_in_folder(&dir, "good").map(|r| r.is_ok()), Some(true));
        assert!(find_in_folder(&dir, "missing").is_none());
        assert!(find_in_folder(&dir, "../good").is_none());
        let missing = load_file(&dir.join("nothing.toml")).expect_err("no such file");
        assert!(missing.to_string().contains("nothing.toml"), "{missing}");
        let _ = fs::remove_dir_all(&dir);
    }
}
