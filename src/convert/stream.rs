//! Writing tasks one at a time, so a conversion holds the input text and
//! one task, never the whole list and the whole output besides (a 50 MB
//! plan converted through a task list peaked at 1.5 GB).
//!
//! Every format is written here, task by task: the JSON formats as the
//! exact text `serde_json::to_string_pretty` gives for the whole document
//! (each item pretty-printed alone and indented to its depth), the markdown
//! and XML formats as their per-task text. `Format::write` collects the same
//! stream into a string, so there is one writer per format.

use std::io::{self, Write};

use super::{ConvTask, Format, gsd_xml, loops};

/// What a format's header says before the first task.
#[derive(Debug, Clone, Copy, Default)]
pub struct Totals {
    pub tasks: usize,
    /// Tasks with `passes="true"`.
    pub passed: usize,
}

impl Totals {
    pub fn of(tasks: &[ConvTask]) -> Totals {
        Totals {
            tasks: tasks.len(),
            passed: tasks
                .iter()
                .filter(|t| {
                    t.attributes
                        .iter()
                        .any(|(k, v)| k == "passes" && v == "true")
                })
                .count(),
        }
    }
}

/// `serde_json::to_string_pretty` of `v`, every line after the first
/// indented by `indent` (the depth it sits at inside the document).
fn pretty_at(v: &impl serde::Serialize, indent: &str) -> String {
    let text = serde_json::to_string_pretty(v).expect("tasks serialize");
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(indent);
        out.push_str(line);
    }
    out
}

/// How a JSON document around an array of items opens and closes.
struct JsonArray {
    open: String,
    /// Indent of the items.
    indent: &'static str,
    /// Closing text when the array has items (after the last item).
    close: &'static str,
    /// Closing text when it has none (right after `open`).
    close_empty: &'static str,
}

fn json_array(format: Format, totals: Totals) -> Option<JsonArray> {
    match format {
        Format::MswJson => Some(JsonArray {
            open: "[".into(),
            indent: "  ",
            close: "\n]\n",
            close_empty: "]\n",
        }),
        Format::FeatureList => Some(JsonArray {
            open: format!(
                "{{\n  \"total_features\": {},\n  \"completed_features\": {},\n  \"features\": [",
                totals.tasks, totals.passed
            ),
            indent: "    ",
            close: "\n  ]\n}\n",
            close_empty: "]\n}\n",
        }),
        Format::PrdJson => Some(JsonArray {
            open: "{\n  \"userStories\": [".into(),
            indent: "    ",
            close: "\n  ]\n}\n",
            close_empty: "]\n}\n",
        }),
        _ => None,
    }
}

/// Write `tasks` in `format` to `out`, one task at a time. `totals` must
/// describe the same tasks (feature lists print them before the first).
pub fn write_each(
    format: Format,
    totals: Totals,
    xml_strict: bool,
    tasks: impl Iterator<Item = ConvTask>,
    out: &mut dyn Write,
) -> io::Result<()> {
    if let Some(array) = json_array(format, totals) {
        out.write_all(array.open.as_bytes())?;
        let mut n = 0;
        for t in tasks {
            let item = match format {
                Format::MswJson => pretty_at(&t, array.indent),
                Format::FeatureList => pretty_at(&loops::feature_value(&t), array.indent),
                _ => pretty_at(&loops::story_value(&t), array.indent),
            };
            out.write_all(if n == 0 { b"\n" } else { b",\n" })?;
            out.write_all(item.as_bytes())?;
            n += 1;
        }
        let close = if n == 0 {
            array.close_empty
        } else {
            array.close
        };
        return out.write_all(close.as_bytes());
    }
    let mut buf = String::new();
    for (i, t) in tasks.enumerate() {
        buf.clear();
        match format {
            Format::GsdXml => gsd_xml::write_one(&t, i, xml_strict, &mut buf),
            Format::TasksMd => loops::tasks_md_task(&t, &mut buf),
            _ => loops::spec_md_task(&t, &mut buf),
        }
        out.write_all(buf.as_bytes())?;
    }
    if format == Format::GsdXml {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// The whole conversion as a string (the same stream, collected).
pub fn write_all(format: Format, tasks: &[ConvTask], xml_strict: bool) -> String {
    let mut out = Vec::new();
    write_each(
        format,
        Totals::of(tasks),
        xml_strict,
        tasks.iter().cloned(),
        &mut out,
    )
    .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("every writer writes UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(i: usize, passes: bool) -> ConvTask {
        ConvTask {
            id: i.to_string(),
            name: format!("Task {i}: \"quoted\"\nand a line"),
            files: vec!["a.rs".into(), format!("b{i}.rs")],
            action: "1. do\n2. check".into(),
            verify: "<automated>cargo test</automated>".into(),
            done: "done".into(),
            attributes: vec![("passes".into(), passes.to_string())],
            ..Default::default()
        }
    }

    /// The streamed JSON is byte for byte what pretty-printing the whole
    /// document gives, for empty, single and several items.
    #[test]
    fn streamed_json_equals_whole_document_json() {
        for n in [0, 1, 3] {
            let tasks: Vec<ConvTask> = (1..=n).map(|i| task(i, i == 2)).collect();
            let whole_msw = serde_json::to_string_pretty(&tasks).unwrap() + "\n";
            assert_eq!(write_all(Format::MswJson, &tasks, false), whole_msw, "{n}");
            let features: Vec<_> = tasks.iter().map(loops::feature_value).collect();
            let whole_fl = serde_json::to_string_pretty(&serde_json::json!({
                "total_features": n,
                "completed_features": usize::from(n >= 2),
                "features": features,
            }))
            .unwrap()
                + "\n";
            assert_eq!(
                write_all(Format::FeatureList, &tasks, false),
                whole_fl,
                "{n}"
            );
            let stories: Vec<_> = tasks.iter().map(loops::story_value).collect();
            let whole_prd =
                serde_json::to_string_pretty(&serde_json::json!({ "userStories": stories }))
                    .unwrap()
                    + "\n";
            assert_eq!(write_all(Format::PrdJson, &tasks, false), whole_prd, "{n}");
        }
    }
}
