//! The current milestone's window of ROADMAP.md as GSD Core 1.14.0 cuts it
//! (`roadmap-parser.cjs`, for every phase-id convention but `bracket`),
//! with the scope it reports beside it: whether the window could be cut
//! cleanly (`complete`), is a best effort (`unscoped`, `truncated`) or could
//! not be read (`unreadable`).
//!
//! 1.14.0 changed this reading from 1.42.3's (`compat::roadmap_text`): the
//! window is found through fence-aware headings, a closed milestone's
//! `<details>` inside it is dropped, phase entries may be bullets or table
//! rows, and the phase folders that belong to the milestone come from the
//! same window. `roadmap analyze`, `init manager` and the progress reads
//! all stand on it, so it is one module they share.

use std::collections::HashSet;
use std::path::Path;

use super::super::compat::js;
use super::super::compat::roadmap_text::{escape, group, re};
use super::markdown::{Heading, strip_fenced_code, strip_tagged_blocks, tokenize_headings};
use super::phase_id::{extract_phase_token, strip_project_code};

/// 1.14.0's `SCOPE`: how far a scoped answer can be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Complete,
    Truncated,
    Unscoped,
    Unreadable,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Complete => "complete",
            Scope::Truncated => "truncated",
            Scope::Unscoped => "unscoped",
            Scope::Unreadable => "unreadable",
        }
    }
}

/// A phase id as the roadmap spells it in headings, bullets and tables.
const ID: &str = r"[A-Za-z0-9_][A-Za-z0-9_.-]*";
/// A `(tag)` before a heading's colon.
const TAG: &str = r"(?:\s*\([^)\n]{0,200}\))?";
/// A milestone-shaped heading line (not a phase heading).
const MILESTONE_LINE: &str = r"(?mi)^#{1,3}\s+(?!Phase\s+\S)[^\n]*";

/// `isClosedMilestoneHeading`: closed, archived, shipped… and not also
/// marked active.
pub fn is_closed(text: &str) -> bool {
    let b = js::JS_WORD_BOUNDARY;
    let closed = re(&format!(
        r"(?i){b}(?:CLOSED|ARCHIVED|ABANDONED|SHIPPED|FAILED){b}|✅|🗄"
    ));
    let active = re(&format!(
        r"(?i){b}(?:STARTED|ACTIVE|WIP){b}|in\s+progress|🚧|🔄"
    ));
    closed.is_match(text).unwrap_or(false) && !active.is_match(text).unwrap_or(false)
}

/// `stripShippedMilestones`: every plain `<details>` block removed.
pub fn strip_shipped(content: &str) -> String {
    strip_tagged_blocks(content, "details")
}

/// `stripClosedMilestoneDetails`: `<details>` blocks whose summary names a
/// closed milestone removed; the others kept.
fn strip_closed_details(content: &str) -> String {
    let summary = re(r"(?i)<summary[^>]*>([^<]*)</summary>");
    re(r"(?i)<details\b[^>]*>[\s\S]*?</details>")
        .replace_all(content, |c: &fancy_regex::Captures<str>| {
            let block = group(c, 0);
            match summary.captures(block).ok().flatten() {
                Some(s) if is_closed(group(&s, 1)) => String::new(),
                _ => block.to_string(),
            }
        })
        .into_owned()
}

/// A milestone heading line: where it starts and its text.
#[derive(Debug, Clone)]
struct Line {
    start: usize,
    text: String,
}

/// `locateMilestoneHeadings`: the milestone-shaped heading lines naming
/// `version` (followed by a word boundary).
fn locate(content: &str, version: &str) -> Vec<Line> {
    let boundary = re(&format!(r"(?i){}{}", escape(version), js::JS_WORD_BOUNDARY));
    re(MILESTONE_LINE)
        .find_iter(content)
        .flatten()
        .filter(|m| boundary.is_match(m.as_str()).unwrap_or(false))
        .map(|m| Line {
            start: m.start(),
            text: m.as_str().to_string(),
        })
        .collect()
}

