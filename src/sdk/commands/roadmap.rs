//! roadmap.get-phase and roadmap.analyze, in gsd-sdk's shape (see
//! `compat::roadmap_text` for how it cuts the roadmap).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::{Value, json};

use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};

fn roadmap_text(call: &Call) -> Option<String> {
    std::fs::read(call.planning().join("ROADMAP.md"))
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// `roadmap.get-phase N`.
pub fn get_phase(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = call.arg(0).filter(|p| !p.is_empty()) else {
        return Err(SdkError::validation(
            "Usage: roadmap get-phase <phase-number>",
        ));
    };
    Ok(Reply::Json(phase_value(call.project, phase)))
}

/// `roadmapGetPhase`'s answer for `phase`.
pub fn phase_value(project: &Path, phase: &str) -> Value {
    let Ok(raw) = std::fs::read(project.join(".planning/ROADMAP.md")) else {
        return json!({"found": false, "error": "ROADMAP.md not found"});
    };
    let raw = String::from_utf8_lossy(&raw);
    let milestone = rt::current_milestone(&raw, project);
    let full = rt::strip_shipped(&raw);
    let in_milestone = rt::search_phase(&milestone, phase);
    let result = match in_milestone {
        Some(r) if r.get("error").is_none() => Some(r),
        other => rt::search_phase(&full, phase).or(other),
    };
    result.unwrap_or_else(|| json!({"found": false, "phase_number": phase}))
}

/// Plan, summary, context and research files in one phase folder.
struct Counts {
    plans: usize,
    summaries: usize,
    context: bool,
    research: bool,
}

fn names(dir: &Path) -> Vec<String> {
    super::names_in(dir)
}

fn counts(dir: &Path) -> Counts {
    let files = names(dir);
    let ends = |suffix: &str, whole: &str| {
        files
            .iter()
            .filter(|f| f.ends_with(suffix) || *f == whole)
            .count()
    };
    let nested = names(&dir.join("plans"));
    let nested_plan = re(r"(?i)^PLAN-\d+.*\.md$");
    let nested_summary = re(r"(?i)^SUMMARY-\d+.*\.md$");
    let count_re = |r: &fancy_regex::Regex| {
        nested
            .iter()
            .filter(|f| r.is_match(f).unwrap_or(false))
            .count()
    };
    Counts {
        plans: ends("-PLAN.md", "PLAN.md") + count_re(nested_plan),
        summaries: ends("-SUMMARY.md", "SUMMARY.md") + count_re(nested_summary),
        context: ends("-CONTEXT.md", "CONTEXT.md") > 0,
        research: ends("-RESEARCH.md", "RESEARCH.md") > 0,
    }
}

/// The phase folders under `.planning/phases/`, by name.
fn phase_dirs(call: &Call) -> Vec<String> {
    let mut dirs: Vec<String> = std::fs::read_dir(call.planning().join("phases"))
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

/// Whether the first `- [x]`/`- [ ]` whose line names a phase (`Phase N`
/// followed by `:` or a space) is ticked, by the phase number in ASCII
/// lower case. gsd-sdk asks, per phase, for the first checkbox whose line
/// names it (`-\s*\[(x| )\]\s*.*Phase\s+N[:\s]`, case-insensitive, and
/// only a lower-case `x` counts as done); one pass answers that for every
/// phase.
fn checkbox_marks(content: &str) -> HashMap<String, bool> {
    let boxes = re(r"(?i)-\s*\[(x| )\]\s*");
    let named = re(r"(?i)^Phase\s+(\d+[A-Z]?(?:\.\d+)*)[:\s]");
    let mut out = HashMap::new();
    for b in boxes.captures_iter(content).filter_map(Result::ok) {
        let ticked = rt::group(&b, 1) == "x";
        let from = b.get(0).map_or(0, |m| m.end());
        let line_end = content[from..]
            .find('\n')
            .map_or(content.len(), |i| from + i);
        let line = &content[from..line_end];
        for (i, _) in line.char_indices().filter(|(i, _)| {
            line.get(*i..*i + 5)
                .is_some_and(|w| w.eq_ignore_ascii_case("phase"))
        }) {
            if let Some(c) = named.captures(&content[from + i..]).ok().flatten() {
                out.entry(rt::group(&c, 1).to_ascii_lowercase())
                    .or_insert(ticked);
            }
        }
    }
    out
}

/// `roadmap.analyze`: the current milestone's phases with their disk state.
pub fn analyze(call: &Call) -> Result<Reply, SdkError> {
    let Some(raw) = roadmap_text(call) else {
        return Ok(Reply::Json(json!({
            "error": "ROADMAP.md not found", "milestones": [], "phases": [], "current_phase": null
        })));
    };
    let content = rt::current_milestone(&raw, call.project);
    let dirs = phase_dirs(call);
    let heading = re(r"(?i)#{2,4}\s*Phase\s+(\d+[A-Z]?(?:\.\d+)*)\s*:\s*([^\n]+)");
    let next_heading = re(r"(?i)\n#{2,4}\s+Phase\s+\d");
    let inserted = re(r"(?i)\(INSERTED\)");
    let marks = checkbox_marks(&content);
    let folders = rt::PhaseDirs::new(&dirs);
    let mut phases: Vec<Value> = Vec::new();
    for c in heading.captures_iter(&content).filter_map(Result::ok) {
        let num = c.get(1).map_or("", |g| g.as_str()).to_string();
        let name = inserted
            .replace(c.get(2).map_or("", |g| g.as_str()), "")
            .trim()
            .to_string();
        let start = c.get(0).map_or(0, |g| g.start());
        let end = next_heading
            .find(&content[start..])
            .ok()
            .flatten()
            .map_or(content.len(), |m| start + m.start());
        let section = &content[start..end];
        let field = |label: &str| {
            re(&format!(r"(?i)\*\*{label}(?::\*\*|\*\*:)\s*([^\n]+)"))
                .captures(section)
                .ok()
                .flatten()
                .and_then(|c| c.get(1).map(|g| g.as_str().trim().to_string()))
        };
        let normalized = rt::normalize_phase_name(&num);
        let mut status = "no_directory";
        let mut n = Counts {
            plans: 0,
            summaries: 0,
            context: false,
            research: false,
        };
        if let Some(d) = folders.find(&normalized) {
            n = counts(&call.planning().join("phases").join(d));
            status = if n.summaries >= n.plans && n.plans > 0 {
                "complete"
            } else if n.summaries > 0 {
                "partial"
            } else if n.plans > 0 {
                "planned"
            } else if n.research {
                "researched"
            } else if n.context {
                "discussed"
            } else {
                "empty"
            };
        }
        let complete = marks.get(&num.to_ascii_lowercase()).is_some_and(|x| *x);
        if complete {
            status = "complete";
        }
        phases.push(json!({
            "number": num,
            "name": name,
            "goal": field("Goal"),
            "depends_on": field("Depends on"),
            "plan_count": n.plans,
            "summary_count": n.summaries,
            "has_context": n.context,
            "has_research": n.research,
            "disk_status": status,
            "roadmap_complete": complete,
        }));
    }
    let milestones: Vec<Value> = re(r"(?i)##\s*(.*v(\d+(?:\.\d+)+)[^(\n]*)")
        .captures_iter(&content)
        .filter_map(Result::ok)
        .map(|c| {
            json!({
                "heading": c.get(1).map_or("", |g| g.as_str()).trim(),
                "version": format!("v{}", c.get(2).map_or("", |g| g.as_str())),
            })
        })
        .collect();
    let status_of = |p: &Value| p["disk_status"].as_str().unwrap_or("").to_string();
    let current = phases
        .iter()
        .find(|p| matches!(status_of(p).as_str(), "planned" | "partial"))
        .map(|p| p["number"].clone());
    let next = phases
        .iter()
        .find(|p| {
            matches!(
                status_of(p).as_str(),
                "empty" | "no_directory" | "discussed" | "researched"
            )
        })
        .map(|p| p["number"].clone());
    let total = |k: &str| {
        phases
            .iter()
            .map(|p| p[k].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    let (plans, summaries) = (total("plan_count"), total("summary_count"));
    let completed = phases.iter().filter(|p| status_of(p) == "complete").count();
    let numbers: HashSet<&str> = phases.iter().filter_map(|p| p["number"].as_str()).collect();
    let mut listed: HashSet<&str> = HashSet::new();
    let mut missing: Vec<String> = Vec::new();
    for c in re(r"(?i)-\s*\[[ x]\]\s*\*\*Phase\s+(\d+[A-Z]?(?:\.\d+)*)")
        .captures_iter(content.as_str())
        .filter_map(Result::ok)
    {
        let n = rt::group(&c, 1);
        if listed.insert(n) && !numbers.contains(n) {
            missing.push(n.to_string());
        }
    }
    let percent = if plans > 0 {
        ((summaries as f64 / plans as f64) * 100.0)
            .round()
            .min(100.0) as u64
    } else {
        0
    };
    let phase_count = phases.len();
    Ok(Reply::Json(json!({
        "milestones": milestones,
        "phases": phases,
        "phase_count": phase_count,
        "completed_phases": completed,
        "total_plans": plans,
        "total_summaries": summaries,
        "progress_percent": percent,
        "current_phase": current,
        "next_phase": next,
        "missing_phase_details": if missing.is_empty() { Value::Null } else { json!(missing) },
    })))
}

/// `roadmap.update-plan-progress N` (or `--phase N`): the phase's plan
/// counts from disk recorded in ROADMAP.md by
/// `ops::roadmap::record_plan_progress`.
pub fn update_plan_progress(call: &Call) -> Result<Reply, SdkError> {
    let flag = call
        .args
        .iter()
        .position(|a| a == "--phase")
        .and_then(|i| call.args.get(i + 1))
        .filter(|v| !v.starts_with("--"));
    let phase = match flag {
        Some(v) => v.clone(),
        None => call
            .args
            .iter()
            .find(|a| !a.starts_with("--"))
            .cloned()
            .unwrap_or_default(),
    };
    if phase.is_empty() {
        return Err(SdkError::validation(
            "phase number required for roadmap update-plan-progress",
        ));
    }
    let info = super::phase_find::find(call.project, &phase);
    if info.get("found") != Some(&Value::Bool(true)) {
        return Err(SdkError::validation(format!("Phase {phase} not found")));
    }
    let list = |k: &str| -> Vec<String> {
        info.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (plans, summaries) = (list("plans"), list("summaries"));
    let counts = json!({"plan_count": plans.len(), "summary_count": summaries.len()});
    let answer = |reason: &str| {
        let mut v = json!({"updated": false, "reason": reason});
        v["plan_count"] = counts["plan_count"].clone();
        v["summary_count"] = counts["summary_count"].clone();
        Reply::Json(v)
    };
    if plans.is_empty() {
        return Ok(Reply::Json(json!({
            "updated": false, "reason": "No plans found", "plan_count": 0, "summary_count": 0,
        })));
    }
    if !call.planning().join("ROADMAP.md").exists() {
        return Ok(answer("ROADMAP.md not found"));
    }
    // `toISOString()`'s date: the UTC day.
    let today = jiff::Timestamp::now().strftime("%Y-%m-%d").to_string();
    let progress = crate::ops::roadmap::PlanProgress {
        phase: &phase,
        plans: plans.len(),
        summaries: summaries.len(),
        summary_files: &summaries,
        today: &today,
    };
    super::write(call, |ws| {
        crate::ops::roadmap::record_plan_progress(ws, &progress)
    })?;
    let complete = summaries.len() >= plans.len();
    let status = if complete {
        "Complete"
    } else if !summaries.is_empty() {
        "In Progress"
    } else {
        "Planned"
    };
    Ok(Reply::Json(json!({
        "updated": true, "phase": phase, "plan_count": plans.len(),
        "summary_count": summaries.len(), "status": status, "complete": complete,
    })))
}
