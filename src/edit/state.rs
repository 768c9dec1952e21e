//! STATE.md edits: set a field everywhere it is shown, add list entries.
//!
//! A field may be shown in the frontmatter (`current_phase: 4`) and in the
//! body (`Phase: 4 of 9 (Name)`); `set_field` rewrites the value in each
//! place and nothing else, keeping the compound shape (`of 9`, the name in
//! parentheses), the quoting style and any trailing comment. Nothing is
//! ever recomputed here: derived values change only through `state sync`.

use crate::doc::yaml::{Node, Typed, Value};
use crate::doc::{Edit, Span};
use crate::model::state::{State, field_key, label_key, parse_position};
use crate::model::{PhaseId, Workspace};

use super::{EditError, check_conflicts, scalar};

/// The edits for one field, and how to describe them.
#[derive(Debug, Clone)]
pub struct FieldChange {
    /// How the field is named in messages (`current phase`).
    pub label: String,
    pub before: String,
    pub after: String,
    pub edits: Vec<Edit>,
}

fn file_name(state: &State) -> String {
    state.doc.rel_path.display().to_string()
}

/// Every field name STATE.md shows (body labels and frontmatter keys).
pub fn known_fields(state: &State) -> Vec<String> {
    let mut names: Vec<String> = state.fields.iter().map(|f| f.label.clone()).collect();
    if let Some(map) = state.doc.fm().and_then(Node::as_map) {
        names.extend(
            map.iter()
                .filter_map(|(k, _)| k.as_str().map(str::to_owned)),
        );
    }
    names.dedup();
    names
}

fn unknown(state: &State, name: &str) -> EditError {
    let known = known_fields(state);
    let suggestion = known
        .iter()
        .map(|k| (strsim::jaro_winkler(&field_key(name), &field_key(k)), k))
        .filter(|(s, _)| *s > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k.clone());
    EditError::UnknownField {
        file: file_name(state),
        field: name.to_owned(),
        suggestion,
        known,
    }
}

/// The phase `value` names, with its roadmap (or folder) name.
fn resolve_phase(ws: &Workspace, value: &str) -> Result<(PhaseId, Option<String>), EditError> {
    let all_phases = || {
        let mut ids: Vec<PhaseId> = ws
            .roadmap
            .as_ref()
            .map(|r| r.all_phase_ids())
            .unwrap_or_default();
        for p in ws.current_phases() {
            if let Some(id) = &p.id
                && !ids.iter().any(|i| i.same(id))
            {
                ids.push(id.clone());
            }
        }
        ids.sort();
        ids.iter().map(PhaseId::unpadded).collect::<Vec<_>>()
    };
    let Some(id) = PhaseId::parse(value.trim().trim_start_matches("Phase ")) else {
        return Err(EditError::UnknownPhase {
            value: value.to_owned(),
            phases: all_phases(),
        });
    };
    let in_roadmap = ws.roadmap.as_ref().and_then(|r| {
        r.phase(&id)
            .map(|p| p.name.clone())
            .or_else(|| r.checklist_entry(&id).map(|c| c.name.clone()))
    });
    let on_disk = ws.phase(&id).map(|p| p.slug.replace('-', " "));
    match (in_roadmap, on_disk) {
        (None, None) => Err(EditError::UnknownPhase {
            value: value.to_owned(),
            phases: all_phases(),
        }),
        (name, disk) => Ok((id, name.or(disk))),
    }
}

/// The frontmatter copy of a body field set to the body's new text: the
/// body is what the field says (`Current Plan: Not started` may follow
/// `current_plan: 2`), so the copy keeps its type only when the text has it
/// and otherwise becomes that text; a list or mapping is still refused.
fn fm_mirror_edit(key: &str, node: &Node, value: &str) -> Result<Edit, EditError> {
    match fm_scalar_edit(key, node, value) {
        Err(EditError::WrongType { .. }) if node.as_scalar().is_some() => Ok(Edit::new(
            node.span,
            scalar::render(Some(node), value, false),
        )),
        other => other,
    }
}

