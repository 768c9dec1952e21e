//! `gsd sdk install-shim [DIR]`: links to this binary named `gsd-sdk` (what
//! get-shit-done-cc's workflows run) and `gsd_run` / `gsd-tools` (what GSD
//! Core's run), so both reach gsd, each answering in its own dialect. A link
//! must come before npm's bin of the same name on PATH; the outcome says
//! whether it does.

use std::path::{Path, PathBuf};

use serde::Serialize;

/// What installing or removing the shim did.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ShimOutcome {
    pub link: PathBuf,
    pub target: PathBuf,
    /// `install`: created (false when the link was already there);
    /// `uninstall`: removed.
    pub changed: bool,
    /// The bin of the link's name a shell finds first on PATH now.
    pub first_on_path: Option<PathBuf>,
    /// The other bin of that name (npm's) that the link now shadows, or
    /// that still comes first.
    pub npm_bin: Option<PathBuf>,
}

impl ShimOutcome {
    /// Whether the link's name on PATH now runs gsd.
    pub fn active(&self) -> bool {
        self.first_on_path.as_deref() == Some(self.link.as_path())
    }
}

/// Why the shim cannot be installed or removed.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ShimError {
    #[error("{0} exists and is not a link to gsd")]
    #[diagnostic(
        code(gsd::sdk::shim_occupied),
        help("choose a folder earlier on PATH than npm's, e.g. ~/.local/bin")
    )]
    Occupied(String),
    #[error("cannot write {path}: {source}")]
    #[diagnostic(code(gsd::sdk::shim_io))]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("no folder given and no default: HOME is not set")]
    #[diagnostic(
        code(gsd::sdk::shim_dir),
        help("pass the folder: gsd sdk install-shim DIR")
    )]
    NoDir,
}

/// The default folder: `~/.local/bin`.
pub fn default_dir() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("bin"))
}

fn first_on_path(name: &str) -> Vec<PathBuf> {
    let Some(path) = std::env::var_os("PATH") else {
        return Vec::new();
    };
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .filter(|p| p.is_file())
        .collect()
}

fn is_gsd(p: &Path, target: &Path) -> bool {
    std::fs::canonicalize(p).ok().as_deref() == Some(target)
}

/// A link to some `gsd` binary (an older build, another checkout): ours to
/// replace or remove, unlike npm's gsd-sdk script.
fn links_to_a_gsd(link: &Path) -> bool {
    std::fs::read_link(link)
        .ok()
        .and_then(|t| t.file_name().map(|n| n == "gsd"))
        .unwrap_or(false)
}

/// The names the shim places: gsd-sdk's, then GSD Core's two bins.
pub const NAMES: &[&str] = &["gsd-sdk", "gsd_run", "gsd-tools"];

fn outcome(link: PathBuf, target: PathBuf, changed: bool) -> ShimOutcome {
    let name = link
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let found = first_on_path(&name);
    let npm = found.iter().find(|p| !is_gsd(p, &target)).cloned();
    ShimOutcome {
        first_on_path: found.first().cloned(),
        npm_bin: npm,
        link,
        target,
        changed,
    }
}

/// The folder (DIR or the default), the link `name` in it, and the resolved target.
fn paths(
    dir: Option<&Path>,
    target: &Path,
    name: &str,
) -> Result<(PathBuf, PathBuf, PathBuf), ShimError> {
    let dir = match dir {
        Some(d) => d.to_path_buf(),
        None => default_dir().ok_or(ShimError::NoDir)?,
    };
    let target = std::fs::canonicalize(target).unwrap_or(target.to_path_buf());
    Ok((dir.clone(), dir.join(name), target))
}

/// Link `DIR/gsd-sdk` to `target` (this binary).
pub fn install(dir: Option<&Path>, target: &Path) -> Result<ShimOutcome, ShimError> {
    install_named(dir, target, "gsd-sdk")
}

