//! `task is-behavior-adding PLAN | --task-content XML`: whether a task adds
//! behaviour under GSD Core 1.14.0's TDD rule — `tdd="true"`, a non-empty
//! `<behavior>` block, and a `<files>` entry that is source (not docs, JSON,
//! tests, config or `.env`) — which its executor asks before demanding a
//! RED test.

use serde_json::json;

use super::super::compat::roadmap_text::re;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};
use super::verification::resolve_lexically;

fn ascii_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `/\btdd\s*=\s*["']true["']/i`.
fn tdd_true(content: &str) -> bool {
    re(r#"(?i)tdd\s*=\s*["']true["']"#)
        .find_iter(content)
        .flatten()
        .any(|m| !ascii_word(content[..m.start()].chars().next_back()))
}

/// The first `<TAG>…</TAG>` (any case), its inside.
fn block<'a>(content: &'a str, tag: &str) -> Option<&'a str> {
    let c = re(&format!(r"(?is)<{tag}>(.*?)</{tag}>"))
        .captures(content)
        .ok()
        .flatten()?;
    c.get(1).map(|g| g.as_str())
}

/// Whether a `<files>` entry is source code.
fn source(file: &str) -> bool {
    ![
        r"(?i)\.md$",
        r"(?i)\.json$",
        r"(?i)\.test\.[^.]+$",
        r"(?i)\.spec\.[^.]+$",
        r"(?i)(^|[\\/])tests?[\\/]",
        r"(?i)\.(yml|yaml|toml|ini|cfg|conf|properties)$",
        r"(?i)(^|[\\/])\.env(\..+)?$",
    ]
    .iter()
    .any(|p| re(p).is_match(file).unwrap_or(false))
}

fn verdict(content: &str) -> serde_json::Value {
    let tdd = tdd_true(content);
    let behavior = block(content, "behavior").is_some_and(|b| !super::js::trim(b).is_empty());
    let files = block(content, "files").is_some_and(|f| {
        f.split(['\n', ','])
            .map(|l| {
                let l = super::js::trim(l);
                re(r"^[-*]\s*")
                    .find(l)
                    .ok()
                    .flatten()
                    .map_or(l, |m| &l[m.end()..])
            })
            .filter(|l| !l.is_empty())
            .any(source)
    });
    let adding = tdd && behavior && files;
    let mut missing = Vec::new();
    if !tdd {
        missing.push("tdd=\"true\" frontmatter absent");
    }
    if !behavior {
        missing.push("<behavior> block missing or empty");
    }
    if !files {
        missing.push("<files> has no non-test source file");
    }
    json!({
        "is_behavior_adding": adding,
        "checks": {"tdd_true": tdd, "has_behavior_block": behavior, "has_source_files": files},
        "reason": if adding { None } else { Some(format!("Not behavior-adding: {}", missing.join("; "))) },
    })
}

pub fn is_behavior_adding(call: &CoreCall) -> Result<Out, Refusal> {
    let usage = |m: String| Refusal::Fail(Failure::new("usage", m));
    let content = match call.args.first().map(String::as_str) {
        Some("--task-content") => call.args.get(1).cloned().unwrap_or_default(),
        Some(requested) if !requested.is_empty() => {
            let root = resolve_lexically(call.project, ".");
            let path = resolve_lexically(&root, requested);
            if !path.starts_with(&root) {
                return Err(usage(format!(
                    "Task file is outside project scope: {requested}"
                )));
            }
            if !path.exists() {
                return Err(usage(format!("Task file not found: {requested}")));
            }
            let bytes =
                std::fs::read(&path).map_err(|_| hand_on(" for a task file gsd cannot read"))?;
            String::from_utf8(bytes).map_err(|_| hand_on(" for a task file that is not UTF-8"))?
        }
        _ => String::new(),
    };
    if content.is_empty() {
        return Err(usage(
            "Usage: task.is-behavior-adding <plan-file-path> | --task-content \"<xml>\"".into(),
        ));
    }
    Ok(Out::json(&verdict(&content)))
}
