//! `gsd_run normalize-test-command CMD`: a project's test command rewritten
//! to run once, as GSD Core 1.14.0 rewrites it before a verification gate
//! runs it — a watch-mode runner (vitest, `jest --watch`) never exits, so a
//! gate that runs it would hang.
//!
//! The rules are gsd-tools': a command already one-shot (`vitest run`,
//! `--run`, `--no-watch`, `--watchAll=false`, `--watch=false`, `--ci`, a
//! leading `CI=`) is left alone; a direct `vitest` becomes `vitest run`, a
//! direct `jest --watch` loses the flag and gains `--watchAll=false`; an
//! `npm`/`pnpm`/`yarn`/`bun` test script whose `package.json` test script
//! watches is prefixed with `CI=true`. Anything else, blank input or `true`
//! comes back as given.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use fancy_regex::Regex;

use super::js;

/// gsd-tools leaves a longer command alone (it bounds its scanning).
const LONGEST: usize = 4096;

const END: &str = "(?![A-Za-z0-9_])";
const START: &str = "(?<![A-Za-z0-9_])";

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a valid pattern")
}

fn matches(re: &Regex, text: &str) -> bool {
    re.is_match(text).unwrap_or(false)
}

// JavaScript's `\b` is ASCII's: next to a word character it is written
// here as the lookaround `END` / `START` (no ASCII word character there).
static ONE_SHOT: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"(?:^|\s)vitest\s+run",
        r"(?:^|\s)--run",
        r"(?:^|\s)--no-watch",
        r"(?:^|\s)--watchAll=false",
        r"(?:^|\s)--watch=false",
        r"(?:^|\s)--ci",
    ]
    .into_iter()
    .map(|p| re(&format!("{p}{END}")))
    .chain([re(r"^\s*CI=")])
    .collect()
});
static VITEST: LazyLock<Regex> = LazyLock::new(|| re(r"(^|\s)vitest(?=\s|$)"));
static JEST: LazyLock<Regex> = LazyLock::new(|| re(r"(?:^|\s)jest(?=\s|$)"));
static WATCH: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?:^|\s)--watch(?:All)?{END}")));
static WATCH_OFF: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"--watch(?:All)?=false{END}")));
static WATCH_FLAG: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:^|\s)--watch(?:All)?(?:=true)?(?=\s|$)"));
static RUNS: LazyLock<Regex> = LazyLock::new(|| re(r"\s{2,}"));
static SEPARATOR: LazyLock<Regex> = LazyLock::new(|| re(r"&&|\|\||;"));
static RUNNER: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"^(?:npm|pnpm|yarn|bun){END}")));
static TEST_WORD: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"{START}test{END}")));
static PACKAGE_DIR: LazyLock<Regex> = LazyLock::new(|| re(r"(?:--dir|--prefix|-C)[=\s]+(\S+)"));

/// Why a command cannot be answered here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unanswered(pub String);

/// The one-shot form of `raw`, its package.json looked up from `dir`.
pub fn normalize(raw: &str, dir: &Path) -> Result<String, Unanswered> {
    let cmd = js::trim(raw);
    if cmd.is_empty() || cmd == "true" || cmd.encode_utf16().count() > LONGEST {
        return Ok(raw.to_owned());
    }
    if one_shot(cmd) {
        return Ok(raw.to_owned());
    }
    let script = script_invocation(cmd);
    if matches(&VITEST, cmd) && !script {
        let stripped = strip_watch_flags(cmd);
        return Ok(VITEST.replace(&stripped, "${1}vitest run").into_owned());
    }
    if matches(&JEST, cmd) && !script {
        if matches(&WATCH, cmd) {
            return Ok(format!("{} --watchAll=false", strip_watch_flags(cmd)));
        }
        return Ok(raw.to_owned());
    }
    if script && script_runner_watches(cmd, dir)? {
        return Ok(format!("CI=true {cmd}"));
    }
    Ok(raw.to_owned())
}

fn one_shot(cmd: &str) -> bool {
    ONE_SHOT.iter().any(|r| matches(r, cmd))
}

/// Whether some `&&`/`||`/`;` segment runs a package manager's test script.
fn script_invocation(cmd: &str) -> bool {
    SEPARATOR.split(cmd).filter_map(Result::ok).any(|seg| {
        let seg = js::trim(seg);
        matches(&RUNNER, seg) && matches(&TEST_WORD, seg)
    })
}