/// `computeMilestoneSectionEnd`: the next heading at the same level or
/// above that names a version or a milestone mark, else the end.
fn section_end(content: &str, heading: &Line, headings: &[Heading]) -> usize {
    let level = re(r"^(#{1,3})\s")
        .captures(heading.text.as_str())
        .ok()
        .flatten()
        .map_or(1, |c| group(&c, 1).len());
    let after = heading.start + heading.text.len();
    headings
        .iter()
        .filter(|h| h.offset > heading.start && h.offset >= after && h.level <= level)
        .filter(|h| !re(r"(?i)^Phase\s+\S").is_match(&h.text).unwrap_or(false))
        .find(|h| {
            re(r"(?i)v\d+\.\d+|✅|📋|🚧")
                .is_match(&h.text)
                .unwrap_or(false)
        })
        .map_or(content.len(), |h| h.offset)
}

/// A milestone heading as `listMilestoneHeadings` gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct MilestoneHeading {
    pub heading: String,
    pub version: String,
    pub name: Option<String>,
    pub closed: bool,
}

/// `listMilestoneHeadings`: every milestone heading with a version token.
pub fn milestone_headings(content: &str) -> Vec<MilestoneHeading> {
    re(MILESTONE_LINE)
        .find_iter(content)
        .flatten()
        .filter_map(|m| {
            let heading = re(r"^#{1,3}\s+").replace(m.as_str(), "");
            let heading = js::trim(&heading).to_string();
            let (version, name) = heading_name(&heading, None)?;
            Some(MilestoneHeading {
                closed: is_closed(&heading),
                heading,
                version,
                name,
            })
        })
        .collect()
}

/// `extractMilestoneHeadingName`: the heading's own version token (the
/// expected version, extended, where the caller knows it) and the name
/// after it, `None` where nothing nameable follows.
fn heading_name(text: &str, expected: Option<&str>) -> Option<(String, Option<String>)> {
    let pattern = match expected {
        Some(v) => format!(r"(?i){}(?:[-.][A-Za-z0-9]+)*", escape(v)),
        None => r"(?i)v\d+(?:\.\d+)*(?:[-.][A-Za-z0-9]+)*".to_string(),
    };
    let m = re(&pattern).find(text).ok().flatten()?;
    let after = strip_leading_delimiter(&text[m.end()..]);
    let candidate = re(r"\s*(?:[✅📋🚧]\s*)+$").replace(&after, "");
    let name = (!candidate.is_empty() && nameable(&candidate)).then(|| candidate.into_owned());
    Some((m.as_str().to_string(), name))
}

/// `stripLeadingDelimiter`: leading space, dashes and colons off, trimmed.
fn strip_leading_delimiter(s: &str) -> String {
    let s = re(r"^[\s—–:-]+").replace(s, "");
    js::trim(&s).to_string()
}

/// `hasNameableContent`: a letter or a digit somewhere. In ASCII those
/// are exactly `[A-Za-z0-9]`, so the Unicode classes (a fifth of a
/// millisecond to compile) are built only for a name with other characters.
fn nameable(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_alphanumeric())
        || (!s.is_ascii() && re(r"[\p{L}\p{N}]").is_match(s).unwrap_or(false))
}

/// `getMilestoneInfo(cwd).value`: the current milestone's version and
/// name — STATE.md's milestone named by a 🚧 bullet or its open heading,
/// else the first 🚧 **vX.Y Name** bullet, else the first open milestone
/// heading, else a bare version anywhere outside phase headings.
/// `milestone_version` and `milestone_name` as GSD Core's inits and
/// `progress json` write them, one after the other, from [`milestone_info`].
pub(super) fn insert_milestone(
    out: &mut serde_json::Map<String, serde_json::Value>,
    milestone: &Option<(String, Option<String>)>,
) {
    out.insert(
        "milestone_version".into(),
        serde_json::json!(milestone.as_ref().map(|m| &m.0)),
    );
    out.insert(
        "milestone_name".into(),
        serde_json::json!(milestone.as_ref().and_then(|m| m.1.as_ref())),
    );
}

