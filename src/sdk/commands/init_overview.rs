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
    let pattern = format!(
        r"(?i)-\s*\[(x| )\]\s*{}*Phase\s+(\d+[A-Z]?(?:\.\d+)*)[:\s]",
        js::JS_DOT
    );
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
    let terminal = re(
        r"(?i)(?:\(|\*\*)\s*(SHIPPED|COMPLETE|DEFERRED|SUPERSEDED|MERGED\s+INTO|FOLDED\s+INTO)\b",
    );
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
        let count = |p: &str| {
            inner
                .iter()
                .filter(|f| re(p).is_match(f).unwrap_or(false))
                .count()
        };
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
            let title =
                js::trim(&re(r"(?i)\(INSERTED\)").replace(rt::group(&c, 2), "")).to_string();
            match names.iter_mut().find(|(n, _)| *n == number) {
                Some(slot) => slot.1 = title,
                None => names.push((number, title)),
            }
        }
        checkboxes = checkbox_states(&content);
        terminal = terminal_labels(&content);
    }
    let done_in_roadmap =
        |n: &str| checkboxes.get(n) == Some(&true) || checkboxes.get(&unpadded(n)) == Some(&true);
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
        let (number, title) = rt::split_phase_dir(dir);
        let title = if title.is_empty() {
            Value::Null
        } else {
            json!(title)
        };
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
        phases.push(phase(
            json!(number),
            title,
            json!(format!(".planning/phases/{dir}")),
            status,
            plans,
            summaries,
            research,
        ));
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
        let slug = re(r"[^a-z0-9]+")
            .replace_all(&title.to_lowercase(), "-")
            .into_owned();
        let slug = slug.trim_matches('-').to_string();
        if next.is_none() && current.is_none() && status != "complete" {
            next = Some(phases.len());
        }
        phases.push(phase(
            json!(number),
            json!(slug),
            Value::Null,
            status,
            0,
            0,
            false,
        ));
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
        let c = re(&format!(r"\*\*Paused At:\*\*\s*({}+)", js::JS_DOT))
            .captures(s.as_str())
            .ok()
            .flatten()?;
        Some(js::trim(rt::group(&c, 1)).to_string())
    });
    let count = |s: &str| phases.iter().filter(|p| p["status"] == s).count();
    let mut out = Map::new();
    out.insert(
        "executor_model".into(),
        model(call.project, "gsd-executor")?,
    );
    out.insert("planner_model".into(), model(call.project, "gsd-planner")?);
    init::copy(&mut out, &config, "commit_docs");
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
        (
            "project_exists",
            json!(planning.join("PROJECT.md").exists()),
        ),
        (
            "roadmap_exists",
            json!(planning.join("ROADMAP.md").exists()),
        ),
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

/// Phase names wider than this are cut to 19 characters and `…`.
const MAX_NAME_WIDTH: usize = 20;

fn display_name(name: &str) -> String {
    // JavaScript measures and slices UTF-16 code units.
    let units: Vec<u16> = name.encode_utf16().collect();
    if units.len() > MAX_NAME_WIDTH {
        format!(
            "{}…",
            String::from_utf16_lossy(&units[..MAX_NAME_WIDTH - 1])
        )
    } else {
        name.to_string()
    }
}

/// `**Label:** value` (or `**Label**: value`) in a phase section, trimmed.
fn section_field(section: &str, label: &str) -> Value {
    re(&format!(r"(?i)\*\*{label}(?::\*\*|\*\*:)\s*([^\n]+)"))
        .captures(section)
        .ok()
        .flatten()
        .map_or(Value::Null, |c| json!(js::trim(rt::group(&c, 1))))
}

/// Each phase heading of `content` with the section under it (up to the
/// next phase heading).
fn phase_sections(content: &str) -> Vec<(String, String, String)> {
    re(PHASE_HEADING)
        .captures_iter(content)
        .flatten()
        .map(|c| {
            let start = c.get(0).map_or(0, |m| m.start());
            let rest = &content[start..];
            let end = re(r"(?i)\n#{2,4}\s+Phase\s+\d")
                .find(rest)
                .ok()
                .flatten()
                .map_or(content.len(), |m| start + m.start());
            let name = js::trim(&re(r"(?i)\(INSERTED\)").replace(rt::group(&c, 2), "")).to_string();
            (
                rt::group(&c, 1).to_string(),
                name,
                content[start..end].to_string(),
            )
        })
        .collect()
}

