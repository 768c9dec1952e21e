//! What GSD's workstream commands write besides planning documents: the
//! pointer to the active workstream (a one-line file, a session's own under
//! the temporary folder or the project's `.planning/active-workstream`,
//! which GSD writes and reads as a whole and never commits), and the
//! folders a workstream is made in, archived to and removed from. The
//! documents themselves go through [`super::Transaction`], whole folders
//! through [`super::relocate`].

use std::path::Path;

/// Record `name` in the pointer file `file` (replaced whole).
pub fn write_pointer(file: &Path, name: &str) -> std::io::Result<()> {
    super::atomic::write(file, format!("{name}\n").as_bytes())
}

/// Put back a pointer's earlier bytes (a failed change undone).
pub fn restore_pointer(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    super::atomic::write(file, bytes)
}

/// Remove the pointer file `file`, and `folder` when that leaves it empty
/// (a session's folder). A pointer that is not there is cleared already.
pub fn clear_pointer(file: &Path, folder: Option<&Path>) {
    let _ = std::fs::remove_file(file);
    if let Some(f) = folder {
        let _ = std::fs::remove_dir(f);
    }
}

/// Make `folder` and the folders above it that are missing.
pub fn make_folder(folder: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(folder)
}

/// Remove `folder` if it is empty (a workstream moved out of it).
pub fn remove_empty_folder(folder: &Path) {
    let _ = std::fs::remove_dir(folder);
}