/// A scalar frontmatter value's edit, checking the new value fits its type.
fn fm_scalar_edit(key: &str, node: &Node, value: &str) -> Result<Edit, EditError> {
    let Some(old) = node.as_scalar() else {
        let expected = if matches!(node.value, Value::Map(_)) {
            "a mapping"
        } else {
            "a list"
        };
        return Err(EditError::WrongType {
            field: key.to_owned(),
            expected,
            value: value.to_owned(),
        });
    };
    let probe = crate::doc::yaml::Scalar {
        text: value.into(),
        style: crate::doc::yaml::Style::Plain,
        tag: None,
    };
    let keep_type = match (old.typed(), probe.typed()) {
        (Typed::Int(_), Typed::Int(_))
        | (Typed::Bool(_), Typed::Bool(_))
        | (Typed::Float(_), Typed::Float(_) | Typed::Int(_)) => true,
        (Typed::Int(_), _) if old.style == crate::doc::yaml::Style::Plain => {
            return Err(EditError::WrongType {
                field: key.to_owned(),
                expected: "an integer",
                value: value.to_owned(),
            });
        }
        (Typed::Bool(_), _) if old.style == crate::doc::yaml::Style::Plain => {
            return Err(EditError::WrongType {
                field: key.to_owned(),
                expected: "true or false",
                value: value.to_owned(),
            });
        }
        _ => false,
    };
    Ok(Edit::new(
        node.span,
        scalar::render(Some(node), value, keep_type),
    ))
}

/// Set field `name` (camelCase, snake_case or the body label) to `value`.
/// The body lines a field name means. `Current Plan: 2` beside `Plan: 2 of
/// 3 in current phase` (the legacy counter and the Current Position line)
/// share a key, yet a name that is one of the labels as written means that
/// line. The phase position is the exception: its lines move together or
/// not at all.
fn named_lines(state: &State, name: &str) -> Vec<crate::model::state::BodyField> {
    let body: Vec<_> = state.body_fields(name).cloned().collect();
    let written: Vec<_> = body
        .iter()
        .filter(|f| label_key(&f.label) == label_key(name))
        .cloned()
        .collect();
    if body.len() > 1 && !written.is_empty() && field_key(name) != "currentphase" {
        written
    } else {
        body
    }
}

/// A name that means several lines: refused, the lines listed.
fn ambiguous(state: &State, name: &str, lines: &[crate::model::state::BodyField]) -> EditError {
    EditError::AmbiguousField {
        file: file_name(state),
        field: name.to_owned(),
        candidates: lines.iter().map(|f| (f.line, f.value.clone())).collect(),
    }
}

/// The value `state get NAME` shows: the one [`set_field`] compares with,
/// so that setting it back changes no byte. A name whose lines disagree
/// (the same label on several lines) is refused with the lines listed, as
/// `set_field` refuses it: get and set never pick different lines.
pub fn shown_value(state: &State, name: &str) -> Result<String, EditError> {
    let body = named_lines(state, name);
    if body.is_empty() && state.fm_field(name).is_none() {
        return Err(unknown(state, name));
    }
    if body.len() > 1 {
        return Err(ambiguous(state, name, &body));
    }
    Ok(match body.first() {
        Some(f) => f.value.clone(),
        None => state.shown(name).unwrap_or_default(),
    })
}

