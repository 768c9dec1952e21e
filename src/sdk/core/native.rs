//! The GSD Core 1.14.0 commands gsd answers itself, by canonical name.
//!
//! Two kinds: the engine's own answers (the 1.42.3 handlers in
//! `super::super::commands`) where 1.14.0 answers the same — checked on the
//! corpus by `tests/sdk_core.rs` — given this dialect's raw form; and the
//! commands only GSD Core has. A handler that meets a case where 1.14.0
//! answers differently or from state gsd does not read (a config key only
//! 1.14.0's schema defaults, a runtime other than Claude Code) hands the call
//! on rather than guess.

use std::path::Path;

use serde_json::{Value, json};

use super::super::commands::{config, listing, mvp, phase_find, phases, text, triage};
use super::super::{Call, Reply, SdkError};
use super::output::{Failure, Out, js_string};
use super::{
    agents, context_use, custom_files, eval_score, frontmatter, gitinfo, graphify,
    init_execute_phase, init_manager, init_milestone, init_phase_op, init_phase_workflows,
    init_plan_phase, init_quick, init_todos, init_workflows, init_workspaces, isolation,
    loop_hooks, models, mvp_mode, phase_writes, predicate, progress, quick_batch, reads, research,
    review_lane, roadmap_analyze, runtime_facts, smart_entry, state_get, state_lists, state_load,
    state_metrics, state_snapshot, state_writes, summary_extract, tdd_applicable, test_command,
    todos, tree_writes, user_story, verification, windows, workstreams, writes,
};

/// The GSD Core package and version this dialect answers as.
pub const PACKAGE: &str = "@opengsd/gsd-core";
pub const VERSION: &str = "1.14.0";

/// Why a native handler does not answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// Hand the call to the real gsd-tools; the text says why.
    HandOn(String),
    /// Fail the way gsd-tools fails.
    Fail(Failure),
}

/// One call as a native handler sees it.
#[derive(Debug)]
pub struct CoreCall<'a> {
    /// gsd-tools' `cwd` for every handler (after `--cwd`, `--project-dir`
    /// and its walk to the root): a relative file argument resolves here.
    pub project: &'a Path,
    /// The process's own working directory.
    pub cwd: &'a Path,
    pub args: &'a [String],
    /// `--default VALUE` (gsd-tools takes it off the argv for every command).
    pub default: Option<&'a str>,
    /// The real gsd-tools the call would go to, if any (its install marker
    /// names the runtime it was installed for).
    pub real: Option<&'a Path>,
    /// `--pick` was given: 1.14.0 cannot pick from what a command writes
    /// straight to stdout (it prints the answer, then fails).
    pub picked: bool,
    /// The workstream the call names or the pointers give, for the
    /// commands that answer whichever one is active ([`Scope::Root`]).
    pub workstream: Option<&'a str>,
}

pub type Handler = fn(&CoreCall) -> Result<Out, Refusal>;

/// How a native command relates to the project tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Reads `.planning/`: answered only where gsd-tools' project root is
    /// the working directory and no workstream is active.
    Planning,
    /// Reads `.planning/` where there is one, and answers outside a
    /// project too (from the working directory, as gsd-tools does); the
    /// same refusals as [`Scope::Planning`] otherwise.
    Anywhere,
    /// Reads only the root `.planning/` (the workstreams themselves, the
    /// pointer to one), whichever workstream is active; otherwise the
    /// refusals of [`Scope::Planning`].
    Root,
    /// Never reads the tree.
    Free,
}

