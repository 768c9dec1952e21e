//! ROADMAP.md use cases: the progress table from what is on disk.

use crate::edit;
use crate::model::Workspace;
use crate::model::roadmap::Roadmap;

use super::{Change, OpError, rel, rewrite};

/// The roadmap of `ws`, when it can be edited.
pub fn roadmap_of(ws: &Workspace) -> Result<&Roadmap, OpError> {
    if ws.roadmap.is_none() {
        return Err(OpError::Missing {
            file: ws
                .rel(&ws.planning.join("ROADMAP.md"))
                .display()
                .to_string(),
            hint: crate::model::shipped::missing_roadmap_hint(ws),
        });
    }
    Ok(edit::roadmap::editable(ws)?)
}

/// `roadmap update-progress`.
pub fn update_progress(ws: &Workspace) -> Result<Change, OpError> {
    let rm = roadmap_of(ws)?;
    let edits = edit::roadmap::update_progress(ws)?;
    Ok(Change::writes(
        "docs(roadmap): update progress table from disk".into(),
        vec![format!(
            "{}: {} progress cell(s) updated",
            rel(ws, rm.doc.path()).display(),
            edits.len()
        )],
        vec![rewrite(&rm.doc, edit::apply(rm.doc.text(), &edits)?)],
    ))
}

/// A phase's plan progress as the execute-plan step records it.
#[derive(Debug, Clone)]
pub struct PlanProgress<'a> {
    /// The phase as the caller named it (`3`, `03`, `PRJ-3`, `2.1`).
    pub phase: &'a str,
    pub plans: usize,
    pub summaries: usize,
    /// The phase's summary file names (their plans' checkboxes get ticked).
    pub summary_files: &'a [String],
    /// The completion date written when every plan has a summary.
    pub today: &'a str,
}

/// The pattern for a phase number in roadmap text: leading zeros and a
/// project code optional (`0*3`, `0*2A\.1`).
fn phase_number_pattern(phase: &str) -> String {
    let stripped = regex::Regex::new(r"(?i)^[A-Z]{1,6}-(\d)")
        .expect("pattern")
        .replace(phase, "$1")
        .into_owned();
    match regex::Regex::new(r"(?i)^0*(\d+)([A-Z])?((?:\.\d+)*)$")
        .expect("pattern")
        .captures(&stripped)
    {
        Some(c) => {
            let int = c[1].trim_start_matches('0');
            format!(
                "0*{}{}{}",
                regex::escape(if int.is_empty() { "0" } else { int }),
                c.get(2)
                    .map_or(String::new(), |m| regex::escape(m.as_str())),
                c.get(3)
                    .map_or(String::new(), |m| regex::escape(m.as_str())),
            )
        }
        None => regex::escape(phase),
    }
}

/// Replace the first match of `re` in the current milestone's part of the
/// roadmap: after the last `</details>` (shipped milestones sit in such
/// blocks), else inside the last block, else anywhere.
fn replace_current(text: &str, re: &fancy_regex::Regex, with: &str) -> String {
    let first = |s: &str| re.replace(s, with).into_owned();
    let Some(at) = text.rfind("</details>") else {
        return first(text);
    };
    let cut = at + "</details>".len();
    let after = first(&text[cut..]);
    if after != text[cut..] {
        return format!("{}{after}", &text[..cut]);
    }
    let blocks = fancy_regex::Regex::new(r"(?i)<details>[\s\S]*?</details>").expect("pattern");
    match blocks.find_iter(text).flatten().last() {
        Some(m) => format!(
            "{}{}{}",
            &text[..m.start()],
            first(m.as_str()),
            &text[m.end()..]
        ),
        None => first(text),
    }
}

/// Record one phase's plan progress in ROADMAP.md the way GSD's
/// execute-plan step does: its progress-table row (plans, status, date),
/// its `**Plans:**` line, its checkbox when complete (with the date), and
/// the checkbox of each plan that has a summary. Each is one line edited
/// in place; a CRLF line keeps its `\r`.
pub fn record_plan_progress(ws: &Workspace, p: &PlanProgress) -> Result<Change, OpError> {
    let rm = roadmap_of(ws)?;
    let mut text = rm.doc.text().to_string();
    let num = phase_number_pattern(p.phase);
    let complete = p.summaries >= p.plans;
    let status = if complete {
        "Complete"
    } else if p.summaries > 0 {
        "In Progress"
    } else {
        "Planned"
    };
    let counts = format!(" {}/{} ", p.summaries, p.plans);
    let date = if complete {
        format!(" {} ", p.today)
    } else {
        "  ".to_owned()
    };
    let row =
        regex::Regex::new(&format!(r"(?im)^(\|\s*{num}\.?\s[^|]*(?:\|[^\n]*))$")).expect("pattern");
    if let Some(m) = row.find(&text) {
        let full = m.as_str();
        let (body, cr) = match full.strip_suffix('\r') {
            Some(b) => (b, "\r"),
            None => (full, ""),
        };
        let pieces: Vec<&str> = body.split('|').collect();
        let mut cells: Vec<String> = pieces[1..pieces.len() - 1]
            .iter()
            .map(|c| c.to_string())
            .collect();
        let padded = format!(" {status:<11}");
        match cells.len() {
            5 => {
                cells[2] = counts.clone();
                cells[3] = padded;
                cells[4] = date.clone();
            }
            4 => {
                cells[1] = counts.clone();
                cells[2] = padded;
                cells[3] = date.clone();
            }
            _ => {}
        }
        // JavaScript's `slice(1, -1)` drops what follows the last `|`.
        let new = format!("|{}|{cr}", cells.join("|"));
        text = format!("{}{new}{}", &text[..m.start()], &text[m.end()..]);
    }
    let plans_line = fancy_regex::Regex::new(&format!(
        r"(?i)(#{{2,4}}\s*Phase\s+{num}(?=[:\s])(?:(?!\n#{{2,4}})[\s\S])*?\*\*Plans:\*\*[ \t]*)[^\n\r]+"
    ))
    .expect("pattern");
    let word = if complete { "complete" } else { "executed" };
    text = replace_current(
        &text,
        &plans_line,
        &format!("${{1}}{}/{} plans {word}", p.summaries, p.plans),
    );
    if complete {
        let checkbox = fancy_regex::Regex::new(&format!(
            r"(?i)(-\s*\[) (\]\s*[^\n\r]*Phase\s+{num}[:\s][^\n\r]*)"
        ))
        .expect("pattern");
        text = replace_current(
            &text,
            &checkbox,
            &format!("${{1}}x${{2}} (completed {})", p.today),
        );
    }
    for f in p.summary_files {
        let id = f
            .replacen("-SUMMARY.md", "", 1)
            .replacen("SUMMARY.md", "", 1);
        if id.is_empty() {
            continue;
        }
        let plan = regex::Regex::new(&format!(
            r"(?i)(-\s*\[) (\]\s*(?:\*\*)?{}(?:\*\*)?)",
            regex::escape(&id)
        ))
        .expect("pattern");
        text = plan.replace(&text, "${1}x${2}").into_owned();
    }
    let file = rel(ws, rm.doc.path()).display().to_string();
    let writes = if text == rm.doc.text() {
        Vec::new()
    } else {
        vec![rewrite(&rm.doc, text)]
    };
    Ok(Change::writes(
        format!(
            "docs(roadmap): phase {} plans {}/{}",
            p.phase, p.summaries, p.plans
        ),
        vec![format!(
            "{file}: phase {} {}/{} plans, {status}",
            p.phase, p.summaries, p.plans
        )],
        writes,
    ))
}
