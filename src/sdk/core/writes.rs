//! The GSD Core 1.14.0 writes gsd answers itself: `config-set` and
//! `commit`, through gsd's one write path (the transaction's exact edit of
//! config.json; the store's commit of exactly the named files), answered in
//! 1.14.0's words.
//!
//! 1.14.0 checks much around these writes (a per-key validator, a per-phase
//! commit_docs override, branch creation, git hooks, declared removals).
//! Each handler answers only where none of that applies, and says so before
//! it writes: every other case goes to the real gsd-tools untouched.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{Value, json};

use super::super::Call;
use super::super::commands::{commit as engine_commit, fm, intel, write};
use super::super::compat::{config as cfg, sanitize};
use super::native::{CoreCall, Refusal, config_object, engine, hand_on, legacy_keys};
use super::output::{Out, js_string};
use crate::store::{CommitOutcome, CommitPolicy, commit};

/// The keys 1.14.0's `config-set` accepts by name, each with the type its
/// capability registry declares (`-` for none): dumped from the package by
/// `tests/sdk_core/config-keys.mjs`, checked by `tests/sdk_core.rs`.
const CONFIG_KEYS: &str = include_str!("gsd-core-1.14.0-config-keys.txt");

fn config_keys() -> &'static HashMap<&'static str, &'static str> {
    static KEYS: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    KEYS.get_or_init(|| {
        CONFIG_KEYS
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .collect()
    })
}

/// Keys 1.14.0's `config-set` checks with a rule of its own (an enum, a
/// range, a list shape, masking): answered by it. Those whose rule is only
/// "a boolean" are in [`BOOLEAN_ONLY`] instead.
const OWN_RULES: &[&str] = &[
    "context",
    "project_code",
    "workflow.drift_action",
    "workflow.drift_threshold",
    "context_window",
    "workflow.smart_zone_tokens",
    "git.protected_branches",
    "ship.pr_body_sections",
    "workflow.human_verify_mode",
    "workflow.context_guard_mode",
    "statusline.context_position",
    "statusline.state_format",
    "hooks.context_warning_threshold",
    "hooks.context_critical_threshold",
    "code_quality.fallow.scope",
    "code_quality.fallow.profile",
    "plan_review.source_grounding_authority",
    "workflow.security_asvs_level",
    "review.default_reviewers",
    "brave_search",
    "firecrawl",
    "exa_search",
];

/// Keys whose only rule in 1.14.0 is that the value is a boolean.
const BOOLEAN_ONLY: &[&str] = &[
    "workflow.post_planning_gaps",
    "workflow.compact_content",
    "workflow.agent_hint_routing",
    "git.create_tag",
    "statusline.show_context_tokens",
    "statusline.show_git",
    "plan_review.source_grounding",
];

/// Whether `value` is what the registry type `ty` admits.
fn fits(ty: &str, value: &Value) -> bool {
    match ty {
        "-" => true,
        "boolean" => value.is_boolean(),
        "number" => value.is_number(),
        "string" => value.is_string(),
        t => match t.strip_prefix("enum:") {
            Some(values) => value
                .as_str()
                .is_some_and(|v| values.split('|').any(|x| x == v)),
            None => false,
        },
    }
}

/// `config-set KEY VALUE`: one exact edit of config.json, answered
/// `{updated, key, value, previousValue}` (raw `KEY=VALUE`). Answered for a
/// key 1.14.0 knows by name, a value its rules for that key admit, in a
/// config.json whose path to the key holds objects only; `null` (an unset),
/// `--dry-run`, JSON values and every other key go on.
pub fn config_set(call: &CoreCall) -> Result<Out, Refusal> {
    let [key, raw] = call.args else {
        return Err(hand_on(" without exactly a key and a value"));
    };
    if raw.starts_with('[') || raw.starts_with('{') || raw == "null" {
        return Err(hand_on(" for an unset or a JSON value"));
    }
    let Some(ty) = config_keys().get(key.as_str()) else {
        return Err(hand_on(" for a key 1.14.0 matches by pattern or refuses"));
    };
    if OWN_RULES.contains(&key.as_str()) {
        return Err(hand_on(" for a key 1.14.0 checks with a rule of its own"));
    }
    let value = cfg::typed_value(raw);
    if !fits(ty, &value) || (BOOLEAN_ONLY.contains(&key.as_str()) && !value.is_boolean()) {
        return Err(hand_on(" for a value 1.14.0 refuses for that key"));
    }
    let previous = set_config_value(call, key, &value)?;
    let mut out = json!({"updated": true, "key": key, "value": value});
    if let Some(p) = previous {
        out["previousValue"] = p;
    }
    Ok(Out::with_raw(&out, format!("{key}={}", js_string(&value))))
}