pub fn set_field(
    ws: &Workspace,
    state: &State,
    name: &str,
    value: &str,
) -> Result<FieldChange, EditError> {
    let text = state.doc.text();
    if state.doc.source.text().is_none() {
        return Err(EditError::NotText {
            file: file_name(state),
        });
    }
    check_conflicts(&file_name(state), text)?;
    // A field's value never ends in spaces: a line's trailing spaces are a
    // markdown hard break, which the edit keeps as it is. So a value handed
    // back with the line's trailing spaces (gsd-sdk's regex captures them)
    // is the same value, and does not get the break twice.
    let value = value.trim_end_matches([' ', '\t']);
    let key = field_key(name);
    let body = named_lines(state, name);
    let fm = state.fm_field(name).map(|(k, n)| (k.to_owned(), n.clone()));
    if body.is_empty() && fm.is_none() {
        return Err(unknown(state, name));
    }
    if body.len() > 1 {
        return Err(ambiguous(state, name, &body));
    }
    // The value `state get` shows: setting it back changes nothing, whatever
    // form the frontmatter and the body each keep (`status: executing`
    // beside `Status: Executing Phase 03`, `Phase: 01`).
    let shown = match body.first() {
        Some(f) => Some(f.value.clone()),
        None => state.shown(name),
    };
    // Line breaks at the end do not count: `$(gsd state get F)` drops them
    // (a `|` block in the frontmatter ends in one).
    if let Some(shown) = shown
        && shown.trim_end_matches(['\n', '\r']) == value.trim_end_matches(['\n', '\r'])
    {
        return Ok(FieldChange {
            label: body
                .first()
                .map_or_else(|| name.to_owned(), |f| f.label.to_lowercase()),
            before: shown.clone(),
            after: shown,
            edits: Vec::new(),
        });
    }
    let label = body
        .first()
        .map(|f| f.label.to_lowercase())
        .or_else(|| fm.as_ref().map(|(k, _)| k.replace('_', " ")))
        .unwrap_or_else(|| name.to_owned());
    let mut edits = Vec::new();
    if key == "currentphase" {
        let (id, phase_name) = resolve_phase(ws, value)?;
        let before = state
            .current_phase()
            .map(|p| p.phase.unpadded())
            .unwrap_or_default();
        let label = if label == "phase" {
            "current phase".to_owned()
        } else {
            label
        };
        for f in &body {
            let new = match parse_position(&f.value) {
                Some(pos) => {
                    let mut s = id.unpadded();
                    if let Some(of) = pos.of {
                        s.push_str(&format!(" of {of}"));
                    }
                    // Keep whatever followed the position, replacing the
                    // name where it stands: `(Name)`, or after ` - `/` — `/`: `.
                    let rest = f.value.find('(').map(|i| &f.value[i..]).unwrap_or("");
                    if !rest.is_empty() {
                        let after_paren = rest.find(')').map(|i| &rest[i + 1..]).unwrap_or("");
                        s.push_str(&format!(
                            " ({}){after_paren}",
                            phase_name.clone().unwrap_or_default()
                        ));
                    } else {
                        let tail = position_tail(&f.value);
                        let sep = [" - ", " — ", " – ", ": "]
                            .into_iter()
                            .find(|sep| tail.starts_with(sep));
                        match (sep, &phase_name) {
                            (Some(sep), Some(n)) => s.push_str(&format!("{sep}{n}")),
                            _ => s.push_str(tail),
                        }
                    }
                    s
                }
                None => id.unpadded(),
            };
            edits.push(Edit::new(f.value_span, new));
        }
        if let Some((_, node)) = &fm {
            // The phase was validated above; `2.1` or `12A` may replace `2`.
            edits.push(Edit::new(
                node.span,
                scalar::render(Some(node), &id.unpadded(), true),
            ));
        }
        if let (Some((_, node)), Some(n)) = (state.fm_field("current_phase_name"), &phase_name) {
            edits.push(fm_scalar_edit("current_phase_name", node, n)?);
        }
        // `Current focus: Phase 1 — Foundation` follows the current phase.
        if let Some(f) = state.body_field("Current focus")
            && let Some(new) = focus_for(&f.value, &id, phase_name.as_deref())
            && new != f.value
        {
            edits.push(Edit::new(f.value_span, new));
        }
        return Ok(FieldChange {
            label,
            before,
            after: id.unpadded(),
            edits,
        });
    }
    let before = body
        .first()
        .map(|f| f.value.clone())
        .or_else(|| fm.as_ref().and_then(|(_, n)| n.as_str().map(str::to_owned)))
        .unwrap_or_default();
    for f in &body {
        if value.contains(['\n', '\r']) {
            return Err(EditError::WrongType {
                field: f.label.clone(),
                expected: "one line of text",
                value: value.to_owned(),
            });
        }
        edits.push(Edit::new(f.value_span, value.to_owned()));
    }
    if let Some((k, node)) = &fm {
        if body.is_empty() && (node.as_scalar().is_none() || value.contains('\n')) {
            // A list or mapping (`progress:`), or lines of text, is set as
            // `fm set` sets it: YAML, JSON included, in the block style it
            // has (a `|` block stays one).
            edits.extend(super::frontmatter::set(&state.doc, k, &|old| {
                super::frontmatter::yaml_text(&state.doc, value, old)
            })?);
        } else {
            edits.push(if body.is_empty() {
                fm_scalar_edit(k, node, value)?
            } else {
                fm_mirror_edit(k, node, value)?
            });
        }
    }
    Ok(FieldChange {
        label,
        before,
        after: value.to_owned(),
        edits,
    })
}

/// One body field's value set, the field chosen by the caller (gsd-sdk's
/// rules pick fields by exact label, not by field key); None when it
/// already reads `value`. The frontmatter is left to `set_fm_scalar`.
pub fn set_line(
    state: &State,
    field: &crate::model::state::BodyField,
    value: &str,
) -> Result<Option<FieldChange>, EditError> {
    check_conflicts(&file_name(state), state.doc.text())?;
    if value.contains(['\n', '\r']) {
        return Err(EditError::WrongType {
            field: field.label.clone(),
            expected: "one line of text",
            value: value.to_owned(),
        });
    }
    let value = value.trim_end_matches([' ', '\t']);
    if field.value == value {
        return Ok(None);
    }
    Ok(Some(FieldChange {
        label: field.label.to_lowercase(),
        before: field.value.clone(),
        after: value.to_owned(),
        edits: vec![Edit::new(field.value_span, value.to_owned())],
    }))
}

