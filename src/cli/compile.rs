//! Document-compiler commands: init, templates, research refs, prd, plan new.

use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write as _};
use std::path::Path;

use serde_json::json;

use crate::model::Workspace;
use crate::model::workspace::{Scope, find_root};
use crate::render::{self, Origin, RenderError, Renderer};
use crate::store;

use super::args::{InitArgs, PrdFormat, ResearchCommand, TemplatesCommand};
use super::error::CliError;
use super::output::{Output, stored};

impl From<RenderError> for CliError {
    fn from(e: RenderError) -> Self {
        let (src, at, help) = match (&e.origin, e.line) {
            (Origin::Override(path), Some(line)) => {
                let offset: usize = e
                    .source_text
                    .split_inclusive('\n')
                    .take(line - 1)
                    .map(str::len)
                    .sum();
                let (src, at) = crate::doc::excerpt::Excerpt::around(
                    path.display().to_string(),
                    &e.source_text,
                    offset,
                    0,
                );
                (
                    Some(src),
                    Some(at),
                    Some(format!(
                        "fix {} or delete it to use the built-in template",
                        path.display()
                    )),
                )
            }
            (Origin::Override(path), None) => (
                None,
                None,
                Some(format!(
                    "fix {} or delete it to use the built-in template",
                    path.display()
                )),
            ),
            (Origin::Embedded, _) => (None, None, None),
        };
        let message = match e.line {
            Some(l) => format!("{} (line {l})", e),
            None => e.to_string(),
        };
        CliError::BadInput {
            message,
            help,
            src,
            at,
        }
    }
}

fn ask(prompt: &str, default: &str) -> String {
    let mut out = std::io::stderr();
    let _ = write!(out, "{prompt} [{default}]: ");
    let _ = out.flush();
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
    let t = line.trim();
    if t.is_empty() {
        default.to_owned()
    } else {
        t.to_owned()
    }
}

/// `gsd init`.
pub fn init(cwd: &Path, args: InitArgs) -> Result<Output, CliError> {
    let root = std::path::absolute(cwd).map_err(|e| CliError::input(e.to_string(), None))?;
    let planning = root.join(".planning");
    let workstream = crate::model::workstream::chosen();
    if let Some(w) = &workstream {
        if !crate::model::workstream::valid_name(w) {
            return Err(crate::model::workspace::WorkspaceError::from(
                crate::model::workstream::WorkstreamError::InvalidName { name: w.clone() },
            )
            .into());
        }
        let dir = crate::model::workstream::dir(&root).join(w);
        if (dir.join("ROADMAP.md").exists() || dir.join("STATE.md").exists()) && !args.force {
            return Err(CliError::input(
                format!("workstream `{w}` already has its planning files in {}", dir.display()),
                Some("use the edit commands with --ws, or pass --force to write the core files over them".into()),
            ));
        }
    } else if planning.exists() && !args.force {
        let names = crate::model::workstream::names(&root);
        if !names.is_empty()
            && !planning.join("ROADMAP.md").exists()
            && !planning.join("STATE.md").exists()
        {
            return Err(CliError::input(
                format!(
                    "{} keeps its work in workstreams ({})",
                    planning.display(),
                    names.join(", ")
                ),
                Some(
                    "start another with `gsd init --ws NAME`, or work on one with `--ws NAME`"
                        .into(),
                ),
            ));
        }
        return Err(CliError::input(
            format!("{} already exists; gsd init never touches an existing planning folder", planning.display()),
            Some("use the edit commands (gsd state, gsd phase …), or pass --force to write the core files over it".into()),
        ));
    }
    let interactive = !args.yes && std::io::stdin().is_terminal();
    let dir_name = root
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("project")
        .to_owned();
    let pick = |given: Option<String>, prompt: &str, default: &str| match given {
        Some(v) => v,
        None if interactive => ask(prompt, default),
        None => default.to_owned(),
    };
    // A new workstream belongs to the project PROJECT.md names.
    let project_name = workstream
        .as_ref()
        .and_then(|_| std::fs::read_to_string(planning.join("PROJECT.md")).ok())
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("# ").map(|n| n.trim().to_owned()))
        })
        .filter(|n| !n.is_empty());
    let name = pick(
        args.name,
        "Project name",
        project_name.as_deref().unwrap_or(&dir_name),
    );
    let description = pick(
        args.description,
        "What is it, in one sentence",
        &format!("{name}."),
    );
    let core_value = pick(
        args.core_value,
        "Core value (the one thing that must work)",
        "To be defined.",
    );
    let mut phases = args.phases;
    if phases.is_empty() && interactive {
        let list = ask("Phases, comma-separated", "Foundation");
        phases = list
            .split(',')
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect();
    }
    if phases.is_empty() {
        phases.push("Foundation".into());
    }
    for p in &phases {
        if crate::model::ids::slugify(p).is_empty() {
            return Err(CliError::input(
                format!("`{p}` cannot name a phase: it needs letters or digits"),
                None,
            ));
        }
    }
    if name.trim().is_empty() || name.contains(['\n', '\r']) {
        return Err(CliError::input(
            "the project name must be one non-empty line",
            None,
        ));
    }
    let requirements = args
        .requirements
        .iter()
        .map(|r| render::init::parse_requirement(r))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::input(e, None))?;
    let spec = render::init::InitSpec {
        name,
        description,
        core_value,
        phases,
        requirements,
        date: crate::edit::state::today(),
    };
    let o = crate::ops::init::init_in(&root, &spec, args.write.options(), workstream.as_deref())?;
    Ok(stored(o, args.write.json))
}

