//! `review-lane flags|sections|explicit-from-argv`: GSD Core 1.14.0's
//! roster of reviewer lanes (the CLIs a code or plan review can be sent
//! to), which its workflows loop over with an unquoted
//! `$(gsd_run review-lane flags)`.
//!
//! The roster is 1.14.0's first-party lanes, in its order; an installed
//! third-party capability can add a lane, so with any overlay present the
//! call is handed on. `tests/sdk_core.rs` checks this table against the
//! installed package's.

use super::super::compat::roadmap_text::re;
use super::loop_hooks::no_capability_overlays;
use super::native::{CoreCall, Refusal, flag_value};
use super::output::Out;

/// One lane: its slug, the flags that select it, its REVIEWS.md section.
pub struct Lane {
    pub slug: &'static str,
    pub flags: &'static [&'static str],
    pub section: &'static str,
}

/// 1.14.0's `REVIEWER_LANES`, in order.
pub const LANES: &[Lane] = &[
    Lane {
        slug: "gemini",
        flags: &["--gemini"],
        section: "Gemini",
    },
    Lane {
        slug: "claude",
        flags: &["--claude"],
        section: "Claude",
    },
    Lane {
        slug: "codex",
        flags: &["--codex"],
        section: "Codex",
    },
    Lane {
        slug: "coderabbit",
        flags: &["--coderabbit"],
        section: "CodeRabbit",
    },
    Lane {
        slug: "opencode",
        flags: &["--opencode"],
        section: "OpenCode",
    },
    Lane {
        slug: "qwen",
        flags: &["--qwen"],
        section: "Qwen",
    },
    Lane {
        slug: "cursor",
        flags: &["--cursor"],
        section: "Cursor",
    },
    Lane {
        slug: "antigravity",
        flags: &["--antigravity", "--agy"],
        section: "Antigravity",
    },
    Lane {
        slug: "ollama",
        flags: &["--ollama"],
        section: "Ollama",
    },
    Lane {
        slug: "lm_studio",
        flags: &["--lm-studio"],
        section: "LM Studio",
    },
    Lane {
        slug: "llama_cpp",
        flags: &["--llama-cpp"],
        section: "llama.cpp",
    },
    Lane {
        slug: "kimi-code",
        flags: &["--kimi-code"],
        section: "Kimi Code",
    },
];

/// The lanes `--selected a,b` names (unknown slugs dropped, repeats
/// kept), else every lane.
fn chosen(args: &[String]) -> Vec<&'static Lane> {
    let selected: Vec<&str> = flag_value(args, "--selected")
        .filter(|v| !v.is_empty() && !v.starts_with("--"))
        .map(|v| {
            v.split(',')
                .map(super::js::trim)
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default();
    if selected.is_empty() {
        return LANES.iter().collect();
    }
    selected
        .iter()
        .filter_map(|s| LANES.iter().find(|l| l.slug == *s))
        .collect()
}

/// One token per line, with a final newline unless there are none.
fn lines(rows: Vec<String>) -> Out {
    let mut text = rows.join("\n");
    if !rows.is_empty() {
        text.push('\n');
    }
    Out::text(text)
}

/// `review-lane flags [--selected …]`: every well-formed flag of the
/// chosen lanes.
pub fn flags(call: &CoreCall) -> Result<Out, Refusal> {
    no_capability_overlays(call)?;
    let well_formed = re(r"^--[a-z0-9][a-z0-9-]*$");
    Ok(lines(
        chosen(call.args)
            .iter()
            .flat_map(|l| l.flags.iter())
            .filter(|f| well_formed.is_match(f).unwrap_or(false))
            .map(|f| f.to_string())
            .collect(),
    ))
}

/// `review-lane sections [--selected …]`: `slug<TAB>section` per lane.
pub fn sections(call: &CoreCall) -> Result<Out, Refusal> {
    no_capability_overlays(call)?;
    Ok(lines(
        chosen(call.args)
            .iter()
            .map(|l| format!("{}\t{}", l.slug, l.section))
            .collect(),
    ))
}

/// `review-lane explicit-from-argv -- ARGV…`: the slugs of the lanes the
/// argv after `--` selects, sorted and comma-joined.
pub fn explicit_from_argv(call: &CoreCall) -> Result<Out, Refusal> {
    no_capability_overlays(call)?;
    let after: &[String] = match call.args.iter().position(|a| a == "--") {
        Some(i) => &call.args[i + 1..],
        None => &[],
    };
    let mut slugs: Vec<&str> = LANES
        .iter()
        .filter(|l| l.flags.iter().any(|f| after.iter().any(|a| a == f)))
        .map(|l| l.slug)
        .collect();
    slugs.sort_unstable();
    slugs.dedup();
    Ok(Out::text(slugs.join(",")))
}
