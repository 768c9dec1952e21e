//! What a rule sees (the tree, and the documents of one pass) and where it
//! reports (the sink).
//!
//! Lint reads a big tree in passes so that it never holds it whole: the
//! tree ([`Tree`]: the core documents, the files outside phase folders and
//! every phase folder's listing) stays loaded, and the file rules run over
//! one [`View`] at a time — the files outside the phase folders, then the
//! phase folders a batch at a time. What a tree rule needs to know of the
//! phase files is gathered as [`Facts`] on the way.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use crate::doc::Span;
use crate::model::reading::RoadmapReading;
use crate::model::requirements::Requirements;
use crate::model::workspace::{Phase, PhaseBatch, PhaseLocation, Skipped};
use crate::model::{Document, PhaseIndex, Plan, Workspace};

use super::diagnostic::{Diagnostic, Severity};
use super::registry::Rule;

/// A finding's severity that waits on the whole tree: lowered to a warning
/// when the project's plans that ran (their SUMMARY is on disk) share the
/// fault, since GSD's executor ran that format. Which plans ran is known
/// only once every phase folder has been read.
#[derive(Debug)]
pub(crate) enum Convention {
    /// A plan that ran had no frontmatter.
    BarePlanRan,
    /// Plans that ran went without these required keys (with the keys the
    /// executor fills in, once any plan that ran lacked a key).
    KeysRanWithout(Vec<&'static str>),
    /// Tasks of this type in plans that ran went without these children.
    TaskChildrenRanWithout(String, Vec<&'static str>),
}

/// Keys GSD's executor gives the value nearly every plan states when they
/// are missing: `autonomous: true`, `type: execute` (not `wave`: plans of
/// later waves say so).
const EXECUTOR_DEFAULTS: &[&str] = &["autonomous", "type"];

impl Convention {
    fn holds(&self, facts: &Facts) -> bool {
        match self {
            Convention::BarePlanRan => facts.bare_plan_ran,
            Convention::KeysRanWithout(missing) => missing.iter().all(|k| {
                facts.keys_ran_without.contains(k)
                    || (!facts.keys_ran_without.is_empty() && EXECUTOR_DEFAULTS.contains(k))
            }),
            Convention::TaskChildrenRanWithout(kind, missing) => missing
                .iter()
                .all(|c| facts.task_child_ran_without(kind, c)),
        }
    }

    /// The severity `d` ends with once `facts` are known.
    pub(crate) fn settle(&self, d: &mut Diagnostic, facts: &Facts) {
        if self.holds(facts) {
            d.severity = Severity::Warning.max(d.severity);
        }
    }
}

/// What the tree rules and the conventions need to know of the phase files,
/// gathered from every pass (so the files need not stay loaded).
#[derive(Debug, Default)]
pub struct Facts {
    /// A phase plan that ran has no frontmatter.
    pub(crate) bare_plan_ran: bool,
    /// Required frontmatter keys phase plans that ran go without.
    pub(crate) keys_ran_without: HashSet<&'static str>,
    /// Task children, by task type, the tasks of plans that ran go without:
    /// a few pairs, looked up before adding (a set of owned pairs made a
    /// String for every task of every plan that ran).
    pub(crate) task_children_ran_without: Vec<(String, &'static str)>,
    /// Requirement IDs the plans name: their `requirements:` lists and any
    /// ID written in their text (GSD's gap analysis counts those covered).
    pub requirements_named: HashSet<String>,
    /// Some plan traces requirements as GSD's planner writes them (a
    /// `requirements:` list, a `Requirements:` line or section): only then
    /// is a requirement no plan names a gap.
    pub requirements_traced: bool,
    /// Phase folder → how many of its summaries say execution stopped.
    pub stopped_summaries: HashMap<PathBuf, usize>,
}

impl Facts {
    /// The facts of the documents of `view`.
    pub fn of(view: &View) -> Facts {
        let mut f = Facts::default();
        for ph in view.phases {
            for p in ph
                .plans
                .iter()
                .filter(|p| !p.is_quick() && ph.plan_has_summary(p))
            {
                f.bare_plan_ran |= super::rules::plan::bare(p);
                if let Some(missing) = super::rules::plan::missing_keys(p) {
                    f.keys_ran_without.extend(missing);
                }
                for t in p.tasks.iter().filter(|t| t.unclosed_children.is_empty()) {
                    for c in t.kind.schema().0.iter().filter(|c| !t.has(c)) {
                        f.add_task_child_ran_without(t.kind.as_str(), c);
                    }
                }
            }
            let stopped = ph.summaries.iter().filter(|s| s.stopped).count();
            if stopped > 0 {
                f.stopped_summaries.insert(ph.dir.clone(), stopped);
            }
        }
        f.requirements_traced = super::rules::project::referenced(view, &mut f.requirements_named);
        f
    }

    /// Whether tasks of type `kind` in plans that ran go without `child`.
    fn task_child_ran_without(&self, kind: &str, child: &str) -> bool {
        self.task_children_ran_without
            .iter()
            .any(|(k, c)| k == kind && *c == child)
    }

    fn add_task_child_ran_without(&mut self, kind: &str, child: &'static str) {
        if !self.task_child_ran_without(kind, child) {
            self.task_children_ran_without
                .push((kind.to_owned(), child));
        }
    }

    /// Add the facts of another pass.
    pub fn merge(&mut self, other: Facts) {
        self.bare_plan_ran |= other.bare_plan_ran;
        self.keys_ran_without.extend(other.keys_ran_without);
        for (kind, c) in other.task_children_ran_without {
            self.add_task_child_ran_without(&kind, c);
        }
        self.requirements_named.extend(other.requirements_named);
        self.requirements_traced |= other.requirements_traced;
        self.stopped_summaries.extend(other.stopped_summaries);
    }
}

/// The documents one pass of the file rules checks: a whole workspace, or
/// the files outside the phase folders, or a batch of phase folders.
#[derive(Default)]
pub struct View<'a> {
    pub phases: &'a [Phase],
    pub loose_plans: &'a [Plan],
    pub other: &'a [Document],
    /// PROJECT.md, ROADMAP.md, STATE.md, REQUIREMENTS.md and config.json,
    /// those read.
    pub core: Vec<&'a Document>,
    pub skipped: &'a [Skipped],
}

impl<'a> View<'a> {
    /// Every document of `ws`.
    pub fn whole(ws: &'a Workspace) -> View<'a> {
        View {
            phases: &ws.phases,
            ..View::outside_phases(ws)
        }
    }

    /// The documents of `ws` outside its phase folders.
    pub fn outside_phases(ws: &'a Workspace) -> View<'a> {
        let core = [
            ws.project.as_ref().map(|p| &p.doc),
            ws.roadmap.as_ref().map(|p| &p.doc),
            ws.state.as_ref().map(|p| &p.doc),
            ws.requirements.as_ref().map(|p| &p.doc),
            ws.config_doc.as_ref(),
        ];
        View {
            phases: &[],
            loose_plans: &ws.loose_plans,
            other: &ws.other,
            core: core.into_iter().flatten().collect(),
            skipped: &ws.skipped,
        }
    }

    /// The phase folders of a batch.
    pub fn batch(batch: &'a PhaseBatch) -> View<'a> {
        View {
            phases: &batch.phases,
            skipped: &batch.skipped,
            ..View::default()
        }
    }

    /// Phases in `phases/` (not archived).
    pub fn current_phases(&self) -> impl Iterator<Item = &'a Phase> + 'a {
        self.phases
            .iter()
            .filter(|p| p.location == PhaseLocation::Current)
    }

    /// Every plan: in phases, then loose ones (as `Workspace::all_plans`).
    pub fn all_plans(&self) -> impl Iterator<Item = &'a Plan> + 'a {
        self.phases
            .iter()
            .flat_map(|p| p.plans.iter())
            .chain(self.loose_plans.iter())
    }

    /// Every text document, in `Workspace::documents`' order.
    pub fn documents(&self) -> Vec<&'a Document> {
        let mut v: Vec<&Document> = self.core.clone();
        for ph in self.phases {
            v.extend(ph.plans.iter().map(|p| &p.doc));
            v.extend(ph.summaries.iter().map(|s| &s.doc));
            v.extend(ph.other_docs.iter());
        }
        v.extend(self.loose_plans.iter().map(|p| &p.doc));
        v.extend(self.other.iter());
        v
    }
}

/// Collects findings for one rule at a time.
pub struct Sink<'a> {
    pub(crate) rule: &'a Rule,
    pub(crate) out: Vec<Diagnostic>,
    /// Findings (by index in `out`) whose severity waits on the whole tree.
    pub(crate) conventions: Vec<(usize, Convention)>,
}

impl<'a> Sink<'a> {
    pub(crate) fn new(rule: &'a Rule) -> Self {
        Sink {
            rule,
            out: Vec::new(),
            conventions: Vec::new(),
        }
    }

    /// Report at a span with `severity`, lowered to a warning at the end of
    /// the run if the plans that ran share the fault ([`Convention`]).
    pub(crate) fn at_unless_ran_so(
        &mut self,
        convention: Convention,
        severity: Severity,
        doc: &Document,
        span: Span,
        message: impl Into<String>,
        help: impl Into<Cow<'static, str>>,
    ) {
        self.conventions.push((self.out.len(), convention));
        self.at_severity(severity, doc, span, message, help);
    }

    /// A finding about a whole file, lowered as [`Sink::at_unless_ran_so`].
    pub(crate) fn file_unless_ran_so(
        &mut self,
        convention: Convention,
        file: impl crate::lint::diagnostic::FilePath,
        message: impl Into<String>,
        help: impl Into<Cow<'static, str>>,
    ) {
        self.conventions.push((self.out.len(), convention));
        self.file(file, message, help);
    }

    /// Report at a span of a document.
    pub fn at(
        &mut self,
        doc: &Document,
        span: Span,
        message: impl Into<String>,
        help: impl Into<Cow<'static, str>>,
    ) {
        self.at_severity(self.rule.severity, doc, span, message, help);
    }

    /// Report at a span with a severity other than the rule's (a rule whose
    /// finding weighs more in one kind of file than another).
    pub fn at_severity(
        &mut self,
        severity: super::diagnostic::Severity,
        doc: &Document,
        span: Span,
        message: impl Into<String>,
        help: impl Into<Cow<'static, str>>,
    ) {
        self.out.push(Diagnostic::at(
            self.rule.code,
            severity,
            doc,
            span,
            message.into(),
            help.into(),
        ));
    }

    /// `file` with a severity other than the rule's.
    pub fn file_severity(
        &mut self,
        severity: super::diagnostic::Severity,
        file: impl crate::lint::diagnostic::FilePath,
        message: impl Into<String>,
        help: impl Into<Cow<'static, str>>,
    ) {
        self.out.push(Diagnostic::file(
            self.rule.code,
            severity,
            file,
            message.into(),
            help.into(),
        ));
    }

    /// `at_line` with a severity other than the rule's.
    pub fn at_line_severity(
        &mut self,
        severity: super::diagnostic::Severity,
        doc: &Document,
        line: usize,
        message: impl Into<String>,
        help: impl Into<Cow<'static, str>>,
    ) {
        let span = doc.source.line_span(line);
        self.at_severity(severity, doc, span, message, help);
    }

    /// The rule's own severity.
    pub fn severity(&self) -> super::diagnostic::Severity {
        self.rule.severity
    }

    /// Report at a 1-based line of a document.
    pub fn at_line(
        &mut self,
        doc: &Document,
        line: usize,
        message: impl Into<String>,
        help: impl Into<Cow<'static, str>>,
    ) {
        let span = doc.source.line_span(line);
        self.at(doc, span, message, help);
    }

    /// Report about a file as a whole (it may not exist).
    pub fn file(
        &mut self,
        file: impl crate::lint::diagnostic::FilePath,
        message: impl Into<String>,
        help: impl Into<Cow<'static, str>>,
    ) {
        self.file_severity(self.rule.severity, file, message, help);
    }
}

/// What every pass shares, built once: the tree and what is read from it.
pub struct Tree<'a> {
    /// The workspace linted: read whole, or as a skeleton whose phase
    /// folders are only listed.
    pub ws: &'a Workspace,
    /// Phase lookups by ID, built once for all rules.
    pub phases: PhaseIndex<'a>,
    /// The milestone reading every command shares (current milestone,
    /// archived and active phases).
    pub reading: RoadmapReading,
    /// Requirements of shipped milestones (`milestones/vX.Y-REQUIREMENTS.md`).
    pub archived_requirements: Vec<Requirements>,
    /// What MILESTONES.md and `milestones/` record as shipped (read once).
    pub shipped: crate::model::shipped::ShippedRecords,
    /// The phase STATE.md's position names first (read once: rules ask
    /// per phase whether the work has moved past it).
    state_phase: Option<crate::model::PhaseId>,
    /// What every pass's history reads from the whole tree.
    pub history: crate::lint::history::TreeHistory,
}

impl<'a> Tree<'a> {
    pub fn new(ws: &'a Workspace) -> Self {
        let reading = RoadmapReading::new(ws);
        Tree {
            ws,
            phases: PhaseIndex::new(ws),
            history: crate::lint::history::TreeHistory::of(ws, &reading),
            reading,
            archived_requirements: ws.archived_requirements(),
            shipped: crate::model::shipped::ShippedRecords::of(ws),
            state_phase: ws
                .state
                .as_ref()
                .and_then(|st| st.positions().into_iter().next())
                .map(|pos| pos.phase),
        }
    }

    /// What a rule sees in a pass over `view`, with the `facts` gathered.
    pub fn cx<'b>(&'b self, view: &'b View<'b>, facts: &'b Facts) -> Ctx<'b>
    where
        'a: 'b,
    {
        Ctx {
            ws: self.ws,
            view,
            facts,
            phases: &self.phases,
            reading: &self.reading,
            archived_requirements: &self.archived_requirements,
            shipped: &self.shipped,
            state_phase: self.state_phase.as_ref(),
        }
    }
}

/// The input of every rule.
pub struct Ctx<'a> {
    /// The tree: its core documents, the files outside phase folders and
    /// every phase folder's listing. A file rule reads documents from
    /// `view`, never from here (in a streaming run the phase folders here
    /// are only listed).
    pub ws: &'a Workspace,
    /// The documents this pass checks (file rules).
    pub view: &'a View<'a>,
    /// What every pass gathered (tree rules; empty for file rules).
    pub facts: &'a Facts,
    pub phases: &'a PhaseIndex<'a>,
    pub reading: &'a RoadmapReading,
    pub archived_requirements: &'a [Requirements],
    pub shipped: &'a crate::model::shipped::ShippedRecords,
    state_phase: Option<&'a crate::model::PhaseId>,
}

impl<'a> Ctx<'a> {
    /// A file of the planning folder read (`.planning/` or the
    /// workstream's), relative to the project root, for findings.
    pub fn planning_rel(&self, name: &str) -> PathBuf {
        self.ws.rel(&self.ws.planning.join(name)).to_path_buf()
    }