/// The value at `span` of STATE.md's text set to `value` — a field line
/// another reader chose (GSD Core's `stateReplaceField` finds a field by its
/// own rules): the span's text replaced, nothing else. `label` names the
/// field in messages.
pub fn set_value_at(
    state: &State,
    label: &str,
    span: Span,
    value: &str,
) -> Result<FieldChange, EditError> {
    if value.contains(['\n', '\r']) || span.slice(state.doc.text()).contains('\n') {
        return Err(EditError::WrongType {
            field: label.to_owned(),
            expected: "one line of text",
            value: value.to_owned(),
        });
    }
    add_lines(state, label, span, value)
}

/// Lines another reader placed (GSD Core's list entries and new sections):
/// the text at `span` replaced by `lines`, checked as [`set_value_at`] is
/// but for line breaks.
pub fn add_lines(
    state: &State,
    label: &str,
    span: Span,
    lines: &str,
) -> Result<FieldChange, EditError> {
    if state.doc.source.text().is_none() {
        return Err(EditError::NotText {
            file: file_name(state),
        });
    }
    check_conflicts(&file_name(state), state.doc.text())?;
    splice(state, label, span, lines)
}

fn splice(state: &State, label: &str, span: Span, value: &str) -> Result<FieldChange, EditError> {
    let text = state.doc.text();
    let before = span.slice(text).to_owned();
    let edits = if before == value {
        Vec::new()
    } else {
        vec![Edit::new(span, value.to_owned())]
    };
    Ok(FieldChange {
        label: label.to_lowercase(),
        before,
        after: value.to_owned(),
        edits,
    })
}

/// The frontmatter scalar `key` set to `value`, when STATE.md keeps that
/// key and it reads otherwise; quoting and comments are kept.
pub fn set_fm_scalar(state: &State, key: &str, value: &str) -> Result<Option<Edit>, EditError> {
    let Some(node) = state.doc.fm().and_then(Node::as_map).and_then(|m| {
        m.iter()
            .find_map(|(k, v)| (k.as_str() == Some(key)).then_some(v))
    }) else {
        return Ok(None);
    };
    if node.as_str() == Some(value) {
        return Ok(None);
    }
    fm_scalar_edit(key, node, value).map(Some)
}

/// The edit that moves STATE.md's `Phase: X of N` total by `delta` (a
/// phase added or inserted: +1), when the position shows a total.
pub fn shift_total(state: &State, delta: i64) -> Option<crate::doc::Edit> {
    shift_of(state, "currentPhase", delta)
}

/// The edit that moves the `of N` total of field `field` (`Phase: 1 of 6`,
/// `Plan: 2 of 3`) by `delta`, when the value shows a total.
pub fn shift_of(state: &State, field: &str, delta: i64) -> Option<crate::doc::Edit> {
    let f = state.body_field(field)?;
    let at = f.value.find(" of ")? + " of ".len();
    let digits = f.value[at..].bytes().take_while(u8::is_ascii_digit).count();
    let n: i64 = f.value[at..at + digits].parse().ok()?;
    let start = f.value_span.start + at;
    Some(crate::doc::Edit::new(
        crate::doc::Span::new(start, start + digits),
        (n + delta).max(0).to_string(),
    ))
}

/// `Phase 1 — Foundation` → `Phase 3 — <name of 3>`: the focus value with
/// the phase number (and the name after its separator) replaced; None when
/// it does not name a phase (free text stays the user's).
pub(crate) fn focus_for(
    value: &str,
    id: &crate::model::PhaseId,
    name: Option<&str>,
) -> Option<String> {
    let at = value.find("Phase ")? + "Phase ".len();
    let (_, rest) = crate::model::PhaseId::parse_prefix(&value[at..])?;
    let mut out = format!("{}{}", &value[..at], id.unpadded());
    let sep = [" — ", " - ", " – ", ": "]
        .into_iter()
        .find(|s| rest.starts_with(s));
    match (sep, name) {
        (Some(s), Some(n)) => {
            out.push_str(s);
            out.push_str(n);
        }
        _ => out.push_str(rest),
    }
    Some(out)
}

/// What follows `N` or `N of M` in a position value (` - Cleanup`).
fn position_tail(value: &str) -> &str {
    let t = value.trim_start();
    let t = t.strip_prefix("Phase ").unwrap_or(t);
    let Some((_, rest)) = crate::model::PhaseId::parse_prefix(t) else {
        return "";
    };
    match rest.trim_start().strip_prefix("of ") {
        Some(r) => {
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            &r[n..]
        }
        None => rest,
    }
}

/// Placeholders that the first real entry replaces.
fn is_placeholder(line: &str) -> bool {
    let t = line.trim().trim_end_matches('.').to_ascii_lowercase();
    matches!(
        t.as_str(),
        "none"
            | "none yet"
            | "no decisions yet"
            | "no blockers"
            | "no blockers yet"
            | "nothing yet"
            | "- none"
            | "- none yet"
    )
}

