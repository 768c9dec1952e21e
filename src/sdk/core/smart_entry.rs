//! `smart-entry [--json]` (`smart-entry.cjs`): GSD Core 1.14.0's front door.
//! It reads STATE.md, ROADMAP.md's progress table, the current phase's
//! verification files and git, classifies the project into one situation
//! (paused, blocked, executing, complete, …) and names the command to run
//! next with a menu of others. The state contract (`state.json`) carries the
//! same recommendation, so both are built on [`classify_project`].
//!
//! Answered where gsd reads every input as 1.14.0 does; handed on where
//! 1.14.0's answer rests on what gsd does not reproduce: a `last_activity`
//! that is not an ISO date (V8's lenient date parser), one within a day or
//! two of the 72-hour staleness line (where V8's reading of the text after
//! the date could tip it), a recorded `state_head` (its freshness walk), and
//! a frontmatter 1.14.0 would warn about.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use super::super::compat::js::{self, locale_compare, trim};
use super::super::compat::roadmap_text::{group, js_re};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;
use super::phase_id::{extract_phase_token, normalize_phase_name, strip_project_code};
use super::progress_table;
use super::roadmap_analyze::{compare_phase_num, match_phase_dir};
use super::state_fields::{self, body_after_fences};

/// A clean tree whose last activity is older than this is stranded.
const IDLE_STALE_MS: i64 = 72 * 60 * 60 * 1000;

/// The signals 1.14.0's `detectSignals` gathers, in its key order.
#[derive(Debug, Clone, Default)]
pub struct Signals {
    current_phase: Option<String>,
    total_phases: Option<f64>,
    status: String,
    progress: Option<f64>,
    has_planning: bool,
    has_roadmap: bool,
    git_dirty: bool,
    git_unpushed: bool,
    paused: bool,
    blockers: Vec<String>,
    has_git: bool,
    verify_failed: bool,
    stale_activity: bool,
    roadmap_total_phases: Option<usize>,
    roadmap_completed_phases: Option<usize>,
}

impl Signals {
    fn to_json(&self) -> Value {
        let n = |v: Option<f64>| v.map_or(Value::Null, js::number);
        json!({
            "current_phase": self.current_phase,
            "total_phases": n(self.total_phases),
            "status": self.status,
            "progress": n(self.progress),
            "has_planning": self.has_planning,
            "has_roadmap": self.has_roadmap,
            "git_dirty": self.git_dirty,
            "git_unpushed": self.git_unpushed,
            "paused": self.paused,
            "blockers": self.blockers,
            "has_git": self.has_git,
            "verify_failed": self.verify_failed,
            "stale_activity": self.stale_activity,
            "roadmap_total_phases": self.roadmap_total_phases,
            "roadmap_completed_phases": self.roadmap_completed_phases,
            "state_commits_behind": null,
            "state_commit_stale": null,
        })
    }
}

/// One menu entry.
#[derive(Debug, Clone)]
pub struct Action {
    pub id: &'static str,
    pub label: String,
    pub command: &'static str,
    pub recommended: bool,
}

/// `classifyProject`'s answer.
#[derive(Debug, Clone)]
pub struct Entry {
    pub situation: &'static str,
    pub recommended: &'static str,
    pub summary: String,
    pub signals: Signals,
    pub actions: Vec<Action>,
}

impl Entry {
    pub fn to_json(&self) -> Value {
        let actions: Vec<Value> = self
            .actions
            .iter()
            .map(|a| {
                json!({"id": a.id, "label": a.label, "command": a.command, "recommended": a.recommended})
            })
            .collect();
        json!({
            "situation": self.situation,
            "recommended": self.recommended,
            "summary": self.summary,
            "signals": self.signals.to_json(),
            "actions": actions,
        })
    }

    /// The recommended action.
    pub fn recommended_action(&self) -> Option<&Action> {
        self.actions.iter().find(|a| a.id == self.recommended)
    }
}

