//! `gsd export html OUT/`: the planning folder as a static site.
//!
//! An index (milestones with progress bars, every phase with its status and
//! plan progress, research references) and one page per phase folder (plans
//! by wave, must_haves, checks, summaries, the dependency graph as inline
//! SVG). Pages are rendered from `templates/export-*.html.j2` (overridable
//! like every template) and need nothing from the network: one local
//! stylesheet, no scripts. Pages are rendered in parallel; a 1,000-phase
//! tree exports well under the 2 s budget (BENCHMARKS.md).

pub mod svg;

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::{Value, json};

use crate::model::plan_graph::{PhaseGraph, phase_graph};
use crate::model::reading::{PhaseReading, RoadmapReading};
use crate::model::workspace::{Phase, PhaseLocation};
use crate::model::{Plan, Workspace};
use crate::render::research::{Reference, collect};
use crate::render::{RenderError, Renderer};

/// The stylesheet every page links.
pub const STYLE: &str = include_str!("../../templates/export.css");

/// The file that marks a folder as a gsd export (so a re-export may replace
/// its pages, and a folder of someone else's is never written into).
const MARKER: &str = ".gsd-export";

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ExportError {
    #[error("{path} is inside .planning/; the export would add its pages to the planning tree")]
    #[diagnostic(
        code(gsd::export_into_planning),
        help("export to a folder outside .planning/, e.g. `gsd export html site/`")
    )]
    IntoPlanning { path: String },
    #[error("{path} is not empty and is not a previous gsd export")]
    #[diagnostic(
        code(gsd::export_not_empty),
        help(
            "choose an empty or new folder; gsd only replaces a folder holding its own {MARKER} file"
        )
    )]
    NotEmpty { path: String },
    #[error("cannot write {path}: {source}")]
    #[diagnostic(code(gsd::io))]
    Write {
        path: String,
        source: std::io::Error,
    },
    /// Shown with the template's line by the CLI, like every render error.
    #[error(transparent)]
    Render(#[from] RenderError),
}

/// What an export wrote.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Exported {
    pub out: PathBuf,
    pub index: PathBuf,
    pub phase_pages: usize,
    pub phases_listed: usize,
    pub milestones: usize,
    pub references: usize,
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    std::fs::write(path, bytes).map_err(|source| ExportError::Write {
        path: path.display().to_string(),
        source,
    })
}

/// Check `out` and make it ready: new, empty, or a previous export (whose
/// phase pages are cleared, so a removed phase leaves no stale page).
fn prepare_out(ws: &Workspace, out: &Path) -> Result<(), ExportError> {
    let abs = std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf());
    let planning = std::fs::canonicalize(&ws.planning).unwrap_or_else(|_| ws.planning.clone());
    let real = abs
        .ancestors()
        .find_map(|a| {
            std::fs::canonicalize(a)
                .ok()
                .map(|c| c.join(abs.strip_prefix(a).unwrap_or(Path::new(""))))
        })
        .unwrap_or(abs.clone());
    if real.starts_with(&planning) {
        return Err(ExportError::IntoPlanning {
            path: out.display().to_string(),
        });
    }
    let io = |source| ExportError::Write {
        path: out.display().to_string(),
        source,
    };
    if out.exists() {
        let mut entries = std::fs::read_dir(out).map_err(io)?;
        if entries.next().is_some() && !out.join(MARKER).is_file() {
            return Err(ExportError::NotEmpty {
                path: out.display().to_string(),
            });
        }
        let phases = out.join("phases");
        if phases.is_dir() {
            for e in std::fs::read_dir(&phases).map_err(io)?.flatten() {
                if e.path().extension().is_some_and(|x| x == "html") {
                    std::fs::remove_file(e.path()).map_err(io)?;
                }
            }
        }
    }
    std::fs::create_dir_all(out.join("phases")).map_err(io)?;
    Ok(())
}

/// A phase page's file name: the folder name with anything but
/// `[A-Za-z0-9._-]` made `_`, and archived folders prefixed by their
/// milestone (numbers restart per milestone).
fn page_name(phase: &Phase) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    match &phase.location {
        PhaseLocation::Current => format!("{}.html", clean(&phase.dir_name)),
        PhaseLocation::Archived(v) => format!("{}--{}.html", clean(v), clean(&phase.dir_name)),
    }
}

fn percent(done: usize, total: usize) -> usize {
    (done * 100).checked_div(total).unwrap_or(0).min(100)
}

