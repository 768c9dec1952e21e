//! The GSD Core 1.14.0 reads gsd answers itself: for now `roadmap
//! get-phase`, GSD Core's most-called read, from the engine's reading of
//! ROADMAP.md (`commands::roadmap`) with 1.14.0's differences on top.
//!
//! The handler answers only the cases measured byte-identical against the
//! real gsd-tools on the corpus; a case where 1.14.0 reads the roadmap
//! otherwise (fenced headings, table rows, sentinel and project-code ids,
//! `<details>` blocks, a phase-id convention) goes on to it (`Refusal::HandOn`).

use fancy_regex::Regex;
use serde_json::{Value, json};

use super::super::commands::roadmap;
use super::super::compat::roadmap_text::re;
use super::native::{CoreCall, Refusal, config_object, hand_on};
use super::output::{Out, js_string};

/// `roadmap get-phase N`: the phase's ROADMAP.md section, its name, goal,
/// mode and success criteria; raw, the section alone (empty when not found).
///
/// 1.14.0 differs from the engine's 1.42.3 reading in ways handled here:
/// a padded number (`08`) also finds `Phase 8`; a success criterion wrapped
/// onto indented lines is one criterion. Handed on: ids that are not plain
/// numbers, the sentinel phases 0 and 999 (1.14.0 never finds them), a
/// roadmap with fenced or `<details>` blocks (1.14.0 reads headings in them
/// otherwise), a config
/// naming a phase-id convention, and every not-found or malformed answer
/// (1.14.0 then also reads table rows).
pub fn roadmap_get_phase(call: &CoreCall) -> Result<Out, Refusal> {
    let Some(phase) = call.args.first().filter(|p| !p.is_empty()) else {
        return Err(hand_on(" without a phase"));
    };
    if !re(r"^\d+(?:\.\d+)*$").is_match(phase).unwrap_or(false) {
        return Err(hand_on(" for a phase id that is not a plain number"));
    }
    let int: u64 = phase
        .split('.')
        .next()
        .and_then(|i| i.parse().ok())
        .unwrap_or(u64::MAX);
    if int == 0 || int == 999 {
        return Err(hand_on(" for a sentinel phase (0 or 999)"));
    }
    if config_object(call)?.is_some_and(|c| c.contains_key("phase_id_convention")) {
        return Err(hand_on(" with a phase-id convention"));
    }
    let roadmap_path = call.project.join(".planning/ROADMAP.md");
    let Ok(bytes) = std::fs::read(&roadmap_path) else {
        if roadmap_path.exists() {
            return Err(hand_on(" with an unreadable ROADMAP.md"));
        }
        let v = json!({"found": false, "error": "ROADMAP.md not found"});
        return Ok(Out::with_raw(&v, ""));
    };
    let text = String::from_utf8_lossy(&bytes);
    if text.contains("```") || text.contains("~~~") {
        return Err(hand_on(" in a roadmap with fenced blocks"));
    }
    if text.to_lowercase().contains("<details") {
        return Err(hand_on(" in a roadmap with <details> blocks"));
    }
    let mut v = roadmap::phase_value(call.project, phase);
    let unpadded = phase.trim_start_matches('0');
    if !found(&v) && unpadded != phase.as_str() {
        v = roadmap::phase_value(call.project, unpadded);
        if let Some(m) = v.as_object_mut() {
            m.insert("phase_number".into(), json!(phase));
        }
    }
    if !found(&v) {
        return Err(hand_on(" where the phase has no heading"));
    }
    let whole = v.get("section").and_then(Value::as_str).unwrap_or("");
    let Some(section) = own_section(whole) else {
        return Err(hand_on(" where the section holds a setext heading"));
    };
    let field = |name: &str| {
        re(&format!(r"(?i)\*\*{name}(?::\*\*|\*\*:)\s*([^\n]+)"))
            .captures(&section)
            .ok()
            .flatten()
            .and_then(|c| c.get(1))
            .map(|g| g.as_str().trim().to_string())
    };
    let goal = field("Goal");
    let mode = field("Mode").map(|m| m.to_lowercase());
    let criteria = success_criteria(&section);
    if let Some(m) = v.as_object_mut() {
        m.insert("goal".into(), json!(goal));
        m.insert("mode".into(), json!(mode));
        m.insert("success_criteria".into(), json!(criteria));
        m.insert("section".into(), json!(section));
    }
    let raw = js_string(v.get("section").unwrap_or(&Value::Null));
    Ok(Out::with_raw(&v, raw))
}

