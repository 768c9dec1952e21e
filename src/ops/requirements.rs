//! REQUIREMENTS.md use cases: mark requirements complete when a plan that
//! delivers them is done — the `- [ ] **ID**` checkbox ticked and the
//! traceability row's `Pending` made `Complete`, nothing else touched
//! (line endings included).

use regex::Regex;

use crate::model::Workspace;

use super::{Change, OpError, rewrite};

/// What `mark_complete` did, per requirement ID.
#[derive(Debug, Clone)]
pub struct Marked {
    pub change: Change,
    /// IDs whose checkbox or table row changed.
    pub marked: Vec<String>,
    /// IDs already ticked or `Complete`.
    pub already: Vec<String>,
    /// IDs REQUIREMENTS.md does not list.
    pub not_found: Vec<String>,
}

fn pattern(p: &str) -> Regex {
    Regex::new(p).expect("an escaped ID makes a valid pattern")
}

/// Tick each ID's checkbox and complete its traceability row (every
/// occurrence, any letter case, as GSD's workflows expect).
pub fn mark_complete(ws: &Workspace, ids: &[String]) -> Result<Marked, OpError> {
    let req = ws.requirements.as_ref().ok_or_else(|| OpError::Missing {
        file: ".planning/REQUIREMENTS.md".into(),
        hint: "create it with `gsd init`, or list requirements in the roadmap".into(),
    })?;
    let mut text = req.doc.text().to_string();
    let (mut marked, mut already, mut not_found) = (Vec::new(), Vec::new(), Vec::new());
    for id in ids {
        let id_re = regex::escape(id);
        let before = text.clone();
        text = pattern(&format!(r"(?i)(-\s*\[) (\]\s*\*\*{id_re}\*\*)"))
            .replace_all(&text, "${1}x${2}")
            .into_owned();
        text = pattern(&format!(r"(?i)(\|\s*{id_re}\s*\|[^|]+\|)\s*Pending\s*(\|)"))
            .replace_all(&text, "${1} Complete ${2}")
            .into_owned();
        if text != before {
            marked.push(id.clone());
        } else if pattern(&format!(r"(?i)-\s*\[x\]\s*\*\*{id_re}\*\*")).is_match(&text)
            || pattern(&format!(r"(?i)\|\s*{id_re}\s*\|[^|]+\|\s*Complete\s*\|")).is_match(&text)
        {
            already.push(id.clone());
        } else {
            not_found.push(id.clone());
        }
    }
    let file = ws.rel(req.doc.path()).display().to_string();
    let writes = if text == req.doc.text() {
        Vec::new()
    } else {
        vec![rewrite(&req.doc, text)]
    };
    let summary = vec![format!("{file}: complete {}", marked.join(", "))];
    Ok(Marked {
        change: Change::writes(
            format!("docs(requirements): complete {}", marked.join(", ")),
            summary,
            writes,
        ),
        marked,
        already,
        not_found,
    })
}
