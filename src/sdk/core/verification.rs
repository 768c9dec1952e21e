//! `verification status|resolve-file|fingerprint DIR`: what GSD Core
//! 1.14.0 reads from a phase's verifier report (`verification.cjs`).
//!
//! The report is the phase's own `*-VERIFICATION.md` (its token's file,
//! else the first of its own dashed ones, else a bare `VERIFICATION.md`);
//! its frontmatter `status` routes the workflow. A report is *stale* when a
//! SUMMARY changed after it — each file's time its last clean commit, else
//! its mtime — or, for a report that declares `covered_files` and
//! `covered_digest`, when the digest of those files no longer matches or a
//! plan or summary is not among them. gsd runs the same two git commands
//! and hashes the same bytes, so the answers agree file for file.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::frontmatter::{self, INHERITED};
use super::native::{CoreCall, Refusal, claude_runtime, hand_on};
use super::output::{Failure, Out};
use super::phase_id::{extract_phase_token, scope_to_phase};
use super::plan_scan::{self, Unlisted};

fn fail(message: &str) -> Refusal {
    Refusal::Fail(Failure::new("unknown", message))
}

fn unlisted(u: Unlisted) -> Refusal {
    hand_on(u.0)
}

/// `path.resolve(base, p)`: joined and normalized without touching the
/// disk (a `..` after a link climbs the name, not the link's target).
pub fn resolve_lexically(base: &Path, p: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for c in base.join(p).components() {
        match c {
            Component::ParentDir => {
                if out.parent().is_some() {
                    out.pop();
                }
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// JavaScript's default sort: UTF-16 code units.
fn js_sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    v
}

/// `resolvePhaseArtifactFile(entries, bare, {allowBare, phaseToken,
/// phaseDirName})`.
pub fn resolve_artifact(entries: &[String], bare: &str, token: &str, dir: &str) -> Option<String> {
    let suffix = format!("-{bare}");
    let candidates = js_sorted(
        entries
            .iter()
            .filter(|f| f.ends_with(&suffix))
            .cloned()
            .collect(),
    );
    if !candidates.is_empty() {
        let own = format!("{token}{suffix}");
        if !token.is_empty() && candidates.contains(&own) {
            return Some(own);
        }
        if let Some(first) = scope_to_phase(&candidates, dir).first() {
            return Some((*first).clone());
        }
    }
    entries.iter().any(|e| e == bare).then(|| bare.to_string())
}

/// The phase folder named by the first argument, resolved where gsd-tools
/// resolves it (against the project root).
fn phase_dir_arg(call: &CoreCall, command: &str) -> Result<PathBuf, Refusal> {
    match call.args.first().filter(|a| !a.is_empty()) {
        Some(a) => Ok(resolve_lexically(call.project, a)),
        None => Err(fail(&format!("phase directory required for {command}"))),
    }
}

fn base_name(dir: &Path) -> Result<String, Refusal> {
    match dir.file_name() {
        None => Ok(String::new()),
        Some(n) => n
            .to_str()
            .map(str::to_owned)
            .ok_or_else(|| hand_on(" for a phase folder whose name is not UTF-8")),
    }
}

/// `verification.resolve-file DIR`: the report's absolute path, or `""`.
pub fn resolve_file(call: &CoreCall) -> Result<Out, Refusal> {
    let dir = phase_dir_arg(call, "verification.resolve-file")?;
    let name = base_name(&dir)?;
    let path = match plan_scan::list(&dir).map_err(unlisted)? {
        Some(entries) => resolve_artifact(
            &entries,
            "VERIFICATION.md",
            &extract_phase_token(&name),
            &name,
        )
        .map(|f| path_text(&dir.join(f)))
        .transpose()?
        .unwrap_or_default(),
        None => String::new(),
    };
    Ok(Out::with_raw(&json!({"verification_file": path}), path))
}

fn path_text(p: &Path) -> Result<String, Refusal> {
    p.to_str()
        .map(str::to_owned)
        .ok_or_else(|| hand_on(" for a path that is not UTF-8"))
}

/// `formatGsdSlash(command, 'claude')` and the argument tail; an empty
/// command stays empty.
fn next(command: &str, tail: &str) -> String {
    if command.is_empty() {
        String::new()
    } else {
        format!("/gsd-{command}{tail}")
    }
}

fn routed(status: &str, action: &str, command: String, indeterminate: bool) -> Value {
    let mut m = Map::new();
    m.insert("status".into(), json!(status));
    m.insert("next_action".into(), json!(action));
    m.insert("next_command".into(), json!(command));
    if indeterminate {
        m.insert("staleCheckIndeterminate".into(), json!(true));
    }
    Value::Object(m)
}

const MISSING: &str = "No verification report found — the verify step never completed. Running execute-phase is safe here: it resumes at the verification gates and does not re-run plans that already have a SUMMARY.md (see #2868).";

/// `verification.status DIR`: the report's status and the step it routes to.
pub fn status(call: &CoreCall) -> Result<Out, Refusal> {
    let dir = phase_dir_arg(call, "verification.status")?;
    if !claude_runtime(call) {
        return Err(hand_on(" for a runtime other than Claude Code"));
    }
    Ok(Out::json(&read_status(&dir)?))
}

/// `readVerificationStatus(phaseDir, {runtime: 'claude'})`.
pub fn read_status(dir: &Path) -> Result<Value, Refusal> {
    read_status_for(dir, None)
}

/// `readVerificationStatus(phaseDir, {phaseNumber})`: a caller that knows
/// the phase's number (init) has it in the routed command as it is, and
/// may pass no folder at all (an empty path: the report is missing).
pub fn read_status_for(dir: &Path, phase_number: Option<&str>) -> Result<Value, Refusal> {
    let name = base_name(dir)?;
    let token = extract_phase_token(&name);
    let number = if token.is_empty() { &name } else { &token };
    let arg = match phase_number {
        Some("") => String::new(),
        Some(n) => format!(" {n}"),
        None if super::super::compat::roadmap_text::re(r"^[0-9]+(\.[0-9]+)*$")
            .is_match(number)
            .unwrap_or(false) =>
        {
            format!(" {number}")
        }
        None => String::new(),
    };
    let missing = || routed("missing", MISSING, next("execute-phase", &arg), false);
    let Some(entries) = plan_scan::list(dir).map_err(unlisted)? else {
        return Ok(missing());
    };
    let Some(file) = resolve_artifact(&entries, "VERIFICATION.md", &token, &name) else {
        return Ok(missing());
    };
    let content = match std::fs::read(dir.join(&file)) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| hand_on(" for a report that is not UTF-8"))?
            .replace("\r\n", "\n")
            .replace('\r', "\n"),
        Err(_) => return Ok(missing()),
    };
    let fm = frontmatter::extract(&content).map_err(|u| hand_on(u.0))?;
    let raw = match fm.get("status") {
        Some(Value::String(s)) => super::js::trim(s).to_string(),
        _ => String::new(),
    };
    if raw.is_empty() {
        return Ok(missing());
    }
    if INHERITED.contains(&raw.as_str()) {
        return Err(hand_on(" for a status every JavaScript object has"));
    }
    if raw == "gaps_found" {
        return Ok(routed(
            "gaps_found",
            "Gaps found. Plan the fixes, then re-run execute-phase before shipping.",
            next("plan-phase", &format!("{arg} --gaps")),
            false,
        ));
    }
    let declares = fm.contains_key("covered_files") || fm.contains_key("covered_digest");
    let (stale, indeterminate) = if declares {
        (fingerprint_stale(dir, &fm)?, false)
    } else {
        match mtime_stale(dir, &file).map_err(unlisted)? {
            Some(stale) => (stale, false),
            None => (false, true),
        }
    };
    if stale {
        return Ok(routed(
            "stale",
            "Verification is stale. Re-run verify-work before transition.",
            next("verify-work", &arg),
            false,
        ));
    }
    Ok(match raw.as_str() {
        "passed" => routed(
            "passed",
            "Verification passed — continue.",
            String::new(),
            indeterminate,
        ),
        "human_needed" => routed(
            "human_needed",
            "Human verification required. Complete the manual tests in the phase's *-UAT.md, then re-run the verify step until status is passed.",
            next("verify-work", &arg),
            indeterminate,
        ),
        _ => routed(
            "unknown",
            &format!(
                "Unexpected verification status '{raw}'. If this is an intentional non-standard marker (e.g. a hand-set failed/superseded state), no action is needed. Otherwise, run execute-phase to regenerate verification — it will not re-run plans that already have a SUMMARY.md."
            ),
            next("execute-phase", &arg),
            indeterminate,
        ),
    })
}

/// A report that declares a fingerprint is stale unless it is well formed,
/// its digest is the files' digest now, and every plan and summary of the
/// folder is among its files.
fn fingerprint_stale(dir: &Path, fm: &Map<String, Value>) -> Result<bool, Refusal> {
    let files: Option<Vec<String>> = match fm.get("covered_files") {
        Some(Value::Array(a)) if !a.is_empty() => {
            a.iter().map(|v| v.as_str().map(str::to_owned)).collect()
        }
        _ => None,
    };
    let digest = match fm.get("covered_digest") {
        Some(Value::String(d)) if !super::js::trim(d).is_empty() => Some(d),
        _ => None,
    };
    let (Some(files), Some(digest)) = (files, digest) else {
        return Ok(true);
    };
    let root = project_root(dir)?;
    if covered_digest(&root, &files).as_ref() != Some(digest) {
        return Ok(true);
    }
    let scan = plan_scan::scan(dir).map_err(unlisted)?;
    if !scan.complete {
        return Ok(true);
    }
    let covered = canonical(&files);
    Ok(!scan
        .all_plan_files
        .iter()
        .chain(&scan.summary_files)
        .all(|a| {
            covered
                .iter()
                .any(|c| c == a || c.ends_with(&format!("/{a}")))
        }))
}

/// `findProjectRoot(phaseDir)` where its answer is plain: the folder
/// itself when it holds `.planning/`, else the nearest ancestor that does,
/// with no git repository nested between them and no other project above.
/// Elsewhere (sub-repos, nested repositories, a home folder on the way)
/// the call is handed on.
fn project_root(dir: &Path) -> Result<PathBuf, Refusal> {
    if dir.join(".planning").is_dir() {
        return Ok(dir.to_path_buf());
    }
    let why =
        || hand_on(" for a phase folder whose project root gsd-tools finds by its sub-repo rules");
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut between = Vec::new();
    let root = dir
        .ancestors()
        .skip(1)
        .find(|a| {
            between.push(a.to_path_buf());
            a.join(".planning").is_dir()
        })
        .ok_or_else(why)?
        .to_path_buf();
    between.pop();
    let nested_git = std::iter::once(dir.to_path_buf())
        .chain(between.iter().cloned())
        .any(|d| d.join(".git").exists());
    let depth = dir
        .strip_prefix(&root)
        .map_or(usize::MAX, |r| r.components().count());
    let above = root
        .ancestors()
        .skip(1)
        .any(|a| a.join(".planning").is_dir());
    let home_on_way = home.is_some_and(|h| h.starts_with(&root) || between.contains(&h));
    if nested_git || depth >= 10 || above || home_on_way {
        return Err(why());
    }
    Ok(root)
}

/// `path.posix.normalize`.
fn posix_normalize(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let absolute = p.starts_with('/');
    let trailing = p.ends_with('/');
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if out.last().is_some_and(|l| *l != "..") {
                    out.pop();
                } else if !absolute {
                    out.push("..");
                }
            }
            s => out.push(s),
        }
    }
    let mut s = out.join("/");
    if s.is_empty() && !absolute {
        s = ".".into();
    }
    if !s.is_empty() && trailing && s != "." {
        s.push('/');
    } else if s == "." && trailing {
        s = "./".into();
    }
    if absolute { format!("/{s}") } else { s }
}