fn renderer_for(cwd: &Path) -> (Renderer, Option<std::path::PathBuf>) {
    match find_root(cwd) {
        Ok(root) => {
            let planning = root.join(".planning");
            (Renderer::new(Some(&planning)), Some(planning))
        }
        Err(_) => (Renderer::new(None), None),
    }
}

/// `gsd templates list|show|eject`.
pub fn templates(cwd: &Path, cmd: TemplatesCommand) -> Result<Output, CliError> {
    let (r, planning) = renderer_for(cwd);
    let not_found = |name: &str| {
        let names: Vec<&str> = render::TEMPLATES.iter().map(|(n, _)| *n).collect();
        CliError::input(
            format!("no template named `{name}`"),
            Some(format!("templates: {}", names.join(", "))),
        )
    };
    match cmd {
        TemplatesCommand::List { json } => {
            let rows: Vec<serde_json::Value> = r
                .list()
                .map(|(n, o)| json!({ "name": n, "origin": match o { Origin::Embedded => "embedded".to_owned(), Origin::Override(p) => p.display().to_string() } }))
                .collect();
            if json.json {
                return Ok(Output::json(&json!({ "templates": rows })));
            }
            let mut s = String::new();
            for row in rows {
                let _ = writeln!(
                    s,
                    "{:<22} {}",
                    row["name"].as_str().unwrap_or(""),
                    row["origin"].as_str().unwrap_or("")
                );
            }
            Ok(Output::ok(s))
        }
        TemplatesCommand::Show { name } => {
            let (_, text, _) = r.source(&name).ok_or_else(|| not_found(&name))?;
            Ok(Output::ok(text.to_owned()))
        }
        TemplatesCommand::Eject { name, force } => {
            let (full, text, _) = r.source(&name).ok_or_else(|| not_found(&name))?;
            let planning = planning.ok_or_else(|| {
                CliError::input(
                    "no .planning/ here to eject into",
                    Some("run gsd init first".into()),
                )
            })?;
            let target = planning.join("templates").join(full);
            if target.exists() && !force {
                return Err(CliError::input(
                    format!("{} already exists", target.display()),
                    Some("pass --force to overwrite it".into()),
                ));
            }
            // The embedded text, even if an override exists: eject is a fresh copy.
            let embedded = render::TEMPLATES
                .iter()
                .find(|(n, _)| *n == full)
                .map_or(text, |(_, t)| *t);
            // A planning file like any other: written and committed by the store.
            let before = std::fs::read(&target).ok();
            let o = crate::ops::run(
                cwd,
                crate::ops::WriteOptions::default(),
                Scope::Index,
                |_| {
                    Ok(crate::ops::Change::writes(
                        format!("docs(templates): eject {full}"),
                        vec![format!("wrote {}", target.display())],
                        vec![store::FileChange {
                            path: target.clone(),
                            before,
                            after: embedded.as_bytes().to_vec(),
                        }],
                    ))
                },
            )?;
            Ok(stored(o, false))
        }
    }
}