    /// GSD's first layout (BRIEF.md, no PROJECT.md): it had no STATE.md or
    /// config.json either, so their absence is a note, not a fault.
    pub fn legacy_layout(&self) -> bool {
        let top = self.ws.root.join(".planning");
        top.join("BRIEF.md").is_file() && !top.join("PROJECT.md").is_file()
    }

    /// A `.planning/` that GSD has only mapped (`/gsd:map-codebase` writes
    /// `codebase/` before `new-project` is run): its map and no core file
    /// or phase yet, so nothing is missing — the project is not started.
    /// (An empty `.planning/` is not this: its core files are missing.)
    pub fn not_started(&self) -> bool {
        let ws = self.ws;
        ws.planning.join("codebase").is_dir()
            && ws.roadmap.is_none()
            && ws.state.is_none()
            && ws.project.is_none()
            && ws.config.is_none()
            && ws.phases.is_empty()
            && ws.workstream.is_none()
    }

    /// A workstream other than the one GSD works on whose every milestone
    /// has shipped (`**Status:** Complete`, an archive): a finished track
    /// kept for its records, not work a missing file could hold up.
    pub fn finished_workstream(&self) -> bool {
        let Some(name) = self.ws.workstream.as_deref() else {
            return false;
        };
        let active = crate::model::workstream::resolve(&self.ws.root)
            .ok()
            .flatten();
        active.as_deref() != Some(name)
            && self.reading.current_milestone.is_none()
            && !self.reading.milestones.is_empty()
            && self
                .reading
                .milestones
                .iter()
                .all(|m| m.status == crate::model::milestone::MilestoneStatus::Shipped)
    }

