//! The milestone inits of GSD Core 1.14.0: `init new-milestone` (start
//! the next milestone: its agents' models, the current and last shipped
//! milestone, the paths it writes), `init milestone-op` (how far the
//! current milestone is: phases, phases with a summary, archives) and
//! `init complete-milestone` (close it: whether to tag, the paths it moves).
//!
//! They read the same milestone identity and windows as `roadmap analyze`
//! (`milestone_window`) and carry the init envelope.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::super::compat::roadmap_text::{group, re};
use super::init_envelope::{commit_docs, finish};
use super::init_phase_op::{checked_config, path_text};
use super::milestone_window::{self as mw, PhaseFilter};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;
use super::phase_id::strip_project_code;
use super::roadmap_analyze::all_phase_dirs;
use super::slug::slug;
use super::{plan_scan, section_manifest};

/// No arguments but `--reset-phase-numbers` (new-milestone only).
fn no_arguments(call: &CoreCall, allowed: &[&str]) -> Result<Vec<String>, Refusal> {
    let mut flags = Vec::new();
    for a in call.args {
        if allowed.contains(&a.as_str()) {
            flags.push(a.clone());
        } else {
            return Err(hand_on(format!(" with the argument `{a}`")));
        }
    }
    if section_manifest::overridden() {
        return Err(hand_on(" with GSD_SECTION_MANIFEST set"));
    }
    Ok(flags)
}

fn path_value(p: &Path) -> Result<Value, Refusal> {
    Ok(json!(path_text(p)?))
}

fn existing(p: &Path) -> Result<Value, Refusal> {
    if p.exists() {
        path_value(p)
    } else {
        Ok(Value::Null)
    }
}

