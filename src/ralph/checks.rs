//! What each of a plan's checks *is*, decided once when a loop starts.
//!
//! Plans write their checks for people as much as for machines. A task's
//! `<verify>` and the plan's `<verification>` hold shell commands
//! (`npm test`), but just as often file names ("`hello.txt` exists"),
//! identifiers, SQL, HTTP routes (`GET /api/users`), prose in any language,
//! or GSD's own `<automated>MISSING — …</automated>` placeholder. Run as a
//! shell command, none of those can ever pass, so a loop that needs them to
//! pass could only end at its iteration cap, paying the model every time.
//!
//! So every check gets a [`CheckKind`] from evidence, not from a word list
//! alone: a command is text that parses as shell and whose program is a shell
//! builtin, a known dev tool, an executable on PATH or a script in the
//! project. What is not a command is still used where the text is
//! unambiguous — "`a.rs` exists" becomes a check that the file exists,
//! "`a.rs` contains `fn main`" one that it contains that text ([`Probe`]) —
//! and is otherwise left to the agent's own verification, judged by the
//! loop's rules: the promise plus the checks gsd can run.
//!
//! The decision is made once, when the loop starts, and stored with the check
//! (with the reason, so every report can say why), so the loop never changes
//! its mind half-way through because PATH or the work tree changed.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::guard::shell;

/// What a check is. Only `command` checks run as shell commands; `file` and
/// `content` checks run as a [`Probe`] when the text names one without doubt;
/// the rest are not run by gsd.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// A shell command: gsd runs it. Also what a loop state written before
    /// checks had kinds reads as, so such a loop goes on as it started.
    #[default]
    Command,
    /// GSD's placeholder for a check nobody wrote yet (`MISSING — …`, `TODO`, `N/A`).
    Missing,
    /// A file or folder name.
    File,
    /// A file said to contain some text (`a.rs` contains `fn main`).
    Content,
    /// An HTTP route or URL (`GET /api/users`, `/cart`, `http://localhost:3000/`).
    Route,
    /// An SQL statement (`SELECT … FROM …`).
    Sql,
    /// A name or value from the code (`deleteGarden`, `getDocs()`, `shm_size: 1g`).
    Identifier,
    /// Words meant for a person.
    Prose,
    /// Reads as a command line, but its program is not a builtin, not on
    /// PATH, not a known tool and not a script in the project (or it is
    /// PowerShell): run, it could only say "not found".
    NotFound,
    /// Starts like a command (`grep …`), but sh cannot parse it: unquoted
    /// parentheses (`src/app/(main)/page.tsx`), a `<placeholder>`. Run, it
    /// could only fail.
    SyntaxError,
}

impl CheckKind {
    pub const ALL: [CheckKind; 10] = [
        CheckKind::Command,
        CheckKind::Missing,
        CheckKind::File,
        CheckKind::Content,
        CheckKind::Route,
        CheckKind::Sql,
        CheckKind::Identifier,
        CheckKind::Prose,
        CheckKind::NotFound,
        CheckKind::SyntaxError,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CheckKind::Command => "command",
            CheckKind::Missing => "missing",
            CheckKind::File => "file",
            CheckKind::Content => "content",
            CheckKind::Route => "route",
            CheckKind::Sql => "sql",
            CheckKind::Identifier => "identifier",
            CheckKind::Prose => "prose",
            CheckKind::NotFound => "not_found",
            CheckKind::SyntaxError => "syntax_error",
        }
    }
}

impl std::fmt::Display for CheckKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What gsd checks instead of running the text, for a `file` or `content`
/// check whose text names it unambiguously. Paths are relative to the
/// project root; a bare file name (no `/`) may be anywhere in the project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Probe {
    /// The file or folder exists.
    Exists { path: String },
    /// The file exists and contains every one of these texts, byte for byte.
    Contains { path: String, text: Vec<String> },
}

impl Probe {
    /// The same check as a shell command a person (or the agent) can run.
    pub fn as_shell(&self) -> String {
        let q = |s: &str| shell_words::quote(s).into_owned();
        match self {
            Probe::Exists { path } if path.contains('/') => format!("test -e {}", q(path)),
            Probe::Exists { path } => format!("find . -name {} | grep -q .", q(path)),
            Probe::Contains { path, text } => text
                .iter()
                .map(|t| {
                    if path.contains('/') {
                        format!("grep -qF -- {} {}", q(t), q(path))
                    } else {
                        format!(
                            "find . -name {} | xargs grep -lF -- {} | grep -q .",
                            q(path),
                            q(t)
                        )
                    }
                })
                .collect::<Vec<_>>()
                .join(" && "),
        }
    }

    /// What it checks, in words.
    pub fn describe(&self) -> String {
        match self {
            Probe::Exists { path } => format!("gsd checks that `{path}` exists"),
            Probe::Contains { path, text } => format!(
                "gsd checks that `{path}` contains {}",
                text.iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// Check it in `root`: `Ok(())`, or why not.
    pub fn check(&self, root: &Path) -> Result<(), String> {
        match self {
            Probe::Exists { path } => find(root, path, |_| true)
                .map(|_| ())
                .ok_or_else(|| format!("no such file: {path}")),
            Probe::Contains { path, text } => {
                let missing = |p: &Path| -> Vec<&String> {
                    match std::fs::read(p) {
                        Ok(bytes) => text
                            .iter()
                            .filter(|t| memchr::memmem::find(&bytes, t.as_bytes()).is_none())
                            .collect(),
                        Err(_) => text.iter().collect(),
                    }
                };
                if find(root, path, |p| p.is_file()).is_none() {
                    return Err(format!("no such file: {path}"));
                }
                // A bare name may match several files: one holding all of it will do.
                match find(root, path, |p| p.is_file() && missing(p).is_empty()) {
                    Some(_) => Ok(()),
                    None => {
                        let first = find(root, path, |p| p.is_file()).unwrap_or_default();
                        let absent: Vec<String> =
                            missing(&first).iter().map(|t| format!("`{t}`")).collect();
                        Err(format!("{path} does not contain {}", absent.join(", ")))
                    }
                }
            }
        }
    }
}

/// Folders a bare file name is never looked for in: dependencies, build
/// output and version control, where a match would prove nothing.
const SKIP_DIRS: &[&str] = &[
    ".git",
    "node_modules",
    "target",
    ".venv",
    "venv",
    "__pycache__",
    ".gsd",
    ".next",
    ".svelte-kit",
    ".turbo",
];

/// The first path under `root` that `path` names and `ok` accepts: `path`
/// itself when it has a `/`, else any file of that name in the project
/// (breadth first, at most 200,000 entries looked at).
fn find(root: &Path, path: &str, ok: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    let direct = root.join(path.trim_end_matches('/'));
    if path.contains('/') {
        return (direct.exists() && ok(&direct)).then_some(direct);
    }
    if direct.exists() && ok(&direct) {
        return Some(direct);
    }
    let mut queue = std::collections::VecDeque::from([root.to_path_buf()]);
    let mut budget = 200_000usize;
    while let Some(dir) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            budget = budget.checked_sub(1)?;
            let name = e.file_name();
            let p = e.path();
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            if name == std::ffi::OsStr::new(path) && ok(&p) {
                return Some(p);
            }
            if is_dir && !SKIP_DIRS.iter().any(|s| name == std::ffi::OsStr::new(s)) {
                queue.push_back(p);
            }
        }
    }
    None
}

/// A check's kind, what gsd checks instead (for `file` and `content`), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classified {
    pub kind: CheckKind,
    pub probe: Option<Probe>,
    pub why: String,
}

