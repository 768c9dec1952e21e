//! `init manager`: the dashboard GSD Core 1.14.0's manager and autonomous
//! workflows start from — every phase of the current milestone with its
//! disk status, completion (verification-gated), dependencies and recent
//! activity, the actions it recommends next, and the init envelope.
//!
//! Built on the same window and phase folders as `roadmap analyze`
//! (`milestone_window`) with the manager's own heading pattern, counts and
//! completion projection. Handed on: runtimes other than Claude Code (the
//! recommended commands are spelled per runtime), a waiting signal on
//! disk, manager flags 1.14.0 would warn about, a phase name it would cut
//! inside a character outside the Basic Multilingual Plane, and what the
//! roadmap reading hands on.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::{Map, Value, json};

use super::super::compat::roadmap_text::{group, re};
use super::init_envelope::with_project_root;
use super::milestone_window::{self as mw, PhaseFilter};
use super::native::{
    CoreCall, Refusal, claude_runtime, config_object, hand_on, redetects_sub_repos,
};
use super::output::{Failure, Out};
use super::phase_id::{normalize_phase_name, scope_to_phase};
use super::roadmap_analyze::{all_phase_dirs, match_phase_dir};
use super::{plan_scan, verification};

/// A phase number in `PHASE_NUMBER_TOKEN_SOURCE`'s shape.
const TOKEN: &str = r"\d+[A-Z]?(?:\.\d+)*";

/// `init manager`.
pub fn manager(call: &CoreCall) -> Result<Out, Refusal> {
    if !claude_runtime(call) {
        return Err(hand_on(" for a runtime other than Claude Code"));
    }
    let config = config_object(call)?;
    if config.as_ref().is_some_and(redetects_sub_repos) {
        return Err(hand_on(
            " where 1.14.0 would re-detect sub-repositories first",
        ));
    }
    let planning = call.project.join(".planning");
    for file in ["ROADMAP.md", "STATE.md"] {
        if !planning.join(file).exists() {
            return Err(Refusal::Fail(Failure::new(
                "unknown",
                format!("No {file} found. Run /gsd-new-milestone first."),
            )));
        }
    }
    let flags = manager_flags(config.as_ref())?;
    for waiting in [
        call.project.join(".gsd/WAITING.json"),
        planning.join("WAITING.json"),
    ] {
        if waiting.exists() {
            return Err(hand_on(" with a waiting signal"));
        }
    }
    let raw = std::fs::read(planning.join("ROADMAP.md"))
        .map_err(|_| hand_on(" with an unreadable ROADMAP.md"))?;
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (content, _) = mw::current_window(&raw, call.project);
    let phases_dir = planning.join("phases");
    let filter = PhaseFilter::read(call.project);
    let dirs: Vec<String> = all_phase_dirs(&phases_dir)?
        .into_iter()
        .filter(|d| filter.admits(d) && !mw::is_sentinel(d))
        .collect();
    let mut phases = scan_phases(&content, &phases_dir, &dirs)?;
    link_dependencies(&mut phases, &raw);
    let actions = recommended_actions(&phases);
    let listed: Vec<&Map<String, Value>> = phases
        .iter()
        .filter(|p| !mw::is_sentinel(text(p, "number")))
        .collect();
    let completed = listed
        .iter()
        .filter(|p| p["phase_complete"] == true)
        .count();
    let in_progress = phases
        .iter()
        .filter(|p| {
            ["executed", "partial", "planned", "discussed", "researched"]
                .contains(&text(p, "disk_status"))
        })
        .count();
    let milestone = mw::milestone_info(call.project);
    let path = |p: &Path| -> Result<Value, Refusal> {
        Ok(json!(
            p.to_str()
                .ok_or_else(|| hand_on(" for a path that is not UTF-8"))?
        ))
    };
    let mut r = Map::new();
    mw::insert_milestone(&mut r, &milestone);
    r.insert("phase_count".into(), json!(phases.len()));
    r.insert("completed_count".into(), json!(completed));
    r.insert("in_progress_count".into(), json!(in_progress));
    r.insert("recommended_actions".into(), Value::Array(actions));
    r.insert("waiting_signal".into(), Value::Null);
    r.insert(
        "all_complete".into(),
        json!(completed == listed.len() && !listed.is_empty()),
    );
    r.insert(
        "project_exists".into(),
        json!(planning.join("PROJECT.md").exists()),
    );
    r.insert("roadmap_exists".into(), json!(true));
    r.insert("state_exists".into(), json!(true));
    r.insert("manager_flags".into(), flags);
    r.insert("state_path".into(), path(&planning.join("STATE.md"))?);
    r.insert("roadmap_path".into(), path(&planning.join("ROADMAP.md"))?);
    r.insert("archive_dir".into(), path(&planning.join("milestones"))?);
    // `phases` sits third in 1.14.0's order.
    let phases: Vec<Value> = phases.into_iter().map(Value::Object).collect();
    let mut ordered = Map::new();
    for (k, v) in r {
        ordered.insert(k.clone(), v);
        if k == "milestone_name" {
            ordered.insert("phases".into(), Value::Array(phases.clone()));
        }
    }
    Ok(Out::json(&Value::Object(with_project_root(
        call,
        config.as_ref(),
        ordered,
    )?)))
}

