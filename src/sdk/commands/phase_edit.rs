//! phase.add, phase.insert: a new phase through gsd's own use cases
//! (`ops::phase`) — the roadmap section and checklist line, the folder
//! with its `.gitkeep`, STATE.md's phase total — answered in gsd-sdk's shape.

use serde_json::{Value, json};

use super::super::compat::config as cfg;
use super::super::compat::js;
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};
use super::{text, write};

/// The positional arguments, and whether `--dry-run` was given; any other
/// flag is refused, as gsd-sdk refuses it.
fn positional<'a>(call: &Call<'a>, command: &str) -> Result<(Vec<&'a str>, bool), SdkError> {
    let mut dry = false;
    let mut out = Vec::new();
    for a in call.args {
        if let Some(flag) = a.strip_prefix("--") {
            if flag != "dry-run" {
                return Err(SdkError::validation(format!(
                    "Unknown flag {a} for {command}"
                )));
            }
            dry = true;
        } else {
            out.push(a.as_str());
        }
    }
    Ok((out, dry))
}

/// Config that changes how gsd-sdk names phases (a project code, custom
/// naming): those calls go to gsd-sdk until gsd names phases the same way.
fn naming_is_plain(call: &Call) -> Result<Value, SdkError> {
    let raw = match cfg::raw(call.project) {
        cfg::Raw::Object(m) => m,
        _ => Default::default(),
    };
    let code = raw.get("project_code").is_some_and(js::truthy);
    let naming = raw.get("phase_naming").cloned().filter(js::truthy);
    if code || naming.as_ref().is_some_and(|n| n != "sequential") {
        return Err(SdkError::not_covered(
            "project codes and custom phase naming are answered by gsd-sdk",
        ));
    }
    Ok(naming.unwrap_or(json!("sequential")))
}

/// `phase.add DESCRIPTION` → `{phase_number, padded, name, slug, directory, naming_mode}`.
pub fn add(call: &Call) -> Result<Reply, SdkError> {
    let (pos, dry) = positional(call, "phase.add")?;
    let Some(description) = pos.first().copied().filter(|d| !d.is_empty()) else {
        return Err(SdkError::validation("description required for phase add"));
    };
    if description.contains('\0') {
        return Err(SdkError::validation("description contains null bytes"));
    }
    let naming = naming_is_plain(call)?;
    if dry || pos.len() > 1 {
        return Err(SdkError::not_covered(
            "--dry-run and custom phase IDs are answered by gsd-sdk",
        ));
    }
    let mut added = None;
    write(call, |ws| {
        let c = crate::ops::phase::add_shown(ws, description)?;
        added = Some((c.id, c.dir));
        Ok(c.change)
    })?;
    let (id, dir) = added.expect("the use case ran");
    let number: u64 = id.parse().unwrap_or(0);
    Ok(Reply::Json(json!({
        "phase_number": number,
        "padded": format!("{number:02}"),
        "name": description,
        "slug": text::slug(description),
        "directory": dir,
        "naming_mode": naming,
    })))
}

/// `phase.insert AFTER DESCRIPTION` → `{phase_number, after_phase, name, slug, directory}`.
pub fn insert(call: &Call) -> Result<Reply, SdkError> {
    let (Some(after), Some(description)) = (
        call.arg(0).filter(|a| !a.is_empty()),
        call.arg(1).filter(|d| !d.is_empty()),
    ) else {
        return Err(SdkError::validation(
            "after-phase and description required for phase insert",
        ));
    };
    if after.contains('\0') || description.contains('\0') {
        return Err(SdkError::validation("arguments contain null bytes"));
    }
    naming_is_plain(call)?;
    // gsd-sdk inserts only after a phase with a heading in the current
    // milestone; a workflow that asks about another phase gets its refusal.
    let roadmap = std::fs::read(call.planning().join("ROADMAP.md"))
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|_| SdkError::execution("ROADMAP.md not found"))?;
    let milestone = rt::current_milestone(&roadmap, call.project);
    let unpadded = rt::normalize_phase_name(after)
        .trim_start_matches('0')
        .to_string();
    let heading = re(&format!(
        r"(?i)#{{2,4}}\s*Phase\s+0*{}:",
        rt::escape(&unpadded)
    ));
    if !heading.is_match(&milestone).unwrap_or(false) {
        return Err(SdkError::validation(format!(
            "Phase {after} not found in ROADMAP.md"
        )));
    }
    let mut added = None;
    write(call, |ws| {
        let c = crate::ops::phase::insert_shown(ws, after, description)?;
        added = Some((c.id, c.dir));
        Ok(c.change)
    })?;
    let (id, dir) = added.expect("the use case ran");
    Ok(Reply::Json(json!({
        "phase_number": rt::normalize_phase_name(&id),
        "after_phase": after,
        "name": description,
        "slug": text::slug(description),
        "directory": dir,
    })))
}

