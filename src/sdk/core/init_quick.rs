//! `init quick [DESCRIPTION…]`, `init quick-batch` and `init resume` as GSD
//! Core 1.14.0 answers them: the models the quick workflow spawns, its task
//! id and folder (the id is the local day and the two-second block of the
//! local time of day, as 1.14.0 stamps it), and the facts the resume
//! workflow starts from (which core files exist, an interrupted agent's id).

use std::path::Path;

use serde_json::{Map, Value, json};

use super::init_envelope::{commit_docs, finish};
use super::init_phase_op::{checked_config, path_text};
use super::init_plan_phase::model;
use super::named_args::{self, Spec};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;
use super::section_manifest::{self, Facts};

/// The models a quick task's agents run on, in 1.14.0's key order.
const QUICK_MODELS: &[(&str, &str)] = &[
    ("planner_model", "gsd-planner"),
    ("executor_model", "gsd-executor"),
    ("checker_model", "gsd-plan-checker"),
    ("verifier_model", "gsd-verifier"),
    ("researcher_model", "gsd-phase-researcher"),
    ("reviewer_model", "gsd-code-reviewer"),
];

/// The flags `init quick` takes out of the description.
const QUICK_FLAGS: &[&str] = &["discuss", "research", "validate", "full"];

/// `init quick [--discuss] [--research] [--validate] [--full] DESCRIPTION…`.
pub fn quick(call: &CoreCall) -> Result<Out, Refusal> {
    // 1.14.0 reads every word as the description (`positionals: 'rest'`):
    // no flag is refused, the four it knows are only taken out.
    let named = named_args::parse(
        call.args,
        &Spec {
            values: &[],
            booleans: QUICK_FLAGS,
            positionals: call.args.len(),
        },
    )
    .map_err(Refusal::Fail)?;
    guard_manifest()?;
    let description = call
        .args
        .iter()
        .filter(|a| !QUICK_FLAGS.iter().any(|f| a.strip_prefix("--") == Some(f)))
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" ");
    let config = checked_config(call)?;
    let now = local_now()?;
    // `generateSlugInternal(description)?.substring(0, 40)`: cut after the
    // slug is trimmed, so a slug may end in a hyphen here.
    let slug =
        super::slug::slug(&description, Some(60)).map(|s| s.chars().take(40).collect::<String>());
    let quick_id = quick_id(&now);
    // `slug || 'quick'`, `slug ? … : null`: an empty slug (`修复`, `!!!`)
    // names no folder.
    let folder_slug = slug.as_deref().filter(|s| !s.is_empty());
    let legacy = super::super::compat::config::legacy(call.project);
    let branch = match legacy.get("quick_branch_template") {
        Some(Value::String(t)) if !t.is_empty() => Some(
            t.replacen("{num}", &quick_id, 1)
                .replacen("{quick}", &quick_id, 1)
                .replacen("{slug}", folder_slug.unwrap_or("quick"), 1),
        ),
        // Any other falsy value: no branch.
        None | Some(Value::Null) | Some(Value::Bool(false)) | Some(Value::String(_)) => None,
        Some(Value::Number(n)) if n.as_f64() == Some(0.0) => None,
        Some(_) => return Err(hand_on(" with a quick_branch_template that is not text")),
    };
    let planning = call.project.join(".planning");
    let mut r = models(call)?;
    r.insert("commit_docs".into(), commit_docs(call.project));
    r.insert("branch_name".into(), json!(branch));
    r.insert("quick_id".into(), json!(quick_id));
    r.insert("slug".into(), json!(slug));
    r.insert(
        "description".into(),
        json!(Some(&description).filter(|d| !d.is_empty())),
    );
    r.insert("date".into(), json!(now.strftime("%Y-%m-%d").to_string()));
    r.insert("timestamp".into(), json!(iso(&now)));
    let quick_dir = planning.join("quick");
    r.insert("quick_dir".into(), json!(path_text(&quick_dir)?));
    let task_dir = match folder_slug {
        Some(s) => json!(path_text(&quick_dir.join(format!("{quick_id}-{s}")))?),
        None => Value::Null,
    };
    r.insert("task_dir".into(), task_dir);
    r.insert(
        "roadmap_exists".into(),
        json!(planning.join("ROADMAP.md").exists()),
    );
    r.insert("planning_exists".into(), json!(planning.exists()));
    // `--full` stands for the other three.
    let full = named.flag("full");
    let mut facts = facts(call.project);
    for f in QUICK_FLAGS {
        if named.flag(f) || (full && *f != "full") {
            facts.flags.insert(format!("--{f}"));
        }
    }
    r.insert(
        "section_manifest".into(),
        section_manifest::field("quick", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// `init quick-batch [--research] [--validate]`.
pub fn quick_batch(call: &CoreCall) -> Result<Out, Refusal> {
    let named = named_args::parse(
        call.args,
        &Spec {
            values: &[],
            booleans: &["research", "validate"],
            positionals: 0,
        },
    )
    .map_err(Refusal::Fail)?;
    guard_manifest()?;
    let config = checked_config(call)?;
    let planning = call.project.join(".planning");
    let mut r = models(call)?;
    r.insert("commit_docs".into(), commit_docs(call.project));
    r.insert(
        "quick_dir".into(),
        json!(path_text(&planning.join("quick"))?),
    );
    r.insert(
        "quick_batches_dir".into(),
        json!(path_text(&planning.join("quick-batches"))?),
    );
    r.insert(
        "roadmap_exists".into(),
        json!(planning.join("ROADMAP.md").exists()),
    );
    r.insert("planning_exists".into(), json!(planning.exists()));
    let mut facts = facts(call.project);
    for f in ["research", "validate"] {
        if named.flag(f) {
            facts.flags.insert(format!("--{f}"));
        }
    }
    r.insert(
        "section_manifest".into(),
        section_manifest::field("quick-batch", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// `init resume` (1.14.0 reads no argument, and refuses none).
pub fn resume(call: &CoreCall) -> Result<Out, Refusal> {
    let config = checked_config(call)?;
    let planning = call.project.join(".planning");
    let exists = |f: &str| planning.join(f).exists();
    // The agent id: absent is none; a file that cannot be read (a folder,
    // no permission) makes 1.14.0 throw, so it is handed on.
    let agent = match std::fs::read(planning.join("current-agent-id.txt")) {
        Ok(b) => Some(super::js::trim(&String::from_utf8_lossy(&b)).to_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(_) => return Err(hand_on(" for an agent id that cannot be read")),
    };
    let mut r = Map::new();
    super::init_envelope::insert_completeness(&mut r, &planning);
    r.insert("state_exists".into(), json!(exists("STATE.md")));
    r.insert("roadmap_exists".into(), json!(exists("ROADMAP.md")));
    r.insert("project_exists".into(), json!(exists("PROJECT.md")));
    // Spread first and set again: the key keeps its first place.
    r.insert("planning_exists".into(), json!(planning.exists()));
    for (key, file) in [
        ("state_path", "STATE.md"),
        ("roadmap_path", "ROADMAP.md"),
        ("project_path", "PROJECT.md"),
    ] {
        r.insert(key.into(), json!(path_text(&planning.join(file))?));
    }
    r.insert(
        "has_interrupted_agent".into(),
        json!(agent.as_deref().is_some_and(|a| !a.is_empty())),
    );
    r.insert("interrupted_agent_id".into(), json!(agent));
    r.insert("commit_docs".into(), commit_docs(call.project));
    finish(call, config.as_ref(), r)
}

fn guard_manifest() -> Result<(), Refusal> {
    if section_manifest::overridden() {
        return Err(hand_on(" with GSD_SECTION_MANIFEST set"));
    }
    Ok(())
}

fn models(call: &CoreCall) -> Result<Map<String, Value>, Refusal> {
    let mut r = Map::new();
    for (key, agent) in QUICK_MODELS {
        r.insert((*key).into(), model(call, agent)?);
    }
    Ok(r)
}

/// The facts of `buildSectionManifestField` a quick workflow's sections ask.
fn facts(project: &Path) -> Facts {
    Facts {
        worktrees_enabled: section_manifest::config_true(project, &["workflow", "use_worktrees"]),
        ..Default::default()
    }
}

/// 1.14.0's clock in the system's time zone.
fn local_now() -> Result<jiff::Zoned, Refusal> {
    let ts = jiff::Timestamp::from_millisecond(super::clock::now_ms())
        .map_err(|_| hand_on(" for a clock outside the calendar"))?;
    let z = ts.to_zoned(jiff::tz::TimeZone::system());
    // Years before 1000 print unpadded in 1.14.0's id and day.
    if !(1000..=9999).contains(&z.year()) {
        return Err(hand_on(" for a clock outside years 1000–9999"));
    }
    Ok(z)
}

/// `nowIso()`: the instant in UTC with milliseconds.
fn iso(now: &jiff::Zoned) -> String {
    now.timestamp()
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// `YYMMDD-xxx`: the local day, then the local time of day in two-second
/// blocks, in base 36, at least three digits.
fn quick_id(now: &jiff::Zoned) -> String {
    let secs =
        i64::from(now.hour()) * 3600 + i64::from(now.minute()) * 60 + i64::from(now.second());
    let mut blocks = secs / 2;
    let mut digits = Vec::new();
    loop {
        let d = (blocks % 36) as u32;
        digits.push(char::from_digit(d, 36).unwrap_or('0'));
        blocks /= 36;
        if blocks == 0 {
            break;
        }
    }
    while digits.len() < 3 {
        digits.push('0');
    }
    let encoded: String = digits.iter().rev().collect();
    format!(
        "{:02}{:02}{:02}-{encoded}",
        now.year().rem_euclid(100),
        now.month(),
        now.day()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_ids_count_two_second_blocks_in_base_36() {
        let at = |s: &str| {
            s.parse::<jiff::civil::DateTime>()
                .unwrap()
                .to_zoned(jiff::tz::TimeZone::UTC)
                .unwrap()
        };
        assert_eq!(quick_id(&at("2026-12-04T00:00:01")), "261204-000");
        assert_eq!(quick_id(&at("2026-01-09T00:01:12")), "260109-010");
        // 23:59:59 is block 43199 = "xbz".
        assert_eq!(quick_id(&at("2026-12-04T23:59:59")), "261204-xbz");
    }
}
