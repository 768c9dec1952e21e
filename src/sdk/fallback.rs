//! Commands gsd does not answer go to the real gsd-sdk, the way gsd-sdk
//! itself hands what it lacks to gsd-tools.cjs: a one-line notice on stderr,
//! then its output and exit code unchanged. With the fallback denied, or no
//! gsd-sdk to hand to, the answer is an error that names the command.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Answer, FallbackPolicy};

/// The real gsd-sdk: `GSD_SDK_REAL` if set, else the first `gsd-sdk` on
/// PATH that is not this binary (the shim `gsd sdk install-shim` puts first).
pub fn real_gsd_sdk() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GSD_SDK_REAL") {
        return Some(PathBuf::from(p));
    }
    let me = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok());
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("gsd-sdk"))
        .filter(|c| c.is_file())
        .find(|c| c.canonicalize().ok() != me)
}

/// Hand `argv` (the query argv as the caller gave it) to the real gsd-sdk.
/// `why` says why gsd does not answer it (` on workstream `x` yet`), or is empty.
pub fn hand_on(
    project: &Path,
    argv: &[String],
    name: &str,
    why: &str,
    policy: FallbackPolicy,
) -> Answer {
    let hint = "gsd answers the commands `gsd sdk coverage` lists as covered";
    if policy == FallbackPolicy::Denied {
        return Answer {
            stdout: String::new(),
            stderr: vec![format!(
                "Error: gsd does not answer `gsd-sdk query {name}`{why}, and falling back to gsd-sdk is switched off ({hint})"
            )],
            exit: 10,
        };
    }
    let Some(real) = real_gsd_sdk() else {
        return Answer {
            stdout: String::new(),
            stderr: vec![format!(
                "Error: gsd does not answer `gsd-sdk query {name}`{why}, and no gsd-sdk is installed to hand it to ({hint}; install get-shit-done-cc, or set GSD_SDK_REAL)"
            )],
            exit: 10,
        };
    };
    let mut cmd = Command::new(&real);
    cmd.arg("query").args(argv).current_dir(project);
    run_real(name, why, &real, cmd)
}

/// Run the real tool for a command gsd does not answer: its output as
/// the answer, after a one-line notice that it was handed on — and why, where
/// gsd covers the command but not this call (`why`, e.g. " on workstream
/// `x` yet"). The tool runs with its own fallback off, so it never hands the
/// call back to gsd.
pub fn run_real(name: &str, why: &str, real: &Path, mut cmd: Command) -> Answer {
    let what = if why.is_empty() {
        "is not covered by gsd".to_string()
    } else {
        format!("is not answered by gsd{why}")
    };
    let mut notice = vec![format!(
        "gsd: `{name}` {what}; handing it to {} (GSD_SDK_FALLBACK=off makes this an error)",
        real.display()
    )];
    // The caller's stdin, as the tool would have had it called directly: GSD
    // Core keys a terminal session's workstream pointer by the terminal it
    // finds there.
    match cmd
        .env("GSD_SDK_FALLBACK", "off")
        .stdin(std::process::Stdio::inherit())
        .output()
    {
        Ok(o) => {
            notice.extend(
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .map(str::to_string),
            );
            Answer {
                stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
                stderr: notice,
                exit: o.status.code().unwrap_or(1),
            }
        }
        Err(e) => Answer {
            stdout: String::new(),
            stderr: vec![format!("Error: cannot run {}: {e}", real.display())],
            exit: 1,
        },
    }
}