/// `init complete-milestone`.
pub fn complete_milestone(call: &CoreCall) -> Result<Out, Refusal> {
    no_arguments(call, &[])?;
    let config = checked_config(call)?;
    let planning = call.project.join(".planning");
    // `readConfigJsonValue(['git', 'create_tag']) !== false`.
    let tag = !config
        .as_ref()
        .and_then(|c| c.get("git"))
        .and_then(|g| g.as_object())
        .is_some_and(|g| g.get("create_tag") == Some(&json!(false)));
    let mut r = Map::new();
    r.insert("git_create_tag".into(), json!(tag));
    r.insert("state_path".into(), existing(&planning.join("STATE.md"))?);
    r.insert(
        "roadmap_path".into(),
        existing(&planning.join("ROADMAP.md"))?,
    );
    r.insert(
        "archive_dir".into(),
        path_value(&planning.join("milestones"))?,
    );
    r.insert(
        "milestones_path".into(),
        existing(&planning.join("MILESTONES.md"))?,
    );
    r.insert(
        "project_path".into(),
        existing(&planning.join("PROJECT.md"))?,
    );
    r.insert(
        "requirements_path".into(),
        existing(&planning.join("REQUIREMENTS.md"))?,
    );
    let facts = section_manifest::Facts {
        git_create_tag: tag,
        ..Default::default()
    };
    r.insert(
        "section_manifest".into(),
        section_manifest::field("complete-milestone", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// `getLatestCompletedMilestone`: the first `## vX.Y Name (Shipped: …`
/// heading of MILESTONES.md.
fn latest_completed(planning: &Path) -> Option<(String, String)> {
    let bytes = std::fs::read(planning.join("MILESTONES.md")).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    // JavaScript's `.` stops at U+2028 and U+2029 too.
    let c = re(r"(?m)^##\s+(v[\d.]+)\s+([^\n\r\u{2028}\u{2029}]+?)\s+\(Shipped:")
        .captures(text.as_ref())
        .ok()
        .flatten()?;
    Some((
        group(&c, 1).to_owned(),
        super::js::trim(group(&c, 2)).to_owned(),
    ))
}

/// The current milestone's phase folders (`listMilestonePhaseDirs`).
fn milestone_dirs(project: &Path, phases_dir: &Path) -> Result<Vec<String>, Refusal> {
    let filter = PhaseFilter::read(project);
    Ok(all_phase_dirs(phases_dir)?
        .into_iter()
        .filter(|d| filter.admits(d) && !mw::is_sentinel(d))
        .collect())
}

/// `init new-milestone [--reset-phase-numbers]`.
pub fn new_milestone(call: &CoreCall) -> Result<Out, Refusal> {
    let flags = no_arguments(call, &["--reset-phase-numbers"])?;
    let config = checked_config(call)?;
    let planning = call.project.join(".planning");
    let milestone = mw::milestone_info(call.project);
    let latest = latest_completed(&planning);
    let phases_dir = planning.join("phases");
    let mut r = Map::new();
    for (key, agent) in [
        ("researcher_model", "gsd-project-researcher"),
        ("synthesizer_model", "gsd-research-synthesizer"),
        ("roadmapper_model", "gsd-roadmapper"),
    ] {
        r.insert(key.into(), super::init_plan_phase::model(call, agent)?);
    }
    r.insert("commit_docs".into(), commit_docs(call.project));
    let cfg = config.clone().unwrap_or_default();
    let research =
        match super::init_plan_phase::flat_get(&cfg, "research", Some(("workflow", "research"))) {
            None | Some(Value::Null) => json!(true),
            Some(v) => v,
        };
    r.insert("research_enabled".into(), research);
    r.insert(
        "current_milestone".into(),
        json!(milestone.as_ref().map(|m| &m.0)),
    );
    r.insert(
        "current_milestone_name".into(),
        json!(milestone.as_ref().and_then(|m| m.1.as_ref())),
    );
    r.insert(
        "latest_completed_milestone".into(),
        json!(latest.as_ref().map(|l| &l.0).filter(|v| !v.is_empty())),
    );
    r.insert(
        "latest_completed_milestone_name".into(),
        json!(latest.as_ref().map(|l| &l.1).filter(|v| !v.is_empty())),
    );
    r.insert(
        "phase_dir_count".into(),
        json!(milestone_dirs(call.project, &phases_dir)?.len()),
    );
    r.insert(
        "phase_archive_path".into(),
        match &latest {
            Some((v, _)) => path_value(&planning.join("milestones").join(format!("{v}-phases")))?,
            None => Value::Null,
        },
    );
    r.insert(
        "project_exists".into(),
        json!(planning.join("PROJECT.md").exists()),
    );
    r.insert(
        "roadmap_exists".into(),
        json!(planning.join("ROADMAP.md").exists()),
    );
    r.insert(
        "state_exists".into(),
        json!(planning.join("STATE.md").exists()),
    );
    for (key, rel) in [
        ("project_path", "PROJECT.md"),
        ("roadmap_path", "ROADMAP.md"),
        ("state_path", "STATE.md"),
        ("requirements_path", "REQUIREMENTS.md"),
        ("config_path", "config.json"),
        ("research_dir", "research"),
        ("milestones_path", "MILESTONES.md"),
        ("phases_dir", "phases"),
        ("archive_dir", "milestones"),
    ] {
        r.insert(key.into(), path_value(&planning.join(rel))?);
    }
    let mut facts = section_manifest::Facts {
        flat_mode: true,
        ..Default::default()
    };
    facts.flags.extend(flags);
    r.insert(
        "section_manifest".into(),
        section_manifest::field("new-milestone", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// `init milestone-op`.
pub fn milestone_op(call: &CoreCall) -> Result<Out, Refusal> {
    no_arguments(call, &[])?;
    let config = checked_config(call)?;
    let planning = call.project.join(".planning");
    let phases_dir = planning.join("phases");
    let milestone = mw::milestone_info(call.project);
    let mut numbers = Vec::new();
    if let Ok(bytes) = std::fs::read(planning.join("ROADMAP.md")) {
        let raw = String::from_utf8_lossy(&bytes);
        let (window, _) = mw::current_window(&raw, call.project);
        let heading =
            re(r"(?i)#{2,4}\s*Phase\s+(\d+[A-Z]?(?:\.\d+)*)(?:\s*\([^)\n]{0,200}\))?\s*:");
        for c in heading.captures_iter(window.as_str()).flatten() {
            let n = group(&c, 1);
            if !mw::is_sentinel(n) {
                numbers.push(n.to_owned());
            }
        }
    }
    // `canonicalizePhase`: the leading number without padding.
    let canonical = |tok: &str| match re(r"^(\d+)([A-Z]?(?:\.\d+)*)$")
        .captures(tok)
        .ok()
        .flatten()
    {
        Some(c) => {
            let n = group(&c, 1).trim_start_matches('0');
            format!("{}{}", if n.is_empty() { "0" } else { n }, group(&c, 2))
        }
        None => tok.to_owned(),
    };
    let has_summary = |dir: &str| -> Result<bool, Refusal> {
        Ok(!plan_scan::scan(&phases_dir.join(dir))
            .map_err(|u| hand_on(u.0))?
            .summary_files
            .is_empty())
    };
    let (count, completed) = if numbers.is_empty() {
        let dirs = milestone_dirs(call.project, &phases_dir)?;
        let mut done = 0;
        for d in &dirs {
            done += usize::from(has_summary(d)?);
        }
        (dirs.len(), done)
    } else {
        let mut on_disk = std::collections::HashMap::new();
        for name in all_phase_dirs(&phases_dir)? {
            if let Some(c) = re(r"^(\d+[A-Z]?(?:\.\d+)*)")
                .captures(strip_project_code(&name, true))
                .ok()
                .flatten()
            {
                on_disk.insert(canonical(group(&c, 1)), name.clone());
            }
        }
        let mut done = 0;
        for n in &numbers {
            if let Some(dir) = on_disk.get(&canonical(n)) {
                done += usize::from(has_summary(dir)?);
            }
        }
        (numbers.len(), done)
    };
    let archive = planning.join("archive");
    let mut archived: Vec<String> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&archive) {
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                archived.push(
                    e.file_name().into_string().map_err(|_| {
                        hand_on(" for an archive named in bytes that are not UTF-8")
                    })?,
                );
            }
        }
    }
    archived.sort_unstable();
    let name = milestone.as_ref().and_then(|m| m.1.clone());
    let mut r = Map::new();
    r.insert("commit_docs".into(), commit_docs(call.project));
    mw::insert_milestone(&mut r, &milestone);
    r.insert(
        "milestone_slug".into(),
        json!(name.as_deref().and_then(|n| slug(n, Some(60)))),
    );
    r.insert("phase_count".into(), json!(count));
    r.insert("completed_phases".into(), json!(completed));
    r.insert(
        "all_phases_complete".into(),
        json!(count > 0 && count == completed),
    );
    r.insert("archive_count".into(), json!(archived.len()));
    r.insert("archived_milestones".into(), json!(archived));
    // 1.14.0's order: the list, then its count.
    let n = r.remove("archive_count").unwrap_or(Value::Null);
    let list = r.remove("archived_milestones").unwrap_or(Value::Null);
    r.insert("archived_milestones".into(), list);
    r.insert("archive_count".into(), n);
    r.insert(
        "project_exists".into(),
        json!(planning.join("PROJECT.md").exists()),
    );
    r.insert(
        "roadmap_exists".into(),
        json!(planning.join("ROADMAP.md").exists()),
    );
    r.insert(
        "state_exists".into(),
        json!(planning.join("STATE.md").exists()),
    );
    r.insert("archive_exists".into(), json!(archive.exists()));
    r.insert("phases_dir_exists".into(), json!(phases_dir.exists()));
    finish(call, config.as_ref(), r)
}
