//! Which workstream GSD Core 1.14.0's gsd-tools works on when the call names
//! none, and where `workstream set` records one.
//!
//! 1.14.0 keeps two pointers. In a session it can identify (an agent's
//! session variable, else the terminal), the pointer is a file of that
//! session's own under the temporary folder — so two agents in one checkout
//! can work on two workstreams — and the project-wide
//! `.planning/active-workstream` is read only when the session has never
//! chosen one. Outside a session only the project-wide file exists. A
//! session pointer naming a workstream that is gone resolves to none, not
//! to the project-wide one (1.14.0's isolation rule). Reading to route a
//! call deletes nothing ([`stored`], as 1.14.0 peeks); the workstream
//! commands that in 1.14.0 read the pointer with its self-healing read
//! (`workstream get`, `set --clear`, `complete`) delete a pointer of the
//! session's own (or, outside a session, the project-wide one) that names
//! a workstream that is gone, as it does ([`stored_healing`]).

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use sha1::{Digest as _, Sha1};

/// The variables 1.14.0 reads a session's identity from, in its order
/// (then the terminal's: `TTY`, `SSH_TTY`).
pub const SESSION_VARIABLES: &[&str] = &[
    "GSD_SESSION_KEY",
    "CODEX_THREAD_ID",
    "CLAUDE_SESSION_ID",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_SSE_PORT",
    "OPENCODE_SESSION_ID",
    "GEMINI_SESSION_ID",
    "CURSOR_SESSION_ID",
    "WINDSURF_SESSION_ID",
    "TERM_SESSION_ID",
    "WT_SESSION",
    "TMUX_PANE",
    "ZELLIJ_SESSION_NAME",
];

/// A value made safe as a file name as 1.14.0 makes it: trimmed, each run
/// of other characters one `_`, no `_` at either end, at most 160 long.
fn token(value: &str) -> Option<String> {
    let mut out = String::new();
    let mut in_run = false;
    for c in super::js::trim(value).chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('_');
            in_run = true;
        }
    }
    let out: String = out.trim_matches('_').chars().take(160).collect();
    (!out.is_empty()).then_some(out)
}

/// `getWorkstreamSessionKey()`: the first session variable set, else the
/// terminal (`TTY`, `SSH_TTY`, else `tty` when stdin is one). Asked once
/// per process, as 1.14.0 caches its terminal probe.
pub fn session_key() -> Option<String> {
    static KEY: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    KEY.get_or_init(probe_session_key).clone()
}

fn probe_session_key() -> Option<String> {
    for name in SESSION_VARIABLES {
        if let Some(t) = std::env::var(name).ok().as_deref().and_then(token) {
            let prefix: String = name
                .to_ascii_lowercase()
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join("-");
            return Some(format!("{prefix}-{t}"));
        }
    }
    for name in ["TTY", "SSH_TTY"] {
        if let Some(t) = std::env::var(name).ok().as_deref().and_then(token) {
            return Some(format!("tty-{}", t.strip_prefix("dev_").unwrap_or(&t)));
        }
    }
    if !std::io::stdin().is_terminal() {
        return None;
    }
    let out = std::process::Command::new("tty")
        .stdin(std::process::Stdio::inherit())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || path.is_empty() || path == "not a tty" {
        return None;
    }
    token(path.strip_prefix("/dev/").unwrap_or(&path)).map(|t| format!("tty-{t}"))
}

/// Node's `os.tmpdir()` on POSIX.
fn node_tmpdir() -> PathBuf {
    let dir = ["TMPDIR", "TMP", "TEMP"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
        .unwrap_or_else(|| "/tmp".into());
    let trimmed = if dir.len() > 1 {
        dir.strip_suffix('/').unwrap_or(&dir)
    } else {
        &dir
    };
    PathBuf::from(trimmed)
}

/// The session's pointer file for the project at `project`.
pub fn session_file(project: &Path, key: &str) -> PathBuf {
    let planning = project.join(".planning");
    let planning = std::fs::canonicalize(&planning)
        .unwrap_or_else(|_| std::path::absolute(&planning).unwrap_or(planning));
    let digest = Sha1::digest(planning.to_string_lossy().as_bytes());
    let id: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    node_tmpdir()
        .join("gsd-workstream-sessions")
        .join(&id[..16])
        .join(key)
}

/// The project-wide pointer file.
pub fn shared_file(project: &Path) -> PathBuf {
    project.join(".planning").join("active-workstream")
}

/// The pointer `workstream set` writes: the session's when there is a
/// session, else the project-wide one.
pub fn owned_file(project: &Path) -> PathBuf {
    match session_key() {
        Some(key) => session_file(project, &key),
        None => shared_file(project),
    }
}

/// A pointer file's name, trimmed; None when absent, unreadable or empty.
fn read(file: &Path) -> Option<String> {
    let bytes = std::fs::read(file).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let name = super::js::trim(&text);
    (!name.is_empty()).then(|| name.to_string())
}

/// A pointer 1.14.0 would read and cannot (a folder by that name, a
/// temporary folder that is a file, no permission): it then stops every
/// call that names no workstream with the error, which gsd leaves to it.
pub fn unreadable(project: &Path) -> Option<PathBuf> {
    let mut chain = vec![owned_file(project)];
    if session_key().is_some() {
        chain.push(shared_file(project));
    }
    chain
        .into_iter()
        .find(|f| std::fs::read(f).is_err_and(|e| e.kind() != std::io::ErrorKind::NotFound))
}

/// Whether `name` is a workstream 1.14.0 resolves to: a valid name whose
/// folder exists (anything there by that name, as its `existsSync` asks —
/// gsd's own reading, `model::workstream`, wants a folder).
pub fn resolves(project: &Path, name: &str) -> bool {
    crate::model::workstream::valid_name(name)
        && project.join(".planning/workstreams").join(name).exists()
}

/// What the stored pointers name, as 1.14.0 peeks at them: the session's
/// pointer decides when it holds a name; otherwise the project-wide one.
pub fn stored(project: &Path) -> Option<String> {
    resolve(project, false)
}

/// [`stored`] as 1.14.0's `getActiveWorkstream` reads it: the session's own
/// pointer (outside a session, the project-wide one) deleted where it
/// names a workstream that is gone.
pub fn stored_healing(project: &Path) -> Option<String> {
    resolve(project, true)
}

fn resolve(project: &Path, heal: bool) -> Option<String> {
    let owned = owned_file(project);
    if let Some(name) = read(&owned) {
        if resolves(project, &name) {
            return Some(name);
        }
        if heal {
            clear_owned(project);
        }
        return None;
    }
    // Outside a session the owned pointer was the project-wide one.
    session_key()?;
    read(&shared_file(project)).filter(|n| resolves(project, n))
}

/// Remove the pointer `workstream set --clear` clears: the session's own
/// (and its folder when nothing else is left in it), else the
/// project-wide one. A pointer that is not there is cleared already.
pub fn clear_owned(project: &Path) {
    let file = owned_file(project);
    // A session's folder goes too when nothing else is left in it, as
    // 1.14.0 leaves it otherwise.
    let folder = session_key().and(file.parent().map(Path::to_path_buf));
    crate::store::workstream::clear_pointer(&file, folder.as_deref());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_file_names() {
        assert_eq!(token("  abc/def::1 ").as_deref(), Some("abc_def_1"));
        assert_eq!(token("__x__").as_deref(), Some("x"));
        assert_eq!(token(" / ").as_deref(), None);
        assert_eq!(token(&"a".repeat(200)).map(|t| t.len()), Some(160));
    }
}
