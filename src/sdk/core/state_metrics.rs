//! GSD Core 1.14.0's `state record-metric`: one row for a finished plan in
//! STATE.md's per-plan metrics table, added by gsd's exact edit through
//! the one write path, answered in 1.14.0's words.
//!
//! 1.14.0 finds the `Performance Metrics` section (a heading of any level,
//! up to the next heading of its level or above) and in it the table whose
//! header is exactly `Plan | Duration | Tasks | Files` (the section's other
//! tables, such as the velocity table by phase, are left alone); the row
//! goes after the table's last row. A section without that table gets one
//! under `**Per-Plan Metrics:**`; a STATE.md without the section gets the
//! section at the end. Where the table has no rows yet 1.14.0 drops the
//! section's lines after the table's delimiter; gsd keeps them (G11).

use serde_json::json;

use super::markdown::tokenize_headings;
use super::named_args::{Spec, parse};
use super::native::{CoreCall, Refusal};
use super::output::Out;
use super::progress_table::{is_delimiter_row, split_row};
use super::state_writes::{Inserted, state_text, with_created, write};
use crate::doc::span::{Edit, Span};

const HEADER: [&str; 4] = ["plan", "duration", "tasks", "files"];

/// Each line of `text` with its byte offset.
fn lines_with_offsets(text: &str) -> Vec<(usize, &str)> {
    text.split('\n')
        .scan(0, |at, l| {
            let start = *at;
            *at += l.len() + 1;
            Some((start, l))
        })
        .collect()
}

/// `collectSection(content, /^performance metrics$/i)`: where its body
/// starts (the line after the heading) and ends (its text, trailing white
/// space left out).
fn metrics_section(content: &str) -> Option<(usize, usize)> {
    let hs = tokenize_headings(content);
    let i = hs.iter().position(|h| {
        super::super::compat::js::trim(&h.text).eq_ignore_ascii_case("performance metrics")
    })?;
    let start = content[hs[i].offset..]
        .find('\n')
        .map_or(content.len(), |n| hs[i].offset + n + 1);
    let end = hs[i + 1..]
        .iter()
        .find(|h| h.level <= hs[i].level)
        .map_or(content.len(), |h| h.offset);
    let end = end.max(start);
    let body = content[start..end].trim_end_matches(super::super::compat::js::is_js_space);
    Some((start, start + body.len()))
}

/// The edit adding `row` as 1.14.0 places it; whether it made the section.
fn row_edit(content: &str, row: &str) -> (Edit, bool) {
    let Some((start, end)) = metrics_section(content) else {
        let kept = content
            .trim_end_matches(super::super::compat::js::is_js_space)
            .len();
        return (
            Edit::new(
                Span::new(kept, content.len()),
                format!(
                    "\n\n## Performance Metrics\n\n| Plan | Duration | Tasks | Files |\n|------|----------|-------|-------|\n{row}\n"
                ),
            ),
            true,
        );
    };
    let lines = lines_with_offsets(&content[start..end]);
    let header = (0..lines.len().saturating_sub(1)).find(|&i| {
        let t = super::super::compat::js::trim(lines[i].1);
        let delimiter = lines[i + 1].1;
        if !t.starts_with('|') || !t[1..].contains('|') {
            return false;
        }
        if !super::super::compat::js::trim(delimiter).starts_with('|') {
            return false;
        }
        let (cells, delim) = (split_row(lines[i].1), split_row(delimiter));
        is_delimiter_row(&delim)
            && delim.len() == cells.len()
            && cells.len() == HEADER.len()
            && cells
                .iter()
                .zip(HEADER)
                .all(|(c, h)| super::super::compat::js::trim(c).to_lowercase() == h)
    });
    let Some(h) = header else {
        // The section's own line break after its text ends the new table.
        let close = if content[end..].starts_with('\n') {
            ""
        } else {
            "\n"
        };
        return (
            Edit::new(
                Span::empty(end),
                format!(
                    "\n**Per-Plan Metrics:**\n\n| Plan | Duration | Tasks | Files |\n|------|----------|-------|-------|\n{row}{close}"
                ),
            ),
            false,
        );
    };
    let mut last = h + 1;
    while last + 1 < lines.len()
        && super::super::compat::js::trim(lines[last + 1].1).starts_with('|')
    {
        last += 1;
    }
    let (at, text) = lines[last];
    (
        Edit::new(Span::empty(start + at + text.len()), format!("\n{row}")),
        false,
    )
}

/// `state record-metric --phase N --plan M --duration D [--tasks T]
/// [--files F]` → `{recorded, phase, plan, duration[, created]}`.
pub fn record_metric(call: &CoreCall) -> Result<Out, Refusal> {
    let named = parse(
        call.args,
        &Spec {
            values: &["phase", "plan", "duration", "tasks", "files"],
            booleans: &[],
            positionals: 0,
        },
    )
    .map_err(Refusal::Fail)?;
    let Some(content) = state_text(call)? else {
        return Ok(Out::json(&json!({"error": "STATE.md not found"})));
    };
    let given = |f: &str| named.value(f).filter(|v| !v.is_empty());
    let (Some(phase), Some(plan), Some(duration)) =
        (given("phase"), given("plan"), given("duration"))
    else {
        return Ok(Out::json(
            &json!({"error": "phase, plan, and duration required"}),
        ));
    };
    let row = format!(
        "| Phase {phase} P{plan} | {duration} | {} tasks | {} files |",
        given("tasks").unwrap_or("-"),
        given("files").unwrap_or("-")
    );
    if row.contains(['\n', '\r']) {
        return Err(super::native::hand_on("for a metric that spans lines"));
    }
    if content.contains('\r') {
        return Err(super::native::hand_on("for STATE.md with \\r line breaks"));
    }
    let (edit, created) = row_edit(&content, &row);
    write(
        call,
        "metric",
        &[],
        &[Inserted {
            label: "metric",
            edit,
            fields: Vec::new(),
        }],
    )?;
    let out = with_created(
        json!({"recorded": true, "phase": phase, "plan": plan, "duration": duration}),
        created,
    );
    Ok(Out::with_raw(&out, "true"))
}
