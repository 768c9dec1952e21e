//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::msg`.

use crate::lint::{Diagnostic, Severity};

/// Escape a property value or message as the runner expects.
fn escape(s: &str, property: bool) -> String {
    let mut out = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    if property {
        out = out.replace(':', "%3A").replace(',', "%2C");
    }
    out
}

pub fn render(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let file = d.file.to_string_lossy().replace('\\', "/");
        out.push_str(&format!(
            "::{level} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            escape(&file, true),
            d.line,
            d.column,
            d.end_line,
            d.end_column,
            escape(&format!("gsd {}", d.code), true),
            escape(&format!("{} ({})", d.message, d.help_text()), false),
        ));
    }
    out
}
