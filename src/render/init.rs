//! `gsd init`: the core planning files rendered from the templates.

use serde::Serialize;

use crate::model::ids::slugify;
use crate::model::requirements::is_req_id;

use super::{RenderError, Renderer};

/// What the user told `gsd init`.
#[derive(Debug, Clone)]
pub struct InitSpec {
    pub name: String,
    pub description: String,
    pub core_value: String,
    pub phases: Vec<String>,
    /// `ID: text` pairs.
    pub requirements: Vec<(String, String)>,
    pub date: String,
}

#[derive(Serialize)]
struct Phase {
    number: String,
    name: String,
    slug: String,
    goal: String,
    requirements: Vec<String>,
}

#[derive(Serialize)]
struct Req {
    id: String,
    text: String,
    phase: Option<String>,
}

#[derive(Serialize)]
struct Category {
    name: String,
    requirements: Vec<Req>,
}

/// Parse `ID: text` (the form `--requirement` takes).
pub fn parse_requirement(s: &str) -> Result<(String, String), String> {
    let Some((id, text)) = s.split_once(':') else {
        return Err(format!(
            "`{s}` is not `ID: text` (for example `AUTH-01: User can sign up`)"
        ));
    };
    let (id, text) = (id.trim(), text.trim());
    if !is_req_id(id) {
        return Err(format!(
            "`{id}` is not a requirement ID: use capitals, a dash and a number (AUTH-01)"
        ));
    }
    if text.is_empty() || text.contains(['\n', '\r']) {
        return Err(format!("requirement {id} needs one line of text"));
    }
    Ok((id.to_owned(), text.to_owned()))
}

/// The files `gsd init` writes, as (path under the project root, text).
pub fn render(r: &Renderer, spec: &InitSpec) -> Result<Vec<(String, String)>, RenderError> {
    let phases: Vec<Phase> = spec
        .phases
        .iter()
        .enumerate()
        .map(|(i, n)| Phase {
            number: (i + 1).to_string(),
            name: n.trim().to_owned(),
            slug: slugify(n),
            goal: "TBD".into(),
            requirements: Vec::new(),
        })
        .collect();
    let requirements: Vec<Req> = spec
        .requirements
        .iter()
        .map(|(id, text)| Req {
            id: id.clone(),
            text: text.clone(),
            phase: None,
        })
        .collect();
    let mut categories: Vec<Category> = Vec::new();
    for (id, text) in &spec.requirements {
        let cat = id
            .rsplit_once('-')
            .map_or(id.as_str(), |(c, _)| c)
            .to_owned();
        let req = Req {
            id: id.clone(),
            text: text.clone(),
            phase: None,
        };
        match categories.iter_mut().find(|c| c.name == cat) {
            Some(c) => c.requirements.push(req),
            None => categories.push(Category {
                name: cat,
                requirements: vec![req],
            }),
        }
    }
    let ctx = serde_json::json!({
        "name": spec.name, "description": spec.description, "core_value": spec.core_value,
        "date": spec.date, "phases": phases, "requirements": requirements, "categories": categories,
    });
    let mut out = Vec::new();
    for (file, template) in [
        ("PROJECT.md", "PROJECT.md.j2"),
        ("REQUIREMENTS.md", "REQUIREMENTS.md.j2"),
        ("ROADMAP.md", "ROADMAP.md.j2"),
        ("STATE.md", "STATE.md.j2"),
        ("config.json", "config.json.j2"),
    ] {
        out.push((format!(".planning/{file}"), r.render(template, &ctx)?));
    }
    for (i, p) in phases.iter().enumerate() {
        out.push((
            format!(".planning/phases/{:02}-{}/.gitkeep", i + 1, p.slug),
            String::new(),
        ));
    }
    Ok(out)
}
