//! Research references: numbered, de-duplicated sources from every
//! RESEARCH.md `## Sources` section (Primary / Secondary / Tertiary with
//! their confidence), from `.planning/research/*.md`, and from NotebookLM
//! notebooks listed in config.json (`research.notebooklm`) or exported into
//! `.planning/research/notebooklm/`. The same URL is the same reference.

use serde::Serialize;

use crate::doc::markdown::Markdown;
use crate::model::{Document, PhaseId, Workspace};

#[derive(Debug, Clone, Serialize)]
pub struct Reference {
    pub number: usize,
    pub title: String,
    pub url: Option<String>,
    pub confidence: Option<String>,
    /// Where it was found (file paths, `config.json notebook …`).
    pub origins: Vec<String>,
    /// Phases whose research cites it.
    pub phases: Vec<String>,
    /// The text around the link (requirement IDs are found in it).
    #[serde(skip)]
    pub note: String,
}

/// `[title](url) - note`, a bare URL, or plain text.
fn parse_item(s: &str) -> (String, Option<String>, String) {
    let s = s.trim();
    if let Some(open) = s.find('[')
        && let Some(mid) = s[open..].find("](")
    {
        let title = &s[open + 1..open + mid];
        let rest = &s[open + mid + 2..];
        if let Some(close) = rest.find(')') {
            let url = rest[..close].trim().to_owned();
            let note = format!("{}{}", &s[..open], &rest[close + 1..]);
            return (
                title.trim().to_owned(),
                Some(url),
                note.trim()
                    .trim_start_matches(['-', '—', ':', ' '])
                    .to_owned(),
            );
        }
    }
    if let Some(i) = s.find("http://").or_else(|| s.find("https://")) {
        let url: String = s[i..]
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, ')' | '>' | ','))
            .collect();
        let title = s[..i].trim().trim_end_matches([':', '-', '—', '<']).trim();
        let title = if title.is_empty() {
            url.clone()
        } else {
            title.to_owned()
        };
        return (title, Some(url), s.to_owned());
    }
    (
        s.trim_start_matches("**")
            .split("**")
            .next()
            .unwrap_or(s)
            .trim()
            .to_owned(),
        None,
        s.to_owned(),
    )
}

fn confidence_of(heading: &str) -> Option<String> {
    let h = heading.to_ascii_uppercase();
    ["HIGH", "MEDIUM", "LOW"]
        .iter()
        .find(|c| h.contains(*c))
        .map(|c| (*c).to_owned())
}

/// Items of a document's `## Sources` section (or every linked list item).
fn items_of(
    doc: &Document,
    whole_file_links: bool,
) -> Vec<(String, Option<String>, Option<String>, String)> {
    let text = doc.text();
    let md = Markdown::scan(text, doc.body(), doc.line_of(doc.body().start));
    let mut out = Vec::new();
    let section = md.find_heading(text, |t| {
        t.trim().eq_ignore_ascii_case("sources") || t.to_ascii_lowercase().starts_with("sources")
    });
    let span = match section {
        Some((i, _)) => md.section(i, doc.body().end),
        None if whole_file_links => doc.body(),
        None => return out,
    };
    for item in md.list_items_in(span) {
        let heading = md.headings.iter().rfind(|h| {
            h.line.span.start < item.line.span.start && span.contains(h.line.span.start)
        });
        let confidence = heading.and_then(|h| confidence_of(h.text.slice(text)));
        let (title, url, note) = parse_item(item.content.slice(text));
        if section.is_none() && url.is_none() {
            continue;
        }
        if title.is_empty() {
            continue;
        }
        out.push((title, url, confidence, note));
    }
    out
}

fn key(url: &Option<String>, title: &str) -> String {
    match url {
        Some(u) => u.trim().trim_end_matches('/').to_ascii_lowercase(),
        None => format!("title:{}", title.to_ascii_lowercase()),
    }
}

