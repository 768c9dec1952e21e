//! The plans and summaries of a phase folder as GSD Core 1.14.0 lists them
//! (`plan-scan.cjs`): root files named like `NN-MM-PLAN.md` / `PLAN.md`
//! (outlines, pre-bounce copies and plan reviews are not plans), and the
//! nested `plans/PLAN-NN…` layout.

use std::path::Path;
use std::rc::Rc;

use super::super::compat::js::{ends_with_ascii_ci, find_ascii_ci, strip_suffix_ascii_ci};
use super::super::compat::roadmap_text::re;

/// `isRootSummaryFile`.
pub fn is_root_summary(name: &str) -> bool {
    name.ends_with("-SUMMARY.md") || name == "SUMMARY.md"
}

fn not_a_plan_copy(name: &str) -> bool {
    !ends_with_ascii_ci(name, "-OUTLINE.md") && !ends_with_ascii_ci(name, ".pre-bounce.md")
}

/// `isRootPlanFile`.
pub fn is_root_plan(name: &str) -> bool {
    if !not_a_plan_copy(name) || ends_with_ascii_ci(name, "-PLAN-REVIEW.md") {
        return false;
    }
    if name.ends_with("-PLAN.md") || name == "PLAN.md" {
        return true;
    }
    !is_root_summary(name)
        && re(r"(?i)(^|-)PLAN(-[0-9]+.*)?\.md$")
            .is_match(name)
            .unwrap_or(false)
}

/// `isNestedPlanFile`: a file in `plans/`.
pub fn is_nested_plan(name: &str) -> bool {
    not_a_plan_copy(name)
        && (re(r"(?i)^PLAN-[0-9]+.*\.md$")
            .is_match(name)
            .unwrap_or(false)
            || re(r"(?i)-PLAN-[0-9]+.*\.md$")
                .is_match(name)
                .unwrap_or(false))
}

/// `isNestedSummaryFile`: a file in `plans/`.
pub fn is_nested_summary(name: &str) -> bool {
    re(r"(?i)^SUMMARY-[0-9]+.*\.md$")
        .is_match(name)
        .unwrap_or(false)
        || re(r"(?i)-SUMMARY-[0-9]+.*\.md$")
            .is_match(name)
            .unwrap_or(false)
}

/// What a scan found: names relative to the phase folder (`plans/…` for
/// the nested layout), in listing order.
#[derive(Debug, Default)]
pub struct Scan {
    pub all_plan_files: Vec<String>,
    pub summary_files: Vec<String>,
    /// Whether every folder could be listed (1.14.0's `SCOPE.COMPLETE`).
    pub complete: bool,
    /// The phase folder's own names, sorted as [`list`] sorts them;
    /// `None` where it could not be listed.
    pub listing: Option<Vec<String>>,
    /// The first 64 KiB of each plan and summary above that could be read,
    /// by name: read once for the frontmatter check and kept, so
    /// [`Scan::counts`] reads the statuses without opening them again.
    heads: std::collections::HashMap<String, Vec<u8>>,
}

/// Why a folder's listing is not read here: a name that is not UTF-8
/// (Node would read it with replacement characters).
#[derive(Debug)]
pub struct Unlisted(pub &'static str);

/// A folder's names as Node's `readdirSync` gives them (libuv sorts them
/// by byte), `Ok(None)` where it cannot be listed: 1.14.0 takes the first
/// match of a `find` over this order.
pub fn list(dir: &Path) -> Result<Option<Vec<String>>, Unlisted> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(None);
    };
    let mut names = Vec::new();
    for e in entries {
        let Ok(e) = e else { return Ok(None) };
        names.push(
            e.file_name()
                .into_string()
                .map_err(|_| Unlisted(" for a name that is not UTF-8"))?,
        );
    }
    names.sort_unstable();
    Ok(Some(names))
}

