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

/// A tool's arguments, read like rmcp's own `Parameters` (same schema, the
/// macro finds it by this name) but saying which argument was wrong: serde
/// alone says "invalid type: integer `5`, expected a string" and leaves the
/// agent to guess which of its arguments that was.
pub struct Parameters<P>(pub P);

impl<P: JsonSchema> JsonSchema for Parameters<P> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        P::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        P::json_schema(generator)
    }
}

impl<S, P>
    rmcp::handler::server::common::FromContextPart<
        rmcp::handler::server::tool::ToolCallContext<'_, S>,
    > for Parameters<P>
where
    P: serde::de::DeserializeOwned,
{
    fn from_context_part(
        context: &mut rmcp::handler::server::tool::ToolCallContext<S>,
    ) -> Result<Self, rmcp::ErrorData> {
        let arguments = serde_json::Value::Object(context.arguments.take().unwrap_or_default());
        serde_path_to_error::deserialize(arguments)
            .map(Parameters)
            .map_err(|e| rmcp::ErrorData::invalid_params(argument_error(&e), None))
    }
}

/// The message for arguments that did not read: the argument named when
/// the fault is in one (`argument `field`: invalid type: …`), else serde's
/// own words (`missing field `value``).
/// It starts with rmcp's own prefix: rmcp turns only such an error into a
/// tool result the model reads (`isError`), not a protocol error.
fn argument_error(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = e.path().to_string();
    if path == "." {
        format!("failed to deserialize parameters: {}", e.inner())
    } else {
        format!(
            "failed to deserialize parameters: argument `{path}`: {}",
            e.inner()
        )
    }
}