/// Add `- entry` to the list under the first heading matching `section`
/// (`title` names the heading created when there is none).
pub fn add_list_entry(
    state: &State,
    section: impl Fn(&str) -> bool,
    title: &str,
    entry: &str,
) -> Result<Vec<Edit>, EditError> {
    let text = state.doc.text();
    check_conflicts(&file_name(state), text)?;
    if entry.contains(['\n', '\r']) {
        return Err(EditError::WrongType {
            field: title.to_owned(),
            expected: "one line of text",
            value: entry.to_owned(),
        });
    }
    let nl = state.doc.source.eol();
    let md = &state.md;
    let item = format!("- {entry}");
    let Some((i, heading)) = md.find_heading(text, |t| section(&t.to_ascii_lowercase())) else {
        // GSD keeps its lists under `## Accumulated Context`: a new list
        // goes at that section's end, before the next `##` heading.
        if let Some((p, _)) = md.find_heading(text, |t| {
            t.trim().eq_ignore_ascii_case("accumulated context")
        }) {
            let end = md.section(p, state.doc.body().end).end;
            if end < text.len() {
                let sep = if text[..end].ends_with(&format!("{nl}{nl}")) {
                    ""
                } else {
                    nl
                };
                return Ok(vec![Edit::new(
                    Span::empty(end),
                    format!("{sep}### {title}{nl}{nl}{item}{nl}{nl}"),
                )]);
            }
        }
        let sep = if text.is_empty() || text.ends_with('\n') {
            ""
        } else {
            nl
        };
        return Ok(vec![Edit::new(
            Span::empty(text.len()),
            format!("{sep}{nl}### {title}{nl}{nl}{item}{nl}"),
        )]);
    };
    let span = md.section(i, state.doc.body().end);
    let items: Vec<_> = md.list_items_in(span).filter(|it| it.indent == 0).collect();
    if let Some(last) = items.last() {
        // After the last entry (and its continuation lines, if any).
        let mut end = last.line.full.end;
        for l in md.lines_in(Span::new(end, span.end)) {
            let s = l.span.slice(text);
            if s.starts_with([' ', '\t']) && !s.trim().is_empty() {
                end = l.full.end;
            } else {
                break;
            }
        }
        let sep = if text[..end].ends_with('\n') { "" } else { nl };
        return Ok(vec![Edit::new(
            Span::empty(end),
            format!("{sep}{item}{nl}"),
        )]);
    }
    for l in md.lines_in(span).skip(1) {
        if is_placeholder(l.span.slice(text)) {
            return Ok(vec![Edit::new(l.span, item)]);
        }
    }
    // A section with other content (a table, a paragraph): the list
    // starts after it, a blank line apart, so the table stays a table.
    if let Some(last) = md
        .lines_in(span)
        .skip(1)
        .filter(|l| !l.span.slice(text).trim().is_empty())
        .last()
    {
        let end = last.full.end;
        let sep = if text[..end].ends_with('\n') { "" } else { nl };
        return Ok(vec![Edit::new(
            Span::empty(end),
            format!("{sep}{nl}{item}{nl}"),
        )]);
    }
    // An empty section: the entry goes after the heading (and a blank line).
    let after_heading = heading.line.full.end;
    let next_blank = md
        .lines_in(Span::new(after_heading, span.end))
        .next()
        .is_some_and(|l| l.span.slice(text).trim().is_empty());
    Ok(vec![if next_blank {
        let l = md
            .lines_in(Span::new(after_heading, span.end))
            .next()
            .expect("checked");
        Edit::new(Span::empty(l.full.end), format!("{item}{nl}"))
    } else {
        Edit::new(Span::empty(after_heading), format!("{nl}{item}{nl}"))
    }])
}