/// `smart-entry [--json]`.
pub fn smart_entry(call: &CoreCall) -> Result<Out, Refusal> {
    let entry = classify_project(call.project, now_ms())?;
    if call.args.iter().any(|a| a == "--json") {
        return Ok(Out::json(&entry.to_json()));
    }
    let command = entry
        .recommended_action()
        .map_or("/gsd:progress", |a| a.command);
    Ok(Out::text(format!(
        "{}\nRecommended: {} → {}",
        entry.summary, entry.recommended, command
    )))
}

/// `Date.now()`: smart-entry's clock is the real one, never pinned.
fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

/// `classifyProject(cwd, now)`.
pub fn classify_project(project: &Path, now: i64) -> Result<Entry, Refusal> {
    let signals = detect(project, now)?;
    let situation = classify(&signals);
    let actions = actions_for(situation, &signals);
    let recommended = actions
        .iter()
        .find(|a| a.recommended)
        .map_or("progress", |a| a.id);
    let summary = summary(situation, &signals);
    Ok(Entry {
        situation,
        recommended,
        summary,
        signals,
        actions,
    })
}

/// `git ARGS` in `dir` as `execFileSync` runs it: stdout, or `""` where git
/// fails, cannot start or writes more than 4 MiB.
fn git(dir: &Path, args: &[&str]) -> String {
    let Ok(o) = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
    else {
        return String::new();
    };
    if !o.status.success() || o.stdout.len() > 4 * 1024 * 1024 {
        return String::new();
    }
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `readGitSignals`: (has_git, dirty, unpushed).
fn git_signals(dir: &Path) -> (bool, bool, bool) {
    let status = git(dir, &["status", "--porcelain"]);
    if status.is_empty() && trim(&git(dir, &["rev-parse", "--is-inside-work-tree"])).is_empty() {
        return (false, false, false);
    }
    let dirty = !trim(&status).is_empty();
    let unpushed = !trim(&git(dir, &["log", "@{u}..HEAD", "--oneline"])).is_empty();
    (true, dirty, unpushed)
}

/// `detectSignals(cwd, now)`.
fn detect(project: &Path, now: i64) -> Result<Signals, Refusal> {
    let planning = project.join(".planning");
    let (has_git, git_dirty, git_unpushed) = git_signals(project);
    let mut s = Signals {
        has_planning: planning.exists(),
        has_roadmap: planning.join("ROADMAP.md").exists(),
        has_git,
        git_dirty,
        git_unpushed,
        ..Signals::default()
    };
    if !s.has_planning {
        return Ok(s);
    }
    let Some((content, fm)) = state_fields::read_state(&planning.join("STATE.md"))? else {
        return Ok(s);
    };
    let body = body_after_fences(&content);
    let field = |key: Option<&str>, label: &str| state_fields::value(&fm, body, key, Some(label));
    let status = field(Some("status"), "Status");
    let paused_at = field(Some("paused_at"), "Paused At");
    let last_activity = field(Some("last_activity"), "Last Activity");
    let current_phase =
        field(Some("current_phase"), "Current Phase").or_else(|| field(None, "Phase"));
    let progress = match fm.get("progress") {
        Some(Value::Object(m)) => Some(m),
        _ => None,
    };
    // `fmScalarKey(progress, key)`: the nested scalar, with no body field.
    let nested = |key: &str| progress.and_then(|m| state_fields::value(m, "", Some(key), None));
    let total_phases =
        nested("total_phases").or_else(|| field(Some("total_phases"), "Total Phases"));
    let percent = nested("percent").or_else(|| field(Some("progress"), "Progress"));
    if field(Some("state_head"), "State Head")
        .is_some_and(|h| js_re(r"(?i)^[0-9a-f]{4,40}$").is_match(&h).unwrap_or(false))
    {
        return Err(hand_on(" for a STATE.md that records its state_head"));
    }
    s.blockers = blockers(body);
    s.paused = paused_at.as_deref().is_some_and(|p| !trim(p).is_empty());
    s.stale_activity = match last_activity.as_deref() {
        Some(raw) => stale(raw, now)?,
        None => false,
    };
    let status_raw = status.unwrap_or_default();
    s.verify_failed = js_re(r"(?i)\bverify-fail(ed)?|verification-fail|uat-fail\b")
        .is_match(&status_raw)
        .unwrap_or(false)
        || verify_failed(&planning.join("phases"), current_phase.as_deref());
    if s.has_roadmap
        && let Ok(bytes) = std::fs::read(planning.join("ROADMAP.md"))
    {
        let (completed, total) = progress_table::derived_counts(&String::from_utf8_lossy(&bytes));
        s.roadmap_total_phases = total;
        s.roadmap_completed_phases = completed;
    }
    s.current_phase = current_phase
        .as_deref()
        .and_then(super::state_fields::phase_from_prose);
    s.total_phases = state_fields::int_field(total_phases.as_deref(), true)?;
    s.status = status_raw.to_lowercase();
    s.progress = state_fields::int_field(percent.as_deref(), true)?;
    Ok(s)
}

/// The `- item` lines under a `## Blockers` heading, up to the next
/// heading of level 1 or 2.
pub(super) fn blockers(body: &str) -> Vec<String> {
    let Some(section) = super::markdown::collect_section(body, |h| {
        h.level == 2 && trim(&h.text).to_lowercase() == "blockers"
    }) else {
        return Vec::new();
    };
    js_re(r"(?m)^-\s+(.+)$")
        .find_iter(&section)
        .filter_map(Result::ok)
        .map(|m| trim(&js_re(r"^-\s+").replace(m.as_str(), "")).to_string())
        .collect()
}

/// Whether a `last_activity` value is older than 72 hours. 1.14.0 gives the
/// whole value to `Date.parse` first and reads its leading ISO date only
/// where that fails. Answered for the two shapes whose instant is known —
/// the bare date (midnight UTC), and the date, white space and a dash
/// before a description (`2026-01-05 — Completed 01-02`: V8 reads no
/// instant from the whole, so the date's midnight) — and handed on for the
/// rest, where V8's lenient parser may read another day (`2026-12-05
/// Marked` is 12 March to it), a time, a zone, or no date at all. A date
/// within two days of the line is handed on too, so that gsd and gsd-tools,
/// run a moment apart, cannot straddle it.
fn stale(raw: &str, now: i64) -> Result<bool, Refusal> {
    let t = trim(raw);
    let Some(c) = js_re(r"^(\d{4})-(\d{2})-(\d{2})(?:$|\s+[—–-])")
        .captures(t)
        .ok()
        .flatten()
    else {
        return Err(hand_on(
            " for a last_activity other than a date, alone or before a dash",
        ));
    };
    let date = jiff::civil::Date::new(
        group(&c, 1).parse().unwrap_or(-1),
        group(&c, 2).parse().unwrap_or(0),
        group(&c, 3).parse().unwrap_or(0),
    );
    let Ok(date) = date else {
        // Not a calendar date: 1.14.0 warns on stderr and reads no activity.
        return Err(hand_on(" for a last_activity that is not a calendar date"));
    };
    let midnight = date
        .to_zoned(jiff::tz::TimeZone::UTC)
        .map_err(|_| hand_on(" for a last_activity out of range"))?
        .timestamp()
        .as_millisecond();
    let age = now - midnight;
    let margin = 2 * 24 * 60 * 60 * 1000;
    if (age - IDLE_STALE_MS).abs() < margin {
        return Err(hand_on(" for a last_activity near the 72-hour line"));
    }
    Ok(age > IDLE_STALE_MS)
}

/// `phaseTokenFromDirName`: the folder's phase token when it reads as a
/// phase number (after a project code).
fn dir_phase_token(name: &str) -> Option<String> {
    let token = extract_phase_token(name);
    js_re(r"(?i)^\d+(?:[A-Z])?(?:\.\d+)*(?:-|$)")
        .is_match(strip_project_code(&token, true))
        .unwrap_or(false)
        .then_some(token)
}

/// `detectVerifyFailed`: a summary, verification or UAT file of STATE.md's
/// current phase (or, with none named, the last phase folder) whose first
/// `STATUS:` says blocked or failed.
fn verify_failed(phases: &Path, current_phase: Option<&str>) -> bool {
    let Ok(read) = std::fs::read_dir(phases) else {
        return false;
    };
    let mut entries: Vec<(String, String)> = read
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            dir_phase_token(&name).map(|t| (name, t))
        })
        .collect();
    js::sort_by(&mut entries, |a, b| {
        compare_phase_num(&a.1, &b.1).then_with(|| locale_compare(&a.0, &b.0))
    });
    let names: Vec<String> = entries.into_iter().map(|e| e.0).collect();
    let Some(last) = names.last() else {
        return false;
    };
    let target = match current_phase.and_then(super::state_fields::phase_from_prose) {
        Some(token) => match match_phase_dir(&names, &normalize_phase_name(&token)) {
            Some(d) => d.clone(),
            None => return false,
        },
        None => last.clone(),
    };
    let Ok(files) = std::fs::read_dir(phases.join(&target)) else {
        return false;
    };
    let candidate = js_re(r"(?i)summary|verif(?:y|ication)|uat");
    files.flatten().any(|f| {
        let name = f.file_name().to_string_lossy().into_owned();
        if !candidate.is_match(&name).unwrap_or(false) {
            return false;
        }
        let Ok(bytes) = std::fs::read(f.path()) else {
            return false;
        };
        let text = String::from_utf8_lossy(&bytes);
        js_re(r"(?i)STATUS:\s*([A-Za-z_-]+)")
            .captures(&text)
            .ok()
            .flatten()
            .is_some_and(|c| {
                js_re(r"(?i)\b(blocked|fail(ed)?)\b")
                    .is_match(group(&c, 1))
                    .unwrap_or(false)
            })
    })
}

