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
    // `AUTH-01`, `AUTH-01b`, and `BUG-17A` (one capital after the number:
    // an ID slotted in after BUG-17).
    let number = last
        .strip_suffix(|c: char| c.is_ascii_uppercase())
        .unwrap_or(last)
        .trim_end_matches(|c: char| c.is_ascii_lowercase());
    let last_ok = last.starts_with(|c: char| c.is_ascii_digit())
        && number.chars().all(|c| c.is_ascii_digit());
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
    cell_ids(cell).ids
}

/// The IDs a traceability cell names, and whether it named them as a range
/// (which then also holds the IDs slotted in between: `BUG-18 through
/// BUG-21` covers `BUG-19A`).
struct CellIds {
    ids: Vec<String>,
    range: Option<(String, u32, u32)>,
}

fn cell_ids(cell: &str) -> CellIds {
    // `BUG-01 through BUG-06 (6 P0 blockers)`: a note after the IDs.
    let cell = match cell.trim_end().strip_suffix(')') {
        Some(open) if open.rfind('(').is_some_and(|i| i > 0) => {
            &open[..open.rfind('(').unwrap_or(0)]
        }
        _ => cell,
    };
    // `**CORE-03** ★`, `` `AUTH-01` ✓``: emphasis and a mark around the ID.
    let plain;
    let cell =
        if cell.contains(['*', '`']) || cell.trim_end().ends_with(|c: char| !c.is_alphanumeric()) {
            plain = cell.replace(['*', '`'], "");
            plain.trim_matches(|c: char| !c.is_alphanumeric())
        } else {
            cell.trim()
        };
    let listed = |ids: Vec<String>| CellIds { ids, range: None };
    if is_req_id(cell) {
        return listed(vec![cell.to_owned()]);
    }
    for sep in [" to ", " through ", "..", " – ", " — ", "–", "—", " - "] {
        if let Some((a, b)) = cell.split_once(sep)
            && let Some((ids, range)) = expand_range(a.trim(), b.trim())
        {
            return CellIds {
                ids,
                range: Some(range),
            };
        }
    }
    let parts: Vec<&str> = cell
        .split([',', '/', '&'])
        .flat_map(|p| p.split(" and "))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() > 1 && parts.iter().all(|p| is_req_id(p)) {
        return listed(parts.into_iter().map(str::to_owned).collect());
    }
    listed(Vec::new())
}

/// The first bare major version of a heading (`v3` in `v3 requirements
/// (milestone 3)`; none in `v3.1` or `nav3`).
fn bare_major(t: &str) -> Option<u32> {
    let b = t.as_bytes();
    (0..b.len()).find_map(|i| {
        if b[i] != b'v' || (i > 0 && b[i - 1].is_ascii_alphanumeric()) {
            return None;
        }
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let end = i + 1 + digits;
        let bare = digits > 0
            && b.get(end)
                .is_none_or(|c| !c.is_ascii_alphanumeric() && *c != b'.');
        bare.then(|| t[i + 1..end].parse().ok()).flatten()
    })
}

/// Whether `id` is a lettered ID (`BUG-19A`) slotted in after a number a
/// range spans, before its end (`BUG-21A` comes after `BUG-21`).
fn slotted_in(id: &str, (prefix, from, to): &(String, u32, u32)) -> bool {
    let Some((p, n)) = id.rsplit_once('-') else {
        return false;
    };
    let digits = n.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    digits.len() < n.len()
        && p == prefix
        && digits
            .parse::<u32>()
            .is_ok_and(|n| (*from..*to).contains(&n))
}

