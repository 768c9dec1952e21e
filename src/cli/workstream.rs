//! `gsd workstream list`: the project's workstreams, which one commands work
//! on, and where each stands (the library reads them; this renders).

use std::fmt::Write as _;
use std::path::Path;

use crate::model::workspace::find_root;
use crate::model::workstream;

use super::error::CliError;
use super::output::Output;
use super::table::fit;

pub fn list(cwd: &Path, json_out: bool) -> Result<Output, CliError> {
    let root = find_root(cwd)?;
    let all = workstream::summaries(&root);
    let dangling = workstream::dangling_pointer(&root);
    if json_out {
        return Ok(Output::json(&serde_json::json!({
            "workstreams": all,
            "active": workstream::implied(&root),
            "dangling_pointer": dangling,
        })));
    }
    let mut s = String::new();
    if all.is_empty() {
        s.push_str(
            "no workstreams (.planning/workstreams/ holds none); commands work on .planning/\n",
        );
    }
    for w in &all {
        let _ = writeln!(
            s,
            "{} {} {} {}",
            if w.active { "*" } else { " " },
            fit(&w.name, 32),
            fit(
                &format!(
                    "{}/{} phases, {}/{} plans",
                    w.completed_phases, w.phases, w.total_summaries, w.total_plans
                ),
                28
            ),
            [
                w.current_milestone.clone(),
                w.current_phase.as_ref().map(|p| format!("phase {p}")),
                w.status.clone(),
                (!w.has_roadmap).then(|| "no ROADMAP.md".to_owned()),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" · ")
        );
    }
    if let Some(p) = dangling {
        let _ = writeln!(
            s,
            "note: .planning/active-workstream names `{p}`, which is not a workstream folder; commands work on .planning/"
        );
    }
    Ok(Output::ok(s))
}
