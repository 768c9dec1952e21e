//! The `init.*` answers of GSD Core 1.14.0 workflows that need only the
//! config and a fact or two about the project: `debug`, `autonomous`,
//! `docs-update`, `ingest-docs`, `transition` (outside a workstream) and
//! `new-project`. Each is built as 1.14.0 builds it and wrapped in its
//! envelope (`withProjectRoot`). The workspace inits are in
//! [`super::init_workspaces`], the phase workflows' in
//! [`super::init_phase_workflows`].

use std::path::Path;

use serde_json::{Map, Value, json};

use super::super::compat::js::{JS_DOT, JS_SPACE};
use super::super::compat::roadmap_text::re;
use super::init_envelope::finish;
use super::init_phase_op::{checked_config, path_text};
use super::init_plan_phase::model;
use super::named_args::{self, Named, Spec};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;
use super::section_manifest::{self, Facts};

/// The call's boolean flags as 1.14.0's strict reader takes them (an
/// unknown flag or a stray word fails with its usage message).
pub(super) fn booleans(call: &CoreCall, flags: &[&str]) -> Result<Named, Refusal> {
    named_args::parse(
        call.args,
        &Spec {
            values: &[],
            booleans: flags,
            positionals: 0,
        },
    )
    .map_err(Refusal::Fail)
}

pub(super) fn guard_manifest() -> Result<(), Refusal> {
    if section_manifest::overridden() {
        return Err(hand_on(" with GSD_SECTION_MANIFEST set"));
    }
    Ok(())
}

/// A config value as 1.14.0's `loadConfig` gives it.
pub(super) fn loaded(call: &CoreCall, key: &str) -> Result<Value, Refusal> {
    Ok(super::loaded_config::loaded(call)?
        .get(key)
        .cloned()
        .unwrap_or(Value::Null))
}

/// `init debug [--diagnose]`.
pub fn debug(call: &CoreCall) -> Result<Out, Refusal> {
    let named = booleans(call, &["diagnose"])?;
    guard_manifest()?;
    let config = checked_config(call)?;
    let mut r = Map::new();
    r.insert("commit_docs".into(), loaded(call, "commit_docs")?);
    r.insert(
        "debug_dir".into(),
        json!(path_text(&call.project.join(".planning/debug"))?),
    );
    r.insert("debugger_model".into(), model(call, "gsd-debugger")?);
    r.insert(
        "tdd_mode".into(),
        json!(super::super::compat::js::truthy(&loaded(call, "tdd_mode")?)),
    );
    r.insert("diagnose".into(), json!(named.flag("diagnose")));
    // `debug` has no sections in 1.14.0's manifest: the field is null.
    r.insert("section_manifest".into(), Value::Null);
    finish(call, config.as_ref(), r)
}

