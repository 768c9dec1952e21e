//! gsd as `gsd-sdk`: answer the `gsd-sdk query …` calls GSD's own workflows
//! make, with the JSON gsd-sdk gives, and writes made as gsd's exact edits.
//!
//! GSD's slash commands and agents never call gsd's own commands; they call
//! `gsd-sdk query <command>` (npm get-shit-done-cc 1.42.3) 473 times across
//! 95 commands, and every call pays a Node start. This module is the same
//! surface in-process: [`resolve`] finds the command the way gsd-sdk does,
//! [`registry`] holds the commands gsd answers itself, [`output`] prints
//! gsd-sdk's JSON (and `--pick`), and [`fallback`] hands anything else to the
//! real gsd-sdk when it is installed. Reads answer from the typed model or a
//! compatibility view of it ([`compat`]); writes go through `ops` and the one
//! write path, without a commit — the workflow's own `commit` call commits
//! exactly the files it names.

pub mod commands;
pub mod compat;
pub mod core;
pub mod coverage;
pub mod fallback;
pub mod output;
pub mod registry;
pub mod resolve;
pub mod shim;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// What a handler answers: JSON (printed pretty, like gsd-sdk) or raw text
/// (`agent-skills` hands workflows an XML block they embed verbatim).
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Json(Value),
    Text(String),
}

/// How gsd-sdk classifies a failure; it decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    /// Bad input or missing arguments: exit 10.
    Validation,
    /// A runtime failure (missing key, unreadable file): exit 1.
    Execution,
    /// A dependency or phase is missing: exit 11.
    Blocked,
    /// This form of the command is not gsd's to answer (`commit --amend`):
    /// it goes to the real gsd-sdk like an uncovered command.
    NotCovered,
}

/// A failed call, printed as `Error: <message>` like gsd-sdk does.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct SdkError {
    pub class: ErrorClass,
    pub message: String,
}

impl SdkError {
    pub fn validation(message: impl Into<String>) -> SdkError {
        SdkError {
            class: ErrorClass::Validation,
            message: message.into(),
        }
    }
    pub fn execution(message: impl Into<String>) -> SdkError {
        SdkError {
            class: ErrorClass::Execution,
            message: message.into(),
        }
    }
    pub fn blocked(message: impl Into<String>) -> SdkError {
        SdkError {
            class: ErrorClass::Blocked,
            message: message.into(),
        }
    }
    pub fn not_covered(why: impl Into<String>) -> SdkError {
        SdkError {
            class: ErrorClass::NotCovered,
            message: why.into(),
        }
    }
    pub fn exit_code(&self) -> i32 {
        match self.class {
            ErrorClass::Validation | ErrorClass::NotCovered => 10,
            ErrorClass::Blocked => 11,
            ErrorClass::Execution => 1,
        }
    }
}

/// One resolved call as a handler sees it.
#[derive(Debug)]
pub struct Call<'a> {
    /// The project directory (`--project-dir`, `--cwd`, or the working directory).
    pub project: &'a Path,
    /// The arguments after the command name.
    pub args: &'a [String],
    /// The caller's working directory: what gsd-sdk resolves a
    /// `path.resolve` argument against (`detect-custom-files --config-dir`).
    pub cwd: &'a Path,
}

impl<'a> Call<'a> {
    /// `.planning/` under the project.
    pub fn planning(&self) -> PathBuf {
        self.project.join(".planning")
    }
    /// The argument at `i`, if given.
    pub fn arg(&self, i: usize) -> Option<&'a str> {
        self.args.get(i).map(String::as_str)
    }
}

/// Whether a command gsd does not answer may go to the real gsd-sdk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FallbackPolicy {
    /// Hand it on with a one-line notice on stderr.
    Allowed,
    /// Fail with an error naming the command (`--no-fallback`, `GSD_SDK_FALLBACK=off`).
    Denied,
}

impl FallbackPolicy {
    /// The policy `GSD_SDK_FALLBACK` asks for (on unless `off`, `never`, `false` or `0`).
    pub fn from_env() -> FallbackPolicy {
        match std::env::var("GSD_SDK_FALLBACK")
            .unwrap_or_default()
            .to_ascii_lowercase()
            .as_str()
        {
            "off" | "never" | "false" | "0" => FallbackPolicy::Denied,
            _ => FallbackPolicy::Allowed,
        }
    }
}

/// A `gsd-sdk query` request.
#[derive(Debug, Clone)]
pub struct Request {
    pub project: PathBuf,
    /// The caller's working directory.
    pub cwd: PathBuf,
    /// The argv after `query`, with the project flags already taken out.
    pub argv: Vec<String>,
    pub fallback: FallbackPolicy,
    /// A workstream (`--ws`, GSD_WORKSTREAM, `.planning/active-workstream`, or
    /// the only workstream of a tree without root ROADMAP/STATE): gsd does not
    /// read workstream trees yet, so their workstream-bound calls are handed on.
    pub workstream: Option<String>,
}

