//! `loop render-hooks POINT`: the capability hooks active at one loop point
//! of GSD Core's workflows, and their markdown rendering — what plan-phase,
//! execute-phase and verify dispatch on (`gsd_run loop render-hooks plan:pre
//! --raw`), 26 calls in 1.14.0's workflows.
//!
//! The registry, the canonical points and the schema slices of the config keys
//! the hooks are gated by are 1.14.0's own, dumped from the package by
//! `tests/sdk_core/loop-hooks.mjs` into `gsd-core-1.14.0-loop-hooks.json`; what
//! varies per project is config.json, resolved as 1.14.0's config loader
//! resolves a federated key (the user's value where its type fits the slice,
//! else the slice's default). Handed on where 1.14.0 would read more than that:
//! a runtime other than Claude Code, an install profile or surface marker in
//! the runtime's config folder (they can leave a capability unsurfaced),
//! third-party capability overlays (`.gsd/capabilities`), `GSD_HOME`,
//! `--config-dir`/`--runtime`, and an envelope long enough for 1.14.0 to write
//! it to a temporary file instead.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use super::js::truthy;
use super::native::{CoreCall, Refusal, claude_config_dir, claude_runtime, config_object, hand_on};
use super::output::{Failure, Out, PRINTED_LIMIT, js_string};

const TABLE: &str = include_str!("gsd-core-1.14.0-loop-hooks.json");

fn table() -> &'static Value {
    static T: OnceLock<Value> = OnceLock::new();
    T.get_or_init(|| serde_json::from_str(TABLE).unwrap_or(Value::Null))
}

