//! find-phase: a phase folder by number, in `.planning/phases/` first,
//! then in archived `milestones/vX.Y-phases/` (newest first), with its plan
//! and summary files, in gsd-sdk's shape.

use std::cmp::Ordering;
use std::path::Path;

use serde_json::{Value, json};

use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};

/// `comparePhaseNum`: folders in phase order (`2` < `2A` < `2.1` < `10`).
pub fn compare_phase_num(a: &str, b: &str) -> Ordering {
    let code = re(r"^[A-Z]{1,6}-");
    let parse = |s: &str| {
        let s = code.replace(s, "").into_owned();
        re(r"(?i)^(\d+)([A-Z])?((?:\.\d+)*)")
            .captures(&s)
            .ok()
            .flatten()
            .map(|c| {
                let int: u128 = c.get(1).map_or("0", |g| g.as_str()).parse().unwrap_or(0);
                let letter = c
                    .get(2)
                    .map_or(String::new(), |g| g.as_str().to_uppercase());
                let dec: Vec<u64> = c
                    .get(3)
                    .map(|g| g.as_str())
                    .filter(|d| !d.is_empty())
                    .map(|d| d[1..].split('.').map(|p| p.parse().unwrap_or(0)).collect())
                    .unwrap_or_default();
                (int, letter, dec)
            })
    };
    let (Some((ia, la, da)), Some((ib, lb, db))) = (parse(a), parse(b)) else {
        return crate::sdk::compat::js::locale_compare(a, b);
    };
    ia.cmp(&ib)
        .then_with(|| match (la.is_empty(), lb.is_empty()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => la.cmp(&lb),
        })
        .then_with(|| match (da.is_empty(), db.is_empty()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => {
                let n = da.len().max(db.len());
                (0..n)
                    .map(|i| da.get(i).unwrap_or(&0).cmp(db.get(i).unwrap_or(&0)))
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            }
        })
}

pub fn canonical_plan_id(file: &str) -> String {
    let base = re(r"(?i)-PLAN\.md$").replace(file, "").into_owned();
    let base = re(r"(?i)-SUMMARY\.md$").replace(&base, "").into_owned();
    let base = re(r"(?i)\.md$").replace(&base, "").into_owned();
    let parts: Vec<&str> = base.split('-').filter(|p| !p.is_empty()).collect();
    let token = re(r"(?i)^\d+[A-Z]?(?:\.\d+)*$");
    let is_token = |p: &str| token.is_match(p).unwrap_or(false);
    if let Some(i) = parts.iter().position(|p| is_token(p))
        && i + 1 < parts.len()
        && is_token(parts[i + 1])
    {
        return format!("{}-{}", parts[i], parts[i + 1]);
    }
    base
}

/// Folder names of `dir`'s subfolders in phase order.
pub fn phase_dirs(dir: &Path) -> Option<Vec<String>> {
    let rd = std::fs::read_dir(dir).ok()?;
    let mut dirs: Vec<String> = rd
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    dirs.sort_by(|a, b| compare_phase_num(a, b));
    Some(dirs)
}

/// `resolvePhaseDir`: the folder under `.planning/phases/` whose id is
/// the normalized phase, first in phase order.
pub fn current_dir(project: &Path, normalized: &str) -> Option<String> {
    phase_dirs(&project.join(".planning/phases"))?
        .into_iter()
        .find(|d| rt::phase_token_matches(d, normalized))
}

/// `searchPhaseInDir`.
fn search_in(
    base: &Path,
    rel_base: &str,
    normalized: &str,
) -> Option<serde_json::Map<String, Value>> {
    let dirs = phase_dirs(base)?;
    let m = dirs
        .iter()
        .find(|d| rt::phase_token_matches(d, normalized))?;
    let caps = [
        r"(?i)^(?:[A-Z]{1,6}-)(\d+[A-Z]?(?:\.\d+)*)-?(.*)",
        r"(?i)^(\d+[A-Z]?(?:\.\d+)*)-?(.*)",
        r"(?i)^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)-(.+)",
    ]
    .iter()
    .find_map(|p| {
        re(p).captures(m).ok().flatten().map(|c| {
            (
                c.get(1).map(|g| g.as_str().to_string()),
                c.get(2).map(|g| g.as_str().to_string()),
            )
        })
    });
    let (number, name) = match caps {
        Some((n, name)) => (
            n.unwrap_or_else(|| m.clone()),
            name.filter(|s| !s.is_empty()),
        ),
        None => (m.clone(), None),
    };
    let files = super::names_in(&base.join(m));
    let has = |suffix: &str, whole: &str| files.iter().any(|f| f.ends_with(suffix) || f == whole);
    let pick = |suffix: &str, whole: &str| {
        let mut v: Vec<String> = files
            .iter()
            .filter(|f| f.ends_with(suffix) || *f == whole)
            .cloned()
            .collect();
        v.sort();
        v
    };
    let plans = pick("-PLAN.md", "PLAN.md");
    let summaries = pick("-SUMMARY.md", "SUMMARY.md");
    let mut done: Vec<String> = Vec::new();
    for s in &summaries {
        let exact = s
            .replacen("-SUMMARY.md", "", 1)
            .replacen("SUMMARY.md", "", 1);
        done.push(canonical_plan_id(s));
        done.push(exact);
    }
    let incomplete: Vec<&String> = plans
        .iter()
        .filter(|p| {
            let id = p.replacen("-PLAN.md", "", 1).replacen("PLAN.md", "", 1);
            !done.contains(&id) && !done.contains(&canonical_plan_id(p))
        })
        .collect();
    let slug = name
        .as_ref()
        .map(|n| crate::model::ids::dashed(&n.to_lowercase()));
    let v = json!({
        "found": true,
        "directory": format!("{rel_base}/{m}"),
        "phase_number": number,
        "phase_name": name,
        "phase_slug": slug,
        "plans": plans,
        "summaries": summaries,
        "incomplete_plans": incomplete,
        "has_research": has("-RESEARCH.md", "RESEARCH.md"),
        "has_context": has("-CONTEXT.md", "CONTEXT.md"),
        "has_verification": has("-VERIFICATION.md", "VERIFICATION.md"),
        "has_reviews": has("-REVIEWS.md", "REVIEWS.md"),
    });
    v.as_object().cloned()
}

