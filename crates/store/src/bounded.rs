//! Reading a file someone names, bounded: only a regular file (not a device such as `/dev/zero`, a pipe or a
//! folder, which could be read without end or block forever), and no more than a limit, checked as it is read
//! (a file's size may change between a look at it and the read). Below every layer: it knows only the
//! standard library.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Opens `path` for reading when it is a regular file (a link to one is followed); an error of kind
/// [`io::ErrorKind::InvalidInput`] that says so otherwise.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a device, a pipe or a folder)",
        ));
    }
    Ok(file)
}

/// The bytes of the regular file `path`, when there are at most `limit`; an error of kind
/// [`io::ErrorKind::InvalidData`] that gives the limit otherwise.
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {}, the most read", size_words(limit)),
        ));
    }
    Ok(bytes)
}

/// [`read_bounded`] as text (UTF-8; an error of kind [`io::ErrorKind::InvalidData`] otherwise).
pub fn read_text_bounded(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_bounded(path, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not text (it is not UTF-8)"))
}

/// A size in words: `64 KiB`, `16 MiB`.
fn size_words(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_refused_at_once_and_a_file_past_the_limit_by_its_size() {
        let zero = read_bounded(Path::new("/dev/zero"), 1 << 20).expect_err("refused");
        assert_eq!(zero.kind(), io::ErrorKind::InvalidInput);
        let folder = read_bounded(&std::env::temp_dir(), 1 << 20).expect_err("refused");
        assert_eq!(folder.kind(), io::ErrorKind::InvalidInput);
        let path = std::env::temp_dir().join(format!("crowned-bounded-{}", std::process::id()));
        std::fs::write(&path, vec![b'a'; 2048]).expect("written");
        assert_eq!(read_bounded(&path, 2048).expect("at the limit").len(), 2048);
        let over = read_text_bounded(&path, 1024).expect_err("over");
        assert_eq!(over.kind(), io::ErrorKind::InvalidData);
        assert!(over.to_string().contains("1 KiB"), "{over}");
        std::fs::write(&path, [0xff, 0xfe]).expect("written");
        let binary = read_text_bounded(&path, 1024).expect_err("not text");
        assert_eq!(binary.kind(), io::ErrorKind::InvalidData);
        let _ = std::fs::remove_file(&path);
    }
}