fn text<'a>(p: &'a Map<String, Value>, k: &str) -> &'a str {
    p.get(k).and_then(Value::as_str).unwrap_or_default()
}

/// `manager.flags.{discuss,plan,execute}`: each a string of flag and word
/// tokens; anything else (1.14.0 warns and drops it) is handed on.
fn manager_flags(config: Option<&Map<String, Value>>) -> Result<Value, Refusal> {
    let flags = config
        .and_then(|c| c.get("manager"))
        .filter(|m| super::super::compat::js::truthy(m))
        .and_then(|m| m.get("flags"));
    let mut out = Map::new();
    for k in ["discuss", "plan", "execute"] {
        let v = match flags.and_then(|f| f.get(k)) {
            Some(Value::String(s)) if !s.is_empty() => {
                let safe = re(r"\s+")
                    .split(s)
                    .flatten()
                    .filter(|t| !t.is_empty())
                    .all(|t| {
                        re(r"^--[a-zA-Z0-9][-a-zA-Z0-9]*$|^[a-zA-Z0-9][-a-zA-Z0-9_.]*$")
                            .is_match(t)
                            .unwrap_or(false)
                    });
                if !safe {
                    return Err(hand_on(" with manager flags 1.14.0 warns about"));
                }
                s.clone()
            }
            _ => String::new(),
        };
        out.insert(k.into(), json!(v));
    }
    Ok(Value::Object(out))
}