pub fn milestone_info(project: &Path) -> Option<(String, Option<String>)> {
    let bytes = std::fs::read(project.join(".planning/ROADMAP.md")).ok()?;
    let roadmap = String::from_utf8_lossy(&bytes);
    if let Some(version) = state_version(project) {
        let bullet = re(&format!(
            r"(?i)🚧\s*\*?\*?{}\*?\*?\s+([^*\n]+)",
            escape(&version)
        ));
        if let Some(c) = bullet.captures(roadmap.as_ref()).ok().flatten() {
            let name = strip_leading_delimiter(group(&c, 1));
            if !name.is_empty() && nameable(&name) {
                return Some((version, Some(name)));
            }
        }
        let matches = locate(&roadmap, &version);
        if let Some(selected) = matches
            .iter()
            .find(|m| !is_closed(&m.text))
            .or(matches.first())
        {
            let text = re(r"^#{1,3}\s+").replace(&selected.text, "");
            if !is_closed(&text)
                && let Some((_, Some(name))) = heading_name(&text, Some(&version))
            {
                return Some((version, Some(name)));
            }
        }
        return Some((version, None));
    }
    if let Some(c) = re(r"🚧\s*\*\*v(\d+(?:\.\d+)+)\s+([^*]+)\*\*")
        .captures(roadmap.as_ref())
        .ok()
        .flatten()
    {
        let name = js::trim(group(&c, 2));
        if nameable(name) {
            return Some((format!("v{}", group(&c, 1)), Some(name.to_string())));
        }
    }
    let cleaned = strip_shipped(&roadmap);
    if let Some(first) = milestone_headings(&cleaned).into_iter().find(|h| !h.closed) {
        return Some((first.version, first.name));
    }
    let without = re(r"(?im)^#{1,4}\s*Phase\s+\S[^\n]*$").replace_all(&cleaned, "");
    re(r"(?i)v\d+(?:\.\d+)+")
        .find(without.as_ref())
        .ok()
        .flatten()
        .map(|m| (m.as_str().to_string(), None))
}

/// `hasVersionedMilestones`.
fn has_versioned_milestones(content: &str) -> bool {
    re(r"(?mi)^#{1,3}\s+.*v\d+\.\d+")
        .is_match(content)
        .unwrap_or(false)
}

/// `BULLET_PHASE_LINE_PATTERN`: `- [x] **Phase 3: Name**`.
fn bullet_phase_line() -> String {
    format!(r"(?mi)^\s*[-*]\s+(?:\[[ xX]\]\s+)?\*\*Phase\s+({ID}){TAG}\s*[—–:\-]\s*(.+?)\*\*")
}

/// A phase heading's text (after the hashes).
fn phase_heading_text() -> String {
    format!(r"(?i)^(?:\[[^\]]{{1,200}}\]\s*)?Phase\s+({ID}){TAG}\s*:")
}

/// `hasPhaseEntries`: a phase heading (levels 2–4), a phase bullet or a
/// phase table row outside fenced code.
fn has_phase_entries(markdown: &str) -> bool {
    let heading = re(&phase_heading_text());
    if tokenize_headings(markdown)
        .iter()
        .any(|h| (2..=4).contains(&h.level) && heading.is_match(&h.text).unwrap_or(false))
    {
        return true;
    }
    if re(&bullet_phase_line())
        .is_match(&strip_fenced_code(markdown))
        .unwrap_or(false)
    {
        return true;
    }
    !table_phase_rows(markdown).is_empty()
}

/// One row of a phase listing table: its id and name cell.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    pub id: String,
    pub name: Option<String>,
    /// The row's line as written.
    pub row: String,
}

