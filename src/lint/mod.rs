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
use std::path::{Path, PathBuf};

use rayon::prelude::*;

pub use diagnostic::{Diagnostic, Severity};
pub use registry::{RULES, Reads, Rule};

use crate::model::{Document, Workspace};
use context::{Convention, Ctx, Facts, Sink, Tree, View};

/// Which rules to run.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Rule codes switched off (from flags and config.json `lint.disable`).
    pub disabled: Vec<String>,
}

/// Phase folders read, checked and dropped together in a streaming run:
/// enough to keep both cores busy on a small tree, few enough that a
/// batch's documents are a small part of the memory.
const BATCH_PHASES: usize = 16;

/// Run every enabled rule over a workspace read whole; findings are
/// sorted by file, line, code.
pub fn run(ws: &Workspace, options: &Options) -> Vec<Diagnostic> {
    let tree = Tree::new(ws);
    let linter = Linter::new(&tree, options);
    let found = Found::default();
    let pass = linter.check(&View::whole(ws), &found);
    linter.finish(vec![pass], found).diagnostics
}

/// Run every enabled rule over a workspace loaded as a skeleton
/// (`Scope::Skeleton`), reading its phase folders a batch at a time on the
/// thread pool and dropping each batch once checked: the findings are
/// those [`run`] gives on the workspace read whole.
pub fn run_streaming(skeleton: &Workspace, options: &Options) -> Linted {
    let tree = Tree::new(skeleton);
    let linter = Linter::new(&tree, options);
    let found = Found::for_tree(skeleton);
    let mut passes = vec![linter.check(&View::outside_phases(skeleton), &found)];
    let n = skeleton.phases.len();
    // A small tree in a few batches per thread, so that no core waits on
    // the other's last batch; a big one in batches of at most BATCH_PHASES.
    let size = (n / (4 * rayon::current_num_threads())).clamp(1, BATCH_PHASES);
    let batches: Vec<std::ops::Range<usize>> =
        (0..n).step_by(size).map(|a| a..(a + size).min(n)).collect();
    passes.par_extend(batches.into_par_iter().map(|range| {
        // The batch's documents are dropped here, once checked.
        let batch = skeleton.load_phases(range);
        linter.check(&View::batch(&batch), &found)
    }));
    linter.finish(passes, found)
}

/// Every pass's findings, in one vector the passes append to as they end
/// (in whatever order the thread pool finishes them; sorted at the end).
/// Gathering them into a new vector at the end held a big tree's hundred
/// thousand findings twice at the run's peak of memory.
#[derive(Default)]
struct Found(std::sync::Mutex<Vec<Diagnostic>>);

impl Found {
    /// Room reserved for about two findings a file: address space, not
    /// memory, until findings fill it — and no copy as it grows.
    fn for_tree(ws: &Workspace) -> Found {
        let files: usize = ws
            .phases
            .iter()
            .map(|p| p.plan_files.len() + p.summary_files.len() + p.other_files.len())
            .sum();
        Found(std::sync::Mutex::new(Vec::with_capacity(2 * files + 1024)))
    }

    /// Append a pass's findings; returns where they start.
    fn append(&self, mut diagnostics: Vec<Diagnostic>) -> usize {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let at = all.len();
        all.append(&mut diagnostics);
        at
    }