/// Each `## Phase N: Name` heading of the window with its folder's state.
fn scan_phases(
    content: &str,
    phases_dir: &Path,
    dirs: &[String],
) -> Result<Vec<Map<String, Value>>, Refusal> {
    let mut ticked = HashMap::new();
    let checkbox = re(&format!(r"(?i)-\s*\[(x| )\]\s*.*Phase\s+({TOKEN})[:\s]"));
    for c in checkbox.captures_iter(content).flatten() {
        ticked.insert(
            group(&c, 2).to_owned(),
            group(&c, 1).eq_ignore_ascii_case("x"),
        );
    }
    let heading = re(&format!(
        r"(?i)#{{2,4}}\s*Phase\s+({TOKEN})(?:\s*\([^)\n]{{0,200}}\))?\s*:\s*([^\n]+)"
    ));
    let next_heading = re(r"(?i)\n#{2,4}\s+Phase\s+\d[\d.]*");
    let mut phases = Vec::new();
    for c in heading.captures_iter(content) {
        let c = c.map_err(|_| hand_on(" where the roadmap defeats the pattern engine"))?;
        let number = group(&c, 1).to_owned();
        let name = re(r"(?i)\(INSERTED\)").replace(group(&c, 2), "");
        let name = super::js::trim(&name).to_owned();
        let start = c.get(0).map_or(0, |m| m.start());
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
                .map(|c| super::js::trim(group(&c, 1)).to_owned())
        };
        let mut p = Map::new();
        p.insert("number".into(), json!(number));
        p.insert("name".into(), json!(name));
        p.insert("goal".into(), json!(field("Goal")));
        p.insert("depends_on".into(), json!(field("Depends on")));
        let dir = match_phase_dir(dirs, &normalize_phase_name(&number));
        let state = match dir {
            Some(d) => DirState::read(&phases_dir.join(d), d)?,
            None => DirState::default(),
        };
        let verification = verification::read_status_for(
            &dir.map(|d| phases_dir.join(d)).unwrap_or_default(),
            Some(&number),
        )?;
        let passed = verification["status"] == "passed";
        let implemented = state.plans > 0 && state.summaries >= state.plans;
        let status = if dir.is_none() {
            "no_directory"
        } else if passed {
            "complete"
        } else if implemented {
            "executed"
        } else if state.summaries > 0 {
            "partial"
        } else if state.plans > 0 {
            "planned"
        } else if state.research {
            "researched"
        } else if state.context {
            "discussed"
        } else {
            "empty"
        };
        p.insert("disk_status".into(), json!(status));
        p.insert("has_context".into(), json!(state.context));
        p.insert("has_research".into(), json!(state.research));
        p.insert("plan_count".into(), json!(state.plans));
        p.insert("summary_count".into(), json!(state.summaries));
        p.insert(
            "roadmap_complete".into(),
            json!(ticked.get(&number).copied().unwrap_or(false)),
        );
        p.insert("implementation_complete".into(), json!(implemented));
        p.insert("verification_status".into(), verification["status"].clone());
        p.insert("verification_passed".into(), json!(passed));
        p.insert("phase_complete".into(), json!(passed));
        let completion = if passed {
            "complete"
        } else if implemented {
            "executed"
        } else {
            "incomplete"
        };
        p.insert("completion_status".into(), json!(completion));
        p.insert(
            "verification_next_action".into(),
            verification["next_action"].clone(),
        );
        p.insert(
            "verification_next_command".into(),
            verification["next_command"].clone(),
        );
        p.insert(
            "verification_stale_check_indeterminate".into(),
            json!(verification.get("staleCheckIndeterminate") == Some(&json!(true))),
        );
        let newest = state.newest_ms.filter(|ms| *ms > 0.0);
        p.insert("last_activity".into(), json!(newest.map(iso).transpose()?));
        let now = super::clock::now_ms() as f64;
        p.insert(
            "is_active".into(),
            json!(newest.is_some_and(|ms| now - ms < 300_000.0)),
        );
        p.insert("context_scope".into(), json!("complete"));
        p.insert("display_name".into(), json!(display_name(&name)?));
        phases.push(p);
    }
    Ok(phases)
}

/// What the manager reads of a phase folder.
#[derive(Default)]
struct DirState {
    /// Live plans (`planFiles`).
    plans: usize,
    /// Every summary on disk (`summaryFiles`).
    summaries: usize,
    context: bool,
    research: bool,
    /// The newest mtime among the folder's entries, in milliseconds.
    newest_ms: Option<f64>,
}

impl DirState {
    fn read(path: &Path, dir: &str) -> Result<DirState, Refusal> {
        let scan = plan_scan::scan(path).map_err(|u| hand_on(u.0))?;
        let counts = scan.counts().map_err(|u| hand_on(u.0))?;
        let files = scan
            .listing
            .ok_or_else(|| hand_on(" where a phase folder cannot be listed"))?;
        let scoped = scope_to_phase(&files, dir);
        let newest = files
            .iter()
            .filter_map(|f| verification::mtime_ms(&path.join(f)))
            .fold(0.0_f64, f64::max);
        Ok(DirState {
            plans: counts.plans,
            summaries: counts.all_summaries,
            context: scoped
                .iter()
                .any(|f| *f == "CONTEXT.md" || f.ends_with("-CONTEXT.md")),
            research: scoped
                .iter()
                .any(|f| *f == "RESEARCH.md" || f.ends_with("-RESEARCH.md")),
            newest_ms: Some(newest),
        })
    }
}