/// Link `DIR/<name>` to `target`.
pub fn install_named(
    dir: Option<&Path>,
    target: &Path,
    name: &str,
) -> Result<ShimOutcome, ShimError> {
    let (dir, link, target) = paths(dir, target, name)?;
    let io = |source| ShimError::Io {
        path: link.display().to_string(),
        source,
    };
    if std::fs::symlink_metadata(&link).is_ok() {
        if is_gsd(&link, &target) {
            return Ok(outcome(link, target, false));
        }
        if !links_to_a_gsd(&link) {
            return Err(ShimError::Occupied(link.display().to_string()));
        }
        std::fs::remove_file(&link).map_err(io)?;
    }
    std::fs::create_dir_all(&dir).map_err(io)?;
    std::os::unix::fs::symlink(&target, &link).map_err(io)?;
    Ok(outcome(link, target, true))
}

/// Remove `DIR/gsd-sdk` when it is a link to gsd; anything else stays.
pub fn uninstall(dir: Option<&Path>, target: &Path) -> Result<ShimOutcome, ShimError> {
    uninstall_named(dir, target, "gsd-sdk")
}

/// Remove `DIR/<name>` when it is a link to gsd; anything else stays.
pub fn uninstall_named(
    dir: Option<&Path>,
    target: &Path,
    name: &str,
) -> Result<ShimOutcome, ShimError> {
    let (_, link, target) = paths(dir, target, name)?;
    let Ok(meta) = std::fs::symlink_metadata(&link) else {
        return Ok(outcome(link, target, false));
    };
    let points_at_gsd =
        meta.file_type().is_symlink() && (is_gsd(&link, &target) || links_to_a_gsd(&link));
    if !points_at_gsd {
        return Err(ShimError::Occupied(link.display().to_string()));
    }
    std::fs::remove_file(&link).map_err(|source| ShimError::Io {
        path: link.display().to_string(),
        source,
    })?;
    Ok(outcome(link, target, true))
}

/// What the shim did to Claude Code's session environment file.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct EnvFileOutcome {
    /// `CLAUDE_ENV_FILE`: Claude Code sources it before every Bash tool
    /// call of the session (it is set for SessionStart hooks).
    pub file: PathBuf,
    /// The line added (install) or removed (uninstall).
    pub line: String,
    /// Whether the file changed (false: the line was already there, or
    /// was not there to remove).
    pub changed: bool,
}

/// The export that puts the shim's folder first on PATH, as GSD Core's own
/// preamble writes it for the gsd-tools it found (`export PATH='DIR':"$PATH"`).
pub fn env_line(dir: &Path) -> String {
    format!("export PATH='{}':\"$PATH\"", dir.display())
}

/// With `CLAUDE_ENV_FILE` set, add (or with `remove`, take out) the line
/// that puts `dir` first on PATH for the session's Bash calls, so GSD Core's
/// preamble (`command -v gsd_run`) finds the shim rather than npm's bin.
/// Adding twice adds once; other lines are kept byte for byte. None when
/// the variable is not set.
pub fn env_file(dir: Option<&Path>, remove: bool) -> Result<Option<EnvFileOutcome>, ShimError> {
    let Some(file) = std::env::var_os("CLAUDE_ENV_FILE").map(PathBuf::from) else {
        return Ok(None);
    };
    let dir = match dir {
        Some(d) => d.to_path_buf(),
        None => default_dir().ok_or(ShimError::NoDir)?,
    };
    let line = env_line(&dir);
    let io = |source| ShimError::Io {
        path: file.display().to_string(),
        source,
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io(e)),
    };
    let has = text.lines().any(|l| l == line);
    let new = match (remove, has) {
        (false, false) => {
            let sep = if text.is_empty() || text.ends_with('\n') {
                ""
            } else {
                "\n"
            };
            Some(format!("{text}{sep}{line}\n"))
        }
        (true, true) => Some(
            text.split_inclusive('\n')
                .filter(|l| l.trim_end_matches(['\n', '\r']) != line)
                .collect(),
        ),
        _ => None,
    };
    if let Some(new) = &new {
        std::fs::write(&file, new).map_err(io)?;
    }
    Ok(Some(EnvFileOutcome {
        file,
        line,
        changed: new.is_some(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_export_quotes_the_folder_as_gsd_cores_preamble_does() {
        assert_eq!(
            env_line(Path::new("/home/u/.local/bin")),
            "export PATH='/home/u/.local/bin':\"$PATH\""
        );
    }
}