/// Every native command: canonical name, scope, handler.
pub const NATIVE: &[(&str, Scope, Handler)] = &[
    ("runtime-identity", Scope::Free, runtime_identity),
    (
        "resolve-dispatch-type",
        Scope::Planning,
        resolve_dispatch_type,
    ),
    ("skills-root", Scope::Free, skills_root),
    ("config-get", Scope::Planning, config_get),
    ("generate-slug", Scope::Free, generate_slug),
    ("current-timestamp", Scope::Free, current_timestamp),
    ("phase.next-decimal", Scope::Planning, next_decimal),
    ("check.auto-mode", Scope::Planning, auto_mode),
    ("agent-skills", Scope::Planning, agent_skills),
    ("config-set", Scope::Planning, writes::config_set),
    (
        "config-set-model-profile",
        Scope::Planning,
        writes::config_set_model_profile,
    ),
    ("commit", Scope::Planning, writes::commit),
    ("classify-confidence", Scope::Free, classify_confidence),
    (
        "intel.patch-meta",
        Scope::Planning,
        writes::intel_patch_meta,
    ),
    (
        "frontmatter.set",
        Scope::Planning,
        tree_writes::frontmatter_set,
    ),
    ("resolve-model", Scope::Planning, models::resolve_model),
    ("git.base-branch", Scope::Planning, gitinfo::base_branch),
    ("worktree.base-check", Scope::Planning, gitinfo::base_check),
    (
        "dispatch-should-flatten",
        Scope::Planning,
        dispatch_should_flatten,
    ),
    (
        "roadmap.get-phase",
        Scope::Planning,
        reads::roadmap_get_phase,
    ),
    ("find-phase", Scope::Planning, reads::find_phase),
    (
        "normalize-test-command",
        Scope::Planning,
        normalize_test_command,
    ),
    ("user-story.validate", Scope::Free, user_story_validate),
    (
        "loop.render-hooks",
        Scope::Planning,
        loop_hooks::render_hooks,
    ),
    ("dispatch-isolation", Scope::Planning, isolation::dispatch),
    ("frontmatter.get", Scope::Planning, frontmatter::get),
    ("check.predicate", Scope::Planning, predicate::predicate),
    (
        "summary-extract",
        Scope::Planning,
        summary_extract::summary_extract,
    ),
    (
        "phase.tdd-applicable",
        Scope::Planning,
        tdd_applicable::tdd_applicable,
    ),
    ("verification.status", Scope::Planning, verification::status),
    ("review-lane.flags", Scope::Planning, review_lane::flags),
    ("windows.status", Scope::Planning, windows::status),
    ("graphify.status", Scope::Planning, graphify::status),
    ("graphify.query", Scope::Planning, graphify::query),
    ("init.phase-op", Scope::Planning, init_phase_op::phase_op),
    ("progress", Scope::Planning, |c| progress::progress(c, None)),
    ("progress.json", Scope::Planning, |c| {
        progress::progress(c, Some("json"))
    }),
    ("progress.bar", Scope::Planning, |c| {
        progress::progress(c, Some("bar"))
    }),
    ("progress.table", Scope::Planning, |c| {
        progress::progress(c, Some("table"))
    }),
    ("phases.list", Scope::Planning, progress::phases_list),
    ("state.get", Scope::Planning, state_get::state_get),
    ("state.load", Scope::Planning, state_load::state_load),
    ("roadmap.analyze", Scope::Planning, roadmap_analyze::analyze),
    (
        "roadmap.milestone-scope",
        Scope::Planning,
        roadmap_analyze::milestone_scope,
    ),
    ("init.manager", Scope::Planning, init_manager::manager),
    (
        "init.plan-phase",
        Scope::Planning,
        init_plan_phase::plan_phase,
    ),
    (
        "init.complete-milestone",
        Scope::Planning,
        init_milestone::complete_milestone,
    ),
    (
        "init.new-milestone",
        Scope::Planning,
        init_milestone::new_milestone,
    ),
    (
        "init.milestone-op",
        Scope::Planning,
        init_milestone::milestone_op,
    ),
    (
        "init.execute-phase",
        Scope::Planning,
        init_execute_phase::execute_phase,
    ),
    ("init.todos", Scope::Planning, init_todos::todos),
    ("init.quick", Scope::Planning, init_quick::quick),
    ("init.quick-batch", Scope::Planning, init_quick::quick_batch),
    ("init.resume", Scope::Planning, init_quick::resume),
    (
        "init.map-codebase",
        Scope::Planning,
        init_todos::map_codebase,
    ),
    ("agent.classify-failure", Scope::Free, classify_failure),
    ("eval.score", Scope::Free, eval_score::score),
    (
        "config-ensure-section",
        Scope::Planning,
        config_ensure_section,
    ),
    ("resolve-agent", Scope::Planning, agents::resolve_agent),
    ("todo.match-phase", Scope::Planning, todos::match_phase),
    ("phase.mvp-mode", Scope::Planning, mvp_mode::mvp_mode),
    (
        "task.is-behavior-adding",
        Scope::Planning,
        is_behavior_adding,
    ),
    (
        "dispatch-capacity",
        Scope::Planning,
        runtime_facts::dispatch_capacity,
    ),
    (
        "project-instruction-file",
        Scope::Free,
        runtime_facts::project_instruction_file,
    ),
    (
        "review-lane.sections",
        Scope::Planning,
        review_lane::sections,
    ),
    (
        "review-lane.explicit-from-argv",
        Scope::Planning,
        review_lane::explicit_from_argv,
    ),
    (
        "verification.resolve-file",
        Scope::Planning,
        verification::resolve_file,
    ),
    (
        "verification.fingerprint",
        Scope::Planning,
        verification::fingerprint,
    ),
    (
        "inspect-dispatch-isolation",
        Scope::Planning,
        isolation::inspect,
    ),
    (
        "quick-batch.parse-args",
        Scope::Planning,
        quick_batch::parse_args,
    ),
    (
        "quick-batch.effective-concurrency",
        Scope::Planning,
        quick_batch::effective_concurrency,
    ),
    ("research-plan", Scope::Planning, research::plan),
    ("smart-entry", Scope::Anywhere, smart_entry::smart_entry),
    ("state-snapshot", Scope::Planning, state_snapshot::snapshot),
    ("phase.add", Scope::Planning, phase_writes::add),
    ("state.update", Scope::Planning, state_writes::update),
    ("state.patch", Scope::Planning, state_writes::patch),
    (
        "state.add-decision",
        Scope::Planning,
        state_lists::add_decision,
    ),
    (
        "state.add-blocker",
        Scope::Planning,
        state_lists::add_blocker,
    ),
    (
        "state.add-roadmap-evolution",
        Scope::Planning,
        state_lists::add_roadmap_evolution,
    ),
    (
        "state.record-metric",
        Scope::Planning,
        state_metrics::record_metric,
    ),
    (
        "state.record-session",
        Scope::Planning,
        state_writes::record_session,
    ),
    ("phase.insert", Scope::Planning, phase_writes::insert),
    ("research-store.get", Scope::Planning, research::store_get),
    ("research-store.put", Scope::Planning, research::store_put),
    (
        "validate.context",
        Scope::Planning,
        context_use::validate_context,
    ),
    ("phase.list-artifacts", Scope::Planning, list_artifacts),
    ("workstream.set", Scope::Root, workstreams::set),
    ("workstream.get", Scope::Root, workstreams::get),
    ("workstream.create", Scope::Root, workstreams::create),
    ("workstream.complete", Scope::Root, workstreams::complete),
    ("init.debug", Scope::Planning, init_workflows::debug),
    (
        "init.autonomous",
        Scope::Planning,
        init_workflows::autonomous,
    ),
    (
        "init.docs-update",
        Scope::Planning,
        init_workflows::docs_update,
    ),
    (
        "init.ingest-docs",
        Scope::Planning,
        init_workflows::ingest_docs,
    ),
    (
        "init.new-workspace",
        Scope::Anywhere,
        init_workspaces::new_workspace,
    ),
    (
        "init.list-workspaces",
        Scope::Free,
        init_workspaces::list_workspaces,
    ),
    ("websearch", Scope::Free, websearch),
    (
        "detect-custom-files",
        Scope::Free,
        custom_files::detect_custom_files,
    ),
    (
        "init.transition",
        Scope::Planning,
        init_workflows::transition,
    ),
    (
        "init.new-project",
        Scope::Anywhere,
        init_workflows::new_project,
    ),
    (
        "init.remove-workspace",
        Scope::Anywhere,
        init_workspaces::remove_workspace,
    ),
    ("init.review", Scope::Planning, init_phase_workflows::review),
    (
        "init.code-review",
        Scope::Planning,
        init_phase_workflows::code_review,
    ),
    (
        "init.discuss-phase-assumptions",
        Scope::Planning,
        init_phase_workflows::discuss_phase_assumptions,
    ),
];

