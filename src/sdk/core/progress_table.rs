//! ROADMAP.md's progress table as GSD Core 1.14.0 finds it
//! (`locateProgressTable`, `findTableWithColumns`, `parseMarkdownTable`) and
//! the counts it derives from it (`deriveProgressFromRoadmap`): the first
//! pipe table, under `## Progress` when the roadmap has that heading, whose
//! header names `Phase`, `Plans Complete`, `Status` and `Completed`.
//!
//! smart-entry's completion check and the state contract's phase list both
//! read this one table, so both are built on this module.

use std::collections::HashMap;

use super::super::compat::js::trim;
use super::super::compat::roadmap_text::js_re;
use super::milestone_window::is_sentinel;

/// The columns a progress table's header names, in any order.
const REQUIRED: [&str; 4] = ["Phase", "Plans Complete", "Status", "Completed"];

/// One parsed pipe table: its header cells and, per row, each column's cell
/// (a repeated column name keeps its last cell, as a JavaScript object
/// assignment does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<HashMap<String, String>>,
}

impl Table {
    /// `row[column] ?? ''`.
    pub fn cell<'a>(row: &'a HashMap<String, String>, column: &str) -> &'a str {
        row.get(column).map_or("", String::as_str)
    }
}

/// `splitTableRow`: a row's trimmed cells, one leading and one trailing `|`
/// dropped, split on every `|` not preceded by `\`, `\\` and `\|` unescaped.
pub fn split_row(line: &str) -> Vec<String> {
    let mut s = trim(line);
    s = s.strip_prefix('|').unwrap_or(s);
    s = s.strip_suffix('|').unwrap_or(s);
    let mut cells = Vec::new();
    let mut start = 0;
    let bytes = s.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'|' && (i == 0 || bytes[i - 1] != b'\\') {
            cells.push(&s[start..i]);
            start = i + 1;
        }
    }
    cells.push(&s[start..]);
    cells.into_iter().map(|c| unescape(trim(c))).collect()
}

/// `cell.replace(/\\([\\|])/g, '$1')`.
fn unescape(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len());
    let mut chars = cell.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some('\\' | '|')) {
            out.push(chars.next().unwrap_or('\\'));
        } else {
            out.push(c);
        }
    }
    out
}

/// `isDelimiterRow`: every cell, white space removed, is `:?-+:?`.
pub(super) fn is_delimiter_row(cells: &[String]) -> bool {
    cells.iter().all(|c| {
        let squeezed: String = c
            .chars()
            .filter(|ch| !super::super::compat::js::is_js_space(*ch))
            .collect();
        let inner = squeezed.strip_prefix(':').unwrap_or(&squeezed);
        let inner = inner.strip_suffix(':').unwrap_or(inner);
        !inner.is_empty() && inner.bytes().all(|b| b == b'-')
    })
}

/// Whether a line opens a pipe row: trimmed, it starts with `|` and holds
/// another.
fn opens_row(line: &str) -> bool {
    let t = trim(line);
    t.starts_with('|') && t[1..].contains('|')
}

/// `parseMarkdownTable` of the lines from a header on: `None` for every
/// shape 1.14.0 refuses (no delimiter row, a header and delimiter of
/// different widths, a ragged row).
fn parse_from(lines: &[&str]) -> Option<Table> {
    let header = lines.iter().position(|l| opens_row(l))?;
    let columns = split_row(lines[header]);
    let delimiter = lines.get(header + 1)?;
    if !trim(delimiter).starts_with('|') {
        return None;
    }
    let delimiter_cells = split_row(delimiter);
    if !is_delimiter_row(&delimiter_cells) || delimiter_cells.len() != columns.len() {
        return None;
    }
    let mut rows = Vec::new();
    for line in &lines[header + 2..] {
        if !trim(line).starts_with('|') {
            break;
        }
        let cells = split_row(line);
        if cells.len() != columns.len() {
            return None;
        }
        rows.push(columns.iter().cloned().zip(cells).collect());
    }
    Some(Table { columns, rows })
}

/// `parseMarkdownTable(text)`: the first pipe table in `text`.
pub fn parse(text: &str) -> Option<Table> {
    parse_from(&lines(text))
}

/// `text.split(/\r?\n/)`.
fn lines(text: &str) -> Vec<&str> {
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// `findTableWithColumns(text, required)`: the first table whose header
/// names every required column and that parses.
pub fn find_table_with_columns(text: &str, required: &[&str]) -> Option<Table> {
    let lines = lines(text);
    for (i, line) in lines.iter().enumerate() {
        if !opens_row(line) {
            continue;
        }
        let cols = split_row(line);
        if required.iter().all(|r| cols.iter().any(|c| c == r))
            && let Some(t) = parse_from(&lines[i..])
        {
            return Some(t);
        }
    }
    None
}

/// `locateProgressTable`: the progress table, looked for under the first
/// `## Progress` heading (up to the next `#` or `##` heading) when there is
/// one, else in the whole roadmap.
pub fn locate(roadmap: &str) -> Option<Table> {
    let scoped = match js_re(r"(?im)^##[ \t]+Progress\b")
        .find(roadmap)
        .ok()
        .flatten()
    {
        Some(m) => {
            let after = &roadmap[m.start()..];
            match js_re(r"\n#{1,2}[ \t]").find(after).ok().flatten() {
                Some(n) => &after[..n.start()],
                None => after,
            }
        }
        None => roadmap,
    };
    find_table_with_columns(scoped, &REQUIRED)
}

/// `deriveProgressFromRoadmap`'s phase counts: rows whose status is
/// `complete` (`None` for none) and rows that name a phase other than the
/// 0 and 999 sentinels (`None` for none); both `None` without a table.
pub fn derived_counts(roadmap: &str) -> (Option<usize>, Option<usize>) {
    let Some(table) = locate(roadmap) else {
        return (None, None);
    };
    let completed = table
        .rows
        .iter()
        .filter(|r| trim(Table::cell(r, "Status")).eq_ignore_ascii_case("complete"))
        .count();
    let total = table
        .rows
        .iter()
        .filter(|r| {
            let phase = trim(Table::cell(r, "Phase"));
            phase.starts_with(|c: char| c.is_ascii_digit()) && !is_sentinel(phase)
        })
        .count();
    (
        (completed > 0).then_some(completed),
        (total > 0).then_some(total),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_splits_on_unescaped_pipes_only() {
        assert_eq!(split_row("| a | b\\|c | d\\\\ |"), ["a", "b|c", "d\\"]);
        assert_eq!(split_row("  |x|"), ["x"]);
    }

    #[test]
    fn the_table_is_found_by_its_column_names_under_progress() {
        let roadmap = "# R\n\n| Phase | Status | Plans Complete | Completed |\n|---|---|---|---|\n| 9. Decoy | Complete | 1/1 | - |\n\n## Progress\n\n| Phase | Plans Complete | Status | Completed | Extra |\n|:--|--|--|--|--|\n| 1. A | 1/1 | Complete | 2026-01-01 | x |\n| 2. B | 0/2 | In progress | - | y |\n| 999.1 Later | 0/0 | Not started | - | z |\n\n## Next\n";
        let t = locate(roadmap).unwrap();
        assert_eq!(t.rows.len(), 3);
        assert_eq!(derived_counts(roadmap), (Some(1), Some(2)));
        // A ragged row makes the table unreadable, as 1.14.0 reads it.
        let ragged = roadmap.replace("| x |", "|");
        assert_eq!(derived_counts(&ragged), (None, None));
    }
}
