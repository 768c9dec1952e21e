//! How many of GSD's own `gsd-sdk query` calls gsd answers: every call in
//! an installed get-shit-done-cc package's workflows, commands and agents,
//! resolved the way gsd-sdk resolves it, counted per command.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{registry, resolve};

/// One command's row.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Row {
    pub command: String,
    pub calls: usize,
    pub covered: bool,
}

/// The whole table.
#[derive(Debug, Clone, Serialize)]
pub struct Coverage {
    /// The package folder scanned.
    pub package: PathBuf,
    /// Package version from its package.json.
    pub version: Option<String>,
    pub rows: Vec<Row>,
    pub calls: usize,
    pub covered_calls: usize,
    /// `gsd-sdk query` text that names no registered command (prose, placeholders).
    pub unresolved: Vec<String>,
}

impl Coverage {
    pub fn percent(&self) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            100.0 * self.covered_calls as f64 / self.calls as f64
        }
    }
}

/// Why the package cannot be scanned.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{0} holds no get-shit-done/workflows folder")]
#[diagnostic(
    code(gsd::sdk::package),
    help("pass the get-shit-done-cc package folder, e.g. $(npm root -g)/get-shit-done-cc")
)]
pub struct NotAPackage(pub String);

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "md") {
            out.push(p);
        }
    }
}

/// The argv a `gsd-sdk query …` occurrence passes, as far as the line
/// shows it (up to a pipe, redirect, backtick or closing paren).
pub fn call_tokens(after_query: &str) -> Vec<String> {
    let end = after_query
        .find(['`', '|', ';', '&', ')', '>', '<', '\n'])
        .unwrap_or(after_query.len());
    after_query[..end]
        .split_whitespace()
        .map(|t| t.trim_matches(['"', '\'']).to_string())
        .take_while(|t| !t.is_empty())
        .collect()
}

/// Scan `package` (the get-shit-done-cc folder).
pub fn scan(package: &Path) -> Result<Coverage, NotAPackage> {
    let workflows = package.join("get-shit-done").join("workflows");
    if !workflows.is_dir() {
        return Err(NotAPackage(package.display().to_string()));
    }
    let mut paths = Vec::new();
    for dir in [workflows, package.join("commands"), package.join("agents")] {
        files(&dir, &mut paths);
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut unresolved = Vec::new();
    for p in paths {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        for (i, _) in text.match_indices("gsd-sdk query ") {
            let toks = call_tokens(&text[i + "gsd-sdk query ".len()..]);
            match resolve::resolve(&toks) {
                Some(r) => *counts.entry(r.command.replace(' ', ".")).or_default() += 1,
                None => unresolved.push(toks.join(" ")),
            }
        }
    }
    let mut rows: Vec<Row> = counts
        .into_iter()
        .map(|(command, calls)| Row {
            covered: registry::handler(&command).is_some(),
            command,
            calls,
        })
        .collect();
    rows.sort_by(|a, b| b.calls.cmp(&a.calls).then(a.command.cmp(&b.command)));
    let calls = rows.iter().map(|r| r.calls).sum();
    let covered_calls = rows.iter().filter(|r| r.covered).map(|r| r.calls).sum();
    let version = std::fs::read_to_string(package.join("package.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["version"].as_str().map(str::to_string));
    Ok(Coverage {
        package: package.to_path_buf(),
        version,
        rows,
        calls,
        covered_calls,
        unresolved,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_call_stops_at_the_shell() {
        assert_eq!(
            super::call_tokens("config-get workflow.x 2>/dev/null || echo"),
            vec!["config-get", "workflow.x", "2"]
        );
        assert_eq!(
            super::call_tokens("roadmap get-phase \"${PHASE}\")"),
            vec!["roadmap", "get-phase", "${PHASE}"]
        );
    }
}
