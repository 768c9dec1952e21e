//! `init.phase-op N`: the context bundle GSD Core 1.14.0's phase workflows
//! (discuss, research, UI, verify…) start from — the phase's folder and
//! artifacts as absolute paths, what exists, the config switches they
//! branch on, and the envelope every init answer carries.
//!
//! Answered where the phase is found under `phases/` by the search
//! `find-phase` answers (see `reads::found_phase`), the config is one gsd
//! reads as 1.14.0 does (no project code, no sub-repositories to re-detect), and
//! the folder can be listed. A phase known only from the roadmap, an
//! archived one, or an ambiguous one is handed on.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::super::commands::init;
use super::super::compat::roadmap_text::re;
use super::init_envelope::with_project_root;
use super::native::{
    CoreCall, Refusal, as_loaded, config_object, hand_on, redetects_sub_repos, skipped_migration,
};
use super::output::Out;
use super::phase_id::{extract_phase_token, normalize_phase_name, scope_to_phase};
use super::plan_scan;
use super::reads::found_phase;
use super::slug::slug;
use super::verification::resolve_artifact;

pub(super) fn path_text(p: &Path) -> Result<String, Refusal> {
    p.to_str()
        .map(str::to_owned)
        .ok_or_else(|| hand_on(" for a path that is not UTF-8"))
}

/// commit_docs and the search switches from gsd-tools' flat config
/// (`loadConfig`: the top-level key, else `planning.commit_docs`, else off
/// where git ignores `.planning/`; a `null` search key is its default),
/// a secret string masked.
fn switches(call: &CoreCall) -> Result<Vec<(&'static str, Value)>, Refusal> {
    Ok(init::config_switches(
        &super::super::compat::config::legacy(call.project),
    ))
}

/// `findContextMdIn(files)`: `CONTEXT.md`, else the first `*-CONTEXT.md`.
fn context_file(files: &[&String]) -> Option<String> {
    if files.iter().any(|f| *f == "CONTEXT.md") {
        return Some("CONTEXT.md".into());
    }
    files
        .iter()
        .find(|f| f.ends_with("-CONTEXT.md"))
        .map(|f| (*f).clone())
}

/// The first scoped file named `-NAME` or `NAME`.
fn named(files: &[&String], name: &str) -> Option<String> {
    let dashed = format!("-{name}");
    files
        .iter()
        .find(|f| f.ends_with(&dashed) || **f == name)
        .map(|f| (*f).clone())
}

/// Whether a folder of `phases/` or of an archive starts with the phase's
/// whole number (after a project code): 1.14.0's bare-number fallback
/// could find it where the engine's search did not.
fn numbered_folder(project: &Path, phase: &str) -> bool {
    let digits: String = phase.chars().take_while(char::is_ascii_digit).collect();
    let want = digits.trim_start_matches('0');
    let planning = project.join(".planning");
    let mut places = vec![planning.join("phases")];
    if let Ok(entries) = std::fs::read_dir(planning.join("milestones")) {
        places.extend(entries.flatten().map(|e| e.path()));
    }
    places.iter().any(|place| {
        std::fs::read_dir(place)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let name = crate::model::ids::split_project_code(&name)
                    .map_or(name.clone(), |(_, r)| r.to_string());
                let lead: String = name.chars().take_while(char::is_ascii_digit).collect();
                !lead.is_empty() && lead.trim_start_matches('0') == want
            })
    })
}

/// The answer for a phase no folder holds: from its roadmap entry (the
/// folder it would get), or "not found".
fn not_on_disk(call: &CoreCall, phase: &str) -> Result<View, Refusal> {
    if numbered_folder(call.project, phase) {
        return Err(hand_on(
            " where a folder may hold the phase by its bare number",
        ));
    }
    if re(r"(?i)^[A-Z][A-Z0-9_]*-(?=\d)")
        .is_match(phase)
        .unwrap_or(false)
    {
        return Err(hand_on(" for a phase id with a project code"));
    }
    Ok(roadmap_view(call, phase))
}

