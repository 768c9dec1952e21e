//! `gsd graph`: phase plan graphs as Mermaid or Graphviz DOT text, one
//! cluster per phase, plans ranked by wave, done plans marked.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::model::plan_graph::PhaseGraph;

/// Node names: `p{phase}_{plan}` by position, so any ID text is safe.
fn node(g: usize, p: usize) -> String {
    format!("p{g}_{p}")
}

/// Where each plan ID sits, for edges between phases.
fn index(graphs: &[PhaseGraph]) -> HashMap<&str, (usize, usize)> {
    let mut m = HashMap::new();
    for (g, graph) in graphs.iter().enumerate() {
        for (p, plan) in graph.plans.iter().enumerate() {
            m.entry(plan.id.as_str()).or_insert((g, p));
        }
    }
    m
}

/// Every edge to draw: (from, to, crosses phases), as node names.
fn edges(graphs: &[PhaseGraph]) -> Vec<(String, String, bool)> {
    let at = index(graphs);
    let mut out = Vec::new();
    for (g, graph) in graphs.iter().enumerate() {
        for (from, to) in graph.edges() {
            out.push((node(g, from), node(g, to), false));
        }
        for (p, plan) in graph.plans.iter().enumerate() {
            for ext in &plan.external {
                if let Some(&(eg, ep)) = at.get(ext.as_str()) {
                    out.push((node(eg, ep), node(g, p), true));
                }
            }
        }
    }
    out
}

fn title(g: &PhaseGraph) -> String {
    match &g.number {
        Some(n) => format!("Phase {n} · {}", g.phase),
        None => g.phase.clone(),
    }
}

/// A short line of an objective for a node label.
pub fn short(s: &str, max: usize) -> String {
    let line = s
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() <= max {
        line.to_owned()
    } else {
        let cut: String = line.chars().take(max.saturating_sub(1)).collect();
        format!("{}…", cut.trim_end())
    }
}

/// Mermaid `flowchart LR`; labels are quoted with `"` written `#quot;`.
pub fn mermaid(graphs: &[PhaseGraph]) -> String {
    let esc = |s: &str| {
        s.replace('"', "#quot;")
            .replace('<', "#lt;")
            .replace('>', "#gt;")
    };
    let mut s = String::from("flowchart LR\n");
    let mut done = Vec::new();
    for (g, graph) in graphs.iter().enumerate() {
        let _ = writeln!(s, "  subgraph ph{g}[\"{}\"]", esc(&title(graph)));
        s.push_str("    direction LR\n");
        for (p, plan) in graph.plans.iter().enumerate() {
            let obj = plan
                .objective
                .as_deref()
                .map(|o| short(o, 40))
                .unwrap_or_default();
            let label = if obj.is_empty() {
                format!("{} · wave {}", plan.id, plan.wave)
            } else {
                format!("{} · wave {}<br/>{}", plan.id, plan.wave, esc(&obj))
            };
            let _ = writeln!(s, "    {}[\"{label}\"]", node(g, p));
            if plan.done {
                done.push(node(g, p));
            }
        }
        s.push_str("  end\n");
    }
    for (from, to, across) in edges(graphs) {
        let arrow = if across { "-.->" } else { "-->" };
        let _ = writeln!(s, "  {from} {arrow} {to}");
    }
    if !done.is_empty() {
        s.push_str("  classDef done fill:#d3f9d8,stroke:#2b8a3e\n");
        let _ = writeln!(s, "  class {} done", done.join(","));
    }
    s
}

/// Graphviz DOT: a cluster per phase, `rank=same` per wave.
pub fn dot(graphs: &[PhaseGraph]) -> String {
    let q = |s: &str| {
        let mut out = String::with_capacity(s.len() + 2);
        out.push('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    };
    let mut s = String::from(
        "digraph gsd {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f1f3f5\", fontname=\"sans-serif\"];\n",
    );
    for (g, graph) in graphs.iter().enumerate() {
        let _ = writeln!(
            s,
            "  subgraph cluster_{g} {{\n    label={};",
            q(&title(graph))
        );
        for (p, plan) in graph.plans.iter().enumerate() {
            let obj = plan
                .objective
                .as_deref()
                .map(|o| short(o, 40))
                .unwrap_or_default();
            let label = format!("{} (wave {})\n{obj}", plan.id, plan.wave);
            let fill = if plan.done {
                ", fillcolor=\"#d3f9d8\""
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "    {} [label={}{fill}];",
                node(g, p),
                q(label.trim_end())
            );
        }
        for (_, members) in graph.waves() {
            let names: Vec<String> = members.iter().map(|&p| node(g, p)).collect();
            let _ = writeln!(s, "    {{ rank=same; {}; }}", names.join("; "));
        }
        s.push_str("  }\n");
    }
    for (from, to, across) in edges(graphs) {
        let style = if across { " [style=dashed]" } else { "" };
        let _ = writeln!(s, "  {from} -> {to}{style};");
    }
    s.push_str("}\n");
    s
}