/// The native handler for a canonical name.
pub fn native(command: &str) -> Option<(Scope, Handler)> {
    NATIVE
        .iter()
        .find(|(n, _, _)| *n == command)
        .map(|(_, s, h)| (*s, *h))
}

/// The argument after `flag`'s first occurrence, whatever it is: gsd-tools'
/// `args[args.indexOf(flag) + 1]`, which each command then checks its way.
pub(super) fn flag_value<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    let i = args.iter().position(|a| a == flag)?;
    args.get(i + 1).map(String::as_str)
}

pub(super) fn hand_on(why: impl Into<String>) -> Refusal {
    Refusal::HandOn(why.into())
}

/// An engine answer, or the call handed on when the engine refuses: its
/// error messages are gsd-sdk 1.42.3's, not 1.14.0's.
pub(super) fn engine(
    handler: fn(&Call) -> Result<Reply, SdkError>,
    call: &CoreCall,
    args: &[String],
) -> Result<Value, Refusal> {
    let engine_call = Call {
        project: call.project,
        args,
        cwd: call.cwd,
    };
    match handler(&engine_call) {
        Ok(Reply::Json(v)) => Ok(v),
        Ok(Reply::Text(_)) => Err(hand_on("its answer here is text")),
        Err(e) => Err(hand_on(format!("it fails here ({})", e.message))),
    }
}

