//! SARIF 2.1.0 for code scanning: one run, the rule catalogue as
//! `tool.driver.rules`, one result per diagnostic.

use crate::lint::{Diagnostic, RULES, Severity};

pub fn render(diags: &[Diagnostic]) -> String {
    let rules: Vec<serde_json::Value> = RULES
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.code,
                "name": r.code,
                "shortDescription": { "text": r.summary },
                "defaultConfiguration": { "level": level(r.severity) },
            })
        })
        .collect();
    let results: Vec<serde_json::Value> = diags
        .iter()
        .map(|d| {
            serde_json::json!({
                "ruleId": d.code,
                "ruleIndex": RULES.iter().position(|r| r.code == d.code),
                "level": level(d.severity),
                "message": { "text": format!("{}\nhelp: {}", d.message, d.help_text()) },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": d.file.to_string_lossy().replace('\\', "/"), "uriBaseId": "%SRCROOT%" },
                        "region": { "startLine": d.line, "startColumn": d.column, "endLine": d.end_line, "endColumn": d.end_column.max(1) },
                    }
                }],
            })
        })
        .collect();
    let v = serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "gsd",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/gsd-build/get-shit-done",
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&v).expect("sarif serializes") + "\n"
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}
