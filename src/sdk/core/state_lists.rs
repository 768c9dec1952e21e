//! GSD Core 1.14.0's STATE.md list entries — `state add-decision`,
//! `state add-blocker` — answered through gsd's exact edit and the one write
//! path, in 1.14.0's words.
//!
//! 1.14.0 finds the list under the first level-2 or level-3 heading its
//! pattern names (`Decisions`, `Decisions Made`, `Accumulated … Decisions`;
//! `Blockers`, `Blockers/Concerns`, `Concerns`), drops the section's
//! placeholders, and puts the entry after the section's last text; where
//! there is no such section it adds one at the end of the file. gsd adds
//! the same entry at the same place and the same new section, removing a
//! placeholder only where it is a whole line: 1.14.0 cuts the words
//! `None yet` (and, for blockers, `None`) wherever they stand in the
//! section, mid-sentence included (PARITY.md, G11). A decision without
//! `--phase` names the phase STATE.md is at, read as 1.14.0 reads it.

use std::path::{Component, Path};

use serde_json::json;

use super::super::compat::js::{is_js_space, trim};
use super::markdown::tokenize_headings;
use super::named_args::{Spec, parse};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;
use super::state_fields::{parse_phase_from_prose, strip_frontmatter, value};
use super::state_writes::{Inserted, state_text, with_created, write};
use crate::doc::span::{Edit, Span};

/// `readTextArgOrFile`: the inline text, or the file's text (its trailing
/// white space cut) for a file inside the project; a file that cannot be
/// read is 1.14.0's `{label} file not found: {path}`.
fn text_or_file(
    call: &CoreCall,
    inline: Option<&str>,
    file: Option<&str>,
    label: &str,
) -> Result<Result<Option<String>, String>, Refusal> {
    let Some(file) = file else {
        return Ok(Ok(inline.map(str::to_string)));
    };
    let path = Path::new(file);
    let inside = if path.is_absolute() {
        path.starts_with(call.project)
    } else {
        true
    };
    if !inside || path.components().any(|c| c == Component::ParentDir) {
        return Err(hand_on(format!(
            "for a {label} file outside the project or named through `..`"
        )));
    }
    // 1.14.0 resolves links before it checks the path is inside the
    // project (and refuses in its own words where it is not).
    let full = call.project.join(path);
    if let (Ok(real), Ok(root)) = (full.canonicalize(), call.project.canonicalize())
        && !real.starts_with(&root)
    {
        return Err(hand_on(format!(
            "for a {label} file that links outside the project"
        )));
    }
    match std::fs::read(&full) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => Ok(Ok(Some(t.trim_end_matches(is_js_space).to_string()))),
            Err(_) => Err(hand_on(format!("for a {label} file that is not UTF-8"))),
        },
        Err(_) => Ok(Err(format!("{label} file not found: {file}"))),
    }
}

/// `resolveCurrentPhaseId(fm, body)`: the frontmatter's `current_phase`, else
/// the body's `Current Phase:`, else the phase `## Current Position`'s
/// `Phase:` line opens with.
fn current_phase_id(content: &str) -> Result<Option<String>, Refusal> {
    let fm = super::frontmatter::extract(content).map_err(|u| hand_on(u.0))?;
    let body = strip_frontmatter(content);
    let headings = tokenize_headings(&body);
    let position = headings
        .iter()
        .position(|h| {
            h.level == 2
                && super::super::compat::roadmap_text::js_re(r"(?i)^current\s+position$")
                    .is_match(&h.text)
                    .unwrap_or(false)
        })
        .map(|i| {
            let h = &headings[i];
            let line = body[h.offset..].split('\n').next().unwrap_or("");
            let start = (h.offset + line.len() + 1).min(body.len());
            let end = headings[i + 1..]
                .iter()
                .find(|n| n.level >= 2)
                .map_or(body.len(), |n| {
                    let mut e = n.offset;
                    if body[..e].ends_with('\n') {
                        e -= 1;
                        if body[..e].ends_with('\r') {
                            e -= 1;
                        }
                    }
                    e.max(start)
                });
            body[start..end].to_string()
        });
    let prose = position
        .as_deref()
        .and_then(|p| value(&fm, p, None, Some("Phase")))
        .and_then(|v| parse_phase_from_prose(&v).0);
    Ok(value(&fm, &body, Some("current_phase"), Some("Current Phase")).or(prose))
}