impl Classified {
    fn new(kind: CheckKind, why: impl Into<String>) -> Classified {
        Classified {
            kind,
            probe: None,
            why: why.into(),
        }
    }
}

/// One check found in a plan's text, classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The check as the plan writes it (a command, a span, or for a content
    /// check the phrase from the file name to the last text it names).
    pub text: String,
    pub class: Classified,
}

/// Where a text came from: an `<automated>` element is meant to be run; a
/// backticked span in prose may be anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Automated,
    Span,
}

/// What the classifier may look at: the project (for scripts it holds) and
/// PATH (for installed programs). Lookups are cached.
pub struct Env {
    root: PathBuf,
    path: Vec<PathBuf>,
    home: Option<PathBuf>,
    cache: RefCell<HashMap<String, bool>>,
}

impl Env {
    /// The project at `root`, with this process's PATH and HOME.
    pub fn new(root: &Path) -> Env {
        let path = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        Env {
            root: root.to_path_buf(),
            path,
            home: std::env::var_os("HOME").map(PathBuf::from),
            cache: RefCell::default(),
        }
    }

    /// The project at `root` with the given PATH folders and no HOME: the
    /// same answer on every machine (tests, the corpus table).
    pub fn with_path(root: &Path, path: Vec<PathBuf>) -> Env {
        Env {
            root: root.to_path_buf(),
            path,
            home: None,
            cache: RefCell::default(),
        }
    }

    fn on_path(&self, name: &str) -> bool {
        if let Some(&hit) = self.cache.borrow().get(name) {
            return hit;
        }
        let hit = self.path.iter().any(|d| executable(&d.join(name)));
        self.cache.borrow_mut().insert(name.to_owned(), hit);
        hit
    }

    /// Where a program given as a path is, when it is there at all.
    fn resolve(&self, program: &str) -> Option<PathBuf> {
        if let Some(rest) = program.strip_prefix("~/") {
            return self.home.as_ref().map(|h| h.join(rest));
        }
        if program.starts_with('~') {
            return None;
        }
        let p = Path::new(program);
        Some(if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root.join(p)
        })
    }
}

fn executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Shell builtins and keywords a check is written with. Builtins that are
/// words of code as often (`return`, `let`, `local`, `declare`) are left out.
#[rustfmt::skip]
const BUILTINS: &[&str] = &[
    ".", ":", "[", "[[", "cd", "command", "echo", "eval", "exec", "exit", "export", "false",
    "printf", "pushd", "pwd", "read", "set", "source", "test", "time", "true", "type", "ulimit",
    "umask", "unset",
];

/// Programs checks are written with that are installed machine-wide or
/// user-wide by their usual install (package managers, toolchains, system
/// tools): known to be commands whether or not this machine has them.
/// Tools a project installs into `node_modules/.bin` (tsc, vitest, eslint,
/// next…) are not here: `sh -c` would not find them unless they are on PATH.
#[rustfmt::skip]
const KNOWN_TOOLS: &[&str] = &[
    // JavaScript
    "npm", "npx", "pnpm", "pnpx", "yarn", "corepack", "node", "nodejs", "deno", "bun", "bunx",
    // Rust, Go, C
    "cargo", "rustc", "rustup", "rustfmt", "go", "gofmt", "golangci-lint", "make", "cmake",
    "ninja", "meson", "bazel", "gcc", "g++", "clang", "clang++", "cc", "ctest",
    // Python
    "python", "python3", "py", "pip", "pip3", "pipx", "uv", "uvx", "poetry", "pdm", "hatch",
    "conda", "mamba", "pytest", "tox", "nox", "ruff", "mypy", "pyright", "black", "isort",
    "flake8", "pylint", "coverage", "alembic",
    // JVM, .NET, Apple, mobile
    "java", "javac", "gradle", "mvn", "sbt", "kotlin", "kotlinc", "dotnet", "msbuild", "swift",
    "swiftc", "swiftlint", "swiftformat", "xcodebuild", "xcrun", "xcodegen", "pod", "fastlane",
    "flutter", "dart",
    // Ruby, PHP, Elixir, others
    "ruby", "gem", "bundle", "bundler", "rake", "rspec", "rails", "php", "composer", "phpunit",
    "mix", "elixir", "erl", "rebar3", "ghc", "cabal", "stack", "lua", "perl", "Rscript", "R",
    "julia", "zig", "godot",
    // Containers, cloud, services
    "docker", "docker-compose", "podman", "kubectl", "helm", "terraform", "tofu", "ansible",
    "aws", "gcloud", "az", "firebase", "supabase", "vercel", "netlify", "wrangler", "flyctl",
    "heroku", "railway", "psql", "mysql", "sqlite3", "redis-cli", "mongosh",
    // Version control, network, JSON
    "git", "jj", "hg", "gh", "curl", "wget", "jq", "yq", "openssl", "ssh", "scp",
    // Unix tools
    "grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "find", "fd", "xargs", "ls", "cat",
    "head", "tail", "wc", "sort", "uniq", "cut", "tr", "diff", "cmp", "comm", "tee", "touch",
    "mkdir", "rm", "cp", "mv", "ln", "chmod", "stat", "file", "du", "df", "env", "timeout",
    "sleep", "sha256sum", "shasum", "md5sum", "base64", "tar", "unzip", "zip", "gzip", "bash",
    "sh", "zsh", "dash", "pwsh", "powershell", "realpath", "readlink", "basename", "dirname",
    "date", "nc", "lsof", "ps", "pgrep", "sudo", "systemctl", "journalctl", "dd", "mktemp",
    "gunzip", "dig", "nslookup", "ping",
    // Task runners, linters, docs
    "just", "task", "nix", "nix-shell", "pre-commit", "shellcheck", "shfmt", "hadolint",
    "actionlint", "yamllint", "pandoc", "typst", "hugo", "mkdocs", "sphinx-build",
];