/// `splitTableRow`: cells between unescaped `|`, trimmed, `\|` and `\\`
/// unescaped.
fn split_row(line: &str) -> Vec<String> {
    let mut s = js::trim(line);
    s = s.strip_prefix('|').unwrap_or(s);
    s = s.strip_suffix('|').unwrap_or(s);
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut prev = None;
    for c in s.chars() {
        if c == '|' && prev != Some('\\') {
            cells.push(std::mem::take(&mut cell));
        } else {
            cell.push(c);
        }
        prev = Some(c);
    }
    cells.push(cell);
    cells
        .iter()
        .map(|c| re(r"\\([\\|])").replace_all(js::trim(c), "$1").into_owned())
        .collect()
}

/// `collectTablePhaseRows`: rows of tables whose header starts with a
/// `Phase` column and has a name column; ids 999… left out.
pub fn table_phase_rows(window: &str) -> Vec<TableRow> {
    let unfenced = strip_fenced_code(window);
    let lines: Vec<&str> = re(r"\r?\n").split(&unfenced).flatten().collect();
    let mut rows = Vec::new();
    for i in 0..lines.len().saturating_sub(1) {
        if !re(r"(?i)^\|?\s*phase(?:\s*(?:#|no\.?|number))?\s*\|")
            .is_match(lines[i])
            .unwrap_or(false)
        {
            continue;
        }
        let header = split_row(lines[i]);
        let Some(name_col) = header
            .iter()
            .position(|c| re(r"(?i)^(?:phase\s+)?name$").is_match(c).unwrap_or(false))
        else {
            continue;
        };
        let delimiter = split_row(lines[i + 1]).iter().all(|c| {
            let squeezed: String = c.chars().filter(|ch| !js::is_js_space(*ch)).collect();
            re(r"^:?-{1,}:?$").is_match(&squeezed).unwrap_or(false)
        });
        if !delimiter {
            continue;
        }
        for line in &lines[i + 2..] {
            if !re(r"^\s*\|").is_match(line).unwrap_or(false) {
                break;
            }
            let cells = split_row(line);
            if cells.iter().all(String::is_empty) {
                break;
            }
            let first = cells[0].as_str();
            if !re(r"^[A-Za-z]?\d[A-Za-z0-9_.-]*$")
                .is_match(first)
                .unwrap_or(false)
            {
                continue;
            }
            if !re(&format!(r"^999{}", js::JS_WORD_BOUNDARY))
                .is_match(first)
                .unwrap_or(false)
            {
                let name = cells.get(name_col).filter(|n| !n.is_empty()).cloned();
                rows.push(TableRow {
                    id: first.to_string(),
                    name,
                    row: (*line).to_string(),
                });
            }
        }
    }
    rows
}

/// `scanMilestonePhaseIds`: every phase id the window declares (headings,
/// bullets, table rows), 999… left out, once each in first-seen order.
pub fn phase_ids(window: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    let mut add = |id: &str| {
        if !ids.iter().any(|i| i == id) {
            ids.push(id.to_owned());
        }
    };
    let heading = re(&phase_heading_text());
    let backlog = re(&format!(r"^999{}", js::JS_WORD_BOUNDARY));
    for h in tokenize_headings(window) {
        if !(2..=4).contains(&h.level) {
            continue;
        }
        if let Some(c) = heading.captures(h.text.as_str()).ok().flatten() {
            let token = group(&c, 1);
            if !backlog.is_match(token).unwrap_or(false) {
                add(token);
            }
        }
    }
    for c in re(&bullet_phase_line())
        .captures_iter(strip_fenced_code(window).as_str())
        .flatten()
    {
        let token = group(&c, 1);
        if !backlog.is_match(token).unwrap_or(false) {
            add(token);
        }
    }
    for r in table_phase_rows(window) {
        add(&r.id);
    }
    ids
}

/// `classifyMilestoneWindow` for a readable roadmap.
fn classify(
    version_resolved: bool,
    versioned: bool,
    heading_found: bool,
    window_has: bool,
    document_has: bool,
) -> Scope {
    match (version_resolved, versioned) {
        (false, false) => Scope::Complete,
        (false, true) => Scope::Unscoped,
        _ if !heading_found => Scope::Unscoped,
        _ if !window_has && document_has => Scope::Truncated,
        _ => Scope::Complete,
    }
}

