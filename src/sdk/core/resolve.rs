//! GSD Core 1.14.0's command resolution: which command a `gsd_run …` argv
//! names, and which tokens are left as its arguments.
//!
//! gsd-tools resolves differently from gsd-sdk 1.42.3 (whose resolution is
//! `super::super::resolve`): a leading `query` is dropped, a dotted first
//! token is split at its first dot only (`state.load` is `state load`), and
//! the top-level word alone picks the router; a family's router then takes
//! the next word as its subcommand. So `roadmap get-phase 3` and
//! `roadmap.get-phase 3` are both `roadmap.get-phase` with `["3"]`, and an
//! unknown top-level word is an unknown command whatever follows it.

use std::collections::HashSet;
use std::sync::OnceLock;

/// Every top-level command gsd-tools 1.14.0 dispatches, one a line (dumped by
/// `tests/sdk_core/commands.mjs` from the package; `tests/sdk_core.rs`
/// checks it against the installed one).
const COMMANDS: &str = include_str!("gsd-core-1.14.0-commands.txt");

/// The top-level commands whose router takes a subcommand word next
/// (`state load`, `init phase-op 3`): those whose code answers an unknown
/// word with "Unknown <command> subcommand" (or "workflow", "type"), read
/// from gsd-tools.cjs and its lib/*-command-router.cjs. `tests/sdk_core.rs`
/// checks each is a 1.14.0 command.
pub const FAMILIES: &[&str] = &[
    "agent",
    "assumption-delta",
    "audit-open",
    "capability",
    "check",
    "commit-docs-guard",
    "drift-guard",
    "effort",
    "eval",
    "frontmatter",
    "git",
    "graphify",
    "init",
    "intel",
    "learnings",
    "loop",
    "milestone",
    "package-legitimacy",
    "phase",
    "phases",
    "planning",
    "progress",
    "quick-batch",
    "refactor",
    "requirements",
    "research-store",
    "review-lane",
    "roadmap",
    "scaffold",
    "state",
    "stats",
    "task",
    "template",
    "todo",
    "uat",
    "user-story",
    "validate",
    "verification",
    "verify",
    "windows",
    "workstream",
    "worktree",
];

/// The top-level command names.
pub fn commands() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| COMMANDS.lines().filter(|l| !l.is_empty()).collect())
}

/// A resolved call: the canonical name (`state.load`, `config-get`) and the
/// arguments after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub command: String,
    pub args: Vec<String>,
}

/// A word a router reads as its subcommand (not a flag, path or placeholder).
fn is_subcommand_word(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_lowercase())
        && w.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// Resolve an argv (global flags already taken out) the way gsd-tools 1.14.0
/// dispatches it, or `None` when it names no command of that release.
pub fn resolve(tokens: &[String]) -> Option<Resolved> {
    let mut toks: Vec<String> = tokens.to_vec();
    if toks.first().is_some_and(|t| t == "query") {
        toks.remove(0);
    }
    let first = toks.first()?.clone();
    if let Some((head, rest)) = first.split_once('.')
        && !head.is_empty()
        && !rest.is_empty()
    {
        toks.splice(0..1, [head.to_string(), rest.to_string()]);
    }
    let command = toks[0].clone();
    if !commands().contains(command.as_str()) {
        return None;
    }
    match toks.get(1) {
        Some(sub) if FAMILIES.contains(&command.as_str()) && is_subcommand_word(sub) => {
            Some(Resolved {
                command: format!("{command}.{sub}"),
                args: toks[2..].to_vec(),
            })
        }
        _ => Some(Resolved {
            command,
            args: toks[1..].to_vec(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Option<(String, Vec<String>)> {
        let toks: Vec<String> = s.split(' ').map(str::to_string).collect();
        resolve(&toks).map(|r| (r.command, r.args))
    }

    #[test]
    fn query_prefix_dots_and_families_resolve_alike() {
        let want = Some(("roadmap.get-phase".to_string(), vec!["3".to_string()]));
        assert_eq!(r("roadmap get-phase 3"), want);
        assert_eq!(r("roadmap.get-phase 3"), want);
        assert_eq!(r("query roadmap.get-phase 3"), want);
        assert_eq!(
            r("query config-get workflow.research"),
            Some(("config-get".into(), vec!["workflow.research".into()]))
        );
        assert_eq!(
            r("runtime-identity --raw"),
            Some(("runtime-identity".into(), vec!["--raw".into()]))
        );
    }

    #[test]
    fn a_family_without_a_word_is_the_family_and_unknown_words_do_not_resolve() {
        assert_eq!(r("state"), Some(("state".into(), vec![])));
        assert_eq!(r("nonsense foo"), None);
        assert_eq!(r("query"), None);
        assert_eq!(
            r("phase complete ${PHASE}"),
            Some(("phase.complete".into(), vec!["${PHASE}".into()]))
        );
    }
}
