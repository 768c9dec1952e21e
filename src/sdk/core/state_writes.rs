//! GSD Core 1.14.0's STATE.md field writes — `state update`, `state patch`,
//! `state record-session` — answered through gsd's own field edit and the
//! one write path, in 1.14.0's words.
//!
//! 1.14.0 finds a field where `stateReplaceField` does (the first
//! `**Field:**` line, else the first line opening `Field:`, else the first
//! two-cell table row, case-blind) and then rebuilds STATE.md's whole
//! frontmatter; its answer lists, besides the fields asked for, the
//! frontmatter keys that rebuild changed (`preserved`, or extra names in
//! `updated`). gsd edits the line 1.14.0 would edit — and that field's
//! frontmatter mirror — and nothing else, so its lists name only the fields
//! asked for that changed (PARITY.md, G11). Each write is checked first:
//! gsd's edit must land on 1.14.0's line, and 1.14.0's reader must read the
//! new value back from gsd's result, or the call is handed on untouched.
//! Handed on as well: the session fields `state update` writes only inside
//! `## Session` (Stopped At, Paused At), the frontmatter-key writes 1.14.0
//! makes where the body has no such line, a `## Session` section 1.14.0
//! would rewrite whole, values that span lines or are empty, and
//! STATE.md text with line breaks other than `\n` and `\r\n`.

use serde_json::{Map, Value, json};

use super::super::commands::store;
use super::super::compat::js::{is_js_space, trim};
use super::super::compat::roadmap_text::{escape, js_re};
use super::named_args::{Spec, parse};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out, js_string};
use super::state_fields::{extract, read_state, strip_frontmatter, table_row_at};
use crate::doc::span::{Edit, Span};
use crate::edit::state::FieldChange;
use crate::ops::OpError;

/// 1.14.0's frontmatter keys and what each is derived from
/// (`FIELD_CLASSIFICATION` of `state-transition.cjs`).
const CLASSIFIED: &[(&str, &str)] = &[
    ("gsd_state_version", "free"),
    ("milestone", "external"),
    ("milestone_name", "external"),
    ("current_phase", "body"),
    ("current_phase_name", "curated"),
    ("current_plan", "body"),
    ("status", "body"),
    ("stopped_at", "body"),
    ("paused_at", "body"),
    ("last_updated", "free"),
    ("last_activity", "body"),
    ("last_activity_desc", "body"),
    ("state_head", "free"),
    ("progress", "curated"),
    ("progress.total_phases", "disk"),
    ("progress.completed_phases", "disk"),
    ("progress.total_plans", "disk"),
    ("progress.completed_plans", "disk"),
    ("progress.percent", "disk"),
];

/// The body labels each frontmatter key is read from
/// (`FRONTMATTER_BODY_SOURCE`), in 1.14.0's order.
const BODY_SOURCE: &[(&str, &[&str])] = &[
    ("current_phase", &["Current Phase"]),
    ("current_phase_name", &["Current Phase Name"]),
    ("current_plan", &["Current Plan"]),
    ("status", &["Status"]),
    ("stopped_at", &["Stopped At", "Stopped at"]),
    ("paused_at", &["Paused At"]),
    ("last_activity", &["Last Activity", "Last activity"]),
    ("last_activity_desc", &["Last Activity Description"]),
];

/// The keys whose body line 1.14.0 writes only inside `## Session`.
const SESSION_SCOPED: &[&str] = &["stopped_at", "paused_at"];

fn classification(key: &str) -> Option<&'static str> {
    CLASSIFIED.iter().find(|(k, _)| *k == key).map(|(_, s)| *s)
}

fn body_source(key: &str) -> Option<&'static [&'static str]> {
    BODY_SOURCE.iter().find(|(k, _)| *k == key).map(|(_, l)| *l)
}

/// `frontmatterKeyForBodyField`: the key a body label feeds (case-blind).
fn key_for_label(label: &str) -> Option<&'static str> {
    let wanted = trim(label).to_lowercase();
    BODY_SOURCE
        .iter()
        .find(|(_, ls)| ls.iter().any(|l| l.to_lowercase() == wanted))
        .map(|(k, _)| *k)
}

