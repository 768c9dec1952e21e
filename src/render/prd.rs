//! `gsd prd`: a PRD compiled from PROJECT.md, REQUIREMENTS.md, ROADMAP.md
//! and the research references, with `[n]` citations wherever a phase's
//! research or a requirement is linked to a source, and a References list.

use serde::Serialize;

use crate::model::requirements::Scope;
use crate::model::{PhaseId, Workspace};

use super::research::{Reference, collect};
use super::{RenderError, Renderer};

#[derive(Serialize)]
struct Req {
    id: String,
    text: String,
    phase: Option<String>,
    cites: Vec<usize>,
}

#[derive(Serialize)]
struct Cat {
    name: Option<String>,
    requirements: Vec<Req>,
}

/// The phase a requirement is traced to (traceability table, else roadmap).
fn phase_of(ws: &Workspace, id: &str) -> Option<PhaseId> {
    let from_table = ws
        .requirements
        .as_ref()
        .and_then(|r| r.traceability.iter().find(|t| t.id == id))
        .and_then(|t| {
            let p = t.phase.trim().trim_start_matches("Phase ").trim();
            PhaseId::parse_prefix(p).map(|(i, _)| i)
        });
    from_table.or_else(|| {
        ws.roadmap.as_ref().and_then(|rm| {
            rm.phases
                .iter()
                .find(|p| p.requirements.iter().any(|r| r == id))
                .map(|p| p.id.clone())
        })
    })
}

fn cites_for_phase(refs: &[Reference], p: &PhaseId) -> Vec<usize> {
    refs.iter()
        .filter(|r| {
            r.phases
                .iter()
                .any(|x| PhaseId::parse(x).is_some_and(|i| i.same(p)))
        })
        .map(|r| r.number)
        .collect()
}

/// Render the PRD as markdown.
pub fn render(r: &Renderer, ws: &Workspace, date: &str) -> Result<String, RenderError> {
    let refs = collect(ws);
    let project = ws.project.as_ref();
    let section = |t: &str| project.and_then(|p| p.section(t)).unwrap_or("").to_owned();
    let name = project
        .and_then(|p| p.name.clone())
        .unwrap_or_else(|| "Project".into());
    let mut scopes = Vec::new();
    if let Some(req) = &ws.requirements {
        for (scope, title) in [
            (Scope::V1, "Committed"),
            (Scope::V2, "Later (v2 and future)"),
            (Scope::OutOfScope, "Out of scope"),
        ] {
            let mut cats: Vec<Cat> = Vec::new();
            for item in req.items.iter().filter(|i| i.scope == scope) {
                let phase = phase_of(ws, &item.id);
                let mut cites: Vec<usize> = phase
                    .as_ref()
                    .map(|p| cites_for_phase(&refs, p))
                    .unwrap_or_default();
                // A source whose text names the requirement cites it too.
                cites.extend(
                    refs.iter()
                        .filter(|r| r.note.contains(&item.id) || r.title.contains(&item.id))
                        .map(|r| r.number),
                );
                cites.sort_unstable();
                cites.dedup();
                let entry = Req {
                    id: item.id.clone(),
                    text: item.text.clone(),
                    phase: phase.as_ref().map(PhaseId::unpadded),
                    cites,
                };
                match cats.iter_mut().find(|c| c.name == item.category) {
                    Some(c) => c.requirements.push(entry),
                    None => cats.push(Cat {
                        name: item.category.clone(),
                        requirements: vec![entry],
                    }),
                }
            }
            if !cats.is_empty() {
                scopes.push(serde_json::json!({ "title": title, "categories": cats }));
            }
        }
    }
    let mut phases = Vec::new();
    let mut milestones = Vec::new();
    if let Some(rm) = &ws.roadmap {
        for m in &rm.milestones {
            let status = m.status.word();
            milestones.push(serde_json::json!({ "title": m.label(), "status": status }));
        }
        // The current milestone's phases, as `gsd roadmap` reads them.
        let reading = crate::model::reading::RoadmapReading::new(ws);
        for p in reading.phases.iter().filter(|p| p.active) {
            phases.push(serde_json::json!({
                "number": p.number,
                "name": p.name.clone().unwrap_or_default(),
                "goal": p.goal.clone().unwrap_or_default(),
                "requirements": p.requirements,
                "cites": cites_for_phase(&refs, &p.phase_id),
            }));
        }
    }
    let ctx = serde_json::json!({
        "date": date,
        "project": {
            "name": name, "what": section("What This Is"), "core_value": section("Core Value"),
            "constraints": section("Constraints"), "decisions": section("Key Decisions"),
        },
        "scopes": scopes, "milestones": milestones, "phases": phases, "references": refs,
    });
    r.render("PRD.md.j2", ctx)
}

/// Markdown to HTML through comrak (tables and autolinks on).
pub fn to_html(markdown: &str, title: &str) -> String {
    let mut options = comrak::Options::default();
    options.extension.table = true;
    options.extension.autolink = true;
    options.extension.strikethrough = true;
    let body = comrak::markdown_to_html(markdown, &options);
    let title = title.replace('&', "&amp;").replace('<', "&lt;");
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\n<body>\n{body}</body></html>\n"
    )
}
