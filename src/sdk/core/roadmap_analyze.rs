//! `roadmap analyze` as GSD Core 1.14.0 answers it: the current
//! milestone's phases (headings and table rows of its window), each with
//! its folder's counts and a status read from disk alone, and the
//! milestone's progress from the phase folders that belong to it.
//!
//! 1.14.0 reads completion "disk-strict": a phase is complete when its own
//! VERIFICATION report passes, never because the roadmap ticks it, and it
//! counts only live plans and the summaries that pair with them. Both
//! differ from 1.42.3's answer (`commands::roadmap`), so this is its own
//! reading on the shared window (`milestone_window`).
//!
//! Handed on: a project using the `bracket` phase-id convention (its
//! headings, folders and windows are read another way), a phase folder
//! that cannot be listed or holds a name that is not UTF-8, and a plan or
//! summary 1.14.0 would warn about.

use std::collections::HashSet;
use std::path::Path;

use serde_json::{Map, Value, json};

use super::super::compat::roadmap_text::{group, re};
use super::checklist_mark::{PhaseToken, phase_mark};
use super::milestone_window::{self as mw, PhaseFilter, Scope};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;
use super::phase_id::{
    extract_phase_token, normalize_phase_name, scope_to_phase, strip_project_code,
};
use super::plan_scan::Scans;
use super::verification;

