//! config.json: read as JSON, with typed accessors for the keys gsd uses.
//!
//! Reading never writes the file back (gsd-tools migrates config on read;
//! gsd does not).

use serde_json::Value;

#[derive(Debug, Clone)]
pub struct Config {
    pub value: Value,
}

/// Why config.json could not be read.
#[derive(Debug, Clone)]
pub struct ConfigError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl Config {
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        let t = text.strip_prefix('\u{feff}').unwrap_or(text);
        serde_json::from_str::<Value>(t)
            .map(|value| Config { value })
            .map_err(|e| ConfigError {
                message: e.to_string(),
                line: e.line(),
                column: e.column(),
            })
    }

    pub fn empty() -> Config {
        Config {
            value: Value::Object(Default::default()),
        }
    }

    /// A dotted path (`workflow.research`).
    pub fn get(&self, path: &str) -> Option<&Value> {
        path.split('.').try_fold(&self.value, |v, k| v.get(k))
    }

    pub fn str(&self, path: &str) -> Option<&str> {
        self.get(path).and_then(Value::as_str)
    }

    /// `commit_docs` (top level or under `planning`), default true.
    pub fn commit_docs(&self) -> bool {
        self.get("planning.commit_docs")
            .or_else(|| self.get("commit_docs"))
            .and_then(Value::as_bool)
            .unwrap_or(true)
    }

    pub fn project_code(&self) -> Option<&str> {
        self.str("project_code")
    }

    pub fn custom_phase_naming(&self) -> bool {
        self.str("phase_naming") == Some("custom")
    }

    /// Lint rules switched off in `lint.disable`.
    pub fn lint_disabled(&self) -> Vec<String> {
        self.get("lint.disable")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }
}
