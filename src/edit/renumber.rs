//! `phase remove N`: delete a phase and renumber everything after it,
//! consistently — folders, file names, ROADMAP headings, checklist, progress
//! rows and plan lists, plan IDs in frontmatter and `depends_on`,
//! `Depends on: Phase X` lines, traceability rows and STATE.md — where
//! gsd-tools left decimal children stranded and made dependents point at
//! themselves (GSD-FORMATS §4.4).
//!
//! Mapping: phases before N stay; N's decimal children become decimals of
//! N-1 after its own (2.1 → 1.1 when 1 has none), so they keep their place
//! in the order; every later phase's integer part drops by one (3.1 → 2.1,
//! 12A → 11A); 999.x backlog and custom IDs never move. A reference to N
//! itself now names N-1, what N stood after.

use std::path::PathBuf;

use crate::doc::{Edit, Span};
use crate::model::document::Document;
use crate::model::ids::PlanId;
use crate::model::roadmap::parse_phase_title;
use crate::model::state::parse_position;
use crate::model::{PhaseId, Workspace};

use super::EditError;

/// What happens to a phase ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mapped {
    Same,
    Removed,
    To(PhaseId),
}

/// The whole change: file edits (by original path), moves and deletions.
#[derive(Debug, Default)]
pub struct Removal {
    pub edits: Vec<(PathBuf, Vec<Edit>)>,
    /// Files to move, absolute (old, new).
    pub moves: Vec<(PathBuf, PathBuf)>,
    pub deletes: Vec<PathBuf>,
    pub summary: Vec<String>,
}

fn with_major(id: &PhaseId, major: u64) -> PhaseId {
    match id {
        PhaseId::Numeric {
            prefix,
            int,
            letter,
            decimals,
        } => {
            let width = int.len();
            PhaseId::Numeric {
                prefix: prefix.clone(),
                int: format!("{major:0width$}"),
                letter: *letter,
                decimals: decimals.clone(),
            }
        }
        c => c.clone(),
    }
}

struct Mapper {
    removed: PhaseId,
    /// First free decimal of N-1 (children of N are appended after it).
    offset: u64,
}

impl Mapper {
    fn map(&self, id: &PhaseId) -> Mapped {
        let n = self.removed.major();
        if id.is_backlog() || id.is_custom() || id.major() < n {
            return Mapped::Same;
        }
        if id.same(&self.removed) {
            return Mapped::Removed;
        }
        match id {
            PhaseId::Numeric {
                prefix,
                int,
                letter: None,
                decimals,
            } if id.major() == n
                && !decimals.is_empty()
                && matches!(&self.removed, PhaseId::Numeric { letter: None, .. }) =>
            {
                let first: u64 = decimals[0].parse().unwrap_or(0);
                let mut ds = decimals.clone();
                ds[0] = (self.offset + first).to_string();
                let width = int.len();
                Mapped::To(PhaseId::Numeric {
                    prefix: prefix.clone(),
                    int: format!("{:0width$}", n - 1),
                    letter: None,
                    decimals: ds,
                })
            }
            _ if id.major() == n => Mapped::Same, // 2A when removing 2: a different phase
            _ => Mapped::To(with_major(id, id.major() - 1)),
        }
    }

    /// How a reference to `id` reads afterwards (`None`: no phase before).
    fn reference(&self, id: &PhaseId) -> Option<PhaseId> {
        match self.map(id) {
            Mapped::Same => Some(id.clone()),
            Mapped::To(new) => Some(new),
            Mapped::Removed => (self.removed.major() > 1)
                .then(|| with_major(&self.removed, self.removed.major() - 1)),
        }
    }
}

/// The span of the phase ID after `Phase ` in `text` at `at`.
fn id_span_after_phase(text: &str, from: Span) -> Option<(Span, PhaseId)> {
    let s = from.slice(text);
    let i = s.find("Phase ")?;
    let rest = &s[i + 6..];
    let (id, remaining) = PhaseId::parse_prefix(rest)?;
    let start = from.start + i + 6;
    Some((Span::new(start, start + rest.len() - remaining.len()), id))
}