/// Programs that mean something with no arguments at all: a lone backticked
/// `make` or `pytest` is a check; a lone `npm`, `test` or `git` is a word.
#[rustfmt::skip]
const RUNS_ALONE: &[&str] = &[
    "make", "pytest", "swiftlint", "tox", "nox", "flake8", "phpunit", "rspec", "rake", "ctest",
    "ninja", "just", "xcodebuild", "xcodegen", "tsc", "jest", "vitest", "eslint", "mypy",
];

/// On PATH, but never what a check means (`init` is PID 1 on Linux).
const NEVER_PROGRAMS: &[&str] = &[
    "init", "halt", "reboot", "shutdown", "poweroff", "telinit", "runlevel",
];

/// Words that begin code, not command lines (`const x = {}`, `from a import b`).
#[rustfmt::skip]
const CODE_WORDS: &[&str] = &[
    "const", "var", "def", "async", "await", "import", "from", "class", "fn", "pub", "struct",
    "impl", "interface", "enum", "public", "private", "protected", "static", "val", "func",
    "package", "namespace", "using", "new", "elif", "lambda", "function", "extends", "yield",
    "type", "let", "return", "local", "declare", "raise", "signal", "class_name", "module",
    "exception", "extern", "mod", "trait",
];

/// Extensions of files people name in checks (source, config, docs, data).
#[rustfmt::skip]
const FILE_EXTS: &[&str] = &[
    "ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts", "json", "jsonc", "json5", "md", "mdx",
    "yaml", "yml", "toml", "ini", "cfg", "conf", "env", "lock", "rs", "py", "pyi", "ipynb", "go",
    "mod", "sum", "rb", "erb", "java", "kt", "kts", "scala", "groovy", "gradle", "swift", "m",
    "mm", "h", "hpp", "c", "cc", "cpp", "cxx", "cs", "csproj", "fs", "fsx", "fsi", "fsproj",
    "sln", "vb", "php", "ex", "exs", "eex", "heex", "erl", "hrl", "hs", "ml", "mli", "clj",
    "cljs", "dart", "lua", "pl", "pm", "r", "rds", "jl", "zig", "nim", "gd", "tscn", "tres",
    "godot", "unity", "prefab", "asset", "uxml", "uss", "shader", "html", "htm", "css", "scss",
    "sass", "less", "vue", "svelte", "astro", "hbs", "ejs", "pug", "njk", "j2", "jinja", "tmpl",
    "tpl", "liquid", "sql", "prisma", "graphql", "gql", "proto", "sh", "bash", "zsh", "fish",
    "ps1", "psm1", "bat", "cmd", "txt", "csv", "tsv", "xml", "xsd", "plist", "xib",
    "storyboard", "entitlements", "pbxproj", "svg", "png", "jpg", "jpeg", "gif", "webp", "ico",
    "pdf", "wasm", "tf", "tfvars", "hcl", "nix", "dockerfile", "mk", "cmake", "log", "db",
    "sqlite", "parquet", "rst", "adoc", "tex", "bib", "typ", "snap", "patch", "diff", "pem",
    "crt", "key", "arb", "po", "strings", "resx", "xaml", "razor", "cshtml", "feature", "http",
    "rest", "webmanifest", "d", "vsix", "apk", "aab", "ipa", "jar", "zip", "gz", "mp3", "mp4",
    "wav", "ogg", "ttf", "otf", "woff", "woff2", "glb", "gltf", "obj", "fbx", "blend",
];

/// Names of files without an extension.
#[rustfmt::skip]
const FILE_NAMES: &[&str] = &[
    "Makefile", "Dockerfile", "README", "LICENSE", "Gemfile", "Procfile", "Justfile",
    "justfile", "Rakefile", "Podfile", "Vagrantfile", "CODEOWNERS", "CHANGELOG", "Brewfile",
    "Caddyfile", "Containerfile", "Jenkinsfile", "Taskfile",
];

/// Dotfiles by name (`.footer-copyright` is a CSS class, `.cshtml` an extension).
#[rustfmt::skip]
const DOTFILES: &[&str] = &[
    ".env", ".gitignore", ".gitattributes", ".gitmodules", ".dockerignore", ".npmrc", ".nvmrc",
    ".yarnrc", ".editorconfig", ".prettierrc", ".prettierignore", ".eslintrc", ".eslintignore",
    ".babelrc", ".firebaserc", ".python-version", ".node-version", ".tool-versions",
    ".trivyignore", ".git-blame-ignore-revs", ".pre-commit-config", ".swiftlint", ".rubocop",
    ".htaccess", ".mcp", ".vercelignore", ".stylelintrc", ".browserslistrc", ".envrc",
    ".planning", ".github", ".claude", ".vscode", ".cursor", ".husky", ".devcontainer",
];

/// `this.prisma`, `res.json`, `process.env` are member accesses, not files.
#[rustfmt::skip]
const RECEIVERS: &[&str] = &[
    "this", "self", "super", "res", "req", "ctx", "app", "window", "document", "process",
    "console", "module", "exports", "os", "sys", "err", "e", "event", "router", "db", "prisma",
    "supabase", "client", "server", "response", "request", "props", "state", "store", "api",
];

/// Folders a project path often starts with (`src/components`).
#[rustfmt::skip]
const TOP_DIRS: &[&str] = &[
    "src", "lib", "app", "apps", "packages", "crates", "tests", "test", "spec", "specs", "docs",
    "doc", "scripts", "bin", "cmd", "internal", "pkg", "components", "pages", "public", "assets",
    "config", "configs", "server", "client", "frontend", "backend", "web", "api", "migrations",
    "supabase", "prisma", "tools", "include", "examples", "fixtures", "static", "templates",
    "resources", "modules", "services", "android", "ios", "macos", "windows", "linux", "db",
    "database", "infra", "deploy", "hooks", "plugins", "skills", "agents", "commands",
    "workflows", "references", "data", "content", "styles", "utils", "functions", "routes",
    "views", "models", "controllers", "types", "store", "stores", "features", "domain", "ui",
    "core", "shared", "common", "e2e", "benches", "bench", "vendor", "third_party",
];

/// First path components of absolute file paths (as opposed to web routes).
#[rustfmt::skip]
const SYSTEM_ROOTS: &[&str] = &[
    "Users", "home", "tmp", "usr", "etc", "var", "opt", "data", "mnt", "root", "srv", "private",
    "Volumes", "dev", "proc", "bin", "sbin", "lib", "nix", "snap", "workspace", "workspaces",
    "System", "Applications", "Library", "c", "d",
];

fn re(s: &str) -> Regex {
    Regex::new(s).expect("a fixed pattern")
}