/// `gsd research refs`.
pub fn research(cwd: &Path, cmd: ResearchCommand) -> Result<Output, CliError> {
    let ResearchCommand::Refs { phase, json } = cmd;
    let ws = Workspace::discover_with(cwd, Scope::Full)?;
    let mut refs = render::research::collect(&ws);
    if let Some(p) = &phase {
        let id = crate::model::PhaseId::parse(p)
            .filter(|i| ws.phase(i).is_some())
            .ok_or_else(|| {
                let known: Vec<String> = ws
                    .current_phases()
                    .filter_map(|p| p.id.as_ref().map(crate::model::PhaseId::unpadded))
                    .collect();
                CliError::input(
                    format!("phase {p} does not exist"),
                    Some(format!("phases: {}", known.join(", "))),
                )
            })?;
        refs.retain(|r| {
            r.phases
                .iter()
                .any(|x| crate::model::PhaseId::parse(x).is_some_and(|i| i.same(&id)))
        });
    }
    if json.json {
        return Ok(Output::json(&json!({ "references": refs })));
    }
    let mut s = String::new();
    for r in &refs {
        let _ = writeln!(
            s,
            "[{}] {}{}{}",
            r.number,
            r.title,
            r.url
                .as_ref()
                .map(|u| format!(" <{u}>"))
                .unwrap_or_default(),
            r.confidence
                .as_ref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default()
        );
        let _ = writeln!(s, "    from {}", r.origins.join(", "));
    }
    if refs.is_empty() {
        s.push_str("no research references\n");
    }
    Ok(Output::ok(s))
}

/// `gsd prd`.
pub fn prd(
    cwd: &Path,
    out: Option<std::path::PathBuf>,
    format: PrdFormat,
) -> Result<Output, CliError> {
    let ws = Workspace::discover_with(cwd, Scope::Full)?;
    if ws.project.is_none() {
        return Err(CliError::FileNotFound {
            file: ".planning/PROJECT.md".into(),
            hint: "a PRD starts from PROJECT.md; create it with `gsd init`".into(),
        });
    }
    let r = Renderer::new(Some(&ws.planning));
    let broken = render::research::collect(&ws);
    let broken: Vec<String> = render::research::broken_links(&broken)
        .iter()
        .map(|r| {
            format!(
                "[{}] {} ({})",
                r.number,
                r.title,
                r.url.clone().unwrap_or_default()
            )
        })
        .collect();
    let md = render::prd::render(&r, &ws, &crate::edit::state::today())?;
    let text = match format {
        PrdFormat::Md => md,
        PrdFormat::Html => render::prd::to_html(
            &md,
            ws.project
                .as_ref()
                .and_then(|p| p.name.as_deref())
                .unwrap_or("PRD"),
        ),
    };
    let mut warn = String::new();
    for b in &broken {
        let _ = writeln!(warn, "warning: reference link is not an http(s) URL: {b}");
    }
    err!("{warn}");
    match out {
        Some(path) => {
            let path = if path.is_absolute() {
                path
            } else {
                cwd.join(path)
            };
            match crate::ops::write_output(&path, text.into_bytes(), "docs: render PRD".into())? {
                Some(o) => Ok(stored(o, false)),
                None => Ok(Output::ok(format!("wrote {}\n", path.display()))),
            }
        }
        None => Ok(Output::ok(text)),
    }
}