/// A bare or `=true` `--watch`/`--watchAll` taken out (never `=false`).
fn strip_watch_flags(cmd: &str) -> String {
    let spaced = WATCH_FLAG.replace_all(cmd, " ");
    RUNS.replace_all(&spaced, " ")
        .trim_matches(js::is_space)
        .to_owned()
}

/// The folder whose package.json the script runs from: `--dir`,
/// `--prefix` or `-C` in the command, else `dir`.
fn package_dir(cmd: &str, dir: &Path) -> PathBuf {
    let named = PACKAGE_DIR
        .captures(cmd)
        .ok()
        .flatten()
        .and_then(|c| c.get(1))
        .map(|m| m.as_str());
    match named {
        Some(p) => {
            let p = p.strip_prefix(['\'', '"']).unwrap_or(p);
            let p = p.strip_suffix(['\'', '"']).unwrap_or(p);
            dir.join(p)
        }
        None => dir.to_path_buf(),
    }
}

/// Whether the package's `test` script runs vitest in watch mode or jest
/// with `--watch`. A file that is missing or not JSON is no runner; a `test`
/// that is not a string (JavaScript would read it through `String()`) is
/// not answered here.
fn script_runner_watches(cmd: &str, dir: &Path) -> Result<bool, Unanswered> {
    let path = package_dir(cmd, dir).join("package.json");
    if !path.is_file() {
        return Ok(false);
    }
    let Ok(bytes) = std::fs::read(&path) else {
        return Ok(false);
    };
    // Node reads the file as UTF-8 with replacement characters.
    let text = String::from_utf8_lossy(&bytes);
    let pkg = match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(pkg) => pkg,
        // JSON.parse reads what serde_json refuses here (a number beyond
        // f64, nesting past 128, a lone surrogate escape): not answered.
        Err(e) if super::js::serde_refuses_valid_json(&e) => {
            return Err(Unanswered(format!(
                "package.json is JSON serde_json does not read ({e})"
            )));
        }
        Err(_) => return Ok(false),
    };
    let test = match pkg.get("scripts").and_then(|s| s.get("test")) {
        None | Some(serde_json::Value::Null) => return Ok(false),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(_) => {
            return Err(Unanswered(
                "package.json's scripts.test is not a string".into(),
            ));
        }
    };
    if test.is_empty() {
        return Ok(false);
    }
    let vitest = matches(&VITEST, &test) && !one_shot(&test);
    let jest = matches(&JEST, &test) && matches(&WATCH, &test) && !matches(&WATCH_OFF, &test);
    Ok(vitest || jest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(cmd: &str) -> String {
        normalize(cmd, Path::new("/nonexistent")).unwrap()
    }

    #[test]
    fn direct_runners_are_made_one_shot() {
        assert_eq!(n("npx vitest"), "npx vitest run");
        assert_eq!(
            n("vitest --watch --reporter dot"),
            "vitest run --reporter dot"
        );
        assert_eq!(n("jest --watch"), "jest --watchAll=false");
        assert_eq!(n("jest --watchAll=true src"), "jest src --watchAll=false");
        assert_eq!(n("jest src"), "jest src");
        assert_eq!(n("  vitest run  "), "  vitest run  ");
        assert_eq!(n("CI=1 vitest"), "CI=1 vitest");
        assert_eq!(n("cargo test"), "cargo test");
        assert_eq!(n(" true "), " true ");
        assert_eq!(n(""), "");
    }

    #[test]
    fn a_watching_test_script_runs_under_ci() {
        let dir = tempfile::tempdir().unwrap();
        let write = |test: &str| {
            std::fs::write(
                dir.path().join("package.json"),
                format!(r#"{{"scripts":{{"test":{test}}}}}"#),
            )
            .unwrap()
        };
        write(r#""vitest""#);
        assert_eq!(
            normalize("npm test", dir.path()).unwrap(),
            "CI=true npm test"
        );
        write(r#""vitest run""#);
        assert_eq!(normalize("npm test", dir.path()).unwrap(), "npm test");
        write(r#""jest --watch""#);
        assert_eq!(
            normalize("pnpm test && echo ok", dir.path()).unwrap(),
            "CI=true pnpm test && echo ok"
        );
        write("3");
        assert!(normalize("npm test", dir.path()).is_err());
    }
}