/// The list section 1.14.0 writes: the body of the first level-2/3
/// heading `pick` takes, from after its line to the line break before the
/// next level-2/3 heading (or the end).
fn section(content: &str, pick: impl Fn(&str) -> bool) -> Option<(usize, usize)> {
    let hs = tokenize_headings(content);
    let i = hs
        .iter()
        .position(|h| (h.level == 2 || h.level == 3) && pick(&h.text))?;
    let line = content[hs[i].offset..].split('\n').next().unwrap_or("");
    let start = hs[i].offset + line.len() + 1;
    let end = hs[i + 1..]
        .iter()
        .find(|h| h.level == 2 || h.level == 3)
        .map_or(content.len(), |h| h.offset - 1);
    Some((start, end))
}

/// Whether a line is only a placeholder: `None yet.`, `No decisions yet`,
/// `- None.`, `_None yet_` and the like (the words `placeholders` names).
fn placeholder(line: &str, placeholders: &[&str]) -> bool {
    let t = trim(line)
        .trim_start_matches(['-', '*', '+'])
        .trim_matches(|c: char| c == '_' || c == '*' || is_js_space(c));
    let t = t.strip_suffix('.').unwrap_or(t);
    placeholders.iter().any(|p| t.eq_ignore_ascii_case(p))
}

/// The edits that add `entry` as 1.14.0 places it, or the new section
/// `heading` where the list has none; whether a section was made.
fn entry_edits(
    content: &str,
    pick: impl Fn(&str) -> bool,
    placeholders: &[&str],
    heading: &str,
    entry: &str,
) -> Result<(Vec<Edit>, bool), Refusal> {
    let Some((start, end)) = section(content, pick) else {
        let kept = content.trim_end_matches(is_js_space).len();
        return Ok((
            vec![Edit::new(
                Span::new(kept, content.len()),
                format!("\n\n{heading}\n\n{entry}\n"),
            )],
            true,
        ));
    };
    if start > end || start > content.len() {
        return Err(hand_on("for a list heading with no line after it"));
    }
    Ok((list_edits(content, start, end, placeholders, entry), false))
}

/// The edits that add `entry` to the list in `content[start..end]` as
/// 1.14.0 places it — after the section's last text — removing the
/// section's whole-line placeholders.
fn list_edits(
    content: &str,
    start: usize,
    end: usize,
    placeholders: &[&str],
    entry: &str,
) -> Vec<Edit> {
    let body = &content[start..end];
    let eol = if body.contains("\r\n") { "\r\n" } else { "\n" };
    let mut edits = Vec::new();
    // Where the section's text ends, placeholders left out.
    let mut last = None;
    let mut at = start;
    for line in body.split_inclusive('\n') {
        let text = line.trim_end_matches(['\n', '\r']);
        if placeholder(text, placeholders) {
            edits.push(Edit::new(Span::new(at, at + line.len()), ""));
        } else if !trim(text).is_empty() {
            last = Some(at + text.len());
        }
        at += line.len();
    }
    let insert = match last {
        Some(p) => Edit::new(Span::empty(p), format!("{eol}{entry}")),
        None => Edit::new(Span::empty(start), format!("{eol}{entry}")),
    };
    edits.push(insert);
    edits
}

/// Add the entry through the write path; the reply's `created` flag.
fn add(
    call: &CoreCall,
    what: &'static str,
    content: &str,
    pick: impl Fn(&str) -> bool,
    placeholders: &[&str],
    heading: &str,
    entry: &str,
) -> Result<bool, Refusal> {
    if entry.contains(['\n', '\r']) {
        return Err(hand_on("for an entry that spans lines"));
    }
    let (edits, created) = entry_edits(content, pick, placeholders, heading, entry)?;
    let inserts: Vec<Inserted> = edits
        .into_iter()
        .map(|edit| Inserted {
            label: what,
            edit,
            fields: Vec::new(),
        })
        .collect();
    write(call, what, &[], &inserts)?;
    Ok(created)
}

fn pattern_matches(pattern: &str, text: &str) -> bool {
    super::super::compat::roadmap_text::js_re(pattern)
        .is_match(text)
        .unwrap_or(false)
}