    /// `rule` unless the tree uses GSD's first layout, or is not started,
    /// or is a finished workstream, where a missing core file is a note.
    pub fn weigh_layout(&self, rule: super::diagnostic::Severity) -> super::diagnostic::Severity {
        if self.legacy_layout() || self.not_started() || self.finished_workstream() {
            super::diagnostic::Severity::Info
        } else {
            rule
        }
    }

    /// A missing core file's finding: `rule`'s severity weighed by the
    /// layout, and a note for the message. A file the repository's
    /// `.gitignore` keeps out of git (`.planning/*` with only the roadmap
    /// and state un-ignored, a config.json with local secrets) is missing
    /// from every clone by the project's choice: a note, not a fault CI
    /// should fail on.
    pub fn weigh_missing(
        &self,
        rule: Severity,
        rel: &std::path::Path,
    ) -> (Severity, &'static str, Option<&'static str>) {
        if ignored_by_git(&self.ws.root, rel) {
            (
                Severity::Info,
                "; the repository's .gitignore keeps it out of git, so a clone has none",
                Some(
                    "nothing to fix where it is kept locally; commit it (`git add -f`) if CI should read it",
                ),
            )
        } else {
            (self.weigh_layout(rule), "", None)
        }
    }

    /// Between milestones with the roadmap removed: GSD's complete-milestone
    /// archives ROADMAP.md (`milestones/vX.Y-ROADMAP.md`, a MILESTONES.md
    /// entry) and the next new-milestone writes a fresh one.
    pub fn roadmap_archived(&self) -> bool {
        crate::model::shipped::roadmap_archived(self.ws)
    }

