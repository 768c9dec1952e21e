//! `gsd convert`.

use std::io::Read;
use std::path::Path;

use crate::convert::gsd_xml::TaskScan;
use crate::convert::stream::{Totals, write_each};
use crate::convert::{ConvertError, Format, dropped, dropped_from};
use crate::model::plan_ref;
use crate::model::workspace::Scope;
use crate::model::{PlanId, Workspace};

use super::args::ConvertArgs;
use super::error::CliError;
use super::output::{Output, stored};

impl From<ConvertError> for CliError {
    fn from(e: ConvertError) -> Self {
        let help = match &e {
            ConvertError::UnknownFormat(_) => Some(format!(
                "formats: {}",
                Format::ALL
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            ConvertError::NoName { .. } => {
                Some("every task needs a name (checkpoint tasks excepted)".into())
            }
            ConvertError::Empty => {
                Some("pass a file, a plan ID, or pipe the tasks into `-`".into())
            }
            _ => None,
        };
        CliError::input(e.to_string(), help)
    }
}

pub fn run(cwd: &Path, args: ConvertArgs) -> Result<Output, CliError> {
    let to = Format::parse(&args.to)?;
    let from = args.from.as_deref().map(Format::parse).transpose()?;
    // The input: stdin, a file, or a plan ID.
    let text = if args.input == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| CliError::input(format!("cannot read stdin: {e}"), None))?;
        s
    } else if cwd.join(&args.input).is_file() {
        std::fs::read_to_string(cwd.join(&args.input))
            .map_err(|e| CliError::input(format!("cannot read {}: {e}", args.input), None))?
    } else if PlanId::parse(&args.input).is_some() {
        let ws = Workspace::discover_with(cwd, Scope::Full)?;
        let plan = plan_ref::find_plan(&ws, cwd, &args.input)?.at.plan;
        std::fs::read_to_string(plan.doc.path())
            .map_err(|e| CliError::input(e.to_string(), None))?
    } else {
        return Err(CliError::FileNotFound {
            file: args.input.clone(),
            hint: "pass a file, a plan ID (05-07) or - for stdin".into(),
        });
    };
    let from = match from {
        Some(f) => f,
        None => Format::detect(&text)?,
    };
    if from == Format::GsdXml && args.into.is_none() {
        return stream_from_gsd(cwd, &text, to, &args);
    }
    let tasks = from.read(&text)?;
    let lost = dropped(&tasks, to);
    report_lost(&lost, to, args.strict)?;
    if let Some(plan_id) = &args.into {
        if to != Format::GsdXml {
            return Err(CliError::input(
                "--into writes GSD tasks; use --to gsd-xml",
                None,
            ));
        }
        let o = crate::ops::run(cwd, args.write.options(), Scope::Full, |ws| {
            crate::ops::convert::into_plan(ws, cwd, plan_id, &tasks, from, args.xml_strict)
        })?;
        return Ok(stored(o, args.write.json));
    }
    let out = to.write(&tasks, args.xml_strict);
    match args.out {
        Some(file) => {
            let path = if file.is_absolute() {
                file
            } else {
                cwd.join(file)
            };
            let message = format!("docs: tasks as {}", to.name());
            if let Some(o) = crate::ops::write_output(&path, out.into_bytes(), message)? {
                return Ok(stored(o, false));
            }
            Ok(Output::ok(format!(
                "wrote {} ({} tasks, {} → {})\n",
                path.display(),
                tasks.len(),
                from.name(),
                to.name()
            )))
        }
        None => Ok(Output::ok(out)),
    }
}

/// GSD XML in, any format out, one task at a time: the input text and one
/// task in memory, the output written as it is made (to stdout, or through
/// an atomic temp file for `--out`). Tasks are built twice — once to check
/// what the target cannot carry (and refuse under `--strict` before
/// anything is written), once to write — which costs time, not memory.
fn stream_from_gsd(
    cwd: &Path,
    text: &str,
    to: Format,
    args: &ConvertArgs,
) -> Result<Output, CliError> {
    let scan = TaskScan::new(text)?;
    let mut lost: Vec<String> = scan
        .tasks(text)
        .enumerate()
        .flat_map(|(i, t)| dropped_from(&t, i + 1, to))
        .collect();
    lost.dedup();
    report_lost(&lost, to, args.strict)?;
    let totals = Totals {
        tasks: scan.len(),
        passed: scan.passed(text),
    };
    let write =
        |w: &mut dyn std::io::Write| write_each(to, totals, args.xml_strict, scan.tasks(text), w);
    match &args.out {
        Some(file) => {
            let path = if file.is_absolute() {
                file.clone()
            } else {
                cwd.join(file)
            };
            // Into a planning file: through the transaction (a planning file
            // is small); anywhere else: streamed to disk as it is made.
            if crate::ops::planning_root(&path).is_some() {
                let mut bytes = Vec::new();
                write(&mut bytes)
                    .map_err(|e| CliError::input(format!("cannot convert: {e}"), None))?;
                let message = format!("docs: tasks as {}", to.name());
                if let Some(o) = crate::ops::write_output(&path, bytes, message)? {
                    return Ok(stored(o, false));
                }
            } else {
                crate::store::atomic::write_with(&path, write).map_err(|e| {
                    CliError::input(format!("cannot write {}: {e}", path.display()), None)
                })?;
            }
            Ok(Output::ok(format!(
                "wrote {} ({} tasks, {} → {})\n",
                path.display(),
                totals.tasks,
                Format::GsdXml.name(),
                to.name()
            )))
        }
        None => {
            let stdout = std::io::stdout();
            let mut w = std::io::BufWriter::new(stdout.lock());
            write(&mut w)
                .and_then(|()| std::io::Write::flush(&mut w))
                .map_err(|e| CliError::input(format!("cannot write the output: {e}"), None))?;
            Ok(Output::ok(String::new()))
        }
    }
}

/// What the target format cannot carry: a warning, or with `--strict` an
/// error before anything is written.
fn report_lost(lost: &[String], to: Format, strict: bool) -> Result<(), CliError> {
    if lost.is_empty() {
        return Ok(());
    }
    if strict {
        return Err(CliError::BadInput {
            message: format!("{} cannot carry: {}", to.name(), lost.join(", ")),
            help: Some(
                "convert to msw-json or gsd-xml to keep everything, or drop --strict".into(),
            ),
            src: None,
            at: None,
        });
    }
    errln!("warning: {} cannot carry: {}", to.name(), lost.join(", "));
    Ok(())
}
