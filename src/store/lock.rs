//! One OS file lock per planning folder, taken with a timeout.
//!
//! The lock file is `.gsd/planning.lock` at the project root (`.gsd/` is
//! git-ignored by its own `.gitignore`), so locking never shows up as a
//! change in `.planning/`. The lock is an advisory `flock` held by the open
//! file: a crashed holder releases it automatically, so there are no stale
//! locks to break. On timeout we fail — we never write unlocked.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum LockError {
    #[error("another gsd process has held {path} for {waited:.1?}; gave up")]
    #[diagnostic(
        code(gsd::store::locked),
        help("wait for the other gsd command to finish, or raise GSD_LOCK_TIMEOUT_MS")
    )]
    Timeout { path: String, waited: Duration },
    #[error("cannot create the lock file {path}: {source}")]
    #[diagnostic(code(gsd::store::lock_file))]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// A held lock; released when dropped.
#[derive(Debug)]
pub struct PlanningLock {
    _file: File,
    pub path: PathBuf,
}

/// Default wait before giving up (`GSD_LOCK_TIMEOUT_MS` overrides).
pub fn default_timeout() -> Duration {
    std::env::var("GSD_LOCK_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(Duration::from_secs(10), Duration::from_millis)
}

/// Make sure `.gsd/` exists and ignores itself.
pub fn ensure_gsd_dir(root: &Path) -> std::io::Result<PathBuf> {
    let dir = root.join(".gsd");
    std::fs::create_dir_all(&dir)?;
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        // Whole or absent (a torn, empty .gitignore would show .gsd/ to
        // git), and written before the lock is held, so its temp file is
        // not one of the `.gsd-tmp-*` files recovery may remove.
        let mut tmp = tempfile::Builder::new()
            .prefix(".gitignore-")
            .tempfile_in(&dir)?;
        std::io::Write::write_all(
            tmp.as_file_mut(),
            b"# gsd's local state (locks, loops): never committed\n*\n",
        )?;
        tmp.as_file().sync_all()?;
        tmp.persist(&ignore).map_err(|e| e.error)?;
    }
    Ok(dir)
}

impl PlanningLock {
    /// Take the lock of the project at `root`, waiting up to `timeout`.
    pub fn acquire(root: &Path, timeout: Duration) -> Result<PlanningLock, LockError> {
        Self::acquire_named(root, "planning.lock", timeout)
    }

    /// Take another lock file in `.gsd/` (the Ralph loop state has its own, so a
    /// hook running checks for minutes never holds up `gsd state set`).
    pub fn acquire_named(
        root: &Path,
        name: &str,
        timeout: Duration,
    ) -> Result<PlanningLock, LockError> {
        let dir = ensure_gsd_dir(root).map_err(|source| LockError::Io {
            path: root.join(".gsd").display().to_string(),
            source,
        })?;
        let path = dir.join(name);
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|source| LockError::Io {
                path: path.display().to_string(),
                source,
            })?;
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(PlanningLock { _file: file, path }),
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(source)) => {
                    return Err(LockError::Io {
                        path: path.display().to_string(),
                        source,
                    });
                }
            }
            let waited = start.elapsed();
            if waited >= timeout {
                return Err(LockError::Timeout {
                    path: path.display().to_string(),
                    waited,
                });
            }
            std::thread::sleep(pause.min(timeout - waited));
            pause = (pause * 2).min(Duration::from_millis(25));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_times_out() {
        let d = tempfile::tempdir().unwrap();
        let first = PlanningLock::acquire(d.path(), Duration::from_secs(1)).unwrap();
        let err = PlanningLock::acquire(d.path(), Duration::from_millis(50)).unwrap_err();
        assert!(matches!(err, LockError::Timeout { .. }));
        drop(first);
        PlanningLock::acquire(d.path(), Duration::from_millis(50)).unwrap();
        assert_eq!(
            std::fs::read_to_string(d.path().join(".gsd/.gitignore"))
                .unwrap()
                .lines()
                .last(),
            Some("*")
        );
    }
}
