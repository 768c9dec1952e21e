//! What the installed hooks run, and where gsd's hooks are registered.
//!
//! A hook that names a build folder or a temp dir goes stale when that folder
//! is cleaned, and the loop then silently stops being judged. So the hooks
//! name `gsd` (looked up on PATH by Claude Code) whenever the `gsd` on PATH is
//! this very binary, and otherwise the absolute path, with a warning when
//! that path is one a `cargo clean` or a reboot removes.
//!
//! gsd's handlers can come from three settings files and from the Claude
//! Code plugin; [`registrations`] lists them all so the plugin can step aside
//! for settings hooks (each handler runs once) and `ralph doctor` can say
//! what is installed.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::settings::{EVENTS, is_ours};

/// The command written into the hooks, and why it may not last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookCommand {
    pub command: String,
    pub warning: Option<String>,
}

/// `exe` is this binary; `path_var` the PATH to search.
pub fn choose(exe: &Path, path_var: Option<&OsStr>) -> HookCommand {
    let exe = std::fs::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    let on_path = which("gsd", path_var).and_then(|p| std::fs::canonicalize(p).ok());
    if on_path.as_deref() == Some(exe.as_path()) {
        return HookCommand {
            command: "gsd".into(),
            warning: None,
        };
    }
    let warning = fragile_reason(&exe).map(|why| {
        format!(
            "the hooks run {} ({why}); it goes away when that folder is cleaned. Install gsd on PATH (`cargo install --path .`) and run `gsd ralph install-hooks` again",
            exe.display()
        )
    });
    HookCommand {
        command: exe.display().to_string(),
        warning,
    }
}

/// Why a binary at `p` would not last, if it would not.
pub fn fragile_reason(p: &Path) -> Option<&'static str> {
    let in_cargo_target = p.ancestors().skip(1).any(|a| {
        a.file_name() == Some(OsStr::new("target"))
            && (a.join("CACHEDIR.TAG").is_file() || a.join(".rustc_info.json").is_file())
    });
    if in_cargo_target {
        return Some("inside a cargo target/ folder");
    }
    let temp_roots = [
        std::fs::canonicalize(std::env::temp_dir()).ok(),
        Some(PathBuf::from("/tmp")),
        Some(PathBuf::from("/var/tmp")),
    ];
    temp_roots
        .iter()
        .flatten()
        .any(|t| p.starts_with(t))
        .then_some("in a temporary directory")
}

/// The first executable `name` on `path_var`.
pub fn which(name: &str, path_var: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path_var?)
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Where a registration comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    ProjectSettings,
    LocalSettings,
    UserSettings,
    Plugin,
}

/// One gsd handler Claude Code will run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Registration {
    pub source: Source,
    /// The settings file that registers it (for the plugin: the one enabling it).
    pub file: PathBuf,
    pub event: String,
    pub command: String,
}

/// The settings files Claude Code reads for a project, most local last.
pub fn settings_files(root: &Path, home: Option<&Path>) -> Vec<(Source, PathBuf)> {
    let mut v = vec![
        (Source::ProjectSettings, root.join(".claude/settings.json")),
        (
            Source::LocalSettings,
            root.join(".claude/settings.local.json"),
        ),
    ];
    if let Some(h) = home {
        v.push((Source::UserSettings, h.join(".claude/settings.json")));
    }
    v
}

fn read_json(p: &Path) -> Option<Value> {
    serde_json::from_slice(&std::fs::read(p).ok()?).ok()
}

/// The plugin id (`gsd@…`) enabled in a settings file, and that file.
pub fn enabled_plugin(root: &Path, home: Option<&Path>) -> Option<(String, PathBuf)> {
    settings_files(root, home).into_iter().find_map(|(_, f)| {
        let v = read_json(&f)?;
        let id = v
            .get("enabledPlugins")?
            .as_object()?
            .iter()
            .find(|(k, on)| k.starts_with("gsd@") && on.as_bool() == Some(true))?
            .0
            .clone();
        Some((id, f))
    })
}

/// Every gsd handler registered for the project. The plugin's are the ones
/// its `hooks/hooks.json` declares (Stop, SubagentStop, SessionStart, all
/// running `gsd`), listed when a settings file enables it.
pub fn registrations(root: &Path, home: Option<&Path>) -> Vec<Registration> {
    let mut out = Vec::new();
    for (source, file) in settings_files(root, home) {
        let Some(hooks) = read_json(&file).and_then(|v| v.get("hooks").cloned()) else {
            continue;
        };
        let Some(hooks) = hooks.as_object() else {
            continue;
        };
        for (event, groups) in hooks {
            let handlers = groups
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|g| g.get("hooks").and_then(Value::as_array))
                .flatten()
                .filter(|h| is_ours(h));
            for h in handlers {
                out.push(Registration {
                    source,
                    file: file.clone(),
                    event: event.clone(),
                    command: h
                        .get("command")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                });
            }
        }
    }
    if let Some((_, file)) = enabled_plugin(root, home) {
        for (event, _, _) in EVENTS {
            out.push(Registration {
                source: Source::Plugin,
                file: file.clone(),
                event: (*event).to_owned(),
                command: "gsd".into(),
            });
        }
    }
    out
}

/// Whether the plugin's handler for `event` should step aside: a settings
/// file already runs gsd for it, and Claude Code runs both.
pub fn plugin_should_yield(root: &Path, home: Option<&Path>, event: &str) -> bool {
    registrations(root, home)
        .iter()
        .any(|r| r.source != Source::Plugin && r.event == event)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exe_in(dir: &Path, name: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let p = dir.join(name);
        std::fs::write(&p, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    #[test]
    fn the_binary_on_path_is_named_by_name() {
        let d = tempfile::tempdir().unwrap();
        let exe = exe_in(d.path(), "gsd");
        let c = choose(&exe, Some(d.path().as_os_str()));
        assert_eq!(c.command, "gsd");
        assert_eq!(c.warning, None);
    }

    #[test]
    fn another_gsd_on_path_means_the_absolute_path_with_a_warning_in_temp() {
        let on_path = tempfile::tempdir().unwrap();
        exe_in(on_path.path(), "gsd");
        let elsewhere = tempfile::tempdir().unwrap();
        let exe = exe_in(elsewhere.path(), "gsd");
        let c = choose(&exe, Some(on_path.path().as_os_str()));
        let canon = std::fs::canonicalize(&exe).unwrap();
        assert_eq!(c.command, canon.display().to_string());
        assert!(c.warning.unwrap().contains("temporary directory"));
    }

    #[test]
    fn a_cargo_target_folder_is_fragile() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("target");
        std::fs::create_dir_all(target.join("release")).unwrap();
        std::fs::write(
            target.join("CACHEDIR.TAG"),
            "Signature: 8a477f597d28d172789f06886806bc55",
        )
        .unwrap();
        assert_eq!(
            fragile_reason(&target.join("release/gsd")),
            Some("inside a cargo target/ folder")
        );
        assert_eq!(fragile_reason(Path::new("/usr/local/bin/gsd")), None);
    }
}
