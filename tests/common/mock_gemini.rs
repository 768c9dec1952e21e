//! A scripted stand-in for the Gemini API (`streamGenerateContent` with
//! server-sent events) on 127.0.0.1, so the real Gemini CLI runs with no
//! network and no account. Each request is logged and answered by the
//! test's script: a text, or a `run_shell_command` call the CLI executes.

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use serde_json::{Value, json};

pub enum GeminiReply {
    Text(String),
    /// A `run_shell_command` function call.
    Shell(String),
}

type Script = dyn Fn(&Value) -> GeminiReply + Send + Sync;

pub struct MockGemini {
    pub url: String,
    server: Arc<tiny_http::Server>,
    log: Arc<Mutex<Vec<Value>>>,
    thread: Option<JoinHandle<()>>,
}

/// How many model turns the conversation in `req` already has.
pub fn model_turns(req: &Value) -> usize {
    req["contents"]
        .as_array()
        .map_or(0, |c| c.iter().filter(|m| m["role"] == "model").count())
}

impl MockGemini {
    pub fn start(script: impl Fn(&Value) -> GeminiReply + Send + Sync + 'static) -> Self {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").unwrap());
        let port = server.server_addr().to_ip().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let script: Arc<Script> = Arc::new(script);
        let (s, l) = (server.clone(), log.clone());
        let thread = std::thread::spawn(move || {
            for mut req in s.incoming_requests() {
                let mut body = String::new();
                let _ = req.as_reader().read_to_string(&mut body);
                let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                if !req.url().contains(":streamGenerateContent") {
                    let _ =
                        req.respond(tiny_http::Response::from_string("{}").with_status_code(404));
                    continue;
                }
                l.lock().unwrap().push(v.clone());
                let parts = match script(&v) {
                    GeminiReply::Text(t) => json!([{ "text": t }]),
                    GeminiReply::Shell(c) => json!([{ "functionCall": {
                        "name": "run_shell_command",
                        "args": { "command": c, "description": "run a command" } } }]),
                };
                let chunk = json!({
                    "candidates": [{ "content": { "parts": parts, "role": "model" }, "finishReason": "STOP", "index": 0 }],
                    "usageMetadata": { "promptTokenCount": 100, "candidatesTokenCount": 5, "totalTokenCount": 105 },
                });
                let h = tiny_http::Header::from_bytes("content-type", "text/event-stream").unwrap();
                let _ = req.respond(
                    tiny_http::Response::from_string(format!("data: {chunk}\r\n\r\n"))
                        .with_header(h),
                );
            }
        });
        MockGemini {
            url: format!("http://127.0.0.1:{port}"),
            server,
            log,
            thread: Some(thread),
        }
    }

    pub fn requests(&self) -> Vec<Value> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for MockGemini {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