/// Every reference of the workspace, numbered in order of first appearance.
pub fn collect(ws: &Workspace) -> Vec<Reference> {
    let mut refs: Vec<Reference> = Vec::new();
    let mut add = |title: String,
                   url: Option<String>,
                   confidence: Option<String>,
                   origin: String,
                   phase: Option<&PhaseId>,
                   note: String| {
        let k = key(&url, &title);
        if let Some(r) = refs.iter_mut().find(|r| key(&r.url, &r.title) == k) {
            if !r.origins.contains(&origin) {
                r.origins.push(origin);
            }
            if let Some(p) = phase.map(PhaseId::unpadded)
                && !r.phases.contains(&p)
            {
                r.phases.push(p);
            }
            if r.confidence.is_none() {
                r.confidence = confidence;
            }
            r.note.push(' ');
            r.note.push_str(&note);
            return;
        }
        let number = refs.len() + 1;
        refs.push(Reference {
            number,
            title,
            url,
            confidence,
            origins: vec![origin],
            phases: phase.map(PhaseId::unpadded).into_iter().collect(),
            note,
        });
    };
    for ph in ws.current_phases() {
        for doc in ph
            .other_docs
            .iter()
            .filter(|d| d.file_name().ends_with("RESEARCH.md"))
        {
            for (t, u, c, n) in items_of(doc, false) {
                add(
                    t,
                    u,
                    c,
                    doc.rel_path.display().to_string(),
                    ph.id.as_ref(),
                    n,
                );
            }
        }
    }
    let mut research: Vec<&Document> = ws
        .other
        .iter()
        .filter(|d| d.rel_path.starts_with(".planning/research") && d.file_name().ends_with(".md"))
        .collect();
    research.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));
    for doc in research {
        for (t, u, c, n) in items_of(doc, true) {
            add(t, u, c, doc.rel_path.display().to_string(), None, n);
        }
    }
    let config = ws.config();
    let notebooks: Vec<serde_json::Value> = config
        .get("research.notebooklm")
        .and_then(|v| v.as_array())
        .cloned()
        .unwrap_or_default();
    let mut exported: Vec<(String, serde_json::Value)> = ws
        .other
        .iter()
        .filter(|d| {
            d.rel_path.starts_with(".planning/research/notebooklm")
                && d.file_name().ends_with(".json")
        })
        .filter_map(|d| {
            serde_json::from_str(d.text())
                .ok()
                .map(|v| (d.rel_path.display().to_string(), v))
        })
        .collect();
    exported.sort_by(|a, b| a.0.cmp(&b.0));
    let from_config = notebooks
        .into_iter()
        .map(|v| ("config.json research.notebooklm".to_owned(), v));
    for (origin, nb) in from_config.chain(exported) {
        let title = nb
            .get("title")
            .and_then(|t| t.as_str())
            .unwrap_or("NotebookLM notebook")
            .to_owned();
        let url = nb.get("url").and_then(|u| u.as_str()).map(str::to_owned);
        let origin = format!("{origin} (NotebookLM: {title})");
        add(
            title.clone(),
            url,
            Some("MEDIUM".into()),
            origin.clone(),
            None,
            String::new(),
        );
        for s in nb
            .get("sources")
            .and_then(|s| s.as_array())
            .into_iter()
            .flatten()
        {
            let (t, u) = match s {
                serde_json::Value::String(s) => {
                    let (t, u, _) = parse_item(s);
                    (t, u)
                }
                other => (
                    other
                        .get("title")
                        .and_then(|t| t.as_str())
                        .unwrap_or("untitled source")
                        .to_owned(),
                    other.get("url").and_then(|u| u.as_str()).map(str::to_owned),
                ),
            };
            add(t, u, None, origin.clone(), None, String::new());
        }
    }
    refs
}

/// References in bad shape: a link with no URL, or a URL that is not http(s).
pub fn broken_links(refs: &[Reference]) -> Vec<&Reference> {
    refs.iter()
        .filter(|r| {
            r.url
                .as_ref()
                .is_some_and(|u| !(u.starts_with("http://") || u.starts_with("https://")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items() {
        assert_eq!(
            parse_item("[Claude Code hooks](https://docs.anthropic.com/hooks) - stop hook schema")
                .1
                .as_deref(),
            Some("https://docs.anthropic.com/hooks")
        );
        let (t, u, _) = parse_item("Ralph plugin: https://github.com/x/ralph");
        assert_eq!(
            (t.as_str(), u.as_deref()),
            ("Ralph plugin", Some("https://github.com/x/ralph"))
        );
        assert_eq!(parse_item("**Team notes** - internal").0, "Team notes");
    }
}
