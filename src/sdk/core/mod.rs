//! gsd as GSD Core's `gsd_run` / `gsd-tools` (npm @opengsd/gsd-core 1.14.0):
//! the second dialect, beside gsd-sdk 1.42.3's in the parent module.
//!
//! GSD Core's workflows call `gsd_run <command> …` (a launcher that runs
//! `node gsd-tools.cjs`) about a thousand times; each call pays a Node start.
//! This layer answers those calls in 1.14.0's own terms — its global flags
//! ([`parse_argv`]), its resolution ([`resolve`]), its output and error
//! contract ([`output`]) — from the same engine the 1.42.3 dialect uses,
//! where the two releases answer alike ([`native`]); everything else goes to
//! the real gsd-tools ([`fallback`]). The next upstream release is a new
//! module like this one, not a rewrite of the engine.

pub mod agents;
#[cfg(test)]
mod built_inputs;
pub mod checklist_mark;
pub mod clock;
pub mod context_use;
pub mod custom_files;
pub mod eval_score;
pub mod fallback;
pub mod frontmatter;
pub mod gitinfo;
pub mod graphify;
pub mod init_envelope;
pub mod init_execute_phase;
pub mod init_manager;
pub mod init_milestone;
pub mod init_phase_op;
pub mod init_phase_workflows;
pub mod init_plan_phase;
pub mod init_quick;
pub mod init_todos;
pub mod init_workflows;
pub mod init_workspaces;
pub mod isolation;
pub mod js;
mod loaded_config;
pub mod loop_hooks;
pub mod markdown;
pub mod milestone_window;
pub mod models;
pub mod mvp_mode;
pub mod named_args;
pub mod native;
pub mod output;
pub mod phase_id;
pub mod phase_writes;
pub mod plan_scan;
pub mod predicate;
pub mod prior_verify;
pub mod progress;
pub mod progress_table;
pub mod quick_batch;
pub mod reads;
pub mod research;
pub mod resolve;
pub mod review_lane;
pub mod roadmap_analyze;
pub mod roadmap_phase;
pub mod runtime_facts;
pub mod section_manifest;
pub mod slug;
pub mod smart_entry;
pub mod state_contract;
pub mod state_fields;
pub mod state_get;
pub mod state_lists;
pub mod state_load;
pub mod state_metrics;
pub mod state_snapshot;
pub mod state_writes;
pub mod summary_extract;
pub mod tdd_applicable;
pub mod test_command;
pub mod timeout;
pub mod todos;
pub mod tree_writes;
pub mod user_story;
pub mod verification;
pub mod windows;
pub mod workstream_pointer;
pub mod workstreams;
pub mod writes;

use std::path::{Path, PathBuf};

use super::{Answer, FallbackPolicy};
use native::{CoreCall, Refusal, Scope};
use output::Failure;

/// One `gsd_run` call, its global flags taken apart the way gsd-tools'
/// `main()` takes them.
#[derive(Debug, Clone)]
pub struct Request {
    /// The caller's working directory.
    pub cwd: PathBuf,
    /// The project root: `--project-dir`, else `--cwd`, else the working directory.
    pub project: PathBuf,
    /// Whether `--project-dir` named the root (gsd-tools then skips its
    /// walk up to an ancestor holding `.planning/`).
    pub project_explicit: bool,
    /// The caller's argv without `--no-fallback`: what the real gsd-tools gets.
    pub original: Vec<String>,
    /// The argv after every global flag is taken out.
    pub argv: Vec<String>,
    pub raw: bool,
    pub pick: Option<String>,
    pub default: Option<String>,
    pub json_errors: bool,
    /// Only exit contract v1 (the default) is answered here.
    pub contract_v1: bool,
    pub workstream: Option<String>,
    /// A workstream pointer gsd-tools would read and cannot.
    pub unreadable_pointer: Option<PathBuf>,
    pub fallback: FallbackPolicy,
}

/// Take a flag given as `--name VALUE` or `--name=VALUE` out of `args`.
/// `Err` when it is there without a value.
fn take_valued(args: &mut Vec<String>, name: &str) -> Result<Option<String>, ()> {
    let eq = format!("{name}=");
    if let Some(i) = args.iter().position(|a| a.starts_with(&eq)) {
        let v = args.remove(i)[eq.len()..].trim().to_string();
        return if v.is_empty() { Err(()) } else { Ok(Some(v)) };
    }
    take_spaced(args, name)
}

/// Take a flag given only as `--name VALUE` out of `args` (gsd-tools reads
/// `--pick=FIELD` as an argument of the command, not as `--pick`).
fn take_spaced(args: &mut Vec<String>, name: &str) -> Result<Option<String>, ()> {
    let Some(i) = args.iter().position(|a| a == name) else {
        return Ok(None);
    };
    match args
        .get(i + 1)
        .filter(|v| !v.is_empty() && !v.starts_with("--"))
    {
        Some(v) => {
            let v = v.clone();
            args.drain(i..i + 2);
            Ok(Some(v))
        }
        None => Err(()),
    }
}

