//! REQUIREMENTS.md: requirement IDs with their section and category, and the
//! traceability table.

use serde::Serialize;

use crate::doc::markdown::Markdown;

use super::document::Document;

/// Where a requirement is listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    V1,
    V2,
    OutOfScope,
    /// Under a heading of a shipped milestone (`## v1.1 … (Completed)`):
    /// delivered history.
    Shipped,
    Other,
}

#[derive(Debug, Clone, Serialize)]
pub struct Requirement {
    pub id: String,
    pub text: String,
    pub checked: Option<bool>,
    pub scope: Scope,
    pub category: Option<String>,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct TraceRow {
    pub id: String,
    pub phase: String,
    pub status: String,
    pub line: usize,
}

#[derive(Debug, Clone)]
pub struct Requirements {
    pub doc: Document,
    pub items: Vec<Requirement>,
    pub traceability: Vec<TraceRow>,
}

/// A requirement ID: uppercase letters/digits, dash groups, ending in digits
/// (`AUTH-01`, `UI-NAV-3`, `REQ-12a`).
pub fn is_req_id(s: &str) -> bool {
    let mut parts = s.split('-');
    let Some(first) = parts.next() else {
        return false;
    };
    if first.is_empty() || !first.starts_with(|c: char| c.is_ascii_uppercase()) {
        return false;
    }
    if !first
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    {
        return false;
    }
    let rest: Vec<&str> = parts.collect();
    let Some(last) = rest.last() else {
        return false;
    };
    let last_ok = last.starts_with(|c: char| c.is_ascii_digit())
        && last
            .trim_end_matches(|c: char| c.is_ascii_lowercase())
            .chars()
            .all(|c| c.is_ascii_digit());
    last_ok
        && rest[..rest.len() - 1].iter().all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
}

/// Every requirement ID in a piece of text (word-bounded).
pub fn find_req_ids(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .map(|w| w.trim_matches('-'))
        .filter(|w| is_req_id(w))
        .map(str::to_owned)
        .collect()
}

/// The requirement IDs a traceability row's first cell names: one ID,
/// a list of IDs (`AUTH-01, AUTH-02`), or a range (`AIGEN-01 to AIGEN-07`,
/// `UXP-01..UXP-04`, `DLIB-01 – DLIB-03`, `SCRAPE-01 through SCRAPE-06`)
/// with one prefix, expanded at the first ID's width. Any other text (a
/// description, a heading row) names none.
pub fn ids_in_cell(cell: &str) -> Vec<String> {
    // `**CORE-03** ★`, `` `AUTH-01` ✓``: emphasis and a mark around the ID.
    let plain;
    let cell =
        if cell.contains(['*', '`']) || cell.trim_end().ends_with(|c: char| !c.is_alphanumeric()) {
            plain = cell.replace(['*', '`'], "");
            plain.trim_matches(|c: char| !c.is_alphanumeric())
        } else {
            cell.trim()
        };
    if is_req_id(cell) {
        return vec![cell.to_owned()];
    }
    for sep in [" to ", " through ", "..", " – ", " — ", "–", "—", " - "] {
        if let Some((a, b)) = cell.split_once(sep)
            && let Some(ids) = expand_range(a.trim(), b.trim())
        {
            return ids;
        }
    }
    let parts: Vec<&str> = cell
        .split([',', '/', '&'])
        .flat_map(|p| p.split(" and "))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() > 1 && parts.iter().all(|p| is_req_id(p)) {
        return parts.into_iter().map(str::to_owned).collect();
    }
    Vec::new()
}

/// `AIGEN-01`..`AIGEN-07` → every ID between, when both share a prefix and
/// end in numbers (at most 500 of them). The end may give its number alone
/// (`DES-01–09`, `AUTH-01 to 04`): the prefix is the start's.
fn expand_range(a: &str, b: &str) -> Option<Vec<String>> {
    if !is_req_id(a) {
        return None;
    }
    let (pa, na) = a.rsplit_once('-')?;
    let (pb, nb) = if !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit()) {
        (pa, b)
    } else if is_req_id(b) {
        b.rsplit_once('-')?
    } else {
        return None;
    };
    let (from, to): (u32, u32) = (na.parse().ok()?, nb.parse().ok()?);
    if pa != pb || from > to || to - from > 500 {
        return None;
    }
    let width = na.len();
    Some((from..=to).map(|n| format!("{pa}-{n:0width$}")).collect())
}