fn points() -> Vec<&'static str> {
    table()["points"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// `loop render-hooks POINT [--active-cap CAP]`.
pub fn render_hooks(call: &CoreCall) -> Result<Out, Refusal> {
    if call.args.iter().any(|a| {
        a == "--config-dir"
            || a.starts_with("--config-dir=")
            || a == "--runtime"
            || a.starts_with("--runtime=")
    }) {
        return Err(hand_on(" with --config-dir or --runtime"));
    }
    let active_cap = active_cap(call.args)?;
    let points = points();
    let Some(point) = call.args.first().filter(|p| !p.is_empty()) else {
        return Err(fail(format!(
            "loop render-hooks requires a <point> argument. Valid points: {}",
            points.join(", ")
        )));
    };
    if !points.contains(&point.as_str()) {
        return Err(fail(format!(
            "Invalid loop point: {}. Valid points: {}",
            Value::String(point.clone()),
            points.join(", ")
        )));
    }
    guard(call)?;
    let config = Config {
        user: config_object(call)?,
    };
    let hooks = active_hooks(point, &config)?;
    if let Some(cap) = active_cap {
        let on = hooks
            .iter()
            .any(|h| h["capId"].as_str() == Some(cap.as_str()));
        return Ok(Out::text(if on { "true\n" } else { "false\n" }));
    }
    let rendered = render(point, &hooks);
    let envelope = json!({"point": point, "activeHooks": hooks, "rendered": rendered});
    let out = Out::json(&envelope);
    if out.text.encode_utf16().count() > PRINTED_LIMIT {
        return Err(hand_on(" with an answer 1.14.0 writes to a temporary file"));
    }
    Ok(out)
}

/// Whether capability `cap` is active for the project as 1.14.0's
/// `isCapabilityActive` decides (its activation key in config.json, else
/// its default); handed on where the capability state could differ.
pub(super) fn capability_active_in(call: &CoreCall, cap: &str) -> Result<bool, Refusal> {
    guard(call)?;
    let config = Config {
        user: config_object(call)?,
    };
    capability_active(cap, &config)
}

fn fail(message: String) -> Refusal {
    Refusal::Fail(Failure::new("unknown", message))
}

/// `--active-cap CAP` / `--active-cap=CAP`, checked as gsd-tools' router
/// checks it (a missing value, or one starting `--`, is a usage error).
fn active_cap(args: &[String]) -> Result<Option<String>, Refusal> {
    let missing = || {
        Refusal::Fail(Failure::new(
            "usage",
            "Missing value for --active-cap (e.g. --active-cap tdd)",
        ))
    };
    if let Some(v) = args.iter().find_map(|a| a.strip_prefix("--active-cap=")) {
        let v = super::js::trim(v);
        return if v.is_empty() {
            Err(missing())
        } else {
            Ok(Some(v.to_string()))
        };
    }
    match args.iter().position(|a| a == "--active-cap") {
        None => Ok(None),
        Some(i) => match args.get(i + 1) {
            Some(v) if !v.is_empty() && !v.starts_with("--") => Ok(Some(v.clone())),
            _ => Err(missing()),
        },
    }
}

/// Hand on wherever 1.14.0's capability state could differ from "every
/// first-party capability installed and surfaced".
fn guard(call: &CoreCall) -> Result<(), Refusal> {
    if !claude_runtime(call) {
        return Err(hand_on(" for a runtime other than Claude Code"));
    }
    no_capability_overlays(call)?;
    let runtime_dir = claude_config_dir();
    for marker in [".gsd-profile", ".gsd-surface.json"] {
        if runtime_dir.join(marker).exists() {
            return Err(hand_on(format!(
                " with {}",
                runtime_dir.join(marker).display()
            )));
        }
    }
    Ok(())
}

/// Hand on where 1.14.0's registry could hold third-party capabilities
/// (`loadRegistry({includeInstalled: true})`): an overlay folder under the
/// home (or `GSD_HOME`), the project or the working directory.
pub(super) fn no_capability_overlays(call: &CoreCall) -> Result<(), Refusal> {
    if std::env::var_os("GSD_HOME").is_some_and(|h| !h.is_empty()) {
        return Err(hand_on(" with GSD_HOME set"));
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let overlays: Vec<PathBuf> = [home.as_deref(), Some(call.project), Some(call.cwd)]
        .into_iter()
        .flatten()
        .map(|d: &Path| d.join(".gsd/capabilities"))
        .collect();
    if let Some(o) = overlays.iter().find(|o| o.exists()) {
        return Err(hand_on(format!(
            " with capability overlays in {}",
            o.display()
        )));
    }
    Ok(())
}

/// config.json as 1.14.0 resolves the keys the registry's hooks name.
struct Config {
    user: Option<Map<String, Value>>,
}

impl Config {
    /// The value of a dotted key: the user's where its type fits the key's
    /// schema slice, else the slice's default.
    fn value(&self, key: &str) -> Result<Value, Refusal> {
        let Some(slice) = table()["config"].get(key) else {
            return Err(hand_on(format!(
                " where a hook names {key}, which 1.14.0 resolves otherwise"
            )));
        };
        let user = self.user.as_ref().and_then(|m| {
            let mut parts = key.split('.');
            let mut cur = m.get(parts.next()?)?;
            for p in parts {
                cur = cur.as_object()?.get(p)?;
            }
            Some(cur)
        });
        Ok(match user {
            Some(v) if fits(v, slice) => v.clone(),
            _ => slice["default"].clone(),
        })
    }

    fn on(&self, key: &str) -> Result<bool, Refusal> {
        Ok(truthy(&self.value(key)?))
    }
}

/// Whether a user's value has the type its slice declares (an enum's value
/// must also be one of its values).
fn fits(v: &Value, slice: &Value) -> bool {
    match slice["type"].as_str() {
        Some("boolean") => v.is_boolean(),
        Some("string") => v.is_string(),
        Some("number") => v.is_number(),
        Some("enum") => match (v.as_str(), slice["values"].as_array()) {
            (None, _) => false,
            (Some(s), Some(values)) if !values.is_empty() => values.iter().any(|x| x == s),
            (Some(_), _) => true,
        },
        _ => false,
    }
}

/// Whether a capability is active: its activation key on, where it has one.
fn capability_active(cap: &str, config: &Config) -> Result<bool, Refusal> {
    match table()["activation"].get(cap) {
        None => Ok(false),
        Some(Value::String(key)) => config.on(key),
        Some(_) => Ok(true),
    }
}

/// A hook's own gates: `when` (a dotted key, on) and `pointFrom` (a key whose
/// value must name this point).
fn hook_active(hook: &Map<String, Value>, point: &str, config: &Config) -> Result<bool, Refusal> {
    match hook.get("when") {
        None | Some(Value::Null) => {}
        Some(Value::String(k)) if !k.is_empty() => {
            if !config.on(k)? {
                return Ok(false);
            }
        }
        Some(_) => return Ok(false),
    }
    match hook.get("pointFrom") {
        None | Some(Value::Null) => Ok(true),
        Some(Value::String(k)) if !k.is_empty() => {
            Ok(config.value(k)? == Value::String(point.into()))
        }
        Some(_) => Ok(false),
    }
}

fn strings(v: Option<&Value>) -> Vec<Value> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter(|x| x.is_string()).cloned().collect())
        .unwrap_or_default()
}

