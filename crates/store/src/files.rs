//! Writing files so that nothing is ever half-written, replaced by mistake, or redirected.
//!
//! Every write goes to a temporary file made for it alone: created new (an existing name, a symlink planted
//! there included, makes the creation fail instead of being followed) under a name nobody can guess, readable
//! by the user only, flushed to disk, then moved into place. A file that replaces an older one is renamed over
//! it; a file that must not replace anything is linked under the first free name, which the system refuses to
//! do over an existing name, so two programs filing at once never take the same name.

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, RandomState};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// How many names [`write_new`] tries before it gives up (`game.pdn`, `game-2.pdn`, ...).
const MAX_NAMES: usize = 10_000;

/// Writes `contents` to `path` all at once: a temporary file beside it, flushed to disk, then renamed over it.
/// Creates the directory if needed. On any error the old file (if any) is untouched and the temporary file is
/// removed.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let (dir, name) = split(path)?;
    let temp = write_temporary(dir, name, contents)?;
    if let Err(e) = fs::rename(&temp, path) {
        let _ = fs::remove_file(&temp);
        return Err(e);
    }
    sync_dir(dir);
    Ok(())
}

/// Writes `contents` to a new file `stem.ext` in `dir`, or `stem-2.ext`, `stem-3.ext`... when the name is
/// taken: never over an existing file, whoever else is writing into `dir` at the same moment. Returns the file
/// written.
pub fn write_new(dir: &Path, stem: &str, ext: &str, contents: &[u8]) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let first = format!("{stem}.{ext}");
    let temp = write_temporary(dir, OsStr::new(&first), contents)?;
    let placed = place_new(&temp, dir, stem, ext, contents);
    let _ = fs::remove_file(&temp);
    let path = placed?;
    sync_dir(dir);
    Ok(path)
}

/// Moves `from` to a new name in its directory (`stem.ext`, `stem-2.ext`...), never over an existing file.
/// Returns the new name.
pub fn rename_new(from: &Path, stem: &str, ext: &str) -> io::Result<PathBuf> {
    let (dir, _) = split(from)?;
    for candidate in names(dir, stem, ext) {
        match fs::hard_link(from, &candidate) {
            Ok(()) => {
                fs::remove_file(from)?;
                sync_dir(dir);
                return Ok(candidate);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            // A file system without links: a rename to a name checked free is the best that is left.
            Err(_) if candidate.symlink_metadata().is_err() => {
                fs::rename(from, &candidate)?;
                sync_dir(dir);
                return Ok(candidate);
            }
            Err(e) => return Err(e),
        }
    }
    Err(no_free_name(stem))
}

/// Links the finished temporary file under the first free name; where the file system has no links, writes a
/// file created new under that name instead (not all at once, but never over another file).
fn place_new(
    temp: &Path,
    dir: &Path,
    stem: &str,
    ext: &str,
    contents: &[u8],
) -> io::Result<PathBuf> {
    for candidate in names(dir, stem, ext) {
        match fs::hard_link(temp, &candidate) {
            Ok(()) => return Ok(candidate),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(_) => match create_new(&candidate) {
                Ok(mut file) => {
                    file.write_all(contents)?;
                    file.sync_all()?;
                    return Ok(candidate);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            },
        }
    }
    Err(no_free_name(stem))
}

/// `stem.ext`, then `stem-2.ext`, `stem-3.ext`... in `dir`.
fn names<'a>(dir: &'a Path, stem: &'a str, ext: &'a str) -> impl Iterator<Item = PathBuf> + 'a {
    (1..=MAX_NAMES).map(move |n| match n {
        1 => dir.join(format!("{stem}.{ext}")),
        n => dir.join(format!("{stem}-{n}.{ext}")),
    })
}

fn no_free_name(stem: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{MAX_NAMES} files named {stem} already exist"),
    )
}

/// The directory (created if needed) and the name of `path`.
fn split(path: &Path) -> io::Result<(&Path, &OsStr)> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    fs::create_dir_all(dir)?;
    Ok((dir, name))
}

/// Writes `contents` to a temporary file of its own in `dir` (named after `name`, which it will become) and
/// flushes it to disk. On error nothing is left behind.
fn write_temporary(dir: &Path, name: &OsStr, contents: &[u8]) -> io::Result<PathBuf> {
    let (temp, mut file) = create_temporary(dir, name)?;
    let written = file.write_all(contents).and_then(|()| file.sync_all());
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(e);
    }
    Ok(temp)
}

