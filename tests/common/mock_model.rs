//! A scripted stand-in for the Anthropic Messages API on 127.0.0.1, so the
//! real Claude Code CLI can run gsd's hooks (and `gsd ralph run` can run the
//! CLI) with no network and no account (RALPH.md §10).
//!
//! Each `POST /v1/messages` is logged and answered by the test's script, a
//! function of the request body; the answer is streamed back as server-sent
//! events exactly as the real API frames them. `count_tokens` gets a fixed
//! count; anything else a 404.

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use serde_json::{Value, json};

/// What the scripted model says next.
pub enum Reply {
    /// A text block, ending the turn.
    Text(String),
    /// Optional text, then one tool call the CLI really executes.
    Tool {
        text: String,
        name: String,
        input: Value,
    },
    /// An HTTP error with the API's error body (429 rate limit, 529 overloaded).
    Error { status: u16, kind: String },
    /// A subscription usage limit: 429 with the unified rate-limit headers
    /// the API sends, rejecting until `resets_at` (Unix seconds). Claude Code
    /// reads them when logged in (`CLAUDE_CODE_OAUTH_TOKEN`).
    UsageLimit { resets_at: i64 },
}

impl Reply {
    pub fn text(s: impl Into<String>) -> Self {
        Reply::Text(s.into())
    }

    /// A `Write` tool call creating `path` with `content`.
    pub fn write(path: &std::path::Path, content: &str) -> Self {
        Reply::Tool {
            text: format!("Writing {}.", path.display()),
            name: "Write".into(),
            input: json!({ "file_path": path, "content": content }),
        }
    }

    /// A `Bash` tool call.
    pub fn bash(command: &str) -> Self {
        Reply::Tool {
            text: String::new(),
            name: "Bash".into(),
            input: json!({ "command": command, "description": "run a command" }),
        }
    }
}

type Script = dyn Fn(&Value) -> Reply + Send + Sync;

pub struct MockModel {
    pub url: String,
    server: Arc<tiny_http::Server>,
    log: Arc<Mutex<Vec<Value>>>,
    thread: Option<JoinHandle<()>>,
}

impl MockModel {
    /// Serve `script` on a free loopback port; each request is answered on its
    /// own thread, so a script may wait (two sessions at once).
    pub fn start(script: impl Fn(&Value) -> Reply + Send + Sync + 'static) -> Self {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").unwrap());
        let port = server.server_addr().to_ip().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let script: Arc<Script> = Arc::new(script);
        let (s, l) = (server.clone(), log.clone());
        let thread = std::thread::spawn(move || {
            for (n, req) in s.incoming_requests().enumerate() {
                let (l, script) = (l.clone(), script.clone());
                std::thread::spawn(move || serve(req, n, &l, &*script));
            }
        });
        MockModel {
            url: format!("http://127.0.0.1:{port}"),
            server,
            log,
            thread: Some(thread),
        }
    }

