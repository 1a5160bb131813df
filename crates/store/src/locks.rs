//! Locks held on files for as long as a program runs: an autosave slot's (see `autosave`), and the server's on
//! its records, so that two servers never serve the same folder. The operating system lets a lock go when its
//! process ends in any way, a crash or `kill -9` included, so nothing is ever left locked by a program that is
//! gone.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::path::Path;

use super::{Store, StoreError, io_error};

/// The server's hold on its folder: while the value lives no other server starts on the same records.
#[derive(Debug)]
pub struct ServerLock {
    /// Holding the open file holds the lock; dropping it lets the lock go.
    _lock: File,
}

impl Store {
    /// Takes the server's folder for this program alone (creating it if needed); refused while another server
    /// runs on it.
    pub fn claim_server(&self) -> Result<ServerLock, StoreError> {
        let dir = self.server_dir();
        fs::create_dir_all(&dir).map_err(io_error(&dir))?;
        let path = dir.join("server.lock");
        match try_lock(&path)? {
            Some(lock) => Ok(ServerLock { _lock: lock }),
            None => Err(StoreError::ServerRunning(dir)),
        }
    }
}

/// Opens (creating it if needed) and locks a lock file; `None` when another program holds it.
pub(super) fn try_lock(path: &Path) -> Result<Option<File>, StoreError> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = options.open(path).map_err(io_error(path))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(e)) => Err(io_error(path)(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::temp_home;

    #[test]
    fn one_server_at_a_time_on_a_folder_and_the_next_once_it_has_gone() {
        let home = temp_home("locks", "server");
        let store = Store::under(&home);
        let first = store
            .claim_server()
            .expect("the first server takes the folder");
        let second = store.claim_server();
        assert!(
            matches!(&second, Err(StoreError::ServerRunning(_))),
            "{second:?}"
        );
        let said = second.map(|_| ()).unwrap_err().to_string();
        assert!(said.contains("another crowned serve"), "{said}");
        drop(first);
        assert!(
            store.claim_server().is_ok(),
            "free again once the first is gone"
        );
        let _ = fs::remove_dir_all(&home);
    }
}
