//! stats.json: the current milestone in numbers — phases by status, plans
//! done, requirements ticked, commits — for the stats workflow.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Value, json};

use super::super::compat::js;
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};
use super::init_overview::PHASE_HEADING;
use super::phase_find::{compare_phase_num, phase_dirs};
use super::phases::{files_of, is_kind, phase_status};

/// A percentage as gsd-sdk rounds it (`Math.round`, at most 100).
fn percent(part: usize, whole: usize) -> u64 {
    if whole == 0 {
        0
    } else {
        ((part as f64 / whole as f64) * 100.0).round().min(100.0) as u64
    }
}

/// Commits reachable from HEAD and the first (root) commit's author date,
/// as `git rev-list --count HEAD` and `git show -s --format=%as` give them.
fn git_history(project: &Path) -> (usize, Value) {
    let Ok(repo) = git2::Repository::discover(project) else {
        return (0, Value::Null);
    };
    let Ok(mut walk) = repo.revwalk() else {
        return (0, Value::Null);
    };
    if walk.push_head().is_err() {
        return (0, Value::Null);
    }
    let mut count = 0;
    let mut root = None;
    for oid in walk.flatten() {
        count += 1;
        if let Ok(c) = repo.find_commit(oid)
            && c.parent_count() == 0
            && root.is_none()
        {
            let t = c.author().when();
            let offset = jiff::tz::Offset::from_seconds(t.offset_minutes() * 60).ok();
            root = jiff::Timestamp::from_second(t.seconds())
                .ok()
                .zip(offset)
                .map(|(ts, off)| {
                    ts.to_zoned(off.to_time_zone())
                        .strftime("%Y-%m-%d")
                        .to_string()
                });
        }
    }
    (count, root.map_or(Value::Null, Value::from))
}

/// `stats.table`: `stats.json table`.
pub fn table(call: &Call) -> Result<Reply, SdkError> {
    render(call, true)
}

/// `stats.json [table]` (and `stats`).
pub fn stats(call: &Call) -> Result<Reply, SdkError> {
    render(call, call.arg(0) == Some("table"))
}

