//! Versioned JSON: `{"version":1,"diagnostics":[…],"summary":{…}}`.

use crate::lint::{Diagnostic, counts};

pub fn render(diags: &[Diagnostic], files_checked: usize) -> String {
    let (errors, warnings, infos) = counts(diags);
    let v = serde_json::json!({
        "version": 1,
        "diagnostics": diags,
        "summary": { "files": files_checked, "errors": errors, "warnings": warnings, "infos": infos },
    });
    serde_json::to_string_pretty(&v).expect("diagnostics serialize") + "\n"
}
