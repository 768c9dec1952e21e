//! Lint: a registry of rules with stable codes, run over a workspace, then
//! filtered by config, flags and inline `<!-- gsd-ignore CODE -->` comments.

pub mod context;
pub mod diagnostic;
mod history;
pub mod output;
pub mod project;
pub mod registry;
pub mod rules;
mod suppress;

use std::collections::HashMap;

use rayon::prelude::*;

pub use diagnostic::{Diagnostic, Severity};
pub use registry::{RULES, Rule};

use crate::model::Workspace;
use context::{Ctx, Sink};

/// Which rules to run.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Rule codes switched off (from flags and config.json `lint.disable`).
    pub disabled: Vec<String>,
}

/// Run every enabled rule; findings are sorted by file, line, code.
pub fn run(ws: &Workspace, options: &Options) -> Vec<Diagnostic> {
    let cx = Ctx::new(ws);
    let mut disabled = options.disabled.clone();
    disabled.extend(ws.config().lint_disabled());
    let mut out: Vec<Diagnostic> = RULES
        .par_iter()
        .filter(|r| !disabled.iter().any(|d| d == r.code))
        .flat_map_iter(|rule| {
            let mut sink = Sink {
                rule,
                out: Vec::new(),
            };
            (rule.check)(&cx, &mut sink);
            sink.out
        })
        .collect();
    let history = history::History::new(ws, &cx.reading, &cx.shipped);
    for d in &mut out {
        history.apply(d);
    }
    // Only files that mention gsd-ignore can suppress anything.
    let suppressing: HashMap<&std::path::Path, &crate::model::Document> = ws
        .documents()
        .into_iter()
        .filter(|d| memchr::memmem::find(d.source.bytes(), b"gsd-ignore").is_some())
        .map(|d| (d.rel_path.as_path(), d))
        .collect();
    if !suppressing.is_empty() {
        out.retain(|d| {
            !suppressing
                .get(d.file.as_path())
                .is_some_and(|doc| suppress::is_suppressed(doc, d))
        });
    }
    // Paths compare as bytes: component-wise comparison was a tenth of the run.
    out.sort_by(|a, b| {
        fn bytes(d: &Diagnostic) -> &[u8] {
            d.file.as_os_str().as_encoded_bytes()
        }
        bytes(a)
            .cmp(bytes(b))
            .then_with(|| (a.line, a.column, a.code).cmp(&(b.line, b.column, b.code)))
    });
    out
}

/// Counts by severity.
pub fn counts(diags: &[Diagnostic]) -> (usize, usize, usize) {
    let n = |s| diags.iter().filter(|d| d.severity == s).count();
    (n(Severity::Error), n(Severity::Warning), n(Severity::Info))
}
