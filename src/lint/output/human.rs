//! Human output: each finding rendered by miette with the source snippet.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceSpan};

use crate::doc::Source;
use crate::doc::excerpt::Excerpt;
use crate::lint::{Diagnostic, Severity, counts};
use crate::model::Document;

/// Where the renderer finds the text of a finding's file.
pub trait Sources {
    /// The file `file` (relative to the project root) as read, if it was.
    fn source(&mut self, file: &Path) -> Option<&Source>;
}

/// Documents held in memory, by path.
impl Sources for HashMap<&Path, &Document> {
    fn source(&mut self, file: &Path) -> Option<&Source> {
        self.get(file).map(|d| &d.source)
    }
}

/// The files read again from disk when their findings are rendered: lint
/// does not keep a big tree's documents, and the findings come sorted by
/// file, so one file is held at a time.
pub struct FromDisk {
    root: PathBuf,
    current: Option<(PathBuf, Option<Source>)>,
}

impl FromDisk {
    /// Files under the project root `root`.
    pub fn new(root: &Path) -> Self {
        FromDisk {
            root: root.to_path_buf(),
            current: None,
        }
    }
}

impl Sources for FromDisk {
    fn source(&mut self, file: &Path) -> Option<&Source> {
        if self.current.as_ref().is_none_or(|(f, _)| f != file) {
            let path = self.root.join(file);
            let read = std::fs::read(&path)
                .ok()
                .map(|b| Source::from_bytes(&path, b));
            self.current = Some((file.to_path_buf(), read));
        }
        self.current.as_ref().and_then(|(_, s)| s.as_ref())
    }
}

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
        (!self.d.help.is_empty())
            .then(|| Box::new(self.d.help_text()) as Box<dyn std::fmt::Display>)
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
    let mut docs = docs.clone();
    let _ = write(diags, &mut docs, color, files_checked, hidden, &mut out);
    String::from_utf8(out).expect("rendered from UTF-8 text")
}

/// [`render`] written to `w` as each finding is rendered: a run with a
/// hundred thousand findings never holds the whole report in memory.
pub fn write(
    diags: &[Diagnostic],
    docs: &mut impl Sources,
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
        let src = match d.span {
            Some(span) => docs
                .source(&d.file)
                .filter(|source| source.text().is_some())
                .map(|source| {
                    Excerpt::around_in(d.file.display().to_string(), source, span.start, span.len())
                }),
            None => None,
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