fn render(call: &Call, as_table: bool) -> Result<Reply, SdkError> {
    let planning = call.planning();
    let (version, name) = rt::milestone_info(call.project);
    let in_milestone = rt::milestone_filter(call.project);
    // Roadmap phases first (in heading order), then folders by phase order.
    let mut order: Vec<String> = Vec::new();
    let mut by_number: HashMap<String, Value> = HashMap::new();
    if let Ok(raw) = std::fs::read(planning.join("ROADMAP.md")) {
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let slice = rt::current_milestone(&raw, call.project);
        for c in re(PHASE_HEADING).captures_iter(slice.as_str()).flatten() {
            let key = rt::normalize_phase_name(rt::group(&c, 1));
            let title =
                js::trim(&re(r"(?i)\(INSERTED\)").replace(rt::group(&c, 2), "")).to_string();
            if !order.contains(&key) {
                order.push(key.clone());
            }
            by_number.insert(
                key.clone(),
                json!({"number": key, "name": title, "plans": 0, "summaries": 0, "status": "Not Started"}),
            );
        }
    }
    let phases_dir = planning.join("phases");
    let (mut plans_total, mut summaries_total) = (0, 0);
    for dir in phase_dirs(&phases_dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|d| in_milestone(d))
    {
        let (number, folder_name) = rt::split_phase_dir(&dir);
        let folder_name = folder_name.replace('-', " ");
        let files = files_of(&phases_dir.join(&dir));
        let plans = files.iter().filter(|f| is_kind(f, "PLAN")).count();
        let summaries = files.iter().filter(|f| is_kind(f, "SUMMARY")).count();
        plans_total += plans;
        summaries_total += summaries;
        let status = match phase_status(plans, summaries, &phases_dir.join(&dir)) {
            "Pending" => "Not Started",
            s => s,
        };
        let key = rt::normalize_phase_name(&number);
        let existing = by_number.get(&key);
        let title = existing
            .and_then(|e| e["name"].as_str())
            .filter(|n| !n.is_empty())
            .map_or(folder_name, String::from);
        let count = |k: &str| existing.and_then(|e| e[k].as_u64()).unwrap_or(0) as usize;
        let entry = json!({
            "number": key, "name": title, "plans": count("plans") + plans,
            "summaries": count("summaries") + summaries, "status": status,
        });
        if !order.contains(&key) {
            order.push(key.clone());
        }
        by_number.insert(key, entry);
    }
    let mut phases: Vec<Value> = order.iter().filter_map(|k| by_number.remove(k)).collect();
    js::sort_by(&mut phases, |a, b| {
        compare_phase_num(
            a["number"].as_str().unwrap_or(""),
            b["number"].as_str().unwrap_or(""),
        )
    });
    let completed = phases.iter().filter(|p| p["status"] == "Complete").count();
    let (req_done, req_total) = std::fs::read(planning.join("REQUIREMENTS.md"))
        .map(|b| {
            let t = String::from_utf8_lossy(&b).into_owned();
            let n = |p: &str| re(p).find_iter(t.as_str()).flatten().count();
            let done = n(r"(?m)^- \[x\] \*\*");
            (done, done + n(r"(?m)^- \[ \] \*\*"))
        })
        .unwrap_or((0, 0));
    let last_activity = std::fs::read(planning.join("STATE.md")).ok().and_then(|b| {
        let t = String::from_utf8_lossy(&b).into_owned();
        let dot = js::JS_DOT;
        [
            format!(r"(?im)^last_activity:\s*({dot}+)$"),
            format!(r"(?i)\*\*Last Activity:\*\*\s*({dot}+)"),
            format!(r"(?im)^Last Activity:\s*({dot}+)$"),
            format!(r"(?im)^Last activity:\s*({dot}+)$"),
        ]
        .iter()
        .find_map(|p| {
            re(p)
                .captures(t.as_str())
                .ok()
                .flatten()
                .map(|c| js::trim(rt::group(&c, 1)).to_string())
        })
    });
    let (commits, first_date) = git_history(call.project);
    let phase_total = phases.len();
    let pct = percent(completed, phase_total);
    let plan_pct = percent(summaries_total, plans_total);
    if as_table {
        let filled = ((pct as f64 / 100.0) * 10.0).round() as usize;
        let bar = format!(
            "{}{}",
            "\u{2588}".repeat(filled),
            "\u{2591}".repeat(10 - filled)
        );
        let mut out = format!("# {version} {name} \u{2014} Statistics\n\n");
        out += &format!("**Progress:** [{bar}] {completed}/{phase_total} phases ({pct}%)\n");
        if plans_total > 0 {
            out += &format!("**Plans:** {summaries_total}/{plans_total} complete ({plan_pct}%)\n");
        }
        out += &format!("**Phases:** {completed}/{phase_total} complete\n");
        if req_total > 0 {
            out += &format!("**Requirements:** {req_done}/{req_total} complete\n");
        }
        out += "\n| Phase | Name | Plans | Completed | Status |\n|-------|------|-------|-----------|--------|\n";
        for p in &phases {
            out += &format!(
                "| {} | {} | {} | {} | {} |\n",
                js::string(&p["number"]),
                js::string(&p["name"]),
                p["plans"],
                p["summaries"],
                js::string(&p["status"])
            );
        }
        if commits > 0 {
            out += &format!("\n**Git:** {commits} commits");
            if let Value::String(d) = &first_date {
                out += &format!(" (since {d})");
            }
            out += "\n";
        }
        if let Some(a) = &last_activity {
            out += &format!("**Last activity:** {a}\n");
        }
        return Ok(Reply::Json(json!({"rendered": out})));
    }
    Ok(Reply::Json(json!({
        "milestone_version": version,
        "milestone_name": name,
        "phases": phases,
        "phases_completed": completed,
        "phases_total": phase_total,
        "total_plans": plans_total,
        "total_summaries": summaries_total,
        "percent": pct,
        "plan_percent": plan_pct,
        "requirements_total": req_total,
        "requirements_complete": req_done,
        "git_commits": commits,
        "git_first_commit_date": first_date,
        "last_activity": last_activity,
    })))
}