/// A new, empty temporary file in `dir` under a name that cannot be guessed (`.NAME.<16 hex digits>.tmp`):
/// nothing already there, a symlink planted by someone guessing included, is ever opened.
pub fn create_temporary(dir: &Path, name: &OsStr) -> io::Result<(PathBuf, File)> {
    let mut last = None;
    // A clash is all but impossible; a few tries cover a name planted on purpose.
    for _ in 0..8 {
        let temp = dir.join(format!(
            ".{}.{:016x}.tmp",
            name.to_string_lossy(),
            unguessable()
        ));
        match create_new(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary name was free")))
}

/// Creates `path`, failing if anything (a symlink included, dangling or not) is already there. The file is the
/// user's alone.
pub fn create_new(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// 64 bits nobody else can predict: the standard library seeds its hashers from the system's random source.
pub(super) fn unguessable() -> u64 {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    RandomState::new().hash_one((
        std::process::id(),
        nanos,
        COUNT.fetch_add(1, Ordering::Relaxed),
    ))
}

/// Makes a rename in `dir` durable, where the platform allows opening a directory.
fn sync_dir(dir: &Path) {
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("crowned-files-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("made");
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        crate::test_support::file_names(dir)
    }

    #[test]
    fn temporary_names_differ_and_cannot_be_guessed_from_the_process() {
        let a = unguessable();
        let b = unguessable();
        assert_ne!(a, b);
        assert_ne!(a, u64::from(std::process::id()));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_planted_at_every_old_style_temporary_name_redirects_nothing() {
        let dir = temp_dir("symlink");
        let victim = dir.join("victim.txt");
        fs::write(&victim, "precious").expect("written");
        // The old temporary name was predictable: plant links there, and at the target's own name too.
        let predictable = dir.join(format!(".autosave.pdn.{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &predictable).expect("linked");
        write_atomic(&dir.join("autosave.pdn"), b"game").expect("written");
        assert_eq!(fs::read_to_string(&victim).expect("read"), "precious");
        assert_eq!(
            fs::read_to_string(dir.join("autosave.pdn")).expect("read"),
            "game"
        );
        // A temporary name that is taken (by a link here) is never opened.
        let taken = dir.join("taken");
        std::os::unix::fs::symlink(&victim, &taken).expect("linked");
        assert_eq!(
            create_new(&taken).expect_err("refused").kind(),
            io::ErrorKind::AlreadyExists
        );
        assert_eq!(fs::read_to_string(&victim).expect("read"), "precious");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn new_files_never_replace_old_ones() {
        let dir = temp_dir("new");
        let first = write_new(&dir, "game", "pdn", b"one").expect("written");
        let second = write_new(&dir, "game", "pdn", b"two").expect("written");
        assert_eq!(first, dir.join("game.pdn"));
        assert_eq!(second, dir.join("game-2.pdn"));
        assert_eq!(fs::read_to_string(&first).expect("read"), "one");
        assert_eq!(fs::read_to_string(&second).expect("read"), "two");
        assert_eq!(
            entries(&dir),
            ["game-2.pdn", "game.pdn"],
            "no temporary left"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn threads_filing_at_once_each_get_a_file_of_their_own() {
        let dir = temp_dir("race");
        let written: Vec<PathBuf> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..8)
                .map(|i| {
                    let dir = &dir;
                    scope.spawn(move || {
                        write_new(dir, "game", "pdn", format!("{i}").as_bytes()).expect("written")
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("joined"))
                .collect()
        });
        let mut contents: Vec<String> = written
            .iter()
            .map(|p| fs::read_to_string(p).expect("read"))
            .collect();
        contents.sort();
        assert_eq!(contents, ["0", "1", "2", "3", "4", "5", "6", "7"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn renaming_to_a_new_name_keeps_what_is_there() {
        let dir = temp_dir("rename");
        fs::write(dir.join("kept.pdn"), "old").expect("written");
        fs::write(dir.join("a.pdn"), "new").expect("written");
        let to = rename_new(&dir.join("a.pdn"), "kept", "pdn").expect("renamed");
        assert_eq!(to, dir.join("kept-2.pdn"));
        assert_eq!(
            fs::read_to_string(dir.join("kept.pdn")).expect("read"),
            "old"
        );
        assert_eq!(fs::read_to_string(&to).expect("read"), "new");
        assert!(!dir.join("a.pdn").exists());
        let _ = fs::remove_dir_all(&dir);
    }
}
