//! The document compiler's engine: minijinja over the templates in
//! `templates/*.j2`, embedded in the binary, each overridable by a file of
//! the same name in `.planning/templates/`. Rendering never touches disk;
//! callers decide where output goes.

pub mod graph;
pub mod init;
pub mod plan_new;
pub mod prd;
pub mod research;

use std::path::{Path, PathBuf};

use minijinja::Environment;

/// Text a planner must still replace. `gsd lint` warns about it
/// (`plan-skeleton-unfilled`), so a skeleton is never taken for a plan.
pub const SKELETON: &str = "TODO(gsd):";

/// The embedded templates, by file name.
pub const TEMPLATES: &[(&str, &str)] = &[
    (
        "PROJECT.md.j2",
        include_str!("../../templates/PROJECT.md.j2"),
    ),
    (
        "REQUIREMENTS.md.j2",
        include_str!("../../templates/REQUIREMENTS.md.j2"),
    ),
    (
        "ROADMAP.md.j2",
        include_str!("../../templates/ROADMAP.md.j2"),
    ),
    ("STATE.md.j2", include_str!("../../templates/STATE.md.j2")),
    (
        "config.json.j2",
        include_str!("../../templates/config.json.j2"),
    ),
    ("PLAN.md.j2", include_str!("../../templates/PLAN.md.j2")),
    ("PRD.md.j2", include_str!("../../templates/PRD.md.j2")),
    (
        "RESEARCH.md.j2",
        include_str!("../../templates/RESEARCH.md.j2"),
    ),
    (
        "ralph-prompt.md.j2",
        include_str!("../../templates/ralph-prompt.md.j2"),
    ),
    (
        "SUMMARY.md.j2",
        include_str!("../../templates/SUMMARY.md.j2"),
    ),
    (
        "export-index.html.j2",
        include_str!("../../templates/export-index.html.j2"),
    ),
    (
        "export-phase.html.j2",
        include_str!("../../templates/export-phase.html.j2"),
    ),
];

/// Where a template came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    Embedded,
    Override(PathBuf),
}

/// A template that failed to parse or render.
#[derive(Debug, Clone, thiserror::Error)]
#[error("template {name}: {message}")]
pub struct RenderError {
    pub name: String,
    pub message: String,
    /// 1-based line in the template, when known.
    pub line: Option<usize>,
    pub origin: Origin,
    /// The template's text, for pointing at the line.
    pub source_text: String,
}

/// Templates ready to render.
pub struct Renderer {
    sources: Vec<(String, String, Origin)>,
}

impl Renderer {
    /// The embedded templates, with overrides from `planning/templates/`.
    pub fn new(planning: Option<&Path>) -> Renderer {
        let sources = TEMPLATES
            .iter()
            .map(|(name, text)| {
                let over = planning.map(|p| p.join("templates").join(name));
                match over
                    .as_ref()
                    .and_then(|p| std::fs::read_to_string(p).ok().map(|t| (p.clone(), t)))
                {
                    Some((path, t)) => ((*name).to_owned(), t, Origin::Override(path)),
                    None => ((*name).to_owned(), (*text).to_owned(), Origin::Embedded),
                }
            })
            .collect();
        Renderer { sources }
    }

    pub fn list(&self) -> impl Iterator<Item = (&str, &Origin)> {
        self.sources.iter().map(|(n, _, o)| (n.as_str(), o))
    }

    /// The template's text (after overrides); `name` may omit `.j2` and
    /// the extension (`PRD`, `PRD.md`, `PRD.md.j2`), in any case.
    pub fn source(&self, name: &str) -> Option<(&str, &str, &Origin)> {
        let want = name.to_ascii_lowercase();
        self.sources
            .iter()
            .find(|(n, _, _)| {
                let n = n.to_ascii_lowercase();
                let no_j2 = n.trim_end_matches(".j2");
                n == want
                    || no_j2 == want
                    || no_j2.rsplit_once('.').is_some_and(|(stem, _)| stem == want)
            })
            .map(|(n, t, o)| (n.as_str(), t.as_str(), o))
    }

    /// Render template `name` with `ctx`.
    pub fn render(&self, name: &str, ctx: impl serde::Serialize) -> Result<String, RenderError> {
        self.prepare(name)?.render(ctx)
    }

    /// Template `name`, parsed once for rendering many times (the export
    /// renders one page per phase).
    pub fn prepare(&self, name: &str) -> Result<Prepared<'_>, RenderError> {
        let (name, text, origin) = self.source(name).ok_or_else(|| RenderError {
            name: name.to_owned(),
            message: "no such template".into(),
            line: None,
            origin: Origin::Embedded,
            source_text: String::new(),
        })?;
        let mut env = Environment::new();
        let syntax = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .expect("the default delimiters are valid");
        env.set_syntax(syntax);
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        let mut prepared = Prepared {
            env,
            name,
            text,
            origin,
        };
        if let Err(e) = prepared.env.add_template(name, text) {
            return Err(prepared.error(e));
        }
        Ok(prepared)
    }
}

/// A parsed template (see [`Renderer::prepare`]).
pub struct Prepared<'r> {
    env: Environment<'r>,
    name: &'r str,
    text: &'r str,
    origin: &'r Origin,
}

impl Prepared<'_> {
    fn error(&self, e: minijinja::Error) -> RenderError {
        RenderError {
            name: self.name.to_owned(),
            message: e
                .detail()
                .map_or_else(|| e.kind().to_string(), |d| format!("{}: {d}", e.kind())),
            line: e.line(),
            origin: self.origin.clone(),
            source_text: self.text.to_owned(),
        }
    }

    pub fn render(&self, ctx: impl serde::Serialize) -> Result<String, RenderError> {
        self.env
            .get_template(self.name)
            .and_then(|t| t.render(minijinja::value::Serde(ctx)))
            .map_err(|e| self.error(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_and_errors_point_at_the_line() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("templates")).unwrap();
        std::fs::write(
            d.path().join("templates/PRD.md.j2"),
            "line one\n{% for x in %}\n",
        )
        .unwrap();
        let r = Renderer::new(Some(d.path()));
        assert!(matches!(r.source("PRD").unwrap().2, Origin::Override(_)));
        let e = r.render("PRD.md.j2", serde_json::json!({})).unwrap_err();
        assert_eq!(e.line, Some(2), "{e:?}");
        assert!(matches!(r.source("STATE.md").unwrap().2, Origin::Embedded));
    }
}
