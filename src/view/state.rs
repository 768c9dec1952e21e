//! `gsd state --json`: where STATE.md says the work stands, beside the
//! roadmap's reading.

use serde_json::{Value, json};

use crate::model::Workspace;
use crate::model::reading::RoadmapReading;
use crate::model::state::State;

/// STATE.md `st` of `ws` as JSON, with the shared roadmap `reading`.
pub fn json(ws: &Workspace, st: &State, reading: &RoadmapReading) -> Value {
    json!({
        "path": ws.rel(st.doc.path()).display().to_string(),
        "milestone": reading.current_milestone,
        "roadmap_current_phase": reading.current_phase,
        "roadmap_next_phase": reading.next_phase,
        "frontmatter": st.doc.fm().map_or(Value::Null, |n| n.to_json()),
        "fields": st.fields,
        "current_phase": st.current_phase(),
        "status": st.status(),
        "decisions": st.decisions().into_iter().map(|(_, d)| d).collect::<Vec<_>>(),
        "blockers": st.blockers().into_iter().map(|(_, d)| d).collect::<Vec<_>>(),
    })
}
