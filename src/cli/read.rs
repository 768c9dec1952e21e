//! Read commands: phase list, plan list/show, roadmap, state, fm get.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use crate::doc::Source;
use crate::model::document::{Document, Frontmatter};
use crate::model::plan_ref::{self, PlanLookupError};
use crate::model::reading::RoadmapReading;
use crate::model::state::field_key;
use crate::model::workspace::{Phase, PhaseLocation, Scope};
use crate::model::{PhaseId, Plan, Task, Workspace};

use super::Output;
use super::args::{FmCommand, PhaseCommand, PlanCommand, Schema};
use super::error::{CliError, did_you_mean};

fn location(p: &Phase) -> Value {
    match &p.location {
        PhaseLocation::Current => Value::Null,
        PhaseLocation::Archived(v) => json!(v),
    }
}

/// The milestone a phase folder belongs to and whether it counts toward
/// the current milestone's progress, from the shared roadmap reading.
fn folder_milestone(reading: &RoadmapReading, p: &Phase) -> (Option<String>, bool) {
    match (&p.location, &p.id) {
        (PhaseLocation::Archived(v), _) => (Some(v.clone()), false),
        (PhaseLocation::Current, Some(id)) => match reading.phase(id) {
            Some(r) => (r.milestone.clone(), r.active),
            None => (None, !id.is_backlog()),
        },
        (PhaseLocation::Current, None) => (None, false),
    }
}

fn phase_json(ws: &Workspace, reading: &RoadmapReading, p: &Phase) -> Value {
    let rm = ws.roadmap.as_ref();
    let detail = p.id.as_ref().and_then(|id| rm.and_then(|r| r.phase(id)));
    let (milestone, active) = folder_milestone(reading, p);
    json!({
        "id": p.id.as_ref().map(PhaseId::normalized),
        "dir": ws.rel(&ws.root.join(&p.dir)).display().to_string(),
        "slug": p.slug,
        "name": detail.map(|d| d.name.clone()),
        "archived": location(p),
        "milestone": milestone,
        "active": active,
        "plans": p.plan_count(),
        "summaries": p.summary_files.len(),
        "completed_plans": p.completed_plans(),
        "status": p.disk_status(),
    })
}

pub fn phase(cwd: &Path, cmd: PhaseCommand) -> Result<Output, CliError> {
    let PhaseCommand::List { json } = cmd else {
        return super::write::phase(cwd, cmd);
    };
    let ws = Workspace::discover_with(cwd, Scope::Index)?;
    let reading = RoadmapReading::new(&ws);
    if json.json {
        let v: Vec<Value> = ws
            .phases
            .iter()
            .map(|p| phase_json(&ws, &reading, p))
            .collect();
        return Ok(Output::json(&json!({ "phases": v })));
    }
    let mut s = String::new();
    for p in &ws.phases {
        let (milestone, active) = folder_milestone(&reading, p);
        let tag = match (&p.location, milestone, active) {
            (PhaseLocation::Archived(v), _, _) => format!("  [archived {v}]"),
            (_, Some(m), false) => format!("  [{m}]"),
            _ => String::new(),
        };
        let id = p.id.as_ref().map_or("-".into(), PhaseId::normalized);
        let _ = writeln!(
            s,
            "{id:<8} {} {:>2}/{} {}{tag}",
            super::table::fit(&p.dir_name, 40),
            p.completed_plans(),
            super::table::count(p.plan_count(), "plan ", "plans"),
            p.disk_status()
        );
    }
    Ok(Output::ok(s))
}

fn task_json(t: &Task) -> Value {
    json!({
        "index": t.index,
        "type": t.kind.as_str(),
        "name": t.name(),
        "files": t.files(),
        "action": t.text("action"),
        "verify": t.text("verify"),
        "done": t.text("done"),
        "line": t.line,
        "tdd": t.tdd,
        "gate": t.gate,
        "attributes": t.attributes.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "children": t.children.iter().map(|c| json!({"name": c.name, "content": c.content})).collect::<Vec<_>>(),
    })
}