/// `new Date(ms).toISOString()` for the years it spells with four digits.
fn iso(ms: f64) -> Result<String, Refusal> {
    let ts = jiff::Timestamp::from_millisecond(ms.trunc() as i64)
        .map_err(|_| hand_on(" for a file time outside the calendar"))?;
    let s = ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
    if s.len() != 24 {
        return Err(hand_on(" for a file time outside years 0–9999"));
    }
    Ok(s)
}

/// The name cut to 20 UTF-16 units (19 and `…`) as 1.14.0 cuts it.
fn display_name(name: &str) -> Result<String, Refusal> {
    let units = name.encode_utf16().count();
    if units <= 20 {
        return Ok(name.to_owned());
    }
    if name.chars().any(|c| c.len_utf16() > 1) {
        return Err(hand_on(
            " for a long phase name outside the Basic Multilingual Plane",
        ));
    }
    let cut: String = name.chars().take(19).collect();
    Ok(format!("{cut}…"))
}

/// `normalizePhaseNumber`: each dot part without padding, letters upper.
fn normalize_number(value: &str) -> String {
    value
        .split('.')
        .map(
            |part| match re(r"(?i)^(\d+)([A-Z]?)$").captures(part).ok().flatten() {
                Some(c) => {
                    let n = group(&c, 1).trim_start_matches('0');
                    format!(
                        "{}{}",
                        if n.is_empty() { "0" } else { n },
                        group(&c, 2).to_uppercase()
                    )
                }
                None => part.to_owned(),
            },
        )
        .collect::<Vec<_>>()
        .join(".")
}

/// Dependencies: which phases count as complete (verified ones, and any
/// phase ticked `[x]` anywhere in the roadmap that is not a listed,
/// unverified phase), then each phase's `deps_satisfied`, `dep_phases`,
/// `deps_display` and `is_next_to_discuss`.
fn link_dependencies(phases: &mut [Map<String, Value>], raw: &str) {
    let mut completed: HashSet<String> = phases
        .iter()
        .filter(|p| p["phase_complete"] == true)
        .map(|p| normalize_number(text(p, "number")))
        .collect();
    let listed: HashMap<String, bool> = phases
        .iter()
        .map(|p| {
            (
                normalize_number(text(p, "number")),
                p["phase_complete"] == true,
            )
        })
        .collect();
    let ticked = re(&format!(r"(?i)-\s*\[x\]\s*.*Phase\s+({TOKEN})[:\s]"));
    for c in ticked.captures_iter(raw).flatten() {
        let n = normalize_number(group(&c, 1));
        if listed.get(&n).is_none_or(|done| *done) {
            completed.insert(n);
        }
    }
    for p in phases.iter_mut() {
        let depends = p
            .get("depends_on")
            .and_then(Value::as_str)
            .map(str::to_owned);
        match depends {
            Some(d)
                if !re(r"(?i)^none$")
                    .is_match(super::js::trim(&d))
                    .unwrap_or(false) =>
            {
                let nums: Vec<String> = re(&format!("(?i){TOKEN}"))
                    .find_iter(&d)
                    .flatten()
                    .map(|m| m.as_str().to_owned())
                    .collect();
                let ok = nums
                    .iter()
                    .all(|n| completed.contains(&normalize_number(n)));
                p.insert("deps_satisfied".into(), json!(ok));
                p.insert("dep_phases".into(), json!(nums));
            }
            _ => {
                p.insert("deps_satisfied".into(), json!(true));
            }
        }
    }
    for p in phases.iter_mut() {
        let display = match p.get("dep_phases").and_then(Value::as_array) {
            Some(a) if !a.is_empty() => a
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(","),
            _ => "—".to_owned(),
        };
        p.insert("deps_display".into(), json!(display));
    }
    for p in phases.iter_mut() {
        let next = ["empty", "no_directory"].contains(&text(p, "disk_status"))
            && p["deps_satisfied"] == true;
        p.insert("is_next_to_discuss".into(), json!(next));
    }
}