/// Remove the list entry number `n` (1-based) or the first containing
/// `needle` from the section; an emptied section gets "None.".
pub fn remove_list_entry(
    state: &State,
    section: impl Fn(&str) -> bool,
    which: &str,
) -> Result<(String, Vec<Edit>), EditError> {
    let text = state.doc.text();
    check_conflicts(&file_name(state), text)?;
    let md = &state.md;
    let Some((i, _)) = md.find_heading(text, |t| section(&t.to_ascii_lowercase())) else {
        return Err(EditError::Other("STATE.md has no such section".into()));
    };
    let span = md.section(i, state.doc.body().end);
    let items: Vec<_> = md.list_items_in(span).filter(|it| it.indent == 0).collect();
    let chosen = match which.trim().parse::<usize>() {
        Ok(n) if n >= 1 && n <= items.len() => Some(items[n - 1]),
        Ok(_) => None,
        Err(_) => items.iter().copied().find(|it| {
            it.content
                .slice(text)
                .to_lowercase()
                .contains(&which.to_lowercase())
        }),
    };
    let Some(item) = chosen else {
        let listed: Vec<String> = items
            .iter()
            .enumerate()
            .map(|(i, it)| format!("{}. {}", i + 1, it.content.slice(text)))
            .collect();
        return Err(EditError::Other(format!(
            "no entry matches `{which}`; entries: {}",
            if listed.is_empty() {
                "none".into()
            } else {
                listed.join("; ")
            }
        )));
    };
    let removed = item.content.slice(text).to_owned();
    let edit = if items.len() == 1 {
        Edit::new(item.line.span, "None.")
    } else {
        Edit::new(item.line.full, "")
    };
    Ok((removed, vec![edit]))
}

