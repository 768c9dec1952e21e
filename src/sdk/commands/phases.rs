//! phases.list, progress.bar (and `progress.json`), check.auto-mode: what
//! is on disk under `.planning/phases/`, and the auto-advance switches.

use std::path::Path;

use serde_json::{Value, json};

use super::super::compat::config as cfg;
use super::super::compat::js;
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};
use super::phase_find::{compare_phase_num, phase_dirs};

/// `check.auto-mode`: whether a workflow should advance on its own.
pub fn auto_mode(call: &Call) -> Result<Reply, SdkError> {
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let wf = config.get("workflow");
    let advance = wf
        .and_then(|w| w.get("auto_advance"))
        .is_some_and(js::truthy);
    let chain = wf
        .and_then(|w| w.get("_auto_chain_active"))
        .is_some_and(js::truthy);
    let source = match (chain, advance) {
        (true, true) => "both",
        (true, false) => "auto_chain",
        (false, true) => "auto_advance",
        (false, false) => "none",
    };
    Ok(Reply::Json(json!({
        "active": chain || advance,
        "source": source,
        "auto_chain_active": chain,
        "auto_advance": advance,
    })))
}

pub fn files_of(dir: &Path) -> Vec<String> {
    super::names_in(dir)
}

pub fn is_kind(f: &str, kind: &str) -> bool {
    f.ends_with(&format!("-{kind}.md")) || f == format!("{kind}.md")
}

/// `phases.list [--type plans|summaries|all] [--phase N] [--include-archived]`.
pub fn list(call: &Call) -> Result<Reply, SdkError> {
    let args = call.args;
    let value_of = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .map(|i| args.get(i + 1).cloned())
    };
    let kind = value_of("--type");
    let phase = value_of("--phase");
    let phases_dir = call.planning().join("phases");
    if !phases_dir.exists() {
        return Ok(Reply::Json(if kind.is_some() {
            json!({"files": [], "count": 0})
        } else {
            json!({"directories": [], "count": 0})
        }));
    }
    let mut dirs = phase_dirs(&phases_dir).unwrap_or_default();
    if args.iter().any(|a| a == "--include-archived") {
        let milestones = call.planning().join("milestones");
        for m in phase_dirs(&milestones).unwrap_or_default() {
            let Some(version) = m.strip_suffix("-phases") else {
                continue;
            };
            for a in phase_dirs(&milestones.join(&m)).unwrap_or_default() {
                dirs.push(format!("{a} [{version}]"));
            }
        }
        dirs.sort_by(|a, b| compare_phase_num(a, b));
    }
    if let Some(p) = &phase {
        let normalized = rt::normalize_phase_name(p.as_deref().unwrap_or("undefined"));
        match dirs
            .iter()
            .find(|d| rt::phase_token_matches(d, &normalized))
        {
            Some(m) => dirs = vec![m.clone()],
            None => {
                return Ok(Reply::Json(
                    json!({"files": [], "count": 0, "phase_dir": null, "error": "Phase not found"}),
                ));
            }
        }
    }
    let Some(kind) = kind else {
        return Ok(
            Reply::Json(json!({"count": dirs.len(), "directories": dirs}))
                .map_order(&["directories", "count"]),
        );
    };
    let mut files = Vec::new();
    for d in &dirs {
        let path = phases_dir.join(d);
        if !path.exists() {
            continue;
        }
        let mut fs: Vec<String> = files_of(&path)
            .into_iter()
            .filter(|f| match kind.as_deref() {
                Some("plans") => is_kind(f, "PLAN"),
                Some("summaries") => is_kind(f, "SUMMARY"),
                _ => true,
            })
            .collect();
        fs.sort();
        files.extend(fs);
    }
    let phase_dir = match (&phase, dirs.first()) {
        (Some(_), Some(d)) => json!(re(r"^\d+(?:\.\d+)*-?").replace(d, "").into_owned()),
        _ => Value::Null,
    };
    Ok(Reply::Json(
        json!({"files": files, "count": files.len(), "phase_dir": phase_dir}),
    ))
}

trait Ordered {
    fn map_order(self, keys: &[&str]) -> Reply;
}

impl Ordered for Reply {
    /// The object's keys in gsd-sdk's order.
    fn map_order(self, keys: &[&str]) -> Reply {
        let Reply::Json(Value::Object(mut m)) = self else {
            return self;
        };
        let mut out = serde_json::Map::new();
        for k in keys {
            if let Some(v) = m.remove(*k) {
                out.insert((*k).into(), v);
            }
        }
        out.extend(m);
        Reply::Json(Value::Object(out))
    }
}

