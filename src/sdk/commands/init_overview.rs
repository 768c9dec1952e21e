//! init.progress: the bundle the progress and milestone-summary workflows
//! open with — every phase of the current milestone, on disk or only in
//! the roadmap, with its status, and where the work stands.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::{Map, Value, json};

use super::super::compat::config as cfg;
use super::super::compat::js;
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};
use super::{config, init};

/// A roadmap phase heading: `## Phase 3: Name` (2–4 hashes).
pub const PHASE_HEADING: &str = r"(?i)#{2,4}\s*Phase\s+(\d+[A-Z]?(?:\.\d+)*)\s*:\s*([^\n]+)";

/// `extractCheckboxStates`: `- [x] … Phase N` lines, the last one per
/// number winning.
pub fn checkbox_states(content: &str) -> HashMap<String, bool> {
    let pattern = format!(r"(?i)-\s*\[(x| )\]\s*{}*Phase\s+(\d+[A-Z]?(?:\.\d+)*)[:\s]", js::JS_DOT);
    re(&pattern)
        .captures_iter(content)
        .flatten()
        .map(|c| {
            (
                rt::group(&c, 2).to_string(),
                rt::group(&c, 1).eq_ignore_ascii_case("x"),
            )
        })
        .collect()
}

/// A phase number without its leading zeros (`0` stays `0`).
pub fn unpadded(n: &str) -> String {
    let s = n.trim_start_matches('0');
    if s.is_empty() { "0".into() } else { s.into() }
}

/// `extractTerminalStatusLabels`: phases whose heading says SHIPPED,
/// COMPLETE, DEFERRED, SUPERSEDED, MERGED INTO or FOLDED INTO.
fn terminal_labels(content: &str) -> HashSet<String> {
    let terminal =
        re(r"(?i)(?:\(|\*\*)\s*(SHIPPED|COMPLETE|DEFERRED|SUPERSEDED|MERGED\s+INTO|FOLDED\s+INTO)\b");
    let mut out = HashSet::new();
    for c in re(PHASE_HEADING).captures_iter(content).flatten() {
        if terminal.is_match(rt::group(&c, 2)).unwrap_or(false) {
            out.insert(rt::group(&c, 1).to_string());
            out.insert(unpadded(rt::group(&c, 1)));
        }
    }
    out
}

/// `listPhasePlanAndSummaryCounts`: plan and summary files of a phase
/// folder, with `plans/PLAN-N*.md` and `plans/SUMMARY-N*.md` inside it.
pub fn plan_and_summary_counts(dir: &Path) -> (usize, usize) {
    let names = super::names_in(dir);
    let mut plans = names
        .iter()
        .filter(|f| f.ends_with("-PLAN.md") || *f == "PLAN.md")
        .count();
    let mut summaries = names
        .iter()
        .filter(|f| f.ends_with("-SUMMARY.md") || *f == "SUMMARY.md")
        .count();
    let nested = dir.join("plans");
    if nested.exists() {
        let inner = super::names_in(&nested);
        let count = |p: &str| inner.iter().filter(|f| re(p).is_match(f).unwrap_or(false)).count();
        plans += count(r"(?i)^PLAN-\d+.*\.md$");
        summaries += count(r"(?i)^SUMMARY-\d+.*\.md$");
    }
    (plans, summaries)
}

/// The init-complex `getModelAlias`: the resolved model when it is a
/// string (even empty), `sonnet` otherwise.
fn model(project: &Path, agent: &str) -> Result<Value, SdkError> {
    let v = config::model_for(project, agent)?;
    Ok(match v.get("model") {
        Some(Value::String(s)) => json!(s),
        _ => json!("sonnet"),
    })
}

/// `parseInt(s, 10)` as a sort key (`NaN` for no leading number).
fn int_key(s: &str) -> f64 {
    js::parse_int(s).unwrap_or(f64::NAN)
}

