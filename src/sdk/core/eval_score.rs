//! `eval score --covered N --total N --infra a,b,c,d,e`: GSD Core 1.14.0's
//! eval-readiness arithmetic (coverage 60%, five infrastructure dimensions
//! 40%, a verdict by band), which its eval auditor asks instead of doing
//! the sums in a prompt. Malformed input (1.14.0 prints a bare usage line
//! and exits 1) is handed on.

use serde_json::json;

use super::super::compat::js::number;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Out, pretty};

/// `parseFlag`: the argument after the flag's first occurrence.
fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).map(String::as_str)
}

/// A count as `Number(s)` reads it, where that is a plain non-negative
/// whole number.
fn count(s: Option<&str>) -> Option<f64> {
    let t = super::js::trim(s?);
    (!t.is_empty() && t.len() < 16 && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
}

/// `Math.round(n * 100) / 100` for a non-negative `n`.
fn round2(n: f64) -> f64 {
    (n * 100.0).round() / 100.0
}

pub fn score(call: &CoreCall) -> Result<Out, Refusal> {
    let bad = || hand_on(" for input 1.14.0 refuses with its usage line");
    let covered = count(flag(call.args, "--covered")).ok_or_else(bad)?;
    let total = count(flag(call.args, "--total")).ok_or_else(bad)?;
    let infra: Vec<String> = match flag(call.args, "--infra").filter(|s| !s.is_empty()) {
        Some(s) => s
            .split(',')
            .map(|t| super::js::trim(t).to_lowercase())
            .collect(),
        None => Vec::new(),
    };
    if infra.len() != 5 || covered > total {
        return Err(bad());
    }
    let mut sum = 0.0;
    for t in &infra {
        sum += match t.as_str() {
            "ok" => 1.0,
            "partial" => 0.5,
            "missing" => 0.0,
            _ => return Err(bad()),
        };
    }
    let coverage = if total > 0.0 {
        covered / total * 100.0
    } else {
        0.0
    };
    let infra_score = sum / 5.0 * 100.0;
    let overall = round2(coverage * 0.6 + infra_score * 0.4);
    let verdict = match overall {
        o if o >= 80.0 => "PRODUCTION READY",
        o if o >= 60.0 => "NEEDS WORK",
        o if o >= 40.0 => "SIGNIFICANT GAPS",
        _ => "NOT IMPLEMENTED",
    };
    let v = json!({
        "coverage_score": number(round2(coverage)),
        "infra_score": number(round2(infra_score)),
        "overall_score": number(overall),
        "verdict": verdict,
    });
    Ok(Out {
        text: pretty(&v) + "\n",
        raw: Some(v.to_string() + "\n"),
    })
}