/// STATE.md's `milestone:` line, trimmed (quotes kept, as 1.14.0 keeps them).
fn state_version(project: &Path) -> Option<String> {
    let bytes = std::fs::read(project.join(".planning/STATE.md")).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    re(r"(?m)^milestone:\s*(.+)")
        .captures(text.as_ref())
        .ok()
        .flatten()
        .map(|c| js::trim(group(&c, 1)).to_string())
        .filter(|v| !v.is_empty())
}

/// A `## Phase N: …` detail section with its body lines, for the preamble.
const PHASE_DETAIL_BLOCK: &str = r"(?im)^#{2,4}\s*Phase\s+[A-Za-z0-9_][A-Za-z0-9_.-]*(?:\s*\([^)\n]{0,200}\))?\s*:[^\n]*(?:\n(?!#{1,6}\s)[^\n]*)*\n?";
/// A `Phase Details` heading line.
const PHASE_DETAILS_HEADING: &str = r"(?im)^#{1,4}\s*Phase Details(?![A-Za-z0-9_])[^\n]*\n?";

/// The roadmap's own `phase_id_convention` (a frontmatter line), where set.
pub fn frontmatter_convention(raw: &str) -> Option<String> {
    let c = re(r"^---\r?\n([\s\S]{0,4000}?)\r?\n---")
        .captures(raw)
        .ok()
        .flatten()?;
    let kv = re(r"(?m)^phase_id_convention:\s*(.*)$")
        .captures(group(&c, 1))
        .ok()
        .flatten()?;
    let v = js::trim(group(&kv, 1));
    (v != "null" && !v.is_empty()).then(|| v.to_owned())
}

/// `extractCurrentMilestoneScoped(content, cwd)`: the current milestone's
/// window and its scope. The caller has made sure the project does not use
/// the `bracket` phase-id convention.
pub fn current_window(content: &str, project: &Path) -> (String, Scope) {
    let version = state_version(project).or_else(|| {
        re(r"(?:🚧|🔄)\s*\*\*v(\d+\.\d+)\s")
            .captures(content)
            .ok()
            .flatten()
            .map(|c| format!("v{}", group(&c, 1)))
    });
    let versioned = has_versioned_milestones(content);
    let Some(version) = version else {
        let value = strip_shipped(content);
        let has = has_phase_entries(&value);
        return (value, classify(false, versioned, false, has, has));
    };
    let document_has = has_phase_entries(&strip_shipped(content));
    let matches = locate(content, &version);
    let Some(first) = matches.first() else {
        if let Some(value) = details_window(content, &version) {
            let scope = classify(
                true,
                versioned,
                true,
                has_phase_entries(&value),
                document_has,
            );
            return (value, scope);
        }
        let value = strip_shipped(content);
        let scope = classify(
            true,
            versioned,
            false,
            has_phase_entries(&value),
            document_has,
        );
        return (value, scope);
    };
    let selected = matches
        .iter()
        .find(|m| !is_closed(&m.text))
        .unwrap_or(first);
    let headings = tokenize_headings(content);
    let end = section_end(content, selected, &headings);
    let earliest = re(r"(?im)^#{1,3}\s+(?!Phase\s+\S)(?:.*v\d+\.\d+|✅|📋|🚧)")
        .find(content)
        .ok()
        .flatten()
        .map(|m| m.start());
    let before = &content[..earliest.unwrap_or(first.start)];
    let current = strip_closed_details(&content[selected.start..end]);
    let token = re(r"(?i)v\d+(?:\.\d+)+(?:[-.][A-Za-z0-9]+)*")
        .find(&selected.text)
        .ok()
        .flatten()
        .map(|m| m.as_str().to_string());
    let boundary = token.map(|t| re(&format!(r"(?i){}(?![A-Za-z0-9_.-])", escape(&t))));
    let details = matches.iter().find(|m| {
        re(r"(?i)\(Phase\s+Details\)")
            .is_match(&m.text)
            .unwrap_or(false)
            && !is_closed(&m.text)
            && boundary.is_none_or(|b| b.is_match(&m.text).unwrap_or(false))
            && m.start >= end
    });
    let details = details.map(|d| &content[d.start..section_end(content, d, &headings)]);
    let has_own_details = re(r"(?im)^#{2,4}\s*Phase\s+\S")
        .is_match(&current)
        .unwrap_or(false);
    let mut preamble = strip_shipped(before);
    if has_own_details {
        preamble = re(PHASE_DETAIL_BLOCK)
            .replace_all(&preamble, "")
            .into_owned();
    }
    let preamble = re(PHASE_DETAILS_HEADING).replace_all(&preamble, "");
    let value = match details {
        Some(d) => format!("{preamble}{current}\n{d}"),
        None => format!("{preamble}{current}"),
    };
    let scope = classify(
        true,
        versioned,
        true,
        has_phase_entries(&value),
        document_has,
    );
    (value, scope)
}