/// The phase numbers named in a `Depends on` value (none for `none`).
fn dep_numbers(depends_on: &Value) -> Option<Vec<String>> {
    let s = depends_on.as_str().filter(|s| !s.is_empty())?;
    if re(r"(?i)^none$").is_match(js::trim(s)).unwrap_or(false) {
        return None;
    }
    Some(
        re(r"\d+(?:\.\d+)*")
            .find_iter(s)
            .flatten()
            .map(|m| m.as_str().to_string())
            .collect(),
    )
}

fn deps_display(nums: &[String]) -> String {
    if nums.is_empty() {
        "—".into()
    } else {
        nums.join(",")
    }
}

/// A phase folder's state for the manager: files and newest change.
struct Disk {
    status: &'static str,
    plans: usize,
    summaries: usize,
    context: bool,
    research: bool,
    last_activity: Value,
    active: bool,
}

fn disk(dir: Option<&Path>) -> Disk {
    let Some(dir) = dir else {
        return Disk {
            status: "no_directory",
            plans: 0,
            summaries: 0,
            context: false,
            research: false,
            last_activity: Value::Null,
            active: false,
        };
    };
    let names = super::names_in(dir);
    let (plans, summaries) = plan_and_summary_counts(dir);
    let has = |kind: &str| {
        names
            .iter()
            .any(|f| f.ends_with(&format!("-{kind}.md")) || *f == format!("{kind}.md"))
    };
    let (context, research) = (has("CONTEXT"), has("RESEARCH"));
    let status = if summaries >= plans && plans > 0 {
        "complete"
    } else if summaries > 0 {
        "partial"
    } else if plans > 0 {
        "planned"
    } else if research {
        "researched"
    } else if context {
        "discussed"
    } else {
        "empty"
    };
    let newest = names
        .iter()
        .filter_map(|f| std::fs::metadata(dir.join(f)).ok()?.modified().ok())
        .max();
    let (last_activity, active) = match newest {
        Some(t) => {
            let ts = jiff::Timestamp::try_from(t).ok();
            let iso = ts.map_or(Value::Null, |t| {
                json!(t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
            });
            let age = std::time::SystemTime::now()
                .duration_since(t)
                .map_or(0, |d| d.as_millis());
            (iso, age < 300_000)
        }
        None => (Value::Null, false),
    };
    Disk {
        status,
        plans,
        summaries,
        context,
        research,
        last_activity,
        active,
    }
}

/// `sanitizeFlags`: a manager flag string kept only when every token is a
/// plain `--flag` or word.
fn flags(v: Option<&Value>) -> Value {
    let Some(Value::String(s)) = v else {
        return json!("");
    };
    let safe = s.split_whitespace().all(|t| {
        re(r"^--[a-zA-Z0-9][-a-zA-Z0-9]*$")
            .is_match(t)
            .unwrap_or(false)
            || re(r"^[a-zA-Z0-9][-a-zA-Z0-9_.]*$")
                .is_match(t)
                .unwrap_or(false)
    });
    json!(if safe { s.as_str() } else { "" })
}

/// `init.manager`: every phase of the current milestone with its disk
/// state and dependencies, the next actions that can run side by side,
/// and the next milestone's phases as a queue.
pub fn manager(call: &Call) -> Result<Reply, SdkError> {
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let (version, milestone) = rt::milestone_info(call.project);
    let planning = call.planning();
    let Ok(raw) = std::fs::read(planning.join("ROADMAP.md")) else {
        return Ok(Reply::Json(
            json!({"error": "No ROADMAP.md found. Run /gsd-new-milestone first."}),
        ));
    };
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let content = rt::current_milestone(&raw, call.project);
    let phases_dir = planning.join("phases");
    let dirs: Vec<String> = super::names_in(&phases_dir)
        .into_iter()
        .filter(|n| phases_dir.join(n).is_dir())
        .collect();
    let checkboxes = checkbox_states(&content);
    let folders = rt::PhaseDirs::new(&dirs);
    let mut phases: Vec<Map<String, Value>> = Vec::new();
    for (number, name, section) in phase_sections(&content) {
        let normalized = rt::normalize_phase_name(&number);
        let dir = folders.find(&normalized).map(|d| phases_dir.join(d));
        let mut d = disk(dir.as_deref());
        let ticked = checkboxes.get(&number).copied().unwrap_or(false);
        if ticked {
            d.status = "complete";
        }
        let mut p = Map::new();
        for (k, v) in [
            ("number", json!(number)),
            ("name", json!(name.clone())),
            ("display_name", json!(display_name(&name))),
            ("goal", section_field(&section, "Goal")),
            ("depends_on", section_field(&section, "Depends on")),
            ("disk_status", json!(d.status)),
            ("has_context", json!(d.context)),
            ("has_research", json!(d.research)),
            ("plan_count", json!(d.plans)),
            ("summary_count", json!(d.summaries)),
            ("roadmap_complete", json!(ticked)),
            ("last_activity", d.last_activity),
            ("is_active", json!(d.active)),
        ] {
            p.insert(k.into(), v);
        }
        phases.push(p);
    }
    let status = |p: &Map<String, Value>| p["disk_status"].as_str().unwrap_or("").to_string();
    let completed: HashSet<String> = phases
        .iter()
        .filter(|p| status(p) == "complete")
        .map(|p| p["number"].as_str().unwrap_or("").to_string())
        .collect();
    let mut next_to_discuss = false;
    for p in &mut phases {
        let nums = dep_numbers(&p["depends_on"]);
        let satisfied = nums
            .as_ref()
            .is_none_or(|n| n.iter().all(|n| completed.contains(n)));
        let nums = nums.unwrap_or_default();
        p.insert("deps_satisfied".into(), json!(satisfied));
        p.insert("deps_display".into(), json!(deps_display(&nums)));
        p.insert("dep_phases".into(), json!(nums));
        // gsd-sdk sets `dep_phases` before `deps_display`.
        if let Some(d) = p.shift_remove("deps_display") {
            p.insert("deps_display".into(), d);
        }
    }
    for p in &mut phases {
        let s = status(p);
        let first = !next_to_discuss && (s == "empty" || s == "no_directory");
        next_to_discuss |= first;
        p.insert("is_next_to_discuss".into(), json!(first));
    }
    let waiting = std::fs::read_to_string(planning.join("WAITING.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .unwrap_or(Value::Null);
    let actions = recommended_actions(&phases);
    let count = phases.iter().filter(|p| status(p) == "complete").count();
    let in_progress = phases
        .iter()
        .filter(|p| ["partial", "planned", "discussed", "researched"].contains(&status(p).as_str()))
        .count();
    let (queued, queued_version, queued_name) = match rt::next_milestone(&raw, call.project) {
        Some((v, n, section)) => (queue(&section), json!(v), json!(n)),
        None => (Vec::new(), Value::Null, Value::Null),
    };
    let manager = config.get("manager").and_then(|m| m.get("flags"));
    let flag = |k: &str| flags(manager.and_then(|f| f.get(k)));
    let mut out = Map::new();
    let phase_count = phases.len();
    for (k, v) in [
        ("milestone_version", json!(version)),
        ("milestone_name", json!(milestone)),
        ("phases", json!(phases)),
        ("phase_count", json!(phase_count)),
        ("completed_count", json!(count)),
        ("in_progress_count", json!(in_progress)),
        ("recommended_actions", json!(actions)),
        ("waiting_signal", waiting),
        (
            "all_complete",
            json!(count == phase_count && phase_count > 0),
        ),
        ("queued_phases", json!(queued)),
        ("queued_milestone_version", queued_version),
        ("queued_milestone_name", queued_name),
        (
            "project_exists",
            json!(planning.join("PROJECT.md").exists()),
        ),
        ("roadmap_exists", json!(true)),
        ("state_exists", json!(true)),
        (
            "manager_flags",
            json!({"discuss": flag("discuss"), "plan": flag("plan"), "execute": flag("execute")}),
        ),
    ] {
        out.insert(k.into(), v);
    }
    init::with_project_root(call.project, &mut out, &config);
    Ok(Reply::Json(Value::Object(out)))
}

/// The next milestone's phases, as the manager previews them.
fn queue(section: &str) -> Vec<Value> {
    phase_sections(section)
        .into_iter()
        .map(|(number, name, body)| {
            let depends_on = section_field(&body, "Depends on");
            let nums = dep_numbers(&depends_on).unwrap_or_default();
            json!({
                "number": number, "name": name, "display_name": display_name(&name),
                "goal": section_field(&body, "Goal"), "depends_on": depends_on,
                "dep_phases": nums, "deps_display": deps_display(&nums),
            })
        })
        .collect()
}

/// Whether phase `from` depends on `to`, directly or through others.
fn reaches(
    deps: &HashMap<String, Vec<String>>,
    from: &str,
    to: &str,
    visited: &mut HashSet<String>,
) -> bool {
    if !visited.insert(from.to_string()) {
        return false;
    }
    let Some(d) = deps.get(from).filter(|d| !d.is_empty()) else {
        return false;
    };
    d.iter().any(|x| x == to) || d.iter().any(|x| reaches(deps, x, to, visited))
}

/// Execute, plan or discuss: for each unfinished phase, the step that can
/// start now without racing an active phase it depends on (or that
/// depends on it). Backlog phases (999.x) are left out.
fn recommended_actions(phases: &[Map<String, Value>]) -> Vec<Value> {
    let text = |p: &Map<String, Value>, k: &str| p[k].as_str().unwrap_or("").to_string();
    let flag = |p: &Map<String, Value>, k: &str| p[k].as_bool().unwrap_or(false);
    // `new Map(...)`: a later phase with the same number wins.
    let deps: HashMap<String, Vec<String>> = phases
        .iter()
        .map(|p| {
            let d = p["dep_phases"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            (text(p, "number"), d)
        })
        .collect();
    let related = |a: &str, b: &str| {
        reaches(&deps, a, b, &mut HashSet::new()) || reaches(&deps, b, a, &mut HashSet::new())
    };
    let executing: Vec<String> = phases
        .iter()
        .filter(|p| {
            let s = text(p, "disk_status");
            s == "partial" || (s == "planned" && flag(p, "is_active"))
        })
        .map(|p| text(p, "number"))
        .collect();
    let planning: Vec<String> = phases
        .iter()
        .filter(|p| {
            let s = text(p, "disk_status");
            flag(p, "is_active") && (s == "discussed" || s == "researched")
        })
        .map(|p| text(p, "number"))
        .collect();
    let mut out = Vec::new();
    for p in phases {
        let (s, n) = (text(p, "disk_status"), text(p, "number"));
        if s == "complete" || re(r"^999(?:\.|$)").is_match(&n).unwrap_or(false) {
            continue;
        }
        let action = |action: &str, reason: String, command: &str| {
            json!({"phase": n, "phase_name": p["name"], "action": action,
                   "reason": reason, "command": format!("/gsd-{command} {n}")})
        };
        if s == "planned" && flag(p, "deps_satisfied") {
            if executing.iter().all(|a| !related(&n, a)) {
                let reason = format!("{} plans ready, dependencies met", p["plan_count"]);
                out.push(action("execute", reason, "execute-phase"));
            }
        } else if s == "discussed" || s == "researched" {
            if planning.iter().all(|a| !related(&n, a)) {
                out.push(action(
                    "plan",
                    "Context gathered, ready for planning".into(),
                    "plan-phase",
                ));
            }
        } else if (s == "empty" || s == "no_directory") && flag(p, "is_next_to_discuss") {
            out.push(action(
                "discuss",
                "Unblocked, ready to gather context".into(),
                "discuss-phase",
            ));
        }
    }
    out
}