static MISSING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:MISSING|TODO|TBD|FIXME|PENDING|N/A|NONE)(?:$|[\s—–:(.,-])|(?i:missing|todo|tbd|n/a|manual(?:\s+only)?)\s*[—–:-])",
    )
});
static SQL: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?is)^\s*(?:",
        r"select\s+.+?\s+from\s|select\s+(?:count|exists|\*|1)\b",
        r"|insert\s+into\s|update\s+\S+\s+set\s|delete\s+from\s",
        r"|create\s+(?:or\s+replace\s+)?(?:table|index|unique\s+index|view|materialized\s+view|function|trigger|policy|extension|schema|type|sequence)\b",
        r"|alter\s+(?:table|policy|function|view|type)\b",
        r"|drop\s+(?:table|index|view|function|policy|trigger|schema)\b",
        r"|grant\s+\w+.*\bon\b|revoke\s+\w+.*\bon\b",
        r"|with\s+\w+\s+as\s*\(|explain\s+(?:analyze\s+)?select\b",
        r")"
    ))
});
static HTTP_ROUTE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\S"));
static URL: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^(?:(?:https?|wss?)://\S+|(?:localhost|127\.0\.0\.1|0\.0\.0\.0):\d+(?:/\S*)?)$")
});
/// A slash command for the agent (`/gsd:plan-phase`, `/execute-plan 04-02`).
static SLASH_COMMAND: LazyLock<Regex> =
    LazyLock::new(|| re(r"^/(?:[\w-]+:[\w:-]+(?:\s|$)|b?gsd[\w-]*(?:\s|$)|[a-z][\w-]*\s+\S)"));
static WEB_PATH: LazyLock<Regex> = LazyLock::new(|| re(r"^/[^/\s]\S*$"));
static POWERSHELL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\$env:|\b(?:Get|Set|Test|Invoke|Select|Where|ForEach|Out|Write|New|Remove|Start|Stop|Copy|Move|Import|Export)-[A-Z][A-Za-z]+\b",
    )
});
static PROGRAM_NAME: LazyLock<Regex> = LazyLock::new(|| re(r"^[A-Za-z_][A-Za-z0-9_.+-]*$"));
/// Operators of code, not of the shell: comparisons (`matched >= 770`,
/// `saved_version < 2`), arrows (`int -> int`, `DRY_RUN <- TRUE`), version
/// specs (`sphinx>=5.0`), alternations (`rotateX|rotateY`), XML escapes.
static EXPRESSION: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"^[<>=|&]|(?:^|\s)(?:>=|<=|==|===|!=|!==|=~|\|>|->|<-|=>|:=|\+=|-=)(?:\s|$)",
        r"|\w(?:>=|<=|==|~=|!=)\d|->>|&lt;|&gt;|&amp;|\s[<>]\s*-?\d+(?:\.\d+)?$",
        r"|^[^\s|]+(?:\s*\|\s*[^\s|]+)+$|^[*+/%]\s|\s[*+/%]\s|→"
    ))
});
static PROGRAM_PATH: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:[A-Za-z]:)?[A-Za-z0-9_.~+@-]*(?:/[A-Za-z0-9_.+@-]+)+/?$"));
/// Text between a file name and the text it is said to contain.
static CONTAINS: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?i)^\s*(?:\([^)]*\)\s*)?(?:(?:exists?|existe|existiert|esiste)\s*,?\s*(?:and|with|et|e|y|und|con|com|avec|mit)\s+|(?:still|now)\s+)?",
        r"(?P<verb>contains?|includes?|has|have|holds?|defines?|exports?|exporta|exists?\s+with|existe\s+(?:com|con|avec)|existiert\s+mit",
        r"|contient|enthält|enthaelt|contiene|contém|contem|bevat|chứa|包含|含む)",
        r"\s*(?:the\s+|a\s+|an\s+)?(?:(?:literal\s+)?(?:string|text|line|literal)s?\s*)?:?\s*$"
    ))
});
/// Text between two texts a file is said to contain (`a`, `b` and `c`).
static SEPARATOR: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)^\s*(?:,|;|\+|&|,?\s*(?:and|et|e|y|und|và|i|и))\s*$"));
/// Text after a file name that says it exists.
static EXISTS_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?i)^\s*(?:\([^)]*\)\s*)?(?:[—–:-]\s*)?(?:(?:file|directory|folder)\s+)?",
        r"(?:exists?|is\s+(?:created|present|in\s+place)|(?:was|were|are|has\s+been|have\s+been)\s+created|created|are\s+present",
        r"|existe[mn]?|existiert|existieren|esiste|esistono|bestaat|tồn\s+tại|存在)",
        r"(?:$|[^\p{L}])"
    ))
});
/// Text before a file name that makes what follows a condition, not a
/// claim (`If `a.json` exists, …`).
static VETO_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?i)(?:^|[^\p{L}])(?:if|when|unless|whether|once|after|before|se|si|wenn|falls|quando|cuando|nếu|如果)",
        r"\s+(?:the\s+|a\s+)?(?:(?:file|folder|directory)\s+)?$"
    ))
});
/// Words after a claim that make it uncertain or temporary (`exist or
/// blocker is recorded`, `created …, cleaned up after`).
static VETO_REST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:or|unless|optional(?:ly)?|if\s+(?:any|present|needed|applicable)|removed|deleted|cleaned|gone|temporar\w*|not\s+yet|oder|ou|sinon)\b",
    )
});
/// Text before a file name that says it exists (`File exists: `a.rs``).
static EXISTS_BEFORE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)(?:^|[^\p{L}])(?:files?\s+)?exists?\s*:\s*$"));

/// Classify one text: an `<automated>` command or a backticked span, without
/// the words around it (see [`from_block`] for those).
pub fn classify(text: &str, origin: Origin, env: &Env) -> Classified {
    let s = text.trim();
    if s.is_empty() {
        return Classified::new(CheckKind::Prose, "empty");
    }
    if MISSING.is_match(s) {
        return Classified::new(
            CheckKind::Missing,
            "GSD's placeholder for a check nobody wrote yet",
        );
    }
    if SQL.is_match(s) {
        return Classified::new(CheckKind::Sql, "an SQL statement, not a shell command");
    }
    if let Some(c) = route(s) {
        return c;
    }
    let not_command = match command(s, origin, env) {
        Ok(why) => return Classified::new(CheckKind::Command, why),
        Err(e) => e,
    };
    if !s.contains(char::is_whitespace)
        && let Some(shape) = path_shape(s)
    {
        return Classified::new(CheckKind::File, shape);
    }
    if not_command.broken {
        return Classified::new(CheckKind::SyntaxError, not_command.why);
    }
    if not_command.command_line {
        return Classified::new(CheckKind::NotFound, not_command.why);
    }
    if code_like(s) {
        return Classified::new(CheckKind::Identifier, "a name or value from the code");
    }
    if s.split_whitespace().count() >= 2 {
        Classified::new(
            CheckKind::Prose,
            format!("words, not a command: {}", not_command.why),
        )
    } else {
        Classified::new(CheckKind::Identifier, "a name or value from the code")
    }
}