/// A phase folder's status from its plan and summary counts and its
/// VERIFICATION.md.
pub fn phase_status(plans: usize, summaries: usize, dir: &Path) -> &'static str {
    if plans == 0 {
        return "Pending";
    }
    if summaries < plans {
        return if summaries > 0 {
            "In Progress"
        } else {
            "Planned"
        };
    }
    let files = files_of(dir);
    let Some(v) = files.iter().find(|f| is_kind(f, "VERIFICATION")) else {
        return "Executed";
    };
    let text = std::fs::read_to_string(dir.join(v)).unwrap_or_default();
    let has = |s: &str| {
        re(&format!(r"(?i)status:\s*{s}"))
            .is_match(&text)
            .unwrap_or(false)
    };
    if has("passed") {
        "Complete"
    } else if has("human_needed") {
        "Needs Review"
    } else {
        "Executed"
    }
}

/// `progress.json`'s answer.
pub fn progress_value(project: &Path) -> Value {
    let phases_dir = project.join(".planning/phases");
    let (version, name) = rt::milestone_info(project);
    let mut phases = Vec::new();
    let (mut plans_total, mut summaries_total) = (0usize, 0usize);
    for d in phase_dirs(&phases_dir).unwrap_or_default() {
        let c = re(r"^(\d+(?:\.\d+)*)-?(.*)")
            .captures(d.as_str())
            .ok()
            .flatten();
        let number = c
            .as_ref()
            .map_or(d.clone(), |c| rt::group(c, 1).to_string());
        let pname = c
            .as_ref()
            .map_or(String::new(), |c| rt::group(c, 2).replace('-', " "));
        let files = files_of(&phases_dir.join(&d));
        let plans = files.iter().filter(|f| is_kind(f, "PLAN")).count();
        let summaries = files.iter().filter(|f| is_kind(f, "SUMMARY")).count();
        plans_total += plans;
        summaries_total += summaries;
        let status = phase_status(plans, summaries, &phases_dir.join(&d));
        phases.push(json!({"number": number, "name": pname, "plans": plans, "summaries": summaries, "status": status}));
    }
    let percent = if plans_total > 0 {
        ((summaries_total as f64 / plans_total as f64) * 100.0)
            .round()
            .min(100.0) as u64
    } else {
        0
    };
    json!({
        "milestone_version": version,
        "milestone_name": name,
        "phases": phases,
        "total_plans": plans_total,
        "total_summaries": summaries_total,
        "percent": percent,
    })
}

/// `progress.json`.
pub fn progress_json(call: &Call) -> Result<Reply, SdkError> {
    Ok(Reply::Json(progress_value(call.project)))
}

/// `progress.table`: the progress as a markdown table.
pub fn progress_table(call: &Call) -> Result<Reply, SdkError> {
    let p = progress_value(call.project);
    let percent = p["percent"].as_u64().unwrap_or(0);
    let filled = ((percent as f64 / 100.0) * 10.0).round() as usize;
    let text = |v: &Value| super::super::compat::js::string(v);
    let mut out = format!(
        "# {} {}\n\n**Progress:** [{}{}] {}/{} plans ({percent}%)\n\n",
        text(&p["milestone_version"]),
        text(&p["milestone_name"]),
        "\u{2588}".repeat(filled),
        "\u{2591}".repeat(10 - filled.min(10)),
        p["total_summaries"],
        p["total_plans"]
    );
    out += "| Phase | Name | Plans | Status |\n|-------|------|-------|--------|\n";
    for ph in p["phases"].as_array().into_iter().flatten() {
        out += &format!(
            "| {} | {} | {}/{} | {} |\n",
            text(&ph["number"]),
            text(&ph["name"]),
            ph["summaries"],
            ph["plans"],
            text(&ph["status"])
        );
    }
    Ok(Reply::Json(json!({"rendered": out})))
}

/// `progress.bar`.
pub fn progress_bar(call: &Call) -> Result<Reply, SdkError> {
    let p = progress_value(call.project);
    let percent = p["percent"].as_u64().unwrap_or(0);
    let filled = ((percent as f64 / 100.0) * 20.0).round() as usize;
    let bar = format!(
        "[{}{}] {}/{} plans ({percent}%)",
        "\u{2588}".repeat(filled),
        "\u{2591}".repeat(20 - filled.min(20)),
        p["total_summaries"],
        p["total_plans"]
    );
    Ok(Reply::Json(json!({
        "bar": bar,
        "percent": percent,
        "completed": p["total_summaries"],
        "total": p["total_plans"],
    })))
}