fn fragment(v: Option<&Value>) -> Option<Value> {
    let raw = v?.as_object()?;
    let mut f = Map::new();
    for k in ["inline", "path"] {
        if let Some(s) = raw.get(k).filter(|s| s.is_string()) {
            f.insert(k.into(), s.clone());
        }
    }
    (!f.is_empty()).then_some(Value::Object(f))
}

fn string_field(hook: &Map<String, Value>, key: &str) -> Option<Value> {
    hook.get(key).filter(|v| v.is_string()).cloned()
}

/// The point's active hooks, steps then contributions then gates, each in
/// the registry's order and with the fields 1.14.0 projects.
fn active_hooks(point: &str, config: &Config) -> Result<Vec<Value>, Refusal> {
    let entry = &table()["byLoopPoint"][point];
    let mut out = Vec::new();
    for kind in ["steps", "contributions", "gates"] {
        for hook in entry[kind].as_array().into_iter().flatten() {
            let Some(hook) = hook.as_object() else {
                continue;
            };
            let cap = hook.get("capId").and_then(Value::as_str).unwrap_or("");
            if !capability_active(cap, config)? || !hook_active(hook, point, config)? {
                continue;
            }
            let mut a = Map::new();
            a.insert("capId".into(), json!(cap));
            a.insert("kind".into(), json!(&kind[..kind.len() - 1]));
            let mut put = |k: &str, v: Option<Value>| {
                if let Some(v) = v {
                    a.insert(k.into(), v);
                }
            };
            let list = |k: &str| {
                Some(strings(hook.get(k)))
                    .filter(|l| !l.is_empty())
                    .map(Value::Array)
            };
            match kind {
                "steps" => {
                    put(
                        "ref",
                        hook.get("ref")
                            .filter(|r| r.is_object() || r.is_array())
                            .cloned(),
                    );
                    put("fragment", fragment(hook.get("fragment")));
                    put("when", string_field(hook, "when"));
                    put("produces", list("produces"));
                    put("consumes", list("consumes"));
                    put("onError", string_field(hook, "onError"));
                    put(
                        "supportsReviewerLanes",
                        (hook.get("supportsReviewerLanes") == Some(&Value::Bool(true)))
                            .then_some(Value::Bool(true)),
                    );
                }
                "contributions" => {
                    put("into", string_field(hook, "into"));
                    put("fragment", fragment(hook.get("fragment")));
                    put("when", string_field(hook, "when"));
                    put("produces", list("produces"));
                    put("consumes", list("consumes"));
                    put("onError", string_field(hook, "onError"));
                    put("configValues", config_values(hook, config)?);
                }
                _ => {
                    put("when", string_field(hook, "when"));
                    put("check", hook.get("check").cloned());
                    put(
                        "blocking",
                        hook.get("blocking").filter(|b| b.is_boolean()).cloned(),
                    );
                    put("onError", string_field(hook, "onError"));
                }
            }
            out.push(Value::Object(a));
        }
    }
    Ok(out)
}

