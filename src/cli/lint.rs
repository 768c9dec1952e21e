//! `gsd lint`.

use std::path::{Path, PathBuf};

use crate::lint::{self, Options, RULES, Severity, output};

use super::args::{Format, MinSeverity};
use super::error::{CliError, did_you_mean};
use super::output::Output;
use super::style::Style;

/// `gsd lint`'s arguments.
pub struct LintArgs {
    pub path: Option<PathBuf>,
    pub format: Format,
    pub deny_warnings: bool,
    pub disable: Vec<String>,
    /// Findings less severe than this are not shown.
    pub min_severity: MinSeverity,
    pub list_rules: bool,
}

pub fn run(cwd: &Path, args: LintArgs, style: Style) -> Result<Output, CliError> {
    let LintArgs {
        path,
        format,
        deny_warnings,
        disable,
        min_severity,
        list_rules,
    } = args;
    if list_rules {
        let mut s = String::new();
        for r in RULES {
            s.push_str(&format!(
                "{:<36} {:<8} {}\n",
                r.code,
                r.severity.as_str(),
                r.summary
            ));
        }
        return Ok(Output::ok(s));
    }
    for code in &disable {
        if lint::registry::find(code).is_none() {
            let hint = match did_you_mean(code, RULES.iter().map(|r| r.code)) {
                Some(m) => format!("did you mean `{m}`? (`gsd lint --list-rules` lists them all)"),
                None => "`gsd lint --list-rules` lists every rule".into(),
            };
            return Err(CliError::input(
                format!("unknown rule `{code}`"),
                Some(hint),
            ));
        }
    }
    let start = match path {
        Some(p) if p.is_absolute() => p,
        Some(p) => cwd.join(p),
        None => cwd.to_path_buf(),
    };
    if !start.exists() {
        return Err(CliError::FileNotFound {
            file: start.display().to_string(),
            hint: "pass a project folder or its .planning/ folder".into(),
        });
    }
    let root = crate::model::workspace::find_root(&start)?;
    let project = lint::project::run_project(&root, &Options { disabled: disable })?;
    let files = project.files_checked();
    let diags = project.diagnostics;
    let least = match min_severity {
        MinSeverity::Info => Severity::Info,
        MinSeverity::Warning => Severity::Warning,
        MinSeverity::Error => Severity::Error,
    };
    // The exit code still counts every finding: only what is shown changes.
    let failing = diags.iter().any(|d| {
        d.severity == Severity::Error || (deny_warnings && d.severity == Severity::Warning)
    });
    // Taken out in place: a partition into two new vectors held a big
    // tree's findings twice at the end of the run.
    let mut diags = diags;
    let hidden: Vec<_> = diags.extract_if(.., |d| d.severity > least).collect();
    let text = match format {
        _ if style.quiet => String::new(),
        Format::Json => {
            let mut out = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
            let _ = output::json::write(&diags, files, &mut out);
            let _ = std::io::Write::flush(&mut out);
            String::new()
        }
        Format::Github => output::github::render(&diags),
        Format::Sarif => output::sarif::render(&diags),
        Format::Human => {
            // Lint keeps no document: the files with findings are read
            // again, one at a time, for their excerpts.
            let mut sources = output::human::FromDisk::new(&root);
            let mut out = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
            let _ = output::human::write(
                &diags,
                &mut sources,
                style.stdout_color,
                files,
                &hidden,
                &mut out,
            );
            let _ = std::io::Write::flush(&mut out);
            String::new()
        }
    };
    // The process ends right after printing: freeing every finding one by
    // one would only delay the exit.
    std::mem::forget(diags);
    std::mem::forget(hidden);
    Ok(Output::ok(text).with_code(i32::from(failing)))
}