/// Every `Phase X` reference in `span` re-pointed.
fn rewrite_phase_refs(text: &str, span: Span, m: &Mapper, edits: &mut Vec<Edit>) {
    let s = span.slice(text);
    let mut pos = 0;
    while let Some(i) = s[pos..].find("Phase ") {
        let at = pos + i + 6;
        if let Some((id, remaining)) = PhaseId::parse_prefix(&s[at..]) {
            let len = s.len() - at - remaining.len();
            let new = match m.reference(&id) {
                Some(n) if n != id => Some(format!("Phase {}", n.unpadded())),
                None => Some("Nothing (first phase)".to_owned()),
                _ => None,
            };
            if let Some(new) = new {
                edits.push(Edit::new(
                    Span::new(span.start + at - 6, span.start + at + len),
                    new,
                ));
            }
            pos = at + len;
        } else {
            pos = at;
        }
    }
}

fn new_token(old: &PhaseId, new: &PhaseId, token: &str) -> String {
    // Keep the written form: padded (`02.1`) or not (`2.1`).
    if token.starts_with('0') || token.len() > old.unpadded().len() {
        new.normalized()
    } else {
        new.unpadded()
    }
}

/// Rename a plan reference like `03-01` or `03-01-slug`.
fn renamed_plan_ref(entry: &str, m: &Mapper) -> Option<String> {
    let id = PlanId::parse(entry)?;
    let Mapped::To(new) = m.map(&id.phase) else {
        return None;
    };
    let (_, rest) = PhaseId::parse_prefix(entry.trim())?;
    Some(format!("{}{rest}", new.normalized()))
}

fn frontmatter_edits(doc: &Document, m: &Mapper, dir_change: Option<(&str, &str)>) -> Vec<Edit> {
    let mut edits = Vec::new();
    let Some(fm) = doc.fm() else { return edits };
    let text = doc.text();
    if let (Some((old, new)), Some(node)) = (dir_change, fm.get("phase"))
        && let Some(v) = node.as_scalar()
        && let Some(rest) = v.text.strip_prefix(old)
    {
        let value = format!("{new}{rest}");
        let raw = node.span.slice(text);
        let rendered = if raw.starts_with(['"', '\'']) {
            format!("{}{value}{}", &raw[..1], &raw[..1])
        } else {
            value
        };
        edits.push(Edit::new(node.span, rendered));
    }
    if let Some(deps) = fm.get("depends_on") {
        let items = deps.scalar_items();
        // A dependency on a plan of the removed phase would, after renumbering,
        // name another plan (often the plan itself): it is dropped.
        let gone =
            |entry: &str| PlanId::parse(entry).is_some_and(|p| m.map(&p.phase) == Mapped::Removed);
        if items.iter().any(|(e, _)| gone(e)) {
            let keep: Vec<String> = items
                .iter()
                .filter(|(e, _)| !gone(e))
                .map(|(e, span)| {
                    let raw = span.slice(text);
                    match renamed_plan_ref(e, m) {
                        Some(new) => raw.replace(e.as_str(), &new),
                        None => raw.to_owned(),
                    }
                })
                .collect();
            edits.push(Edit::new(deps.span, format!("[{}]", keep.join(", "))));
        } else {
            for (entry, span) in items {
                if let Some(new) = renamed_plan_ref(&entry, m) {
                    let raw = span.slice(text);
                    let inner = if raw.starts_with(['"', '\'']) {
                        Span::new(span.start + 1, span.end - 1)
                    } else {
                        span
                    };
                    if inner.slice(text) == entry {
                        edits.push(Edit::new(inner, new));
                    }
                }
            }
        }
    }
    edits
}