/// `phase list-artifacts N --type KIND`, which GSD Core 1.14.0's plan
/// checker asks for but its gsd-tools no longer has (it answers "Unknown
/// phase subcommand"): answered as gsd-sdk 1.42.3, whose verb the agent was
/// written against, lists them (PARITY.md G9). A refusal goes on.
fn list_artifacts(call: &CoreCall) -> Result<Out, Refusal> {
    Ok(Out::json(&engine(listing::artifacts, call, call.args)?))
}

/// `websearch QUERY`: without `BRAVE_API_KEY`, 1.14.0 searches nothing and
/// says so (`--raw` prints nothing); with a key the search is its own.
fn websearch(_: &CoreCall) -> Result<Out, Refusal> {
    if std::env::var_os("BRAVE_API_KEY").is_some_and(|k| !k.is_empty()) {
        return Err(hand_on(
            " with BRAVE_API_KEY set (the search is gsd-tools' own)",
        ));
    }
    Ok(Out::with_raw(
        &json!({"available": false, "reason": "BRAVE_API_KEY not set"}),
        "",
    ))
}

/// `normalize-test-command CMD`: the command in its one-shot form, printed
/// bare (package.json read from the project root gsd-tools resolves).
fn normalize_test_command(call: &CoreCall) -> Result<Out, Refusal> {
    let raw = call.args.first().map(String::as_str).unwrap_or("");
    test_command::normalize(raw, call.project)
        .map(Out::text)
        .map_err(|why| hand_on(why.0))
}

/// `user-story validate --story "…"`: the story's shape checked.
fn user_story_validate(call: &CoreCall) -> Result<Out, Refusal> {
    Ok(Out::json(&user_story::validate(user_story::story_arg(
        call.args,
    ))))
}

/// `runtime-identity`: the identity GSD Core's launcher preamble checks
/// before a workflow runs (it must start `{"packageName":"@opengsd/gsd-core"`):
/// gsd answers in that package's dialect, so it reports it.
fn runtime_identity(_: &CoreCall) -> Result<Out, Refusal> {
    let v = json!({"packageName": PACKAGE, "version": VERSION});
    Ok(Out {
        text: super::output::pretty(&v) + "\n",
        raw: Some(v.to_string() + "\n"),
    })
}

