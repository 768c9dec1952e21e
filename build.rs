//! Tells the test suite which outside tools this build can reach.
//!
//! Some tests need a real program that a plain `cargo test` does not install
//! (the Claude Code CLI, the corpus of real planning trees, pre-commit,
//! check-jsonschema, Chromium). `.ci/test` installs them and names them in
//! environment variables; each such test carries
//! `#[cfg_attr(not(gsd_x), ignore = "why")]`, so without its tool it is
//! reported as ignored with the reason, never as a pass that ran nothing.
//! The binary itself never reads these cfgs.

/// (environment variable, cfg it turns on).
const TOOLS: &[(&str, &str)] = &[
    ("GSD_CLAUDE", "gsd_claude"),
    ("GSD_CORPUS", "gsd_corpus"),
    ("GSD_PRE_COMMIT", "gsd_pre_commit"),
    ("GSD_CHECK_JSONSCHEMA", "gsd_check_jsonschema"),
    ("GSD_CHROMIUM", "gsd_chromium"),
    ("GSD_DOT", "gsd_dot"),
    ("GSD_TMUX", "gsd_tmux"),
    ("GSD_GEMINI", "gsd_gemini"),
    ("GSD_SDK", "gsd_sdk"),
    ("GSD_CORE", "gsd_core"),
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    for (var, cfg) in TOOLS {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        println!("cargo::rerun-if-env-changed={var}");
        if std::env::var_os(var).is_some_and(|v| !v.is_empty()) {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}