/// `state add-decision [--phase N] --summary S [--rationale R]` (or
/// `--summary-file`/`--rationale-file`) → `{added, decision[, created]}`.
pub fn add_decision(call: &CoreCall) -> Result<Out, Refusal> {
    let named = parse(
        call.args,
        &Spec {
            values: &[
                "phase",
                "summary",
                "summary-file",
                "rationale",
                "rationale-file",
            ],
            booleans: &[],
            positionals: 0,
        },
    )
    .map_err(Refusal::Fail)?;
    let Some(content) = state_text(call)? else {
        return Ok(Out::json(&json!({"error": "STATE.md not found"})));
    };
    let not_added =
        |reason: String| Out::with_raw(&json!({"added": false, "reason": reason}), "false");
    let summary = match text_or_file(
        call,
        named.value("summary"),
        named.value("summary-file"),
        "summary",
    )? {
        Ok(s) => s,
        Err(reason) => return Ok(not_added(reason)),
    };
    let rationale = match text_or_file(
        call,
        named.value("rationale"),
        named.value("rationale-file"),
        "rationale",
    )? {
        Ok(r) => r,
        Err(reason) => return Ok(not_added(reason)),
    };
    let Some(summary) = summary.filter(|s| !s.is_empty()) else {
        return Ok(Out::json(&json!({"error": "summary required"})));
    };
    let phase = match named.value("phase").filter(|p| !p.is_empty()) {
        Some(p) => Some(p.to_string()),
        None => current_phase_id(&content)?,
    }
    .filter(|p| !p.is_empty())
    .unwrap_or_else(|| "?".into());
    let rationale = rationale.unwrap_or_default();
    let tail = if rationale.is_empty() {
        String::new()
    } else {
        format!(" — {rationale}")
    };
    let entry = format!("- [Phase {phase}]: {summary}{tail}");
    let created = add(
        call,
        "decision",
        &content,
        |h| {
            pattern_matches(
                r"(?i)^(?:Decisions|Decisions Made|Accumulated.*Decisions)$",
                h,
            )
        },
        &["None yet", "No decisions yet"],
        "## Decisions",
        &entry,
    )?;
    let out = with_created(json!({"added": true, "decision": entry}), created);
    Ok(Out::with_raw(&out, "true"))
}

/// `state add-blocker --text T` (or `--text-file F`) → `{added, blocker[,
/// created]}`.
pub fn add_blocker(call: &CoreCall) -> Result<Out, Refusal> {
    let named = parse(
        call.args,
        &Spec {
            values: &["text", "text-file"],
            booleans: &[],
            positionals: 0,
        },
    )
    .map_err(Refusal::Fail)?;
    let Some(content) = state_text(call)? else {
        return Ok(Out::json(&json!({"error": "STATE.md not found"})));
    };
    let text = match text_or_file(
        call,
        named.value("text"),
        named.value("text-file"),
        "blocker",
    )? {
        Ok(t) => t,
        Err(reason) => {
            return Ok(Out::with_raw(
                &json!({"added": false, "reason": reason}),
                "false",
            ));
        }
    };
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return Ok(Out::json(&json!({"error": "text required"})));
    };
    let created = add(
        call,
        "blocker",
        &content,
        |h| pattern_matches(r"(?i)^(?:Blockers|Blockers/Concerns|Concerns)$", h),
        &["None", "None yet"],
        "### Blockers",
        &format!("- {text}"),
    )?;
    let out = with_created(json!({"added": true, "blocker": text}), created);
    Ok(Out::with_raw(&out, "true"))
}