/// A workstream name gsd-tools accepts: a letter or digit, then letters,
/// digits, `.`, `_` or `-`, with no `..`.
fn workstream_name_ok(name: &str) -> bool {
    let name = name.trim();
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        && !name.contains("..")
}

fn usage(message: String) -> Failure {
    Failure::new("usage", message)
}

fn is_dir(p: &Path) -> bool {
    p.is_dir()
}

/// Split GSD Core's global flags off `argv`, or the failure gsd-tools
/// reports for a malformed one (with whether `--json-errors` was asked for).
pub fn parse_argv(argv: &[String], cwd: &Path) -> Result<Request, (Failure, bool)> {
    let mut args: Vec<String> = argv.to_vec();
    let mut fallback = FallbackPolicy::from_env();
    if let Some(i) = args.iter().position(|a| a == "--no-fallback") {
        args.remove(i);
        fallback = FallbackPolicy::Denied;
    }
    let original = args.clone();
    let json_errors = match args.iter().position(|a| a == "--json-errors") {
        Some(i) => {
            args.remove(i);
            true
        }
        None => std::env::var("GSD_JSON_ERRORS").is_ok_and(|v| v == "1"),
    };
    let fail = |f: Failure| Err((f, json_errors));
    let flagged = args.iter().any(|a| a.starts_with("--exit-contract="));
    args.retain(|a| !a.starts_with("--exit-contract="));
    let contract_v1 = !flagged
        && std::env::var("GSD_EXIT_CONTRACT")
            .map(|v| v.is_empty() || v == "v1")
            .unwrap_or(true);
    let mut project = cwd.to_path_buf();
    match take_valued(&mut args, "--cwd") {
        Ok(Some(d)) => project = cwd.join(d),
        Ok(None) => {}
        Err(()) => return fail(usage("Missing value for --cwd".into())),
    }
    if !is_dir(&project) {
        return fail(usage(format!("Invalid --cwd: {}", project.display())));
    }
    let mut project_explicit = false;
    match take_valued(&mut args, "--project-dir") {
        Ok(Some(d)) => {
            let dir = cwd.join(d);
            if !is_dir(&dir) {
                return fail(usage(format!(
                    "Invalid --project-dir: {} (path does not exist or is not a directory)",
                    dir.display()
                )));
            }
            if !is_dir(&dir.join(".planning")) {
                return fail(usage(format!(
                    "Invalid --project-dir: {} (no .planning/ directory found — --project-dir must name the project root itself, not an ancestor to walk up from)",
                    dir.display()
                )));
            }
            project = dir;
            project_explicit = true;
        }
        Ok(None) => {}
        Err(()) => return fail(usage("Missing value for --project-dir".into())),
    }
    // `--ws`, else GSD_WORKSTREAM (trimmed): gsd-tools refuses either
    // without a value or with a name unsafe as a folder, for every command.
    let mut workstream = std::env::var("GSD_WORKSTREAM")
        .ok()
        .map(|w| w.trim().to_string())
        .filter(|w| !w.is_empty());
    match take_valued(&mut args, "--ws") {
        Ok(Some(w)) => workstream = Some(w),
        Ok(None) => {}
        Err(()) => return fail(Failure::new("unknown", "Missing value for --ws")),
    }
    if workstream
        .as_deref()
        .is_some_and(|w| !workstream_name_ok(w))
    {
        return fail(Failure::new(
            "unknown",
            "Invalid workstream name: must be alphanumeric, hyphens, underscores, or dots",
        ));
    }
    let unreadable_pointer = workstream
        .is_none()
        .then(|| workstream_pointer::unreadable(&project))
        .flatten();
    // The session's own pointer first (1.14.0 keeps one per agent session),
    // then what the tree says.
    let workstream = workstream
        .or_else(|| workstream_pointer::stored(&project))
        .or_else(|| crate::model::workstream::implied_as_gsd_tools(&project));
    let raw = match args.iter().position(|a| a == "--raw") {
        Some(i) => {
            args.remove(i);
            true
        }
        None => false,
    };
    let pick = match take_spaced(&mut args, "--pick") {
        Ok(p) => p,
        Err(()) => return fail(usage("Missing value for --pick".into())),
    };
    let default = match args.iter().position(|a| a == "--default") {
        Some(i) => {
            let v = args.get(i + 1).cloned().unwrap_or_default();
            args.drain(i..(i + 2).min(args.len()));
            Some(v)
        }
        None => None,
    };
    Ok(Request {
        cwd: cwd.to_path_buf(),
        project,
        project_explicit,
        original,
        argv: args,
        raw,
        pick,
        default,
        json_errors,
        contract_v1,
        workstream,
        unreadable_pointer,
        fallback,
    })
}

