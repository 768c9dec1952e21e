//! gsd-sdk's command resolution: which registered command a `query` argv
//! names, and which tokens are left as its arguments.
//!
//! GSD's workflows spell the same command several ways (`state.load`,
//! `state load`, `state` alone, `roadmap get-phase 3`), and gsd-sdk resolves
//! them in a fixed order: a family word merges with its first argument, then
//! the longest prefix of the tokens that is registered (dotted or spaced)
//! wins, then a dotted first token is split and tried again. We resolve
//! against gsd-sdk's own registry (the list shipped in
//! `gsd-sdk-1.42.3-commands.txt`), so a call resolves to the same command
//! whether gsd answers it or hands it on.

use std::collections::HashSet;
use std::sync::OnceLock;

/// Every command gsd-sdk 1.42.3 registers, dotted and spaced forms alike
/// (dumped from its `createRegistry()`; `tests/sdk_parity.rs` checks it
/// against the installed package).
const REGISTRY: &str = include_str!("gsd-sdk-1.42.3-commands.txt");

/// The registered command names.
pub fn registry() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| REGISTRY.lines().filter(|l| !l.is_empty()).collect())
}

/// Families whose first argument is merged into the command name when it
/// is not a flag (`frontmatter get F` is `frontmatter.get F`).
const MERGE_FIRST: &[&str] = &[
    "state",
    "template",
    "frontmatter",
    "verify",
    "phase",
    "requirements",
    "init",
    "workstream",
    "intel",
    "learnings",
    "uat",
    "todo",
    "milestone",
    "check",
    "detect",
    "route",
];

/// Families that merge only a known subcommand.
const KNOWN_SUBCOMMAND: &[&str] = &[
    "state", "verify", "init", "phase", "phases", "validate", "roadmap",
];

/// A resolved call: the canonical (dotted) command and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub command: String,
    pub args: Vec<String>,
}

/// The first normalisation step: the command word and the arguments after
/// family merging.
pub fn normalize(tokens: &[String]) -> Vec<String> {
    let Some((cmd, args)) = tokens.split_first() else {
        return Vec::new();
    };
    let joined = |name: String, rest: &[String]| {
        let mut v = vec![name];
        v.extend_from_slice(rest);
        v
    };
    if cmd == "scaffold" {
        return joined("phase.scaffold".into(), args);
    }
    if cmd == "state" && args.is_empty() {
        return vec!["state.load".into()];
    }
    if KNOWN_SUBCOMMAND.contains(&cmd.as_str()) && !args.is_empty() {
        let dotted = format!("{cmd}.{}", args[0]);
        return if registry().contains(dotted.as_str()) {
            joined(dotted, &args[1..])
        } else {
            tokens.to_vec()
        };
    }
    if let Some(first) = args.first()
        && !first.starts_with('-')
        && (MERGE_FIRST.contains(&cmd.as_str()) || cmd == "progress" || cmd == "stats")
    {
        return joined(format!("{cmd}.{first}"), &args[1..]);
    }
    tokens.to_vec()
}

fn longest_prefix(tokens: &[String]) -> Option<Resolved> {
    let reg = registry();
    (1..=tokens.len()).rev().find_map(|i| {
        let head = &tokens[..i];
        let dotted = head.join(".");
        let spaced = head.join(" ");
        (reg.contains(dotted.as_str()) || reg.contains(spaced.as_str())).then(|| Resolved {
            command: dotted,
            args: tokens[i..].to_vec(),
        })
    })
}

/// Resolve a query argv (`["roadmap", "get-phase", "3"]`) to a registered
/// command, or `None` when gsd-sdk would not find one either.
pub fn resolve(tokens: &[String]) -> Option<Resolved> {
    let normalized = normalize(tokens);
    if let Some(r) = longest_prefix(&normalized) {
        return Some(r);
    }
    let first = normalized.first()?;
    if first.starts_with("--") || !first.contains('.') {
        return None;
    }
    let mut expanded: Vec<String> = first.split('.').map(str::to_string).collect();
    expanded.extend_from_slice(&normalized[1..]);
    longest_prefix(&expanded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Option<(String, Vec<String>)> {
        let toks: Vec<String> = s.split(' ').map(str::to_string).collect();
        resolve(&toks).map(|r| (r.command, r.args))
    }

    #[test]
    fn dotted_spaced_and_family_forms_resolve_alike() {
        let want = Some(("state.load".to_string(), vec![]));
        assert_eq!(r("state.load"), want);
        assert_eq!(r("state load"), want);
        assert_eq!(r("state"), want);
        assert_eq!(
            r("roadmap get-phase 3"),
            Some(("roadmap.get-phase".into(), vec!["3".into()]))
        );
        assert_eq!(
            r("frontmatter get a.md status"),
            Some((
                "frontmatter.get".into(),
                vec!["a.md".into(), "status".into()]
            ))
        );
        assert_eq!(
            r("config-get workflow.research"),
            Some(("config-get".into(), vec!["workflow.research".into()]))
        );
    }

    #[test]
    fn unknown_commands_do_not_resolve() {
        assert_eq!(r("nonsense foo"), None);
        assert_eq!(r("state nonsense"), None);
    }
}
