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

    /// Work on the workstream NAME (`.planning/workstreams/NAME/`); default:
    /// GSD_WORKSTREAM, else `.planning/active-workstream`, else the only one
    /// of a tree with no root ROADMAP.md or STATE.md.
    #[arg(long = "ws", global = true, value_name = "NAME")]
    pub ws: Option<String>,

    /// When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured under auto).
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    pub color: crate::cli::style::ColorChoice,

    /// Print nothing but errors; the exit code says the rest (for scripts).
    #[arg(short, long, global = true)]
    pub quiet: bool,

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

#[derive(Debug, Subcommand)]
pub enum WorkstreamCommand {
    /// Every workstream with its status, milestone, phase and progress.
    List {
        #[command(flatten)]
        json: JsonFlag,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum PrdFormat {
    Md,
    Html,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum PlanType {
    Execute,
    Tdd,
}

/// What every Ralph loop is given, hook-driven or run headless.
#[derive(Debug, Clone, Args)]
pub struct LoopArgs {
    #[arg(long, default_value_t = 20)]
    pub max_iterations: u32,
    /// The words that end the loop, inside <promise>…</promise>.
    #[arg(long, default_value = "DONE")]
    pub promise: String,
    /// An extra check command (repeatable).
    #[arg(long = "check", value_name = "CMD")]
    pub checks: Vec<String>,
    /// Seconds each check may run.
    #[arg(long, default_value_t = 30)]
    pub check_timeout: u64,
}

#[derive(Debug, Args)]
pub struct StartRalphArgs {
    /// Start a Ralph loop on the plan: loop state, hooks, prompt.
    #[arg(long)]
    pub start_ralph: bool,
    #[command(flatten)]
    pub loop_args: LoopArgs,
    /// A command asked for guidance when checks fail (kept in the loop state).
    #[arg(long)]
    pub guidance_cmd: Option<String>,
    /// At most this many guidance queries a day (answers are cached per error).
    #[arg(long, default_value_t = 20)]
    pub guidance_limit: u32,
    /// Install the hooks in .claude/settings.local.json.
    #[arg(long)]
    pub local: bool,
    /// Replace an active loop.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum HookEvent {
    Stop,
    SubagentStop,
    SessionStart,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum GraphFormat {
    Mermaid,
    Dot,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// A static site (no network use): the roadmap with milestones and
    /// progress bars, one page per phase with its plans and graph.
    Html {
        /// The folder to write (new, empty, or a previous export).
        out: PathBuf,
        #[command(flatten)]
        json: JsonFlag,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum AgentCli {
    /// Claude Code (`claude`, or --claude PATH).
    Claude,
    /// Gemini CLI (`gemini`, or --gemini PATH; needs GEMINI_API_KEY).
    Gemini,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum HookVia {
    Settings,
    Plugin,
}

#[derive(Debug, Subcommand)]
pub enum RalphCommand {
    /// The Claude Code hook handler (reads the hook JSON on stdin).
    Hook {
        event: HookEvent,
        /// Who registered this handler; `plugin` steps aside when a settings
        /// file also runs gsd for the event (each stop is judged once).
        #[arg(long, value_enum, default_value = "settings")]
        via: HookVia,
    },
    /// Iterations, time, tokens and dollars per task, plan and phase, from
    /// the event logs of `gsd ralph run`.
    Report {
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Whether the installed hooks (settings files and plugin) will run this gsd.
    Doctor {
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Remove what plan runs left that holds no work (a worktree record whose
    /// folder is gone, a merged `gsd/ralph/*` branch, an empty `.gsd/wt-*`
    /// folder); say what is kept and why.
    Clean {
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Merge gsd's Stop, SubagentStop and SessionStart hooks into .claude/settings.json.
    InstallHooks {
        /// Use .claude/settings.local.json.
        #[arg(long)]
        local: bool,
        /// Also install the PreToolUse guard (`gsd ralph guard`).
        #[arg(long)]
        guard: bool,
    },
    /// The PreToolUse guard (reads the hook JSON on stdin): denies sudo,
    /// destructive deletes, system writes, downloads piped into shells and
    /// secrets, per config.json `ralph.guard`.
    Guard,
    /// Remove gsd's hooks (and only those).
    Uninstall {
        #[arg(long)]
        local: bool,
    },
    /// The loop: plan, status, iteration, owner, checks and the last iterations.
    Status {
        #[command(flatten)]
        json: JsonFlag,
    },
    /// End the active loop (the next stop is allowed) and record it in STATE.md.
    Stop,
    /// Run the loop headless: a fresh agent process per iteration, checks
    /// decide completion, events as JSON lines with --headless.
    Run(Box<RunArgs>),
    /// Print the loop's prompt (what to give Claude Code: `claude "$(gsd ralph prompt)"`).
    Prompt {
        #[command(flatten)]
        json: JsonFlag,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum AgentFormat {
    /// Claude Code's `--output-format stream-json`.
    StreamJson,
    /// Plain text: stdout is the agent's final message.
    Text,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The plan (`05-07`, a file name or a path); not needed with --resume.
    /// Several plans run in wave order, like --phase.
    #[arg(value_name = "PLAN")]
    pub plans: Vec<String>,
    /// Run every plan of phase N in wave order (from depends_on); each
    /// completed plan gets its SUMMARY.md, STATE advances and the roadmap's
    /// progress is updated.
    #[arg(long, value_name = "N")]
    pub phase: Option<String>,
    /// Run every phase of the current milestone, in roadmap order, like --phase.
    #[arg(long)]
    pub milestone: bool,
    /// With --phase (or several plans): run up to N plans of a wave at once,
    /// those whose files_modified do not overlap, each in its own git
    /// worktree and branch, merged back when its checks pass.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub parallel: usize,
    /// With --phase (or several plans): a live dashboard on the terminal
    /// (keys: ↑/↓ select, l log, s stop plan, p pause).
    #[arg(long, conflicts_with = "headless")]
    pub dashboard: bool,
    /// Print one JSON event per line on stdout (schema: `--schema`).
    #[arg(long)]
    pub headless: bool,
    /// Print the JSON Schema of the events and exit.
    #[arg(long)]
    pub schema: bool,
    /// Continue a run stopped by Ctrl+C.
    #[arg(long)]
    pub resume: bool,
    /// Run CMD (through `sh -c`) when the run completes, fails, is stuck or
    /// asks a question: the event's JSON on stdin, its kind in GSD_EVENT.
    #[arg(long, value_name = "CMD")]
    pub notify: Option<String>,
    /// Any agent CLI: a command line that reads the prompt on stdin
    /// (GSD_SESSION_ID, GSD_MODEL, GSD_ITERATION, GSD_PLAN in its environment).
    #[arg(long)]
    pub agent_cmd: Option<String>,
    /// What --agent-cmd prints.
    #[arg(long, value_enum, default_value = "stream-json")]
    pub agent_format: AgentFormat,
    /// The Claude Code binary of the default agent command.
    #[arg(long = "claude", default_value = "claude")]
    pub claude_bin: String,
    /// The agent CLI with a built-in adapter to run (--agent-cmd runs any other).
    #[arg(long, value_enum, default_value = "claude")]
    pub agent: AgentCli,
    /// The Gemini CLI binary for --agent gemini.
    #[arg(long = "gemini", default_value = "gemini", value_name = "PATH")]
    pub gemini_bin: String,
    /// The model when the task names none (a task's `model`, else this, else its category's default).
    #[arg(long)]
    pub model: Option<String>,
    #[arg(long, default_value = "acceptEdits")]
    pub permission_mode: String,
    /// Tools Claude Code may use without asking (repeatable).
    #[arg(long = "allowed-tool", value_name = "TOOL")]
    pub allowed_tools: Vec<String>,
    #[command(flatten)]
    pub loop_args: LoopArgs,
    /// Iterations without a completed task, commit or changed file before giving up.
    #[arg(long, default_value_t = 3)]
    pub stuck_threshold: u32,
    /// Seconds one agent process may run.
    #[arg(long, default_value_t = 1800)]
    pub iteration_timeout: u64,
    /// Stop once the agents have reported spending this many dollars.
    #[arg(long)]
    pub max_budget_usd: Option<f64>,
    /// Retries of an iteration on rate limits and overload.
    #[arg(long, default_value_t = 5)]
    pub retries: u32,
    /// The longest wait, in seconds, for an agent's usage limit to reset
    /// (then the same iteration runs again); a later reset ends the run,
    /// paused for `--resume`.
    #[arg(long, default_value_t = 6 * 3600, value_name = "SECS")]
    pub max_wait: u64,
    /// The first retry's delay in milliseconds (doubling, plus jitter).
    #[arg(long, default_value_t = 5000)]
    pub backoff_ms: u64,
    /// Start although the work tree has uncommitted changes.
    #[arg(long)]
    pub allow_dirty: bool,
    /// Replace an active loop.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// A file, a plan ID (`05-07`), or `-` for stdin.
    pub input: String,
    /// gsd-xml, msw-json, feature-list, tasks-md, prd-json or spec-md.
    #[arg(long)]
    pub to: String,
    /// The input's format (guessed from the content when absent).
    #[arg(long)]
    pub from: Option<String>,
    /// Write to FILE instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace the tasks block of this plan (the rest of the file stays byte for byte).
    #[arg(long, value_name = "PLAN_ID")]
    pub into: Option<String>,
    /// Fail instead of warning when a field cannot be carried.
    #[arg(long)]
    pub strict: bool,
    /// Write well-formed XML (everything escaped) instead of GSD's readable form.
    #[arg(long)]
    pub xml_strict: bool,
    #[command(flatten)]
    pub write: WriteFlags,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    #[arg(long)]
    pub name: Option<String>,
    #[arg(long)]
    pub description: Option<String>,
    #[arg(long)]
    pub core_value: Option<String>,
    /// A phase name (repeatable, in order).
    #[arg(long = "phase", value_name = "NAME")]
    pub phases: Vec<String>,
    /// A requirement `ID: text` (repeatable).
    #[arg(long = "requirement", value_name = "ID: TEXT")]
    pub requirements: Vec<String>,
    /// Take the defaults for anything not given (never prompt).
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Write over an existing .planning/.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub write: WriteFlags,
}

#[derive(Debug, Subcommand)]
pub enum TemplatesCommand {
    /// Every template and whether .planning/templates/ overrides it.
    List {
        #[command(flatten)]
        json: JsonFlag,
    },
    /// A template's text.
    Show { name: String },
    /// Copy a template into .planning/templates/ to customize it.
    Eject {
        name: String,
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ResearchCommand {
    /// Numbered, de-duplicated research references.
    Refs {
        #[arg(long)]
        phase: Option<String>,
        #[command(flatten)]
        json: JsonFlag,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Deny {
    Warnings,
}

/// The least severe finding `gsd lint` shows.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq, Default)]
pub enum MinSeverity {
    #[default]
    Info,
    Warning,
    Error,
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
        /// Show only findings this severe or more (the exit code is unchanged).
        #[arg(long, value_enum, default_value = "info", value_name = "LEVEL")]
        min_severity: MinSeverity,
        /// Print the rule catalogue and exit.
        #[arg(long)]
        list_rules: bool,
    },
    /// Phases on disk and in the roadmap.
    Phase {
        #[command(subcommand)]
        command: PhaseCommand,
    },
    /// Plans: list, show, new; `gsd plan 05-07 --start-ralph` starts a Ralph loop on one.
    #[command(args_conflicts_with_subcommands = true)]
    Plan {
        #[command(subcommand)]
        command: Option<PlanCommand>,
        /// The plan, with --start-ralph.
        id: Option<String>,
        #[command(flatten)]
        ralph: StartRalphArgs,
    },
    /// The roadmap: phases with status, plan and summary counts, progress.
    Roadmap {
        #[command(subcommand)]
        command: Option<RoadmapCommand>,
        /// Say which evidence settled each answer: the current milestone,
        /// each phase's status, the phase to work on
        #[arg(long)]
        explain: bool,
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
    /// Create .planning/ with every core file and the phase folders, and commit once.
    Init(InitArgs),
    /// The document templates: list, show, eject into .planning/templates/.
    Templates {
        #[command(subcommand)]
        command: TemplatesCommand,
    },
    /// Research references.
    Research {
        #[command(subcommand)]
        command: ResearchCommand,
    },
    /// Compile a PRD from PROJECT, REQUIREMENTS, ROADMAP and the research references.
    Prd {
        /// Write to FILE instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "md")]
        format: PrdFormat,
    },
    /// Convert tasks between formats: gsd-xml, msw-json, feature-list, tasks-md, prd-json, spec-md.
    Convert(ConvertArgs),
    /// Run a plan's checks (task <verify> commands and <verification>): exit 0 only when all pass.
    Verify {
        /// `05-07`, `5-7`, a file name or a path.
        plan: String,
        /// An extra check command (repeatable).
        #[arg(long = "check", value_name = "CMD")]
        checks: Vec<String>,
        /// Seconds each check may take.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Ralph loops: hook handler and hook installation.
    Ralph {
        #[command(subcommand)]
        command: RalphCommand,
    },
    /// Frontmatter of any file.
    Fm {
        #[command(subcommand)]
        command: FmCommand,
    },
    /// Export the planning tree as something to look at.
    Export {
        #[command(subcommand)]
        command: ExportCommand,
    },
    /// The workstreams (`.planning/workstreams/*`): which is active, and
    /// where each stands.
    Workstream {
        #[command(subcommand)]
        command: Option<WorkstreamCommand>,
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Deal with a change a killed gsd command left half-made
    /// (`.gsd/journal.json`): finish it and commit it, or with `--abandon`
    /// undo it. Checks every file first; changes nothing if it cannot
    /// complete.
    Recover {
        /// Undo the change instead (files edited since are left as they
        /// are and named, and the journal is dropped).
        #[arg(long)]
        abandon: bool,
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Serve this project to an agent as a Model Context Protocol server on
    /// stdin/stdout (`claude mcp add gsd -- gsd mcp`): read tools (roadmap,
    /// state, plan, lint) and write tools that commit like the CLI.
    Mcp {
        /// The project to serve (default: the working directory, or -C).
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
    },
    /// The plans of each phase as a dependency graph by wave.
    Graph {
        /// Only this phase (`5`, `05`, or its folder name).
        #[arg(long)]
        phase: Option<String>,
        #[arg(long, value_enum, default_value = "mermaid")]
        format: GraphFormat,
    },
    /// gsd as `gsd-sdk`: answer GSD's workflow queries (`gsd sdk query state.load`).
    Sdk {
        #[command(subcommand)]
        command: SdkCommand,
    },
    /// gsd as GSD Core's `gsd_run`/`gsd-tools` (npm @opengsd/gsd-core 1.14.0):
    /// `gsd core runtime-identity --raw`. Same flags (`--raw`, `--pick`, `--ws`,
    /// `--cwd`, `--project-dir`, `--json-errors`), JSON and exit codes; what gsd
    /// does not answer goes to the real gsd-tools unless `--no-fallback`.
    Core {
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "COMMAND"
        )]
        // Bytes, not text: gsd-tools (Node) reads an argument that is not
        // UTF-8 with replacement characters, and so does gsd.
        argv: Vec<std::ffi::OsString>,
    },
    /// Print a shell completion script (e.g. `source <(gsd completions bash)`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (e.g. `gsd man | man -l -`).
    Man,
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
        /// Only plans that run in this wave (the frontmatter's `wave`, else
        /// one after the latest dependency's), e.g. for a CI matrix.
        #[arg(long)]
        wave: Option<u32>,
        /// Only plans without a summary yet.
        #[arg(long)]
        pending: bool,
        #[command(flatten)]
        json: JsonFlag,
    },
    /// A new plan skeleton for PHASE: next free number, wave from depends_on, tasks per requirement.
    New {
        phase: String,
        #[arg(long)]
        name: Option<String>,
        /// Plans it depends on (`01-02`, or `2`), repeatable or comma-separated.
        #[arg(long = "depends-on", value_delimiter = ',')]
        depends_on: Vec<String>,
        /// Requirement IDs (default: the phase's, from ROADMAP.md), comma-separated.
        #[arg(long, value_delimiter = ',')]
        requirements: Option<Vec<String>>,
        #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
        autonomous: bool,
        #[arg(long = "type", value_enum, default_value = "execute")]
        plan_type: PlanType,
        #[command(flatten)]
        write: WriteFlags,
    },
    /// Show one plan: `05-07`, `5-7`, a file name or a path.
    Show {
        id: String,
        #[command(flatten)]
        json: JsonFlag,
    },
}

/// Flags every write command takes.
#[derive(Debug, Args, Clone, Default)]
pub struct WriteFlags {
    /// Print the unified diff and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Write but do not commit.
    #[arg(long)]
    pub no_commit: bool,
    /// Commit files this change touches even if they hold your own
    /// uncommitted edits (they go into gsd's commit).
    #[arg(long)]
    pub include_dirty: bool,
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
        /// A value may start with `-` (`-` as a placeholder, `- item`).
        #[arg(allow_hyphen_values = true)]
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
        /// Where work stopped, e.g. "Phase 3 plan 2 task 1" (kept as is when absent).
        #[arg(long)]
        stopped_at: Option<String>,
        /// The file to resume from (recorded as "None" when absent).
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
        /// A value may start with `-` (`- a`, a block list; `-1`).
        #[arg(allow_hyphen_values = true)]
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

impl WriteFlags {
    /// How the library stores the change.
    pub fn options(&self) -> crate::ops::WriteOptions {
        crate::ops::WriteOptions {
            dry_run: self.dry_run,
            no_commit: self.no_commit,
            include_dirty: self.include_dirty,
        }
    }
}

/// `gsd sdk …`.
#[derive(Debug, Subcommand)]
pub enum SdkCommand {
    /// Answer one `gsd-sdk query` call: `gsd sdk query config-get workflow.research`.
    /// Same resolution, JSON and exit codes as gsd-sdk 1.42.3; commands gsd does
    /// not cover go to the real gsd-sdk unless `--no-fallback` (or
    /// GSD_SDK_FALLBACK=off). Also `--pick FIELD`, `--project-dir DIR`, `--cwd DIR`.
    Query {
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "COMMAND"
        )]
        argv: Vec<String>,
    },
    /// Put `gsd-sdk`, `gsd_run` and `gsd-tools` links to gsd in DIR (default
    /// ~/.local/bin), which must come before npm's bins on PATH; with
    /// CLAUDE_ENV_FILE set (a Claude Code SessionStart hook), also the line
    /// that puts DIR first on the session's PATH. `--uninstall` removes both.
    InstallShim {
        dir: Option<PathBuf>,
        #[arg(long)]
        uninstall: bool,
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Which of GSD's own calls gsd answers natively, counted in an installed
    /// package: get-shit-done-cc's `gsd-sdk query` calls, or @opengsd/gsd-core's
    /// `gsd_run` calls (workflows, commands, agents, skills).
    Coverage {
        /// The package folder, e.g. $(npm root -g)/@opengsd/gsd-core or
        /// $(npm root -g)/get-shit-done-cc.
        package: PathBuf,
        #[command(flatten)]
        json: JsonFlag,
    },
}
