//! Who may connect when the server is not open to every key: an OpenSSH `authorized_keys` file.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use russh::keys::HashAlg;
use russh::keys::ssh_key::AuthorizedKeys;
use thiserror::Error;

/// Why the authorized keys cannot be used.
#[derive(Debug, Error)]
pub enum AuthorizedKeysError {
    /// The file cannot be read.
    #[error("cannot read the authorized keys {}: {cause}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: io::Error,
    },
    /// A line is not a key.
    #[error("{}: line {line} is not an OpenSSH public key ({why})", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// No key at all: nobody could connect.
    #[error("{} has no keys: nobody could connect", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// The SHA-256 fingerprints of the keys in an `authorized_keys` file (options before a key are allowed and
/// ignored). A line that is not a key stops the server rather than lock someone out without a word.
pub fn load_authorized_keys(path: &Path) -> Result<HashSet<String>, AuthorizedKeysError> {
    let text = std::fs::read_to_string(path).map_err(|source| AuthorizedKeysError::Read {
        path: path.to_owned(),
        cause: source,
    })?;
    authorized_fingerprints(&text)
        .map_err(|(line, why)| AuthorizedKeysError::Line {
            path: path.to_owned(),
            line,
            why,
        })
        .and_then(|keys| {
            if keys.is_empty() {
                Err(AuthorizedKeysError::Empty {
                    path: path.to_owned(),
                })
            } else {
                Ok(keys)
            }
        })
}

/// The fingerprints of the keys in `text`, or the first bad line (from 1) and what is wrong with it.
fn authorized_fingerprints(text: &str) -> Result<HashSet<String>, (usize, String)> {
    let mut keys = HashSet::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let entry = AuthorizedKeys::new(line)
            .next()
            .ok_or_else(|| (index + 1, "no key".to_string()))?
            .map_err(|e| (index + 1, e.to_string()))?;
        keys.insert(entry.public_key().fingerprint(HashAlg::Sha256).to_string());
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;
    use russh::keys::{Algorithm, PrivateKey};

    #[test]
    fn keys_comments_options_and_bad_lines() {
        let a = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).expect("key");
        let b = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).expect("key");
        let line = |k: &PrivateKey| k.public_key().to_openssh().expect("openssh");
        let text = format!(
            "# players\n{}\n\n  no-pty,command=\"x\" {} bob@host\n",
            line(&a),
            line(&b)
        );
        let keys = authorized_fingerprints(&text).expect("valid");
        assert_eq!(keys.len(), 2);
        assert!(keys.contains(&a.public_key().fingerprint(HashAlg::Sha256).to_string()));
        let bad = format!("{}\nssh-ed25519 not-base64\n", line(&a));
        assert_eq!(authorized_fingerprints(&bad).map_err(|e| e.0), Err(2));
    }
}