/// `canonicalizeCoveredFiles`: normalized, de-duplicated, sorted.
fn canonical(files: &[String]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    js_sorted(
        files
            .iter()
            .map(|f| posix_normalize(&f.replace('\\', "/")))
            .filter(|f| seen.insert(f.clone()))
            .collect(),
    )
}

/// `computeCoveredDigest`: `v1:sha256:` and the hash of each covered
/// file's path and content hash, or `None` where a file is missing, not a
/// file, or outside the project (after links).
fn covered_digest(root: &Path, files: &[String]) -> Option<String> {
    let files = canonical(files);
    if files.is_empty() {
        return None;
    }
    let real_root = root.canonicalize().ok()?;
    let mut parts = String::new();
    for rel in &files {
        if rel.is_empty() || rel == ".." || rel.starts_with("../") || rel.starts_with('/') {
            return None;
        }
        let real = resolve_lexically(root, rel).canonicalize().ok()?;
        if !real.starts_with(&real_root) || !real.is_file() {
            return None;
        }
        let bytes = std::fs::read(&real).ok()?;
        parts.push_str(&format!("{rel}\n{:x}\n", Sha256::digest(&bytes)));
    }
    let aggregate = Sha256::digest(format!("v1\n{parts}").as_bytes());
    Some(format!("v1:sha256:{aggregate:x}"))
}

