//! How many of GSD's own tool calls gsd answers: every `gsd-sdk query` call
//! in an installed get-shit-done-cc package's workflows, commands and agents,
//! or every `gsd_run` / `gsd-tools` call in an installed @opengsd/gsd-core
//! package's workflows, commands, agents and skills, resolved the way that
//! release resolves it, counted per command.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{core, registry, resolve};

/// Which package (and so which dialect) was scanned.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// npm get-shit-done-cc: `gsd-sdk query …` calls.
    GetShitDoneCc,
    /// npm @opengsd/gsd-core: `gsd_run …` / `gsd-tools …` calls.
    GsdCore,
}

impl Dialect {
    /// The package name, as npm spells it.
    pub fn package_name(self) -> &'static str {
        match self {
            Dialect::GetShitDoneCc => "get-shit-done-cc",
            Dialect::GsdCore => "@opengsd/gsd-core",
        }
    }
    /// How a call starts in that package's text.
    pub fn markers(self) -> &'static [&'static str] {
        match self {
            Dialect::GetShitDoneCc => &["gsd-sdk query "],
            Dialect::GsdCore => &["gsd_run ", "gsd-tools "],
        }
    }
}

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
    pub dialect: Dialect,
    /// The package folder scanned.
    pub package: PathBuf,
    /// Package version from its package.json.
    pub version: Option<String>,
    pub rows: Vec<Row>,
    pub calls: usize,
    pub covered_calls: usize,
    /// Call text that names no command of that release (prose, placeholders).
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
#[error("{0} holds neither get-shit-done/workflows nor gsd-core/workflows")]
#[diagnostic(
    code(gsd::sdk::package),
    help(
        "pass the package folder: $(npm root -g)/get-shit-done-cc or $(npm root -g)/@opengsd/gsd-core"
    )
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

/// How a call resolves in a dialect: its canonical name and whether gsd
/// answers it natively there.
fn resolve_call(dialect: Dialect, tokens: &[String]) -> Option<(String, bool)> {
    match dialect {
        Dialect::GetShitDoneCc => resolve::resolve(tokens).map(|r| {
            let name = r.command.replace(' ', ".");
            let covered = registry::handler(&name).is_some();
            (name, covered)
        }),
        Dialect::GsdCore => core::resolve::resolve(tokens).map(|r| {
            let covered = core::answers(&r.command);
            (r.command, covered)
        }),
    }
}

/// Scan `package` (a get-shit-done-cc or @opengsd/gsd-core folder).
pub fn scan(package: &Path) -> Result<Coverage, NotAPackage> {
    let (dialect, dirs) = if package.join("gsd-core").join("workflows").is_dir() {
        (
            Dialect::GsdCore,
            vec![
                package.join("gsd-core").join("workflows"),
                package.join("commands"),
                package.join("agents"),
                package.join("skills"),
            ],
        )
    } else if package.join("get-shit-done").join("workflows").is_dir() {
        (
            Dialect::GetShitDoneCc,
            vec![
                package.join("get-shit-done").join("workflows"),
                package.join("commands"),
                package.join("agents"),
            ],
        )
    } else {
        return Err(NotAPackage(package.display().to_string()));
    };
    let mut paths = Vec::new();
    for dir in dirs {
        files(&dir, &mut paths);
    }
    let mut counts: BTreeMap<String, (usize, bool)> = BTreeMap::new();
    let mut unresolved = Vec::new();
    for p in paths {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        for marker in dialect.markers() {
            for (i, _) in text.match_indices(marker) {
                let toks = call_tokens(&text[i + marker.len()..]);
                match resolve_call(dialect, &toks) {
                    Some((name, covered)) => {
                        let e = counts.entry(name).or_insert((0, covered));
                        e.0 += 1;
                    }
                    None => unresolved.push(toks.join(" ")),
                }
            }
        }
    }
    let mut rows: Vec<Row> = counts
        .into_iter()
        .map(|(command, (calls, covered))| Row {
            covered,
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
        dialect,
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