/// Words of a section heading that put its requirements after the current
/// work (`## Future Requirements`, `## Parked …`, `## Backlog`), in the
/// languages real trees are written in (`## Requirements Futuros (M9+)`,
/// `## Zukünftige Anforderungen`, `## 后续需求`). Stems, matched anywhere
/// in the lower-cased heading.
const LATER_WORDS: &[&str] = &[
    // future, futuro(s), futura(s), futur, futures
    "futur",
    "zukünft",
    "künftig",
    "später",
    "adiad",
    "aplazad",
    "pospuest",
    "diferid",
    "ultérieur",
    "plus tard",
    "未来",
    "后续",
    "今後",
    "deferred",
    "later",
    "parked",
    "backlog",
    "on hold",
    "postponed",
    "icebox",
    "someday",
];

impl Requirements {
    pub fn parse(doc: Document) -> Requirements {
        let text = doc.text();
        let md = Markdown::scan(text, doc.body(), doc.line_of(doc.body().start));
        // The milestone the file is about (`# Requirements: Quantalyze —
        // Milestone v1.20`): a section named for another version keeps
        // that milestone's requirements (parked, or an older one's).
        let own_version = md
            .headings
            .iter()
            .find(|h| h.level == 1)
            .and_then(|h| super::milestone::find_version(h.text.slice(text)));
        let mut items = Vec::new();
        for item in &md.list_items {
            let content = item.content.slice(text);
            let Some(rest) = content.strip_prefix("**") else {
                continue;
            };
            let Some(end) = rest.find("**") else { continue };
            let id = rest[..end].trim_end_matches(':').trim();
            if !is_req_id(id) {
                continue;
            }
            let after = rest[end + 2..]
                .trim_start_matches([':', ' ', '-', '—', '–'])
                .trim();
            let at = item.line.span.start;
            let h2 = md
                .headings
                .iter()
                .rfind(|h| h.level <= 2 && h.line.span.start < at);
            let h3 = md
                .headings
                .iter()
                .rfind(|h| h.level == 3 && h.line.span.start < at);
            // The section's own first line says it is for later (`## v1.8
            // Requirements` then `Deferred to future release. Tracked but
            // not in current roadmap.`, GSD's template sentence under a
            // version of the user's own).
            let intro_later = h2.is_some_and(|h| {
                text[h.line.span.end..]
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty())
                    .filter(|l| !l.starts_with(['-', '*', '#', '|', '+']) || l.starts_with("**"))
                    .is_some_and(|l| {
                        let l = l.to_lowercase();
                        LATER_WORDS
                            .iter()
                            .any(|w| l.starts_with(w) || l.starts_with(&format!("**{w}")))
                    })
            });
            let shipped = h2.is_some_and(|h| {
                super::milestone::MilestoneStatus::of_text(h.text.slice(text))
                    == super::milestone::MilestoneStatus::Shipped
            });
            let scope = match h2.map(|h| h.text.slice(text).to_ascii_lowercase()) {
                Some(t) if t.contains("out of scope") => Scope::OutOfScope,
                _ if shipped => Scope::Shipped,
                // `## v1.2+ Requirements`: this version and later.
                Some(t)
                    if super::milestone::find_milestone_id(&t)
                        .is_some_and(|v| t.contains(&format!("{}+", v.to_lowercase()))) =>
                {
                    Scope::V2
                }
                Some(t) if LATER_WORDS.iter().any(|w| t.contains(w)) || intro_later => Scope::V2,
                Some(t)
                    if own_version.as_ref().is_some_and(|own| {
                        super::milestone::find_version(&t)
                            .is_some_and(|v| !super::milestone::same_version(&v, own))
                    }) =>
                {
                    Scope::Other
                }
                // `## v2.0 Requirements` names a milestone (GSD's
                // new-milestone writes the active one's this way); only the
                // template's bare `v2` means "later".
                Some(t) if super::milestone::find_version(&t).is_some() => Scope::V1,
                Some(t) if t.contains("v2") => Scope::V2,
                Some(t)
                    if t.contains("v1") || t.contains("requirements") || t.contains("active") =>
                {
                    Scope::V1
                }
                _ => Scope::Other,
            };
            let category = h3
                .filter(|h3| h2.is_none_or(|h2| h3.line.span.start > h2.line.span.start))
                .map(|h| h.text.slice(text).to_owned());
            items.push(Requirement {
                id: id.to_owned(),
                text: after.to_owned(),
                checked: item.checkbox.map(|c| c.checked),
                scope,
                category,
                line: item.line.number,
            });
        }
        let mut traceability = Vec::new();
        // Every traceability section: a file that adds a milestone's
        // requirements often adds its own table (`## v3.0 Traceability`).
        let sections = md.headings.iter().enumerate().filter(|(_, h)| {
            h.text
                .slice(text)
                .to_ascii_lowercase()
                .contains("traceability")
        });
        let mut read_to = 0;
        for (i, h) in sections {
            // A traceability heading inside one already read: its rows are read.
            if h.line.span.start < read_to {
                continue;
            }
            let section = md.section(i, doc.body().end);
            read_to = section.end;
            for row in md.table_rows_in(section) {
                let cells: Vec<&str> = row.cells.iter().map(|c| c.slice(text)).collect();
                let Some(first) = cells.first() else { continue };
                if row.separator {
                    continue;
                }
                for id in ids_in_cell(first.trim_matches('*')) {
                    traceability.push(TraceRow {
                        id,
                        phase: cells.get(1).map(|s| s.to_string()).unwrap_or_default(),
                        status: cells.get(2).map(|s| s.to_string()).unwrap_or_default(),
                        line: row.line.number,
                    });
                }
            }
        }
        Requirements {
            doc,
            items,
            traceability,
        }
    }

    pub fn get(&self, id: &str) -> Option<&Requirement> {
        self.items.iter().find(|r| r.id == id)
    }

    pub fn contains(&self, id: &str) -> bool {
        self.get(id).is_some() || self.traceability.iter().any(|t| t.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn req_ids() {
        for ok in ["AUTH-01", "UI-NAV-3", "REQ-12a", "V2-01", "RALPH-01"] {
            assert!(is_req_id(ok), "{ok}");
        }
        for bad in ["auth-01", "AUTH", "AUTH-", "-01", "AUTH-x", "Phase-1"] {
            assert!(!is_req_id(bad), "{bad}");
        }
        assert_eq!(
            find_req_ids("[AUTH-01, API-02] and REQ-1"),
            ["AUTH-01", "API-02", "REQ-1"]
        );
    }

    #[test]
    fn trace_cells_name_ids_lists_and_ranges() {
        assert_eq!(ids_in_cell("**CORE-03** ★"), ["CORE-03"]);
        assert_eq!(ids_in_cell("`AUTH-01` ✓"), ["AUTH-01"]);
        assert_eq!(ids_in_cell("AUTH-01"), ["AUTH-01"]);
        assert_eq!(
            ids_in_cell("UXP-01 to UXP-03"),
            ["UXP-01", "UXP-02", "UXP-03"]
        );
        assert_eq!(
            ids_in_cell("DLIB-8..DLIB-10"),
            ["DLIB-8", "DLIB-9", "DLIB-10"]
        );
        assert_eq!(ids_in_cell("S-01 – S-02"), ["S-01", "S-02"]);
        // The end's number alone: the start's prefix.
        assert_eq!(ids_in_cell("DES-01–03"), ["DES-01", "DES-02", "DES-03"]);
        assert_eq!(ids_in_cell("ORD-06 to 07"), ["ORD-06", "ORD-07"]);
        assert!(ids_in_cell("DES-05–03").is_empty());
        assert_eq!(ids_in_cell("AUTH-01, AUTH-04"), ["AUTH-01", "AUTH-04"]);
        // Different prefixes, a backwards range, prose: none.
        assert!(ids_in_cell("AUTH-01 to API-03").is_empty());
        assert!(ids_in_cell("AUTH-05 to AUTH-01").is_empty());
        assert!(ids_in_cell("Requirement").is_empty());
        assert!(ids_in_cell("AUTH-01 login").is_empty());
    }
}
