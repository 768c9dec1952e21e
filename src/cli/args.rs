//! The command line, as clap types.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "gsd",
    version,
    about = "Fast, exact tooling for GSD .planning/ directories",
    propagate_version = true
)]
pub struct Cli {
    /// Run as if started in DIR (like git -C).
    #[arg(short = 'C', global = true, value_name = "DIR")]
    pub dir: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
    Github,
    Sarif,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Deny {
    Warnings,
}

#[derive(Debug, Args)]
pub struct JsonFlag {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check the planning tree (exit 1 on errors).
    Lint {
        /// A project root, a .planning/ folder, or a folder inside one.
        path: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Also fail on warnings.
        #[arg(long, value_enum)]
        deny: Option<Deny>,
        /// Switch a rule off (repeatable).
        #[arg(long = "disable", value_name = "CODE")]
        disable: Vec<String>,
        /// Print the rule catalogue and exit.
        #[arg(long)]
        list_rules: bool,
    },
    /// Phases on disk and in the roadmap.
    Phase {
        #[command(subcommand)]
        command: PhaseCommand,
    },
    /// Plans: list, show.
    Plan {
        #[command(subcommand)]
        command: PlanCommand,
    },
    /// The roadmap: phases with status, plan and summary counts, progress.
    Roadmap {
        #[command(subcommand)]
        command: Option<RoadmapCommand>,
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Project state (STATE.md).
    State {
        #[command(subcommand)]
        command: Option<StateCommand>,
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Frontmatter of any file.
    Fm {
        #[command(subcommand)]
        command: FmCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum RoadmapCommand {
    /// Rebuild the progress table from disk (deterministic: a rerun changes nothing).
    UpdateProgress {
        #[command(flatten)]
        write: WriteFlags,
    },
}

#[derive(Debug, Subcommand)]
pub enum PhaseCommand {
    /// List phases (current and archived).
    List {
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Add the next integer phase: folder, checklist entry, details, progress row.
    Add {
        name: String,
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Insert a decimal phase after AFTER (`gsd phase insert 2 "Hotfix"` makes 2.1).
    Insert {
        after: String,
        name: String,
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Remove phase N and renumber the phases after it (folders, files, IDs, references).
    Remove {
        phase: String,
        /// Go ahead even though executed plans are renumbered or deleted.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Mark phase N complete in ROADMAP.md and advance STATE.md.
    Complete {
        phase: String,
        /// Complete it even though plans lack summaries.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        write: WriteFlags,
    },
}

#[derive(Debug, Subcommand)]
pub enum PlanCommand {
    /// List plans.
    List {
        /// Only this phase.
        #[arg(long)]
        phase: Option<String>,
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Show one plan: `05-07`, `5-7`, a file name or a path.
    Show {
        id: String,
        #[command(flatten)]
        json: JsonFlag,
    },
}

/// Flags every write command takes.
#[derive(Debug, Args, Clone)]
pub struct WriteFlags {
    /// Print the unified diff and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Write but do not commit.
    #[arg(long)]
    pub no_commit: bool,
    /// Report the changed files and the commit as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum StateCommand {
    /// One field (camelCase, snake_case or the body label).
    Get {
        field: String,
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Set a field everywhere STATE.md shows it: `gsd state set currentPhase 5`.
    Set {
        field: String,
        value: String,
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Set several fields in one write and one commit: `gsd state patch status=Executing plan=2`.
    Patch {
        #[arg(value_name = "FIELD=VALUE", required = true)]
        pairs: Vec<String>,
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Move to the next plan, or to the next phase when this one is done.
    Advance {
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Record the session: now, where it stopped, the file to resume from.
    RecordSession {
        #[arg(long)]
        stopped_at: Option<String>,
        #[arg(long)]
        resume_file: Option<String>,
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Recompute derived values (progress, totals) from the roadmap and disk, and show them.
    Sync {
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Decisions: `gsd state decision add TEXT`.
    Decision {
        #[command(subcommand)]
        command: ListCommand,
    },
    /// Blockers: `gsd state blocker add TEXT`, `gsd state blocker resolve N|TEXT`.
    Blocker {
        #[command(subcommand)]
        command: ListCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum ListCommand {
    /// Add an entry (placeholders like "None yet." are replaced).
    Add {
        text: String,
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Remove entry N (1-based) or the first containing TEXT.
    Resolve {
        which: String,
        #[command(flatten)]
        write: WriteFlags,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Schema {
    Plan,
    Summary,
    Verification,
}

#[derive(Debug, Subcommand)]
pub enum FmCommand {
    /// The frontmatter of FILE, or one (dotted) KEY of it.
    Get {
        file: PathBuf,
        key: Option<String>,
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Set a (dotted) KEY to a YAML VALUE: `gsd fm set PLAN.md must_haves.truths.0 "It works"`.
    Set {
        file: PathBuf,
        key: String,
        value: String,
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Merge a JSON object's keys into the frontmatter (top level).
    Merge {
        file: PathBuf,
        json_object: String,
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Check the required keys (and value types) of a schema; exit 1 when invalid.
    Validate {
        file: PathBuf,
        #[arg(long, value_enum)]
        schema: Schema,
        #[command(flatten)]
        json: JsonFlag,
    },
}