/// The view of a phase the roadmap knows and no live folder holds
/// (`getRoadmapPhaseInternal`): found with its number and name, and the
/// folder 1.14.0 would create for it; not found where the roadmap does not
/// name it either.
fn roadmap_view(call: &CoreCall, phase: &str) -> View {
    let found = super::roadmap_phase::find(call.project, phase);
    let in_roadmap = found.is_some();
    let name = found
        .as_ref()
        .map(|f| f.phase_name.clone())
        .filter(|n| !n.is_empty());
    let number = found.map(|f| f.phase_number);
    let expected = match (&number, &name) {
        (Some(n), Some(nm)) => slug(nm, Some(60)).filter(|s| !s.is_empty()).map(|s| {
            call.project
                .join(".planning/phases")
                .join(format!("{}-{s}", normalize_phase_name(n)))
        }),
        _ => None,
    };
    View {
        found: in_roadmap,
        dir: None,
        expected,
        number: json!(number),
        name,
        ..View::default()
    }
}

/// `init.phase-op PHASE`.
pub fn phase_op(call: &CoreCall) -> Result<Out, Refusal> {
    let [phase] = call.args else {
        return Err(hand_on(" without exactly one phase argument"));
    };
    if phase.is_empty() || phase.starts_with('-') {
        return Err(hand_on(" without a phase"));
    }
    let config = checked_config(call)?;
    let view = lookup(call, phase)?;
    render(call, config.as_ref(), view)
}

/// config.json as the phase inits read it, where 1.14.0 reads it as gsd
/// does: no sub-repositories to re-detect first, no project code.
pub(super) fn checked_config(call: &CoreCall) -> Result<Option<Map<String, Value>>, Refusal> {
    let config = config_object(call)?;
    if let Some(c) = &config {
        if redetects_sub_repos(c) {
            return Err(hand_on(
                " where 1.14.0 would re-detect sub-repositories first",
            ));
        }
        if c.get("project_code")
            .is_some_and(super::super::compat::js::truthy)
        {
            return Err(hand_on(" with a project code"));
        }
        if skipped_migration(c) {
            return Err(hand_on(
                " where a legacy config key's section is not an object",
            ));
        }
    }
    Ok(config.as_ref().map(as_loaded))
}

/// The phase as the phase inits find it: its folder under `phases/` and
/// what the folder holds, or (no folder) its roadmap heading.
pub(super) fn lookup(call: &CoreCall, phase: &str) -> Result<View, Refusal> {
    let on_disk = super::super::commands::phase_find::find(call.project, phase);
    if on_disk.get("found") != Some(&json!(true)) {
        return not_on_disk(call, phase);
    }
    let info = found_phase(call, phase)?;
    let directory = info["directory"].as_str().unwrap_or_default().to_owned();
    if !directory.starts_with(".planning/phases/") {
        // An archived phase the roadmap still names is read from the
        // roadmap; one it does not name keeps its archive (handed on).
        if super::roadmap_phase::find(call.project, phase).is_some() {
            return Ok(roadmap_view(call, phase));
        }
        return Err(hand_on(" for an archived phase"));
    }
    let dir = call.project.join(&directory);
    // 1.14.0's lookup scans the folder's plans (and warns where one's
    // frontmatter does not close): the same scan, for its refusals.
    let scan = plan_scan::scan(&dir).map_err(|u| hand_on(u.0))?;
    let Some(files) = scan.listing else {
        return Err(hand_on(" where the phase folder cannot be listed"));
    };
    let dir_name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned();
    let scoped = scope_to_phase(&files, &dir_name);
    let token = extract_phase_token(&dir_name);
    // `phaseNumberForMatch`: the inits' lookup keeps a folder's project code
    // in the number (`CK-03-auth` is phase `CK-03`; `find-phase` drops it).
    let number = if super::phase_id::strip_project_code(&dir_name, true) != dir_name {
        json!(extract_phase_token(&dir_name))
    } else {
        info["phase_number"].clone()
    };
    Ok(View {
        found: true,
        number,
        name: info["phase_name"]
            .as_str()
            .filter(|n| !n.is_empty())
            .map(str::to_owned),
        plan_count: info["plan_count"].as_u64().unwrap_or(0),
        summary_count: info["summary_count"].as_u64().unwrap_or(0),
        has_verification: named(&scoped, "VERIFICATION.md").is_some(),
        context: context_file(&scoped),
        research: named(&scoped, "RESEARCH.md"),
        verification: resolve_artifact(&files, "VERIFICATION.md", &token, &dir_name),
        uat: resolve_artifact(&files, "UAT.md", &token, &dir_name),
        reviews: named(&scoped, "REVIEWS.md"),
        patterns: named(&scoped, "PATTERNS.md"),
        dir: Some(dir),
        expected: None,
    })
}