    /// The bodies of every `/v1/messages` request so far, in arrival order.
    pub fn requests(&self) -> Vec<Value> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for MockModel {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(mut req: tiny_http::Request, n: usize, log: &Mutex<Vec<Value>>, script: &Script) {
    let mut body = String::new();
    let _ = req.as_reader().read_to_string(&mut body);
    let url = req.url().to_owned();
    let respond = |req: tiny_http::Request, status: u16, ctype: &str, body: String| {
        let h = tiny_http::Header::from_bytes("content-type", ctype).unwrap();
        let _ = req.respond(
            tiny_http::Response::from_string(body)
                .with_status_code(status)
                .with_header(h),
        );
    };
    if url.starts_with("/v1/messages/count_tokens") {
        return respond(
            req,
            200,
            "application/json",
            json!({"input_tokens": 100}).to_string(),
        );
    }
    if !url.starts_with("/v1/messages") {
        return respond(req, 404, "application/json", "{}".into());
    }
    let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    log.lock().unwrap().push(v.clone());
    match script(&v) {
        Reply::UsageLimit { resets_at } => {
            let body = json!({"type": "error", "error": {"type": "rate_limit_error", "message": "mock usage limit"}});
            let mut r = tiny_http::Response::from_string(body.to_string())
                .with_status_code(429)
                .with_header(
                    tiny_http::Header::from_bytes("content-type", "application/json").unwrap(),
                );
            for (k, v) in [
                ("anthropic-ratelimit-unified-status", "rejected".to_owned()),
                ("anthropic-ratelimit-unified-reset", resets_at.to_string()),
                (
                    "anthropic-ratelimit-unified-5h-status",
                    "rejected".to_owned(),
                ),
                (
                    "anthropic-ratelimit-unified-5h-reset",
                    resets_at.to_string(),
                ),
                (
                    "anthropic-ratelimit-unified-representative-claim",
                    "five_hour".to_owned(),
                ),
            ] {
                r = r.with_header(tiny_http::Header::from_bytes(k, v.as_bytes()).unwrap());
            }
            let _ = req.respond(r);
        }
        Reply::Error { status, kind } => {
            let body = json!({"type": "error", "error": {"type": kind, "message": format!("mock {kind}")}});
            respond(req, status, "application/json", body.to_string())
        }
        reply => {
            let model = v["model"].as_str().unwrap_or("claude-mock").to_owned();
            respond(req, 200, "text/event-stream", sse(n, &model, reply))
        }
    }
}

/// The event stream of one assistant message.
fn sse(n: usize, model: &str, reply: Reply) -> String {
    let mut events = vec![json!({"type": "message_start", "message": {
        "id": format!("msg_mock_{n}"), "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": null, "stop_sequence": null,
        "usage": {"input_tokens": 100, "output_tokens": 1}}})];
    let mut block = |index: usize, start: Value, delta: Value| {
        events.push(json!({"type": "content_block_start", "index": index, "content_block": start}));
        events.push(json!({"type": "content_block_delta", "index": index, "delta": delta}));
        events.push(json!({"type": "content_block_stop", "index": index}));
    };
    let stop = match reply {
        Reply::Text(t) => {
            block(
                0,
                json!({"type": "text", "text": ""}),
                json!({"type": "text_delta", "text": t}),
            );
            "end_turn"
        }
        Reply::Tool { text, name, input } => {
            let mut i = 0;
            if !text.is_empty() {
                block(
                    0,
                    json!({"type": "text", "text": ""}),
                    json!({"type": "text_delta", "text": text}),
                );
                i = 1;
            }
            block(
                i,
                json!({"type": "tool_use", "id": format!("toolu_mock_{n}"), "name": name, "input": {}}),
                json!({"type": "input_json_delta", "partial_json": input.to_string()}),
            );
            "tool_use"
        }
        Reply::Error { .. } | Reply::UsageLimit { .. } => unreachable!("errors are not streamed"),
    };
    events.push(json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 20}}));
    events.push(json!({"type": "message_stop"}));
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect()
}

/// How many assistant turns the conversation in `req` already has.
pub fn assistant_turns(req: &Value) -> usize {
    messages(req).filter(|m| m["role"] == "assistant").count()
}

/// All text of the first user message (the prompt the session was started with).
pub fn first_user_text(req: &Value) -> String {
    messages(req)
        .find(|m| m["role"] == "user")
        .map(text_of)
        .unwrap_or_default()
}

/// All text of the last user message (a tool result or what a hook re-injected).
pub fn last_user_text(req: &Value) -> String {
    messages(req)
        .filter(|m| m["role"] == "user")
        .last()
        .map(text_of)
        .unwrap_or_default()
}

fn messages(req: &Value) -> impl Iterator<Item = &Value> {
    req["messages"].as_array().into_iter().flatten()
}

/// The text of a message: string content, text blocks and tool results.
pub fn text_of(m: &Value) -> String {
    match &m["content"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .map(|p| match p["type"].as_str() {
                Some("text") => p["text"].as_str().unwrap_or("").to_owned(),
                Some("tool_result") => match &p["content"] {
                    Value::String(s) => s.clone(),
                    c => c
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|x| x["text"].as_str())
                        .collect::<Vec<_>>()
                        .join("\n"),
                },
                _ => String::new(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