/// 1.14.0's `setConfigValue`: `value` at the dotted `key` of an existing
/// config.json, through gsd's write path; the value it replaced. Handed on
/// without a config.json, or where the key's path runs through a value
/// that is not an object.
fn set_config_value(call: &CoreCall, key: &str, value: &Value) -> Result<Option<Value>, Refusal> {
    let Some(config) = config_object(call)? else {
        return Err(hand_on(" without a config.json"));
    };
    let parts: Vec<&str> = key.split('.').collect();
    let mut at = Some(&config);
    for part in &parts[..parts.len() - 1] {
        match at.and_then(|m| m.get(*part)) {
            None => at = None,
            Some(Value::Object(m)) => at = Some(m),
            Some(_) => return Err(hand_on(" where the key's parent is not an object")),
        }
    }
    let engine_call = Call {
        project: call.project,
        args: call.args,
        cwd: call.cwd,
    };
    let mut previous = None;
    write(&engine_call, |ws| {
        let s = crate::ops::config::set(ws, key, value)?;
        previous = s.previous;
        Ok(s.change)
    })
    .map_err(|e| hand_on(format!("it fails here ({})", e.message)))?;
    Ok(previous)
}

/// `config-set-model-profile PROFILE`: `model_profile` set (lower-cased,
/// trimmed) in an existing config.json, answered `{updated, profile,
/// previousProfile, agentToModelMap}` — each of 1.14.0's agents with the
/// tier the profile gives it — and, raw, 1.14.0's message with the table.
/// A profile 1.14.0 refuses, and a project without config.json (1.14.0
/// writes its whole new-project config first), are handed on.
pub fn config_set_model_profile(call: &CoreCall) -> Result<Out, Refusal> {
    let [profile] = call.args else {
        return Err(hand_on(" without exactly one profile"));
    };
    let profile = profile.trim_matches(super::js::is_space).to_lowercase();
    if !super::models::profiles().contains(&profile.as_str()) {
        return Err(hand_on(" for a profile 1.14.0 refuses"));
    }
    if config_object(call)?.is_none() {
        return Err(hand_on(" without a config.json"));
    }
    let previous = set_config_value(call, "model_profile", &json!(profile))?;
    let previous = match previous {
        Some(Value::String(p)) => p,
        _ => "balanced".to_owned(),
    };
    let map = super::models::agent_models(&profile);
    let mut agents = serde_json::Map::new();
    for (agent, model) in &map {
        agents.insert((*agent).to_owned(), json!(model));
    }
    let table = super::models::table_of(&map);
    let message = if previous == profile {
        format!("✓ Model profile is already set to: {profile}\n\nAgents are using:\n\n{table}")
    } else {
        format!(
            "✓ Model profile set to: {profile} (was: {previous})\n\nAgents will now use:\n\n{table}\n\nNext spawned agents will use the new profile."
        )
    };
    let out = json!({
        "updated": true,
        "profile": profile,
        "previousProfile": previous,
        "agentToModelMap": agents,
    });
    Ok(Out::with_raw(&out, message))
}

/// The tokens after `flag` up to the next list flag, `--` flags skipped:
/// how 1.14.0 reads `--files`.
fn list_values(args: &[String], flag: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if a != flag {
            continue;
        }
        for b in &args[i + 1..] {
            if b == "--files" || b == "--files-removed" {
                break;
            }
            if !b.starts_with("--") {
                out.push(b.clone());
            }
        }
    }
    out
}

/// Why 1.14.0's sanitizer or git's message clean-up would change `message`.
fn message_changes(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    sanitize::commit_message(message) != message
        || message.contains('<')
        || ["[system]", "[/system]", "[inst]", "[/inst]"]
            .iter()
            .any(|m| lower.contains(m))
        || message.chars().any(|c| {
            matches!(c, '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202F}' | '\u{FEFF}' | '\u{00AD}')
                || (c.is_control() && c != '\n')
        })
        || message.trim() != message
        || message.lines().any(|l| l.trim_end() != l || l.is_empty())
}