/// Why this call is not one gsd answers natively, before any handler runs.
fn not_native_because(req: &Request, scope: Scope) -> Option<String> {
    if !req.contract_v1 {
        return Some(" under an exit contract other than v1".into());
    }
    if let Some(p) = &req.unreadable_pointer {
        return Some(format!(
            " where the workstream pointer {} cannot be read (gsd-tools stops there)",
            p.display()
        ));
    }
    if req.argv.iter().any(|a| {
        matches!(
            a.as_str(),
            "-h" | "--help" | "-?" | "--h" | "--usage" | "--version" | "-v"
        )
    }) {
        return Some(" with a help or version flag".into());
    }
    if scope != Scope::Free {
        if let Some(w) = req.workstream.as_ref().filter(|_| scope != Scope::Root) {
            return Some(format!(" on workstream `{w}` yet"));
        }
        if let Some(p) = gsd_project() {
            return Some(format!(
                " under GSD_PROJECT `{p}` (1.14.0 reads .planning/{p}/)"
            ));
        }
        if !req.project_explicit && !is_dir(&req.project.join(".planning")) {
            let below = req
                .project
                .ancestors()
                .skip(1)
                .any(|a| is_dir(&a.join(".planning")));
            if below {
                return Some(
                    " from a folder below the project root (gsd-tools walks up to it)".into(),
                );
            }
            if scope == Scope::Planning {
                return Some(" outside a project (no .planning/ here or above)".into());
            }
        }
    }
    None
}

/// `GSD_PROJECT`, where set: gsd-tools then reads `.planning/<project>/`
/// for every planning file, which gsd's reading does not.
pub(crate) fn gsd_project() -> Option<String> {
    std::env::var("GSD_PROJECT").ok().filter(|p| !p.is_empty())
}

/// Whether the exit contract asked for (`--exit-contract=`, else
/// GSD_EXIT_CONTRACT) is one gsd-tools knows: v1 or v2 (an exit code a
/// command returns is the same under both).
fn contract_answered(argv: &[String]) -> bool {
    match argv.iter().find_map(|a| a.strip_prefix("--exit-contract=")) {
        Some(v) => matches!(v, "v1" | "v2"),
        None => std::env::var("GSD_EXIT_CONTRACT")
            .map_or(true, |v| matches!(v.as_str(), "" | "v1" | "v2")),
    }
}

/// Answer one `gsd_run` call in GSD Core 1.14.0's dialect.
pub fn query(req: &Request) -> Answer {
    let resolved = resolve::resolve(&req.argv);
    let name = resolved
        .as_ref()
        .map(|r| r.command.clone())
        .unwrap_or_else(|| req.argv.join(" "));
    let real = fallback::real_gsd_tools();
    let hand_on = |why: &str| {
        fallback::hand_on(
            &req.cwd,
            &req.original,
            &name,
            why,
            req.fallback,
            req.json_errors,
        )
    };
    let Some(r) = resolved else {
        return hand_on("");
    };
    // Reached only where gsd-tools would not run it either (a global flag
    // ahead of it) or under an exit contract this dialect does not answer.
    if r.command == timeout::COMMAND {
        return hand_on("");
    }
    let Some((scope, handler)) = native::native(&r.command) else {
        return hand_on("");
    };
    if let Some(why) = not_native_because(req, scope) {
        return hand_on(&why);
    }
    let call = CoreCall {
        project: &req.project,
        cwd: &req.cwd,
        args: &r.args,
        default: req.default.as_deref(),
        real: real.as_deref(),
        picked: req.pick.is_some(),
        workstream: req.workstream.as_deref(),
    };
    let failed = |f: Failure| Answer {
        stdout: String::new(),
        stderr: vec![f.line(req.json_errors)],
        exit: 1,
    };
    match handler(&call) {
        Ok(out) => match output::render(&out, req.raw, req.pick.as_deref()) {
            Ok(stdout) => Answer {
                stdout,
                stderr: Vec::new(),
                exit: 0,
            },
            Err(f) => failed(f),
        },
        Err(Refusal::HandOn(why)) => hand_on(&format!(" here ({})", why.trim())),
        Err(Refusal::Fail(f)) => failed(f),
    }
}

/// Whether gsd answers `command` (a canonical name) itself.
pub fn answers(command: &str) -> bool {
    command == timeout::COMMAND || native::native(command).is_some()
}

/// Parse and answer: what `gsd_run ARGV…` prints. `run-with-timeout` is run
/// here, before any flag is read (its command's argv is opaque), with the
/// caller's stdio; so are only the exit contracts this dialect answers.
pub fn run(argv: &[String], cwd: &Path) -> Answer {
    if let Some(wrapped) = timeout::intercepted(argv)
        && contract_answered(argv)
    {
        let outcome = timeout::run(&wrapped);
        return Answer {
            stdout: String::new(),
            stderr: outcome.message().into_iter().collect(),
            exit: outcome.code(),
        };
    }
    match parse_argv(argv, cwd) {
        Ok(req) => query(&req),
        Err((f, json_errors)) => Answer {
            stdout: String::new(),
            stderr: vec![f.line(json_errors)],
            exit: 1,
        },
    }
}