/// `init autonomous [--converge|--cross-ai]`.
pub fn autonomous(call: &CoreCall) -> Result<Out, Refusal> {
    let named = booleans(call, &["converge", "cross-ai"])?;
    guard_manifest()?;
    let config = checked_config(call)?;
    let converge = named.flag("converge") || named.flag("cross-ai");
    let mut facts = Facts {
        plan_strategy_converge: converge,
        ..Facts::default()
    };
    for f in ["converge", "cross-ai"] {
        if named.flag(f) {
            facts.flags.insert(format!("--{f}"));
        }
    }
    let mut r = Map::new();
    r.insert("plan_strategy_converge".into(), json!(converge));
    r.insert(
        "section_manifest".into(),
        section_manifest::field("autonomous", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// `detectMonorepoWorkspaces`: whether pnpm-workspace.yaml lists a
/// package, or package.json's `workspaces` / lerna.json's `packages` is a
/// non-empty list.
fn is_monorepo(project: &Path) -> Result<bool, Refusal> {
    // `platformReadSync`: a file that is not there reads as nothing; one
    // that cannot be read (a folder by that name) stops 1.14.0.
    let read = |f: &str| match std::fs::read(project.join(f)) {
        Ok(b) => Ok(Some(String::from_utf8_lossy(&b).into_owned()).filter(|t| !t.is_empty())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(_) => Err(hand_on(format!(" where {f} cannot be read"))),
    };
    if let Some(pnpm) = read("pnpm-workspace.yaml")? {
        // `/^\s*-\s+['"]?(.+?)['"]?\s*$/` on each `\n` line.
        let item = re(&format!(
            r#"^{JS_SPACE}*-{JS_SPACE}+['"]?{JS_DOT}+?['"]?{JS_SPACE}*$"#
        ));
        if pnpm
            .split('\n')
            .any(|line| item.is_match(line).unwrap_or(false))
        {
            return Ok(true);
        }
    }
    let listed = |file: &str, key: &str| -> Result<bool, Refusal> {
        Ok(read(file)?
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v.get(key).and_then(Value::as_array).map(|a| !a.is_empty()))
            .unwrap_or(false))
    };
    Ok(listed("package.json", "workspaces")? || listed("lerna.json", "packages")?)
}

/// `init docs-update`.
pub fn docs_update(call: &CoreCall) -> Result<Out, Refusal> {
    guard_manifest()?;
    let config = checked_config(call)?;
    let facts = Facts {
        is_monorepo: is_monorepo(call.project)?,
        ..Facts::default()
    };
    let mut r = Map::new();
    r.insert(
        "section_manifest".into(),
        section_manifest::field("docs-update", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// `getInitGitState(cwd)`: whether the project is in a git work tree, the
/// tree's root, and whether the project sits in a folder below that root.
pub(super) fn git_state(project: &Path) -> Result<(bool, Value, bool), Refusal> {
    let inside = matches!(
        super::gitinfo::git(project, &["rev-parse", "--is-inside-work-tree"]),
        Some((0, ref out)) if out.trim() == "true"
    );
    if !inside {
        return Ok((false, Value::Null, false));
    }
    let root = match super::gitinfo::git(project, &["rev-parse", "--show-toplevel"]) {
        Some((0, out)) if !out.trim().is_empty() => Some(out.trim().to_string()),
        _ => None,
    };
    let nested = match super::gitinfo::git(project, &["rev-parse", "--show-prefix"]) {
        Some((0, out)) => {
            let prefix = out.trim();
            !prefix.is_empty() && prefix != "." && prefix != "./"
        }
        _ => return Err(hand_on(" where git names no prefix for the project")),
    };
    let project_text = path_text(project)?;
    let nested = nested
        && !root.as_ref().is_some_and(|r| {
            r.trim_end_matches('/').to_lowercase()
                == project_text.trim_end_matches('/').to_lowercase()
        });
    Ok((true, root.map_or(Value::Null, Value::String), nested))
}

/// `init ingest-docs`.
pub fn ingest_docs(call: &CoreCall) -> Result<Out, Refusal> {
    let config = checked_config(call)?;
    let planning = call.project.join(".planning");
    let (has_git, root, nested) = git_state(call.project)?;
    let mut r = Map::new();
    r.insert(
        "project_exists".into(),
        json!(planning.join("PROJECT.md").exists()),
    );
    r.insert("planning_exists".into(), json!(planning.exists()));
    r.insert("has_git".into(), json!(has_git));
    r.insert("git_worktree_root".into(), root);
    r.insert("in_nested_subdir".into(), json!(nested));
    for (key, file) in [
        ("project_path", "PROJECT.md"),
        ("requirements_path", "REQUIREMENTS.md"),
        ("roadmap_path", "ROADMAP.md"),
        ("state_path", "STATE.md"),
        ("intel_dir", "intel"),
        ("conflicts_path", "INGEST-CONFLICTS.md"),
    ] {
        r.insert(key.into(), json!(path_text(&planning.join(file))?));
    }
    r.insert("commit_docs".into(), loaded(call, "commit_docs")?);
    finish(call, config.as_ref(), r)
}

/// `init transition`, where no workstream is active (gsd hands a
/// workstream's call on before it gets here): no other workstream to
/// collide with.
pub fn transition(call: &CoreCall) -> Result<Out, Refusal> {
    guard_manifest()?;
    let config = checked_config(call)?;
    let mut r = Map::new();
    r.insert("other_active_workstreams".into(), json!([]));
    r.insert(
        "section_manifest".into(),
        section_manifest::field("transition", &Facts::default()).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// The extensions 1.14.0 takes for code (`CODE_EXTENSIONS`).
const CODE_EXTENSIONS: &[&str] = &[
    ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".py", ".go", ".rs", ".swift", ".java", ".kt",
    ".kts", ".c", ".cpp", ".cc", ".h", ".hpp", ".cs", ".rb", ".php", ".dart", ".m", ".mm",
    ".scala", ".groovy", ".lua", ".r", ".R", ".zig", ".ex", ".exs", ".clj",
];

/// The folders its code scan does not enter.
const SKIPPED: &[&str] = &[
    "node_modules",
    ".git",
    ".planning",
    ".claude",
    ".codex",
    "__pycache__",
    "target",
    "dist",
    "build",
    ".next",
    ".nuxt",
    ".svelte-kit",
    "coverage",
    "vendor",
    ".venv",
    "venv",
];

/// The files that make a project brownfield by themselves.
const PACKAGE_FILES: &[&str] = &[
    "package.json",
    "requirements.txt",
    "pyproject.toml",
    "Cargo.toml",
    "go.mod",
    "Package.swift",
    "build.gradle",
    "build.gradle.kts",
    "pom.xml",
    "Gemfile",
    "composer.json",
    "pubspec.yaml",
    "CMakeLists.txt",
    "Makefile",
    "build.zig",
    "mix.exs",
    "project.clj",
];

/// The codebase map a project needs whole (`REQUIRED_CODEBASE_MAP_FILES`).
const MAP_FILES: &[&str] = &[
    "STACK.md",
    "ARCHITECTURE.md",
    "STRUCTURE.md",
    "CONVENTIONS.md",
    "TESTING.md",
    "INTEGRATIONS.md",
    "CONCERNS.md",
];

/// Node's `path.extname`.
fn extname(name: &str) -> &str {
    match name.rfind('.') {
        Some(0) | None => "",
        Some(_) if name == ".." => "",
        Some(i) => &name[i..],
    }
}

/// `hasCodeFilesInternal`: a code file within four folder levels, outside
/// the skipped folders (links are not followed).
fn has_code(dir: &Path, depth: usize) -> bool {
    if depth > 3 {
        return false;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    for e in entries.flatten() {
        let Ok(kind) = e.file_type() else { continue };
        let name = e.file_name().to_string_lossy().into_owned();
        if kind.is_file() && CODE_EXTENSIONS.contains(&extname(&name)) {
            return true;
        }
        if kind.is_dir() && !SKIPPED.contains(&name.as_str()) && has_code(&e.path(), depth + 1) {
            return true;
        }
    }
    false
}

/// `detectSubRepos`: the folders (not hidden, not node_modules) holding a
/// `.git`, sorted.
fn sub_repos(project: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(project)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "node_modules")
        .filter(|n| project.join(n).join(".git").exists())
        .collect();
    out.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    out
}

/// `init new-project [--auto]`: what a new project starts from — the
/// research models, whether the folder already holds code or a package
/// manifest (brownfield) and a codebase map, git, and which search keys
/// are set.
pub fn new_project(call: &CoreCall) -> Result<Out, Refusal> {
    let named = booleans(call, &["auto"])?;
    guard_manifest()?;
    let config = checked_config(call)?;
    let planning = call.project.join(".planning");
    let home = std::env::home_dir().unwrap_or_default();
    let keyed = |var: &str, file: &str| {
        std::env::var_os(var).is_some_and(|v| !v.is_empty())
            || home.join(".gsd").join(file).exists()
    };
    let has_code = has_code(call.project, 0);
    let has_package = PACKAGE_FILES.iter().any(|f| call.project.join(f).exists());
    let brownfield = has_code || has_package;
    let codebase = planning.join("codebase");
    let mapped = codebase.exists() && MAP_FILES.iter().all(|f| codebase.join(f).exists());
    let exists = |f: &str| planning.join(f).exists();
    let (has_git, root, nested) = git_state(call.project)?;
    let mut r = Map::new();
    for (key, agent) in [
        ("researcher_model", "gsd-project-researcher"),
        ("synthesizer_model", "gsd-research-synthesizer"),
        ("roadmapper_model", "gsd-roadmapper"),
    ] {
        r.insert(key.into(), model(call, agent)?);
    }
    r.insert(
        "commit_docs".into(),
        super::init_envelope::commit_docs(call.project),
    );
    super::init_envelope::insert_completeness(&mut r, &planning);
    r.insert("project_exists".into(), json!(exists("PROJECT.md")));
    r.insert("has_codebase_map".into(), json!(mapped));
    r.insert("has_existing_code".into(), json!(has_code));
    r.insert("has_package_file".into(), json!(has_package));
    r.insert("is_brownfield".into(), json!(brownfield));
    r.insert("sub_repos_detected".into(), json!(sub_repos(call.project)));
    r.insert("needs_codebase_map".into(), json!(brownfield && !mapped));
    r.insert("has_git".into(), json!(has_git));
    r.insert("git_worktree_root".into(), root);
    r.insert("in_nested_subdir".into(), json!(nested));
    r.insert(
        "brave_search_available".into(),
        json!(keyed("BRAVE_API_KEY", "brave_api_key")),
    );
    r.insert(
        "firecrawl_available".into(),
        json!(keyed("FIRECRAWL_API_KEY", "firecrawl_api_key")),
    );
    r.insert(
        "exa_search_available".into(),
        json!(keyed("EXA_API_KEY", "exa_api_key")),
    );
    for (key, file) in [
        ("project_path", "PROJECT.md"),
        ("requirements_path", "REQUIREMENTS.md"),
        ("roadmap_path", "ROADMAP.md"),
        ("config_path", "config.json"),
        ("research_dir", "research"),
    ] {
        r.insert(key.into(), json!(path_text(&planning.join(file))?));
    }
    let mut facts = Facts {
        needs_codebase_map: brownfield && !mapped,
        ..Facts::default()
    };
    if named.flag("auto") {
        facts.flags.insert("--auto".into());
    }
    r.insert(
        "section_manifest".into(),
        section_manifest::field("new-project", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}
