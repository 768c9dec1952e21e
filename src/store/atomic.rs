//! Atomic file replacement: a temp file in the same folder, fsync, keep the
//! permissions, rename over the target, fsync the folder. A reader (or a
//! crash) sees the old bytes or the new bytes, never a torn file.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The name every gsd temp file starts with (a crash can leave one; the
/// next gsd command removes those it can attribute).
pub const TEMP_PREFIX: &str = ".gsd-tmp-";

pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_with(path, |w| w.write_all(bytes))
}

/// The same, with the content written by `fill` straight into the temp
/// file: a large conversion streams to disk instead of into memory first.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // New files (a new phase's .gitkeep) may need their folder first.
    std::fs::create_dir_all(dir)?;
    // A new file gets the mode any editor would give it (0666 less the
    // umask), not the temp file's private 0600; an existing file keeps its
    // own mode below.
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        fill(&mut w)?;
        w.flush()?;
    }
    if let Ok(meta) = std::fs::metadata(path) {
        tmp.as_file().set_permissions(meta.permissions())?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    // The rename itself is durable only once the folder is synced.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_and_keeps_permissions() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("STATE.md");
        std::fs::write(&p, "old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(
            std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o640
        );
        // A new file: 0666 less the umask, like `touch` (gsd init's files
        // were 0600, unreadable to the rest of a team's group).
        let fresh = d.path().join("NEW.md");
        write(&fresh, b"x").unwrap();
        let umask = process_umask();
        assert_eq!(
            std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777,
            0o666 & !umask
        );
        let leftovers: Vec<_> = std::fs::read_dir(d.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(".gsd-tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }

    /// The process umask, read from what `touch`-like creation yields.
    fn process_umask() -> u32 {
        use std::os::unix::fs::OpenOptionsExt;
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("probe");
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o666)
            .open(&p)
            .unwrap();
        0o666 & !(std::fs::metadata(&p).unwrap().permissions().mode() & 0o777)
    }
}