/// `verification.fingerprint DIR FILE…`.
pub fn fingerprint(call: &CoreCall) -> Result<Out, Refusal> {
    let dir = phase_dir_arg(call, "verification.fingerprint")?;
    let files = call.args.get(1..).unwrap_or(&[]);
    if files.is_empty() {
        return Err(fail(
            "at least one covered file required for verification.fingerprint",
        ));
    }
    let root = project_root(&dir)?;
    let sorted = canonical(files);
    match covered_digest(&root, &sorted) {
        Some(d) => Ok(Out::with_raw(
            &json!({"covered_files": sorted, "covered_digest": d}),
            d,
        )),
        None => Err(fail(
            "could not compute fingerprint — a covered file is missing, unreadable, or escapes the project root",
        )),
    }
}

/// git started as gsd-tools starts it (no prompt), its stdout collected by
/// [`finished`].
fn git(dir: &Path, args: &[&str]) -> Option<std::process::Child> {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GCM_INTERACTIVE", "never")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()
}

/// A started git's stdout as text; `None` where it did not start or failed.
fn finished(child: Option<std::process::Child>) -> Option<String> {
    let o = child?.wait_with_output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// `matchRequestedFile`: the requested name a git path is (exactly or as
/// a `/`-bounded suffix).
fn requested<'a>(git_path: &str, files: &'a [String]) -> Option<&'a String> {
    let g = git_path.replace('\\', "/");
    files
        .iter()
        .find(|want| g == **want || g.ends_with(&format!("/{want}")))
}

