//! Rules about YAML frontmatter blocks.

use crate::doc::Span;
use crate::doc::yaml::YamlErrorKind;
use crate::lint::Severity;
use crate::lint::context::{Ctx, Sink};
use crate::model::document::Frontmatter;

/// A plan's frontmatter drives execution (waves, dependencies,
/// must_haves): broken, the executor cannot schedule it — an error. Other
/// files are read by GSD's tolerant line parser and by people — a warning.
fn plan_weight(doc: &crate::model::Document) -> Severity {
    if doc.file_name().ends_with("PLAN.md") {
        Severity::Error
    } else {
        Severity::Warning
    }
}

pub fn frontmatter_invalid_yaml(cx: &Ctx, s: &mut Sink) {
    for doc in cx.view.documents() {
        if let Frontmatter::Invalid(e) = &doc.frontmatter {
            let end = doc.text()[e.offset.min(doc.text().len())..]
                .find('\n')
                .map_or(doc.text().len(), |i| e.offset + i);
            let help = match e.kind {
                YamlErrorKind::AliasBudget => {
                    "remove the anchors/aliases that multiply (a YAML \"billion laughs\")"
                }
                YamlErrorKind::TooDeep => "flatten the nesting",
                YamlErrorKind::UnknownAlias => {
                    "define the anchor (&name) before using the alias (*name)"
                }
                YamlErrorKind::Syntax => {
                    "quote values that contain ': ', '#', or start with '`', '[', '{', '*', '&' or '@'"
                }
            };
            // GSD's own tools read frontmatter line by line, where `key:
            // a: b` or a backtick is just text: what they read is what was
            // meant, so strict YAML's complaint is a note, not a fault.
            // Not so for a plan: the executor needs its values typed
            // (`wave: [broken` reads as text, not a wave).
            let scheduling = doc.file_name().ends_with("PLAN.md");
            let gsd_reads_it = matches!(e.kind, YamlErrorKind::Syntax)
                && !scheduling
                && !crate::sdk::compat::fm_lines::parse(doc.text()).is_empty();
            s.at_severity(
                if gsd_reads_it {
                    Severity::Info
                } else {
                    plan_weight(doc)
                },
                doc,
                Span::new(e.offset, end.max(e.offset)),
                if gsd_reads_it {
                    format!(
                        "frontmatter is not strict YAML ({}); GSD's line-based reader reads it",
                        e.message
                    )
                } else {
                    format!("frontmatter is not valid YAML: {}", e.message)
                },
                help,
            );
        }
    }
}

pub fn frontmatter_unterminated(cx: &Ctx, s: &mut Sink) {
    for doc in cx.view.documents() {
        if let Frontmatter::Unterminated { open } = &doc.frontmatter {
            s.at_severity(
                plan_weight(doc),
                doc,
                *open,
                "frontmatter opened with --- is never closed",
                "add a closing --- line after the YAML block",
            );
        }
    }
}

pub fn frontmatter_not_mapping(cx: &Ctx, s: &mut Sink) {
    for doc in cx.view.documents() {
        if let Frontmatter::NotMapping(node) = &doc.frontmatter {
            let span = match (node, doc.split.frontmatter()) {
                (Some(n), _) => n.span,
                (None, Some(f)) => f.open,
                (None, None) => continue,
            };
            if node.is_none() {
                continue; // an empty block is harmless
            }
            s.at(
                doc,
                span,
                "frontmatter is not a mapping of key: value pairs",
                "write the frontmatter as `key: value` lines",
            );
        }
    }
}