/// `init.progress`.
pub fn progress(call: &Call) -> Result<Reply, SdkError> {
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let (version, name) = rt::milestone_info(call.project);
    let planning = call.planning();
    let mut names: Vec<(String, String)> = Vec::new();
    let mut checkboxes = HashMap::new();
    let mut terminal = HashSet::new();
    if let Ok(raw) = std::fs::read(planning.join("ROADMAP.md")) {
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let content = rt::current_milestone(&raw, call.project);
        for c in re(PHASE_HEADING).captures_iter(content.as_str()).flatten() {
            let number = rt::group(&c, 1).to_string();
            let title = js::trim(&re(r"(?i)\(INSERTED\)").replace(rt::group(&c, 2), "")).to_string();
            match names.iter_mut().find(|(n, _)| *n == number) {
                Some(slot) => slot.1 = title,
                None => names.push((number, title)),
            }
        }
        checkboxes = checkbox_states(&content);
        terminal = terminal_labels(&content);
    }
    let done_in_roadmap = |n: &str| {
        checkboxes.get(n) == Some(&true) || checkboxes.get(&unpadded(n)) == Some(&true)
    };
    let is_terminal = |n: &str| terminal.contains(n) || terminal.contains(&unpadded(n));

    let phases_dir = planning.join("phases");
    let mut dirs: Vec<String> = super::names_in(&phases_dir)
        .into_iter()
        .filter(|n| phases_dir.join(n).is_dir())
        .collect();
    let lead = re(r"(?i)^(\d+[A-Z]?(?:\.\d+)*)");
    js::sort_by(&mut dirs, |a, b| {
        match (lead.find(a).ok().flatten(), lead.find(b).ok().flatten()) {
            (Some(pa), Some(pb)) => js::ordering(int_key(pa.as_str()) - int_key(pb.as_str())),
            _ => js::locale_compare(a, b),
        }
    });
    let mut phases: Vec<Map<String, Value>> = Vec::new();
    let mut current: Option<usize> = None;
    let mut next: Option<usize> = None;
    let mut seen = HashSet::new();
    for dir in &dirs {
        let c = re(r"(?i)^(\d+[A-Z]?(?:\.\d+)*)-?(.*)").captures(dir.as_str()).ok().flatten();
        let number = c.as_ref().map_or(dir.clone(), |c| rt::group(c, 1).to_string());
        let title = c
            .as_ref()
            .map(|c| rt::group(c, 2))
            .filter(|t| !t.is_empty())
            .map_or(Value::Null, |t| json!(t));
        seen.insert(unpadded(&number));
        let path = phases_dir.join(dir);
        let (plans, summaries) = plan_and_summary_counts(&path);
        let research = super::names_in(&path)
            .iter()
            .any(|f| f.ends_with("-RESEARCH.md") || f == "RESEARCH.md");
        let mut status = if summaries >= plans && plans > 0 {
            "complete"
        } else if plans > 0 {
            "in_progress"
        } else if research {
            "researched"
        } else {
            "pending"
        };
        if done_in_roadmap(&number) || is_terminal(&number) {
            status = "complete";
        }
        if current.is_none() && (status == "in_progress" || status == "researched") {
            current = Some(phases.len());
        }
        if next.is_none() && status == "pending" {
            next = Some(phases.len());
        }
        phases.push(phase(json!(number), title, json!(format!(".planning/phases/{dir}")), status, plans, summaries, research));
    }
    for (number, title) in &names {
        if seen.contains(&unpadded(number)) {
            continue;
        }
        let status = if is_terminal(number) || done_in_roadmap(number) {
            "complete"
        } else {
            "not_started"
        };
        let slug = re(r"[^a-z0-9]+").replace_all(&title.to_lowercase(), "-").into_owned();
        let slug = slug.trim_matches('-').to_string();
        if next.is_none() && current.is_none() && status != "complete" {
            next = Some(phases.len());
        }
        phases.push(phase(json!(number), json!(slug), Value::Null, status, 0, 0, false));
    }
    // Remember which entries are current and next through the sort.
    let current_v = current.map(|i| Value::Object(phases[i].clone()));
    let next_v = next.map(|i| Value::Object(phases[i].clone()));
    js::sort_by(&mut phases, |a, b| {
        let n = |p: &Map<String, Value>| int_key(p["number"].as_str().unwrap_or(""));
        js::ordering(n(a) - n(b))
    });
    let paused = std::fs::read(planning.join("STATE.md")).ok().and_then(|b| {
        let s = String::from_utf8_lossy(&b).into_owned();
        let c = re(&format!(r"\*\*Paused At:\*\*\s*({}+)", js::JS_DOT)).captures(s.as_str()).ok().flatten()?;
        Some(js::trim(rt::group(&c, 1)).to_string())
    });
    let count = |s: &str| phases.iter().filter(|p| p["status"] == s).count();
    let mut out = Map::new();
    out.insert("executor_model".into(), model(call.project, "gsd-executor")?);
    out.insert("planner_model".into(), model(call.project, "gsd-planner")?);
    if let Some(v) = config.get("commit_docs") {
        out.insert("commit_docs".into(), v.clone());
    }
    for (k, v) in [
        ("milestone_version", json!(version)),
        ("milestone_name", json!(name)),
        ("phases", json!(phases)),
        ("phase_count", json!(phases.len())),
        ("completed_count", json!(count("complete"))),
        ("in_progress_count", json!(count("in_progress"))),
        ("current_phase", current_v.clone().unwrap_or(Value::Null)),
        ("next_phase", next_v.unwrap_or(Value::Null)),
        ("paused_at", json!(paused)),
        ("has_work_in_progress", json!(current_v.is_some())),
        ("project_exists", json!(planning.join("PROJECT.md").exists())),
        ("roadmap_exists", json!(planning.join("ROADMAP.md").exists())),
        ("state_exists", json!(planning.join("STATE.md").exists())),
        ("state_path", json!(".planning/STATE.md")),
        ("roadmap_path", json!(".planning/ROADMAP.md")),
        ("project_path", json!(".planning/PROJECT.md")),
        ("config_path", json!(".planning/config.json")),
    ] {
        out.insert(k.into(), v);
    }
    init::with_project_root(call.project, &mut out, &config);
    Ok(Reply::Json(Value::Object(out)))
}

fn phase(
    number: Value,
    name: Value,
    directory: Value,
    status: &str,
    plans: usize,
    summaries: usize,
    research: bool,
) -> Map<String, Value> {
    let v = json!({
        "number": number, "name": name, "directory": directory, "status": status,
        "plan_count": plans, "summary_count": summaries, "has_research": research,
    });
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}