/// Whether git would run a hook on a commit here (1.14.0 commits through
/// the git CLI; the store's commit runs none).
fn has_hooks(repo: &git2::Repository) -> bool {
    if repo
        .config()
        .ok()
        .and_then(|c| c.get_string("core.hooksPath").ok())
        .is_some()
    {
        return true;
    }
    std::fs::read_dir(repo.path().join("hooks"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| !e.file_name().to_string_lossy().ends_with(".sample"))
}

/// Whether git would filter a file's bytes on `git add` (attributes, line
/// endings), which the store's commit, writing the bytes as they are, does not.
fn may_filter(repo: &git2::Repository, workdir: &Path, named: &[PathBuf]) -> bool {
    let autocrlf = repo
        .config()
        .ok()
        .and_then(|c| c.get_string("core.autocrlf").ok())
        .is_some_and(|v| v != "false");
    if autocrlf || repo.path().join("info/attributes").exists() {
        return true;
    }
    named.iter().any(|rel| {
        rel.ancestors()
            .any(|a| workdir.join(a).join(".gitattributes").exists())
    })
}

/// `commit MESSAGE --files PATH…`: one commit of exactly the named files by
/// the store, answered `{committed, hash, reason}` (raw: the short hash, or
/// `nothing`), or `skipped` where config.json's `commit_docs` is `false`.
/// Answered where 1.14.0 would do no more than `git add` and `git commit --`
/// those paths: the files exist and lie in the repository, nothing filters
/// them, no hook runs, no merge is under way, the message goes to git as it
/// is, and no branching strategy or per-phase override applies.
pub fn commit(call: &CoreCall) -> Result<Out, Refusal> {
    let args = call.args;
    if args
        .iter()
        .any(|a| matches!(a.as_str(), "--amend" | "--no-verify" | "--files-removed"))
    {
        return Err(hand_on(" with --amend, --no-verify or --files-removed"));
    }
    let end = args
        .iter()
        .position(|a| a == "--files" || a == "--files-removed")
        .unwrap_or(args.len());
    let message = args[..end]
        .iter()
        .filter(|a| !a.starts_with("--"))
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    if message.is_empty() || message_changes(&message) {
        return Err(hand_on(
            " for a message 1.14.0 or git would change or refuse",
        ));
    }
    let files = list_values(args, "--files");
    if files.is_empty() {
        return Err(hand_on(" without --files"));
    }
    let Some(config) = config_object(call)? else {
        return Err(hand_on(" without a config.json"));
    };
    if legacy_keys(&config) {
        // 1.14.0 rewrites them in config.json before it stages anything.
        return Err(hand_on(
            " with config.json keys 1.14.0 migrates on disk first",
        ));
    }
    let strategy = config
        .get("git")
        .and_then(|g| g.get("branching_strategy"))
        .or_else(|| config.get("branching_strategy"));
    if strategy.is_some_and(|s| s.as_str() != Some("none"))
        || config.contains_key("phase_commit_docs")
    {
        return Err(hand_on(
            " with a branching strategy or a commit_docs override",
        ));
    }
    // 1.14.0's loadConfig: the flat `commit_docs`, else `planning.commit_docs`
    // (what `gsd init` and GSD's new-project write), else true unless git
    // ignores .planning/ (that case is handed on below, before any write).
    let explicit = config.get("commit_docs").or_else(|| {
        config
            .get("planning")
            .and_then(|p| p.as_object())
            .and_then(|p| p.get("commit_docs"))
    });
    let docs = match explicit {
        Some(Value::Bool(b)) => *b,
        None => true,
        Some(_) => return Err(hand_on(" with a commit_docs that is not true or false")),
    };
    if !docs {
        let v = json!({"committed": false, "skipped": true, "hash": null, "reason": "skipped_commit_docs_false"});
        return Ok(Out::with_raw(&v, "skipped"));
    }
    let Ok(repo) = git2::Repository::discover(call.project) else {
        return Err(hand_on(" outside a git repository"));
    };
    let Some(workdir) = repo.workdir().and_then(|w| w.canonicalize().ok()) else {
        return Err(hand_on(" in a bare repository"));
    };
    if repo.state() != git2::RepositoryState::Clean || has_hooks(&repo) {
        return Err(hand_on(" with a merge under way or git hooks installed"));
    }
    let project = call
        .project
        .canonicalize()
        .unwrap_or(call.project.to_path_buf());
    let planning_rel = project
        .join(".planning")
        .strip_prefix(&workdir)
        .map(Path::to_path_buf)
        .ok();
    if planning_rel.is_none_or(|p| repo.is_path_ignored(&p).unwrap_or(true)) {
        return Err(hand_on(" where .planning/ is ignored by git"));
    }
    let mut named = Vec::new();
    for f in &files {
        let p = Path::new(f);
        if p.is_absolute()
            || f.contains(['*', '?', '[', '\\', ':'])
            || p.components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(hand_on(" for a path git would read as a pattern"));
        }
        let abs = project.join(p);
        if !abs.exists() || abs.is_symlink() {
            return Err(hand_on(" for a path that is missing or a link"));
        }
        let Ok(rel) = abs.strip_prefix(&workdir).map(Path::to_path_buf) else {
            return Err(hand_on(" for a path outside the repository"));
        };
        if repo.is_path_ignored(&rel).unwrap_or(true) {
            return Err(hand_on(" for an ignored path"));
        }
        if abs.is_dir() && tracked_ignored_under(&repo, &rel) {
            return Err(hand_on(" for a folder holding tracked ignored files"));
        }
        named.push(rel);
    }
    if may_filter(&repo, &workdir, &named) {
        return Err(hand_on(" where git attributes or line endings apply"));
    }
    let mut paths = Vec::new();
    for rel in &named {
        paths.extend(engine_commit::expand(&repo, &workdir, rel));
    }
    if paths.is_empty() {
        return Err(hand_on(" for folders with no files"));
    }
    // `git commit -m` ends the message with a newline.
    let outcome = commit::commit_paths(
        &workdir,
        &paths,
        &format!("{message}\n"),
        CommitPolicy::Commit,
    )
    .map_err(|e| hand_on(format!("the commit fails here ({e})")))?;
    match outcome {
        CommitOutcome::Committed { .. } => {
            let hash = short_head(&workdir);
            let v = json!({"committed": true, "hash": hash, "reason": "committed"});
            Ok(Out::with_raw(
                &v,
                hash.unwrap_or_else(|| "committed".into()),
            ))
        }
        CommitOutcome::NothingToCommit => {
            let v = json!({"committed": false, "hash": null, "reason": "nothing_to_commit"});
            Ok(Out::with_raw(&v, "nothing"))
        }
        other => Err(hand_on(format!(" ({})", other.describe()))),
    }
}