fn route(s: &str) -> Option<Classified> {
    if HTTP_ROUTE.is_match(s) {
        return Some(Classified::new(CheckKind::Route, "an HTTP route"));
    }
    if URL.is_match(s) {
        return Some(Classified::new(CheckKind::Route, "a URL"));
    }
    if SLASH_COMMAND.is_match(s) {
        return Some(Classified::new(
            CheckKind::Identifier,
            "a slash command for the agent, not a shell command",
        ));
    }
    if WEB_PATH.is_match(s) {
        let first = s[1..].split(['/', '?', '#']).next().unwrap_or("");
        let last = s.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        let file_like = SYSTEM_ROOTS.contains(&first)
            || first.starts_with('.')
            || extension(last).is_some_and(|e| FILE_EXTS.contains(&e.as_str()));
        if !file_like {
            return Some(Classified::new(CheckKind::Route, "a web path"));
        }
    }
    None
}

/// Why a text is not a command, and whether it still reads as a command line
/// (flags, pipes, paths: then its program is what is missing).
struct NotCommand {
    command_line: bool,
    /// It starts like a command, but sh cannot parse it.
    broken: bool,
    why: String,
}

fn not_command(command_line: bool, why: impl Into<String>) -> Result<String, NotCommand> {
    Err(NotCommand {
        command_line,
        broken: false,
        why: why.into(),
    })
}

/// `Ok(why)` when `s` is a command, with the evidence.
fn command(s: &str, origin: Origin, env: &Env) -> Result<String, NotCommand> {
    // A script's comment lines say nothing of what it runs.
    let first_word = s
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or("");
    let cmds = match shell::simple_commands(s) {
        Ok(c) => c,
        Err(e) => {
            static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| re(r"<[A-Za-z][\w -]*>"));
            let word = first_word.rsplit('/').next().unwrap_or("");
            let looks = BUILTINS.contains(&word)
                || KNOWN_TOOLS.contains(&word)
                || (first_word.starts_with("./") && first_word.len() > 2);
            let why = match PLACEHOLDER.find(s) {
                Some(p) if looks => format!(
                    "a command with a placeholder to fill in (`{}`), which sh cannot parse",
                    p.as_str()
                ),
                _ if looks => format!("it starts like a command, but sh cannot parse it ({e})"),
                _ => format!("it does not parse as shell ({e})"),
            };
            return Err(NotCommand {
                command_line: false,
                broken: looks,
                why,
            });
        }
    };
    // The first command that runs a program (`X=$(wc -l < f)` runs `wc`).
    let first = cmds.iter().find_map(|c| {
        if c.argv.is_empty() {
            c.substituted.iter().find(|x| !x.argv.is_empty())
        } else {
            Some(c)
        }
    });
    let Some(cmd) = first else {
        if matches!(first_word, "[[" | "((") {
            return Ok(format!("`{first_word}` is a shell keyword"));
        }
        return not_command(false, "it runs no program");
    };
    // `env X=1 cargo test`, `timeout 12 cargo run`, `sudo systemctl …`: the
    // program is the one they run.
    let argv = unwrapped(&cmd.argv);
    let program = &argv[0];
    let name = program.text.as_str();
    let args = argv.len() - 1;
    let syntax = command_line_syntax(s, &cmds);
    let alone = cmds.len() == 1 && args == 0 && cmd.redirects.is_empty();
    let named = |what: &str| format!("`{name}` is {what}");
    if BUILTINS.contains(&name) || KNOWN_TOOLS.contains(&name) {
        if origin == Origin::Span && alone && !RUNS_ALONE.contains(&name) {
            return not_command(false, "a lone word");
        }
        // `export const x = 1`, `type X = Y;`, `[ ]` (a checkbox) are not shell.
        let code = match name {
            "export" | "type" | "set" | "read" | "unset" => {
                expression(&cmd.argv)
                    || cmd.argv.get(1).is_some_and(|a| {
                        CODE_WORDS.contains(&a.text.as_str()) || a.text == "default"
                    })
            }
            "[" => argv.len() <= 2,
            _ => false,
        };
        if code {
            return not_command(false, format!("`{name}` begins code here, not a command"));
        }
        return Ok(named(match BUILTINS.contains(&name) {
            true => "a shell builtin",
            false => "a known dev tool",
        }));
    }
    if POWERSHELL.is_match(s) {
        return not_command(
            true,
            "PowerShell, which gsd does not run (checks run under sh)",
        );
    }
    if expression(argv) || EXPRESSION.is_match(s) {
        return not_command(false, "an expression from the code");
    }
    if program.dynamic && name.starts_with('$') {
        // `$PYTHON -m pytest`: a program named by a variable.
        if args > 0 || origin == Origin::Automated {
            return Ok(format!("its program comes from the shell (`{first_word}`)"));
        }
        return not_command(false, "a lone word");
    }
    if name.contains('/') && PROGRAM_PATH.is_match(name) {
        return path_program(name, args, origin, env);
    }
    if origin == Origin::Span && alone && !RUNS_ALONE.contains(&name) {
        return not_command(false, "a lone word");
    }
    let plausible = PROGRAM_NAME.is_match(name) && !CODE_WORDS.contains(&name);
    if plausible && !NEVER_PROGRAMS.contains(&name) && env.on_path(name) {
        if syntax || alone {
            return Ok(named("on PATH"));
        }
        return not_command(
            false,
            format!("`{name}` is on PATH, but the rest is plain words"),
        );
    }
    // What still reads as a command line: flags and pipes, a wrapper
    // (`sudo ufw status`), a script's name (`quality.sh owasp`), or a
    // program and its subcommand (`tauri dev`, `intent update`).
    let wrapped = argv.len() < cmd.argv.len();
    let script =
        extension(name).is_some_and(|e| matches!(e.as_str(), "sh" | "py" | "js" | "rb" | "pl"));
    not_command(
        plausible && !sentence(argv) && (syntax || wrapped || script || subcommand(argv)),
        format!("`{name}` is not a shell builtin, not on PATH and not a known tool"),
    )
}

