//! PROJECT.md: name, what it is, core value and the sections health checks want.

use crate::doc::markdown::Markdown;

use super::document::Document;

/// Sections `validate health` (W001) requires.
pub const REQUIRED_SECTIONS: &[&str] = &["What This Is", "Core Value", "Requirements"];

#[derive(Debug, Clone)]
pub struct Project {
    pub doc: Document,
    pub md: Markdown,
    pub name: Option<String>,
}

impl Project {
    pub fn parse(doc: Document) -> Project {
        let md = Markdown::scan(doc.text(), doc.body(), doc.line_of(doc.body().start));
        let name = md
            .headings
            .iter()
            .find(|h| h.level == 1)
            .map(|h| h.text.slice(doc.text()).to_owned());
        Project { doc, md, name }
    }

    /// The text of a `##` section (without its heading), trimmed.
    pub fn section(&self, title: &str) -> Option<&str> {
        let text = self.doc.text();
        let (i, h) = self
            .md
            .find_heading(text, |t| t.eq_ignore_ascii_case(title))?;
        let span = self.md.section(i, self.doc.body().end);
        Some(text[h.line.full.end.min(span.end)..span.end].trim())
    }

    /// `## Current Milestone: v2.0 Name` (the heading GSD's new-milestone
    /// writes): the text after the colon and its line, when it names a
    /// version.
    pub fn current_milestone(&self) -> Option<(String, usize)> {
        let text = self.doc.text();
        self.md.headings.iter().find_map(|h| {
            let t = h.text.slice(text).trim();
            let rest = t
                .get(..18)
                .filter(|p| p.eq_ignore_ascii_case("current milestone:"))
                .and_then(|_| t.get(18..))?
                .trim();
            super::milestone::find_milestone_id(rest)?;
            Some((rest.to_owned(), h.line.number))
        })
    }

    pub fn has_section(&self, title: &str) -> bool {
        let text = self.doc.text();
        self.md
            .headings
            .iter()
            .any(|h| h.level == 2 && h.text.slice(text).eq_ignore_ascii_case(title))
    }
}