    fn into_inner(self) -> Vec<Diagnostic> {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

/// The findings of a run, and what it read.
pub struct Linted {
    pub diagnostics: Vec<Diagnostic>,
    /// The documents outside the phase folders, by path (several tracks
    /// share PROJECT.md and config.json: counted once by the caller).
    pub outside: Vec<PathBuf>,
    /// How many documents the phase folders held.
    pub phase_documents: usize,
    /// How many files were not parsed (binary, too large, unreadable).
    pub skipped: usize,
}

/// What one pass of the file rules found (its findings are in [`Found`]).
struct Pass {
    /// Findings (by index in [`Found`]) whose severity waits on the facts
    /// of every pass.
    conventions: Vec<(usize, Convention)>,
    facts: Facts,
    /// The documents that mention gsd-ignore (only they can suppress a
    /// finding), kept past the pass.
    ignoring: Vec<Document>,
    /// Paths of the documents checked, when outside the phase folders;
    /// else only their count.
    outside: Vec<PathBuf>,
    phase_documents: usize,
    skipped: usize,
}

/// Findings, and those of them (by index) whose severity waits on the
/// facts of every pass.
type Findings = (Vec<Diagnostic>, Vec<(usize, Convention)>);

/// Whether two findings of a sorted list say the same thing: same file,
/// place and rule.
pub(crate) fn same_place(a: &Diagnostic, b: &Diagnostic) -> bool {
    (a.line, a.column, a.code) == (b.line, b.column, b.code) && a.file == b.file
}

/// Sort findings by file (as bytes), line, column and rule, stably.
///
/// The order is found on indices and then applied in place: a stable sort
/// of the findings themselves takes scratch room for half of them (9 MB on
/// a 10,000-phase tree, at the run's peak of memory), one of indices 4
/// bytes a finding.
pub(crate) fn sort_by_place(all: &mut [Diagnostic]) {
    let Ok(n) = u32::try_from(all.len()) else {
        all.sort_by(place_order);
        return;
    };
    // Paths compare as bytes: component-wise comparison was a tenth of the run.
    let mut order: Vec<u32> = (0..n).collect();
    order.sort_by(|&a, &b| place_order(&all[a as usize], &all[b as usize]));
    permute(all, &mut order);
}

/// Reorder `items` so that position `i` holds what was at `order[i]`,
/// following each cycle of the permutation with swaps (`order` is used up).
fn permute<T>(items: &mut [T], order: &mut [u32]) {
    const DONE: u32 = u32::MAX;
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != DONE {
            let from = order[at] as usize;
            order[at] = DONE;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

fn place_order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    fn bytes(d: &Diagnostic) -> &[u8] {
        d.file.as_os_str().as_encoded_bytes()
    }
    bytes(a)
        .cmp(bytes(b))
        .then_with(|| (a.line, a.column, a.code).cmp(&(b.line, b.column, b.code)))
}

/// A pass's findings sorted by place, one per file, place and rule: the
/// first made (a rule reports a place once per reason — a plan that
/// overlaps three others of its wave — and the report keeps one). Done as
/// each pass ends, so the duplicates never pile up (100,000 of them on a
/// 10,000-phase tree). A file's findings of one rule all come from one pass.
fn one_per_place(found: Vec<Diagnostic>, conventions: Vec<(usize, Convention)>) -> Findings {
    let mut waiting: Vec<Option<Convention>> = Vec::new();
    if !conventions.is_empty() {
        waiting.resize_with(found.len(), || None);
        for (i, c) in conventions {
            waiting[i] = Some(c);
        }
    }
    let mut pairs: Vec<(Diagnostic, Option<Convention>)> = if waiting.is_empty() {
        found.into_iter().map(|d| (d, None)).collect()
    } else {
        found.into_iter().zip(waiting).collect()
    };
    pairs.sort_by(|a, b| place_order(&a.0, &b.0));
    pairs.dedup_by(|later, first| same_place(&later.0, &first.0));
    let mut out = Vec::with_capacity(pairs.len());
    let mut conventions = Vec::new();
    for (i, (d, c)) in pairs.into_iter().enumerate() {
        if let Some(c) = c {
            conventions.push((i, c));
        }
        out.push(d);
    }
    (out, conventions)
}

/// The rules enabled for one run over one tree.
struct Linter<'a> {
    tree: &'a Tree<'a>,
    rules: Vec<&'static Rule>,
}

impl<'a> Linter<'a> {
    fn new(tree: &'a Tree<'a>, options: &Options) -> Self {
        let mut disabled = options.disabled.clone();
        disabled.extend(tree.ws.config().lint_disabled());
        Linter {
            tree,
            rules: RULES
                .iter()
                .filter(|r| !disabled.iter().any(|d| d == r.code))
                .collect(),
        }
    }

    /// Run the enabled rules that read `reads` with `cx`, in registry order.
    fn apply(&self, reads: Reads, cx: &Ctx) -> Findings {
        let found: Vec<Findings> = self
            .rules
            .par_iter()
            .filter(|r| r.reads == reads)
            .map(|rule| {
                let mut sink = Sink::new(rule);
                (rule.check)(cx, &mut sink);
                (sink.out, sink.conventions)
            })
            .collect();
        let mut out = Vec::with_capacity(found.iter().map(|(d, _)| d.len()).sum());
        let mut conventions = Vec::new();
        for (diags, convs) in found {
            let at = out.len();
            conventions.extend(convs.into_iter().map(|(i, c)| (at + i, c)));
            out.extend(diags);
        }
        (out, conventions)
    }

    /// The file rules over one view, with the history of its files.
    fn check(&self, view: &View, found: &Found) -> Pass {
        let none = Facts::default();
        let cx = self.tree.cx(view, &none);
        let (mut diagnostics, conventions) = self.apply(Reads::Files, &cx);
        let history = history::History::new(
            self.tree.ws,
            view,
            &self.tree.reading,
            &self.tree.shipped,
            &self.tree.history,
        );
        for d in &mut diagnostics {
            history.apply(d);
        }
        let (diagnostics, conventions) = one_per_place(diagnostics, conventions);
        let at = found.append(diagnostics);
        let conventions = conventions.into_iter().map(|(i, c)| (at + i, c)).collect();
        let documents = view.documents();
        let outside: Vec<PathBuf> = view
            .core
            .iter()
            .copied()
            .chain(view.loose_plans.iter().map(|p| &p.doc))
            .chain(view.other)
            .map(|d| d.rel_path.to_path_buf())
            .collect();
        Pass {
            conventions,
            facts: Facts::of(view),
            ignoring: documents
                .iter()
                .filter(|d| memchr::memmem::find(d.source.bytes(), b"gsd-ignore").is_some())
                .map(|d| (*d).clone())
                .collect(),
            phase_documents: documents.len() - outside.len(),
            outside,
            skipped: view.skipped.len(),
        }
    }

    /// The tree rules with the facts of every pass, every severity settled,
    /// suppressions applied, findings sorted.
    fn finish(&self, passes: Vec<Pass>, found: Found) -> Linted {
        let mut all = found.into_inner();
        let mut facts = Facts::default();
        let mut ignoring = Vec::new();
        let mut pending = Vec::new();
        let (mut outside, mut phase_documents, mut skipped) = (Vec::new(), 0, 0);
        for p in passes {
            facts.merge(p.facts);
            pending.extend(p.conventions);
            ignoring.extend(p.ignoring);
            outside.extend(p.outside);
            phase_documents += p.phase_documents;
            skipped += p.skipped;
        }
        let empty = View::default();
        let (tree_found, _) = self.apply(Reads::Tree, &self.tree.cx(&empty, &facts));
        for (i, c) in pending {
            c.settle(&mut all[i], &facts);
        }
        all.extend(tree_found);
        // Only files that mention gsd-ignore can suppress anything.
        let suppressing: HashMap<&Path, &Document> =
            ignoring.iter().map(|d| (&*d.rel_path, d)).collect();
        if !suppressing.is_empty() {
            all.retain(|d| {
                !suppressing
                    .get(&*d.file)
                    .is_some_and(|doc| suppress::is_suppressed(doc, d))
            });
        }
        sort_by_place(&mut all);
        all.dedup_by(|later, first| same_place(later, first));
        Linted {
            diagnostics: all,
            outside,
            phase_documents,
            skipped,
        }
    }
}

/// Counts by severity.
pub fn counts(diags: &[Diagnostic]) -> (usize, usize, usize) {
    let n = |s| diags.iter().filter(|d| d.severity == s).count();
    (n(Severity::Error), n(Severity::Warning), n(Severity::Info))
}