/// The window 1.14.0 cuts when no heading names the version but a
/// `<details>` summary does: the preamble and that `<details>` block.
fn details_window(content: &str, version: &str) -> Option<String> {
    let summary = re(&format!(
        r"(?i)<summary[^>]*>([^<]*{}[^<]*)</summary>",
        escape(version)
    ))
    .find(content)
    .ok()
    .flatten()?;
    let open = content[..summary.start()].rfind("<details")?;
    let end = re(r"(?i)</details>")
        .find(&content[open..])
        .ok()
        .flatten()
        .map_or(content.len(), |m| open + m.end());
    let cutoff = re(r"(?im)^#{1,3}\s+(?!Phase\s+\S)(?:.*v\d+\.\d+|✅|📋|🚧|🔄)|<details")
        .find(content)
        .ok()
        .flatten()
        .map_or(open, |m| m.start());
    let preamble = strip_shipped(&content[..cutoff]);
    let preamble = re(PHASE_DETAIL_BLOCK).replace_all(&preamble, "");
    let preamble = re(PHASE_DETAILS_HEADING).replace_all(&preamble, "");
    Some(format!("{preamble}{}", &content[open..end]))
}

/// `getMilestonePhaseFilter(cwd)` with no version or convention given:
/// whether a phase folder belongs to the current milestone, and the
/// window's scope. With no phase ids in the window every folder belongs.
pub struct PhaseFilter {
    ids: HashSet<String>,
    longest_first: Vec<String>,
    hyphened: bool,
    pub scope: Scope,
}