/// Whether the runtime GSD Core resolves for the project is Claude Code:
/// `GSD_RUNTIME`, else config.json's `runtime`, else the install marker of
/// the real package, else Claude Code.
pub(super) fn claude_runtime(call: &CoreCall) -> bool {
    if std::env::var("GSD_RUNTIME").is_ok_and(|r| !super::js::trim(&r).is_empty()) {
        return std::env::var("GSD_RUNTIME").is_ok_and(|r| super::js::trim(&r) == "claude");
    }
    let config = call.project.join(".planning").join("config.json");
    if let Ok(text) = std::fs::read_to_string(&config)
        && let Ok(Value::Object(m)) = serde_json::from_str::<Value>(&text)
        && let Some(r) = m.get("runtime")
    {
        return r.as_str().is_some_and(|r| super::js::trim(r) == "claude");
    }
    let marker = call
        .real
        .and_then(|r| r.canonicalize().ok())
        .and_then(|r| {
            r.parent()?
                .parent()?
                .parent()
                .map(|p| p.join(".gsd-runtime"))
        })
        .and_then(|m| std::fs::read_to_string(m).ok())
        .map(|m| super::js::trim(&m).to_string())
        .filter(|m| !m.is_empty());
    marker.is_none_or(|m| m == "claude")
}

/// `resolve-dispatch-type --requested NAME`: on Claude Code (a
/// named-dispatch runtime) the requested agent name itself, printed bare.
fn resolve_dispatch_type(call: &CoreCall) -> Result<Out, Refusal> {
    if call.args.iter().any(|a| a == "--json") {
        return Err(hand_on("with --json"));
    }
    if !claude_runtime(call) {
        return Err(hand_on(" for a runtime other than Claude Code"));
    }
    let requested = flag_value(call.args, "--requested").unwrap_or("");
    Ok(Out::text(if requested.is_empty() {
        "coder"
    } else {
        requested
    }))
}

/// Claude Code's config folder as 1.14.0 resolves it: `CLAUDE_CONFIG_DIR`
/// (a leading `~` expanded), else `~/.claude`.
pub(super) fn claude_config_dir() -> std::path::PathBuf {
    let home = std::env::var("HOME").unwrap_or_default();
    match std::env::var("CLAUDE_CONFIG_DIR") {
        Ok(d) if !d.is_empty() => match d.strip_prefix("~/") {
            Some(rest) => Path::new(&home).join(rest),
            None if d == "~" => Path::new(&home).to_path_buf(),
            None => Path::new(&d).to_path_buf(),
        },
        _ => Path::new(&home).join(".claude"),
    }
}

/// `skills-root claude`: Claude Code's global skills folder.
fn skills_root(call: &CoreCall) -> Result<Out, Refusal> {
    if call.args.first().map(String::as_str) != Some("claude") {
        return Err(hand_on(" for a runtime other than claude"));
    }
    let root = claude_config_dir().join("skills").display().to_string();
    Ok(Out::with_raw(&json!({"skills_root": root}), root))
}

/// `config-get KEY [--default V]`: a key config.json holds, or the default.
/// A key it does not hold goes on: 1.14.0 answers it from its schema defaults.
fn config_get(call: &CoreCall) -> Result<Out, Refusal> {
    let Some(key) = call.args.first() else {
        return Err(hand_on(" without a key"));
    };
    match engine(config::get, call, std::slice::from_ref(key)) {
        Ok(v) => Ok(Out::with_raw(&v, js_string(&v))),
        Err(why) => match call.default {
            Some(d) if !["brave_search", "firecrawl", "exa_search"].contains(&key.as_str()) => {
                // Only a key absent from a readable config.json takes the default.
                let readable = matches!(
                    super::super::compat::config::raw(call.project),
                    super::super::compat::config::Raw::Object(_)
                );
                if readable {
                    Ok(Out::with_raw(&json!(d), d))
                } else {
                    Err(why)
                }
            }
            _ => Err(why),
        },
    }
}

fn field_raw(v: &Value, field: &str) -> String {
    js_string(v.get(field).unwrap_or(&Value::Null))
}