    /// Whether a phase is live work: in the current milestone (or a roadmap
    /// without milestones) and not complete. Findings about any other phase
    /// — shipped, finished, of a later milestone — are history or plans,
    /// kept as info.
    pub fn live(&self, id: &crate::model::PhaseId) -> bool {
        self.reading
            .phase(id)
            .is_some_and(|p| p.active && p.status != "complete")
    }

    /// Whether the work has moved past phase `id`: STATE.md's position is
    /// a later phase, a later live phase has run plans, or every live phase is
    /// complete (the milestone's work is done). What `id`'s records still lack is then history, not drift.
    pub fn moved_past(&self, id: &crate::model::PhaseId) -> bool {
        let live = || {
            self.reading
                .phases
                .iter()
                .filter(|p| p.active && !p.backlog)
        };
        // STATE.md has the work on a later phase of the live milestone:
        // it is there now, whatever summaries were written. (Not the
        // reading's current phase: a tick alone moves that on.)
        let at_later = self
            .state_phase
            .is_some_and(|at| at > id && live().any(|p| p.phase_id.same(at)));
        at_later
            || live().any(|p| p.phase_id > *id && p.summaries > 0)
            || (live().next().is_some() && live().all(|p| p.status == "complete"))
    }

    /// Whether phase `id` is finished work: the work has moved past it, or
    /// the tree says its plans ran (its VERIFICATION.md passed, a status
    /// says its code is complete): what its records lack is history, not
    /// the work at hand.
    pub fn finished(&self, id: &crate::model::PhaseId) -> bool {
        self.moved_past(id) || self.reading.phase(id).is_some_and(|p| p.ran.is_some())
    }

