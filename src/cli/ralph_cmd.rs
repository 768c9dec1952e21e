//! `gsd ralph …`.

use std::path::{Path, PathBuf};

use crate::model::workspace::find_root;
use crate::ralph::{hook, settings};

use super::Output;
use super::args::{HookEvent, RalphCommand};
use super::error::CliError;

/// The project a hook or install is about: `CLAUDE_PROJECT_DIR`, else the
/// planning root above `cwd`.
fn project_root(cwd: &Path) -> Option<PathBuf> {
    std::env::var_os("CLAUDE_PROJECT_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .or_else(|| find_root(cwd).ok())
}

pub fn run(cwd: &Path, cmd: RalphCommand) -> Result<Output, CliError> {
    match cmd {
        RalphCommand::Hook { event } => {
            let name = match event {
                HookEvent::Stop => "stop",
                HookEvent::SubagentStop => "subagent-stop",
                HookEvent::SessionStart => "session-start",
            };
            let reply = hook::handle(
                name,
                project_root(cwd).as_deref(),
                &mut std::io::stdin().lock(),
            );
            Ok(Output {
                text: reply.stdout,
                code: reply.code,
            })
        }
        RalphCommand::InstallHooks { local } => {
            let root = project_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
            let path = root.join(".claude").join(if local {
                "settings.local.json"
            } else {
                "settings.json"
            });
            let bin = std::env::current_exe()
                .and_then(std::fs::canonicalize)
                .map_err(|e| CliError::input(format!("cannot find the gsd binary: {e}"), None))?;
            let changed = settings::install(&root, &path, &bin.display().to_string())
                .map_err(|e| CliError::input(e.to_string(), None))?;
            Ok(Output::ok(if changed {
                format!(
                    "installed gsd's Stop, SubagentStop and SessionStart hooks in {} (backup in .gsd/settings-backup/)\n",
                    path.display()
                )
            } else {
                format!("{} already has gsd's hooks\n", path.display())
            }))
        }
        RalphCommand::Uninstall { local } => {
            let root = project_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
            let path = root.join(".claude").join(if local {
                "settings.local.json"
            } else {
                "settings.json"
            });
            let changed = settings::uninstall(&root, &path)
                .map_err(|e| CliError::input(e.to_string(), None))?;
            Ok(Output::ok(if changed {
                format!("removed gsd's hooks from {}\n", path.display())
            } else {
                format!("{} has no gsd hooks\n", path.display())
            }))
        }
    }
}
