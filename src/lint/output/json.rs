//! Versioned JSON: `{"version":1,"diagnostics":[…],"summary":{…}}`.

use serde::Serialize;

use crate::lint::{Diagnostic, counts};

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    diagnostics: &'a [Diagnostic],
    summary: Summary,
}

#[derive(Serialize)]
struct Summary {
    files: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
}

pub fn render(diags: &[Diagnostic], files_checked: usize) -> String {
    let (errors, warnings, infos) = counts(diags);
    let report = Report {
        version: 1,
        diagnostics: diags,
        summary: Summary {
            files: files_checked,
            errors,
            warnings,
            infos,
        },
    };
    // Serialized straight from the structs into one buffer sized up front.
    let mut out = Vec::with_capacity(256 + diags.len() * 400);
    serde_json::to_writer_pretty(&mut out, &report).expect("diagnostics serialize");
    out.push(b'\n');
    String::from_utf8(out).expect("serde_json writes UTF-8")
}