/// A contribution's `configValues`: each alias's key resolved to its value.
fn config_values(hook: &Map<String, Value>, config: &Config) -> Result<Option<Value>, Refusal> {
    let Some(raw) = hook.get("configValues").and_then(Value::as_object) else {
        return Ok(None);
    };
    let mut resolved = Map::new();
    for (alias, key) in raw {
        if ["__proto__", "constructor", "prototype"].contains(&alias.as_str()) {
            continue;
        }
        let Some(key) = key.as_str() else { continue };
        let v = config.value(key)?;
        if v.as_f64().is_some() && v.as_i64().is_none() && v.as_u64().is_none() {
            return Err(hand_on(
                " with a fractional config value (JavaScript prints numbers its own way)",
            ));
        }
        resolved.insert(alias.clone(), v);
    }
    Ok((!resolved.is_empty()).then_some(Value::Object(resolved)))
}

/// `renderLoopHooks`: the markdown the workflows paste in.
fn render(point: &str, hooks: &[Value]) -> String {
    if hooks.is_empty() {
        return format!("_No active hooks at {point}._");
    }
    let mut lines: Vec<String> = Vec::new();
    let mut step = 0;
    let text = |h: &Value, k: &str| h.get(k).filter(|v| truthy(v)).map(js_string);
    let list = |lines: &mut Vec<String>, h: &Value, k: &str| {
        if let Some(l) = h.get(k).and_then(Value::as_array).filter(|l| !l.is_empty()) {
            let joined: Vec<String> = l.iter().map(js_string).collect();
            lines.push(format!("- {k}: {}", joined.join(", ")));
        }
    };
    // A step's and a contribution's detail lines, in 1.14.0's order.
    let details = |lines: &mut Vec<String>, h: &Value| {
        list(lines, h, "produces");
        list(lines, h, "consumes");
        if let Some(w) = text(h, "when") {
            lines.push(format!("- when: `{w}`"));
        }
        if let Some(e) = text(h, "onError") {
            lines.push(format!("- onError: {e}"));
        }
    };
    for h in hooks {
        let cap = h["capId"].as_str().unwrap_or("");
        let frag = h.get("fragment");
        let inline = frag.and_then(|f| text(f, "inline"));
        let path = frag.and_then(|f| text(f, "path"));
        match h["kind"].as_str() {
            Some("step") => {
                step += 1;
                let r = h.get("ref");
                let ref_str = match (
                    r.and_then(|r| text(r, "skill")),
                    r.and_then(|r| text(r, "agent")),
                ) {
                    (Some(s), _) => format!("skill:{s}"),
                    (None, Some(a)) => format!("agent:{a}"),
                    _ => r.map_or_else(|| "{}".into(), Value::to_string),
                };
                lines.push(format!("### Step {step}: {ref_str} ({cap})"));
                details(&mut lines, h);
                if let Some(i) = inline {
                    lines.push(String::new());
                    lines.push(i);
                } else if let Some(p) = path {
                    lines.push(String::new());
                    lines.push(format!(
                        "_Step fragment path is declared but not rendered by loop-resolver: {p}_"
                    ));
                }
                lines.push(String::new());
            }
            Some("contribution") => {
                let into = h.get("into").map_or_else(|| "(unset)".into(), js_string);
                lines.push(format!("<contribution from=\"{cap}\" into=\"{into}\">"));
                if let Some(i) = inline {
                    lines.push(i);
                } else if let Some(p) = path {
                    lines.push(format!(
                        "_Contribution fragment path is declared but not rendered by loop-resolver: {p}_"
                    ));
                }
                details(&mut lines, h);
                lines.push("</contribution>".into());
                lines.push(String::new());
            }
            _ => {
                let check = match h.get("check") {
                    None | Some(Value::Null) => "(none)".to_string(),
                    Some(c @ (Value::Object(_) | Value::Array(_))) => c.to_string(),
                    Some(c) => js_string(c),
                };
                let blocking = h.get("blocking").and_then(Value::as_bool).unwrap_or(false);
                let on_error = h.get("onError").map_or_else(|| "skip".into(), js_string);
                lines.push(format!(
                    "**Gate** ({cap}): check={check}, blocking={blocking}, onError={on_error}"
                ));
                if let Some(w) = text(h, "when") {
                    lines.push(format!("- when: `{w}`"));
                }
                lines.push(String::new());
            }
        }
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(v: Value) -> Config {
        Config {
            user: v.as_object().cloned(),
        }
    }

    fn caps(point: &str, c: &Config) -> Vec<String> {
        active_hooks(point, c)
            .unwrap()
            .iter()
            .map(|h| {
                format!(
                    "{}:{}",
                    h["kind"].as_str().unwrap(),
                    h["capId"].as_str().unwrap()
                )
            })
            .collect()
    }

    #[test]
    fn the_table_is_1_14_0s_twelve_points() {
        assert_eq!(points().len(), 12);
        assert_eq!(points()[0], "discuss:pre");
        assert!(table()["config"]["workflow.research"]["default"] == json!(true));
    }

    #[test]
    fn a_key_takes_the_users_value_only_where_its_type_fits() {
        let c = config(
            json!({"workflow": {"research": false, "ui_phase": "false", "code_review_point": "nope"}}),
        );
        assert_eq!(c.value("workflow.research").unwrap(), json!(false));
        assert_eq!(c.value("workflow.ui_phase").unwrap(), json!(true));
        assert_eq!(
            c.value("workflow.code_review_point").unwrap(),
            json!("execute:post")
        );
        let none = Config { user: None };
        assert_eq!(none.value("intel.enabled").unwrap(), json!(false));
        assert!(matches!(
            none.value("workflow.unheard_of"),
            Err(Refusal::HandOn(_))
        ));
    }

    #[test]
    fn hooks_follow_when_point_from_and_capability_activation() {
        let defaults = Config { user: None };
        let pre = caps("plan:pre", &defaults);
        assert!(pre.contains(&"step:research".to_string()));
        assert!(
            !pre.iter()
                .any(|c| c.ends_with(":mempalace") || c.ends_with(":intel"))
        );
        assert_eq!(caps("execute:post", &defaults), vec!["step:code-review"]);
        assert!(
            caps("execute:wave:post", &defaults)
                .iter()
                .all(|c| c != "step:code-review")
        );
        let moved = config(
            json!({"workflow": {"code_review_point": "execute:wave:post", "tdd_mode": true}}),
        );
        assert!(caps("execute:wave:post", &moved).contains(&"step:code-review".to_string()));
        assert_eq!(caps("execute:post", &moved), vec!["gate:tdd"]);
        // refactor-trigger's capability is gated by the same key as its step.
        let refactor = config(json!({"refactor": {"trigger_enabled": true}}));
        assert!(caps("execute:post", &refactor).contains(&"step:refactor-trigger".to_string()));
    }

    #[test]
    fn rendering_numbers_steps_and_says_when_nothing_is_active() {
        assert_eq!(
            render("execute:pre", &[]),
            "_No active hooks at execute:pre._"
        );
        let c = config(json!({"workflow": {"security_asvs_level": 2}}));
        let hooks = active_hooks("ship:pre", &c).unwrap();
        let text = render("ship:pre", &hooks);
        assert!(
            text.starts_with("**Gate** (security): check={\"predicate\":"),
            "{text}"
        );
        let plan = active_hooks("plan:pre", &c).unwrap();
        let security = plan.iter().find(|h| h["capId"] == "security").unwrap();
        assert_eq!(
            security["configValues"],
            json!({"security_asvs_level": 2, "security_block_on": "high"})
        );
        assert!(
            render("plan:pre", &plan).contains("### Step 2: agent:gsd-phase-researcher (research)")
        );
    }

    #[test]
    fn active_cap_is_read_as_the_router_reads_it() {
        let a = |v: &[&str]| active_cap(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            a(&["x", "--active-cap", "tdd"]).unwrap(),
            Some("tdd".into())
        );
        assert_eq!(a(&["x", "--active-cap= tdd "]).unwrap(), Some("tdd".into()));
        assert!(a(&["x", "--active-cap"]).is_err());
        assert!(a(&["x", "--active-cap", "--raw"]).is_err());
        assert!(a(&["x", "--active-cap="]).is_err());
        assert_eq!(a(&["x"]).unwrap(), None);
    }
}