/// What to print and the exit code: gsd-sdk's contract with its callers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    pub stdout: String,
    pub stderr: Vec<String>,
    pub exit: i32,
}

impl Answer {
    fn error(message: impl Into<String>, exit: i32) -> Answer {
        Answer {
            stdout: String::new(),
            stderr: vec![message.into()],
            exit,
        }
    }
}

/// Split gsd-sdk's own flags off a `query` argv: `--project-dir DIR`,
/// gsd-tools' `--cwd DIR` / `--cwd=DIR`, and `--no-fallback` (ours).
/// Everything else stays in order for the command.
pub fn parse_argv(argv: &[String], cwd: &Path) -> Request {
    let mut project = cwd.to_path_buf();
    let mut rest = Vec::new();
    let mut fallback = FallbackPolicy::from_env();
    let mut workstream = std::env::var("GSD_WORKSTREAM")
        .ok()
        .filter(|w| !w.is_empty());
    let mut i = 0;
    while i < argv.len() {
        let a = argv[i].as_str();
        if a == "--ws" && i + 1 < argv.len() {
            // Kept in the argv: the call goes to gsd-sdk, which reads it.
            workstream = Some(argv[i + 1].clone());
        }
        if (a == "--project-dir" || a == "--cwd") && i + 1 < argv.len() {
            project = cwd.join(&argv[i + 1]);
            i += 2;
            continue;
        }
        if let Some(dir) = a.strip_prefix("--cwd=") {
            project = cwd.join(dir);
        } else if a == "--no-fallback" {
            fallback = FallbackPolicy::Denied;
        } else {
            rest.push(argv[i].clone());
        }
        i += 1;
    }
    let workstream = workstream
        .filter(|w| crate::model::workstream::valid_name(w))
        .or_else(|| crate::model::workstream::implied_as_gsd_tools(&project));
    Request {
        project,
        cwd: cwd.to_path_buf(),
        argv: rest,
        fallback,
        workstream,
    }
}

/// Answer one `gsd-sdk query` request.
pub fn query(req: &Request) -> Answer {
    let mut argv = req.argv.clone();
    let pick = match output::take_pick(&mut argv) {
        Ok(p) => p,
        Err(e) => return Answer::error(format!("Error: {}", e.message), e.exit_code()),
    };
    if argv.first().is_none_or(|c| c.is_empty()) {
        return Answer::error("Error: \"gsd-sdk query\" requires a command", 10);
    }
    let resolved = resolve::resolve(&argv);
    let handler = resolved
        .as_ref()
        .and_then(|r| registry::handler(&r.command).map(|h| (r, h)));
    // A workstream tree's calls go to gsd-sdk, but for the commands whose
    // answer never depends on the workstream (a named file, a pure function).
    // So do its calls under GSD_PROJECT, which scopes them to
    // `.planning/<project>/` the same way.
    let project = core::gsd_project();
    let workstream_bound = handler.as_ref().is_some_and(|(r, _)| {
        (req.workstream.is_some() || project.is_some()) && !registry::workstream_free(&r.command)
    });
    let handler = handler.filter(|_| !workstream_bound);
    let Some((r, handler)) = handler else {
        let name = resolved
            .map(|r| r.command)
            .unwrap_or_else(|| resolve::normalize(&argv).join(" "));
        let why = match (&req.workstream, &project, workstream_bound) {
            (Some(w), _, true) => format!(" on workstream `{w}` yet"),
            (None, Some(p), true) => {
                format!(" under GSD_PROJECT `{p}` (gsd-sdk reads .planning/{p}/)")
            }
            _ => String::new(),
        };
        return fallback::hand_on(&req.project, &req.argv, &name, &why, req.fallback);
    };
    let call = Call {
        project: &req.project,
        args: &r.args,
        cwd: &req.cwd,
    };
    match handler(&call) {
        Err(e) if e.class == ErrorClass::NotCovered => fallback::hand_on(
            &req.project,
            &req.argv,
            &r.command,
            &format!(" here ({})", e.message),
            req.fallback,
        ),
        Ok(reply) => match output::render(reply, pick.as_deref()) {
            Ok(stdout) => Answer {
                stdout,
                stderr: Vec::new(),
                exit: 0,
            },
            Err(e) => Answer::error(format!("Error: {}", e.message), 1),
        },
        // gsd-sdk reports every handler failure with exit 1, whatever its class.
        Err(e) => Answer::error(format!("Error: {}", e.message), 1),
    }
}