/// `state add-roadmap-evolution [--phase N] [--action A] [--after M]
/// --note T [--urgent]` → `{added, entry[, created][, subsection_created]}`,
/// or `{added: false, reason: "duplicate", entry}` where the list already
/// holds the line: one `- Phase N inserted after Phase M: T (URGENT)` line
/// under `## Accumulated Context`'s `### Roadmap Evolution`, the
/// subsection (or both sections) added where STATE.md has none.
pub fn add_roadmap_evolution(call: &CoreCall) -> Result<Out, Refusal> {
    let named = parse(
        call.args,
        &Spec {
            values: &["phase", "action", "after", "note", "note-file"],
            booleans: &["urgent"],
            positionals: 0,
        },
    )
    .map_err(Refusal::Fail)?;
    let Some(content) = state_text(call)? else {
        return Ok(Out::json(&json!({"error": "STATE.md not found"})));
    };
    let note = match text_or_file(call, named.value("note"), named.value("note-file"), "note")? {
        Ok(n) => n,
        Err(reason) => {
            return Ok(Out::with_raw(
                &json!({"added": false, "reason": reason}),
                "false",
            ));
        }
    };
    let Some(note) = note.filter(|n| !trim(n).is_empty()) else {
        return Ok(Out::json(&json!({"error": "note required"})));
    };
    let flat = super::super::compat::roadmap_text::js_re(r"\s*[\r\n]+\s*")
        .replace_all(&note, " ")
        .into_owned();
    let flat = trim(&flat);
    let action = named
        .value("action")
        .map(trim)
        .filter(|a| !a.is_empty())
        .unwrap_or("changed");
    let after = named
        .value("after")
        .map(trim)
        .filter(|a| !a.is_empty())
        .map(|a| format!(" after Phase {a}"))
        .unwrap_or_default();
    let urgent = if named.flag("urgent") {
        " (URGENT)"
    } else {
        ""
    };
    let phase = match named.value("phase").filter(|p| !p.is_empty()) {
        Some(p) => Some(p.to_string()),
        None => current_phase_id(&content)?,
    }
    .filter(|p| !p.is_empty())
    .unwrap_or_else(|| "?".into());
    let entry = format!("- Phase {phase} {action}{after}: {flat}{urgent}");
    if entry.contains(['\n', '\r']) {
        return Err(hand_on("for an entry that spans lines"));
    }
    let hs = tokenize_headings(&content);
    let acc = hs
        .iter()
        .position(|h| h.level == 2 && pattern_matches(r"(?i)^accumulated\s+context$", &h.text));
    let (edits, created, sub_created) = match acc {
        None => {
            let kept = content.trim_end_matches(is_js_space).len();
            let scaffold =
                format!("\n\n## Accumulated Context\n\n### Roadmap Evolution\n\n{entry}\n");
            (
                vec![Edit::new(Span::new(kept, content.len()), scaffold)],
                true,
                true,
            )
        }
        Some(i) => {
            let line = content[hs[i].offset..].split('\n').next().unwrap_or("");
            let start = hs[i].offset + line.len() + 1;
            let end = hs[i + 1..]
                .iter()
                .find(|h| h.level == 2)
                .map_or(content.len(), |h| h.offset - 1);
            if start > end || start > content.len() {
                return Err(hand_on(
                    "for an Accumulated Context heading with no line after it",
                ));
            }
            let acc_body = &content[start..end];
            // Inside the section every heading is level 3 or deeper.
            let sub = section(acc_body, |t| {
                pattern_matches(r"(?i)^roadmap\s+evolution$", t)
            });
            match sub {
                Some((s, e)) => {
                    if s > e || s > acc_body.len() {
                        return Err(hand_on(
                            "for a Roadmap Evolution heading with no line after it",
                        ));
                    }
                    if acc_body[s..e].split('\n').any(|l| trim(l) == trim(&entry)) {
                        return Ok(Out::with_raw(
                            &json!({"added": false, "reason": "duplicate", "entry": entry}),
                            "false",
                        ));
                    }
                    let edits = list_edits(&content, start + s, start + e, &["None yet"], &entry);
                    (edits, false, false)
                }
                None => {
                    // The subsection after the section's text, a blank line apart.
                    let kept = acc_body.trim_end_matches(is_js_space).len();
                    let lead = if kept > 0 { "\n\n" } else { "" };
                    let at = start + kept;
                    (
                        vec![Edit::new(
                            Span::empty(at),
                            format!("{lead}### Roadmap Evolution\n\n{entry}"),
                        )],
                        false,
                        true,
                    )
                }
            }
        }
    };
    let inserts: Vec<Inserted> = edits
        .into_iter()
        .map(|edit| Inserted {
            label: "roadmap evolution",
            edit,
            fields: Vec::new(),
        })
        .collect();
    write(call, "roadmap evolution", &[], &inserts)?;
    let mut out = with_created(json!({"added": true, "entry": entry}), created);
    if sub_created {
        out["subsection_created"] = json!(true);
    }
    Ok(Out::with_raw(&out, "true"))
}