fn plan_summary_json(ws: &Workspace, phase: Option<&Phase>, p: &Plan) -> Value {
    json!({
        "id": p.display_id(),
        "path": ws.rel(p.doc.path()).display().to_string(),
        "phase": phase.and_then(|ph| ph.id.as_ref().map(PhaseId::normalized)),
        "wave": p.fm.wave,
        "depends_on": p.fm.depends_on,
        "autonomous": p.autonomous(),
        "tasks": p.tasks.len(),
        // False when some task markup could not be read: `tasks` may be
        // short (`gsd plan show` and `gsd lint` say why).
        "complete": p.task_problems.is_empty(),
        "has_summary": phase.is_some_and(|ph| ph.plan_has_summary(p)),
        "objective": p.objective(),
    })
}

/// Find a plan by its listed ID, `05-07`, `5-7`, a file name or a path
/// (the model decides; this only words the failure).
pub(super) fn find_plan<'a>(
    ws: &'a Workspace,
    cwd: &Path,
    id: &str,
) -> Result<(Option<&'a Phase>, &'a Plan), CliError> {
    match plan_ref::find_plan(ws, cwd, id) {
        Ok(e) => Ok((e.at.phase, e.at.plan)),
        Err(PlanLookupError::NotFound { closest }) => Err(CliError::PlanNotFound {
            id: id.to_owned(),
            hint: match closest {
                Some(m) => format!("did you mean `{m}`? (`gsd plan list` shows every plan)"),
                None => "`gsd plan list` shows every plan; IDs look like 05-07".into(),
            },
        }),
        Err(PlanLookupError::Ambiguous { candidates }) => Err(CliError::PlanAmbiguous {
            id: id.to_owned(),
            hint: format!(
                "name one of them: {}",
                candidates
                    .iter()
                    .map(|(i, p)| format!("`{i}` ({p})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

fn find_phase<'a>(ws: &'a Workspace, id: &str) -> Result<&'a Phase, CliError> {
    let want = PhaseId::parse(id);
    want.as_ref()
        .and_then(|w| ws.phase(w))
        .or_else(|| ws.phases.iter().find(|p| p.dir_name == id))
        .ok_or_else(|| {
            let known: Vec<String> = ws
                .current_phases()
                .filter_map(|p| p.id.as_ref().map(PhaseId::unpadded))
                .collect();
            CliError::PhaseNotFound {
                id: id.to_owned(),
                hint: format!(
                    "phases: {}",
                    if known.is_empty() {
                        "none".into()
                    } else {
                        known.join(", ")
                    }
                ),
            }
        })
}

pub fn plan(cwd: &Path, cmd: PlanCommand) -> Result<Output, CliError> {
    if let PlanCommand::New { .. } = cmd {
        return super::compile::plan_new(cwd, cmd);
    }
    let ws = Workspace::discover(cwd)?;
    match cmd {
        PlanCommand::New { .. } => Err(CliError::input("plan new is handled above", None)),
        PlanCommand::List { phase, json } => {
            let only = match &phase {
                Some(id) => Some(find_phase(&ws, id)?),
                None => None,
            };
            let rows: Vec<Value> = plan_ref::plan_entries(&ws)
                .iter()
                .filter(|e| match only {
                    Some(ph) => e.at.phase.is_some_and(|p| std::ptr::eq(p, ph)),
                    None => true,
                })
                .map(|e| {
                    let mut v = plan_summary_json(&ws, e.at.phase, e.at.plan);
                    v["id"] = json!(e.id);
                    v
                })
                .collect();
            if json.json {
                return Ok(Output::json(&json!({ "plans": rows })));
            }
            let mut s = String::new();
            for r in &rows {
                let done = if r["has_summary"].as_bool() == Some(true) {
                    "done"
                } else {
                    "    "
                };
                // `!`: some task markup could not be read.
                let partial = if r["complete"] == false { "!" } else { " " };
                let wave = r["wave"].as_i64().map_or("-".into(), |w| w.to_string());
                let _ = writeln!(
                    s,
                    "{:<10} wave {:<3} {} {:>8}{partial} {}",
                    r["id"].as_str().unwrap_or(""),
                    wave,
                    done,
                    super::table::count(r["tasks"].as_u64().unwrap_or(0) as usize, "task", "tasks"),
                    r["objective"].as_str().unwrap_or("")
                );
            }
            Ok(Output::ok(s))
        }
        PlanCommand::Show { id, json } => {
            let (phase, p) = find_plan(&ws, cwd, &id)?;
            let listed = plan_ref::plan_entries(&ws)
                .into_iter()
                .find(|e| std::ptr::eq(e.at.plan, p))
                .map(|e| e.id);
            let mut v = plan_summary_json(&ws, phase, p);
            if let Some(listed) = listed {
                v["id"] = json!(listed);
            }
            // Tasks that could not be read are said, never silently dropped.
            let unreadable: Vec<String> = p
                .task_problems
                .iter()
                .map(|t| {
                    let at = match t {
                        crate::doc::elements::TagProblem::Unclosed { start_tag: s, .. }
                        | crate::doc::elements::TagProblem::StrayClose { end_tag: s, .. }
                        | crate::doc::elements::TagProblem::Nested { inner: s, .. } => s.start,
                    };
                    format!(
                        "{}:{}: {t}; the tasks shown may be incomplete (`gsd lint` explains)",
                        ws.rel(p.doc.path()).display(),
                        p.doc.line_of(at)
                    )
                })
                .collect();
            v["complete"] = json!(unreadable.is_empty());
            v["frontmatter"] = p.doc.fm().map_or(Value::Null, |n| n.to_json());
            v["tasks"] = Value::Array(p.tasks.iter().map(task_json).collect());
            v["must_haves"] = serde_json::to_value(&p.fm.must_haves).unwrap_or(Value::Null);
            v["requirements"] = json!(p.fm.requirements);
            v["files_modified"] = json!(p.fm.files_modified);
            let code = i32::from(!unreadable.is_empty());
            if json.json {
                let mut out = Output::json(&v);
                out.code = code;
                out.warnings = unreadable;
                return Ok(out);
            }
            let mut s = String::new();
            let _ = writeln!(
                s,
                "plan {}  ({})",
                v["id"].as_str().unwrap_or(""),
                v["path"].as_str().unwrap_or("")
            );
            let _ = writeln!(
                s,
                "wave {}  depends on [{}]  autonomous {}",
                p.fm.wave.map_or("-".into(), |w| w.to_string()),
                p.fm.depends_on.join(", "),
                p.autonomous()
            );
            if let Some(o) = p.objective() {
                let _ = writeln!(s, "objective: {o}");
            }
            for t in &p.tasks {
                let _ = writeln!(
                    s,
                    "\n  {}. [{}] {}  (line {})",
                    t.index,
                    t.kind.as_str(),
                    t.label(),
                    t.line
                );
                if !t.files().is_empty() {
                    let _ = writeln!(s, "     files:  {}", t.files().join(", "));
                }
                if let Some(v) = t.text("verify") {
                    let _ = writeln!(s, "     verify: {}", v.lines().next().unwrap_or(""));
                }
                if let Some(d) = t.text("done") {
                    let _ = writeln!(s, "     done:   {}", d.lines().next().unwrap_or(""));
                }
            }
            let mut out = Output::ok(s);
            out.code = code;
            out.warnings = unreadable;
            Ok(out)
        }
    }
}

pub fn roadmap(cwd: &Path, json_out: bool) -> Result<Output, CliError> {
    let ws = Workspace::discover_with(cwd, Scope::Index)?;
    match &ws.roadmap {
        None => {
            return Err(CliError::FileNotFound {
                file: ".planning/ROADMAP.md".into(),
                hint: "create it with `gsd init`".into(),
            });
        }
        // Undecodable text reads as no roadmap at all: say so, not "0 phases".
        Some(rm) if rm.doc.source.text().is_none() => {
            return Err(CliError::input(
                ".planning/ROADMAP.md is not valid UTF-8",
                Some("convert it to UTF-8; `gsd lint` shows where".into()),
            ));
        }
        Some(_) => {}
    }
    let reading = RoadmapReading::new(&ws);
    if json_out {
        return Ok(Output::json(
            &serde_json::to_value(&reading).expect("a reading serializes"),
        ));
    }
    Ok(Output::ok(super::table::roadmap_text(&reading)))
}

pub fn state(cwd: &Path, get: Option<String>, json_flag: bool) -> Result<Output, CliError> {
    let ws = Workspace::discover_with(cwd, Scope::Index)?;
    let Some(st) = &ws.state else {
        return Err(CliError::FileNotFound {
            file: ".planning/STATE.md".into(),
            hint: "create it with `gsd init`".into(),
        });
    };
    match get {
        None => {
            let reading = RoadmapReading::new(&ws);
            let v = json!({
                "path": ws.rel(st.doc.path()).display().to_string(),
                "milestone": reading.current_milestone,
                "roadmap_current_phase": reading.current_phase,
                "roadmap_next_phase": reading.next_phase,
                "frontmatter": st.doc.fm().map_or(Value::Null, |n| n.to_json()),
                "fields": st.fields,
                "current_phase": st.current_phase(),
                "status": st.status(),
                "decisions": st.decisions().into_iter().map(|(_, d)| d).collect::<Vec<_>>(),
                "blockers": st.blockers().into_iter().map(|(_, d)| d).collect::<Vec<_>>(),
            });
            if json_flag {
                return Ok(Output::json(&v));
            }
            let mut s = String::new();
            for f in &st.fields {
                let _ = writeln!(s, "{}: {}", f.label, f.value);
            }
            Ok(Output::ok(s))
        }
        Some(field) => {
            let body: Vec<Value> = st
                .body_fields(&field)
                .map(|f| json!({"label": f.label, "value": f.value, "line": f.line}))
                .collect();
            let fm = st
                .fm_field(&field)
                .map(|(k, n)| json!({"key": k, "value": n.to_json()}));
            if body.is_empty() && fm.is_none() {
                let mut names: Vec<String> = st.fields.iter().map(|f| f.label.clone()).collect();
                if let Some(m) = st.doc.fm().and_then(|m| m.as_map()) {
                    names.extend(m.iter().filter_map(|(k, _)| k.as_str().map(str::to_owned)));
                }
                let hint = match did_you_mean(&field, names.iter().map(String::as_str)) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => format!("fields: {}", names.join(", ")),
                };
                let _ = field_key(&field);
                return Err(CliError::FieldNotFound {
                    what: "STATE.md".into(),
                    field,
                    hint,
                });
            }
            if json_flag {
                return Ok(Output::json(
                    &json!({ "field": field, "value": body.first().map(|b| b["value"].clone()).or_else(|| fm.as_ref().map(|f| f["value"].clone())), "body": body, "frontmatter": fm }),
                ));
            }
            // What `state set` compares with: setting it back is a no-op.
            let value = st.shown(&field).unwrap_or_default();
            Ok(Output::ok(value + "\n"))
        }
    }
}

fn bad_fm(doc: &Document, message: String, offset: usize, help: &str) -> CliError {
    CliError::BadInput {
        message,
        help: Some(help.to_owned()),
        src: Some(miette::NamedSource::new(
            doc.rel_path.display().to_string(),
            doc.text().to_owned(),
        )),
        at: Some((offset, 0).into()),
    }
}

pub fn fm(cwd: &Path, cmd: FmCommand) -> Result<Output, CliError> {
    let (file, key, json) = match cmd {
        FmCommand::Get { file, key, json } => (file, key, json),
        FmCommand::Validate { file, schema, json } => {
            return fm_validate(cwd, &file, schema, json.json);
        }
        FmCommand::Set { .. } | FmCommand::Merge { .. } => return super::write::fm(cwd, cmd),
    };
    let path = if file.is_absolute() {
        file.clone()
    } else {
        cwd.join(&file)
    };
    let source = Source::read(&path).map_err(|e| CliError::FileNotFound {
        file: file.display().to_string(),
        hint: e.to_string(),
    })?;
    if source.text().is_none() {
        return Err(CliError::input(
            format!("{} is not valid UTF-8", file.display()),
            Some("save it as UTF-8".into()),
        ));
    }
    let doc = Document::parse(source, file.clone());
    let node = match &doc.frontmatter {
        Frontmatter::Map(n) => n,
        Frontmatter::Absent => {
            return Err(CliError::FieldNotFound {
                what: file.display().to_string(),
                field: key.unwrap_or_else(|| "frontmatter".into()),
                hint: "the file has no --- frontmatter block".into(),
            });
        }
        Frontmatter::Unterminated { open } => {
            return Err(bad_fm(
                &doc,
                "frontmatter is never closed".into(),
                open.start,
                "add a closing --- line",
            ));
        }
        Frontmatter::Invalid(e) => {
            return Err(bad_fm(
                &doc,
                format!("frontmatter is not valid YAML: {}", e.message),
                e.offset,
                "fix the YAML (quote values containing ': ' or '#')",
            ));
        }
        Frontmatter::NotMapping(_) => {
            return Err(bad_fm(
                &doc,
                "frontmatter is not a mapping".into(),
                0,
                "write key: value lines",
            ));
        }
    };
    let target = match &key {
        None => node,
        Some(k) => node.path(k).ok_or_else(|| {
            let keys: Vec<&str> = node
                .as_map()
                .unwrap_or(&[])
                .iter()
                .filter_map(|(k, _)| k.as_str())
                .collect();
            let hint = match did_you_mean(k, keys.iter().copied()) {
                Some(m) => format!("did you mean `{m}`?"),
                None => format!("keys: {}", keys.join(", ")),
            };
            CliError::FieldNotFound {
                what: file.display().to_string(),
                field: k.clone(),
                hint,
            }
        })?,
    };
    if json.json {
        return Ok(Output::json(&target.to_json()));
    }
    // Without --json: the source text of the value, exactly as written.
    let text = match (key.is_some(), target.as_scalar()) {
        (true, Some(s)) => s.text.clone(),
        _ => {
            let t = doc.text();
            match key {
                None => doc
                    .split
                    .frontmatter()
                    .map(|f| f.yaml.slice(t).to_owned())
                    .unwrap_or_default(),
                Some(_) => target.span.slice(t).to_owned(),
            }
        }
    };
    Ok(Output::ok(if text.ends_with('\n') {
        text
    } else {
        text + "\n"
    }))
}

/// `gsd fm validate FILE --schema plan|summary|verification`.
fn fm_validate(
    cwd: &Path,
    file: &Path,
    schema: Schema,
    json_out: bool,
) -> Result<Output, CliError> {
    let path = if file.is_absolute() {
        file.to_path_buf()
    } else {
        cwd.join(file)
    };
    let source = Source::read(&path).map_err(|e| CliError::FileNotFound {
        file: file.display().to_string(),
        hint: e.to_string(),
    })?;
    let doc = Document::parse(source, file.to_path_buf());
    let required: &[&str] = match schema {
        Schema::Plan => crate::model::plan::REQUIRED_KEYS,
        Schema::Summary => crate::model::summary::SUMMARY_REQUIRED,
        Schema::Verification => crate::model::summary::VERIFICATION_REQUIRED,
    };
    let problem = match &doc.frontmatter {
        Frontmatter::Map(_) => None,
        Frontmatter::Absent => Some("the file has no frontmatter".to_owned()),
        Frontmatter::Invalid(e) => Some(format!("frontmatter is not valid YAML: {}", e.message)),
        Frontmatter::Unterminated { .. } => Some("frontmatter is never closed".to_owned()),
        Frontmatter::NotMapping(_) => Some("frontmatter is not a mapping".to_owned()),
    };
    let present: Vec<&str> = required
        .iter()
        .copied()
        .filter(|k| doc.fm().is_some_and(|m| m.get(k).is_some()))
        .collect();
    let missing: Vec<&str> = required
        .iter()
        .copied()
        .filter(|k| !present.contains(k))
        .collect();
    let type_errors: Vec<String> = match (schema, doc.fm()) {
        (Schema::Plan, Some(m)) => crate::model::plan::PlanFrontmatter::from_node(m)
            .type_errors
            .iter()
            .map(|e| {
                format!(
                    "{} should be {} (line {})",
                    e.key,
                    e.expected,
                    doc.line_of(e.span.start)
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    let valid = problem.is_none() && missing.is_empty() && type_errors.is_empty();
    let schema_name = format!("{schema:?}").to_lowercase();
    let code = i32::from(!valid);
    if json_out {
        let mut out = Output::json(&json!({
            "valid": valid, "schema": schema_name, "missing": missing, "present": present,
            "type_errors": type_errors, "error": problem,
        }));
        out.code = code;
        return Ok(out);
    }
    let mut s = String::new();
    if valid {
        let _ = writeln!(s, "{}: valid {schema_name} frontmatter", file.display());
    } else {
        let _ = writeln!(
            s,
            "{}: not a valid {schema_name} frontmatter",
            file.display()
        );
        if let Some(p) = problem {
            let _ = writeln!(s, "  {p}");
        }
        if !missing.is_empty() {
            let _ = writeln!(s, "  missing: {}", missing.join(", "));
        }
        for t in &type_errors {
            let _ = writeln!(s, "  {t}");
        }
    }
    Ok(Output {
        text: s,
        code,
        warnings: Vec::new(),
    })
}

/// `gsd verify ID`: the behavioural verifier alone.
pub fn verify(
    cwd: &Path,
    id: &str,
    extra: Vec<String>,
    timeout: u64,
    json_out: bool,
) -> Result<Output, CliError> {
    use crate::ralph::verify::{Check, plan_checks, verify};
    let ws = Workspace::discover(cwd)?;
    let (_, plan) = find_plan(&ws, cwd, id)?;
    let mut checks = plan_checks(plan);
    checks.extend(extra.into_iter().map(|c| Check {
        command: c,
        source: "--check".into(),
        expect: None,
    }));
    let v = verify(
        &checks,
        &ws.root,
        std::time::Duration::from_secs(timeout.max(1)),
    );
    let passed = v.passed && !checks.is_empty();
    let code = i32::from(!passed);
    if json_out {
        let mut out = Output::json(
            &json!({ "plan": plan.display_id(), "passed": passed, "checks": v.results.len(), "results": v.results }),
        );
        out.code = code;
        return Ok(out);
    }
    let mut s = String::new();
    if checks.is_empty() {
        let _ = writeln!(
            s,
            "plan {} declares no checks: nothing can prove it done (add <automated> commands to its <verify> tags)",
            plan.display_id()
        );
    }
    for r in &v.results {
        let mark = if r.passed { "✓" } else { "✗" };
        let _ = writeln!(
            s,
            "{mark} {}: {} ({} ms){}",
            r.source,
            r.command,
            r.duration_ms,
            if r.passed {
                String::new()
            } else {
                format!(" — {}", r.reason)
            }
        );
        if !r.passed && !r.output.is_empty() {
            for line in r.output.lines().take(20) {
                let _ = writeln!(s, "    {line}");
            }
        }
    }
    let failed = v.results.iter().filter(|r| !r.passed).count();
    let _ = writeln!(s, "{} check(s), {failed} failed", v.results.len());
    Ok(Output {
        text: s,
        code,
        warnings: Vec::new(),
    })
}
