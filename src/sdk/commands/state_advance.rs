//! `state.advance-plan`: the execute-plan workflow's "next plan" step.
//!
//! gsd-sdk counts from STATE.md alone: `Current Plan` with `Total Plans in
//! Phase`, or the compound `Plan: 2 of 4 …`. It moves the counter one on,
//! or, at the last plan, marks the phase ready for verification, and sets
//! `Status` and `Last activity` in both places it looks (the first field of
//! that label, and the `## Current Position` line). gsd edits exactly
//! those values (and their frontmatter mirrors, when STATE.md keeps a
//! frontmatter) through the one write path; gsd-sdk also rebuilds the whole
//! frontmatter and normalises the markdown (PARITY.md E2), and writes a stub
//! STATE.md when there is none (E22).

use serde_json::{Value, json};

use super::super::compat::js;
use super::super::compat::state_fields as sf;
use super::super::{Call, Reply};
use super::store;
use crate::edit::EditError;
use crate::edit::state::{FieldChange, set_fm_scalar, set_line};
use crate::model::state::{BodyField, State};
use crate::ops::OpError;

const UNREADABLE: &str = "Cannot parse Current Plan or Total Plans in Phase from STATE.md";

/// Where the plan counter is kept, as gsd-sdk reads it.
struct Counter<'a> {
    current: i64,
    total: i64,
    /// `Current Plan` (legacy form, with `Total Plans in Phase`), or the
    /// compound `Plan: N of M` field.
    field: &'a BodyField,
    compound: bool,
}

/// gsd-sdk's integer reading of a field value: `parseInt`, NaN as None.
fn int(v: &str) -> Option<i64> {
    js::parse_int(v).filter(|n| n.is_finite()).map(|n| n as i64)
}

fn counter(st: &State) -> Option<Counter<'_>> {
    let non_empty = |label| sf::field(st, label).filter(|f| !f.value.trim().is_empty());
    if let (Some(plan), Some(total)) =
        (non_empty("Current Plan"), non_empty("Total Plans in Phase"))
    {
        return Some(Counter {
            current: int(&plan.value)?,
            total: int(&total.value)?,
            field: plan,
            compound: false,
        });
    }
    let plan = non_empty("Plan")?;
    let of = super::super::compat::roadmap_text::re(r"of\s+(\d+)")
        .captures(&plan.value)
        .ok()
        .flatten()
        .and_then(|c| c.get(1).and_then(|m| int(m.as_str())));
    Some(Counter {
        current: int(&plan.value)?,
        total: of?,
        field: plan,
        compound: true,
    })
}

/// `value.replace(/^\d+/, next)`: the leading digits replaced, the rest kept.
fn with_number(value: &str, next: i64) -> String {
    let digits = value.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return value.to_owned();
    }
    format!("{next}{}", &value[digits..])
}

/// The field edits, in gsd-sdk's order; a later value for the same field
/// replaces an earlier one, as its second regex pass would.
struct Edits<'a> {
    st: &'a State,
    out: Vec<(&'a BodyField, String)>,
}

impl<'a> Edits<'a> {
    fn set(&mut self, field: Option<&'a BodyField>, value: &str) {
        if let Some(f) = field {
            self.out.retain(|(g, _)| g.value_span != f.value_span);
            self.out.push((f, value.to_owned()));
        }
    }

    /// `stateReplaceFieldWithFallback(Status)`, `(Last Activity)` and the
    /// Current Position lines, as every branch of advance-plan writes them.
    fn status_and_activity(&mut self, status: &str, today: &str) {
        let st = self.st;
        self.set(sf::field(st, "Status"), status);
        self.set(sf::field(st, "Last Activity"), today);
        self.set(sf::position_field(st, "Status"), status);
        self.set(sf::position_field(st, "Last activity"), today);
    }

    /// The body edits, and the frontmatter keys gsd-sdk would derive from
    /// the fields set (`status`, `last_activity`, `current_plan`).
    fn changes(self, mirrors: &[(&str, String)]) -> Result<Vec<FieldChange>, EditError> {
        let mut out = Vec::new();
        for (f, v) in &self.out {
            out.extend(set_line(self.st, f, v)?);
        }
        for (key, value) in mirrors {
            if let Some(e) = set_fm_scalar(self.st, key, value)? {
                out.push(FieldChange {
                    label: (*key).to_owned(),
                    before: String::new(),
                    after: value.clone(),
                    edits: vec![e],
                });
            }
        }
        Ok(out)
    }
}

/// The edits and the answer for one STATE.md.
fn advance(st: &State, today: &str) -> Result<(Vec<FieldChange>, Value), EditError> {
    crate::edit::check_conflicts(&st.doc.rel_path.display().to_string(), st.doc.text())?;
    let Some(c) = counter(st) else {
        return Ok((Vec::new(), json!({"error": UNREADABLE})));
    };
    let mut edits = Edits {
        st,
        out: Vec::new(),
    };
    // gsd-sdk rebuilds `status` and `last_activity` from the first body
    // fields of those labels, so they follow only when the body has them.
    let mirrors_for = |status: &str| {
        let mut m = Vec::new();
        if sf::field(st, "Status").is_some() {
            m.push(("status", sf::normalized_status(status)));
        }
        if sf::field(st, "Last Activity").is_some() {
            m.push(("last_activity", today.to_owned()));
        }
        m
    };
    if c.current >= c.total {
        let status = "Phase complete — ready for verification";
        edits.status_and_activity(status, today);
        let mirrors = mirrors_for(status);
        let answer = json!({
            "advanced": false,
            "reason": "last_plan",
            "current_plan": c.current,
            "total_plans": c.total,
            "status": "ready_for_verification",
        });
        return Ok((edits.changes(&mirrors)?, answer));
    }
    let next = c.current + 1;
    let status = "Ready to execute";
    let mut mirrors = mirrors_for(status);
    let shown = if c.compound {
        let shown = with_number(&c.field.value, next);
        edits.set(Some(c.field), &shown);
        shown
    } else {
        edits.set(Some(c.field), &next.to_string());
        mirrors.push(("current_plan", next.to_string()));
        format!("{next} of {}", c.total)
    };
    edits.status_and_activity(status, today);
    edits.set(sf::position_field(st, "Plan"), &shown);
    let answer = json!({
        "advanced": true,
        "previous_plan": c.current,
        "current_plan": next,
        "total_plans": c.total,
    });
    Ok((edits.changes(&mirrors)?, answer))
}

/// `state.advance-plan` → `{advanced, previous_plan, current_plan,
/// total_plans}`, `{advanced: false, reason: "last_plan", …}`, or
/// `{error}` when STATE.md (or its counter) cannot be read; exit 0 in
/// each case, as gsd-sdk answers.
pub fn advance_plan(call: &Call) -> Result<Reply, super::super::SdkError> {
    // gsd-sdk's `toISOString().split('T')[0]`: the UTC date.
    let today = jiff::Timestamp::now().strftime("%Y-%m-%d").to_string();
    let mut answer = json!({"error": UNREADABLE});
    match store(call, |ws| {
        crate::ops::state::fields(ws, "advance plan", |_, st| {
            let (changes, said) = advance(st, &today)?;
            answer = said;
            Ok(changes)
        })
    }) {
        Ok(_) | Err(OpError::Missing { .. }) => Ok(Reply::Json(answer)),
        Err(e) => Err(super::op_error(e)),
    }
}