/// Plan the removal of phase `id`.
pub fn remove_phase(ws: &Workspace, id: &PhaseId, force: bool) -> Result<Removal, EditError> {
    let rm = ws
        .roadmap
        .as_ref()
        .ok_or_else(|| EditError::Other("ROADMAP.md not found".into()))?;
    let all = rm.all_phase_ids();
    if !id.is_integer() || id.is_backlog() {
        return Err(EditError::Other(format!(
            "only integer phases are renumbered on removal; remove {} by hand or with --force after moving its plans",
            id.unpadded()
        )));
    }
    if !all.iter().any(|p| p.same(id)) && ws.phase(id).is_none() {
        return Err(EditError::UnknownPhase {
            value: id.unpadded(),
            phases: all.iter().map(PhaseId::unpadded).collect(),
        });
    }
    let n = id.major();
    let prev: Vec<PhaseId> = all
        .iter()
        .chain(ws.current_phases().filter_map(|p| p.id.as_ref()))
        .filter(|p| p.major() + 1 == n)
        .cloned()
        .collect();
    let children: Vec<&PhaseId> = all
        .iter()
        .filter(|p| p.base().same(id) && p.is_decimal())
        .collect();
    if n == 1 && !children.is_empty() {
        return Err(EditError::Other(
            "phase 1 has inserted phases after it; remove those first".into(),
        ));
    }
    let offset = prev
        .iter()
        .filter_map(|p| match p {
            PhaseId::Numeric {
                decimals,
                letter: None,
                ..
            } if !decimals.is_empty() => decimals[0].parse::<u64>().ok(),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let m = Mapper {
        removed: id.clone(),
        offset,
    };
    // Executed work in the way?
    let mut executed = Vec::new();
    for ph in ws.current_phases() {
        let Some(pid) = &ph.id else { continue };
        if m.map(pid) != Mapped::Same && !ph.summary_files.is_empty() {
            executed.push(format!(
                "{} ({} summaries)",
                ph.dir_name,
                ph.summary_files.len()
            ));
        }
    }
    if !executed.is_empty() && !force {
        return Err(EditError::Other(format!(
            "executed plans would be renumbered or deleted: {}; use --force to go ahead",
            executed.join(", ")
        )));
    }
    let mut out = Removal::default();
    // Folders and files.
    for ph in ws.current_phases() {
        let Some(pid) = &ph.id else { continue };
        let old_dir = ws.root.join(&ph.dir);
        let mut files: Vec<PathBuf> = Vec::new();
        collect_files(&old_dir, &mut files);
        match m.map(pid) {
            Mapped::Same => {
                for doc in ph.plans.iter().map(|p| &p.doc) {
                    let e = frontmatter_edits(doc, &m, None);
                    if !e.is_empty() {
                        out.edits.push((doc.path().to_path_buf(), e));
                    }
                }
            }
            Mapped::Removed => {
                out.deletes.extend(files);
                out.summary.push(format!("removed {}", ph.dir.display()));
            }
            Mapped::To(new) => {
                let old_tok = pid.normalized();
                let new_tok = new.normalized();
                let prefix = match pid {
                    PhaseId::Numeric {
                        prefix: Some(p), ..
                    } => format!("{p}-"),
                    _ => String::new(),
                };
                let new_dir_name = format!("{prefix}{new_tok}-{}", ph.slug);
                let new_dir = old_dir.with_file_name(&new_dir_name);
                for f in files {
                    let rel = f.strip_prefix(&old_dir).unwrap_or(&f).to_path_buf();
                    let name = rel
                        .file_name()
                        .and_then(|n| n.to_str())
                        .unwrap_or("")
                        .to_owned();
                    let new_name = match name.strip_prefix(&format!("{old_tok}-")) {
                        Some(rest) => format!("{new_tok}-{rest}"),
                        None => name.clone(),
                    };
                    let target = new_dir.join(rel.with_file_name(&new_name));
                    out.moves.push((f, target));
                }
                for doc in ph
                    .plans
                    .iter()
                    .map(|p| &p.doc)
                    .chain(ph.summaries.iter().map(|s| &s.doc))
                    .chain(ph.other_docs.iter())
                {
                    let dir_change = (format!("{old_tok}-"), format!("{new_tok}-"));
                    let e = frontmatter_edits(doc, &m, Some((&dir_change.0, &dir_change.1)));
                    if !e.is_empty() {
                        out.edits.push((doc.path().to_path_buf(), e));
                    }
                }
                out.summary
                    .push(format!("{} → {}", ph.dir_name, new_dir_name));
            }
        }
    }
    // ROADMAP.md.
    let text = rm.doc.text();
    let mut re = Vec::new();
    let mut removed_spans: Vec<Span> = Vec::new();
    for c in rm.checklist.iter().filter(|c| c.phase.same(id)) {
        let s = rm.doc.source.line_span(c.line);
        removed_spans.push(Span::new(s.start, rm.doc.source.line_start(c.line + 1)));
    }
    for p in rm.phases.iter().filter(|p| p.id.same(id)) {
        removed_spans.push(p.section);
    }
    if let Some(row) = rm.progress_row(id) {
        removed_spans.push(Span::new(
            rm.doc.source.line_start(row.line),
            rm.doc.source.line_start(row.line + 1),
        ));
    }
    for s in &removed_spans {
        re.push(Edit::new(*s, ""));
    }
    let outside = |span: Span| {
        !removed_spans
            .iter()
            .any(|r| r.covers(span) || (r.start < span.end && span.start < r.end))
    };
    for h in &rm.md.headings {
        if let Some((span, old)) = id_span_after_phase(text, h.text)
            && let Mapped::To(new) = m.map(&old)
            && outside(span)
        {
            re.push(Edit::new(span, new_token(&old, &new, span.slice(text))));
        }
    }
    for item in &rm.md.list_items {
        if parse_phase_title(item.content.slice(text)).is_some() {
            if let Some((span, old)) = id_span_after_phase(text, item.content)
                && let Mapped::To(new) = m.map(&old)
                && outside(span)
            {
                re.push(Edit::new(span, new_token(&old, &new, span.slice(text))));
            }
            continue;
        }
        // Plan list entries: `- [ ] 03-01: …`, `**03-01**`.
        let content = item.content.slice(text);
        let token_start = content.len() - content.trim_start_matches('*').len();
        let token: String = content[token_start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '.')
            .collect();
        if let Some(new) = renamed_plan_ref(&token, &m) {
            let (_, rest) = PhaseId::parse_prefix(&token).unwrap_or((id.clone(), ""));
            let new_phase_part = &new[..new.len() - rest.len()];
            let start = item.content.start + token_start;
            let span = Span::new(start, start + token.len() - rest.len());
            if outside(span) {
                re.push(Edit::new(span, new_phase_part.to_owned()));
            }
        }
    }
    for t in &rm.progress {
        for row in &t.rows {
            let (Some(old), Some(cell)) = (&row.phase, row.cells.first()) else {
                continue;
            };
            if let Mapped::To(new) = m.map(old) {
                let s = cell.slice(text);
                let skip = if s.starts_with("Phase ") { 6 } else { 0 };
                if let Some((_, rest)) = PhaseId::parse_prefix(&s[skip..]) {
                    let span = Span::new(cell.start + skip, cell.start + s.len() - rest.len());
                    if outside(span) {
                        re.push(Edit::new(span, new_token(old, &new, span.slice(text))));
                    }
                }
            }
        }
    }
    for p in rm.phases.iter().filter(|p| !p.id.same(id)) {
        for line in rm.md.lines_in(p.section) {
            if let Some(l) = crate::doc::markdown::label_line(text, line.span)
                && l.label.slice(text).eq_ignore_ascii_case("depends on")
                && outside(l.value)
            {
                rewrite_phase_refs(text, l.value, &m, &mut re);
            }
        }
    }
    out.edits.push((rm.doc.path().to_path_buf(), re));
    // REQUIREMENTS.md traceability.
    if let Some(req) = &ws.requirements {
        let rt = req.doc.text();
        let md = crate::doc::markdown::Markdown::scan(
            rt,
            req.doc.body(),
            req.doc.line_of(req.doc.body().start),
        );
        let mut edits = Vec::new();
        for row in &req.traceability {
            let Some(r) = md.table_rows.iter().find(|r| r.line.number == row.line) else {
                continue;
            };
            let Some(cell) = r.cells.get(1) else { continue };
            if let Some((span, old)) = id_span_after_phase(rt, *cell) {
                match m.map(&old) {
                    Mapped::To(new) => edits.push(Edit::new(span, new.unpadded())),
                    Mapped::Removed => edits.push(Edit::new(
                        *cell,
                        format!("Unassigned (phase {} removed)", old.unpadded()),
                    )),
                    Mapped::Same => {}
                }
            }
        }
        if !edits.is_empty() {
            out.edits.push((req.doc.path().to_path_buf(), edits));
        }
    }
    // STATE.md: the current phase and the total.
    if let Some(st) = &ws.state {
        let mut edits = Vec::new();
        if let Some(f) = st.body_field("currentPhase")
            && let Some(pos) = parse_position(&f.value)
        {
            // The phase STATE points at now, and its name when it changed:
            // a renumbered phase keeps its name; a removed one gives way
            // to the phase before it.
            let name_of = |old: &PhaseId| {
                ws.roadmap
                    .as_ref()
                    .and_then(|rm| rm.phase(old))
                    .map(|d| d.name.clone())
            };
            let (cur, name) = match m.map(&pos.phase) {
                Mapped::Removed if !force => {
                    return Err(EditError::Other(format!(
                        "STATE.md's current phase is {}; set another phase first, or use --force",
                        pos.phase.unpadded()
                    )));
                }
                Mapped::Removed => match m.reference(&pos.phase) {
                    Some(r) => {
                        let n = name_of(&r);
                        (r, n)
                    }
                    // No phase before it: the next one takes its number.
                    None => {
                        let Some(next) = ws.roadmap.as_ref().and_then(|rm| {
                            rm.phases
                                .iter()
                                .find(|d| m.map(&d.id) == Mapped::To(pos.phase.clone()))
                                .map(|d| d.name.clone())
                        }) else {
                            // The last phase: STATE.md would point at nothing.
                            return Err(EditError::Other(format!(
                                "phase {} is the only phase left and STATE.md's current phase; add another phase first",
                                pos.phase.unpadded()
                            )));
                        };
                        (pos.phase.clone(), Some(next))
                    }
                },
                Mapped::To(new) => (new, name_of(&pos.phase)),
                Mapped::Same => (pos.phase.clone(), None),
            };
            let mut value = cur.unpadded();
            if let Some(of) = pos.of {
                value.push_str(&format!(" of {}", of.saturating_sub(1)));
            }
            if let Some(i) = f.value.find('(') {
                let rest = &f.value[i..];
                match (&name, rest.find(')')) {
                    (Some(n), Some(close)) => {
                        value.push_str(&format!(" ({n}){}", &rest[close + 1..]));
                    }
                    _ => {
                        value.push(' ');
                        value.push_str(rest);
                    }
                }
            }
            if value != f.value {
                edits.push(Edit::new(f.value_span, value));
            }
            // `Current focus: Phase N — Name` follows the current phase.
            if (cur != pos.phase || name.is_some())
                && let Some(focus) = st.body_field("Current focus")
                && let Some(new) = super::state::focus_for(&focus.value, &cur, name.as_deref())
                && new != focus.value
            {
                edits.push(Edit::new(focus.value_span, new));
            }
        }
        if let Some((_, node)) = st.fm_field("current_phase")
            && let Some(old) = node.as_str().and_then(PhaseId::parse)
            && m.map(&old) != Mapped::Same
            && let Some(new) = m.reference(&old)
        {
            edits.push(Edit::new(node.span, new.unpadded()));
        }
        if !edits.is_empty() {
            out.edits.push((st.doc.path().to_path_buf(), edits));
        }
    }
    Ok(out)
}

fn collect_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PhaseId {
        PhaseId::parse(s).unwrap()
    }

    #[test]
    fn mapping() {
        let m = Mapper {
            removed: p("2"),
            offset: 0,
        };
        assert_eq!(m.map(&p("1")), Mapped::Same);
        assert_eq!(m.map(&p("2")), Mapped::Removed);
        assert_eq!(m.map(&p("2.1")), Mapped::To(p("1.1")));
        assert_eq!(m.map(&p("03")), Mapped::To(p("02")));
        assert_eq!(m.map(&p("3.1")), Mapped::To(p("2.1")));
        assert_eq!(m.map(&p("12A")), Mapped::To(p("11A")));
        assert_eq!(m.map(&p("999.1")), Mapped::Same);
        assert_eq!(m.reference(&p("2")), Some(p("1")));
        let m = Mapper {
            removed: p("3"),
            offset: 2,
        };
        assert_eq!(m.map(&p("3.1")), Mapped::To(p("2.3")), "after 2.1 and 2.2");
    }
}
