//! What gsd does not answer in GSD Core's dialect goes to the real
//! gsd-tools.cjs, the way `super::super::fallback` hands gsd-sdk calls on:
//! a one-line notice on stderr, then its stdout, stderr and exit code
//! unchanged. With the fallback denied, or no gsd-tools to hand to, the
//! answer is an error naming the command.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::super::{Answer, FallbackPolicy};
use super::output::Failure;

/// The real GSD Core tool: `GSD_CORE_REAL` (a `gsd-tools.cjs`, the npm
/// `gsd_run`/`gsd-tools` bin, or the package folder) if set, else the first `gsd_run` on PATH that
/// is not this binary (the shim `gsd sdk install-shim` puts first), else a
/// `gsd-tools` that is GSD Core's `gsd-tools.cjs` — get-shit-done-cc
/// publishes a `gsd-tools` bin too, which speaks the other dialect.
pub fn real_gsd_tools() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GSD_CORE_REAL").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        // A folder is taken as the package (or its `gsd-core/bin`): the tool
        // inside it, not a "Permission denied" from running the folder.
        if p.is_dir() {
            return [
                "gsd-core/bin/gsd-tools.cjs",
                "bin/gsd-tools.cjs",
                "gsd-tools.cjs",
            ]
            .iter()
            .map(|rel| p.join(rel))
            .find(|c| c.is_file())
            .or(Some(p));
        }
        return Some(p);
    }
    let me = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok());
    let path = std::env::var_os("PATH")?;
    let not_me = |c: &PathBuf| c.is_file() && c.canonicalize().ok() != me;
    std::env::split_paths(&path)
        .map(|d| d.join("gsd_run"))
        .find(not_me)
        .or_else(|| {
            std::env::split_paths(&path)
                .map(|d| d.join("gsd-tools"))
                .filter(not_me)
                .find(|c| {
                    c.canonicalize()
                        .is_ok_and(|r| r.file_name().is_some_and(|n| n == "gsd-tools.cjs"))
                })
        })
}

/// How to start it: a `.cjs` file through node, anything else as is.
fn command_for(real: &Path) -> Command {
    if real.extension().is_some_and(|e| e == "cjs" || e == "js") {
        let mut c = Command::new("node");
        c.arg(real);
        c
    } else {
        Command::new(real)
    }
}

/// Hand `argv` (the caller's argv, every global flag in place) to the real
/// gsd-tools, run from `cwd`. `why` says why gsd does not answer, or is empty.
pub fn hand_on(
    cwd: &Path,
    argv: &[String],
    name: &str,
    why: &str,
    policy: FallbackPolicy,
    json_errors: bool,
) -> Answer {
    let hint = "gsd answers the commands `gsd sdk coverage` lists as covered";
    let refuse = |message: String| Answer {
        stdout: String::new(),
        stderr: vec![Failure::new("sdk_unknown_command", message).line(json_errors)],
        exit: 1,
    };
    if policy == FallbackPolicy::Denied {
        return refuse(format!(
            "gsd does not answer `gsd_run {name}`{why}, and falling back to gsd-tools is switched off ({hint})"
        ));
    }
    let Some(real) = real_gsd_tools() else {
        return refuse(format!(
            "gsd does not answer `gsd_run {name}`{why}, and no GSD Core gsd-tools is installed to hand it to ({hint}; npm install -g @opengsd/gsd-core, or set GSD_CORE_REAL)"
        ));
    };
    let mut cmd = command_for(&real);
    cmd.args(argv).current_dir(cwd);
    super::super::fallback::run_real(name, why, &real, cmd)
}