/// Whether words are a program and its subcommand (`ufw status`,
/// `cloudflared tunnel list`): two to four lowercase words, none of them a
/// word of a sentence.
fn subcommand(argv: &[shell::Arg]) -> bool {
    static WORD: LazyLock<Regex> = LazyLock::new(|| re(r"^[a-z][a-z0-9_:-]*$"));
    const SENTENCE: &[&str] = &[
        "a", "an", "the", "and", "or", "not", "no", "if", "is", "are", "to", "of", "in", "on",
        "for", "with", "then", "else", "true", "false", "as", "foo", "bar", "passed", "failed",
        "fail", "pass", "ok",
    ];
    (2..=4).contains(&argv.len())
        && argv
            .iter()
            .all(|a| WORD.is_match(&a.text) && !SENTENCE.contains(&a.text.as_str()))
}

/// The words from the program a wrapper runs (`env X=1 cargo test` →
/// `cargo test`); the words themselves when there is no wrapper, or nothing
/// after it (`env` alone prints the environment).
fn unwrapped(argv: &[shell::Arg]) -> &[shell::Arg] {
    static SKIP: LazyLock<Regex> = LazyLock::new(|| re(r"^(?:-.*|\w+=.*|\d+(?:\.\d+)?[smhd]?)$"));
    let mut i = 0;
    while argv.get(i).is_some_and(|a| {
        matches!(
            a.text.as_str(),
            "env" | "sudo" | "time" | "timeout" | "nice" | "nohup"
        )
    }) {
        let mut j = i + 1;
        while argv.get(j).is_some_and(|a| SKIP.is_match(&a.text)) {
            j += 1;
        }
        if j >= argv.len() {
            break;
        }
        i = j;
    }
    &argv[i..]
}

/// Whether a "command" is an expression from the code (`x = 12`,
/// `saved_version < 2` is a redirect to the shell, `>= 3`).
fn expression(argv: &[shell::Arg]) -> bool {
    argv.iter().skip(1).any(|a| {
        matches!(
            a.text.as_str(),
            "=" | "==" | "===" | "!=" | "!==" | ":=" | "+=" | "-=" | "=>" | "->" | "<=" | ">="
        )
    })
}

/// Whether a command's words read as a sentence (`Check file exists at
/// src/a.ts and exports X`): mostly plain words, a path among them at most.
fn sentence(argv: &[shell::Arg]) -> bool {
    static WORD: LazyLock<Regex> = LazyLock::new(|| re(r"^\p{L}[\p{L}'’]*[,.;:!?]?$"));
    let words = argv.iter().filter(|a| WORD.is_match(&a.text)).count();
    let flags = argv.iter().any(|a| a.text.starts_with('-'));
    !flags && words >= 4 && words * 3 >= argv.len() * 2
}

/// A program given as a path (`./scripts/check.sh`, `venv/bin/python`).
fn path_program(name: &str, args: usize, origin: Origin, env: &Env) -> Result<String, NotCommand> {
    let resolved = env.resolve(name);
    if resolved.as_deref().is_some_and(executable) {
        return Ok(format!("`{name}` is an executable file"));
    }
    let ext = extension(name.rsplit('/').next().unwrap_or(name));
    let script_ext = ext.as_deref().is_some_and(|e| {
        matches!(
            e,
            "sh" | "bash"
                | "zsh"
                | "py"
                | "rb"
                | "pl"
                | "js"
                | "mjs"
                | "cjs"
                | "php"
                | "exe"
                | "ps1"
                | "bat"
                | "cmd"
        )
    });
    let no_ext = ext.is_none() && !name.ends_with('/');
    let with_args = args > 0 || origin == Origin::Automated;
    let outside = name.starts_with('/') || name.starts_with('~') || name.contains(":/");
    if outside {
        // Outside the project: it is there now, or the check can never run.
        return not_command(
            script_ext || (no_ext && with_args),
            format!("`{name}` does not exist on this machine"),
        );
    }
    // `./deploy.sh` is run as it is; `./gradlew test` with its arguments.
    // A lone `./types` is an import path. A script the plan is to write may
    // not exist yet: the `./` and the arguments are the evidence.
    let dot = name.starts_with("./") || name.starts_with("../");
    if (dot && script_ext) || ((script_ext || no_ext) && with_args) {
        return Ok(format!("`{name}` is run as a program"));
    }
    not_command(false, format!("`{name}` is a path, not a program"))
}

/// Whether a command's text has the marks of a command line: flags, more
/// than one command, redirects, pipes, assignments, paths as arguments.
fn command_line_syntax(s: &str, cmds: &[shell::SimpleCommand]) -> bool {
    if cmds.len() > 1 || cmds.iter().any(|c| !c.redirects.is_empty()) {
        return true;
    }
    if s.contains("&&") || s.contains("||") || s.contains('|') || s.contains(';') {
        return true;
    }
    cmds.iter().flat_map(|c| c.argv.iter().skip(1)).any(|a| {
        let t = a.text.as_str();
        (t.starts_with('-') && t.len() > 1 && !t.starts_with("- "))
            || t.contains('/')
            || t.contains('=')
            || a.dynamic
    })
}

/// The extension of a file name (`a.test.ts` → `ts`), lowercased.
fn extension(name: &str) -> Option<String> {
    let (stem, ext) = name.rsplit_once('.')?;
    if ext.is_empty() || !ext.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    if stem.is_empty() {
        // A dotfile: `.env`, `.gitignore`.
        return Some(ext.to_ascii_lowercase());
    }
    Some(ext.to_ascii_lowercase())
}