/// `AIGEN-01`..`AIGEN-07` → every ID between, when both share a prefix and
/// end in numbers (at most 500 of them). The end may give its number alone
/// (`DES-01–09`, `AUTH-01 to 04`): the prefix is the start's.
/// A lettered end (`BUG-07 through BUG-17A`) is listed as written, after
/// the numbers it follows.
fn expand_range(a: &str, b: &str) -> Option<(Vec<String>, (String, u32, u32))> {
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
    let nb_digits = nb.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let (from, to): (u32, u32) = (na.parse().ok()?, nb_digits.parse().ok()?);
    if pa != pb || from > to || to - from > 500 {
        return None;
    }
    let width = na.len();
    let mut ids: Vec<String> = (from..=to).map(|n| format!("{pa}-{n:0width$}")).collect();
    if nb_digits.len() < nb.len() {
        ids.push(b.to_owned());
    }
    Some((ids, (pa.to_owned(), from, to)))
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
        // The template's sections run current first (`## v1 Requirements`,
        // then `## v2 Requirements`, `## v3 Requirements (Milestone 3)`):
        // the first bare version is the current one, a later one waits.
        let first_bare = md
            .headings
            .iter()
            .filter(|h| h.level == 2)
            .map(|h| h.text.slice(text).to_ascii_lowercase())
            .filter(|t| t.contains("requirements"))
            .find_map(|t| bare_major(&t));
        let mut items = Vec::new();
        // `- [ ] **AUTH-01**: text` in a list, GSD's form; or a heading of
        // its own, `#### RISK-01: Position Size Limits`, with the
        // requirement's story and criteria below it.
        let listed: Vec<_> = md
            .list_items
            .iter()
            .filter_map(|item| {
                let rest = item.content.slice(text).strip_prefix("**")?;
                let end = rest.find("**")?;
                let id = rest[..end].trim_end_matches(':').trim();
                let after = &rest[end + 2..];
                Some((
                    id,
                    after,
                    item.line.span.start,
                    item.line.number,
                    item.checkbox.map(|c| c.checked),
                ))
            })
            .filter(|f| is_req_id(f.0))
            .collect();
        // A heading is a definition only when nothing below it, up to the
        // next heading of its level, is a listed one: `### UI-01: Board
        // Rendering` over `- [x] **UI-01**: …` and `**UI-02**` is their
        // category.
        let headed: Vec<_> = md
            .headings
            .iter()
            .enumerate()
            .filter_map(|(i, h)| {
                let t = h.text.slice(text).trim().trim_start_matches(['*', '_']);
                let end = t.find([':', ' ', '*', '_'])?;
                let id = &t[..end];
                let after = t[end..].trim_start_matches(['*', '_']);
                // The ID and then its title (`RISK-01: …`, `RISK-01 — …`),
                // not a range (`API-01 through API-05`).
                let titled = after.starts_with(':')
                    || [" —", " –", " - "].iter().any(|sep| after.starts_with(sep));
                let section_end = md.headings[i + 1..]
                    .iter()
                    .find(|n| n.level <= h.level)
                    .map_or(usize::MAX, |n| n.line.span.start);
                let heads_a_list = listed
                    .iter()
                    .any(|f| f.2 > h.line.span.start && f.2 < section_end);
                (titled && is_req_id(id) && !heads_a_list).then_some((
                    id,
                    after,
                    h.line.span.start,
                    h.line.number,
                    None,
                ))
            })
            .collect();
        let defining_headings: std::collections::HashSet<usize> =
            headed.iter().map(|f| f.2).collect();
        let mut found: Vec<_> = listed.into_iter().chain(headed).collect();
        found.sort_by_key(|f| f.2);
        for (id, after, at, line, checked) in found {
            if !is_req_id(id) {
                continue;
            }
            let after = after.trim_start_matches([':', ' ', '-', '—', '–']).trim();
            let h2 = md
                .headings
                .iter()
                .rfind(|h| h.level <= 2 && h.line.span.start < at);
            let h3 = md
                .headings
                .iter()
                .rfind(|h| h.level == 3 && h.line.span.start < at)
                // A requirement's own heading is no category.
                .filter(|h| !defining_headings.contains(&h.line.span.start));
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
                // The template's `## v2 Requirements`, and a version after
                // the file's first (`## v3 Requirements (Milestone 3)` below
                // `## v1 Requirements`; `## v3 Requirements` alone is current).
                Some(t)
                    if t.contains("v2")
                        || bare_major(&t).is_some_and(|n| first_bare.is_some_and(|f| n > f)) =>
                {
                    Scope::V2
                }
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
                checked,
                scope,
                category,
                line,
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
                let named = cell_ids(first.trim_matches('*'));
                let slotted = named.range.as_ref().map_or(Vec::new(), |r| {
                    items
                        .iter()
                        .filter(|i| slotted_in(&i.id, r) && !named.ids.contains(&i.id))
                        .map(|i| i.id.clone())
                        .collect()
                });
                for id in named.ids.into_iter().chain(slotted) {
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
        assert_eq!(
            ids_in_cell("BUG-01 through BUG-03 (3 P0 blockers)"),
            ["BUG-01", "BUG-02", "BUG-03"]
        );
        assert_eq!(
            ids_in_cell("BUG-16 through BUG-17A"),
            ["BUG-16", "BUG-17", "BUG-17A"]
        );
        assert!(ids_in_cell("Auth (login)").is_empty());
        let r = ("BUG".to_owned(), 18, 21);
        assert!(slotted_in("BUG-19A", &r));
        assert!(!slotted_in("BUG-19", &r));
        assert!(!slotted_in("BUG-22A", &r));
        assert!(!slotted_in("BUG-21A", &r));
        assert_eq!(
            ids_in_cell("AUTH-01 to AUTH-02b"),
            ["AUTH-01", "AUTH-02", "AUTH-02b"]
        );
        assert!(!slotted_in("BUGS-19A", &r));
        assert_eq!(bare_major("v3 requirements (milestone 3)"), Some(3));
        assert_eq!(bare_major("v3.1 requirements"), None);
        assert_eq!(bare_major("nav3 requirements"), None);
        assert_eq!(ids_in_cell("AUTH-01, AUTH-04"), ["AUTH-01", "AUTH-04"]);
        // Different prefixes, a backwards range, prose: none.
        assert!(ids_in_cell("AUTH-01 to API-03").is_empty());
        assert!(ids_in_cell("AUTH-05 to AUTH-01").is_empty());
        assert!(ids_in_cell("Requirement").is_empty());
        assert!(ids_in_cell("AUTH-01 login").is_empty());
    }
}
