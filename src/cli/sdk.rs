//! `gsd sdk …` and the `gsd-sdk` multicall name: print what `crate::sdk`
//! answers, byte for byte as gsd-sdk would (stdout, stderr lines, exit code).

use std::fmt::Write as _;
use std::io::Write as _;
use std::os::fd::AsFd as _;
use std::path::{Path, PathBuf};

use crate::sdk::{self, coverage, shim};

use super::args::SdkCommand;
use super::error::CliError;
use super::output::Output;

/// Print an answer; its exit code. An answer that could not be written (a
/// full disk, a closed stdout) is a failure, as it is for gsd-sdk and
/// gsd-tools: a caller must not read an empty answer as a success.
fn print(a: &sdk::Answer) -> i32 {
    // One write, as Node's tools make it: through a line-buffered stdout the
    // answer would leave in two writes (up to its last newline, then the
    // rest), and a reader that closes the pipe after the first (`| head`)
    // would turn a good answer into EPIPE.
    let written = std::io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .map(std::fs::File::from)
        .and_then(|mut out| out.write_all(a.stdout.as_bytes()));
    for l in &a.stderr {
        errln!("{l}");
    }
    match written {
        Err(e) if a.exit == 0 => {
            errln!("Error: {e}");
            1
        }
        _ => a.exit,
    }
}

/// `gsd sdk query ARGV…`.
pub fn query(cwd: &Path, argv: &[String]) -> i32 {
    print(&sdk::query(&sdk::parse_argv(argv, cwd)))
}

/// `gsd core ARGV…`: GSD Core 1.14.0's dialect, from `cwd`.
pub fn core_in(cwd: &Path, argv: &[String]) -> i32 {
    print(&sdk::core::run(argv, cwd))
}

/// The binary was started as `gsd_run` or `gsd-tools`: every argument is
/// GSD Core's.
pub fn core(args: &[String]) -> i32 {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    core_in(&cwd, args)
}

/// The binary was started as `gsd-sdk`: `query` is answered here, every
/// other gsd-sdk command (`run`, `init`, `auto`) goes to the real gsd-sdk.
pub fn multicall(args: &[String]) -> i32 {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    match args.first().map(String::as_str) {
        Some("query") => query(&cwd, &args[1..]),
        Some("-v" | "--version") if sdk::fallback::real_gsd_sdk().is_none() => {
            println!(
                "gsd-sdk v1.42.3 (answered by gsd {})",
                env!("CARGO_PKG_VERSION")
            );
            0
        }
        _ => match sdk::fallback::real_gsd_sdk() {
            Some(real) => std::process::Command::new(&real)
                .args(args)
                .status()
                .ok()
                .and_then(|s| s.code())
                .unwrap_or(1),
            None => {
                errln!(
                    "Error: gsd answers `gsd-sdk query …`; `gsd-sdk {}` needs the real gsd-sdk (npm install -g get-shit-done-cc)",
                    args.join(" ")
                );
                1
            }
        },
    }
}