/// Why a single token reads as a file or folder name, if it does.
fn path_shape(s: &str) -> Option<String> {
    if s.contains("://")
        || s.starts_with('@')
        || s.starts_with('-')
        || s.contains(['(', ')', '=', '"', '\'', ',', ';', '|', '\\', '`', '$'])
    {
        return None;
    }
    let windows = s.len() > 2 && s.as_bytes()[1] == b':' && s.as_bytes()[0].is_ascii_alphabetic();
    if s.contains(':') && !windows {
        return None;
    }
    let last = s.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    let ext = extension(last);
    let known_ext = ext.as_deref().is_some_and(|e| FILE_EXTS.contains(&e));
    if s.contains('/') {
        if s.ends_with('/') && s.len() > 1 {
            return Some("a folder name".into());
        }
        if ext.is_some() {
            return Some("a file name".into());
        }
        let first = s.trim_start_matches("./").split('/').next().unwrap_or("");
        let segments = s.split('/').filter(|x| !x.is_empty()).count();
        if segments >= 3
            || TOP_DIRS.contains(&first)
            || s.starts_with("./")
            || s.starts_with("../")
            || s.starts_with('.')
            || s.starts_with('~')
            || windows
        {
            return Some("a path".into());
        }
        return None;
    }
    if FILE_NAMES.contains(&s) {
        return Some("a file name".into());
    }
    if let Some(rest) = s.strip_prefix('.') {
        // `.env.local`, `.eslintrc.json`, `.npmrc`: not `.footer-copyright`
        // (a CSS class) or `.cshtml` (an extension).
        let head = rest.split('.').next().unwrap_or("");
        let name = format!(".{head}");
        let dotfile = DOTFILES.contains(&name.as_str())
            || (head.ends_with("rc") && head.len() > 2)
            || (rest.contains('.')
                && known_ext
                && head
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        return dotfile.then(|| "a dotfile's name".into());
    }
    let stem = s.split('.').next().unwrap_or("");
    if known_ext && !RECEIVERS.contains(&stem) && !stem.is_empty() {
        return Some("a file name".into());
    }
    None
}

/// Whether multi-word text reads as code rather than words.
fn code_like(s: &str) -> bool {
    static KEY_VALUE: LazyLock<Regex> = LazyLock::new(|| re(r"^[\w.\[\]-]+:\s"));
    let first = s.split_whitespace().next().unwrap_or("");
    KEY_VALUE.is_match(s)
        || CODE_WORDS.contains(&first)
        || first == "export"
        || first.starts_with('@')
        || (first.starts_with('.') && first[1..].starts_with(|c: char| c.is_ascii_alphabetic()))
        || EXPRESSION.is_match(s)
        || s.contains([
            '(', ')', '{', '}', '[', ']', '=', '"', '\'', '<', '>', '|', '\\', '$', '#', '`',
        ])
        || s.contains("::")
        || s.contains("->")
}

/// Whether gsd may check a path itself: inside the project, no pattern.
fn probeable(path: &str) -> Result<(), &'static str> {
    if path.starts_with('/') || path.starts_with('~') || path.contains(":/") || path.contains(":\\")
    {
        return Err("it is outside the project");
    }
    if path.split('/').any(|c| c == "..") {
        return Err("it is outside the project");
    }
    if path.contains(['*', '?', '[', ']', '{', '}', '<', '>', '$']) {
        return Err("it is a pattern, not one file");
    }
    Ok(())
}

/// Whether a text a file is said to contain is literal (no `...`, no
/// `<placeholder>`): only then can "contains" be checked byte for byte.
fn literal(t: &str) -> bool {
    static PLACEHOLDER: LazyLock<Regex> =
        LazyLock::new(|| re(r"<[A-Za-z_ -]+>|\{[a-z_]+\}|\.\.\.|…"));
    !t.trim().is_empty() && !PLACEHOLDER.is_match(t)
}

/// A text a file is said to contain, as gsd checks it: literal (no `...`,
/// no `<placeholder>`, not a bare number — "has `3` entries" is a count), a
/// plain name when the verb is "exports", and `f()` checked as `f` (the
/// real call may take arguments).
fn needle(t: &str, names_only: bool) -> Option<String> {
    static NAME: LazyLock<Regex> = LazyLock::new(|| re(r"^[A-Za-z_$][\w$]*$"));
    let t = t.strip_suffix("()").unwrap_or(t);
    if !literal(t)
        || t.chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return None;
    }
    if names_only && !NAME.is_match(t) {
        return None;
    }
    Some(t.to_owned())
}

/// A backticked span: its text and the byte offsets of its backticks.
#[derive(Debug, Clone)]
struct Span {
    text: String,
    open: usize,
    close: usize,
}

/// The backticked spans of `text`, paired exactly as
/// [`crate::model::task::backticked`] pairs them (so the same texts become
/// checks), with where they are.
fn spans(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(a) = text[from..].find('`').map(|a| from + a) {
        let Some(b) = text[a + 1..].find('`').map(|b| a + 1 + b) else {
            break;
        };
        let inner = text[a + 1..b].trim();
        if !inner.is_empty() && !inner.contains('\n') {
            out.push(Span {
                text: decode_entities(inner),
                open: a,
                close: b,
            });
        }
        from = b + 1;
    }
    out
}