/// `isComplete`.
fn is_complete(s: &Signals) -> bool {
    match (s.roadmap_total_phases, s.roadmap_completed_phases) {
        (Some(total), Some(done)) => {
            if total == 0 || done < total {
                return false;
            }
        }
        _ => {
            let (Some(total), Some(current)) = (s.total_phases, s.current_phase.as_deref()) else {
                return false;
            };
            let total = super::output::js_string(&js::number(total));
            if compare_phase_num(current, &total) == std::cmp::Ordering::Less {
                return false;
            }
        }
    }
    test(
        r"(?i)\b(milestone\s+complete|all\s+phases\s+complete|complete(d)?)\b",
        &s.status,
    )
}

fn test(pattern: &str, text: &str) -> bool {
    js_re(pattern).is_match(text).unwrap_or(false)
}

/// `classify`: the first situation whose test holds.
fn classify(s: &Signals) -> &'static str {
    if !s.has_planning {
        return "no-project";
    }
    if s.paused {
        return "paused";
    }
    if !s.blockers.is_empty() {
        return "blocked";
    }
    if s.verify_failed {
        return "verify-failed";
    }
    if s.total_phases.is_none_or(|t| t <= 0.0) || !s.has_roadmap {
        return "needs-first-phase";
    }
    if is_complete(s) {
        return "complete";
    }
    if test(r"(?i)\bplanning|planned\b", &s.status) {
        return "planning";
    }
    if test(
        r"(?i)\bexecut(e|ing)|active|in.progress|building\b",
        &s.status,
    ) {
        return "executing";
    }
    if test(
        r"(?i)\bverif|review|needs.review|pending.review\b",
        &s.status,
    ) {
        return "verify-pending";
    }
    let stranded = !test(r"(?i)\bcomplete(d)?|done|shipped|paused\b", &s.status)
        && !s.git_dirty
        && (s.git_unpushed || s.stale_activity);
    if stranded {
        return "idle-stranded";
    }
    "unknown"
}