/// `phase.remove PHASE [--force]` → `{removed, directory_deleted,
/// renamed_directories, renamed_files, roadmap_updated, state_updated}`.
///
/// gsd-sdk's checks come first, in its order and words (the phase folder
/// must exist; its summaries need `--force`). The removal itself is gsd's
/// `phase remove` (`edit::renumber`): later folders, files, headings,
/// checklist and table rows, plan IDs and `Depends on` lines renumbered as
/// one change, where gsd-sdk runs text replacements over the whole roadmap
/// (PARITY.md E23). A decimal phase goes to gsd-sdk.
pub fn remove(call: &Call) -> Result<Reply, SdkError> {
    let mut force = false;
    let mut pos = Vec::new();
    for a in call.args {
        if a == "--force" {
            force = true;
        } else if a.starts_with("--") {
            return Err(SdkError::validation(format!(
                "phase remove does not support {a}"
            )));
        } else {
            pos.push(a.as_str());
        }
    }
    if pos.len() > 1 {
        return Err(SdkError::validation(
            "phase remove accepts exactly one phase number",
        ));
    }
    let Some(target) = pos.first().copied().filter(|t| !t.is_empty()) else {
        return Err(SdkError::validation(
            "phase number required for phase remove",
        ));
    };
    if target.contains('\0') {
        return Err(SdkError::validation("targetPhase contains null bytes"));
    }
    let planning = call.planning();
    if !planning.join("ROADMAP.md").exists() {
        return Err(SdkError::validation("ROADMAP.md not found"));
    }
    if target.contains('.') {
        return Err(SdkError::not_covered(
            "removing a decimal phase is answered by gsd-sdk",
        ));
    }
    let normalized = rt::normalize_phase_name(target);
    let phases = planning.join("phases");
    let Some(dir) = super::names_in(&phases)
        .into_iter()
        .filter(|d| phases.join(d).is_dir())
        .find(|d| rt::phase_token_matches(d, &normalized))
    else {
        return Err(SdkError::validation(format!("Phase {target} not found")));
    };
    if !force {
        let summaries = super::names_in(&phases.join(&dir))
            .into_iter()
            .filter(|f| f.ends_with("-SUMMARY.md") || f == "SUMMARY.md")
            .count();
        if summaries > 0 {
            return Err(SdkError::validation(format!(
                "Phase {target} has {summaries} executed plan(s). Use --force to remove anyway."
            )));
        }
    }
    let mut moves = Vec::new();
    write(call, |ws| {
        let change = crate::ops::phase::remove(ws, target, force)?;
        moves = change.set.moves.clone();
        Ok(change)
    })?;
    let (dirs, files) = renamed(&phases, &moves);
    Ok(Reply::Json(json!({
        "removed": target,
        "directory_deleted": dir,
        "renamed_directories": dirs,
        "renamed_files": files,
        "roadmap_updated": true,
        "state_updated": planning.join("STATE.md").exists(),
    })))
}

/// One name changed: (from, to).
type Rename = (String, String);

/// The folder and file renames in `moves`, as gsd-sdk lists them: folders
/// from the highest phase down, and for each, the files directly in it
/// whose names changed, in name order.
fn renamed(
    phases: &std::path::Path,
    moves: &[(std::path::PathBuf, std::path::PathBuf)],
) -> (Vec<Value>, Vec<Value>) {
    // (phase folder, file directly in it when the path names one)
    let parts = |p: &std::path::Path| -> Option<(String, Option<String>)> {
        let rel: Vec<String> = p
            .strip_prefix(phases)
            .ok()?
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Some((
            rel.first()?.clone(),
            (rel.len() == 2).then(|| rel[1].clone()),
        ))
    };
    let mut by_dir: Vec<(String, String, Vec<Rename>)> = Vec::new();
    for (from, to) in moves {
        let (Some((fdn, ff)), Some((tdn, tf))) = (parts(from), parts(to)) else {
            continue;
        };
        let i = match by_dir.iter().position(|(f, _, _)| *f == fdn) {
            Some(i) => i,
            None => {
                by_dir.push((fdn, tdn, Vec::new()));
                by_dir.len() - 1
            }
        };
        if let (Some(ff), Some(tf)) = (ff, tf)
            && ff != tf
        {
            by_dir[i].2.push((ff, tf));
        }
    }
    // gsd-sdk's order: integer part, then decimal part, both descending.
    let key = |d: &str| {
        let decimal = re(r"^\d+[A-Za-z]?\.(\d+)-")
            .captures(d)
            .ok()
            .flatten()
            .and_then(|c| js::parse_int(&c[1]))
            .unwrap_or(0.0);
        (js::parse_int(d).unwrap_or(0.0), decimal)
    };
    by_dir.sort_by(|a, b| {
        let (ka, kb) = (key(&a.0), key(&b.0));
        kb.0.total_cmp(&ka.0).then(kb.1.total_cmp(&ka.1))
    });
    let mut dirs = Vec::new();
    let mut files = Vec::new();
    for (from, to, mut fs) in by_dir {
        if from == to {
            continue;
        }
        dirs.push(json!({"from": from, "to": to}));
        fs.sort_by(|a, b| a.1.cmp(&b.1));
        files.extend(fs.into_iter().map(|(f, t)| json!({"from": f, "to": t})));
    }
    (dirs, files)
}
