//! The tools' arguments. Their doc comments become the JSON schema the
//! agent sees, so each says what to pass in as few words as will do.

use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PlanArgs {
    /// Plan id: `05-02`, `5-2`, `05-02-PLAN.md` or a path.
    pub id: String,
}

/// Which findings `lint` returns.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MinSeverity {
    #[default]
    Info,
    Warning,
    Error,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct LintArgs {
    /// Least severity returned (default info: all).
    #[serde(default)]
    pub min_severity: Option<MinSeverity>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct StateSetArgs {
    /// Field: camelCase, snake_case or body label (`currentPhase`, `Status`).
    pub field: String,
    pub value: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PhaseAddArgs {
    /// The new phase's name.
    pub name: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PhaseCompleteArgs {
    /// Phase id: `5`, `05`, `5.1`.
    pub phase: String,
    /// Complete it even with plans lacking a summary (`--force`).
    #[serde(default)]
    pub force: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PlanFmSetArgs {
    /// Plan id: `05-02`.
    pub id: String,
    /// Frontmatter key (dotted for nested: `must_haves.truths`).
    pub key: String,
    /// YAML value text.
    pub value: String,
}
