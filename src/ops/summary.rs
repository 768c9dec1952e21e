//! A plan's SUMMARY.md written from what `gsd ralph run` observed, in
//! GSD's summary format (frontmatter included) and from the overridable
//! `SUMMARY.md.j2` template.

use serde_json::json;

use crate::model::{Plan, Workspace};
use crate::ralph::run::observed::Observed;
use crate::render::Renderer;
use crate::store::FileChange;

use super::{Change, OpError};

/// `NN-MM[-slug]-PLAN.md` → `NN-MM[-slug]-SUMMARY.md`, beside the plan.
pub fn summary_path(plan: &Plan) -> std::path::PathBuf {
    summary_path_of(plan.doc.path())
}

/// [`summary_path`] from the plan file's path.
pub fn summary_path_of(plan: &std::path::Path) -> std::path::PathBuf {
    let name = plan
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name
        .strip_suffix("-PLAN.md")
        .or_else(|| name.strip_suffix(".md"))
        .unwrap_or(&name);
    plan.with_file_name(format!("{stem}-SUMMARY.md"))
}

/// The change that creates the plan's summary; refused when one exists.
pub fn write(
    ws: &Workspace,
    plan: &Plan,
    observed: &Observed,
    date: &str,
) -> Result<Change, OpError> {
    let path = summary_path(plan);
    let shown = ws.rel(&path).display().to_string();
    if path.exists() {
        return Err(OpError::invalid(
            format!("{shown} already exists"),
            Some("a summary is never overwritten; remove it to have it written again".into()),
        ));
    }
    let id = plan.id.as_ref();
    let phase_dir = plan
        .doc
        .path()
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let subsystem = plan
        .fm
        .extra
        .iter()
        .find(|(k, _)| k == "subsystem")
        .and_then(|(_, n)| n.as_str().map(str::to_owned))
        .unwrap_or_else(|| {
            phase_dir
                .split_once('-')
                .map_or(phase_dir.clone(), |(_, s)| s.to_owned())
        });
    let name = plan
        .objective()
        .and_then(|o| {
            o.lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(str::to_owned)
        })
        .unwrap_or_else(|| plan.display_id());
    let one_liner = if observed.tasks.is_empty() {
        format!("Plan {} complete: every check passed", plan.display_id())
    } else {
        format!(
            "{} task(s) done and every check passed in {} iteration(s)",
            observed.tasks.len(),
            observed.iterations
        )
    };
    let ctx = json!({
        "phase": plan.fm.phase.clone().unwrap_or(phase_dir),
        "plan": id.map_or_else(|| plan.fm.plan.clone().unwrap_or_default(), |i| i.plan.clone()),
        "phase_number": id.map(|i| i.phase.unpadded()).unwrap_or_default(),
        "plan_number": id.map(|i| i.number()).unwrap_or(0),
        "subsystem": subsystem,
        // Flow-style YAML values as JSON text (valid YAML, any characters quoted).
        "subsystem_yaml": serde_json::to_string(&subsystem).expect("json"),
        "files_yaml": serde_json::to_string(&observed.files).expect("json"),
        "requirements": plan.fm.requirements,
        "duration": observed.duration(),
        "date": date,
        "name": name.trim_end_matches('.'),
        "one_liner": one_liner,
        "task_count": plan.tasks.len(),
        "observed": observed,
    });
    let text = Renderer::new(Some(&ws.planning)).render("SUMMARY.md.j2", ctx)?;
    Ok(Change::writes(
        format!(
            "docs({}): summary of plan {}",
            plan.display_id(),
            plan.display_id()
        ),
        vec![format!("wrote {shown}")],
        vec![FileChange {
            path,
            before: None,
            after: text.into_bytes(),
        }],
    ))
}