/// `actionsFor(situation, signals)`: the menu, recommended entry first.
fn actions_for(situation: &str, s: &Signals) -> Vec<Action> {
    let phase = s.current_phase.clone().unwrap_or_default();
    let or_one = if phase.is_empty() {
        "1".to_string()
    } else {
        phase.clone()
    };
    let a = |id, label: &str, command, recommended| Action {
        id,
        label: label.to_string(),
        command,
        recommended,
    };
    let exec_label = if phase.is_empty() {
        "Continue executing".to_string()
    } else {
        format!("Continue executing phase {phase}")
    };
    match situation {
        "no-project" => vec![
            a(
                "new-project",
                "Start a new project",
                "/gsd:new-project",
                true,
            ),
            a(
                "map-codebase",
                "Map an existing codebase",
                "/gsd:map-codebase",
                false,
            ),
            a("quick", "Quick task", "/gsd:quick", false),
            a("help", "Show help", "/gsd:help", false),
        ],
        "paused" => vec![
            a("resume-work", "Resume work", "/gsd:resume-work", true),
            a("progress", "Show progress", "/gsd:progress", false),
            a("quick", "Quick task", "/gsd:quick", false),
            a("help", "Show help", "/gsd:help", false),
        ],
        "blocked" => vec![
            a("debug", "Debug the blocker", "/gsd:debug", true),
            a(
                "verify-work",
                "Verify current work",
                "/gsd:verify-work",
                false,
            ),
            a("capture", "Capture a note", "/gsd:capture", false),
            a("progress", "Show progress", "/gsd:progress", false),
        ],
        "verify-failed" => vec![
            a("verify-work", "Re-verify work", "/gsd:verify-work", true),
            a("debug", "Debug the failure", "/gsd:debug", false),
            a(
                "code-review",
                "Review recent work",
                "/gsd:code-review",
                false,
            ),
            a("progress", "Show progress", "/gsd:progress", false),
        ],
        "needs-first-phase" => vec![
            a(
                "discuss-phase",
                "Discuss the first phase",
                "/gsd:discuss-phase",
                true,
            ),
            a("plan-phase", "Plan phase 1", "/gsd:plan-phase", false),
            a("quick", "Quick task", "/gsd:quick", false),
            a("progress", "Show progress", "/gsd:progress", false),
        ],
        "planning" => vec![
            a(
                "progress-next",
                &format!("Advance to the next step (plan phase {or_one})"),
                "/gsd:progress --next",
                true,
            ),
            a(
                "plan-phase",
                &format!("Plan phase {or_one}"),
                "/gsd:plan-phase",
                false,
            ),
            a(
                "discuss-phase",
                "Discuss before planning",
                "/gsd:discuss-phase",
                false,
            ),
            a("progress", "Show progress", "/gsd:progress", false),
        ],
        "executing" => vec![
            a(
                "progress-next",
                "Advance to the next step",
                "/gsd:progress --next",
                true,
            ),
            a("execute-phase", &exec_label, "/gsd:execute-phase", false),
            a("quick", "Quick task", "/gsd:quick", false),
            a(
                "code-review",
                "Review recent work",
                "/gsd:code-review",
                false,
            ),
        ],
        "verify-pending" => vec![
            a(
                "progress-next",
                "Advance to the next step (verify)",
                "/gsd:progress --next",
                true,
            ),
            a("verify-work", "Verify work", "/gsd:verify-work", false),
            a(
                "code-review",
                "Review recent work",
                "/gsd:code-review",
                false,
            ),
            a("ship", "Ship completed work", "/gsd:ship", false),
        ],
        "idle-stranded" => vec![
            a("ship", "Ship committed work", "/gsd:ship", true),
            a(
                "complete-milestone",
                "Complete the milestone",
                "/gsd:complete-milestone",
                false,
            ),
            a("progress", "Show progress", "/gsd:progress", false),
            a("capture", "Capture a note", "/gsd:capture", false),
        ],
        "complete" => vec![
            a(
                "new-milestone",
                "Start a new milestone",
                "/gsd:new-milestone",
                true,
            ),
            a(
                "extract-learnings",
                "Extract learnings",
                "/gsd:extract-learnings",
                false,
            ),
            a("quick", "Quick task", "/gsd:quick", false),
            a("progress", "Show progress", "/gsd:progress", false),
        ],
        _ => vec![
            a("progress", "Show progress", "/gsd:progress", true),
            a(
                "progress-next",
                "Advance to the next step",
                "/gsd:progress --next",
                false,
            ),
            a("quick", "Quick task", "/gsd:quick", false),
            a("help", "Show help", "/gsd:help", false),
        ],
    }
}

