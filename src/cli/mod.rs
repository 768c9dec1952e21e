//! The command line: parse arguments, call the library, print. The only
//! module that knows clap or writes to stdout/stderr.

// CLI errors carry their source text for miette; they are built once per
// process, so their size does not matter.
#![allow(clippy::result_large_err)]

mod args;
mod compile;
mod convert_cmd;
mod error;
mod lint_cmd;
mod ralph_cmd;
mod read;
mod table;
mod write;

use std::io::Write;
use std::path::PathBuf;

use clap::Parser;

pub use args::Cli;
use args::Command;
pub use error::CliError;

/// Run the CLI and return the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let cwd = match &cli.dir {
        Some(d) => d.clone(),
        None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
    };
    let result = match cli.command {
        Command::Lint {
            path,
            format,
            deny,
            disable,
            list_rules,
        } => lint_cmd::run(&cwd, path, format, deny.is_some(), disable, list_rules),
        Command::Phase {
            command: command @ args::PhaseCommand::List { .. },
        } => read::phase(&cwd, command),
        Command::Phase { command } => write::phase(&cwd, command),
        Command::Plan {
            command: Some(command),
            ..
        } => read::plan(&cwd, command),
        Command::Plan {
            command: None,
            id,
            ralph,
        } => ralph_cmd::start(&cwd, id, ralph),
        Command::Roadmap {
            command: None,
            json,
        } => read::roadmap(&cwd, json.json),
        Command::Roadmap {
            command: Some(args::RoadmapCommand::UpdateProgress { write }),
            ..
        } => write::update_progress(&cwd, &write),
        Command::State {
            command: None,
            json,
        } => read::state(&cwd, None, json.json),
        Command::State {
            command: Some(args::StateCommand::Get { field, json: j }),
            json,
        } => read::state(&cwd, Some(field), json.json || j.json),
        Command::State {
            command: Some(command),
            ..
        } => write::state(&cwd, command),
        Command::Init(args) => compile::init(&cwd, args),
        Command::Convert(args) => convert_cmd::run(&cwd, args),
        Command::Ralph { command } => ralph_cmd::run(&cwd, command),
        Command::Verify {
            plan,
            checks,
            timeout,
            json,
        } => read::verify(&cwd, &plan, checks, timeout, json.json),
        Command::Templates { command } => compile::templates(&cwd, command),
        Command::Research { command } => compile::research(&cwd, command),
        Command::Prd { out, format } => compile::prd(&cwd, out, format),
        Command::Fm {
            command: command @ (args::FmCommand::Get { .. } | args::FmCommand::Validate { .. }),
        } => read::fm(&cwd, command),
        Command::Fm { command } => write::fm(&cwd, command),
    };
    match result {
        Ok(output) => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(output.text.as_bytes());
            for w in &output.warnings {
                eprintln!("warning: {w}");
            }
            output.code
        }
        Err(e) => {
            let code = e.exit_code();
            eprintln!("{:?}", miette::Report::new(e));
            code
        }
    }
}

/// What a command prints and its exit code.
pub struct Output {
    pub text: String,
    pub code: i32,
    /// Warnings for stderr (the answer stays parseable on stdout).
    pub warnings: Vec<String>,
}

impl Output {
    pub fn ok(text: impl Into<String>) -> Self {
        Output {
            text: text.into(),
            code: 0,
            warnings: Vec::new(),
        }
    }

    pub fn json(v: &serde_json::Value) -> Self {
        Output::ok(serde_json::to_string_pretty(v).expect("json") + "\n")
    }
}
