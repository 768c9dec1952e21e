//! gsd-sdk's rules for finding a STATE.md body field (`stateExtractField`,
//! `stateReplaceField`, `updateCurrentPositionFields` in 1.42.3), applied to
//! gsd's typed body fields so an edit still lands on a field's value span.
//!
//! They differ from gsd's own `State::body_field` on purpose: gsd-sdk
//! matches a label exactly (`Plan` is not `Current Plan`), takes the first
//! `**Label:**` anywhere before any plain `Label:` line, and accepts a plain
//! label only at the very start of a line. Which line a workflow's write
//! lands on follows from these rules, so the parity answers do too.

use crate::model::state::{BodyField, State};

/// Whether `f` is written `**Label:** value` (the only bold form gsd-sdk's
/// pattern `\*\*Label:\*\*` matches; `**Label**: value` is not).
fn bold_colon_inside(state: &State, f: &BodyField) -> bool {
    let text = state.doc.text();
    f.bold
        && text[..f.label_span.start].ends_with("**")
        && text[f.label_span.end..].starts_with(":**")
}

/// Whether `f` is a plain `Label:` at the first byte of its line.
fn plain_at_line_start(state: &State, f: &BodyField) -> bool {
    let text = state.doc.text();
    !f.bold
        && text[..f.label_span.start]
            .chars()
            .next_back()
            .is_none_or(|c| c == '\n')
}

/// `stateExtractField` / `stateReplaceField`: the first `**label:**` field
/// in the body, else the first plain `label:` line (labels compared without
/// case). None when STATE.md shows neither.
pub fn field<'a>(state: &'a State, label: &str) -> Option<&'a BodyField> {
    let named = |f: &&BodyField| f.label.eq_ignore_ascii_case(label);
    let fields = || state.fields.iter().filter(named);
    fields()
        .find(|f| bold_colon_inside(state, f))
        .or_else(|| fields().find(|f| plain_at_line_start(state, f)))
}

/// `updateCurrentPositionFields`: the first plain `label:` line inside the
/// `## Current Position` section, which ends at the next heading of level 2
/// or deeper (gsd-sdk's section pattern stops at any `\n##`). `Status` and
/// `Plan` are matched with their case, `Last activity` without.
pub fn position_field<'a>(state: &'a State, label: &str) -> Option<&'a BodyField> {
    let text = state.doc.text();
    let headings = &state.md.headings;
    let at = headings.iter().position(|h| {
        h.level >= 2 && h.text.slice(text).eq_ignore_ascii_case("Current Position")
    })?;
    let start = headings[at].line.full.end;
    let end = headings[at + 1..]
        .iter()
        .find(|h| h.level >= 2)
        .map_or(text.len(), |h| h.line.span.start);
    let same = |l: &str| {
        if label.eq_ignore_ascii_case("Last activity") {
            l.eq_ignore_ascii_case(label)
        } else {
            l == label
        }
    };
    state.fields.iter().find(|f| {
        (start..end).contains(&f.label_span.start)
            && same(&f.label)
            && plain_at_line_start(state, f)
    })
}

/// `normalizeStateStatus` (without a paused-at time): the frontmatter
/// `status` gsd-sdk derives from the body's `Status:` text; a status none
/// of its words name is kept as written.
pub fn normalized_status(status: &str) -> String {
    let s = status.to_lowercase();
    let has = |w: &str| s.contains(w);
    let word = if has("paused") || has("stopped") {
        "paused"
    } else if has("executing") || has("in progress") {
        "executing"
    } else if has("planning") || has("ready to plan") {
        "planning"
    } else if has("discussing") {
        "discussing"
    } else if has("verif") {
        "verifying"
    } else if has("complete") || has("done") {
        "completed"
    } else if has("ready to execute") {
        "executing"
    } else if status.is_empty() {
        "unknown"
    } else {
        return status.to_owned();
    };
    word.to_owned()
}
