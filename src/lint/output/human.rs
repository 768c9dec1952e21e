//! Human output: each finding rendered by miette with the source snippet.

use std::collections::HashMap;
use std::path::Path;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceSpan};

use crate::doc::excerpt::Excerpt;
use crate::lint::{Diagnostic, Severity, counts};
use crate::model::Document;

#[derive(Debug)]
struct Report<'a> {
    d: &'a Diagnostic,
    /// The lines around the finding, and its span in them.
    src: Option<(Excerpt, SourceSpan)>,
}

impl std::fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.src.is_some() {
            f.write_str(&self.d.message)
        } else {
            write!(f, "{}: {}", self.d.file.display(), self.d.message)
        }
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(self.d.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        (!self.d.help.is_empty()).then(|| Box::new(&self.d.help) as Box<dyn std::fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.src.as_ref().map(|(s, _)| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (_, span) = self.src.as_ref()?;
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(self.d.code.to_owned()),
            *span,
        ))))
    }
}

/// The findings shown, each with its snippet, then a summary. `hidden`
/// counts the findings below `--min-severity`: the summary still counts
/// them (a run that hides its info has not lost it) and says they are hidden.
pub fn render(
    diags: &[Diagnostic],
    docs: &HashMap<&Path, &Document>,
    color: bool,
    files_checked: usize,
    hidden: &[Diagnostic],
) -> String {
    let mut out = Vec::new();
    let _ = write(diags, docs, color, files_checked, hidden, &mut out);
    String::from_utf8(out).expect("rendered from UTF-8 text")
}

/// [`render`] written to `w` as each finding is rendered: a run with a
/// hundred thousand findings never holds the whole report in memory.
pub fn write(
    diags: &[Diagnostic],
    docs: &HashMap<&Path, &Document>,
    color: bool,
    files_checked: usize,
    hidden: &[Diagnostic],
    w: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    for d in diags {
        out.clear();
        let src = match (d.span, docs.get(d.file.as_path())) {
            (Some(span), Some(doc)) if doc.source.text().is_some() => Some(Excerpt::around_in(
                d.file.display().to_string(),
                &doc.source,
                span.start,
                span.len(),
            )),
            _ => None,
        };
        let report = Report { d, src };
        let _ = handler.render_report(&mut out, &report);
        out.push('\n');
        w.write_all(out.as_bytes())?;
    }
    let (e, wn, i) = counts(diags);
    let (he, hw, hi) = counts(hidden);
    let not_shown = if hidden.is_empty() {
        String::new()
    } else {
        format!(" ({} below --min-severity not shown)", hidden.len())
    };
    writeln!(
        w,
        "{files_checked} files checked: {} error(s), {} warning(s), {} info{not_shown}",
        e + he,
        wn + hw,
        i + hi
    )
}