/// The phase's section as 1.14.0 cuts it: from its heading to the next
/// heading of the same or a higher level (1.42.3 ran on to the next phase
/// heading), trimmed. `None` where a line could underline a setext heading,
/// which 1.14.0's heading tokenizer also counts.
fn own_section(section: &str) -> Option<String> {
    let hashes = |l: &str| {
        let t = l
            .strip_prefix("   ")
            .or_else(|| l.strip_prefix("  "))
            .or_else(|| l.strip_prefix(' '))
            .unwrap_or(l);
        let n = t.chars().take_while(|c| *c == '#').count();
        let rest = &t[n..];
        ((1..=6).contains(&n) && (rest.is_empty() || rest.starts_with([' ', '\t']))).then_some(n)
    };
    let underline = re(r"^ {0,3}(?:=+|-+)[ \t]*$");
    let mut lines = section.split('\n');
    let level = hashes(lines.next()?)?;
    let mut end = section.len();
    let mut at = section.find('\n').map_or(section.len(), |i| i + 1);
    let mut previous_blank = false;
    for line in lines {
        if hashes(line).is_some_and(|n| n <= level) {
            end = at;
            break;
        }
        if !previous_blank && underline.is_match(line).unwrap_or(false) {
            return None;
        }
        previous_blank = line.trim().is_empty();
        at += line.len() + 1;
    }
    Some(section[..end.min(section.len())].trim().to_string())
}

fn found(v: &Value) -> bool {
    v.get("found").and_then(Value::as_bool) == Some(true)
}

/// The success criteria of a phase section as 1.14.0 lists them: the
/// numbered lines after `**Success Criteria**…:`, a criterion's indented
/// continuation lines folded into it with single spaces.
fn success_criteria(section: &str) -> Vec<String> {
    let block = re(
        r"(?i)\*\*Success Criteria\*\*[^\n]*:\s*\n((?:\n*[ \t]*\d+\.[^\n]*\n?(?:[ \t]+(?!\d+\.)[^\n]*\n?)*)+)",
    );
    let Some(body) = block
        .captures(section)
        .ok()
        .flatten()
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().trim().to_string())
    else {
        return Vec::new();
    };
    let lead = re(r"^\s*\d+\.\s*");
    let wrap = re(r"\s*\n\s*");
    split_before_numbered(&body)
        .into_iter()
        .map(|entry| {
            let e = lead.replace(&entry, "");
            wrap.replace_all(&e, " ").trim().to_string()
        })
        .filter(|e| !e.is_empty())
        .collect()
}

/// `text.split(/\n+(?=[ \t]*\d+\.)/)`: cut at each run of newlines that a
/// numbered line follows.
fn split_before_numbered(text: &str) -> Vec<String> {
    let cut: &Regex = re(r"\n+(?=[ \t]*\d+\.)");
    let mut out = Vec::new();
    let mut last = 0;
    for m in cut.find_iter(text).flatten() {
        out.push(text[last..m.start()].to_string());
        last = m.end();
    }
    out.push(text[last..].to_string());
    out
}

