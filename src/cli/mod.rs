//! The command line: parse arguments, call the library, print. The only
//! module that knows clap or writes to stdout/stderr.

// CLI errors carry their source text for miette; they are built once per
// process, so their size does not matter.
#![allow(clippy::result_large_err)]

// Shared pieces: arguments, errors, output, style (colour, -q), tables and
// the phase-run dashboard.
mod args;
mod dashboard;
mod error;
mod output;
mod run_view;
mod style;
mod table;

// One file per command group; none imports another.
mod compile;
mod convert;
mod export;
mod fm;
mod lint;
mod mcp;
mod meta;
mod phase;
mod plan;
mod ralph;
mod recover;
mod roadmap;
mod sdk;
mod state;
mod verify;
mod workstream;

use std::io::Write;
use std::path::PathBuf;

use clap::Parser;

pub use args::Cli;
use args::Command;
pub use error::CliError;
pub use output::Output;

/// Run the CLI and return the process exit code.
pub fn main() -> i32 {
    // Started as `gsd-sdk` (the shim `gsd sdk install-shim` links): answer
    // GSD's workflow queries with gsd-sdk's own argv and output.
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let called = argv
        .first()
        .and_then(|a| std::path::Path::new(a).file_name())
        .map(|n| n.to_string_lossy().into_owned());
    match called.as_deref() {
        Some("gsd-sdk") => return sdk::multicall(&argv[1..]),
        // Started as GSD Core's `gsd_run` or `gsd-tools`: its dialect.
        Some("gsd_run" | "gsd-tools") => return sdk::core(&argv[1..]),
        _ => {}
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let style = style::Style::new(cli.color, cli.quiet);
    style.install_error_handler();
    // Commands about gsd itself need no planning tree.
    let meta = match &cli.command {
        Command::Completions { shell } => Some(meta::completions(*shell)),
        Command::Man => Some(meta::man()),
        _ => None,
    };
    if let Some(result) = meta {
        return finish(result, style);
    }
    let cwd = match &cli.dir {
        Some(d) => d.clone(),
        None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
    };
    // An interrupted change is left to an explicit step (`gsd recover`, or
    // a write command, which announces it): a command that only reads never
    // moves another command's files. It is named after the command's own
    // output if it is still pending then.
    let root = crate::model::workspace::find_root(&cwd).ok();
    let pending = root.as_deref().map(pending_note).unwrap_or_default();
    if !style.quiet
        && let Some(note) = &pending.cleared
    {
        errln!("gsd: {note}");
    }
    // `gsd recover` says itself what became of the change.
    let recovering = matches!(cli.command, Command::Recover { .. });
    let code = run_command(cli, &cwd, style);
    if let (Some(root), Some(warning)) = (&root, &pending.warning)
        && !recovering
        && !style.quiet
        && crate::store::journal::pending(root)
    {
        errln!("warning: {warning}");
    }
    code
}

/// What a command says about the project's journal before and after it runs.
#[derive(Default)]
struct PendingNote {
    /// A torn journal was cleared.
    cleared: Option<String>,
    /// A change is pending (said after the command, if it still is).
    warning: Option<String>,
}

fn pending_note(root: &std::path::Path) -> PendingNote {
    use crate::store::recover::{Inspected, inspect};
    let how =
        "this command left it alone: `gsd recover` finishes it, `gsd recover --abandon` undoes it";
    match inspect(root) {
        Inspected::Nothing => PendingNote::default(),
        Inspected::ClearedTorn => PendingNote {
            cleared: Some(crate::store::Recovery::ClearedTorn.describe()),
            warning: None,
        },
        Inspected::Pending(message) => PendingNote {
            cleared: None,
            warning: Some(format!(
                "an interrupted change \"{message}\" is pending in {} ({how})",
                crate::store::journal::FILE
            )),
        },
        Inspected::Unreadable(why) => PendingNote {
            cleared: None,
            warning: Some(format!("{why} ({how})")),
        },
    }
}

/// Run one parsed command; its exit code.
fn run_command(cli: Cli, cwd: &std::path::Path, style: style::Style) -> i32 {
    let cwd = cwd.to_path_buf();
    if let Command::Sdk {
        command: args::SdkCommand::Query { argv },
    } = &cli.command
    {
        // gsd-sdk reads `--ws` itself, wherever it stands.
        let mut argv = argv.clone();
        if let Some(w) = &cli.ws {
            argv.splice(0..0, ["--ws".to_owned(), w.clone()]);
        }
        return sdk::query(&cwd, &argv);
    }
    if let Some(w) = &cli.ws {
        crate::model::workstream::choose(w);
    }
    let result = match cli.command {
        Command::Sdk { command } => sdk::run(command),
        Command::Core { argv } => {
            let mut argv: Vec<String> = argv
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            // gsd-tools reads `--ws` itself, wherever it stands.
            if let Some(w) = &cli.ws {
                argv.splice(0..0, ["--ws".to_owned(), w.clone()]);
            }
            return sdk::core_in(&cwd, &argv);
        }
        Command::Lint {
            path,
            format,
            deny,
            disable,
            min_severity,
            list_rules,
        } => lint::run(
            &cwd,
            lint::LintArgs {
                path,
                format,
                deny_warnings: deny.is_some(),
                disable,
                min_severity,
                list_rules,
            },
            style,
        ),
        Command::Phase { command } => phase::run(&cwd, command),
        Command::Plan {
            command: Some(command),
            ..
        } => plan::run(&cwd, command),
        Command::Plan {
            command: None,
            id,
            ralph,
        } => ralph::start(&cwd, id, ralph),
        Command::Roadmap {
            command: None,
            json,
            explain,
        } => roadmap::show(&cwd, json.json, explain),
        Command::Roadmap {
            command: Some(args::RoadmapCommand::UpdateProgress { write }),
            ..
        } => roadmap::update_progress(&cwd, &write),
        Command::State {
            command: None,
            json,
        } => state::show(&cwd, None, json.json),
        Command::State {
            command: Some(args::StateCommand::Get { field, json: j }),
            json,
        } => state::show(&cwd, Some(field), json.json || j.json),
        Command::State {
            command: Some(command),
            ..
        } => state::write(&cwd, command),
        Command::Init(args) => compile::init(&cwd, args),
        Command::Convert(args) => convert::run(&cwd, args),
        Command::Ralph { command } => ralph::run(&cwd, command),
        Command::Verify {
            plan,
            checks,
            timeout,
            json,
        } => verify::run(&cwd, &plan, checks, timeout, json.json),
        Command::Templates { command } => compile::templates(&cwd, command),
        Command::Research { command } => compile::research(&cwd, command),
        Command::Prd { out, format } => compile::prd(&cwd, out, format),
        Command::Fm { command } => fm::run(&cwd, command),
        Command::Export {
            command: args::ExportCommand::Html { out, json },
        } => export::html(&cwd, out, json.json),
        Command::Graph { phase, format } => export::graph(&cwd, phase, format),
        Command::Workstream { command, json } => {
            let json = json.json
                || matches!(command, Some(args::WorkstreamCommand::List { json: j }) if j.json);
            workstream::list(&cwd, json)
        }
        Command::Recover { abandon, json } => recover::run(&cwd, abandon, json.json),
        Command::Mcp { project } => mcp::serve(&cwd, project),
        Command::Completions { .. } | Command::Man => unreachable!("answered above"),
    };
    finish(result, style)
}

/// Print a command's answer (or its error) as the style says; the exit code.
fn finish(result: Result<Output, CliError>, style: style::Style) -> i32 {
    match result {
        Ok(output) => {
            if !style.quiet {
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(output.text.as_bytes());
                for n in &output.notes {
                    errln!("gsd: {n}");
                }
                for w in &output.warnings {
                    errln!("warning: {w}");
                }
            }
            output.code
        }
        Err(e) => {
            let code = e.exit_code();
            errln!("{:?}", miette::Report::new(e));
            code
        }
    }
}