/// Whether the index tracks a file under `rel` that .gitignore matches
/// (`git add` updates it; the store's expansion skips ignored files).
fn tracked_ignored_under(repo: &git2::Repository, rel: &Path) -> bool {
    let Ok(index) = repo.index() else {
        return true;
    };
    let prefix = format!("{}/", rel.to_string_lossy().trim_end_matches('/'));
    index.iter().any(|e| {
        let p = String::from_utf8_lossy(&e.path).into_owned();
        p.starts_with(&prefix) && repo.is_path_ignored(Path::new(&p)).unwrap_or(true)
    })
}

/// `git rev-parse --short HEAD`, as 1.14.0 reports the commit: git's own
/// abbreviation, whose length grows with the repository.
fn short_head(workdir: &Path) -> Option<String> {
    let o = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(workdir)
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// `intel patch-meta FILE`: `_meta.updated_at` set to now and
/// `_meta.version` bumped in one of the intel agent's JSON files, answered
/// `{patched, file, timestamp}` (the same with `--raw`). gsd changes those
/// two values only; 1.14.0 rewrites the whole file (PARITY.md G3).
/// Answered for an existing JSON object inside the project, reached without
/// links, whose `_meta` is an object (or absent) with a numeric (or absent)
/// `version`: anything else 1.14.0 words or counts its own way.
pub fn intel_patch_meta(call: &CoreCall) -> Result<Out, Refusal> {
    let Some(file) = call.args.first().filter(|f| !f.is_empty()) else {
        return Err(hand_on(" without a file"));
    };
    let abs = fm::lexical(&call.project.join(file));
    let project = call
        .project
        .canonicalize()
        .unwrap_or(call.project.to_path_buf());
    if !abs.is_file()
        || abs.canonicalize().ok().as_ref() != Some(&abs)
        || !abs.starts_with(&project)
    {
        return Err(hand_on(
            " for a file missing, linked or outside the project",
        ));
    }
    let parsed = std::fs::read_to_string(&abs)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok());
    let meta_ok = match parsed
        .as_ref()
        .and_then(Value::as_object)
        .map(|m| m.get("_meta"))
    {
        Some(None) => true,
        Some(Some(Value::Object(meta))) => {
            matches!(
                meta.get("version"),
                None | Some(Value::Null) | Some(Value::Number(_))
            )
        }
        _ => false,
    };
    if !meta_ok {
        return Err(hand_on(
            " for a file that is not a JSON object with a plain _meta",
        ));
    }
    let v = engine(intel::patch_meta, call, &[abs.display().to_string()])?;
    if v.get("patched") != Some(&Value::Bool(true)) {
        return Err(hand_on(" where gsd's edit fails"));
    }
    Ok(Out::json(&v))
}