fn phase_row(p: &PhaseReading, href: Option<String>) -> Value {
    json!({
        "number": p.number,
        "name": p.name.clone().unwrap_or_default(),
        "goal": p.goal.clone().unwrap_or_default(),
        "status": p.status,
        "plans": p.plans,
        "summaries": p.summaries,
        "percent": if p.status == "complete" { 100 } else { percent(p.summaries, p.plans) },
        "href": href,
        "backlog": p.backlog,
    })
}

fn artifact_text(a: &crate::model::plan::Artifact) -> String {
    use crate::model::plan::Artifact;
    match a {
        Artifact::Path(p) => p.clone(),
        Artifact::Spec { path, provides, .. } => match (path, provides) {
            (Some(p), Some(what)) => format!("{p}: {what}"),
            (Some(p), None) => p.clone(),
            (None, Some(what)) => what.clone(),
            (None, None) => String::new(),
        },
    }
}

fn key_link_text(k: &crate::model::plan::KeyLink) -> String {
    use crate::model::plan::KeyLink;
    match k {
        KeyLink::Text(t) => t.clone(),
        KeyLink::Spec { from, to, via, .. } => {
            let mut s = format!(
                "{} → {}",
                from.as_deref().unwrap_or("?"),
                to.as_deref().unwrap_or("?")
            );
            if let Some(v) = via {
                s.push_str(&format!(" via {v}"));
            }
            s
        }
    }
}

fn plan_card(phase: &Phase, plan: &Plan, graph: &PhaseGraph, i: usize) -> Value {
    let node = &graph.plans[i];
    let must = plan.fm.must_haves.clone().unwrap_or_default();
    let summary = phase.summaries.iter().find(|s| {
        s.id.as_ref()
            .zip(plan.id.as_ref())
            .is_some_and(|(a, b)| a.same(b))
    });
    json!({
        "id": node.id,
        "file": node.file,
        "wave": node.wave,
        "done": node.done,
        "objective": node.objective.clone().unwrap_or_default(),
        "depends_on": node.depends_on.iter().map(|&d| graph.plans[d].id.clone()).chain(node.external.iter().cloned()).collect::<Vec<_>>(),
        "unresolved": node.unresolved,
        "files_modified": plan.fm.files_modified,
        "tasks": plan.tasks.iter().map(|t| json!({
            "index": t.index,
            "name": t.name().unwrap_or("").trim(),
            "type": t.type_raw.clone().unwrap_or_else(|| "auto".into()),
        })).collect::<Vec<_>>(),
        "truths": must.truths,
        "artifacts": must.artifacts.iter().map(artifact_text).collect::<Vec<_>>(),
        "key_links": must.key_links.iter().map(key_link_text).collect::<Vec<_>>(),
        "checks": crate::ralph::verify::plan_checks(plan).into_iter().map(|c| c.command).collect::<Vec<_>>(),
        "summary": summary.map(|s| json!({
            "file": s.doc.file_name(),
            "one_liner": s.one_liner.clone().unwrap_or_default(),
        })),
    })
}

fn refs_for(refs: &[Reference], phase: &Phase) -> Vec<Value> {
    refs.iter()
        .filter(|r| {
            phase.id.as_ref().is_some_and(|id| {
                r.phases
                    .iter()
                    .any(|x| crate::model::PhaseId::parse(x).is_some_and(|i| i.same(id)))
            })
        })
        .map(|r| serde_json::to_value(r).expect("json"))
        .collect()
}