/// `gsd sdk install-shim` and `coverage`.
pub fn run(cmd: SdkCommand) -> Result<Output, CliError> {
    match cmd {
        SdkCommand::Query { .. } => unreachable!("printed by `query`"),
        SdkCommand::InstallShim {
            dir,
            uninstall,
            json,
        } => {
            let me = std::env::current_exe().map_err(|e| CliError::FileNotFound {
                file: "the gsd binary".into(),
                hint: e.to_string(),
            })?;
            let mut outcomes = Vec::new();
            for name in shim::NAMES {
                outcomes.push(if uninstall {
                    shim::uninstall_named(dir.as_deref(), &me, name)?
                } else {
                    shim::install_named(dir.as_deref(), &me, name)?
                });
            }
            let env = shim::env_file(dir.as_deref(), uninstall)?;
            if json.json {
                let as_json = |o: &shim::ShimOutcome| {
                    let mut v = serde_json::to_value(o).unwrap_or_default();
                    v["active"] = serde_json::Value::Bool(o.active());
                    v
                };
                // gsd-sdk's link at the top (as before GSD Core), GSD Core's two under `gsd_core`.
                let mut v = as_json(&outcomes[0]);
                v["npm_gsd_sdk"] = serde_json::to_value(&outcomes[0].npm_bin).unwrap_or_default();
                v["gsd_core"] = outcomes[1..].iter().map(as_json).collect();
                v["claude_env_file"] = serde_json::to_value(&env).unwrap_or_default();
                return Ok(Output::json(&v));
            }
            let mut out = Output::ok(String::new());
            if let Some(e) = &env {
                let verb = match (uninstall, e.changed) {
                    (false, true) => "added to",
                    (false, false) => "already in",
                    (true, true) => "removed from",
                    (true, false) => "not in",
                };
                let _ = writeln!(out.text, "{verb} {}: {}", e.file.display(), e.line);
            }
            // Links whose folder is not on PATH, said once per folder.
            let mut unreached: Vec<(String, Vec<String>)> = Vec::new();
            for o in &outcomes {
                let name = o
                    .link
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let verb = match (uninstall, o.changed) {
                    (false, true) => "linked",
                    (false, false) => "already linked",
                    (true, true) => "removed",
                    (true, false) => "no shim at",
                };
                let _ = writeln!(
                    out.text,
                    "{verb} {} → {}",
                    o.link.display(),
                    o.target.display()
                );
                let folder = o.link.parent().unwrap_or(Path::new(".")).display();
                // Claude Code sources its env file before every Bash call, so
                // its sessions (where workflows run) find the shim first even
                // when this shell's PATH does not: a note, not a warning.
                let sessions = env.as_ref().filter(|_| !uninstall).map(|e| {
                    format!(
                        "Claude Code sessions put {folder} first on PATH through {}",
                        e.file.display()
                    )
                });
                let problem = match (&o.first_on_path, uninstall) {
                    (Some(first), false) if !o.active() => Some(format!(
                        "`{name}` on this shell's PATH is still {}: put {folder} before its folder on PATH",
                        first.display(),
                    )),
                    (None, false) => {
                        let folder = folder.to_string();
                        match unreached.iter_mut().find(|(f, _)| *f == folder) {
                            Some((_, names)) => names.push(name.clone()),
                            None => unreached.push((folder, vec![name.clone()])),
                        }
                        None
                    }
                    _ => None,
                };
                match (problem, &sessions) {
                    (Some(p), Some(s)) => {
                        let _ = writeln!(out.text, "note: {p} ({s})");
                    }
                    (Some(p), None) => out.warnings.push(p),
                    _ => {}
                }
                if !uninstall
                    && o.active()
                    && let Some(npm) = &o.npm_bin
                {
                    let _ = writeln!(
                        out.text,
                        "{name} now runs gsd; {} is shadowed and still answers what gsd does not cover",
                        npm.display()
                    );
                }
            }
            for (folder, names) in unreached {
                let p = format!(
                    "{folder} is not on this shell's PATH: add it so workflows find {}",
                    names.join(", ")
                );
                match &env {
                    Some(e) => {
                        let _ = writeln!(
                            out.text,
                            "note: {p} (Claude Code sessions put {folder} first on PATH through {})",
                            e.file.display()
                        );
                    }
                    None => out.warnings.push(p),
                }
            }
            Ok(out)
        }
        SdkCommand::Coverage { package, json } => {
            let c = coverage::scan(&package)?;
            if json.json {
                let mut v = serde_json::to_value(&c).unwrap_or_default();
                v["percent"] = serde_json::json!((c.percent() * 10.0).round() / 10.0);
                return Ok(Output::json(&v));
            }
            let mut s = String::new();
            let _ = writeln!(
                s,
                "{} {}: {} calls to {} commands; gsd answers {} ({:.1}%)\n",
                c.dialect.package_name(),
                c.version.as_deref().unwrap_or("?"),
                c.calls,
                c.rows.len(),
                c.covered_calls,
                c.percent()
            );
            let _ = writeln!(s, "| command | calls | covered |\n|---|---:|---|");
            for r in &c.rows {
                let _ = writeln!(
                    s,
                    "| `{}` | {} | {} |",
                    r.command,
                    r.calls,
                    if r.covered { "yes" } else { "no" }
                );
            }
            if !c.unresolved.is_empty() {
                let _ = writeln!(
                    s,
                    "\n{} `{}` mentions name no command (prose or placeholders)",
                    c.unresolved.len(),
                    c.dialect
                        .markers()
                        .iter()
                        .map(|m| m.trim())
                        .collect::<Vec<_>>()
                        .join("` / `")
                );
            }
            Ok(Output::ok(s))
        }
    }
}