/// `roadmap analyze`.
pub fn analyze(call: &CoreCall) -> Result<Out, Refusal> {
    let planning = call.project.join(".planning");
    let roadmap = planning.join("ROADMAP.md");
    if !roadmap.exists() {
        let v = json!({"error": "ROADMAP.md not found", "milestones": [], "phases": [], "current_phase": null});
        return Ok(Out::json(&v));
    }
    if convention(&planning).as_deref() == Some("bracket") {
        return Err(hand_on(" for the bracket phase-id convention"));
    }
    let raw = std::fs::read(&roadmap).map_err(|_| hand_on(" with an unreadable ROADMAP.md"))?;
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (content, scope) = mw::current_window(&raw, call.project);
    let phases_dir = planning.join("phases");
    let dirs = all_phase_dirs(&phases_dir)?;
    let scans = Scans::default();
    let mut collected = collect(&scans, &content, &phases_dir, &dirs)?;
    let mut effective = content.clone();
    if collected.phases.is_empty() && scope != Scope::Complete && !dirs.is_empty() {
        let fallback = mw::strip_shipped(&raw);
        let again = collect(&scans, &fallback, &phases_dir, &dirs)?;
        if !again.phases.is_empty() {
            collected = again;
            effective = fallback;
        }
    }
    let Collected {
        phases,
        detail_keys,
    } = collected;
    let milestones: Vec<Value> = mw::milestone_headings(&content)
        .into_iter()
        .map(|h| json!({"heading": h.heading, "version": h.version}))
        .collect();
    let status = |p: &Value| p["disk_status"].as_str().unwrap_or_default().to_owned();
    let current = phases
        .iter()
        .find(|p| ["planned", "partial"].contains(&status(p).as_str()));
    let next = phases.iter().find(|p| {
        ["empty", "no_directory", "discussed", "researched"].contains(&status(p).as_str())
    });
    let sum = |k: &str| {
        phases
            .iter()
            .map(|p| p[k].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    let (total_plans, total_summaries) = (sum("plan_count"), sum("summary_count"));
    let completed = phases.iter().filter(|p| status(p) == "complete").count();
    let missing = missing_details(&effective, &detail_keys);
    let (percent, progress_scope) = progress(&scans, call.project, &phases_dir)?;
    let number = |p: Option<&Value>| p.map_or(Value::Null, |p| p["number"].clone());
    let v = json!({
        "milestones": milestones,
        "phases": phases,
        "phase_count": phases.len(),
        "completed_phases": completed,
        "total_plans": total_plans,
        "total_summaries": total_summaries,
        "progress_percent": percent,
        "progress_scope": progress_scope.as_str(),
        "current_phase": number(current),
        "next_phase": number(next),
        "missing_phase_details": if missing.is_empty() { Value::Null } else { json!(missing) },
        "scope": scope.as_str(),
    });
    Ok(Out::json(&v))
}

/// `roadmap milestone-scope`: the current milestone window's scope and the
/// phase ids it declares (no fallback scan: a narrowed window shows as a
/// changed set), for the edit-phase workflow's before/after guard.
/// Handed on where a phase-id convention is set (config.json or the
/// roadmap's frontmatter), which changes both.
pub fn milestone_scope(call: &CoreCall) -> Result<Out, Refusal> {
    if let Some(a) = call.args.first() {
        return Err(hand_on(format!(" with the argument `{a}`")));
    }
    let planning = call.project.join(".planning");
    let roadmap = planning.join("ROADMAP.md");
    if !roadmap.exists() {
        let v = json!({"error": "ROADMAP.md not found", "scope": "unreadable", "phases": [], "phase_count": 0});
        return Ok(Out::json(&v));
    }
    let config_sets = std::fs::read_to_string(planning.join("config.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .is_some_and(|c| c.get("phase_id_convention").is_some_and(|v| !v.is_null()));
    let raw = std::fs::read(&roadmap).map_err(|_| hand_on(" with an unreadable ROADMAP.md"))?;
    let raw = String::from_utf8_lossy(&raw).into_owned();
    if config_sets || mw::frontmatter_convention(&raw).is_some() {
        return Err(hand_on(" with a phase-id convention"));
    }
    let (window, scope) = mw::current_window(&raw, call.project);
    let phases = mw::phase_ids(&window);
    let v = json!({"scope": scope.as_str(), "phase_count": phases.len(), "phases": phases});
    let mut ordered = Map::new();
    for k in ["scope", "phases", "phase_count"] {
        ordered.insert(k.into(), v[k].clone());
    }
    Ok(Out::json(&Value::Object(ordered)))
}

/// `resolvePhaseIdConvention(cwd)`: config.json's `phase_id_convention`
/// where it is a non-empty string.
pub(super) fn convention(planning: &Path) -> Option<String> {
    let text = std::fs::read_to_string(planning.join("config.json")).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    v.get("phase_id_convention")?
        .as_str()
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// `listAllPhaseDirs(phasesDir, {includeSentinels: true})`: the phase
/// folders (not links to folders) in 1.14.0's phase order.
pub(super) fn all_phase_dirs(phases_dir: &Path) -> Result<Vec<String>, Refusal> {
    let Ok(entries) = std::fs::read_dir(phases_dir) else {
        if phases_dir.exists() {
            return Err(hand_on(" where the phases folder cannot be listed"));
        }
        return Ok(Vec::new());
    };
    let mut names = Vec::new();
    for e in entries {
        let e = e.map_err(|_| hand_on(" where the phases folder cannot be listed"))?;
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            names.push(
                e.file_name().into_string().map_err(|_| {
                    hand_on(" for a phase folder named in bytes that are not UTF-8")
                })?,
            );
        }
    }
    // readdir's byte order, then the comparator's (the sort is stable).
    names.sort_unstable();
    super::super::compat::js::sort_by(&mut names, |a, b| compare_phase_num(a, b));
    Ok(names)
}

/// The phases of a window and the ids its detail headings and table rows
/// declare.
struct Collected {
    phases: Vec<Value>,
    detail_keys: HashSet<String>,
}

/// `collectAnalyzePhases`: phase headings (`## Phase N: Name`, levels 2–4)
/// then table rows not already declared by a heading.
fn collect(
    scans: &Scans,
    content: &str,
    phases_dir: &Path,
    dirs: &[String],
) -> Result<Collected, Refusal> {
    let heading = re(
        r"(?im)^ {0,3}#{2,4}\s*(?:\[[^\]]{1,200}\]\s*)?Phase\s+([A-Za-z]?\d+[A-Z]?(?:[.-]\d+)*)(?:\s*\([^)\n]{0,200}\))?\s*:\s*([^\n]+)",
    );
    let next_heading =
        re(r"(?i)\n {0,3}#{2,4}\s+(?:\[[^\]]{1,200}\]\s*)?Phase\s+[A-Za-z]?\d[\d.-]*");
    let mut phases = Vec::new();
    let mut detail_keys = HashSet::new();
    for c in heading.captures_iter(content) {
        let c = c.map_err(|_| hand_on(" where the roadmap defeats the pattern engine"))?;
        let number = group(&c, 1).to_owned();
        if mw::is_sentinel(&number) {
            continue;
        }
        detail_keys.insert(number.clone());
        let name = re(r"(?i)\(INSERTED\)").replace(group(&c, 2), "");
        let name = super::js::trim(&name).to_owned();
        let start = c.get(0).map_or(0, |m| m.start());
        let rest = &content[start..];
        let end = next_heading
            .find(rest)
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
        let mut disk = Disk::default();
        let mut status = "no_directory";
        if let Some(dir) = match_phase_dir(dirs, &normalize_phase_name(&number)) {
            let path = phases_dir.join(dir);
            disk = Disk::read(scans, &path, dir)?;
            let passed = verification::read_status(&path)?["status"] == "passed";
            status = if passed {
                "complete"
            } else if disk.summaries > 0 {
                "partial"
            } else if disk.plans > 0 {
                "planned"
            } else if disk.research {
                "researched"
            } else if disk.context {
                "discussed"
            } else {
                "empty"
            };
        }
        // `/-\s*\[(x| )\]\s*.*Phase\s+N(?:\s*\([^)\n]{0,200}\))?[:\s]/i`
        let ticked = phase_mark(content, &phase_token(&number)) == Some('x');
        let mut p = Map::new();
        p.insert("number".into(), json!(number));
        p.insert("name".into(), json!(name));
        p.insert("goal".into(), json!(field("Goal")));
        p.insert(
            "mode".into(),
            json!(field("Mode").map(|m| m.to_lowercase())),
        );
        p.insert("depends_on".into(), json!(field("Depends on")));
        disk.fill(&mut p, status, ticked);
        phases.push(Value::Object(p));
    }
    // `^0+(?=.)`: leading zeros off, the last character kept.
    let unpadded = |s: &str| {
        let t = s.trim_start_matches('0');
        if t.is_empty() {
            s[s.len().saturating_sub(1)..].to_owned()
        } else {
            t.to_owned()
        }
    };
    let seen: HashSet<String> = phases
        .iter()
        .map(|p| unpadded(p["number"].as_str().unwrap_or_default()))
        .collect();
    for row in mw::table_phase_rows(content) {
        detail_keys.insert(row.id.clone());
        if seen.contains(&unpadded(&row.id)) {
            continue;
        }
        let mut disk = Disk::default();
        let dir = match_phase_dir(dirs, &normalize_phase_name(&row.id));
        if let Some(dir) = dir {
            let path = phases_dir.join(dir);
            disk = Disk::read(scans, &path, dir)?;
            disk.context = path.join("CONTEXT.md").exists();
            disk.research = path.join("RESEARCH.md").exists();
        }
        let mut p = Map::new();
        p.insert("number".into(), json!(row.id));
        p.insert(
            "name".into(),
            json!(row.name.unwrap_or_else(|| format!("Phase {}", row.id))),
        );
        p.insert("goal".into(), Value::Null);
        p.insert("mode".into(), Value::Null);
        p.insert("depends_on".into(), Value::Null);
        disk.fill(
            &mut p,
            if dir.is_some() { "ok" } else { "no_directory" },
            false,
        );
        phases.push(Value::Object(p));
    }
    Ok(Collected {
        phases,
        detail_keys,
    })
}

/// What a phase folder holds, as `countPhasePlansAndSummaries` reads it.
#[derive(Default)]
struct Disk {
    plans: usize,
    summaries: usize,
    context: bool,
    research: bool,
}

impl Disk {
    fn read(scans: &Scans, path: &Path, dir: &str) -> Result<Disk, Refusal> {
        let scanned = scans.get(path);
        let scan = scanned.as_ref().as_ref().map_err(|u| hand_on(u.0))?;
        let counts = scan.counts().map_err(|u| hand_on(u.0))?;
        let files = scan
            .listing
            .as_ref()
            .ok_or_else(|| hand_on(" where a phase folder cannot be listed"))?;
        let scoped = scope_to_phase(files, dir);
        Ok(Disk {
            plans: counts.plans,
            summaries: counts.summaries,
            context: scoped
                .iter()
                .any(|f| *f == "CONTEXT.md" || f.ends_with("-CONTEXT.md")),
            research: scoped
                .iter()
                .any(|f| *f == "RESEARCH.md" || f.ends_with("-RESEARCH.md")),
        })
    }

    /// The phase entry's disk fields, in 1.14.0's key order.
    fn fill(&self, p: &mut Map<String, Value>, status: &str, ticked: bool) {
        p.insert("plan_count".into(), json!(self.plans));
        p.insert("summary_count".into(), json!(self.summaries));
        p.insert("has_context".into(), json!(self.context));
        p.insert("has_research".into(), json!(self.research));
        p.insert("disk_status".into(), json!(status));
        p.insert("roadmap_complete".into(), json!(ticked));
        p.insert("context_read_error".into(), Value::Null);
        p.insert("context_scope".into(), json!(Scope::Complete.as_str()));
    }
}

/// `matchPhaseDirs(dirs, normalized).matches[0]`: the first folder whose
/// token is the phase, else (for a bare number) whose leading number is.
pub(super) fn match_phase_dir<'a>(dirs: &'a [String], normalized: &str) -> Option<&'a String> {
    let want = normalized.to_uppercase();
    let token_is = |d: &str| extract_phase_token(d).to_uppercase() == want;
    if let Some(d) = dirs.iter().find(|d| {
        token_is(d) || {
            let s = strip_project_code(d, true);
            s != d.as_str() && token_is(s)
        }
    }) {
        return Some(d);
    }
    if !re(r"^\d+$").is_match(normalized).unwrap_or(false) {
        return None;
    }
    let unpad = |s: &str| re(r"^0+(?=\d)").replace(s, "").into_owned();
    let want = unpad(normalized);
    dirs.iter().find(|d| {
        re(r"^(\d+)(?:-|$)")
            .captures(strip_project_code(d, true))
            .ok()
            .flatten()
            .is_some_and(|c| unpad(group(&c, 1)) == want)
    })
}

/// `phaseMarkdownRegexSource(phaseNum)`: the phase number as a pattern
/// that accepts any padding.
pub(super) fn markdown_source(phase: &str) -> String {
    phase_token(phase).source()
}

/// [`markdown_source`] as its parts, for the matchers that walk it by hand.
pub(super) fn phase_token(phase: &str) -> PhaseToken {
    let unpad = |s: &str| {
        let t = s.trim_start_matches('0');
        if t.is_empty() {
            "0".to_owned()
        } else {
            t.to_owned()
        }
    };
    let stripped = strip_project_code(phase, true);
    if let Some(c) = re(r"(?i)^(\d+)((?:-\d+)*)([A-Z]?(?:\.\d+)*)$")
        .captures(stripped)
        .ok()
        .flatten()
        && !group(&c, 2).is_empty()
    {
        let mut parts = vec![(true, unpad(group(&c, 1)))];
        for sub in group(&c, 2)[1..].split('-') {
            parts.push((false, "-".to_owned()));
            parts.push((true, unpad(sub)));
        }
        parts.push((false, group(&c, 3).to_owned()));
        return PhaseToken::padded(&parts);
    }
    match re(r"(?i)^0*(\d+)([A-Z])?((?:\.\d+)*)$")
        .captures(stripped)
        .ok()
        .flatten()
    {
        Some(c) => PhaseToken::padded(&[(
            true,
            format!("{}{}{}", unpad(group(&c, 1)), group(&c, 2), group(&c, 3)),
        )]),
        None => PhaseToken::padded(&[(false, phase.to_owned())]),
    }
}

/// Checklist entries (`- [ ] **Phase N…`) with no detail heading or table
/// row, in order, once each; sentinels left out.
fn missing_details(content: &str, detail_keys: &HashSet<String>) -> Vec<String> {
    let pattern = re(r"(?i)-\s*\[[ x]\]\s*\*\*Phase\s+([A-Za-z]?\d+[A-Z]?(?:[.-]\d+)*)");
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for c in pattern.captures_iter(content).flatten() {
        let token = group(&c, 1).to_owned();
        if !seen.insert(token.clone()) {
            continue;
        }
        if !detail_keys.contains(&token) && !mw::is_sentinel(&token) && !out.contains(&token) {
            out.push(token);
        }
    }
    out
}

/// `progress_percent` and the scope it was computed under: summaries over
/// plans across the phase folders of the current milestone, withheld
/// (`null`) unless that scope is complete.
fn progress(scans: &Scans, project: &Path, phases_dir: &Path) -> Result<(Value, Scope), Refusal> {
    let filter = PhaseFilter::read(project);
    let mut scope = filter.scope;
    let (mut plans, mut summaries) = (0usize, 0usize);
    if phases_dir.exists() {
        match std::fs::read_dir(phases_dir) {
            Ok(entries) => {
                for e in entries.flatten() {
                    if !e.file_type().is_ok_and(|t| t.is_dir()) {
                        continue;
                    }
                    let name = e.file_name().into_string().map_err(|_| {
                        hand_on(" for a phase folder named in bytes that are not UTF-8")
                    })?;
                    if !filter.admits(&name) || mw::is_sentinel(&name) {
                        continue;
                    }
                    let scanned = scans.get(&e.path());
                    let scan = scanned.as_ref().as_ref().map_err(|u| hand_on(u.0))?;
                    let c = scan.counts().map_err(|u| hand_on(u.0))?;
                    plans += c.plans;
                    summaries += c.summaries;
                }
            }
            Err(_) => scope = Scope::Unreadable,
        }
    }
    let percent = if scope == Scope::Complete {
        json!(clamp_percent(summaries, plans))
    } else {
        Value::Null
    };
    Ok((percent, scope))
}

/// `clampPercent`: a rounded percentage, at most 100, 0 with nothing to do.
pub fn clamp_percent(done: usize, total: usize) -> u64 {
    if total == 0 {
        return 0;
    }
    // Math.round of a non-negative fraction: half rounds up.
    let pct = (done as f64 / total as f64 * 100.0 + 0.5).floor();
    pct.min(100.0) as u64
}

/// 1.14.0's `comparePhaseNum`: milestone-numbered folders (`1-02`) by
/// segment, others by number, letter and decimals; odd names by locale.
pub fn compare_phase_num(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (sa, sb) = (strip_project_code(a, true), strip_project_code(b, true));
    let milestone = |s: &str| {
        re(r"(?i)^(\d+)((?:-\d+)+)([A-Z]?(?:\.\d+)*)$")
            .captures(s)
            .ok()
            .flatten()
            .map(|c| {
                let mut segs = vec![num(group(&c, 1))];
                segs.extend(group(&c, 2)[1..].split('-').map(num));
                (segs, group(&c, 3).to_owned())
            })
    };
    match (milestone(sa), milestone(sb)) {
        (Some((x, sx)), Some((y, sy))) => {
            for i in 0..x.len().max(y.len()) {
                let (p, q) = (
                    x.get(i).copied().unwrap_or(0.0),
                    y.get(i).copied().unwrap_or(0.0),
                );
                if p != q {
                    return super::super::compat::js::ordering(p - q);
                }
            }
            return sx.cmp(&sy);
        }
        (None, None) => {}
        _ => return super::super::compat::js::locale_compare(a, b),
    }
    let parse = |s: &str| {
        re(r"(?i)^(\d+)([A-Z])?((?:\.\d+)*)")
            .captures(s)
            .ok()
            .flatten()
            .map(|c| {
                let dec: Vec<f64> = if group(&c, 3).is_empty() {
                    Vec::new()
                } else {
                    group(&c, 3)[1..].split('.').map(num).collect()
                };
                (num(group(&c, 1)), group(&c, 2).to_uppercase(), dec)
            })
    };
    let (Some((ia, la, da)), Some((ib, lb, db))) = (parse(sa), parse(sb)) else {
        return super::super::compat::js::locale_compare(a, b);
    };
    if ia != ib {
        return super::super::compat::js::ordering(ia - ib);
    }
    if la != lb {
        return match (la.is_empty(), lb.is_empty()) {
            (true, _) => Ordering::Less,
            (_, true) => Ordering::Greater,
            _ => la.cmp(&lb),
        };
    }
    match (da.is_empty(), db.is_empty()) {
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    for i in 0..da.len().max(db.len()) {
        let (p, q) = (
            da.get(i).copied().unwrap_or(0.0),
            db.get(i).copied().unwrap_or(0.0),
        );
        if p != q {
            return super::super::compat::js::ordering(p - q);
        }
    }
    Ordering::Equal
}

/// `parseInt` of a digit run, as a double.
fn num(s: &str) -> f64 {
    s.parse().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_order_as_gsd_core_sorts() {
        let mut v: Vec<String> = [
            "10-x", "2.1-a", "2A-b", "2-c", "1-02", "1-10", "notes", "CK-03-d",
        ]
        .map(str::to_owned)
        .to_vec();
        v.sort_unstable();
        crate::sdk::compat::js::sort_by(&mut v, |a, b| compare_phase_num(a, b));
        assert_eq!(
            v,
            [
                "1-02", "1-10", "2-c", "2.1-a", "2A-b", "CK-03-d", "10-x", "notes"
            ]
        );
    }

    #[test]
    fn a_phase_number_as_a_padding_blind_pattern() {
        assert_eq!(markdown_source("03"), "0*3");
        assert_eq!(markdown_source("2.1"), r"0*2\.1");
        assert_eq!(markdown_source("1-02"), "0*1-0*2");
        assert_eq!(markdown_source("B7x"), "B7x");
    }

    #[test]
    fn percentages_round_half_up_and_cap() {
        assert_eq!(clamp_percent(1, 8), 13);
        assert_eq!(clamp_percent(1, 3), 33);
        assert_eq!(clamp_percent(5, 4), 100);
        assert_eq!(clamp_percent(0, 0), 0);
    }

    #[test]
    fn bare_numbers_fall_back_to_the_leading_number() {
        let dirs: Vec<String> = ["01.5-x", "3-plain", "CK-07-y"].map(str::to_owned).to_vec();
        assert_eq!(
            match_phase_dir(&dirs, "03").map(String::as_str),
            Some("3-plain")
        );
        assert_eq!(
            match_phase_dir(&dirs, "07").map(String::as_str),
            Some("CK-07-y")
        );
        assert_eq!(match_phase_dir(&dirs, "01"), None);
    }
}