/// `validateFieldName`: a letter, then up to 60 letters, digits, spaces,
/// `_ . - /`.
fn valid_field_name(f: &str) -> bool {
    let mut chars = f.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && f.len() <= 61
        && chars.all(|c| c.is_ascii_alphanumeric() || " _.-/".contains(c))
}

/// A reply with 1.14.0's `created: true` where the write made a section.
pub(super) fn with_created(mut out: Value, created: bool) -> Value {
    if created {
        out["created"] = json!(true);
    }
    out
}

pub(super) fn fail(message: impl Into<String>) -> Refusal {
    Refusal::Fail(Failure::new("unknown", message))
}

/// Text whose lines 1.14.0's `^`/`$` and gsd's edit see alike: breaks are
/// `\n` or `\r\n` only.
fn plain_breaks(text: &str) -> bool {
    !text.contains(['\u{2028}', '\u{2029}'])
        && text
            .match_indices('\r')
            .all(|(i, _)| text[i + 1..].starts_with('\n'))
}

/// One line 1.14.0's `stateReplaceField` would write: where the line
/// starts and ends (before its break) and where the replaced value starts.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Target {
    line: usize,
    value: usize,
    end: usize,
}

impl Target {
    fn old<'t>(&self, text: &'t str) -> &'t str {
        &text[self.value..self.end]
    }
    /// The line as 1.14.0 leaves it (`joinFieldReplacement`).
    fn written(&self, text: &str, value: &str) -> String {
        let prefix = &text[self.line..self.value];
        let sep = if !value.is_empty() && !prefix.ends_with([' ', '\t']) {
            " "
        } else {
            ""
        };
        format!("{prefix}{sep}{value}")
    }
}

fn line_end(text: &str, from: usize) -> usize {
    let end = text[from..].find('\n').map_or(text.len(), |i| from + i);
    if text[..end].ends_with('\r') {
        end - 1
    } else {
        end
    }
}

/// Where `stateReplaceField(text, field, …)` writes, if anywhere.
fn target(text: &str, field: &str) -> Option<Target> {
    let e = escape(field);
    for p in [
        format!(r"(?im)^[ \t]*\*\*{e}:\*\*[ \t]*"),
        format!(r"(?im)^{e}:[ \t]*"),
    ] {
        if let Ok(Some(m)) = js_re(&p).find(text) {
            return Some(Target {
                line: m.start(),
                value: m.end(),
                end: line_end(text, m.end()),
            });
        }
    }
    let (line, value) = table_row_at(text, field)?;
    let start = value.as_ptr() as usize - text.as_ptr() as usize;
    Some(Target {
        line,
        value: start,
        end: start + value.len(),
    })
}

/// Whether 1.14.0's reconciliation counts `field` as changed between the
/// two documents (its body value, trimmed; absent on one side counts).
fn changed(before: &str, after: &str, field: &str) -> bool {
    let (b, a) = (
        extract(&strip_frontmatter(before), field),
        extract(&strip_frontmatter(after), field),
    );
    match (b, a) {
        (None, None) => false,
        (Some(b), Some(a)) => trim(&b) != trim(&a),
        _ => true,
    }
}

/// A value gsd writes as 1.14.0 does: one line, not empty, no spaces at
/// its ends (1.14.0 reads values back trimmed).
fn plain_value(v: &str) -> bool {
    !v.is_empty() && !v.contains(['\n', '\r']) && trim(v) == v
}