/// `defaultPhaseCleanCommitTimesMs`: each file's last first-parent commit
/// time (ms), for the files git shows unchanged from HEAD.
fn clean_commit_times(dir: &Path, files: &[String]) -> HashMap<String, f64> {
    let mut out = HashMap::new();
    let mut args = vec!["log", "--first-parent", "--format=%ct", "--name-only", "--"];
    args.extend(files.iter().map(String::as_str));
    let mut diff = vec!["diff", "--name-only", "HEAD", "--"];
    diff.extend(files.iter().map(String::as_str));
    // 1.14.0 runs the diff after the log, and only where the log found a
    // commit; both only read, so gsd starts them together (the diff's
    // answer is ignored where 1.14.0 would not have asked).
    let (log, dirty) = (git(dir, &args), git(dir, &diff));
    let log = finished(log);
    let dirty = finished(dirty);
    let Some(log) = log.filter(|s| !s.is_empty()) else {
        return out;
    };
    let mut current: Option<f64> = None;
    for line in log.split('\n').filter(|l| !l.is_empty()) {
        if line.bytes().all(|b| b.is_ascii_digit()) {
            current = line.parse().ok();
            continue;
        }
        let Some(ct) = current else { continue };
        if let Some(rel) = requested(line, files) {
            out.entry(rel.clone()).or_insert(ct * 1000.0);
        }
    }
    if out.is_empty() {
        return out;
    }
    let Some(dirty) = dirty else {
        return HashMap::new();
    };
    for line in dirty.split('\n').filter(|l| !l.is_empty()) {
        if let Some(rel) = requested(line, files) {
            out.remove(rel);
        }
    }
    out
}

/// Node's `stat.mtimeMs` (negative before 1970).
pub(super) fn mtime_ms(p: &Path) -> Option<f64> {
    let t = std::fs::metadata(p).ok()?.modified().ok()?;
    let ms = |d: std::time::Duration| d.as_secs() as f64 * 1e3 + f64::from(d.subsec_nanos()) / 1e6;
    Some(match t.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => ms(after),
        Err(before) => -ms(before.duration()),
    })
}

/// `findStaleVerificationSummary`: `Some(stale)`, or `None` where a time
/// could not be read (1.14.0 then flags the answer indeterminate).
fn mtime_stale(dir: &Path, report: &str) -> Result<Option<bool>, Unlisted> {
    let summaries = js_sorted(plan_scan::scan(dir)?.summary_files);
    if summaries.is_empty() {
        return Ok(Some(false));
    }
    let mut files = vec![report.to_string()];
    files.extend(summaries.iter().cloned());
    let clean = clean_commit_times(dir, &files);
    let time = |f: &String| clean.get(f).copied().or_else(|| mtime_ms(&dir.join(f)));
    let Some(verified) = time(&files[0]) else {
        return Ok(None);
    };
    for s in &summaries {
        match time(s) {
            Some(t) if t > verified => return Ok(Some(true)),
            Some(_) => {}
            None => return Ok(None),
        }
    }
    Ok(Some(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_normalize_as_node_does() {
        for (p, n) in [
            ("", "."),
            ("./a//b/", "a/b/"),
            ("a/../../b", "../b"),
            ("/x/../..", "/"),
            ("src/./x.rs", "src/x.rs"),
            ("./", "./"),
            ("..", ".."),
        ] {
            assert_eq!(posix_normalize(p), n, "{p}");
        }
    }

    #[test]
    fn the_phases_own_report_wins() {
        let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let entries = e(&["03-CORRECTION-VERIFICATION.md", "03-VERIFICATION.md"]);
        assert_eq!(
            resolve_artifact(&entries, "VERIFICATION.md", "03", "03-x").as_deref(),
            Some("03-VERIFICATION.md")
        );
        let stray = e(&["04-VERIFICATION.md", "VERIFICATION.md"]);
        assert_eq!(
            resolve_artifact(&stray, "VERIFICATION.md", "03", "03-x").as_deref(),
            Some("VERIFICATION.md")
        );
        assert_eq!(
            resolve_artifact(&e(&["04-VERIFICATION.md"]), "VERIFICATION.md", "03", "03-x"),
            None
        );
    }
}
