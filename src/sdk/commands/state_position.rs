//! The execute-phase workflow's STATE.md position writes:
//! `state.advance-plan` and `state.planned-phase`.
//!
//! gsd-sdk sets fields by label (`stateReplaceField`: the first
//! `**Label:**`, else the first plain `Label:` line) and then again in the
//! `## Current Position` block (`updateCurrentPositionFields`), which may be
//! a second line. gsd edits exactly those values, and their frontmatter
//! mirrors when STATE.md keeps a frontmatter (`status`, `last_activity`,
//! `current_plan`, the values gsd-sdk would derive), through the one write
//! path; gsd-sdk also rebuilds the whole frontmatter and normalises the
//! markdown (PARITY.md E2), and writes a stub STATE.md when there is none
//! (E22).
//!
//! advance-plan counts from STATE.md alone: `Current Plan` with `Total
//! Plans in Phase`, or the compound `Plan: 2 of 4 …`. It moves the counter
//! one on or, at the last plan, marks the phase ready for verification.

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

    /// The value a field will have once the edits are made, when they set it.
    fn final_value(&self, label: &str) -> Option<&str> {
        let f = sf::field(self.st, label)?;
        self.out
            .iter()
            .find(|(g, _)| g.value_span == f.value_span)
            .map(|(_, v)| v.as_str())
    }

    /// The body edits, then the frontmatter keys gsd-sdk derives from the
    /// fields they set (`status` normalised, `last_activity`, `current_plan`).
    fn changes(self) -> Result<Vec<FieldChange>, EditError> {
        let mirrors: Vec<(&str, String)> = [
            ("status", "Status"),
            ("last_activity", "Last Activity"),
            ("current_plan", "Current Plan"),
        ]
        .into_iter()
        .filter_map(|(key, label)| {
            let v = self.final_value(label)?;
            let v = if key == "status" {
                sf::normalized_status(v)
            } else {
                v.to_owned()
            };
            Some((key, v))
        })
        .collect();
        let mut out = Vec::new();
        for (f, v) in &self.out {
            out.extend(set_line(self.st, f, v)?);
        }
        for (key, value) in mirrors {
            if let Some(e) = set_fm_scalar(self.st, key, &value)? {
                out.push(FieldChange {
                    label: key.to_owned(),
                    before: String::new(),
                    after: value,
                    edits: vec![e],
                });
            }
        }
        Ok(out)
    }
}

/// The UTC date, as gsd-sdk's `toISOString().split('T')[0]` gives it.
fn today() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%d").to_string()
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
    if c.current >= c.total {
        edits.status_and_activity("Phase complete — ready for verification", today);
        let answer = json!({
            "advanced": false,
            "reason": "last_plan",
            "current_plan": c.current,
            "total_plans": c.total,
            "status": "ready_for_verification",
        });
        return Ok((edits.changes()?, answer));
    }
    let next = c.current + 1;
    let shown = if c.compound {
        let shown = with_number(&c.field.value, next);
        edits.set(Some(c.field), &shown);
        shown
    } else {
        edits.set(Some(c.field), &next.to_string());
        format!("{next} of {}", c.total)
    };
    edits.status_and_activity("Ready to execute", today);
    edits.set(sf::position_field(st, "Plan"), &shown);
    let answer = json!({
        "advanced": true,
        "previous_plan": c.current,
        "current_plan": next,
        "total_plans": c.total,
    });
    Ok((edits.changes()?, answer))
}

/// `state.advance-plan` → `{advanced, previous_plan, current_plan,
/// total_plans}`, `{advanced: false, reason: "last_plan", …}`, or
/// `{error}` when STATE.md (or its counter) cannot be read; exit 0 in
/// each case, as gsd-sdk answers.
pub fn advance_plan(call: &Call) -> Result<Reply, super::super::SdkError> {
    let today = today();
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

/// `state.planned-phase --phase N [--plans K]` → `{updated, phase,
/// plan_count}`: the phase is planned, ready to execute. `updated` names
/// each field STATE.md shows, in gsd-sdk's order, whether or not its text
/// changed.
pub fn planned_phase(call: &Call) -> Result<Reply, super::super::SdkError> {
    let named = super::state::named_args(call, &["phase", "name", "plans"])?;
    let (phase, plans) = (named[0].clone(), named[2].clone());
    let count = plans
        .filter(|p| !p.is_empty())
        .and_then(|p| int(&p))
        .filter(|n| *n > 0);
    let Some(phase) = phase.filter(|p| !js::trim(p).is_empty()) else {
        return Ok(Reply::Json(
            json!({"error": "phase required (--phase <n>)"}),
        ));
    };
    let label = js::trim(&phase).to_owned();
    let today = today();
    let mut updated: Vec<&str> = Vec::new();
    match store(call, |ws| {
        crate::ops::state::fields(ws, "planned phase", |_, st| {
            crate::edit::check_conflicts(&st.doc.rel_path.display().to_string(), st.doc.text())?;
            let mut edits = Edits {
                st,
                out: Vec::new(),
            };
            let count_text = count.map_or_else(|| "?".to_owned(), |n| n.to_string());
            let mut set = |label: &'static str, value: &str| {
                let f = sf::field(st, label);
                if f.is_some() {
                    updated.push(label);
                }
                edits.set(f, value);
            };
            set("Status", "Ready to execute");
            if let Some(n) = count {
                set("Total Plans in Phase", &n.to_string());
            }
            set("Last Activity", &today);
            set(
                "Last Activity Description",
                &format!("Phase {label} planning complete — {count_text} plans ready"),
            );
            edits.set(sf::position_field(st, "Status"), "Ready to execute");
            edits.set(
                sf::position_field(st, "Last activity"),
                &format!("{today} -- Phase {label} planning complete"),
            );
            edits.changes()
        })
    }) {
        Ok(_) => {}
        Err(OpError::Missing { .. }) => {
            return Ok(Reply::Json(json!({"error": "STATE.md not found"})));
        }
        Err(e) => return Err(super::op_error(e)),
    }
    Ok(Reply::Json(
        json!({"updated": updated, "phase": phase, "plan_count": count}),
    ))
}