/// The scans of the phase folders one call reads, each folder scanned
/// once: `roadmap analyze` reads a folder for its phase entry and again
/// for the milestone's progress (1.14.0 scans it twice; the tree does not
/// change between the two within one call).
#[derive(Default)]
pub struct Scans(std::cell::RefCell<std::collections::HashMap<std::path::PathBuf, Rc<Scanned>>>);

/// One folder's scan, or why it was not read.
pub type Scanned = Result<Scan, Unlisted>;

impl Scans {
    /// `phase_dir`'s scan, done on first asking.
    pub fn get(&self, phase_dir: &Path) -> Rc<Scanned> {
        if let Some(s) = self.0.borrow().get(phase_dir) {
            return Rc::clone(s);
        }
        let s = Rc::new(scan(phase_dir));
        self.0
            .borrow_mut()
            .insert(phase_dir.to_path_buf(), Rc::clone(&s));
        s
    }
}

/// `scanPhasePlans(phaseDir)`, the parts that need no plan read.
pub fn scan(phase_dir: &Path) -> Result<Scan, Unlisted> {
    let Some(root) = list(phase_dir)? else {
        return Ok(Scan::default());
    };
    let mut all_plan_files: Vec<String> =
        root.iter().filter(|n| is_root_plan(n)).cloned().collect();
    let mut summary_files: Vec<String> = root
        .iter()
        .filter(|n| is_root_summary(n))
        .cloned()
        .collect();
    let mut complete = true;
    let nested = phase_dir.join("plans");
    if nested.exists() {
        match list(&nested)? {
            Some(files) => {
                all_plan_files.extend(
                    files
                        .iter()
                        .filter(|n| is_nested_plan(n))
                        .map(|n| format!("plans/{n}")),
                );
                summary_files.extend(
                    files
                        .iter()
                        .filter(|n| is_nested_summary(n))
                        .map(|n| format!("plans/{n}")),
                );
            }
            None => complete = false,
        }
    }
    let mut heads = std::collections::HashMap::new();
    for f in all_plan_files.iter().chain(&summary_files) {
        let Some(bytes) = head(&phase_dir.join(f)) else {
            continue;
        };
        if !frontmatter_closes(&bytes) {
            return Err(Unlisted(
                " where a plan or summary's frontmatter does not close within its first 64 KiB",
            ));
        }
        heads.insert(f.clone(), bytes);
    }
    Ok(Scan {
        all_plan_files,
        summary_files,
        complete,
        listing: Some(root),
        heads,
    })
}

/// Whether a file's frontmatter, where it opens one, closes within the
/// first 64 KiB: 1.14.0 reads a plan's and a summary's status from that
/// much, and warns on stderr about one that does not close there.
fn frontmatter_closes(bytes: &[u8]) -> bool {
    fm_body(bytes).is_none_or(|(body, header)| close_in(&body[header..]).is_some())
}

/// The first 64 KiB of a file (what 1.14.0 reads of a plan or summary
/// for its status), `None` where it is not a readable regular file.
fn head(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    const HEAD: u64 = 64 * 1024;
    let file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok().filter(|m| m.is_file())?;
    // Sized from the file's length, so a plan is read in one call and the
    // end found with a second, not in reads that double from 32 bytes.
    let mut bytes = Vec::with_capacity(meta.len().min(HEAD) as usize + 1);
    file.take(HEAD).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// The text after a byte-order mark and the length of the frontmatter's
/// opening line, where the file opens one. Read on bytes: decoding the
/// text (invalid sequences become U+FFFD) changes no ASCII byte, so the
/// answer is the one the decoded text gives, without decoding every plan.
fn fm_body(bytes: &[u8]) -> Option<(&[u8], usize)> {
    let body = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    if body.starts_with(b"---\r\n") {
        Some((body, 5))
    } else if body.starts_with(b"---\n") {
        Some((body, 4))
    } else {
        None
    }
}

/// Where a frontmatter's rest holds its closing `\n---`.
fn close_in(rest: &[u8]) -> Option<usize> {
    memchr::memmem::find(rest, b"\n---")
}

/// `scanPhasePlans(phaseDir)`'s two counts: live plans (those not marked
/// `status: superseded`) and the summaries that pair with one of them (a
/// summary marked `status: blocked` is a failure record and does not).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub plans: usize,
    pub summaries: usize,
    /// Every summary on disk (`summaryFiles.length`), paired or not.
    pub all_summaries: usize,
}