/// `config-ensure-section`: where config.json exists, 1.14.0's "already
/// exists" answer; creating one (1.14.0's whole new-project config) is
/// handed on.
fn config_ensure_section(call: &CoreCall) -> Result<Out, Refusal> {
    if !call.project.join(".planning/config.json").exists() {
        return Err(hand_on(" where config.json would be created"));
    }
    Ok(Out::with_raw(
        &json!({"created": false, "reason": "already_exists"}),
        "exists",
    ))
}

/// `agent classify-failure [--] BODY…`: the engine's classifier over the
/// words after the subcommand, every `--` dropped as 1.14.0 drops them.
fn classify_failure(call: &CoreCall) -> Result<Out, Refusal> {
    let body: Vec<String> = call.args.iter().filter(|a| *a != "--").cloned().collect();
    Ok(Out::json(&engine(triage::classify_failure, call, &body)?))
}

/// `task is-behavior-adding PLAN | --task-content XML`: the engine's check;
/// its refusals (no content, a file outside the project or missing) are
/// 1.14.0's usage errors, word for word.
fn is_behavior_adding(call: &CoreCall) -> Result<Out, Refusal> {
    let engine_call = Call {
        project: call.project,
        args: call.args,
        cwd: call.cwd,
    };
    match mvp::is_behavior_adding(&engine_call) {
        Ok(Reply::Json(v)) => Ok(Out::json(&v)),
        Ok(Reply::Text(_)) => Err(hand_on("its answer here is text")),
        Err(e) if e.class == super::super::ErrorClass::Validation => {
            Err(Refusal::Fail(Failure::new("usage", e.message)))
        }
        Err(e) => Err(hand_on(format!("it fails here ({})", e.message))),
    }
}

/// `generate-slug TEXT`.
fn generate_slug(call: &CoreCall) -> Result<Out, Refusal> {
    let text = call.args.first().map(String::as_str).unwrap_or_default();
    let Some(slug) = super::slug::slug(text, Some(60)) else {
        return Err(Refusal::Fail(Failure::new(
            "unknown",
            "text required for slug generation",
        )));
    };
    Ok(Out::with_raw(&json!({ "slug": slug }), slug))
}

/// `current-timestamp [full|date|filename]`.
fn current_timestamp(call: &CoreCall) -> Result<Out, Refusal> {
    let v = engine(text::current_timestamp, call, call.args)?;
    Ok(Out::with_raw(&v, field_raw(&v, "timestamp")))
}

/// `phase next-decimal N`.
fn next_decimal(call: &CoreCall) -> Result<Out, Refusal> {
    let mut v = engine(phase_find::next_decimal, call, call.args)?;
    if v["found"] == json!(false)
        && let Some(base) = v["base_phase"].as_str()
        && bare_number_folder(call.project, base)
    {
        v["found"] = json!(true);
    }
    Ok(Out::with_raw(&v, field_raw(&v, "next")))
}

/// Whether a phase folder is named by `base` (a whole number) alone,
/// unpadded or with a project code in front (`2`, `2-walking-skeleton`,
/// `APP-2-x`): 1.14.0 falls back to such folders when no folder's phase
/// token equals the padded number (1.42.3 did not, and said not found).
fn bare_number_folder(project: &Path, base: &str) -> bool {
    if base.is_empty() || !base.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let unpad = |d: &str| {
        let t = d.trim_start_matches('0');
        if t.is_empty() {
            "0".to_owned()
        } else {
            t.to_owned()
        }
    };
    let want = unpad(base);
    let Ok(entries) = std::fs::read_dir(project.join(".planning/phases")) else {
        return false;
    };
    entries.flatten().any(|e| {
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            return false;
        }
        let name = e.file_name().to_string_lossy().into_owned();
        let name = crate::model::ids::split_project_code(&name).map_or(name.as_str(), |(_, r)| r);
        let digits = name.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0
            && matches!(name.as_bytes().get(digits), None | Some(b'-'))
            && unpad(&name[..digits]) == want
    })
}