/// Export `ws` (loaded in full) to `out`, dated `date`.
pub fn export_html(ws: &Workspace, out: &Path, date: &str) -> Result<Exported, ExportError> {
    prepare_out(ws, out)?;
    let renderer = Renderer::new(Some(&ws.planning));
    let index_t = renderer.prepare("export-index.html.j2")?;
    let phase_t = renderer.prepare("export-phase.html.j2")?;
    let reading = RoadmapReading::new(ws);
    let refs = collect(ws);
    let project = ws
        .project
        .as_ref()
        .and_then(|p| p.name.clone())
        .unwrap_or_else(|| "Project".into());
    let pages: Vec<(usize, String)> = ws
        .phases
        .iter()
        .enumerate()
        .map(|(i, p)| (i, page_name(p)))
        .collect();
    let href_of = |dir: &Path| {
        ws.phases
            .iter()
            .position(|p| p.dir == dir)
            .map(|i| format!("phases/{}", pages[i].1))
    };

    // Phase pages, in parallel: each is independent.
    let rendered: Result<Vec<()>, ExportError> = ws
        .phases
        .par_iter()
        .enumerate()
        .map(|(i, phase)| {
            let graph = phase_graph(ws, phase);
            let reading_row = reading.phases.iter().find(|r| r.dir.as_deref() == Some(phase.dir.as_path()));
            let waves: Vec<Value> = graph
                .waves()
                .into_iter()
                .map(|(w, members)| {
                    json!({
                        "wave": w,
                        "plans": members.iter().map(|&p| plan_card(phase, &phase.plans[p], &graph, p)).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let done = phase.completed_plans();
            let ctx = json!({
                "project": project,
                "date": date,
                "phase": {
                    "folder": phase.dir_name,
                    "number": graph.number,
                    "name": reading_row.and_then(|r| r.name.clone()).unwrap_or_else(|| phase.slug.replace('-', " ")),
                    "goal": reading_row.and_then(|r| r.goal.clone()).unwrap_or_default(),
                    "status": reading_row.map_or_else(|| phase.disk_status(), |r| r.status),
                    "milestone": reading_row.and_then(|r| r.milestone.clone()),
                    "requirements": reading_row.map(|r| r.requirements.clone()).unwrap_or_default(),
                    "plans": phase.plan_count(),
                    "summaries": done,
                    "percent": percent(done, phase.plan_count()),
                    "other_files": phase.other_files,
                },
                "graph_svg": svg::phase_svg(&graph),
                "waves": waves,
                "references": refs_for(&refs, phase),
            });
            let html = phase_t.render(ctx)?;
            write(&out.join("phases").join(&pages[i].1), html.as_bytes())
        })
        .collect();
    rendered?;

    // The index.
    let mut milestones: Vec<Value> = Vec::new();
    for (mi, m) in reading.milestones.iter().enumerate() {
        let phases: Vec<&PhaseReading> = reading
            .phases
            .iter()
            .filter(|p| p.milestone_index == Some(mi))
            .collect();
        let done = phases.iter().filter(|p| p.status == "complete").count();
        // A shipped milestone whose phases the roadmap no longer lists
        // (they live in its archive file) is still done.
        let shipped = m.status == crate::model::milestone::MilestoneStatus::Shipped;
        let pct = if phases.is_empty() && shipped {
            100
        } else {
            percent(done, phases.len())
        };
        milestones.push(json!({
            "title": crate::model::milestone::label(m.version.as_deref(), &m.title),
            "status": format!("{:?}", m.status).to_lowercase(),
            "current": m.current,
            "phase_range": m.phase_range,
            "phases_total": phases.len(),
            "phases_done": done,
            "percent": pct,
            "phases": phases.iter().map(|p| phase_row(p, p.dir.as_deref().and_then(href_of))).collect::<Vec<_>>(),
        }));
    }
    let loose: Vec<Value> = reading
        .phases
        .iter()
        .filter(|p| p.milestone_index.is_none())
        .map(|p| phase_row(p, p.dir.as_deref().and_then(href_of)))
        .collect();
    let listed: Vec<&Path> = reading
        .phases
        .iter()
        .filter_map(|p| p.dir.as_deref())
        .collect();
    let unlisted: Vec<Value> = ws
        .phases
        .iter()
        .enumerate()
        .filter(|(_, p)| !listed.contains(&p.dir.as_path()))
        .map(|(i, p)| json!({ "folder": p.dir_name, "href": format!("phases/{}", pages[i].1), "status": p.disk_status(), "plans": p.plan_count(), "summaries": p.completed_plans(), "percent": percent(p.completed_plans(), p.plan_count()) }))
        .collect();
    let counted: Vec<&PhaseReading> = reading.phases.iter().filter(|p| !p.backlog).collect();
    let all_done = counted.iter().filter(|p| p.status == "complete").count();
    let ctx = json!({
        "project": project,
        "date": date,
        "overall": {
            "phases": counted.len(),
            "complete": all_done,
            "percent": percent(all_done, counted.len()),
        },
        "progress": {
            "percent": reading.progress_percent,
            "completed_phases": reading.completed_phases,
            "phase_count": reading.phase_count,
            "plans": reading.total_plans,
            "summaries": reading.total_summaries,
            "current_milestone": reading.current_milestone,
            "current_phase": reading.current_phase,
        },
        "milestones": milestones,
        "loose_phases": loose,
        "unlisted": unlisted,
        "references": refs,
    });
    let index = out.join("index.html");
    write(&index, index_t.render(ctx)?.as_bytes())?;
    write(&out.join("style.css"), STYLE.as_bytes())?;
    write(
        &out.join(MARKER),
        b"a gsd export: `gsd export html` replaces this folder's pages\n",
    )?;
    Ok(Exported {
        out: out.to_path_buf(),
        index,
        phase_pages: ws.phases.len(),
        phases_listed: reading.phases.len(),
        milestones: reading.milestones.len(),
        references: refs.len(),
    })
}
