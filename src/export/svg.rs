//! A phase's plan graph as inline SVG: one column per wave, one box per
//! plan, arrows from each dependency. Laid out by hand (no JavaScript, no
//! network), so the page reads the same offline and in a screenshot.

use std::fmt::Write as _;

use crate::model::plan_graph::PhaseGraph;
use crate::render::graph::short;

const BOX_W: usize = 190;
const BOX_H: usize = 46;
const COL: usize = 240;
const ROW: usize = 62;
const PAD: usize = 16;
const HEAD: usize = 26;

/// Text for XML: the five specials escaped.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The SVG for one phase (an empty graph says so in a small box).
pub fn phase_svg(g: &PhaseGraph) -> String {
    let waves = g.waves();
    let rows = waves.iter().map(|(_, v)| v.len()).max().unwrap_or(1).max(1);
    let cols = waves.len().max(1);
    let width = PAD * 2 + (cols - 1) * COL + BOX_W;
    let height = PAD * 2 + HEAD + (rows - 1) * ROW + BOX_H;
    let mut pos = vec![(0usize, 0usize); g.plans.len()];
    for (c, (_, members)) in waves.iter().enumerate() {
        for (r, &p) in members.iter().enumerate() {
            pos[p] = (PAD + c * COL, PAD + HEAD + r * ROW);
        }
    }
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg class="plan-graph" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{}"><defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#868e96"/></marker></defs>"##,
        xml(&format!("Plans of {} by wave", g.phase))
    );
    if g.plans.is_empty() {
        let _ = write!(
            s,
            r##"<text x="{PAD}" y="{}" class="empty">no plans yet</text></svg>"##,
            PAD + HEAD
        );
        return s;
    }
    for (c, (wave, _)) in waves.iter().enumerate() {
        let _ = write!(
            s,
            r##"<text class="wave" x="{}" y="{}">Wave {wave}</text>"##,
            PAD + c * COL,
            PAD + 12
        );
    }
    for (from, to) in g.edges() {
        let (fx, fy) = pos[from];
        let (tx, ty) = pos[to];
        let (x1, y1) = (fx + BOX_W, fy + BOX_H / 2);
        let (x2, y2) = (tx, ty + BOX_H / 2);
        let bend = (x2 as i64 - x1 as i64).abs().max(60) / 2;
        let _ = write!(
            s,
            r##"<path class="edge" d="M{x1},{y1} C{},{y1} {},{y2} {x2},{y2}" fill="none" stroke="#868e96" stroke-width="1.5" marker-end="url(#arrow)"/>"##,
            x1 as i64 + bend,
            x2 as i64 - bend
        );
    }
    for (i, plan) in g.plans.iter().enumerate() {
        let (x, y) = pos[i];
        let class = if plan.done { "plan done" } else { "plan" };
        let objective = plan.objective.as_deref().unwrap_or("");
        let _ = write!(
            s,
            r##"<g class="{class}"><title>{}</title><rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6"/><text x="{}" y="{}" class="id">{}{}</text><text x="{}" y="{}" class="obj">{}</text></g>"##,
            xml(&format!("{}: {}", plan.id, objective.trim())),
            x + 10,
            y + 18,
            xml(&plan.id),
            if plan.done { " ✓" } else { "" },
            x + 10,
            y + 36,
            xml(&short(objective, 27)),
        );
    }
    s.push_str("</svg>");
    s
}
