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