/// `check auto-mode`: JSON, also under `--raw`.
fn auto_mode(call: &CoreCall) -> Result<Out, Refusal> {
    let v = engine(phases::auto_mode, call, call.args)?;
    Ok(Out::json(&v))
}

/// Whether `~/.gsd/defaults.json` exists: 1.14.0 merges it under every
/// project's config, which gsd's reading does not.
pub(super) fn shared_defaults() -> bool {
    std::env::var_os("HOME").is_some_and(|h| Path::new(&h).join(".gsd/defaults.json").exists())
}

/// config.json as an object (`None` when absent), or the call handed on
/// when it is unreadable: 1.14.0 reports a fault gsd's reading words otherwise.
pub(super) fn config_object(
    call: &CoreCall,
) -> Result<Option<serde_json::Map<String, Value>>, Refusal> {
    use super::super::compat::config::{Raw, raw};
    if shared_defaults() {
        return Err(hand_on("with ~/.gsd/defaults.json"));
    }
    match raw(call.project) {
        Raw::Object(m) => Ok(Some(m)),
        Raw::Missing => Ok(None),
        Raw::Malformed(_) => Err(hand_on("with an unreadable config.json")),
    }
}

/// Whether 1.14.0's config loader would rewrite config.json before it
/// answers: a legacy top-level key it moves (`branching_strategy`,
/// `sub_repos`, `multiRepo`, `base_branch`, `depth` without `granularity`),
/// or sub-repositories it re-detects.
pub(super) fn legacy_keys(m: &serde_json::Map<String, Value>) -> bool {
    [
        "branching_strategy",
        "sub_repos",
        "multiRepo",
        "base_branch",
    ]
    .iter()
    .any(|k| m.contains_key(*k))
        || (m.contains_key("depth") && !m.contains_key("granularity"))
        || m.get("planning")
            .and_then(|p| p.get("sub_repos"))
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
}

/// Whether 1.14.0's loader would skip a legacy key's move because its
/// section (`git`) is there but not an object: it then warns on stderr
/// (#1879), which gsd does not word, so such a call is handed on.
pub(super) fn skipped_migration(raw: &serde_json::Map<String, Value>) -> bool {
    let git_not_a_section = raw
        .get("git")
        .is_some_and(|g| !g.is_null() && !g.is_object());
    git_not_a_section && (raw.contains_key("branching_strategy") || raw.contains_key("base_branch"))
}

/// config.json as 1.14.0's `loadConfig` hands it to a command: its legacy
/// top-level keys moved where `normalizeLegacyKeys` moves them
/// (`branching_strategy` and `base_branch` into `git` unless set there,
/// `depth` as `granularity`: `quick` is `coarse`, `comprehensive` is
/// `fine`). 1.14.0 also writes that back to disk (PARITY G2); gsd answers
/// from it and writes nothing. The sub-repository keys are left: a call
/// that meets them is handed on (`redetects_sub_repos`).
pub(super) fn as_loaded(raw: &serde_json::Map<String, Value>) -> serde_json::Map<String, Value> {
    let mut m = raw.clone();
    for (legacy, field) in [
        ("branching_strategy", "branching_strategy"),
        ("base_branch", "base_branch"),
    ] {
        if !m.contains_key(legacy) {
            continue;
        }
        let git = m.get("git").cloned().unwrap_or(Value::Null);
        let mut section = match git {
            Value::Null => serde_json::Map::new(),
            Value::Object(o) => o,
            // Not a section: 1.14.0 leaves both as they are.
            _ => continue,
        };
        let value = m.remove(legacy).unwrap_or(Value::Null);
        section.entry(field).or_insert(value);
        m.insert("git".into(), Value::Object(section));
    }
    if m.contains_key("depth") && !m.contains_key("granularity") {
        let depth = m.remove("depth").unwrap_or(Value::Null);
        let mapped = match depth.as_str() {
            Some("quick") => json!("coarse"),
            Some("standard") => json!("standard"),
            Some("comprehensive") => json!("fine"),
            _ => depth,
        };
        m.insert("granularity".into(), mapped);
    }
    m
}