/// Set a field only if STATE.md shows it (for commands that touch several
/// fields, each optional in real files).
fn set_if_shown(
    ws: &Workspace,
    state: &State,
    name: &str,
    value: &str,
    out: &mut Vec<FieldChange>,
) -> Result<(), EditError> {
    match set_field(ws, state, name, value) {
        Ok(ch) if ch.before != ch.after => {
            out.push(ch);
            Ok(())
        }
        Ok(_) | Err(EditError::UnknownField { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Today's date as GSD writes it.
pub fn today() -> String {
    jiff::Zoned::now().strftime("%Y-%m-%d").to_string()
}

/// `state advance`: the next plan of the current phase, or the next phase
/// of the roadmap when every plan of this one has a summary.
pub fn advance(ws: &Workspace, state: &State) -> Result<Vec<FieldChange>, EditError> {
    let Some(pos) = state.current_phase() else {
        return Err(EditError::Other(
            "STATE.md shows no current phase to advance from".into(),
        ));
    };
    let phase = ws
        .current_phases()
        .find(|p| p.id.as_ref().is_some_and(|i| i.same(&pos.phase)));
    let mut out = Vec::new();
    let plan_value = |k: usize, n: usize| {
        let old = state
            .body_field("currentPlan")
            .map(|f| f.value.clone())
            .unwrap_or_default();
        let tail = old
            .split_once(" of ")
            .and_then(|(_, rest)| rest.split_once(' ').map(|(_, t)| format!(" {t}")))
            .unwrap_or_default();
        format!("{k} of {n}{tail}")
    };
    if let Some(ph) = phase {
        if ph.plan_count() == 0 {
            return Err(EditError::Other(format!(
                "phase {} has no plans on disk, so there is nothing to advance past; plan it, or set the phase with `gsd state set currentPhase N`",
                pos.phase.unpadded()
            )));
        }
        if let Some(k) = ph.plan_files.iter().position(|f| !ph.has_summary_for(f)) {
            set_if_shown(
                ws,
                state,
                "currentPlan",
                &plan_value(k + 1, ph.plan_count()),
                &mut out,
            )?;
            set_if_shown(ws, state, "status", "Ready to execute", &mut out)?;
            set_if_shown(
                ws,
                state,
                "lastActivity",
                &format!(
                    "{} — ready for plan {}",
                    today(),
                    ph.plan_files[k].trim_end_matches("-PLAN.md")
                ),
                &mut out,
            )?;
            return Ok(out);
        }
    }
    let ids = super::progress::active_phases(ws);
    let next = ids.iter().find(|i| **i > pos.phase && !i.same(&pos.phase));
    match next {
        Some(next) => {
            set_if_shown(ws, state, "currentPhase", &next.unpadded(), &mut out)?;
            set_if_shown(ws, state, "currentPlan", "Not started", &mut out)?;
            set_if_shown(ws, state, "status", "Ready to plan", &mut out)?;
            set_if_shown(
                ws,
                state,
                "lastActivity",
                &format!("{} — phase {} complete", today(), pos.phase.unpadded()),
                &mut out,
            )?;
        }
        None => {
            set_if_shown(ws, state, "status", "Milestone complete", &mut out)?;
            set_if_shown(
                ws,
                state,
                "lastActivity",
                &format!(
                    "{} — phase {} complete, no phase left",
                    today(),
                    pos.phase.unpadded()
                ),
                &mut out,
            )?;
        }
    }
    Ok(out)
}

/// `state record-session`: when, where it stopped, what to resume from.
pub fn record_session(
    ws: &Workspace,
    state: &State,
    stopped_at: Option<&str>,
    resume_file: Option<&str>,
) -> Result<Vec<FieldChange>, EditError> {
    let mut out = Vec::new();
    let now = jiff::Zoned::now().strftime("%Y-%m-%d %H:%M").to_string();
    set_if_shown(ws, state, "lastSession", &now, &mut out)?;
    if let Some(s) = stopped_at {
        set_if_shown(ws, state, "stoppedAt", s, &mut out)?;
    }
    set_if_shown(
        ws,
        state,
        "resumeFile",
        resume_file.unwrap_or("None"),
        &mut out,
    )?;
    if out.is_empty() {
        return Err(EditError::Other(
            "STATE.md shows no session fields (Last session, Stopped at, Resume file)".into(),
        ));
    }
    Ok(out)
}

/// `state sync`: the only command that recomputes derived values — the
/// progress line and frontmatter counters, and the totals in `Phase: X of
/// Y` and `Plan: X of Y`.
pub fn sync(ws: &Workspace, state: &State) -> Result<Vec<FieldChange>, EditError> {
    let p = super::progress::compute(ws);
    let mut out = Vec::new();
    // The body's `Progress:` line (the frontmatter `progress` is a mapping, below).
    out.extend(progress_lines(
        state,
        &super::progress::bar(p.percent),
        usize::MAX,
    ));
    if let Some(progress) = state
        .doc
        .fm()
        .and_then(|m| m.get("progress"))
        .filter(|n| n.as_map().is_some())
    {
        for (key, value) in [
            ("total_phases", p.total_phases),
            ("completed_phases", p.completed_phases),
            ("total_plans", p.total_plans),
            ("completed_plans", p.completed_plans),
            ("percent", p.percent),
        ] {
            if let Some(node) = progress.get(key) {
                let new = value.to_string();
                if node.as_str() != Some(new.as_str()) {
                    out.push(FieldChange {
                        label: format!("progress.{key}"),
                        before: node.as_str().unwrap_or_default().to_owned(),
                        after: new.clone(),
                        edits: vec![Edit::new(node.span, new)],
                    });
                }
            }
        }
    }
    if let Some(pos) = state.current_phase() {
        if let Some(f) = state.body_field("currentPhase")
            && let (Some(of), Some((head, tail))) = (pos.of, f.value.split_once(" of "))
        {
            let rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
            if of as usize != p.total_phases {
                let value = format!("{head} of {}{rest}", p.total_phases);
                out.push(FieldChange {
                    label: "phase total".into(),
                    before: f.value.clone(),
                    after: value.clone(),
                    edits: vec![Edit::new(f.value_span, value)],
                });
            }
        }
        let plans = ws
            .current_phases()
            .find(|ph| ph.id.as_ref().is_some_and(|i| i.same(&pos.phase)))
            .map(|ph| ph.plan_count());
        if let (Some(n), Some(f)) = (plans, state.body_field("currentPlan"))
            && let Some((head, tail)) = f.value.split_once(" of ")
        {
            let digits = tail.chars().take_while(char::is_ascii_digit).count();
            if digits > 0 && tail[..digits] != n.to_string() {
                let value = format!("{head} of {n}{}", &tail[digits..]);
                out.push(FieldChange {
                    label: "plan total".into(),
                    before: f.value.clone(),
                    after: value.clone(),
                    edits: vec![Edit::new(f.value_span, value)],
                });
            }
        }
    }
    Ok(out)
}

/// The body's `Progress:` lines that show a value. A bare `progress:`
/// line opens a YAML mapping (frontmatter written without its `---`
/// fences), which is not a progress line to overwrite.
pub fn shown_progress(state: &State) -> impl Iterator<Item = &crate::model::state::BodyField> {
    state
        .body_fields("progress")
        .filter(|f| !f.value.trim().is_empty())
}

/// The body's first `limit` `Progress:` lines set to `value` (a bar and a
/// percentage). Only the body: the frontmatter `progress` is a mapping of
/// counters, which `sync` recomputes from disk.
pub fn progress_lines(state: &State, value: &str, limit: usize) -> Vec<FieldChange> {
    shown_progress(state)
        .take(limit)
        .filter(|f| f.value != value)
        .map(|f| FieldChange {
            label: "progress".into(),
            before: f.value.clone(),
            after: value.to_owned(),
            edits: vec![Edit::new(f.value_span, value.to_owned())],
        })
        .collect()
}

/// Add `row` to the first table under `## Performance Metrics`: after its
/// last row, or in place of its rows when they are empty or a `None yet`
/// placeholder. None when STATE.md has no such table (header and
/// separator lines).
pub fn add_metric_row(state: &State, row: &str) -> Option<FieldChange> {
    let text = state.doc.text();
    let body_start = state.doc.split.body().start;
    let body = &text[body_start..];
    let heading = regex::Regex::new(r"(?i)##\s*Performance Metrics").ok()?;
    let table = regex::Regex::new(r"\n\|[^\n]+\n\|[-|\s]+\n").ok()?;
    let at = heading.find(body)?.end();
    let rows_start = at + table.find(&body[at..])?.end();
    // The rows run to the next `\n##`, or to the end of the text.
    let rest = &body[rows_start..];
    let kept = rest[..rest.find("\n##").unwrap_or(rest.len())].trim_end();
    let kept_end = rows_start + kept.len();
    let eol = state.doc.source.eol();
    let (from, to, new) = if kept.trim().is_empty() {
        (rows_start, rows_start, format!("{row}{eol}"))
    } else if kept.contains("None yet") {
        (rows_start, kept_end, row.to_owned())
    } else {
        // After the line break that ends the last row.
        let after = &body[kept_end..];
        match ["\r\n", "\n"].into_iter().find(|b| after.starts_with(b)) {
            Some(b) => (
                kept_end + b.len(),
                kept_end + b.len(),
                format!("{row}{eol}"),
            ),
            None => (kept_end, kept_end, format!("{eol}{row}{eol}")),
        }
    };
    Some(FieldChange {
        label: "performance metrics".into(),
        before: kept.to_owned(),
        after: row.to_owned(),
        edits: vec![Edit::new(
            crate::doc::Span::new(body_start + from, body_start + to),
            new,
        )],
    })
}

/// Replace the section under the heading `heading` (matched exactly, any
/// level) with `heading` and `body`, or append it at the end of the file.
/// Used for generated blocks (the Ralph iteration history) that gsd owns:
/// everything outside the section stays byte for byte, and the file's line
/// endings are kept.
pub fn set_section(state: &State, heading: &str, body: &str) -> Result<Vec<Edit>, EditError> {
    let text = state.doc.text();
    if state.doc.source.text().is_none() {
        return Err(EditError::NotText {
            file: file_name(state),
        });
    }
    check_conflicts(&file_name(state), text)?;
    let nl = state.doc.source.eol();
    let title = heading.trim_start_matches('#').trim();
    let block = |lead: &str| {
        let mut s = format!("{lead}{heading}{nl}{nl}");
        for line in body.lines() {
            s.push_str(line);
            s.push_str(nl);
        }
        s
    };
    if let Some((i, _)) = state.md.find_heading(text, |t| t.trim() == title) {
        let span = state.md.section(i, state.doc.body().end);
        // Keep the blank line that separated the old section from the next one.
        let tail = if span.end < text.len() { nl } else { "" };
        return Ok(vec![Edit::new(span, block("") + tail)]);
    }
    let end = text.len();
    let lead = match () {
        _ if text.is_empty() => String::new(),
        _ if text.ends_with(&format!("{nl}{nl}")) || text.ends_with("\n\n") => String::new(),
        _ if text.ends_with('\n') => nl.to_owned(),
        _ => format!("{nl}{nl}"),
    };
    Ok(vec![Edit::new(Span::new(end, end), block(&lead))])
}

/// A field's text where STATE.md keeps it, each exactly as written: the
/// body line's value and the frontmatter scalar's source (quotes included).
/// `status: executing` beside `Status: Ready to execute` are two texts, and
/// putting a field back means putting back both.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FieldText {
    pub body: Option<String>,
    pub frontmatter: Option<String>,
}

/// The texts of field `name` now (a body label shown on several lines has
/// no single text: `None`).
pub fn field_text(state: &State, name: &str) -> Option<FieldText> {
    let mut body = state.body_fields(name);
    let first = body.next().map(|f| f.value.clone());
    if body.next().is_some() {
        return None;
    }
    let frontmatter = state
        .fm_field(name)
        .map(|(_, n)| n.span.slice(state.doc.text()).to_owned());
    (first.is_some() || frontmatter.is_some()).then_some(FieldText {
        body: first,
        frontmatter,
    })
}

/// The edits that put field `name` back to `was` (where it still has that
/// place), byte for byte.
pub fn restore_field(state: &State, name: &str, was: &FieldText) -> Result<Vec<Edit>, EditError> {
    check_conflicts(&file_name(state), state.doc.text())?;
    let text = state.doc.text();
    let mut edits = Vec::new();
    let mut body = state.body_fields(name);
    if let (Some(f), None, Some(old)) = (body.next(), body.next(), &was.body)
        && f.value_span.slice(text) != old
    {
        edits.push(Edit::new(f.value_span, old.clone()));
    }
    if let (Some((_, node)), Some(old)) = (state.fm_field(name), &was.frontmatter)
        && node.span.slice(text) != old
    {
        edits.push(Edit::new(node.span, old.clone()));
    }
    Ok(edits)
}