/// `find-phase N`: the phase's folder, its plans and summaries, and
/// 1.14.0's counts of them (`plan_count`, `summary_count`,
/// `plan_count_all`); raw, the folder.
///
/// The engine's 1.42.3 search with 1.14.0's shape on top. Answered only
/// where the two searches agree by construction: exactly one folder of the
/// searched place matches the phase, found under `phases/` (or in the one
/// archive holding it), no `plans/` subfolder, no plan marked superseded,
/// and no plan-shaped file outside the canonical names (1.14.0 warns about
/// those). Not-found answers (1.14.0 also falls back to bare leading
/// numbers and lists the folders it searched) go on to gsd-tools.
pub fn find_phase(call: &CoreCall) -> Result<Out, Refusal> {
    let Some(phase) = call.args.first().filter(|p| !p.is_empty()) else {
        return Err(hand_on(" without a phase"));
    };
    let v = found_phase(call, phase)?;
    let directory = v["directory"].as_str().unwrap_or_default().to_owned();
    Ok(Out::with_raw(&v, directory))
}

/// `findPhaseInternal(cwd, phase)` where it has found the phase, in
/// `find-phase`'s shape; handed on wherever the two searches could differ
/// (see [`find_phase`]).
pub(super) fn found_phase(call: &CoreCall, phase: &str) -> Result<Value, Refusal> {
    use super::super::commands::phase_find;
    use super::super::compat::roadmap_text as rt;
    let found = phase_find::find(call.project, phase);
    if found.get("found") != Some(&json!(true)) {
        return Err(hand_on(" where the phase is not found"));
    }
    let directory = found
        .get("directory")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let normalized = rt::normalize_phase_name(phase);
    // Every folder of every searched place that holds the phase: one only.
    let planning = call.project.join(".planning");
    let mut places = vec![planning.join("phases")];
    if let Ok(entries) = std::fs::read_dir(planning.join("milestones")) {
        places.extend(
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    n.starts_with('v') && n.ends_with("-phases")
                })
                .map(|e| e.path()),
        );
    }
    let matching: usize = places
        .iter()
        .filter_map(|p| phase_find::phase_dirs(p))
        .map(|dirs| {
            dirs.iter()
                .filter(|d| rt::phase_token_matches(d, &normalized))
                .count()
        })
        .sum();
    if matching != 1 {
        return Err(hand_on(" where more than one folder holds the phase"));
    }
    // Folder names 1.14.0 reads with its two patterns only.
    let folder = directory.rsplit('/').next().unwrap_or_default();
    if !re(r"(?i)^(?:[A-Z]{1,6}-)?\d+[A-Z]?(?:\.\d+)*(?:-|$)")
        .is_match(folder)
        .unwrap_or(false)
    {
        return Err(hand_on(" for a folder named without a phase number"));
    }
    let dir = call.project.join(&directory);
    if dir.join("plans").exists() {
        return Err(hand_on(" where the phase keeps plans in plans/"));
    }
    let files: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|_| hand_on(" where the phase folder cannot be read"))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let plans: Vec<String> = found
        .get("plans")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let summaries = found.get("summaries").cloned().unwrap_or(json!([]));
    for f in &files {
        let lower = f.to_lowercase();
        let canonical = plans.contains(f);
        // (`05-01-PLAN-SUMMARY.md` is one too, for 1.14.0's warning.)
        if !canonical && lower.ends_with(".md") && lower.contains("plan") {
            return Err(hand_on(" where a plan-shaped file has another name"));
        }
        if canonical
            && (["outline", "bounce", "review"]
                .iter()
                .any(|w| lower.contains(w))
                || std::fs::read(dir.join(f)).is_ok_and(|b| {
                    String::from_utf8_lossy(&b[..b.len().min(16 * 1024)])
                        .to_lowercase()
                        .contains("superseded")
                }))
        {
            return Err(hand_on(" where a plan may be put aside"));
        }
    }
    let n_summaries = summaries.as_array().map_or(0, Vec::len);
    let v = json!({
        "found": true,
        "directory": directory,
        "phase_number": found.get("phase_number").cloned().unwrap_or(Value::Null),
        "phase_name": found.get("phase_name").cloned().unwrap_or(Value::Null),
        "plans": plans,
        "summaries": summaries,
        "plan_count": plans.len(),
        "summary_count": n_summaries,
        // No plan is superseded here: every canonical plan is a live one.
        "plan_count_all": plans.len(),
    });
    Ok(v)
}