/// The checks of a prose block (a `<verify>` without `<automated>`, a
/// `<verification>`): its backticked spans, each classified, with the words
/// around them read for two things only — a file said to exist
/// ("`hello.txt` exists", "File exists: `a.rs`") gets an existence probe,
/// and a file said to contain backticked text ("`a.rs` contains `fn main`",
/// "`a.ts` existe et contient `X`, `Y`") becomes one content check.
pub fn from_block(text: &str, env: &Env) -> Vec<Found> {
    let spans = spans(text);
    let mut class: Vec<Classified> = spans
        .iter()
        .map(|s| classify(&s.text, Origin::Span, env))
        .collect();
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |at: usize| text[at..].find('\n').map_or(text.len(), |i| at + i);
    // The text between span i and the next span on its line (or the line's end).
    let after = |i: usize| -> &str {
        let from = spans[i].close + 1;
        let end = line_end(from);
        match spans.get(i + 1) {
            Some(n) if n.open < end => &text[from..n.open],
            _ => &text[from..end],
        }
    };
    // The rest of span i's line.
    let rest = |i: usize| &text[spans[i].close + 1..line_end(spans[i].close + 1)];
    let next_on_line = |i: usize| {
        spans
            .get(i + 1)
            .is_some_and(|n| n.open < line_end(spans[i].close))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < spans.len() {
        let is_file = class[i].kind == CheckKind::File;
        let path = spans[i].text.as_str();
        let before = &text[line_start(spans[i].open)..spans[i].open];
        let conditional = VETO_BEFORE.is_match(before);
        // `a.rs` contains `X`[, `Y` and `Z`]
        let verb = (is_file && next_on_line(i))
            .then(|| CONTAINS.captures(after(i)))
            .flatten()
            .and_then(|c| c.name("verb").map(|v| v.as_str().to_lowercase()));
        if let Some(verb) = verb
            && !path.ends_with('/')
            && probeable(path).is_ok()
            && !conditional
        {
            // `exports X` names X, which must then be a plain name.
            let names_only = verb.starts_with("export") || verb.starts_with("define");
            let mut needles = Vec::new();
            let mut j = i;
            while let Some(t) = (j == i || (next_on_line(j) && SEPARATOR.is_match(after(j))))
                .then(|| spans.get(j + 1))
                .flatten()
                .filter(|n| j == i || n.open < line_end(spans[j].close))
                .and_then(|n| needle(&n.text, names_only))
            {
                needles.push(t);
                j += 1;
            }
            if !needles.is_empty() && !VETO_REST.is_match(rest(j)) {
                let probe = Probe::Contains {
                    path: path.to_owned(),
                    text: needles,
                };
                out.push(Found {
                    text: text[spans[i].open..=spans[j].close].to_owned(),
                    class: Classified {
                        kind: CheckKind::Content,
                        why: format!("the text says what the file contains: {}", probe.describe()),
                        probe: Some(probe),
                    },
                });
                i = j + 1;
                continue;
            }
        }
        // `a.rs`[, `b.rs` and `c.rs`] exist(s); File exists: `a.rs`
        if is_file {
            let mut j = i;
            while next_on_line(j)
                && SEPARATOR.is_match(after(j))
                && class[j + 1].kind == CheckKind::File
            {
                j += 1;
            }
            let says_exists = !conditional
                && !VETO_REST.is_match(rest(j))
                && (EXISTS_AFTER.is_match(after(j)) || (i == j && EXISTS_BEFORE.is_match(before)));
            for k in i..=j {
                let p = spans[k].text.as_str();
                let c = &mut class[k];
                match (says_exists, probeable(p)) {
                    (true, Ok(())) => {
                        let probe = Probe::Exists { path: p.to_owned() };
                        c.why = format!("the text says it exists: {}", probe.describe());
                        c.probe = Some(probe);
                    }
                    (true, Err(why)) => c.why = format!("the text says it exists, but {why}"),
                    (false, _) => c.why = format!("{}; the text does not say it must exist", c.why),
                }
                out.push(Found {
                    text: spans[k].text.clone(),
                    class: c.clone(),
                });
            }
            i = j + 1;
            continue;
        }
        out.push(Found {
            text: spans[i].text.clone(),
            class: class[i].clone(),
        });
        i += 1;
    }
    out
}

/// The checks of one `<automated>` element: usually one command. XML
/// escapes are decoded (`&amp;&amp;` means `&&`), and an element that is
/// prose with backticked commands inside is read like a prose block.
pub fn from_automated(text: &str, env: &Env) -> Vec<Found> {
    let text = decode_entities(text.trim());
    let class = classify(&text, Origin::Automated, env);
    if class.kind != CheckKind::Command && class.kind != CheckKind::Missing && text.contains('`') {
        let inner = from_block(&text, env);
        if !inner.is_empty() {
            return inner;
        }
    }
    vec![Found { text, class }]
}

/// The five XML escapes, as GSD's templates write them inside `<automated>`.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_owned();
    }
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> (tempfile::TempDir, Env) {
        let t = tempfile::tempdir().unwrap();
        let e = Env::with_path(t.path(), Vec::new());
        (t, e)
    }

    fn kind(s: &str) -> CheckKind {
        let (_t, e) = env();
        classify(s, Origin::Span, &e).kind
    }

    #[test]
    fn kinds_of_single_texts() {
        use CheckKind::*;
        for (s, k) in [
            ("npm test", Command),
            ("cargo test -p x", Command),
            ("./scripts/check.sh", Command),
            ("hello.txt", File),
            ("src/components/", File),
            ("GET /api/users", Route),
            ("SELECT id FROM users WHERE x = 1", Sql),
            ("MISSING — Wave 0 must create tests/a.test.ts", Missing),
            ("deleteGarden", Identifier),
            ("getDocs()", Identifier),
            ("the build passes", Prose),
            ("feedship report --since 2026-04-01", NotFound),
            ("npm", Identifier),
            ("make", Command),
        ] {
            assert_eq!(kind(s), k, "{s}");
        }
    }

    #[test]
    fn path_evidence() {
        let t = tempfile::tempdir().unwrap();
        let bin = t.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let tool = bin.join("frobnicate");
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        let with = Env::with_path(t.path(), vec![bin.clone()]);
        let without = Env::with_path(t.path(), Vec::new());
        let s = "frobnicate --all";
        assert_eq!(classify(s, Origin::Span, &with).kind, CheckKind::Command);
        assert_eq!(
            classify(s, Origin::Span, &without).kind,
            CheckKind::NotFound
        );
        // A script in the project, run without `./`.
        assert_eq!(
            classify("bin/frobnicate", Origin::Span, &with).kind,
            CheckKind::Command
        );
        // On PATH but followed by plain words: not a command.
        assert_eq!(
            classify("frobnicate the widgets", Origin::Span, &with).kind,
            CheckKind::Prose
        );
    }

    #[test]
    fn content_and_existence_from_the_words_around() {
        let (_t, e) = env();
        let f = from_block(
            "- `src/a.rs` contains `fn main`\n- `hello.txt` exists\n- `old.txt` is gone\n- `b.ts` existe et contient `X`, `Y` et `Z`",
            &e,
        );
        let got: Vec<(&str, CheckKind, Option<&Probe>)> = f
            .iter()
            .map(|f| (f.text.as_str(), f.class.kind, f.class.probe.as_ref()))
            .collect();
        assert_eq!(got.len(), 4, "{got:#?}");
        assert_eq!(got[0].0, "`src/a.rs` contains `fn main`");
        assert_eq!(
            got[0].2,
            Some(&Probe::Contains {
                path: "src/a.rs".into(),
                text: vec!["fn main".into()]
            })
        );
        assert_eq!(
            got[1].2,
            Some(&Probe::Exists {
                path: "hello.txt".into()
            })
        );
        assert_eq!((got[2].1, got[2].2), (CheckKind::File, None));
        assert_eq!(got[3].1, CheckKind::Content);
        assert_eq!(
            got[3].2,
            Some(&Probe::Contains {
                path: "b.ts".into(),
                text: vec!["X".into(), "Y".into(), "Z".into()]
            })
        );
        // Negated or placeholder texts are not checked.
        let f = from_block(
            "`a.rs` does not contain `unsafe`; `b.rs` contains `fn ...`",
            &e,
        );
        assert!(f.iter().all(|f| f.class.probe.is_none()), "{f:#?}");
    }

    #[test]
    fn probes_check_the_tree() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join("src/deep")).unwrap();
        std::fs::write(t.path().join("src/deep/hello.txt"), "fn main() {}").unwrap();
        let exists = |p: &str| Probe::Exists { path: p.into() }.check(t.path());
        assert!(exists("src/deep/hello.txt").is_ok());
        assert!(exists("hello.txt").is_ok(), "a bare name is found anywhere");
        assert_eq!(
            exists("src/hello.txt").unwrap_err(),
            "no such file: src/hello.txt"
        );
        let contains = |p: &str, x: &str| {
            Probe::Contains {
                path: p.into(),
                text: vec![x.into()],
            }
            .check(t.path())
        };
        assert!(contains("src/deep/hello.txt", "fn main").is_ok());
        assert_eq!(
            contains("hello.txt", "fn other").unwrap_err(),
            "hello.txt does not contain `fn other`"
        );
    }

    #[test]
    fn automated_entities_and_embedded_commands() {
        let (_t, e) = env();
        let f = from_automated("test -f a &amp;&amp; grep -q x a", &e);
        assert_eq!(f[0].text, "test -f a && grep -q x a");
        assert_eq!(f[0].class.kind, CheckKind::Command);
        let f = from_automated("1. Type check: `npx tsc --noEmit`\n2. Renders", &e);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].text, "npx tsc --noEmit");
    }
}
