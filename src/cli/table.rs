//! Plain-text renderings of read results: columns padded by display width
//! (CJK names take two columns a character), counts with their plural.

use std::fmt::Write as _;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::model::milestone::MilestoneStatus;
use crate::model::reading::{PhaseReading, RoadmapReading};

/// `1 task`, `3 tasks`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `s` cut to `width` display columns (with `…`) and padded to it.
pub fn fit(s: &str, width: usize) -> String {
    let mut out = String::new();
    let mut w = 0;
    if s.width() > width {
        for c in s.chars() {
            let cw = c.width().unwrap_or(0);
            if w + cw + 1 > width {
                break;
            }
            out.push(c);
            w += cw;
        }
        out.push('…');
        w += 1;
    } else {
        out.push_str(s);
        w = s.width();
    }
    out.push_str(&" ".repeat(width.saturating_sub(w)));
    out
}

fn phase_line(s: &mut String, p: &PhaseReading) {
    let _ = writeln!(
        s,
        "  {:>6}  {} {:<13} {}/{}",
        p.number,
        fit(p.name.as_deref().unwrap_or("-"), 40),
        p.status,
        p.summaries,
        count(p.plans, "plan", "plans"),
    );
}

/// `gsd roadmap`: shipped milestones one line each, the phases of the
/// others listed under them, then the backlog and the current progress.
pub fn roadmap_text(r: &RoadmapReading) -> String {
    let mut s = String::new();
    let mut order: Vec<usize> = (0..r.milestones.len()).collect();
    order.sort_by_key(|&i| r.milestone_rank[i]);
    for i in order {
        let m = &r.milestones[i];
        let label = crate::model::milestone::label(m.version.as_deref(), &m.title);
        let mark = if m.current { "  (current)" } else { "" };
        let _ = writeln!(
            s,
            "{} {:<11} {}{mark}",
            fit(&label, 48),
            m.status.word(),
            count(m.phases, "phase", "phases"),
        );
        if m.status != MilestoneStatus::Shipped {
            for p in r.phases.iter().filter(|p| p.milestone_index == Some(i)) {
                phase_line(&mut s, p);
            }
        }
    }
    let loose: Vec<&PhaseReading> = r
        .phases
        .iter()
        .filter(|p| p.milestone_index.is_none() && !p.backlog)
        .collect();
    if !loose.is_empty() {
        if !r.milestones.is_empty() {
            let _ = writeln!(s, "Phases outside any milestone");
        }
        for p in loose {
            phase_line(&mut s, p);
        }
    }
    let backlog: Vec<&PhaseReading> = r.phases.iter().filter(|p| p.backlog).collect();
    if !backlog.is_empty() {
        let _ = writeln!(s, "Backlog");
        for p in backlog {
            phase_line(&mut s, p);
        }
    }
    let scope = r
        .current_milestone
        .as_deref()
        .map(|m| format!(" in {m}"))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "\nprogress{scope}: {}/{} ({}%), {}/{} complete",
        r.total_summaries,
        count(r.total_plans, "plan", "plans"),
        r.progress_percent,
        r.completed_phases,
        count(r.phase_count, "phase", "phases"),
    );
    match (&r.current_phase, &r.next_phase) {
        (Some(c), Some(n)) => {
            let _ = writeln!(s, "current phase {c}, next phase {n}");
        }
        (Some(c), None) => {
            let _ = writeln!(s, "current phase {c}");
        }
        (None, Some(n)) => {
            let _ = writeln!(s, "next phase {n}");
        }
        (None, None) => {}
    }
    s
}