/// Of the legacy keys 1.14.0 migrates on disk first (PARITY G2), the ones
/// that change an init answer: sub-repositories, which it re-detects
/// (and which turn commit_docs off).
pub(super) fn redetects_sub_repos(c: &serde_json::Map<String, Value>) -> bool {
    legacy_keys(c)
        && (c.contains_key("sub_repos")
            || c.contains_key("multiRepo")
            || c.get("planning").and_then(|p| p.get("sub_repos")).is_some())
}

/// `agent-skills AGENT`: the block a workflow embeds in an agent's prompt.
/// Answered where the agent has no `agent_skills` entry on Claude Code
/// (config.json's `runtime`, else `GSD_RUNTIME`): an empty block, printed
/// as nothing. A configured agent (its block names resolved skill files)
/// and other runtimes (1.14.0 then serves the agent's installed prompt)
/// go on. Where 1.14.0 would also migrate config.json's legacy keys on disk
/// (`legacy_keys`), gsd answers the same and writes nothing (PARITY.md G2).
fn agent_skills(call: &CoreCall) -> Result<Out, Refusal> {
    if call.args.iter().any(|a| a == "--json") {
        return Err(hand_on("with --json"));
    }
    let Some(agent) = call.args.first().filter(|a| !a.is_empty()) else {
        return Err(hand_on(" without an agent"));
    };
    let config = config_object(call)?.unwrap_or_default();
    let runtime = match config.get("runtime") {
        Some(r) if super::super::compat::js::truthy(r) => match r.as_str() {
            Some(r) => Some(r.to_string()),
            None => return Err(hand_on(" for a runtime that is not a name")),
        },
        _ => std::env::var("GSD_RUNTIME").ok().filter(|r| !r.is_empty()),
    };
    if runtime.is_some_and(|r| r != "claude") {
        return Err(hand_on(" for a runtime other than Claude Code"));
    }
    if config
        .get("agent_skills")
        .and_then(Value::as_object)
        .is_some_and(|m| m.contains_key(agent.as_str()))
    {
        return Err(hand_on(" for an agent with configured skills"));
    }
    Ok(Out::text(""))
}

/// `classify-confidence --provider ID [--verified]`: how far a research
/// finding from that provider is trusted. Answered without `--package` (a
/// registry look-up 1.14.0 makes) and `--ecosystem`: an official-docs or a
/// scraping provider gives MEDIUM, a web search MEDIUM when verified
/// against official docs, anything else LOW.
fn classify_confidence(call: &CoreCall) -> Result<Out, Refusal> {
    let args = call.args;
    if args.iter().any(|a| a == "--package" || a == "--ecosystem") {
        return Err(hand_on(" with --package or --ecosystem"));
    }
    let provider = flag_value(args, "--provider").filter(|p| !p.starts_with("--"));
    let Some(provider) = provider else {
        return Err(hand_on(" without a provider"));
    };
    let verified = args.iter().any(|a| a == "--verified");
    let confidence = match provider {
        "context7" | "ref" | "jina" | "firecrawl" => "MEDIUM",
        "exa" | "tavily" | "perplexity" | "brave" | "websearch" if verified => "MEDIUM",
        _ => "LOW",
    };
    Ok(Out::json(&json!({
        "provider": provider,
        "package": null,
        "ecosystem": null,
        "legitimacyVerdict": null,
        "verified": verified,
        "confidence": confidence,
    })))
}

/// `dispatch-should-flatten`: whether a workflow runs its subagents inline.
/// On Claude Code 1.14.0's capability registry declares a dispatch that it
/// flattens (`true`, printed bare, with or without `--raw`); another
/// runtime, and `--json` (which prints the registry's whole dispatch
/// record), go on.
fn dispatch_should_flatten(call: &CoreCall) -> Result<Out, Refusal> {
    if call.args.iter().any(|a| a == "--json") {
        return Err(hand_on("with --json"));
    }
    if !claude_runtime(call) {
        return Err(hand_on(" for a runtime other than Claude Code"));
    }
    Ok(Out::text("true"))
}