/// Whether one phase depends on the other, directly or through others.
fn reaches(
    phases: &HashMap<String, &Map<String, Value>>,
    from: &str,
    to: &str,
    seen: &mut HashSet<String>,
) -> bool {
    let from = normalize_number(from);
    let to = normalize_number(to);
    if !seen.insert(from.clone()) {
        return false;
    }
    let deps: Vec<&str> = phases
        .get(&from)
        .and_then(|p| p.get("dep_phases"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if deps.iter().any(|d| normalize_number(d) == to) {
        return true;
    }
    deps.iter().any(|d| reaches(phases, d, &to, seen))
}

/// The recommended next step per unfinished phase (verify, execute, plan,
/// discuss), without executing or planning beside an active phase it is
/// tied to by dependencies.
fn recommended_actions(phases: &[Map<String, Value>]) -> Vec<Value> {
    let by_number: HashMap<String, &Map<String, Value>> = phases
        .iter()
        .map(|p| (normalize_number(text(p, "number")), p))
        .collect();
    let related = |a: &str, b: &str| {
        reaches(&by_number, a, b, &mut HashSet::new())
            || reaches(&by_number, b, a, &mut HashSet::new())
    };
    let mut actions = Vec::new();
    for p in phases {
        let status = text(p, "disk_status");
        let number = text(p, "number");
        if status == "complete" || mw::is_sentinel(number) {
            continue;
        }
        let deps_ok = p["deps_satisfied"] == true;
        let (action, reason, command) = match status {
            "executed" => (
                "verify",
                format!(
                    "Implementation complete; verification {}",
                    super::super::compat::js::string(&p["verification_status"])
                ),
                p["verification_next_command"].clone(),
            ),
            "planned" if deps_ok => (
                "execute",
                format!("{} plans ready, dependencies met", p["plan_count"]),
                json!(format!("/gsd-execute-phase {number}")),
            ),
            "discussed" | "researched" => (
                "plan",
                "Context gathered, ready for planning".to_owned(),
                json!(format!("/gsd-plan-phase {number}")),
            ),
            "empty" | "no_directory" if p["is_next_to_discuss"] == true => (
                "discuss",
                "Unblocked, ready to gather context".to_owned(),
                json!(format!("/gsd-discuss-phase {number}")),
            ),
            _ => continue,
        };
        actions.push((action, number, p, reason, command));
    }
    let active = |pred: &dyn Fn(&Map<String, Value>) -> bool| -> Vec<&str> {
        phases
            .iter()
            .filter(|p| pred(p))
            .map(|p| text(p, "number"))
            .collect()
    };
    let executing = active(&|p| {
        let s = text(p, "disk_status");
        s == "partial" || (s == "planned" && p["is_active"] == true)
    });
    let planning = active(&|p| {
        p["is_active"] == true && ["discussed", "researched"].contains(&text(p, "disk_status"))
    });
    actions
        .into_iter()
        .filter(|(action, number, ..)| match *action {
            "execute" => executing.iter().all(|a| !related(number, a)),
            "plan" => planning.iter().all(|a| !related(number, a)),
            _ => true,
        })
        .map(|(action, number, p, reason, command)| {
            json!({
                "phase": number,
                "phase_name": p["name"],
                "action": action,
                "reason": reason,
                "command": command,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_lose_padding_per_dot_part() {
        assert_eq!(normalize_number("05.01"), "5.1");
        assert_eq!(normalize_number("3a"), "3A");
        assert_eq!(normalize_number("x.07"), "x.7");
    }

    #[test]
    fn long_names_are_cut_to_twenty_units() {
        assert_eq!(display_name("Short").unwrap(), "Short");
        assert_eq!(
            display_name("Authentication and sessions").unwrap(),
            "Authentication and …"
        );
        assert_eq!(
            display_name("Привет мир, как дела сегодня")
                .unwrap()
                .chars()
                .count(),
            20
        );
        assert!(display_name("Emoji 🚀 in a long phase name").is_err());
    }
}
