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
    let mut out = Vec::with_capacity(256 + diags.len() * 450);
    write(diags, files_checked, &mut out).expect("writing to memory");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Write the report to `w` as it is serialized: `gsd lint --format json`
/// streams to stdout instead of building a buffer the size of the report
/// (fresh memory is what a short run pays for most).
pub fn write(
    diags: &[Diagnostic],
    files_checked: usize,
    mut w: impl std::io::Write,
) -> std::io::Result<()> {
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
    serde_json::to_writer_pretty(&mut w, &report).map_err(std::io::Error::other)?;
    w.write_all(b"\n")
}