/// What the phase inits report of a phase, wherever it was found.
#[derive(Default)]
pub(super) struct View {
    pub found: bool,
    /// The phase's folder, where one holds it.
    pub dir: Option<PathBuf>,
    /// The folder 1.14.0 would create, for a phase only the roadmap knows.
    pub expected: Option<PathBuf>,
    pub number: Value,
    pub name: Option<String>,
    pub plan_count: u64,
    pub summary_count: u64,
    pub has_verification: bool,
    /// The folder's artifacts (file names in it).
    pub context: Option<String>,
    pub research: Option<String>,
    pub verification: Option<String>,
    pub uat: Option<String>,
    pub reviews: Option<String>,
    pub patterns: Option<String>,
}

/// The answer in 1.14.0's key order, with the init envelope.
fn render(call: &CoreCall, config: Option<&Map<String, Value>>, v: View) -> Result<Out, Refusal> {
    let planning = call.project.join(".planning");
    let path_or_null = |p: Option<&Path>| -> Result<Value, Refusal> {
        Ok(match p {
            Some(p) => json!(path_text(p)?),
            None => Value::Null,
        })
    };
    let existing = |f: &str| {
        let p = planning.join(f);
        path_or_null(p.exists().then_some(p.as_path()))
    };
    let mut r = Map::new();
    for (k, value) in switches(call)? {
        r.insert(k.into(), value);
    }
    r.insert("phase_found".into(), json!(v.found));
    r.insert("phase_dir".into(), path_or_null(v.dir.as_deref())?);
    r.insert(
        "expected_phase_dir".into(),
        path_or_null(v.expected.as_deref())?,
    );
    r.insert("phase_number".into(), v.number.clone());
    r.insert("phase_name".into(), json!(v.name));
    r.insert(
        "phase_slug".into(),
        json!(
            v.name
                .as_deref()
                .and_then(|n| slug(n, None))
                .filter(|s| !s.is_empty())
        ),
    );
    r.insert(
        "padded_phase".into(),
        json!(
            v.number
                .as_str()
                .filter(|n| !n.is_empty())
                .map(normalize_phase_name)
        ),
    );
    r.insert("has_research".into(), json!(v.research.is_some()));
    r.insert("has_context".into(), json!(v.context.is_some()));
    r.insert("context_scope".into(), json!("complete"));
    r.insert("has_plans".into(), json!(v.plan_count > 0));
    r.insert("has_verification".into(), json!(v.has_verification));
    r.insert("has_reviews".into(), json!(v.reviews.is_some()));
    r.insert("plan_count".into(), json!(v.plan_count));
    r.insert(
        "roadmap_exists".into(),
        json!(planning.join("ROADMAP.md").exists()),
    );
    r.insert("planning_exists".into(), json!(planning.exists()));
    r.insert("state_path".into(), existing("STATE.md")?);
    r.insert("roadmap_path".into(), existing("ROADMAP.md")?);
    r.insert("requirements_path".into(), existing("REQUIREMENTS.md")?);
    if let Some(dir) = &v.dir {
        for (key, file) in [
            ("context_path", &v.context),
            ("research_path", &v.research),
            ("verification_path", &v.verification),
            ("uat_path", &v.uat),
            ("reviews_path", &v.reviews),
        ] {
            if let Some(f) = file {
                r.insert(key.into(), json!(path_text(&dir.join(f))?));
            }
        }
    }
    Ok(Out::json(&Value::Object(with_project_root(
        call, config, r,
    )?)))
}