/// Why counts are not given: a name that is not UTF-8, or a plan or
/// summary whose frontmatter 1.14.0 would warn about (unterminated) or
/// that gsd's reader does not read.
#[derive(Debug)]
pub struct Uncounted(pub &'static str);

/// `scanPhasePlans(phaseDir)`'s `planCount` and `summaryCount`.
pub fn counts(phase_dir: &Path) -> Result<Counts, Uncounted> {
    scan(phase_dir).map_err(|u| Uncounted(u.0))?.counts()
}

impl Scan {
    /// The counts of the folder this scan read.
    pub fn counts(&self) -> Result<Counts, Uncounted> {
        let mut plans = Vec::new();
        for f in &self.all_plan_files {
            if status_is(self.heads.get(f), |s| {
                super::js::trim(s).to_lowercase() == "superseded"
            })? {
                continue;
            }
            plans.push(f.as_str());
        }
        let mut summaries = std::collections::HashSet::new();
        for f in &self.summary_files {
            let blocked = status_is(self.heads.get(f), |s| {
                let s = super::super::compat::roadmap_text::re(r"\s+#.*$").replace(s, "");
                super::js::trim(&s).to_lowercase() == "blocked"
            })?;
            if !blocked {
                summaries.insert(f.as_str());
            }
        }
        let summaries = plans
            .iter()
            .filter(|p| {
                summary_candidates(p)
                    .iter()
                    .any(|c| summaries.contains(c.as_str()))
            })
            .count();
        Ok(Counts {
            plans: plans.len(),
            summaries,
            all_summaries: self.summary_files.len(),
        })
    }
}

/// Whether the file's frontmatter `status` (read from its first 64 KiB,
/// as 1.14.0 reads it) passes `test`. A file that is not a file, or is
/// empty or unreadable, has none.
fn status_is(head: Option<&Vec<u8>>, test: impl Fn(&str) -> bool) -> Result<bool, Uncounted> {
    let Some(bytes) = head else {
        return Ok(false);
    };
    let Some((body, header)) = fm_body(bytes) else {
        return Ok(false);
    };
    let Some(close) = close_in(&body[header..]) else {
        return Err(Uncounted(
            " where a plan or summary's frontmatter is unterminated",
        ));
    };
    // The status is read from the frontmatter (up to its first `\n---`),
    // so only that region can spell the word; a backslash there could be
    // a YAML escape spelling it otherwise, and is read the slow way.
    let region = &body[header..header + close];
    let spelled = may_hold_word(region, "superseded") || may_hold_word(region, "blocked");
    if !spelled && !region.contains(&b'\\') {
        return Ok(false);
    }
    let text = String::from_utf8_lossy(body);
    let fm = match super::frontmatter::extract(&text) {
        Ok(fm) => fm,
        // Only an escape could spell the word here: a frontmatter gsd
        // cannot read has no status to give, and gsd never refuses a tree
        // for one whose words cannot be its status.
        Err(_) if !spelled => return Ok(false),
        Err(u) => return Err(Uncounted(u.0)),
    };
    Ok(matches!(fm.get("status"), Some(serde_json::Value::String(s)) if test(s)))
}

/// Whether `text.toLowerCase()` could contain `word` (lower-case ASCII):
/// an ASCII case-blind search, which lowercasing a whole 64 KiB plan only
/// to look for two words cost a tenth of a `roadmap analyze`. The one
/// character outside ASCII that lowercases into an ASCII letter of these
/// words is the Kelvin sign (to `k`); a text holding it is searched the
/// slow way, so this never says no where lowercasing would say yes.
fn may_hold_word(text: &[u8], word: &str) -> bool {
    if memchr::memmem::find(text, "\u{212A}".as_bytes()).is_some() {
        return String::from_utf8_lossy(text).to_lowercase().contains(word);
    }
    memchr::memmem::find(&text.to_ascii_lowercase(), word.as_bytes()).is_some()
}

/// `summaryCandidates(plan)`: the summary names that record a plan done.
/// 1.14.0's patterns here (`/\.md$/i`, `/PLAN/i`, `/^(\d+)-PLAN-(\d+)/i`,
/// `/-PLAN$/i`) are matched by hand: compiling them was a sixth of a
/// small tree's `roadmap analyze`, and JavaScript's `\d` is ASCII.
pub(super) fn summary_candidates(plan: &str) -> Vec<String> {
    let dir = plan.rfind('/').map_or("", |i| &plan[..=i]);
    let base = strip_suffix_ascii_ci(&plan[dir.len()..], ".md");
    let first_plan = find_ascii_ci(base, 0, "PLAN").map_or_else(
        || base.to_owned(),
        |i| format!("{}SUMMARY{}", &base[..i], &base[i + 4..]),
    );
    let mut out = vec![
        format!("{dir}{first_plan}.md"),
        format!("{dir}{base}-SUMMARY.md"),
    ];
    if let Some((phase, plan_no)) = numbered_plan(base) {
        out.push(format!("{dir}{phase}-{plan_no}-SUMMARY.md"));
    }
    let stem = strip_suffix_ascii_ci(base, "-PLAN");
    let id = canonical_plan_id(&format!("{base}.md"));
    if id != stem {
        out.push(format!("{dir}{id}-SUMMARY.md"));
    }
    out
}

/// The length of the run of ASCII digits that starts `s`.
fn digits(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// `/^(\d+)-PLAN-(\d+)/i`: the two numbers of `NN-PLAN-MM…`.
fn numbered_plan(base: &str) -> Option<(&str, &str)> {
    let a = digits(base);
    let rest = base.get(a..)?;
    if a == 0 || !rest.get(..6)?.eq_ignore_ascii_case("-PLAN-") {
        return None;
    }
    let b = digits(&rest[6..]);
    (b > 0).then(|| (&base[..a], &rest[6..6 + b]))
}

/// `(?:\.\d+)*$`: nothing but dot-number parts to the end.
fn dot_numbers(mut s: &str) -> bool {
    while let Some(rest) = s.strip_prefix('.') {
        let d = digits(rest);
        if d == 0 {
            return false;
        }
        s = &rest[d..];
    }
    s.is_empty()
}

/// `/^(?:\d{2,}[A-Z]?|\d[A-Z])(?:\.\d+)*$/i`: a phase part of a plan id.
fn is_phase_part(p: &str) -> bool {
    let d = digits(p);
    let rest = &p[d..];
    let letter = rest.bytes().next().is_some_and(|b| b.is_ascii_alphabetic());
    match d {
        0 => false,
        1 => letter && dot_numbers(&rest[1..]),
        _ => dot_numbers(if letter { &rest[1..] } else { rest }),
    }
}

/// `/^(?:\d{2}(?!\d)[A-Z]?|\d[A-Z])(?:\.\d+)*$/i`: a plan part.
fn is_plan_part(p: &str) -> bool {
    let d = digits(p);
    let rest = &p[d..];
    let letter = rest.bytes().next().is_some_and(|b| b.is_ascii_alphabetic());
    match d {
        1 => letter && dot_numbers(&rest[1..]),
        2 => dot_numbers(if letter { &rest[1..] } else { rest }),
        _ => false,
    }
}

/// `extractCanonicalPlanId`: `68-01-scaffolding-PLAN.md` → `68-01`; the
/// name without its suffix where no phase-plan pair leads it.
pub(super) fn canonical_plan_id(file: &str) -> String {
    let base = strip_suffix_ascii_ci(file, "-PLAN.md");
    let base = strip_suffix_ascii_ci(base, "-SUMMARY.md");
    let base = strip_suffix_ascii_ci(base, ".md");
    let parts: Vec<&str> = base.split('-').filter(|p| !p.is_empty()).collect();
    if let Some(i) = parts.iter().position(|p| is_phase_part(p))
        && i + 1 < parts.len()
        && is_plan_part(parts[i + 1])
    {
        return format!("{}-{}", parts[i], parts[i + 1]);
    }
    base.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_and_summary_names() {
        for (name, plan) in [
            ("01-02-PLAN.md", true),
            ("PLAN.md", true),
            ("01-PLAN-01.md", true),
            ("plan-2-notes.md", true),
            ("01-PLAN-OUTLINE.md", false),
            ("01-02-PLAN.pre-bounce.md", false),
            ("01-PLAN-REVIEW.md", false),
            ("01-02-SUMMARY.md", false),
            ("PHASE22-DIAGNOSIS-AND-PLANS.md", false),
            ("01-plan-outline.MD", false),
            ("01-02-plan.PRE-BOUNCE.md", false),
            ("01-Plan-Review.md", false),
            ("outline.md", false),
        ] {
            assert_eq!(is_root_plan(name), plan, "{name}");
        }
        assert!(is_nested_plan("PLAN-01-a.md") && is_nested_plan("x-PLAN-2.md"));
        assert!(!is_nested_plan("PLAN-01-OUTLINE.md") && !is_nested_plan("PLAN.md"));
        assert!(is_root_summary("SUMMARY.md") && is_nested_summary("SUMMARY-01.md"));
    }

    #[test]
    fn a_status_word_is_found_as_lowercasing_would_find_it() {
        let holds = |t: &str, w: &str| may_hold_word(t.as_bytes(), w);
        assert!(holds("status: BlOcKeD", "blocked"));
        assert!(holds("status: BLOC\u{212A}ED", "blocked"));
        assert!(!holds("status: block ed", "blocked"));
        assert!(!holds("Ünblocke", "blocked"));
        assert!(holds("é SUPERSEDED", "superseded"));
    }

    /// The hand matchers against 1.14.0's patterns (run by the regex
    /// engine, with JavaScript's ASCII `\d`) on names built from the
    /// pieces plan names are made of.
    #[test]
    fn plan_names_are_read_as_the_patterns_read_them() {
        use super::super::super::compat::roadmap_text::re;
        let summary_candidates_by_pattern = |plan: &str| -> Vec<String> {
            let dir = plan.rfind('/').map_or("", |i| &plan[..=i]);
            let base = re(r"(?i)\.md$")
                .replace(&plan[dir.len()..], "")
                .into_owned();
            let mut out = vec![
                format!("{dir}{}.md", re(r"(?i)PLAN").replace(&base, "SUMMARY")),
                format!("{dir}{base}-SUMMARY.md"),
            ];
            if let Some(c) = re(r"(?i)^([0-9]+)-PLAN-([0-9]+)").captures(&base).unwrap() {
                out.push(format!("{dir}{}-{}-SUMMARY.md", &c[1], &c[2]));
            }
            let stem = re(r"(?i)-PLAN$").replace(&base, "");
            let id = canonical_plan_id(&format!("{base}.md"));
            if id != stem {
                out.push(format!("{dir}{id}-SUMMARY.md"));
            }
            out
        };
        let canonical_by_pattern = |file: &str| -> String {
            let base = re(r"(?i)-PLAN\.md$").replace(file, "");
            let base = re(r"(?i)-SUMMARY\.md$").replace(&base, "");
            let base = re(r"(?i)\.md$").replace(&base, "").into_owned();
            let parts: Vec<&str> = base.split('-').filter(|p| !p.is_empty()).collect();
            let phase = re(r"(?i)^(?:[0-9]{2,}[A-Z]?|[0-9][A-Z])(?:\.[0-9]+)*$");
            let plan = re(r"(?i)^(?:[0-9]{2}(?![0-9])[A-Z]?|[0-9][A-Z])(?:\.[0-9]+)*$");
            if let Some(i) = parts.iter().position(|p| phase.is_match(p).unwrap())
                && i + 1 < parts.len()
                && plan.is_match(parts[i + 1]).unwrap()
            {
                return format!("{}-{}", parts[i], parts[i + 1]);
            }
            base
        };
        let pieces = [
            "1",
            "01",
            "123",
            "1a",
            "07B",
            "2.1",
            "03.",
            "x",
            "-",
            "plan",
            "PLAN",
            "Plan-",
            "summary",
            "٣",
            ".md",
            ".MD",
            "-PLAN.md",
            "-summary.md",
        ];
        let names = super::super::built_inputs::concatenations(&pieces, 3);
        assert!(names.len() > 5000);
        for n in names
            .iter()
            .flat_map(|n| [n.clone(), format!("plans/{n}-PLAN.md")])
        {
            assert_eq!(canonical_plan_id(&n), canonical_by_pattern(&n), "{n:?}");
            assert_eq!(
                summary_candidates(&n),
                summary_candidates_by_pattern(&n),
                "{n:?}"
            );
        }
    }

    #[test]
    fn a_nested_folder_that_cannot_be_listed_leaves_the_scan_incomplete() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("01-01-PLAN.md"), "").unwrap();
        std::fs::write(t.path().join("plans"), "not a folder").unwrap();
        let s = scan(t.path()).unwrap();
        assert_eq!(s.all_plan_files, vec!["01-01-PLAN.md"]);
        assert!(!s.complete);
        std::fs::remove_file(t.path().join("plans")).unwrap();
        std::fs::create_dir(t.path().join("plans")).unwrap();
        std::fs::write(t.path().join("plans/PLAN-02.md"), "").unwrap();
        std::fs::write(t.path().join("plans/SUMMARY-02.md"), "").unwrap();
        let s = scan(t.path()).unwrap();
        assert!(s.complete);
        assert_eq!(s.summary_files, vec!["plans/SUMMARY-02.md"]);
    }

    #[test]
    fn counts_pair_summaries_with_live_plans() {
        let t = tempfile::tempdir().unwrap();
        let w = |n: &str, s: &str| std::fs::write(t.path().join(n), s).unwrap();
        w("68-01-scaffolding-PLAN.md", "");
        w("68-01-SUMMARY.md", "");
        w("68-02-PLAN.md", "---\nstatus: superseded\n---\n");
        w("68-02-SUMMARY.md", "");
        w("68-03-PLAN.md", "");
        w("68-03-SUMMARY.md", "---\nstatus: blocked # waiting\n---\n");
        w("68-FIX-SUMMARY.md", "");
        w("01-PLAN-04.md", "");
        w("01-04-SUMMARY.md", "");
        // A status spelled with a YAML escape is read; the word in the
        // body of a plan whose status is another is not its status.
        w("68-06-PLAN.md", "---\nstatus: \"sup\\u0065rseded\"\n---\n");
        w(
            "68-07-PLAN.md",
            "---\nphase: 68\n---\nReplaces the superseded plan.\n",
        );
        // A backslash in a frontmatter gsd's parser does not read, with no
        // status word in it, neither hands the tree on nor counts as one.
        w("68-08-PLAN.md", "---\nfiles: \"a\\q\n  b: [\n---\n");
        let c = counts(t.path()).unwrap();
        assert_eq!((c.plans, c.summaries, c.all_summaries), (5, 2, 5));
        w("68-05-PLAN.md", "---\nstatus: x\n");
        assert!(counts(t.path()).is_err());
    }
}
