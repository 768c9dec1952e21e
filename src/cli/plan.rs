//! `gsd plan`: list and show plans, and `plan new` (its use case lives
//! in `ops::plan`).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use crate::model::Workspace;
use crate::model::plan_ref;
use crate::model::workspace::Scope;
use crate::ops;
use crate::render::plan_new::PlanSpec;

use super::args::{PlanCommand, PlanType};
use super::error::CliError;
use super::output::{Output, stored};
use super::table;

pub fn run(cwd: &Path, cmd: PlanCommand) -> Result<Output, CliError> {
    match cmd {
        PlanCommand::New {
            phase,
            name,
            depends_on,
            requirements,
            autonomous,
            plan_type,
            write,
        } => {
            let spec = PlanSpec {
                name,
                depends_on,
                requirements,
                autonomous,
                tdd: plan_type == PlanType::Tdd,
            };
            let o = ops::run(cwd, write.options(), Scope::Full, |ws| {
                ops::plan::new(ws, &phase, &spec)
            })?;
            Ok(stored(o, write.json))
        }
        PlanCommand::List {
            phase,
            wave,
            pending,
            json,
        } => {
            let ws = Workspace::discover(cwd)?;
            let only = match &phase {
                Some(id) => Some(plan_ref::find_phase(&ws, id)?),
                None => None,
            };
            // The wave each plan runs in, as `gsd graph` and the runner see
            // it: one graph per phase, by plan file.
            let waves: std::collections::HashMap<&Path, u32> = ws
                .phases
                .iter()
                .filter(|ph| only.is_none_or(|o| std::ptr::eq(*ph, o)))
                .flat_map(|ph| {
                    let g = crate::model::plan_graph::phase_graph(&ws, ph);
                    ph.plans
                        .iter()
                        .zip(g.plans)
                        .map(|(p, n)| (p.doc.path(), n.wave))
                        .collect::<Vec<_>>()
                })
                .collect();
            let run_wave = |e: &plan_ref::PlanEntry| -> Option<u32> {
                waves.get(e.at.plan.doc.path()).copied()
            };
            let rows: Vec<Value> = plan_ref::plan_entries(&ws)
                .iter()
                .filter(|e| match only {
                    Some(ph) => e.at.phase.is_some_and(|p| std::ptr::eq(p, ph)),
                    None => true,
                })
                .filter_map(|e| {
                    let w = run_wave(e);
                    if wave.is_some() && w != wave {
                        return None;
                    }
                    let mut v = crate::view::plan::summary_json(&ws, e.at.phase, e.at.plan);
                    if pending && v["has_summary"] == true {
                        return None;
                    }
                    v["id"] = json!(e.id);
                    v["run_wave"] = json!(w);
                    Some(v)
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
                    table::count(r["tasks"].as_u64().unwrap_or(0) as usize, "task", "tasks"),
                    r["objective"].as_str().unwrap_or("")
                );
            }
            Ok(Output::ok(s))
        }
        PlanCommand::Show { id, json } => {
            crate::model::workstream::follow_path(cwd, &id);
            let ws = Workspace::discover(cwd)?;
            let found = plan_ref::find_plan(&ws, cwd, &id)?;
            let (phase, p) = (found.at.phase, found.at.plan);
            let crate::view::plan::PlanShow {
                json: v,
                unreadable,
            } = crate::view::plan::show(&ws, phase, p);
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