    /// The severity for a finding about phase `id`: the rule's own while
    /// the phase is live, else info.
    pub fn weigh(
        &self,
        id: &crate::model::PhaseId,
        rule: super::diagnostic::Severity,
    ) -> super::diagnostic::Severity {
        if self.live(id) {
            rule
        } else {
            super::diagnostic::Severity::Info
        }
    }
}

/// Whether git ignores `rel` (relative to the project root `root`): the
/// repository holding `root` has a `.gitignore` rule for it. Outside a
/// repository (a tree copied out of one, `.gitignore` beside it), the
/// project's own `.gitignore` files say the same: the root's and the
/// planning folder's. False when neither can say.
fn ignored_by_git(root: &std::path::Path, rel: &std::path::Path) -> bool {
    let Ok(abs) = root.canonicalize() else {
        return false;
    };
    let Ok(repo) = git2::Repository::discover(&abs) else {
        return ignored_by_files(&abs, rel);
    };
    let Some(workdir) = repo.workdir().and_then(|w| w.canonicalize().ok()) else {
        return false;
    };
    let Ok(inside) = abs
        .join(rel)
        .strip_prefix(&workdir)
        .map(std::path::Path::to_path_buf)
    else {
        return false;
    };
    if !repo.is_path_ignored(&inside).unwrap_or(false) {
        return false;
    }
    // The whole planning folder ignored (`commit_docs: false`, or a tree
    // inside another repository's ignored folder): the checkout is the
    // only copy, and a file missing from it is missing — unless the
    // project force-adds a selection of that folder, which it publishes.
    let Some(folder) = inside.parent() else {
        return true;
    };
    if !repo.is_path_ignored(folder).unwrap_or(false) {
        return true;
    }
    let prefix = folder.to_string_lossy().replace('\\', "/") + "/";
    repo.index().is_ok_and(|index| {
        index
            .iter()
            .any(|e| String::from_utf8_lossy(&e.path).starts_with(&prefix))
    })
}

/// `rel` matched by the `.gitignore` files at `root` and in the folders on
/// the way down to it (the last match wins, `!` re-includes), as git reads
/// them. Only files that exist are read.
fn ignored_by_files(root: &std::path::Path, rel: &std::path::Path) -> bool {
    let mut dir = root.to_path_buf();
    let mut ignored = false;
    let mut parts = rel.parent().into_iter().flat_map(|p| p.components());
    loop {
        let file = dir.join(".gitignore");
        if file.is_file() {
            let (rules, _) = ignore::gitignore::Gitignore::new(&file);
            let inside = root.join(rel);
            if !inside.starts_with(&dir) {
                return ignored;
            }
            match rules.matched_path_or_any_parents(&inside, false) {
                ignore::Match::Ignore(_) => ignored = true,
                ignore::Match::Whitelist(_) => ignored = false,
                ignore::Match::None => {}
            }
        }
        match parts.next() {
            Some(c) => dir.push(c),
            None => return ignored,
        }
    }
}
