//! `gsd ralph doctor`: are the installed hooks going to work?
//!
//! A loop whose Stop hook points at a deleted build folder, or at a gsd of
//! another version, fails quietly: Claude Code reports a hook error and the
//! model stops unjudged. This looks at every registration (the three settings
//! files and the plugin), runs each command's `--version`, and names what is
//! wrong.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::hook_command::{Registration, Source, fragile_reason, registrations, which};
use super::settings::EVENTS;

/// One registration and what its command turned out to be.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckedRegistration {
    #[serde(flatten)]
    pub registration: Registration,
    /// The binary the command names (PATH looked up for a bare name).
    pub resolved: Option<PathBuf>,
    /// What `--version` printed, when it ran.
    pub version: Option<String>,
}

/// The doctor's findings.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    pub version: String,
    pub registrations: Vec<CheckedRegistration>,
    /// What plan runs left: worktrees, their records and branches.
    pub leftovers: Vec<super::run::leftovers::Leftover>,
    pub problems: Vec<String>,
}

impl Report {
    pub fn healthy(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Check the hooks of the project at `root` for the user at `home`.
pub fn diagnose(root: &Path, home: Option<&Path>, path_var: Option<&OsStr>) -> Report {
    let version = format!("gsd {}", env!("CARGO_PKG_VERSION"));
    let mut problems = Vec::new();
    let mut checked = Vec::new();
    for r in registrations(root, home) {
        let resolved = if Path::new(&r.command).is_absolute() {
            Some(PathBuf::from(&r.command)).filter(|p| p.is_file())
        } else {
            which(&r.command, path_var)
        };
        let ran = resolved.as_deref().and_then(version_of);
        let what = format!("{} hook in {}", r.event, r.file.display());
        match (&resolved, &ran) {
            (None, _) => problems.push(format!(
                "{what} runs `{}`, which is not there{}",
                r.command,
                if r.source == Source::Plugin {
                    " (the plugin needs gsd on PATH)"
                } else {
                    ""
                }
            )),
            (Some(p), None) => {
                problems.push(format!("{what} runs {}, which does not run", p.display()))
            }
            (Some(p), Some(v)) if *v != version => problems.push(format!(
                "{what} runs {} ({v}), not this {version}",
                p.display()
            )),
            // A bare `gsd` is looked up on PATH at every run: only a path
            // written into a settings file can go stale.
            (Some(p), Some(_)) if Path::new(&r.command).is_absolute() => {
                if let Some(why) = fragile_reason(p) {
                    problems.push(format!(
                        "{what} runs {} ({why}); it goes stale when that folder is cleaned",
                        p.display()
                    ));
                }
            }
            (Some(_), Some(_)) => {}
        }
        checked.push(CheckedRegistration {
            registration: r,
            resolved,
            version: ran,
        });
    }
    for (event, _, _) in EVENTS {
        let from: Vec<&CheckedRegistration> = checked
            .iter()
            .filter(|c| c.registration.event == *event)
            .collect();
        let settings: Vec<String> = from
            .iter()
            .filter(|c| c.registration.source != Source::Plugin)
            .map(|c| c.registration.file.display().to_string())
            .collect();
        if from.is_empty() {
            problems.push(format!(
                "no gsd {event} hook is installed: run `gsd ralph install-hooks`, or install the gsd plugin"
            ));
        } else if settings.len() > 1 {
            problems.push(format!(
                "gsd's {event} hook is installed {} times ({}): each stop would be judged more than once; `gsd ralph uninstall` (or --local) removes one",
                settings.len(),
                settings.join(", ")
            ));
        }
    }
    // What a crash left that holds no work is a problem `ralph clean`
    // solves; a worktree or branch with work is reported, not a problem.
    let leftovers = super::run::leftovers::find(root);
    for l in leftovers.iter().filter(|l| l.removable) {
        problems.push(format!("{} (`gsd ralph clean` removes it)", l.note));
    }
    Report {
        version,
        registrations: checked,
        leftovers,
        problems,
    }
}

/// The first line `BIN --version` prints, if it runs and succeeds.
fn version_of(bin: &Path) -> Option<String> {
    let o = std::process::Command::new(bin)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    o.status.success().then(|| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_owned()
    })
}
