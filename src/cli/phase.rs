//! `gsd phase`: list the phase folders; add, insert, remove and complete
//! phases (the use cases live in `ops::phase`).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use crate::model::reading::RoadmapReading;
use crate::model::workspace::{Phase, PhaseLocation, Scope};
use crate::model::{PhaseId, Workspace};
use crate::ops;

use super::args::PhaseCommand;
use super::error::CliError;
use super::output::{Output, stored};
use super::table;

pub fn run(cwd: &Path, cmd: PhaseCommand) -> Result<Output, CliError> {
    let (flags, outcome) = match cmd {
        PhaseCommand::List { json } => return list(cwd, json),
        PhaseCommand::Add { name, write } => {
            let o = ops::run(cwd, write.options(), Scope::Index, |ws| {
                ops::phase::add(ws, &name)
            });
            (write, o)
        }
        PhaseCommand::Insert { after, name, write } => {
            let o = ops::run(cwd, write.options(), Scope::Index, |ws| {
                ops::phase::insert(ws, &after, &name)
            });
            (write, o)
        }
        PhaseCommand::Remove {
            phase,
            force,
            write,
        } => {
            let o = ops::run(cwd, write.options(), Scope::Full, |ws| {
                ops::phase::remove(ws, &phase, force)
            });
            (write, o)
        }
        PhaseCommand::Complete {
            phase,
            force,
            write,
        } => {
            let o = ops::run(cwd, write.options(), Scope::Index, |ws| {
                ops::phase::complete(ws, &phase, force)
            });
            (write, o)
        }
    };
    Ok(stored(outcome?, flags.json))
}

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
        "status": reading.folder_status(p),
        "disk_status": p.disk_status(),
    })
}

fn list(cwd: &Path, json: super::args::JsonFlag) -> Result<Output, CliError> {
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
            table::fit(&p.dir_name, 40),
            p.completed_plans(),
            table::count(p.plan_count(), "plan ", "plans"),
            reading.folder_status(p)
        );
    }
    Ok(Output::ok(s))
}
