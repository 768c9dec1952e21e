//! The MVP-mode checks GSD's workflows ask about: whether a phase runs in
//! MVP mode (phase.mvp-mode), whether a task adds user-visible behaviour
//! (task.is-behavior-adding), and whether a goal is a user story
//! (user-story.validate). Each reads at most one file; none writes.

use serde_json::{Value, json};

use super::super::compat::config as cfg;
use super::super::compat::js;
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};
use super::{fm, roadmap};

/// `phase.mvp-mode N [--cli-flag]`: the `--mvp` flag, then the roadmap's
/// `**Mode:** mvp`, then `workflow.mvp_mode`.
pub fn mvp_mode(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = call.arg(0).filter(|p| !p.is_empty()) else {
        return Err(SdkError::validation(
            "Usage: phase.mvp-mode <phase-number> [--cli-flag]",
        ));
    };
    let cli_flag = call.args.iter().any(|a| a == "--cli-flag");
    let found = roadmap::phase_value(call.project, phase);
    let roadmap_mode = match (&found["found"], &found["mode"]) {
        (Value::Bool(true), Value::String(m)) => json!(js::trim(m).to_lowercase()),
        _ => Value::Null,
    };
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let config_mvp = config
        .get("workflow")
        .and_then(|w| w.get("mvp_mode"))
        .is_some_and(js::truthy);
    let (active, source) = if cli_flag {
        (true, "cli_flag")
    } else if roadmap_mode == "mvp" {
        (true, "roadmap")
    } else if config_mvp {
        (true, "config")
    } else {
        (false, "none")
    };
    Ok(Reply::Json(json!({
        "active": active,
        "source": source,
        "roadmap_mode": roadmap_mode,
        "config_mvp_mode": config_mvp,
        "cli_flag_present": cli_flag,
    })))
}

/// Whether a `<files>` entry is a source file: not docs, data, config,
/// environment or a test.
fn is_source_file(f: &str) -> bool {
    let not_source = [
        r"(?i)\.md$",
        r"(?i)\.json$",
        r"(?i)\.test\.[^.]+$",
        r"(?i)\.spec\.[^.]+$",
        r"(?i)(^|[\\/])tests?[\\/]",
        r"(?i)\.(yml|yaml|toml|ini|cfg|conf|properties)$",
        r"(?i)(^|[\\/])\.env(\..+)?$",
    ];
    !not_source
        .iter()
        .any(|p| re(p).is_match(f).unwrap_or(false))
}

/// `task.is-behavior-adding FILE | --task-content XML`: `tdd="true"`, a
/// non-empty `<behavior>` and a source file in `<files>`, all three.
pub fn is_behavior_adding(call: &Call) -> Result<Reply, SdkError> {
    let usage = || {
        SdkError::validation(
            "Usage: task.is-behavior-adding <plan-file-path> | --task-content \"<xml>\"",
        )
    };
    let content = match call.arg(0) {
        Some("--task-content") => call.arg(1).map(str::to_string),
        Some(p) if !p.is_empty() => {
            let root = fm::lexical(call.project);
            let path = fm::lexical(&root.join(p));
            if !path.starts_with(&root) {
                return Err(SdkError::validation(format!(
                    "Task file is outside project scope: {p}"
                )));
            }
            if !path.exists() {
                return Err(SdkError::validation(format!("Task file not found: {p}")));
            }
            Some(
                String::from_utf8_lossy(
                    &std::fs::read(&path)
                        .map_err(|e| SdkError::execution(format!("{}: {e}", path.display())))?,
                )
                .into_owned(),
            )
        }
        _ => None,
    };
    let Some(content) = content.filter(|c| !c.is_empty()) else {
        return Err(usage());
    };
    let sp = js::JS_SPACE;
    let tdd = re(&format!(r#"(?i)tdd{sp}*={sp}*["']true["']"#))
        .find_iter(&content)
        .flatten()
        .any(|m| !super::triage::js_word_char(content[..m.start()].chars().next_back()));
    let inner = |tag: &str| {
        re(&format!(r"(?i)<{tag}>([\s\S]*?)</{tag}>"))
            .captures(content.as_str())
            .ok()
            .flatten()
            .map(|c| rt::group(&c, 1).to_string())
    };
    let behavior = inner("behavior").is_some_and(|b| !js::trim(&b).is_empty());
    let sources = inner("files").is_some_and(|body| {
        let bullet = re(&format!(r"^[-*]{sp}*"));
        body.split(['\n', ','])
            .map(|l| bullet.replace(js::trim(l), "").into_owned())
            .filter(|l| !l.is_empty())
            .any(|f| is_source_file(&f))
    });
    let adding = tdd && behavior && sources;
    let reason = if adding {
        Value::Null
    } else {
        let missing: Vec<&str> = [
            (!tdd, "tdd=\"true\" frontmatter absent"),
            (!behavior, "<behavior> block missing or empty"),
            (!sources, "<files> has no non-test source file"),
        ]
        .into_iter()
        .filter_map(|(m, why)| m.then_some(why))
        .collect();
        json!(format!("Not behavior-adding: {}", missing.join("; ")))
    };
    Ok(Reply::Json(json!({
        "is_behavior_adding": adding,
        "checks": {"tdd_true": tdd, "has_behavior_block": behavior, "has_source_files": sources},
        "reason": reason,
    })))
}

/// `user-story.validate TEXT… | --story TEXT`: "As a R, I want to C, so that O."
pub fn user_story(call: &Call) -> Result<Reply, SdkError> {
    let input = match call.arg(0) {
        Some("--story") => call.arg(1).map(str::to_string),
        Some(a) if !a.is_empty() => Some(call.args.join(" ")),
        _ => None,
    };
    let Some(input) = input.filter(|i| !i.is_empty()) else {
        return Err(SdkError::validation(
            "Usage: user-story.validate \"<story text>\" | --story \"<text>\"",
        ));
    };
    // JavaScript's `.` stops at every line terminator, not only `\n`.
    let any = r"[^\n\r\u{2028}\u{2029}]";
    let story = re(&format!(
        r"^As a ({any}+?), I want to ({any}+?), so that ({any}+?)\.$"
    ));
    let (slots, errors) = match story.captures(input.as_str()).ok().flatten() {
        Some(c) => {
            let slot = |i| js::trim(rt::group(&c, i)).to_string();
            (
                json!({"role": slot(1), "capability": slot(2), "outcome": slot(3)}),
                Vec::new(),
            )
        }
        None => {
            let mut errors: Vec<&str> = [
                (r"(?i)^As a ", "Must begin with \"As a \"."),
                (r"(?i), I want to ", "Must contain \", I want to \"."),
                (r"(?i), so that ", "Must contain \", so that \"."),
                (r"\.$", "Must end with a period."),
            ]
            .into_iter()
            .filter(|(p, _)| !re(p).is_match(&input).unwrap_or(false))
            .map(|(_, why)| why)
            .collect();
            if errors.is_empty() {
                errors.push("Does not match canonical User Story shape.");
            }
            (Value::Null, errors)
        }
    };
    Ok(Reply::Json(json!({
        "valid": !slots.is_null(),
        "input": input,
        "slots": slots,
        "errors": errors,
    })))
}
