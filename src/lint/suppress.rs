//! Inline suppression: `<!-- gsd-ignore CODE[, CODE…] -->` on the line of a
//! finding or the line above it; `<!-- gsd-ignore-file CODE -->` anywhere in
//! the file; in YAML frontmatter, `# gsd-ignore CODE` works the same way.

use crate::model::Document;

use super::diagnostic::Diagnostic;

fn codes_after<'a>(line: &'a str, marker: &str) -> Option<Vec<&'a str>> {
    let at = line.find(marker)?;
    let rest = &line[at + marker.len()..];
    let rest = rest.split("-->").next().unwrap_or(rest);
    Some(
        rest.split([',', ' '])
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect(),
    )
}

pub fn is_suppressed(doc: &Document, d: &Diagnostic) -> bool {
    let text = doc.text();
    if !text.contains("gsd-ignore") {
        return false;
    }
    let matches = |codes: Vec<&str>| codes.iter().any(|c| *c == d.code || *c == "all");
    if text
        .lines()
        .any(|l| codes_after(l, "gsd-ignore-file").is_some_and(matches))
    {
        return true;
    }
    let line = |n: u32| {
        if n == 0 {
            ""
        } else {
            doc.source.line_span(n as usize).slice(text)
        }
    };
    [d.line, d.line.saturating_sub(1)]
        .into_iter()
        .map(line)
        .any(|l| {
            !l.contains("gsd-ignore-file") && codes_after(l, "gsd-ignore").is_some_and(matches)
        })
}
