//! A phase's roadmap entry as GSD Core 1.14.0's init commands look it up
//! (`getRoadmapPhaseInternal`): its `Phase N:` heading section, else its
//! `**Phase N: Name**` bullet, else its row of a phase table — in the
//! current milestone's window first, then in the whole roadmap without
//! collapsed `<details>` archives.
//!
//! The init answers take a phase's name and its `**Requirements:**` line
//! from here; `roadmap get-phase` (the command) reads the roadmap its own
//! way (`reads::roadmap_get_phase`).

use std::path::Path;

use super::super::compat::roadmap_text::{escape, group, re};
use super::markdown::tokenize_headings;
use super::milestone_window::{current_window, is_sentinel, strip_shipped, table_phase_rows};
use super::phase_id::strip_project_code;
use super::roadmap_analyze::markdown_source;

/// What the lookup found.
#[derive(Debug, Clone, PartialEq)]
pub struct RoadmapPhase {
    pub phase_number: String,
    pub phase_name: String,
    pub goal: Option<String>,
    pub section: String,
}

/// `getRoadmapPhaseInternal(cwd, phase)`.
pub fn find(project: &Path, phase: &str) -> Option<RoadmapPhase> {
    if phase.is_empty() || is_sentinel(strip_project_code(phase, true)) {
        return None;
    }
    let bytes = std::fs::read(project.join(".planning/ROADMAP.md")).ok()?;
    let raw = String::from_utf8_lossy(&bytes);
    let (window, _) = current_window(&raw, project);
    let full = strip_shipped(&raw);
    let sources = lookup_sources(phase);
    for src in &sources {
        for content in [&window, &full] {
            if let Some(found) = in_headings(content, phase, src) {
                return Some(found);
            }
        }
    }
    for src in &sources {
        for content in [&window, &full] {
            if let Some(found) = in_bullets(content, phase, src) {
                return Some(found);
            }
        }
    }
    for content in [&window, &full] {
        if let Some(found) = in_tables(content, phase) {
            return Some(found);
        }
    }
    None
}

/// `roadmapPhaseLookupSources`: the phase as written where it carries a
/// project code, its padding-blind number, and that number after an
/// optional project code.
fn lookup_sources(phase: &str) -> Vec<String> {
    let mut out = Vec::new();
    if re(r"(?i)^[A-Z][A-Z0-9_]*-(?=\d)")
        .is_match(phase)
        .unwrap_or(false)
    {
        out.push(escape(phase));
    }
    let numeric = markdown_source(phase);
    for s in [numeric.clone(), format!("(?:[A-Z][A-Z0-9_]*-)?{numeric}")] {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// `findRoadmapPhaseInContent`: the first heading `Phase N: Name` and its
/// section up to the next heading of its level or above.
fn in_headings(content: &str, phase: &str, src: &str) -> Option<RoadmapPhase> {
    let pattern = re(&format!(
        r"(?i)^(?:\[[^\]]{{1,200}}\]\s*)?Phase\s+{src}(?:\s*\([^)\n]{{0,200}}\))?:\s*(.+)$"
    ));
    let headings = tokenize_headings(content);
    let (i, c) = headings.iter().enumerate().find_map(|(i, h)| {
        pattern
            .captures(h.text.as_str())
            .ok()
            .flatten()
            .map(|c| (i, group(&c, 1).to_owned()))
    })?;
    let h = &headings[i];
    let end = headings[i + 1..]
        .iter()
        .find(|n| n.level <= h.level)
        .map_or(content.len(), |n| n.offset);
    let section = super::js::trim(&content[h.offset..end]).to_owned();
    let goal = re(r"(?i)\*\*Goal(?:\*\*:|\*?\*?:\*\*)\s*([^\n]+)")
        .captures(section.as_str())
        .ok()
        .flatten()
        .map(|g| super::js::trim(group(&g, 1)).to_owned());
    Some(RoadmapPhase {
        phase_number: phase.to_owned(),
        phase_name: super::js::trim(&c).to_owned(),
        goal,
        section,
    })
}

/// `findRoadmapBulletPhaseInContent`: `- [ ] **Phase N: Name**`.
fn in_bullets(content: &str, phase: &str, src: &str) -> Option<RoadmapPhase> {
    let c = re(&format!(
        r"(?im)^\s*[-*]\s+(?:\[[ xX]\]\s+)?\*\*Phase\s+({src})(?:\s*\([^)\n]{{0,200}}\))?\s*[—–:\-]\s*(.+?)\*\*"
    ))
    .captures(content)
    .ok()
    .flatten()?;
    Some(RoadmapPhase {
        phase_number: phase.to_owned(),
        phase_name: super::js::trim(group(&c, 2)).to_owned(),
        goal: None,
        section: super::js::trim(group(&c, 0)).to_owned(),
    })
}

/// `findRoadmapTablePhaseInContent`: the phase's row of a phase table.
fn in_tables(content: &str, phase: &str) -> Option<RoadmapPhase> {
    let unpad = |s: &str| {
        let t = s.trim_start_matches('0');
        if t.is_empty() {
            s[s.len().saturating_sub(1)..].to_owned()
        } else {
            t.to_owned()
        }
    };
    let wanted = unpad(phase);
    let row = table_phase_rows(content)
        .into_iter()
        .find(|r| unpad(&r.id) == wanted)?;
    Some(RoadmapPhase {
        phase_number: phase.to_owned(),
        phase_name: row.name.unwrap_or_else(|| format!("Phase {}", row.id)),
        goal: None,
        section: super::js::trim(&row.row).to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roadmap(text: &str) -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".planning")).unwrap();
        std::fs::write(t.path().join(".planning/ROADMAP.md"), text).unwrap();
        t
    }

    #[test]
    fn headings_then_bullets_then_tables() {
        let t = roadmap(
            "# R\n\n- [ ] **Phase 4: Bullet only**\n\n### Phase 02: Two\n**Goal:** g\n**Requirements:** A-1\n#### Detail\ntext\n### Phase 3: Three\n\n| Phase | Name |\n|---|---|\n| 05 | Tabled |\n",
        );
        let two = find(t.path(), "2").unwrap();
        assert_eq!(two.phase_name, "Two");
        assert_eq!(two.goal.as_deref(), Some("g"));
        assert!(two.section.ends_with("text"), "{}", two.section);
        assert_eq!(find(t.path(), "4").unwrap().phase_name, "Bullet only");
        let five = find(t.path(), "5").unwrap();
        assert_eq!(
            (five.phase_name.as_str(), five.section.as_str()),
            ("Tabled", "| 05 | Tabled |")
        );
        assert!(find(t.path(), "9").is_none() && find(t.path(), "0").is_none());
    }
}