/// `normalizePhaseIdSegments`: leading zeros off each `-` segment.
fn unpad_segments(id: &str) -> String {
    id.split('-')
        .map(|seg| {
            let digits = seg.len() - seg.trim_start_matches('0').len();
            let rest = &seg[digits..];
            // `^0+(?=\d)`: keep the last zero where only zeros or no digit follow.
            if digits > 0 && !rest.starts_with(|c: char| c.is_ascii_digit()) {
                format!("0{rest}")
            } else if seg.is_empty() {
                "0".to_string()
            } else {
                rest.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("-")
}

impl PhaseFilter {
    pub fn read(project: &Path) -> PhaseFilter {
        let mut ids = Vec::new();
        let mut scope = Scope::Unreadable;
        if let Ok(bytes) = std::fs::read(project.join(".planning/ROADMAP.md")) {
            let text = String::from_utf8_lossy(&bytes);
            let (window, s) = current_window(&text, project);
            scope = s;
            ids = phase_ids(&window);
        }
        let ids: HashSet<String> = ids
            .iter()
            .map(|n| unpad_segments(n).to_lowercase())
            .collect();
        let hyphened = ids.iter().any(|n| n.contains('-'));
        let mut longest_first: Vec<String> = ids.iter().cloned().collect();
        longest_first.sort_by_key(|b| std::cmp::Reverse(b.len()));
        PhaseFilter {
            ids,
            longest_first,
            hyphened,
            scope,
        }
    }

    /// `isDirInMilestone`.
    pub fn admits(&self, dir: &str) -> bool {
        if self.ids.is_empty() {
            return true;
        }
        let numeric = if self.hyphened {
            re(r"^0*(\d+[A-Za-z]?(?:-\d{2}(?!\d)[A-Z]?)*(?:\.\d+)*)(?=-|$)")
        } else {
            re(r"^0*(\d+[A-Za-z]?(?:\.\d+)*)")
        };
        let has = |s: &str| {
            numeric.captures(s).ok().flatten().is_some_and(|c| {
                self.ids
                    .contains(&unpad_segments(group(&c, 1)).to_lowercase())
            })
        };
        if has(dir) {
            return true;
        }
        if dir.starts_with(|c: char| c.is_ascii_alphabetic()) {
            let lower = dir.to_lowercase();
            if self
                .longest_first
                .iter()
                .any(|id| lower == *id || lower.starts_with(&format!("{id}-")))
            {
                return true;
            }
        }
        let stripped = strip_project_code(dir, true);
        if stripped != dir && has(stripped) {
            return true;
        }
        let token = extract_phase_token(dir);
        !token.is_empty() && self.ids.contains(&unpad_segments(&token).to_lowercase())
    }
}

/// `isSentinelPhaseId` without a convention: the leading number (after a
/// project code) is 0 or 999.
pub fn is_sentinel(id: &str) -> bool {
    re(r"^0*(\d+)")
        .captures(strip_project_code(id, true))
        .ok()
        .flatten()
        .is_some_and(|c| {
            let n = group(&c, 1).trim_start_matches('0');
            n.is_empty() || n == "999"
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nameable_answers_as_the_unicode_classes() {
        let classes = re(r"[\p{L}\p{N}]");
        for s in [
            "", " — ", "x", "-- 7 --", "✅ 📋", "é", " ٣ ", "中文", "·", "Ⅻ", "_", "\u{0}",
        ] {
            assert_eq!(nameable(s), classes.is_match(s).unwrap(), "{s:?}");
        }
        for b in 0u8..128 {
            let s = (b as char).to_string();
            assert_eq!(nameable(&s), classes.is_match(&s).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn closed_and_active_marks() {
        assert!(is_closed("v1.0 MVP ✅ SHIPPED 2026-01-01"));
        assert!(is_closed("Milestone v2 (Archived)"));
        assert!(!is_closed("v3 (shipped parts, in progress)"));
        assert!(!is_closed("v1.1 Polish"));
    }

    #[test]
    fn table_rows_need_a_phase_column_a_name_column_and_a_delimiter() {
        let t = "| Phase | Name | Status |\n|---|:--:|---|\n| 1 | Setup | Done |\n| 2.1 |  | x |\n| 999 | Backlog | |\n| note | x | |\n| 3 | A \\| B | |\n\n| 4 | after | |";
        let rows = table_phase_rows(t);
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["1", "2.1", "3"]);
        assert_eq!(rows[1].name, None);
        assert_eq!(rows[2].name.as_deref(), Some("A | B"));
        assert!(table_phase_rows("| Phase | Goal |\n|---|---|\n| 1 | x |").is_empty());
    }

    #[test]
    fn segments_lose_their_padding() {
        assert_eq!(unpad_segments("01-02"), "1-2");
        assert_eq!(unpad_segments("00"), "0");
        assert_eq!(unpad_segments("007a"), "7a");
        assert_eq!(unpad_segments("0a"), "0a");
    }

    #[test]
    fn sentinels_are_zero_and_999() {
        assert!(is_sentinel("00-setup") && is_sentinel("999-backlog") && is_sentinel("CK-0"));
        assert!(!is_sentinel("01-x") && !is_sentinel("9990") && !is_sentinel("notes"));
    }
}