/// Lines added (a session section, or its missing fields) and the fields
/// they give values, whose frontmatter keys follow.
#[derive(Clone)]
pub(super) struct Inserted {
    /// What the lines are, for messages (`session`, `decision`, …).
    pub(super) label: &'static str,
    pub(super) edit: Edit,
    pub(super) fields: Vec<(&'static str, String)>,
}

/// `lines` with the file's line breaks: `\r\n` where STATE.md uses them
/// (1.14.0 writes `\n` and then turns the whole file's breaks to `\n`).
fn with_breaks_of(text: &str, lines: &str) -> String {
    if !text.contains("\r\n") {
        return lines.to_string();
    }
    let mut out = String::with_capacity(lines.len() + 8);
    let mut prev = '\0';
    for c in lines.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
}

/// One field write planned for gsd's edit: the label to set, the value,
/// and the line 1.14.0 would write.
pub(super) struct Planned {
    field: String,
    value: String,
    at: Target,
}

/// `normalizeStateStatus(status)`: the frontmatter's `status` for a body
/// `Status:` value — one of 1.14.0's tokens, else the value as written.
fn normalize_status(status: &str) -> String {
    const EXACT: &[(&str, &str)] = &[
        ("paused", "paused"),
        ("stopped", "paused"),
        ("executing", "executing"),
        ("in progress", "executing"),
        ("ready to execute", "executing"),
        ("planning", "planning"),
        ("ready to plan", "planning"),
        ("planning complete", "planning"),
        ("discussing", "discussing"),
        ("verifying", "verifying"),
        ("completed", "completed"),
        ("done", "completed"),
        ("complete", "completed"),
        ("phase complete", "completed"),
        ("phase complete — ready for verification", "verifying"),
        ("all phases complete", "completed"),
        ("milestone complete", "completed"),
        ("unknown", "unknown"),
    ];
    const ANCHORED: &[(&str, &str)] = &[
        (r"^executing phase\s+\S+$", "executing"),
        (r"^planning phase\s+\S+$", "planning"),
        (r"^verifying phase\s+\S+$", "verifying"),
        (r"^phase\s+\S+\s+complete$", "completed"),
        (r"^\S+\s+milestone complete$", "completed"),
        ("^complete\\s*[✓✔✅☑]?$", "completed"),
    ];
    let key = js_re(r"\s+")
        .replace_all(&trim(status).to_lowercase(), " ")
        .into_owned();
    if let Some((_, t)) = EXACT.iter().find(|(k, _)| *k == key) {
        return (*t).to_string();
    }
    ANCHORED
        .iter()
        .find(|(p, _)| js_re(p).is_match(&key).unwrap_or(false))
        .map_or_else(|| status.to_string(), |(_, t)| (*t).to_string())
}

/// The frontmatter value 1.14.0's rebuild gives `key` after its body label
/// was set to `value` (`Some(None)`: the rebuild keeps the key as it is);
/// `None` for the keys whose derivation gsd does not repeat.
///
/// `status` is the value's token unless a `Paused At` makes it `paused` or
/// the value is phase-completion prose (`Phase 3 complete`), which 1.14.0
/// keeps or demotes by the phase folders (#3578); `stopped_at` is the value
/// where the line is the one its rebuild reads — the session section's
/// (`## Session`, else `## Session Continuity`), or the body's first where
/// there is none.
fn mirrored(key: &str, value: &str, body: &str, line: Option<usize>) -> Option<Option<String>> {
    match key {
        "status"
            if extract(body, "Paused At").is_none()
                && !js_re(r"(?i)^\s*phase\s+\S+\s+complete\s*$")
                    .is_match(value)
                    .unwrap_or(false) =>
        {
            Some(Some(normalize_status(value)))
        }
        "stopped_at" => {
            let session = session_section(body);
            let read_here = match (session, line) {
                (Some((s, e)), Some(l)) => s <= l && l < e,
                (Some(_), None) => true,
                (None, _) => true,
            };
            Some(read_here.then(|| value.to_string()))
        }
        _ => None,
    }
}

/// `matchSessionSection(body)`: the body of the first level-2 `## Session`
/// heading, else of `## Session Continuity` (its text exactly, case-blind),
/// up to the next level-1 or level-2 heading, as byte offsets into `body`.
fn session_section(body: &str) -> Option<(usize, usize)> {
    let hs = super::markdown::tokenize_headings(body);
    let find = |name: &str| {
        hs.iter()
            .position(|h| h.level == 2 && trim(&h.text).eq_ignore_ascii_case(name))
    };
    let i = find("session").or_else(|| find("session continuity"))?;
    let end = hs[i + 1..]
        .iter()
        .find(|h| h.level <= 2)
        .map_or(body.len(), |h| h.offset);
    Some((hs[i].offset, end))
}

/// The frontmatter edit that follows a body label set to `value`: the key
/// it feeds set as 1.14.0's rebuild sets it, where STATE.md's frontmatter
/// holds that key; an error (the call goes on) where gsd cannot make it.
fn mirror_edit(
    st: &crate::model::state::State,
    core_fm: &serde_json::Map<String, Value>,
    body: &str,
    label: &str,
    value: &str,
    line: Option<usize>,
) -> Result<Option<Edit>, String> {
    let Some(key) = key_for_label(label) else {
        return Ok(None);
    };
    let fm = st.doc.fm().and_then(crate::doc::yaml::Node::as_map);
    let Some(fm) = fm else {
        return match core_fm.contains_key(key) {
            true => Err(format!(
                "gsd's edit cannot set frontmatter {key} (YAML gsd's parser does not read)"
            )),
            false => Ok(None),
        };
    };
    if !fm.iter().any(|(k, _)| k.as_str() == Some(key)) {
        return Ok(None);
    }
    match mirrored(key, value, body, line) {
        None => Err(format!(
            "gsd's edit does not derive 1.14.0's frontmatter {key}"
        )),
        Some(None) => Ok(None),
        Some(Some(v)) => crate::edit::state::set_fm_scalar(st, key, &v).map_err(|e| e.to_string()),
    }
}

/// gsd's edits for the planned writes: each value set on 1.14.0's line
/// (the value's own bytes; the line's label and trailing spaces kept), the
/// frontmatter key it feeds set as 1.14.0's rebuild sets it, and the
/// insertions; checked against 1.14.0's reader before the write and again
/// inside it.
fn changes(
    st: &crate::model::state::State,
    planned: &[Planned],
    inserts: &[Inserted],
) -> Result<Vec<FieldChange>, String> {
    let text = st.doc.text();
    let body = strip_frontmatter(text);
    let core_fm = super::frontmatter::extract(text).unwrap_or_default();
    let mut out = Vec::new();
    for p in planned {
        let old = p.at.old(text);
        let kept = old.trim_end_matches([' ', '\t']).len();
        let written = p.at.written(text, &p.value);
        let sep = &written[p.at.value - p.at.line..written.len() - p.value.len()];
        let mut ch = crate::edit::state::set_value_at(
            st,
            &p.field,
            Span::new(p.at.value, p.at.value + kept),
            &format!("{sep}{}", p.value),
        )
        .map_err(|e| e.to_string())?;
        let line = (p.at.line + body.len()).checked_sub(text.len());
        ch.edits
            .extend(mirror_edit(st, &core_fm, &body, &p.field, &p.value, line)?);
        out.push(ch);
    }
    for ins in inserts {
        let lines = with_breaks_of(text, &ins.edit.replacement);
        let mut edits = crate::edit::state::add_lines(st, ins.label, ins.edit.span, &lines)
            .map_err(|e| e.to_string())?
            .edits;
        for (label, value) in &ins.fields {
            let at = (ins.edit.span.start + body.len()).checked_sub(text.len());
            edits.extend(mirror_edit(st, &core_fm, &body, label, value, at)?);
        }
        out.push(FieldChange {
            label: ins.label.into(),
            before: String::new(),
            after: String::new(),
            edits,
        });
    }
    let edits: Vec<Edit> = out.iter().flat_map(|c| c.edits.iter().cloned()).collect();
    let after = crate::edit::apply(text, &edits)
        .map_err(|e| format!("gsd's edits do not apply together ({e})"))?;
    for p in planned {
        let read = extract(&strip_frontmatter(&after), &p.field);
        if read.as_deref().map(trim) != Some(p.value.as_str()) {
            return Err(format!(
                "1.14.0 would not read {} back from gsd's edit",
                p.field
            ));
        }
    }
    Ok(out)
}

/// Check gsd's edits on the tree as it is, then make them through the
/// write path (uncommitted, as 1.14.0 leaves them). A check that fails
/// hands the call on; a refusal of gsd's write path (conflict markers, a
/// read-only file) fails it.
pub(super) fn write(
    call: &CoreCall,
    what: &str,
    planned: &[Planned],
    inserts: &[Inserted],
) -> Result<(), Refusal> {
    let ws =
        crate::model::Workspace::load_with(call.project, crate::model::workspace::Scope::Index)
            .map_err(|e| hand_on(format!(" here ({e})")))?;
    let st = crate::ops::state::state_of(&ws).map_err(|e| hand_on(format!(" here ({e})")))?;
    if let Err(why) = changes(st, planned, inserts) {
        return Err(
            match why.starts_with("gsd's") || why.starts_with("1.14.0") {
                true => hand_on(why),
                false => fail(why),
            },
        );
    }
    drop(ws);
    let engine = super::super::Call {
        project: call.project,
        args: call.args,
        cwd: call.cwd,
    };
    store(&engine, |ws| {
        crate::ops::state::fields(ws, what, |_, st| {
            changes(st, planned, inserts).map_err(crate::edit::EditError::Other)
        })
    })
    .map(|_| ())
    .map_err(|e: OpError| fail(e.to_string()))
}

/// STATE.md's text as 1.14.0 reads it, or `None` where there is none.
pub(super) fn state_text(call: &CoreCall) -> Result<Option<String>, Refusal> {
    let Some((content, _)) = read_state(&call.project.join(".planning/STATE.md"))? else {
        return Ok(None);
    };
    if !plain_breaks(&content) {
        return Err(hand_on(
            " for STATE.md line breaks other than \\n and \\r\\n",
        ));
    }
    Ok(Some(content))
}

/// `explainUpdateFailure(field)`.
fn explain_update_failure(field: &str) -> String {
    if let Some(source) = body_source(field) {
        return format!(
            "Field \"{field}\" is a body-derived frontmatter key and is not directly writable. Update its body source instead: state update \"{}\" <value>.",
            source[0]
        );
    }
    if let Some(source) = classification(field) {
        let derived = match source {
            "disk" => "derived from a scan of .planning/phases/ and is not directly writable",
            "external" => "derived from ROADMAP.md and is not directly writable",
            "free" => "recomputed on every write and is not directly writable",
            "curated" => {
                "maintained by the write path and is not directly writable through this command"
            }
            _ => "body-derived and is not directly writable",
        };
        return format!("Field \"{field}\" is a frontmatter key that is {derived}.");
    }
    if let Some(key) = key_for_label(field) {
        return format!(
            "Field \"{field}\" not found in STATE.md. It is the body source for frontmatter key \"{key}\" — add the \"{field}:\" line to the body, or update \"{key}\" directly to repair a document whose body source is missing."
        );
    }
    format!("Field \"{field}\" not found in STATE.md")
}

/// `state update FIELD VALUE` → `{updated, preserved}` (or `reason` where
/// 1.14.0 finds no line to write).
pub fn update(call: &CoreCall) -> Result<Out, Refusal> {
    parse(
        call.args,
        &Spec {
            values: &[],
            booleans: &[],
            positionals: 2,
        },
    )
    .map_err(Refusal::Fail)?;
    let (Some(field), Some(value)) = (
        call.args.first().filter(|f| !f.is_empty()),
        call.args.get(1),
    ) else {
        return Err(fail("field and value required for state update"));
    };
    if !valid_field_name(field) {
        return Err(fail(format!(
            "state update: Invalid field name: \"{field}\""
        )));
    }
    let not_found = || {
        Out::json(&json!({
            "updated": false,
            "reason": explain_update_failure(field),
            "preserved": [],
        }))
    };
    let Some(content) = state_text(call)? else {
        return Ok(not_found());
    };
    if key_for_label(field).is_some_and(|k| SESSION_SCOPED.contains(&k)) {
        return Err(hand_on(
            " for a session field (1.14.0 writes it inside ## Session)",
        ));
    }
    let body_start = content.len() - strip_frontmatter(&content).len();
    let Some(at) = target(&content[body_start..], field) else {
        let fm = super::frontmatter::extract(&content).map_err(|u| hand_on(u.0))?;
        let from_body = body_source(field).is_some_and(|labels| {
            labels
                .iter()
                .any(|l| extract(&content[body_start..], l).is_some())
        });
        if body_start > 0
            && fm.contains_key(field.as_str())
            && body_source(field).is_some()
            && !from_body
        {
            return Err(hand_on(" where 1.14.0 writes the frontmatter key itself"));
        }
        return Ok(not_found());
    };
    let at = Target {
        line: at.line + body_start,
        value: at.value + body_start,
        end: at.end + body_start,
    };
    let old = at.old(&content);
    if !plain_value(value) || trim(old).is_empty() {
        return Err(hand_on(" for an empty or multi-line value"));
    }
    if at.written(&content, value) != content[at.line..at.end] {
        if trim(old) == value {
            return Err(hand_on(" for a value equal but for its spaces"));
        }
        write(
            call,
            "update",
            &[Planned {
                field: field.clone(),
                value: value.clone(),
                at,
            }],
            &[],
        )?;
    }
    Ok(Out::json(&json!({"updated": true, "preserved": []})))
}

/// `state patch --field value …` or `state patch '{"field": "value"}'` →
/// `{updated, failed}`, raw `true` when any field was set.
pub fn patch(call: &CoreCall) -> Result<Out, Refusal> {
    let mut patches: Vec<(String, String)> = Vec::new();
    let mut put = |k: String, v: String| match patches.iter_mut().find(|(x, _)| *x == k) {
        Some(slot) => slot.1 = v,
        None => patches.push((k, v)),
    };
    if call.args.len() == 1 && trim(&call.args[0]).starts_with('{') {
        let parsed: Value = serde_json::from_str(&call.args[0])
            .map_err(|_| hand_on(" for JSON 1.14.0 cannot parse (its message is V8's)"))?;
        let Value::Object(m) = parsed else {
            return Err(fail(
                "state patch: JSON input must be an object of field/value pairs.",
            ));
        };
        for (k, v) in m {
            if !k.is_empty() {
                put(k, js_string(&v));
            }
        }
    } else {
        for pair in call.args.chunks(2) {
            let key = pair[0].strip_prefix("--").unwrap_or(&pair[0]).to_string();
            if let (false, Some(v)) = (key.is_empty(), pair.get(1)) {
                put(key, v.clone());
            }
        }
    }
    // A JavaScript object lists index-like keys first, in number order.
    if patches
        .iter()
        .any(|(k, _)| k.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(hand_on(" for a field named by a number"));
    }
    if let Some((k, _)) = patches.iter().find(|(k, _)| !valid_field_name(k)) {
        return Err(fail(format!("state patch: Invalid field name: \"{k}\"")));
    }
    let content = state_text(call)?.unwrap_or_default();
    let body_start = content.len() - strip_frontmatter(&content).len();
    let body = &content[body_start..];
    let fm = if body_start > 0 {
        super::frontmatter::extract(&content).map_err(|u| hand_on(u.0))?
    } else {
        Map::new()
    };
    let mut planned: Vec<Planned> = Vec::new();
    let mut after = content.clone();
    for (field, value) in &patches {
        match target(body, field) {
            Some(t) => {
                let at = Target {
                    line: t.line + body_start,
                    value: t.value + body_start,
                    end: t.end + body_start,
                };
                if !plain_value(value) || trim(at.old(&content)).is_empty() {
                    return Err(hand_on(" for an empty or multi-line value"));
                }
                if planned.iter().any(|p| p.at.line == at.line) {
                    return Err(hand_on(" for two fields on one line"));
                }
                if at.written(&content, value) != content[at.line..at.end] {
                    planned.push(Planned {
                        field: field.clone(),
                        value: value.clone(),
                        at,
                    });
                }
            }
            None if fm.contains_key(field.as_str()) && classification(field).is_none() => {
                return Err(hand_on(" where 1.14.0 writes a frontmatter key"));
            }
            None => {}
        }
    }
    // The text 1.14.0 leaves, for its reconciliation of what changed.
    let mut lines: Vec<&Planned> = planned.iter().collect();
    lines.sort_by_key(|p| std::cmp::Reverse(p.at.line));
    for p in lines {
        let written = p.at.written(&content, &p.value);
        after.replace_range(p.at.line..p.at.end, &written);
    }
    let updated: Vec<&String> = patches
        .iter()
        .map(|(f, _)| f)
        .filter(|f| planned.iter().any(|p| p.field == **f) && changed(&content, &after, f))
        .collect();
    let failed: Vec<&String> = patches
        .iter()
        .map(|(f, _)| f)
        .filter(|f| !updated.contains(f))
        .collect();
    if !planned.is_empty() {
        write(call, "patch", &planned, &[])?;
    }
    let raw = if updated.is_empty() { "false" } else { "true" };
    Ok(Out::with_raw(
        &json!({"updated": updated, "failed": failed}),
        raw,
    ))
}

/// `new Date().toISOString()`.
fn now_iso() -> String {
    jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// `state record-session [--stopped-at S] [--resume-file F]` →
/// `{recorded, updated[, created]}`: the session's time, where it stopped
/// and the file to resume from, set where STATE.md shows them, and the
/// missing ones added (after a `## Session Continuity` heading, else in a
/// new `## Session` section at the end).
pub fn record_session(call: &CoreCall) -> Result<Out, Refusal> {
    let named = parse(
        call.args,
        &Spec {
            values: &["stopped-at", "resume-file"],
            booleans: &[],
            positionals: 0,
        },
    )
    .map_err(Refusal::Fail)?;
    let stopped = named.value("stopped-at").filter(|s| !s.is_empty());
    let resume = named.value("resume-file");
    if stopped.is_none() && resume.is_none() {
        return Err(fail(
            "stopped-at or resume-file required for state record-session",
        ));
    }
    let Some(content) = state_text(call)? else {
        return Ok(Out::json(&json!({"error": "STATE.md not found"})));
    };
    let now = now_iso();
    let mut planned: Vec<Planned> = Vec::new();
    let mut reported: Vec<&str> = Vec::new();
    let mut plan = |label: &'static str, value: &str, at: Target| -> Result<bool, Refusal> {
        if !plain_value(value) || trim(at.old(&content)).is_empty() {
            return Err(hand_on(" for an empty or multi-line session value"));
        }
        let moves = at.written(&content, value) != content[at.line..at.end];
        if moves {
            planned.push(Planned {
                field: label.into(),
                value: value.into(),
                at,
            });
        }
        Ok(moves)
    };
    let mut last_session = false;
    for label in ["Last session", "Last Date"] {
        if let Some(at) = target(&content, label) {
            plan(label, &now, at)?;
            reported.push(label);
            last_session = true;
        }
    }
    let mut stopped_matched = false;
    if let Some(s) = stopped
        && let Some(at) = target(&content, "Stopped At")
    {
        stopped_matched = true;
        if plan("Stopped At", s, at)? {
            reported.push("Stopped At");
        }
    }
    let mut resume_set = false;
    match resume {
        Some(r) => {
            if let Some(at) = target(&content, "Resume File") {
                plan("Resume File", r, at)?;
                reported.push("Resume File");
                resume_set = true;
            }
        }
        None => {
            let existing = extract(&content, "Resume File");
            let default = existing
                .as_deref()
                .is_none_or(|v| trim(v).is_empty() || trim(v).eq_ignore_ascii_case("none"));
            if default
                && let Some(at) = target(&content, "Resume File")
                && plan("Resume File", "None", at)?
            {
                reported.push("Resume File");
            }
        }
    }
    // 1.14.0 adds what it could not set (#944).
    let needs_stopped = stopped.is_some() && !stopped_matched;
    let needs_resume = resume.is_some() && !resume_set;
    let needs_last = !last_session;
    let mut inserts = Vec::new();
    let mut created = false;
    if needs_stopped || needs_resume || needs_last {
        let stopped_value = stopped.unwrap_or("None");
        let resume_value = resume.unwrap_or("None");
        let added = |stop: bool, res: bool| {
            let mut f = Vec::new();
            if stop {
                f.push(("Stopped At", stopped_value.to_string()));
            }
            if res {
                f.push(("Resume File", resume_value.to_string()));
            }
            f
        };
        if js_re(r"(?im)^## Session[ \t]*\r?$")
            .is_match(&content)
            .unwrap_or(false)
        {
            return Err(hand_on(
                " where 1.14.0 rewrites the whole ## Session section",
            ));
        }
        if let Ok(Some(m)) = js_re(r"(?im)^## Session Continuity[ \t]*\r?\n").find(&content) {
            let mut lines = Vec::new();
            if needs_last {
                lines.push(format!("**Last session:** {now}"));
            }
            if needs_stopped {
                lines.push(format!("**Stopped at:** {stopped_value}"));
            }
            if needs_resume {
                lines.push(format!("**Resume file:** {resume_value}"));
            }
            inserts.push(Inserted {
                label: "session",
                edit: Edit::new(Span::empty(m.end()), lines.join("\n") + "\n"),
                fields: added(needs_stopped, needs_resume),
            });
        } else if js_re(r"(?im)^## Session Continuity[ \t]*\r?$")
            .is_match(&content)
            .unwrap_or(false)
        {
            return Err(hand_on(
                " for a ## Session Continuity heading ending the file",
            ));
        } else {
            let kept = content.trim_end_matches(is_js_space).len();
            inserts.push(Inserted {
                label: "session",
                edit: Edit::new(
                    Span::new(kept, content.len()),
                    format!(
                        "\n\n## Session\n\n**Last session:** {now}\n**Stopped at:** {stopped_value}\n**Resume file:** {resume_value}\n"
                    ),
                ),
                fields: added(true, true),
            });
        }
        if [needs_stopped, needs_resume].iter().any(|n| *n) && !plain_value(stopped_value) {
            return Err(hand_on(" for a multi-line session value"));
        }
        created = true;
        if needs_last {
            reported.push("Last session");
        }
        if needs_stopped {
            reported.push("Stopped At");
        }
        if needs_resume {
            reported.push("Resume File");
        }
    }
    // What 1.14.0's reconciliation reports: the fields whose value moved.
    let mut edits: Vec<Edit> = inserts.iter().map(|i| i.edit.clone()).collect();
    for p in &planned {
        edits.push(Edit::new(
            Span::new(p.at.line, p.at.end),
            p.at.written(&content, &p.value),
        ));
    }
    let after = crate::edit::apply(&content, &edits).map_err(|e| hand_on(format!(" ({e})")))?;
    let mut updated: Vec<&str> = Vec::new();
    for f in &reported {
        if !updated.contains(f) && changed(&content, &after, f) {
            updated.push(f);
        }
    }
    // A field the new lines gave a value it did not have (`Stopped at:
    // None`) moved too; 1.14.0 finds it last, through the frontmatter key
    // it feeds (a field feeding none it does not report).
    for ins in &inserts {
        for (label, _) in &ins.fields {
            if !updated.contains(label)
                && key_for_label(label).is_some()
                && changed(&content, &after, label)
            {
                updated.push(label);
            }
        }
    }
    if after == content {
        updated.clear();
    }
    if !planned.is_empty() || !inserts.is_empty() {
        write(call, "record-session", &planned, &inserts)?;
    }
    if !updated.is_empty() {
        let out = with_created(json!({"recorded": true, "updated": updated}), created);
        return Ok(Out::with_raw(&out, "true"));
    }
    let reason = if reported.is_empty() {
        "no session fields found in STATE.md to update"
    } else {
        "the matched session field(s) already held the reported value — no bytes changed"
    };
    Ok(Out::with_raw(
        &json!({"recorded": false, "reason": reason}),
        "false",
    ))
}
