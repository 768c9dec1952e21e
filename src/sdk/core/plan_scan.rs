//! The plans and summaries of a phase folder as GSD Core 1.14.0 lists them
//! (`plan-scan.cjs`): root files named like `NN-MM-PLAN.md` / `PLAN.md`
//! (outlines, pre-bounce copies and plan reviews are not plans), and the
//! nested `plans/PLAN-NN…` layout.

use std::path::Path;

use super::super::compat::roadmap_text::re;

/// `isRootSummaryFile`.
pub fn is_root_summary(name: &str) -> bool {
    name.ends_with("-SUMMARY.md") || name == "SUMMARY.md"
}

fn not_a_plan_copy(name: &str) -> bool {
    !re(r"(?i)-OUTLINE\.md$").is_match(name).unwrap_or(false)
        && !re(r"(?i)\.pre-bounce\.md$").is_match(name).unwrap_or(false)
}

/// `isRootPlanFile`.
pub fn is_root_plan(name: &str) -> bool {
    if !not_a_plan_copy(name) || re(r"(?i)-PLAN-REVIEW\.md$").is_match(name).unwrap_or(false) {
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
}

/// Why a folder's listing is not read here: a name that is not UTF-8
/// (Node would read it with replacement characters).
#[derive(Debug)]
pub struct Unlisted;

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
        names.push(e.file_name().into_string().map_err(|_| Unlisted)?);
    }
    names.sort_unstable();
    Ok(Some(names))
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
    Ok(Scan {
        all_plan_files,
        summary_files,
        complete,
    })
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
        ] {
            assert_eq!(is_root_plan(name), plan, "{name}");
        }
        assert!(is_nested_plan("PLAN-01-a.md") && is_nested_plan("x-PLAN-2.md"));
        assert!(!is_nested_plan("PLAN-01-OUTLINE.md") && !is_nested_plan("PLAN.md"));
        assert!(is_root_summary("SUMMARY.md") && is_nested_summary("SUMMARY-01.md"));
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
}