/// `findPhase`'s answer for `phase` in `project`.
pub fn find(project: &Path, phase: &str) -> serde_json::Map<String, Value> {
    let normalized = rt::normalize_phase_name(phase);
    if let Some(found) = search_in(
        &project.join(".planning/phases"),
        ".planning/phases",
        &normalized,
    ) {
        return found;
    }
    let milestones = project.join(".planning/milestones");
    let archive = re(r"^v[\d.]+-phases$");
    let mut archives: Vec<String> = std::fs::read_dir(&milestones)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| archive.is_match(n).unwrap_or(false))
        .collect();
    archives.sort();
    archives.reverse();
    for a in archives {
        let version = a.trim_end_matches("-phases").to_string();
        if let Some(mut found) = search_in(
            &milestones.join(&a),
            &format!(".planning/milestones/{a}"),
            &normalized,
        ) {
            found.insert("archived".into(), json!(version));
            return found;
        }
    }
    json!({
        "found": false, "directory": null, "phase_number": null, "phase_name": null,
        "phase_slug": null, "plans": [], "summaries": [], "incomplete_plans": [],
        "has_research": false, "has_context": false, "has_verification": false, "has_reviews": false
    })
    .as_object()
    .cloned()
    .unwrap_or_default()
}

/// `find-phase N`.
pub fn run(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = call.arg(0).filter(|p| !p.is_empty()) else {
        return Err(SdkError::validation("phase identifier required"));
    };
    Ok(Reply::Json(Value::Object(find(call.project, phase))))
}

/// `phase.next-decimal BASE`: the next free `BASE.N` after every decimal
/// phase of BASE named by a folder under `.planning/phases/` or a roadmap
/// heading, and whether BASE has a folder.
pub fn next_decimal(call: &Call) -> Result<Reply, SdkError> {
    let Some(base) = call.arg(0).filter(|p| !p.is_empty()) else {
        return Err(SdkError::validation("base phase number required"));
    };
    if base.contains('\0') {
        return Err(SdkError::validation("basePhase contains null byte"));
    }
    let normalized = rt::normalize_phase_name(base);
    let escaped = rt::escape(&normalized);
    let dirs = phase_dirs(&call.planning().join("phases")).unwrap_or_default();
    let found = dirs.iter().any(|d| rt::phase_token_matches(d, &normalized));
    let mut suffixes: Vec<u64> = Vec::new();
    let in_dir = re(&format!(r"(?i)^(?:[A-Z][A-Z0-9]*-)?{escaped}\.(\d+)"));
    for d in &dirs {
        if let Some(c) = in_dir.captures(d.as_str()).ok().flatten() {
            suffixes.push(decimal(rt::group(&c, 1)));
        }
    }
    if let Ok(roadmap) = std::fs::read(call.planning().join("ROADMAP.md")) {
        let roadmap = String::from_utf8_lossy(&roadmap).into_owned();
        let heading = re(&format!(r"(?i)#{{2,4}}\s*Phase\s+0*{escaped}\.(\d+)\s*:"));
        for c in heading.captures_iter(roadmap.as_str()).flatten() {
            suffixes.push(decimal(rt::group(&c, 1)));
        }
    }
    suffixes.sort_unstable();
    suffixes.dedup();
    let next = suffixes.last().map_or(1, |m| m + 1);
    let existing: Vec<String> = suffixes
        .iter()
        .map(|n| format!("{normalized}.{n}"))
        .collect();
    Ok(Reply::Json(json!({
        "found": found,
        "base_phase": normalized,
        "next": format!("{normalized}.{next}"),
        "existing": existing,
    })))
}

/// `parseInt` of a run of digits (saturating where JavaScript would lose
/// precision, which no phase number reaches).
fn decimal(digits: &str) -> u64 {
    digits.parse().unwrap_or(u64::MAX - 1)
}
