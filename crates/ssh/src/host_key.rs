//! The server's host key: made once, kept, and never replaced behind the owner's back.

use std::io;
use std::path::{Path, PathBuf};

use russh::keys::ssh_key::LineEnding;
use russh::keys::{Algorithm, HashAlg, PrivateKey};
use thiserror::Error;

use crate::store::write_atomic;

/// Why the host key cannot be used.
#[derive(Debug, Error)]
pub enum HostKeyError {
    /// The file exists but cannot be read.
    #[error("cannot read the host key {}: {cause}", path.display())]
    Read {
        /// The key file.
        path: PathBuf,
        /// Why.
        cause: io::Error,
    },
    /// The file is not an OpenSSH private key this server can use.
    #[error(
        "{} is not an unencrypted OpenSSH private key ({why}); fix it, or move it away to have a new key made",
        path.display()
    )]
    Invalid {
        /// The key file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A new key could not be written.
    #[error("cannot write a new host key to {}: {cause}", path.display())]
    Write {
        /// The key file.
        path: PathBuf,
        /// Why.
        cause: io::Error,
    },
}

/// The host key at `path`, and whether it was made now. A missing file gets a new Ed25519 key, written at once
/// (readable by the owner only); a file that is there but cannot be read or used is an error: it is never
/// replaced, since clients that know the old key would then see a different server.
pub fn load_or_create(path: &Path) -> Result<(PrivateKey, bool), HostKeyError> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let key =
                PrivateKey::from_openssh(text.as_bytes()).map_err(|e| HostKeyError::Invalid {
                    path: path.to_owned(),
                    why: e.to_string(),
                })?;
            if key.is_encrypted() {
                return Err(HostKeyError::Invalid {
                    path: path.to_owned(),
                    why: "it is encrypted".into(),
                });
            }
            Ok((key, false))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let write = |source| HostKeyError::Write {
                path: path.to_owned(),
                cause: source,
            };
            let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)
                .map_err(|e| write(io::Error::other(e.to_string())))?;
            let text = key
                .to_openssh(LineEnding::LF)
                .map_err(|e| write(io::Error::other(e.to_string())))?;
            write_atomic(path, text.as_bytes()).map_err(write)?;
            Ok((key, true))
        }
        Err(source) => Err(HostKeyError::Read {
            path: path.to_owned(),
            cause: source,
        }),
    }
}

/// The key's SHA-256 fingerprint as `ssh` shows it when it first meets the server.
pub fn fingerprint(key: &PrivateKey) -> String {
    key.public_key().fingerprint(HashAlg::Sha256).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_then_kept_and_a_bad_file_is_never_replaced() {
        let dir = std::env::temp_dir().join(format!("crowned-host-key-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("host_key");
        let (made, new) = load_or_create(&path).expect("made");
        assert!(new);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path)
                .expect("there")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let (again, new) = load_or_create(&path).expect("read");
        assert!(!new);
        assert_eq!(fingerprint(&made), fingerprint(&again));
        std::fs::write(&path, "not a key").expect("spoiled");
        let error = load_or_create(&path).expect_err("refused");
        assert!(
            error
                .to_string()
                .contains("not an unencrypted OpenSSH private key"),
            "{error}"
        );
        assert_eq!(std::fs::read_to_string(&path).expect("kept"), "not a key");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
