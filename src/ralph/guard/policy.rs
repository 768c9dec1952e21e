//! The guard's policy: which commands and paths an unattended agent may not
//! touch. Every simple command of a Bash call is checked (after unwrapping
//! `env`, `timeout`, `xargs`, `find -exec`, `bash -c`, `eval`, …), so a
//! dangerous command cannot hide behind an allowed first word.
//!
//! Configured in config.json under `ralph.guard`:
//! `{"strict": true, "allow_commands": [], "deny_commands": [], "deny_paths": [], "allow_paths": []}`.

use std::path::{Component, Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;

use super::shell::{Arg, SimpleCommand};

/// How deep `bash -c` / `eval` / wrapper chains are followed.
const MAX_DEPTH: usize = 8;

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PolicyConfig {
    /// Deny a command the parser cannot read, or whose name is only known
    /// when it runs (`$CMD args`, `eval "$X"`).
    pub strict: bool,
    /// When not empty, every command run must be one of these names.
    pub allow_commands: Vec<String>,
    /// Command names that are always denied, on top of the built-in rules.
    pub deny_commands: Vec<String>,
    /// Extra globs of paths no tool may read or write (`**/prod.tfvars`).
    pub deny_paths: Vec<String>,
    /// Globs let through although a sensitive pattern matches.
    pub allow_paths: Vec<String>,
}

impl Default for PolicyConfig {
    fn default() -> Self {
        PolicyConfig {
            strict: true,
            allow_commands: Vec::new(),
            deny_commands: Vec::new(),
            deny_paths: Vec::new(),
            allow_paths: Vec::new(),
        }
    }
}

/// A compiled policy.
pub struct Policy {
    pub config: PolicyConfig,
    deny_globs: GlobSet,
    allow_globs: GlobSet,
    home: Option<String>,
}

/// The guard's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Deny(String),
}

type Check = Result<(), String>;

fn globs(patterns: &[String]) -> Result<GlobSet, String> {
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        b.add(Glob::new(p).map_err(|e| format!("bad glob `{p}`: {e}"))?);
    }
    b.build().map_err(|e| e.to_string())
}

/// Shells and interpreters that run code given to them as text or on stdin.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "python", "python2", "python3",
    "perl", "ruby", "node", "php", "lua", "eval", "source", ".",
];
const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh"];
const DOWNLOADERS: &[&str] = &["curl", "wget", "fetch", "aria2c", "http", "https", "xh"];
const ESCALATION: &[&str] = &["sudo", "doas", "su", "pkexec", "run0", "sudoedit"];
const POWER: &[&str] = &["shutdown", "reboot", "halt", "poweroff"];
/// System trees an agent never writes to.
const PROTECTED: &[&str] = &[
    "/etc",
    "/usr",
    "/bin",
    "/sbin",
    "/boot",
    "/lib",
    "/lib32",
    "/lib64",
    "/sys",
    "/proc",
    "/var",
    "/opt",
    "/root",
    "/System",
    "/Library",
    "/private/etc",
];
/// Writable device files that are not disks.
const HARMLESS_DEVICES: &[&str] = &["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"];

impl Policy {
    pub fn new(config: PolicyConfig) -> Result<Policy, String> {
        Ok(Policy {
            deny_globs: globs(&config.deny_paths)?,
            allow_globs: globs(&config.allow_paths)?,
            config,
            home: std::env::var("HOME").ok().filter(|h| h.len() > 1),
        })
    }