/// `buildSummary`.
fn summary(situation: &str, s: &Signals) -> String {
    let total = s
        .total_phases
        .map(|t| super::output::js_string(&js::number(t)));
    match situation {
        "no-project" => "No project yet — start fresh or map an existing codebase".into(),
        "paused" => "Work is paused — pick up where you left off".into(),
        "blocked" => format!(
            "Blocked · {} blocker(s) — resolve before continuing",
            s.blockers.len()
        ),
        "verify-failed" => "Recent verification failed — re-verify or debug".into(),
        "needs-first-phase" => "Project initialized — plan your first phase".into(),
        "planning" => format!(
            "Phase {} of {} — needs a plan",
            s.current_phase.as_deref().unwrap_or("?"),
            total.as_deref().unwrap_or("?")
        ),
        "executing" => progress_line("executing", s, total.as_deref()),
        "verify-pending" => progress_line("ready to verify", s, total.as_deref()),
        "idle-stranded" => "Committed work not shipped — time to ship".into(),
        "complete" => "All phases complete — start a new milestone".into(),
        _ => "Unsure of state — showing progress".into(),
    }
}

/// `progressLine(tail, signals)`.
fn progress_line(tail: &str, s: &Signals, total: Option<&str>) -> String {
    let mut parts = Vec::new();
    match (s.current_phase.as_deref(), total) {
        (Some(p), Some(t)) => parts.push(format!("Phase {p} of {t}")),
        (Some(p), None) => parts.push(format!("Phase {p}")),
        _ => {}
    }
    if let Some(p) = s.progress {
        parts.push(format!("{}%", super::output::js_string(&js::number(p))));
    }
    parts.push(tail.to_string());
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staleness_is_answered_only_clear_of_the_line() {
        let day = 24 * 60 * 60 * 1000;
        let jan5 = 1_767_571_200_000;
        assert_eq!(
            stale("2026-01-05 — Completed 01-02-PLAN.md", jan5 + 10 * day),
            Ok(true)
        );
        assert_eq!(stale("2026-01-05", jan5 + day / 2), Ok(false));
        assert!(stale("2026-01-05", jan5 + 3 * day).is_err());
        assert!(stale("Phase 3 complete", jan5).is_err());
        assert!(stale("2026-02-30 — x", jan5).is_err());
        // V8 reads a word's first letters as a month, a time as a time.
        assert!(stale("2026-01-05 Marked", jan5 + 10 * day).is_err());
        assert!(stale("2026-01-05T25:00", jan5 + 10 * day).is_err());
        assert!(stale("2026-01-05 (x)", jan5 + 10 * day).is_err());
        assert_eq!(
            stale("2026-01-05 -- Phase 10 started", jan5 + 10 * day),
            Ok(true)
        );
    }

    #[test]
    fn blockers_are_the_dash_items_of_their_section() {
        let body =
            "# S\n## Blockers\n- one\n  - nested\n-  two \n### Sub\n- three\n## Next\n- not\n";
        assert_eq!(blockers(body), ["one", "two", "three"]);
    }
}