    /// The policy of `config.json`'s `ralph.guard` (defaults when absent).
    pub fn from_json(v: Option<&serde_json::Value>) -> Result<Policy, String> {
        let config = match v {
            None => PolicyConfig::default(),
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| format!("config.json ralph.guard: {e}"))?,
        };
        Policy::new(config)
    }

    /// Check a Bash tool call run in `cwd`.
    pub fn check_bash(&self, command: &str, cwd: &Path) -> Decision {
        match self.script(command, cwd, 0) {
            Ok(()) => Decision::Allow,
            Err(why) => Decision::Deny(why),
        }
    }

    /// Check a file tool (Read, Edit, Write, …) on `path`.
    pub fn check_path(&self, path: &str, cwd: &Path) -> Decision {
        match self.sensitive(path, cwd) {
            Some(why) => Decision::Deny(why),
            None => Decision::Allow,
        }
    }

    fn script(&self, script: &str, cwd: &Path, depth: usize) -> Check {
        if depth > MAX_DEPTH {
            return Err(format!("commands nested more than {MAX_DEPTH} levels deep"));
        }
        let cmds = match super::shell::parse(script) {
            Ok(p) => {
                if let Some(f) = p.self_calling.first() {
                    return Err(format!(
                        "the function `{f}` calls itself (the shape of a fork bomb)"
                    ));
                }
                p.commands
            }
            Err(e) if self.config.strict => {
                return Err(format!(
                    "the command cannot be parsed ({e}); strict mode denies what it cannot read"
                ));
            }
            Err(_) => return Ok(()),
        };
        self.pipelines(&cmds)?;
        for c in &cmds {
            self.command(c, cwd, depth)?;
        }
        Ok(())
    }

    /// A download piped into an interpreter (`curl … | sh`); in strict mode,
    /// anything piped into an interpreter that reads its program from stdin
    /// (`… | base64 -d | bash`, `printf … | python3 -`): that code is known
    /// only when it runs.
    fn pipelines(&self, cmds: &[SimpleCommand]) -> Check {
        for (i, a) in cmds.iter().enumerate() {
            if !is_one_of(&effective_name(&a.argv), DOWNLOADERS) {
                continue;
            }
            for b in &cmds[i + 1..] {
                if b.pipeline == a.pipeline
                    && b.position > a.position
                    && is_one_of(&effective_name(&b.argv), INTERPRETERS)
                {
                    return Err(format!(
                        "`{}` pipes a download into `{}`: downloaded code is never run unread",
                        a.name(),
                        effective_name(&b.argv)
                    ));
                }
            }
        }
        if self.config.strict {
            for b in cmds.iter().filter(|b| b.position > 0) {
                let name = effective_name(&b.argv);
                if is_one_of(&name, INTERPRETERS) && reads_program_from_stdin(&b.argv) {
                    return Err(format!(
                        "`{name}` runs code piped into it, known only when it runs; strict mode denies it"
                    ));
                }
            }
        }
        Ok(())
    }

    fn command(&self, c: &SimpleCommand, cwd: &Path, depth: usize) -> Check {
        self.pipelines(&c.substituted)?;
        for s in &c.substituted {
            self.command(s, cwd, depth)?;
        }
        let name = effective_name(&c.argv);
        if is_one_of(&name, INTERPRETERS) && any_download(&c.substituted) {
            return Err(format!(
                "`{name}` runs code produced by a download (`$(curl …)` or `<(curl …)`)"
            ));
        }
        for r in &c.redirects {
            if r.write {
                self.writable(&r.target, cwd, "redirects output to")?;
            } else if let Some(why) = self.sensitive(&r.target.text, cwd) {
                return Err(why);
            }
        }
        self.argv(&c.argv, cwd, depth)
    }

    /// One command line, then whatever it wraps.
    fn argv(&self, argv: &[Arg], cwd: &Path, depth: usize) -> Check {
        if depth > MAX_DEPTH {
            return Err(format!("commands nested more than {MAX_DEPTH} levels deep"));
        }
        let Some(first) = argv.first() else {
            return Ok(());
        };
        let name = basename(&first.text).to_owned();
        let args = &argv[1..];
        if first.dynamic && self.config.strict {
            return Err(format!(
                "the command name `{}` is only known when it runs; strict mode denies it",
                first.text
            ));
        }
        if is_one_of(&name, ESCALATION) {
            return Err(format!(
                "`{name}` escalates privileges; an unattended agent never runs as root"
            ));
        }
        if self.config.deny_commands.contains(&name) {
            return Err(format!(
                "`{name}` is denied by config.json ralph.guard.deny_commands"
            ));
        }
        let wrapped = unwrap(&name, args);
        if !self.config.allow_commands.is_empty()
            && wrapped.is_none()
            && !self.config.allow_commands.contains(&name)
        {
            return Err(format!(
                "`{name}` is not in config.json ralph.guard.allow_commands"
            ));
        }
        for a in args {
            if let Some(why) = self.sensitive(&a.text, cwd) {
                return Err(why);
            }
        }
        self.rules(&name, args, cwd)?;
        // Code given as text to a shell or to eval.
        if is_one_of(&name, SHELLS)
            && let Some(i) = args.iter().position(|a| is_c_flag(&a.text))
        {
            return match args.get(i + 1) {
                Some(code) if code.dynamic && self.config.strict => Err(format!(
                    "`{name} -c` runs code that is only known when it runs; strict mode denies it"
                )),
                Some(code) => self.script(&code.text, cwd, depth + 1),
                None => Ok(()),
            };
        }
        if name == "eval" {
            if args.iter().any(|a| a.dynamic) && self.config.strict {
                return Err(
                    "`eval` runs code that is only known when it runs; strict mode denies it"
                        .into(),
                );
            }
            let code: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
            return self.script(&code.join(" "), cwd, depth + 1);
        }
        if let Some(inner) = wrapped {
            // `env -S 'cmd args'` (also `-S'…'`, `--split-string=…`): the
            // string is split into the command, before the words after it.
            if name == "env"
                && let Some(code) = env_split_string(args)
            {
                let rest: Vec<&str> = inner.iter().map(|a| a.text.as_str()).collect();
                let script = if rest.is_empty() {
                    code
                } else {
                    format!("{code} {}", rest.join(" "))
                };
                return self.script(&script, cwd, depth + 1);
            }
            if inner.is_empty() {
                return Ok(());
            }
            return self.argv(&inner, cwd, depth + 1);
        }
        if name == "find" {
            let roots: Vec<&Arg> = args
                .iter()
                .take_while(|a| !a.text.starts_with('-'))
                .collect();
            if args.iter().any(|a| a.text == "-delete") {
                for r in &roots {
                    if let Some(what) = self.catastrophic(r, cwd) {
                        return Err(format!("`find -delete` over {what} would destroy it"));
                    }
                    self.writable(r, cwd, "deletes in")?;
                }
            }
            for inner in find_exec(args) {
                // A deleting `-exec` over a home or top-level folder is
                // `rm -r` of it, whatever the filters say.
                let deletes = inner.first().is_some_and(|c| {
                    matches!(basename(&c.text), "rm" | "shred" | "unlink" | "rmdir")
                });
                if deletes {
                    for r in &roots {
                        if let Some(what) = self.catastrophic(r, cwd) {
                            return Err(format!(
                                "`find -exec {}` over {what} would destroy it",
                                basename(&inner[0].text)
                            ));
                        }
                    }
                }
                self.argv(&inner, cwd, depth + 1)?;
            }
        }
        Ok(())
    }

    /// The built-in rules for one command.
    fn rules(&self, name: &str, args: &[Arg], cwd: &Path) -> Check {
        let (flags, operands) = split_flags(args);
        match name {
            "rm" => {
                let recursive = flags.iter().any(|f| {
                    *f == "--recursive"
                        || (!f.starts_with("--") && (f.contains('r') || f.contains('R')))
                });
                if flags.contains(&"--no-preserve-root") {
                    return Err("`rm --no-preserve-root` is never run".into());
                }
                for o in &operands {
                    if recursive && let Some(what) = self.catastrophic(o, cwd) {
                        return Err(format!("`rm -r` of {what} would destroy it"));
                    }
                    self.writable(o, cwd, "deletes")?;
                }
            }
            "chmod" | "chown" | "chgrp" => {
                let recursive = flags
                    .iter()
                    .any(|f| *f == "--recursive" || (!f.starts_with("--") && f.contains('R')));
                let (mode, targets) = operands
                    .split_first()
                    .map_or((None, &[][..]), |(m, t)| (Some(m), t));
                if name == "chmod" && mode.is_some_and(|m| world_writable(&m.text)) {
                    return Err(format!(
                        "`chmod {}` makes files writable by everyone",
                        mode.unwrap().text
                    ));
                }
                for t in targets {
                    if recursive && let Some(what) = self.catastrophic(t, cwd) {
                        return Err(format!("`{name} -R` of {what}"));
                    }
                    self.writable(t, cwd, "changes the owner or mode of")?;
                }
            }
            "tee" | "touch" | "mkdir" | "rmdir" | "truncate" | "shred" | "unlink" => {
                for o in &operands {
                    self.writable(o, cwd, "writes")?;
                }
            }
            "cp" | "mv" | "install" | "ln" | "rsync" | "scp" => {
                let target_dir = args
                    .windows(2)
                    .find(|w| w[0].text == "-t" || w[0].text == "--target-directory")
                    .map(|w| &w[1]);
                if let Some(dest) =
                    target_dir.or(operands.last().copied().filter(|_| operands.len() > 1))
                {
                    self.writable(dest, cwd, "writes")?;
                }
            }
            "sed" | "perl"
                if flags
                    .iter()
                    .any(|f| f.starts_with("-i") || *f == "--in-place") =>
            {
                for o in operands.iter().skip(1) {
                    self.writable(o, cwd, "edits")?;
                }
            }
            "dd" => {
                for a in args {
                    if let Some(out) = a.text.strip_prefix("of=") {
                        let arg = Arg {
                            text: out.into(),
                            dynamic: a.dynamic,
                        };
                        self.writable(&arg, cwd, "writes")?;
                    }
                }
            }
            n if n.starts_with("mkfs") || matches!(n, "fdisk" | "sfdisk" | "parted" | "wipefs") => {
                return Err(format!("`{n}` rewrites disks"));
            }
            n if is_one_of(n, POWER) => return Err(format!("`{n}` stops the machine")),
            "kill" if args.len() > 1 && args.last().is_some_and(|a| a.text == "-1") => {
                return Err("`kill … -1` signals every process".into());
            }
            "crontab" if flags.contains(&"-r") => {
                return Err("`crontab -r` deletes every cron job".into());
            }
            "git" => {
                let words: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
                if words.first() == Some(&"config")
                    && words
                        .iter()
                        .any(|w| *w == "core.hooksPath" || w.starts_with("alias."))
                {
                    return Err(
                        "`git config` of hooks or aliases changes what later commands run".into(),
                    );
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Refuse writes into system trees and to disk devices.
    fn writable(&self, target: &Arg, cwd: &Path, verb: &str) -> Check {
        let p = resolve(&self.expand_home(&target.text), cwd);
        let s = p.to_string_lossy();
        if s.starts_with("/dev/")
            && !HARMLESS_DEVICES.contains(&s.as_ref())
            && !s.starts_with("/dev/fd/")
        {
            return Err(format!("`{}` {verb} a device ({s})", target.text));
        }
        for root in PROTECTED {
            if s == *root || s.starts_with(&format!("{root}/")) {
                if *root == "/var" && (s.starts_with("/var/tmp") || s.starts_with("/var/folders")) {
                    continue;
                }
                return Err(format!(
                    "{verb} `{}` under {root}, a system directory",
                    target.text
                ));
            }
        }
        if let Some(why) = self.sensitive(&target.text, cwd) {
            return Err(why);
        }
        Ok(())
    }

    /// `/`, a top-level system directory, or a home directory (and globs of them).
    fn catastrophic(&self, target: &Arg, cwd: &Path) -> Option<String> {
        let raw = target.text.trim_end_matches('/');
        let raw = raw.strip_suffix("/*").unwrap_or(raw);
        if raw.is_empty() || raw == "*" && cwd == Path::new("/") {
            return Some("/".into());
        }
        let expanded = self.expand_home(raw);
        if matches!(raw, "~" | "$HOME") || self.home.as_deref() == Some(expanded.as_str()) {
            return Some("the home directory".into());
        }
        let p = resolve(&expanded, cwd);
        let s = p.to_string_lossy();
        if s == "/" {
            return Some("/".into());
        }
        if p.components().count() <= 2
            || s.starts_with("/home/") && p.components().count() == 3
            || s.starts_with("/Users/") && p.components().count() == 3
        {
            return Some(s.to_string());
        }
        if !target.dynamic
            && raw == "."
            && (cwd == Path::new("/") || self.home.as_deref().map(Path::new) == Some(cwd))
        {
            return Some(cwd.display().to_string());
        }
        None
    }

    fn expand_home(&self, text: &str) -> String {
        let home = self.home.as_deref().unwrap_or("/root");
        for prefix in ["~", "$HOME", "${HOME}"] {
            if text == prefix {
                return home.to_owned();
            }
            if let Some(rest) = text.strip_prefix(prefix).and_then(|r| r.strip_prefix('/')) {
                return format!("{home}/{rest}");
            }
        }
        text.to_owned()
    }

    /// Secrets: `.env` files, keys, credentials (and config.json's deny_paths).
    fn sensitive(&self, path: &str, cwd: &Path) -> Option<String> {
        let path = path.replace('\\', "/");
        let abs = resolve(&self.expand_home(&path), cwd);
        let rel = abs
            .strip_prefix(cwd)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| abs.clone());
        if self.allow_globs.is_match(&abs) || self.allow_globs.is_match(&rel) {
            return None;
        }
        if self.deny_globs.is_match(&abs) || self.deny_globs.is_match(&rel) {
            return Some(format!(
                "`{path}` matches config.json ralph.guard.deny_paths"
            ));
        }
        let name = abs.file_name()?.to_string_lossy().to_lowercase();
        let parent = abs
            .parent()
            .and_then(Path::file_name)
            .map(|p| p.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let env_file = name == ".env"
            || (name.starts_with(".env.")
                && !matches!(
                    &name[5..],
                    "example" | "sample" | "template" | "dist" | "defaults"
                ));
        let key = [
            ".pem",
            ".key",
            ".p12",
            ".pfx",
            ".jks",
            ".keystore",
            ".kdbx",
            ".ppk",
        ]
        .iter()
        .any(|e| name.ends_with(e));
        let ssh = (name.starts_with("id_") && !name.ends_with(".pub"))
            || parent == ".ssh"
                && name != "known_hosts"
                && name != "config"
                && !name.ends_with(".pub");
        let creds = matches!(
            name.as_str(),
            ".netrc"
                | ".pgpass"
                | ".git-credentials"
                | "credentials"
                | "credentials.json"
                | ".npmrc"
                | ".pypirc"
                | "secrets.yml"
                | "secrets.yaml"
                | "secrets.json"
                | "secrets.toml"
                | ".htpasswd"
        ) || parent == ".aws" && name == "config"
            || parent == ".kube" && name == "config"
            || parent == ".docker" && name == "config.json"
            || parent == ".gnupg"
            || matches!(name.as_str(), ".ssh" | ".gnupg" | ".aws");
        (env_file || key || ssh || creds).then(|| format!("`{path}` holds secrets (keys, credentials or .env); the guard keeps agents away from it"))
    }
}

fn is_one_of(name: &str, set: &[&str]) -> bool {
    set.contains(&name)
        || set.iter().any(|s| {
            name.starts_with(s)
                && s.starts_with("python")
                && name[s.len()..]
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.')
        })
}

fn basename(s: &str) -> &str {
    s.rsplit('/').next().unwrap_or(s)
}

fn is_c_flag(s: &str) -> bool {
    s.starts_with('-') && !s.starts_with("--") && s.contains('c')
}

/// `-rf` and `--force` apart from the operands (everything after `--` is an operand).
fn split_flags(args: &[Arg]) -> (Vec<&str>, Vec<&Arg>) {
    let mut flags = Vec::new();
    let mut ops = Vec::new();
    let mut done = false;
    for a in args {
        if !done && a.text == "--" {
            done = true;
        } else if !done && a.text.starts_with('-') && a.text.len() > 1 && !a.dynamic {
            flags.push(a.text.as_str());
        } else {
            ops.push(a);
        }
    }
    (flags, ops)
}

/// `777`, `0666`, `a+w`, `o=rwx`: world-writable.
fn world_writable(mode: &str) -> bool {
    if !mode.is_empty() && mode.chars().all(|c| c.is_ascii_digit()) {
        return mode
            .chars()
            .last()
            .and_then(|c| c.to_digit(8))
            .is_some_and(|d| d & 2 != 0);
    }
    mode.split(',').any(|clause| {
        let who: String = clause.chars().take_while(|c| "ugoa".contains(*c)).collect();
        let rest = &clause[who.len()..];
        (who.contains('o') || who.contains('a'))
            && (rest.starts_with('+') || rest.starts_with('='))
            && rest.contains('w')
    })
}

/// The command a wrapper runs (`env X=1 cmd …` → `cmd …`), or `None` when
/// `name` is not a wrapper. `Some(vec![])` when the wrapper runs nothing.
fn unwrap(name: &str, args: &[Arg]) -> Option<Vec<Arg>> {
    // Options of each wrapper that take a value as the next word.
    let (with_value, positional): (&[&str], usize) = match name {
        "env" => (
            &["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
            0,
        ),
        "command" | "builtin" => (&[], 0),
        "exec" => (&["-a"], 0),
        "nohup" | "time" | "setsid" | "unbuffer" | "caffeinate" => (&[], 0),
        "nice" => (&["-n", "--adjustment"], 0),
        "ionice" => (&["-c", "-n", "--class", "--classdata"], 0),
        "stdbuf" => (&["-i", "-o", "-e"], 0),
        "timeout" => (&["-s", "--signal", "-k", "--kill-after"], 1),
        "watch" => (&["-n", "--interval", "-d"], 0),
        "flock" => (&["-w", "--timeout", "-E", "--conflict-exit-code"], 1),
        "chroot" => (&[], 1),
        "xargs" => (
            &[
                "-I",
                "-n",
                "-P",
                "-L",
                "-s",
                "-d",
                "-E",
                "-a",
                "--arg-file",
                "--max-args",
                "--max-procs",
                "--delimiter",
            ],
            0,
        ),
        _ => return None,
    };
    if matches!(name, "command") && args.iter().any(|a| a.text == "-v" || a.text == "-V") {
        return Some(Vec::new());
    }
    let mut i = 0;
    let mut positional = positional;
    while i < args.len() {
        let t = args[i].text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if t.starts_with('-') && t.len() > 1 {
            i += if with_value.contains(&t) { 2 } else { 1 };
            continue;
        }
        if name == "env" && t.contains('=') && !t.starts_with('=') {
            i += 1;
            continue;
        }
        if positional > 0 {
            positional -= 1;
            i += 1;
            continue;
        }
        break;
    }
    // `timeout -- 5 cmd`: the positional after `--`.
    while positional > 0 && i < args.len() {
        positional -= 1;
        i += 1;
    }
    Some(args.get(i..).unwrap_or_default().to_vec())
}

/// The string of `env -S STRING`, `-SSTRING` or `--split-string=STRING`.
fn env_split_string(args: &[Arg]) -> Option<String> {
    for (i, a) in args.iter().enumerate() {
        let t = a.text.as_str();
        if t == "-S" || t == "--split-string" {
            return args.get(i + 1).map(|a| a.text.clone());
        }
        if let Some(v) = t.strip_prefix("--split-string=") {
            return Some(v.to_owned());
        }
        if let Some(v) = t.strip_prefix("-S")
            && !v.is_empty()
        {
            return Some(v.to_owned());
        }
        if !t.starts_with('-') && !t.contains('=') {
            break; // the command: its own flags are not env's
        }
    }
    None
}

/// Whether an interpreter's command line leaves it reading its program
/// from stdin: no script operand (`bash`, `sh -s`, `python3 -`), no `-c`
/// / `-e` string.
fn reads_program_from_stdin(argv: &[Arg]) -> bool {
    let mut argv = argv.to_vec();
    // Through wrappers (`env X=1 bash`) to the interpreter itself.
    for _ in 0..MAX_DEPTH {
        let Some(first) = argv.first() else {
            return false;
        };
        match unwrap(basename(&first.text), &argv[1..]) {
            Some(inner) if !inner.is_empty() => argv = inner,
            _ => break,
        }
    }
    let name = argv.first().map_or("", |a| basename(&a.text));
    if matches!(name, "eval" | "source" | ".") {
        return false; // their code is their arguments
    }
    // Options that give the program as a string (a shell's `-e` is errexit).
    let inline: &[&str] = if is_one_of(name, SHELLS) {
        &["-c", "--command"]
    } else {
        &["-c", "-e", "-E", "-m", "-r", "--eval"]
    };
    for a in argv.iter().skip(1).map(|a| a.text.as_str()) {
        match a {
            "-" | "-s" => return true,
            _ if inline.contains(&a) => return false,
            _ if a.starts_with('-') => continue,
            _ => return false, // a script file
        }
    }
    true
}

/// `find … -exec cmd {} ;` → each `cmd {}`.
fn find_exec(args: &[Arg]) -> Vec<Vec<Arg>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if matches!(
            args[i].text.as_str(),
            "-exec" | "-execdir" | "-ok" | "-okdir"
        ) {
            let start = i + 1;
            let mut end = start;
            while end < args.len() && args[end].text != ";" && args[end].text != "+" {
                end += 1;
            }
            out.push(args[start..end].to_vec());
            i = end;
        }
        i += 1;
    }
    out
}

/// The name of what finally runs (`env X=1 nohup bash` → `bash`).
fn effective_name(argv: &[Arg]) -> String {
    let mut argv = argv.to_vec();
    for _ in 0..MAX_DEPTH {
        let Some(first) = argv.first() else {
            return String::new();
        };
        let name = basename(&first.text).to_owned();
        let inner = if is_one_of(&name, ESCALATION) {
            Some(
                argv[1..]
                    .iter()
                    .skip_while(|a| a.text.starts_with('-'))
                    .cloned()
                    .collect(),
            )
        } else {
            unwrap(&name, &argv[1..])
        };
        match inner {
            Some(i) if !i.is_empty() => argv = i,
            _ => return name,
        }
    }
    String::new()
}

fn any_download(cmds: &[SimpleCommand]) -> bool {
    cmds.iter()
        .any(|c| is_one_of(&effective_name(&c.argv), DOWNLOADERS) || any_download(&c.substituted))
}

/// `path` made absolute against `cwd`, with `.` and `..` folded away.
fn resolve(path: &str, cwd: &Path) -> PathBuf {
    let p = Path::new(path);
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    };
    let mut out = PathBuf::from("/");
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}
