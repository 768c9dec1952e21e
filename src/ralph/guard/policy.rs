//! The guard's policy: which commands and paths an unattended agent may not
//! touch. Every simple command of a Bash call is checked (after unwrapping
//! `env`, `timeout`, `xargs`, `find -exec`, `bash -c`, `eval`, …), so a
//! dangerous command cannot hide behind an allowed first word.
//!
//! Commands are judged as classes, not looked up in a list: a command is
//! checked in the directory the shell would be in and with the variables
//! it would hold ([`super::cwd`]), so `cd / && rm -rf *` is `rm -rf /*`;
//! a program given to an interpreter is read for what it deletes, moves,
//! writes or runs ([`super::interp`]); `git push` is judged by the branch
//! it rewrites ([`super::push`]); paths by what they are ([`super::paths`]).
//!
//! Configured in config.json under `ralph.guard`:
//! `{"strict": true, "allow_commands": [], "deny_commands": [], "deny_paths": [], "allow_paths": [], "protected_branches": […]}`.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;

use super::cwd::Shell;
use super::interp::{self, Effect, Lang};
use super::push::{self, Protected};
use super::shell::{Arg, Flow, Part, SimpleCommand};

/// How deep `bash -c` / `eval` / wrapper chains are followed.
const MAX_DEPTH: usize = 8;
/// How many simple commands one Bash call may have the guard look at
/// (loops and function calls are followed, so one may count several
/// times). Past it the call is denied: a guard that works until the hook
/// times out would let it through.
const MAX_STEPS: usize = 200_000;

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PolicyConfig {
    /// Deny a command the parser cannot read, or whose name is only known
    /// when it runs (`$CMD args`, `eval "$X"`), and a deletion whose target
    /// is only known when it runs and could be `/` or a home directory
    /// (`rm -rf "$DIR"/`, `shutil.rmtree(sys.argv[1])`).
    pub strict: bool,
    /// When not empty, every command run must be one of these names.
    pub allow_commands: Vec<String>,
    /// Command names that are always denied, on top of the built-in rules.
    pub deny_commands: Vec<String>,
    /// Extra globs of paths no tool may read or write (`**/prod.tfvars`).
    pub deny_paths: Vec<String>,
    /// Globs let through although a sensitive pattern matches.
    pub allow_paths: Vec<String>,
    /// Globs of branches no `git push` may force-update or delete; `main`
    /// and `master` are protected whatever this says.
    pub protected_branches: Vec<String>,
}

impl Default for PolicyConfig {
    fn default() -> Self {
        PolicyConfig {
            strict: true,
            allow_commands: Vec::new(),
            deny_commands: Vec::new(),
            deny_paths: Vec::new(),
            allow_paths: Vec::new(),
            protected_branches: push::DEFAULT_PROTECTED
                .iter()
                .map(|s| s.to_string())
                .collect(),
        }
    }
}

/// A compiled policy.
pub struct Policy {
    pub config: PolicyConfig,
    pub(super) deny_globs: GlobSet,
    pub(super) allow_globs: GlobSet,
    pub(super) home: Option<String>,
    protected: Protected,
}

/// The guard's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Deny(String),
}

pub(super) type Check = Result<(), String>;

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

/// Functions defined so far in a script, by name.
type Functions = BTreeMap<String, Flow>;

/// What all the checks of one Bash call share.
pub(super) struct Call {
    /// The directory the call starts in (the session's).
    pub(super) project: PathBuf,
    steps: Cell<usize>,
}

/// Where one command runs.
#[derive(Clone, Copy)]
pub(super) struct Cx<'a> {
    /// The shell's state: directory and variables.
    pub(super) sh: &'a Shell,
    pub(super) call: &'a Call,
    depth: usize,
    /// `NAME=value` words before the command: its environment.
    env: &'a [(String, Arg)],
}

impl Cx<'_> {
    fn deeper(self) -> Self {
        Cx {
            depth: self.depth + 1,
            ..self
        }
    }
}

/// The shell after a command succeeded and after it failed (`cd` moves only
/// when it succeeds; `&&` and `||` pick one).
struct Outcome {
    ok: Shell,
    fail: Shell,
}

impl Outcome {
    fn both(s: Shell) -> Outcome {
        Outcome {
            ok: s.clone(),
            fail: s,
        }
    }

    fn any(&self) -> Shell {
        self.ok.union(&self.fail)
    }

    fn union(&self, o: &Outcome) -> Outcome {
        Outcome {
            ok: self.ok.union(&o.ok),
            fail: self.fail.union(&o.fail),
        }
    }
}

impl Policy {
    pub fn new(config: PolicyConfig) -> Result<Policy, String> {
        Ok(Policy {
            deny_globs: globs(&config.deny_paths)?,
            allow_globs: globs(&config.allow_paths)?,
            protected: Protected::new(&config.protected_branches)?,
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
        let call = Call {
            project: cwd.to_path_buf(),
            steps: Cell::new(0),
        };
        let sh = Shell::new(cwd, self.home.clone());
        match self.script(command, &sh, &mut Functions::new(), &call, 0) {
            Ok(_) => Decision::Allow,
            Err(why) => Decision::Deny(why),
        }
    }

    /// Check a tool that reads (Read, Grep, Glob) `path`: only secrets are
    /// kept away.
    pub fn check_path(&self, path: &str, cwd: &Path) -> Decision {
        match self.sensitive(path, cwd) {
            Some(why) => Decision::Deny(why),
            None => Decision::Allow,
        }
    }

    /// Check a tool that writes (Write, Edit, MultiEdit, NotebookEdit)
    /// `path`: secrets, system trees, devices and the files a shell or git
    /// runs at start, like a shell command writing there.
    pub fn check_write(&self, path: &str, cwd: &Path) -> Decision {
        if let Some(why) = self.sensitive(path, cwd) {
            return Decision::Deny(why);
        }
        let normal = self.expand_home(&path.replace('\\', "/"));
        let abs = super::cwd::resolve(&normal, cwd);
        match self.writable_path(&abs, path, cwd, "the tool writes") {
            Ok(()) => Decision::Allow,
            Err(why) => Decision::Deny(why),
        }
    }

    /// Check `script` run in the shell `sh`; the shell after it.
    fn script(
        &self,
        script: &str,
        sh: &Shell,
        fns: &mut Functions,
        call: &Call,
        depth: usize,
    ) -> Result<Shell, String> {
        if depth > MAX_DEPTH {
            return Err(format!("commands nested more than {MAX_DEPTH} levels deep"));
        }
        let parsed = match super::shell::parse(script) {
            Ok(p) => {
                if let Some(f) = p.self_calling.first() {
                    return Err(format!(
                        "the function `{f}` calls itself (the shape of a fork bomb)"
                    ));
                }
                p
            }
            Err(e) if self.config.strict => {
                return Err(format!(
                    "the command cannot be parsed ({e}); strict mode denies what it cannot read"
                ));
            }
            Err(_) => return Ok(sh.clone()),
        };
        self.pipelines(&parsed.commands)?;
        Ok(self.run(&parsed.flow, sh.clone(), fns, call, depth)?.any())
    }

    /// Follow `flow` from the shell `sh`, checking each command in the
    /// shell it runs in.
    fn run(
        &self,
        flow: &Flow,
        sh: Shell,
        fns: &mut Functions,
        call: &Call,
        depth: usize,
    ) -> Result<Outcome, String> {
        Ok(match flow {
            Flow::Run(c) => self.step(c, sh, fns, call, depth)?,
            Flow::Seq(items) => {
                let mut out = Outcome::both(sh);
                for f in items {
                    out = self.run(f, out.any(), fns, call, depth)?;
                }
                out
            }
            Flow::AndOr(first, rest) => {
                let mut o = self.run(first, sh, fns, call, depth)?;
                for (and, f) in rest {
                    o = if *and {
                        let p = self.run(f, o.ok.clone(), fns, call, depth)?;
                        Outcome {
                            fail: o.fail.union(&p.fail),
                            ok: p.ok,
                        }
                    } else {
                        let p = self.run(f, o.fail.clone(), fns, call, depth)?;
                        Outcome {
                            ok: o.ok.union(&p.ok),
                            fail: p.fail,
                        }
                    };
                }
                o
            }
            Flow::Isolated(f) => {
                self.run(f, sh.clone(), fns, call, depth)?;
                Outcome::both(sh)
            }
            Flow::If(cond, then, otherwise) => {
                let c = self.run(cond, sh, fns, call, depth)?;
                let t = self.run(then, c.ok, fns, call, depth)?;
                let e = self.run(otherwise, c.fail, fns, call, depth)?;
                t.union(&e)
            }
            Flow::Either(arms) => {
                let mut all = sh.clone();
                for a in arms {
                    all = all.union(&self.run(a, sh.clone(), fns, call, depth)?.any());
                }
                Outcome::both(all)
            }
            Flow::Loop(body) => Outcome::both(self.repeat(body, sh, fns, call, depth)?),
            Flow::For(name, words, body) => {
                let mut s = sh;
                s.bind_loop(name, words.as_deref());
                Outcome::both(self.repeat(body, s, fns, call, depth)?)
            }
            Flow::Function(name, body) => {
                // Checked where it is defined too: a function can be run in
                // ways the guard does not follow (`trap`, `export -f`).
                self.run(body, sh.clone(), fns, call, depth)?;
                fns.insert(name.clone(), (**body).clone());
                Outcome::both(sh)
            }
        })
    }

    /// A loop body, run as many times as it takes for what it changes to
    /// settle (twice is enough: the shell after one pass is merged in).
    fn repeat(
        &self,
        body: &Flow,
        sh: Shell,
        fns: &mut Functions,
        call: &Call,
        depth: usize,
    ) -> Result<Shell, String> {
        let once = sh.union(&self.run(body, sh.clone(), fns, call, depth)?.any());
        if once == sh {
            return Ok(sh);
        }
        let twice = self.run(body, once.clone(), fns, call, depth)?.any();
        Ok(once.union(&twice))
    }

    /// One simple command: check it in `sh`, then what it changes in the shell.
    fn step(
        &self,
        c: &SimpleCommand,
        sh: Shell,
        fns: &mut Functions,
        call: &Call,
        depth: usize,
    ) -> Result<Outcome, String> {
        let n = call.steps.get() + 1;
        call.steps.set(n);
        if n > MAX_STEPS {
            return Err(format!(
                "the command has more than {MAX_STEPS} commands to check (with its loops and functions followed)"
            ));
        }
        let cx = Cx {
            sh: &sh,
            call,
            depth,
            env: &c.assignments,
        };
        self.command(c, cx, fns)?;
        if c.argv.is_empty() {
            let mut s = sh;
            for (name, value) in &c.assignments {
                s.assign(name, value);
            }
            return Ok(Outcome::both(s));
        }
        let mut out: Option<Outcome> = None;
        for argv in sh.expand_argv(&c.argv) {
            // `command cd x`, `builtin cd x`: the builtin itself.
            let skip = argv
                .iter()
                .take_while(|a| matches!(a.text.as_str(), "command" | "builtin"))
                .count();
            let argv = &argv[skip..];
            let name = argv.first().filter(|a| !a.dynamic).map(|a| a.text.as_str());
            let o = match name {
                Some(f) if fns.contains_key(f) => {
                    if depth >= MAX_DEPTH {
                        return Err(format!(
                            "functions call each other more than {MAX_DEPTH} levels deep"
                        ));
                    }
                    let body = fns[f].clone();
                    self.run(&body, sh.clone(), fns, call, depth + 1)?
                }
                // `eval` runs in this shell: what it changes lasts.
                Some("eval") if !argv.iter().any(|a| a.dynamic) => {
                    let code: Vec<&str> = argv[1..].iter().map(|a| a.text.as_str()).collect();
                    Outcome::both(self.script(&code.join(" "), &sh, fns, call, depth + 1)?)
                }
                _ => match sh.builtin(argv) {
                    Some((ok, fail)) => Outcome { ok, fail },
                    None => Outcome::both(sh.clone()),
                },
            };
            out = Some(match out {
                None => o,
                Some(p) => p.union(&o),
            });
        }
        Ok(out.unwrap_or_else(|| Outcome::both(sh)))
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

    /// Check one simple command (its substitutions, redirects, words and
    /// here-document) in the shell it runs in.
    fn command(&self, c: &SimpleCommand, cx: Cx, fns: &mut Functions) -> Check {
        self.pipelines(&c.substituted)?;
        for f in &c.substituted_flows {
            self.run(f, cx.sh.clone(), fns, cx.call, cx.depth)?;
        }
        let name = effective_name(&c.argv);
        if is_one_of(&name, INTERPRETERS) && any_download(&c.substituted) {
            return Err(format!(
                "`{name}` runs code produced by a download (`$(curl …)` or `<(curl …)`)"
            ));
        }
        for r in &c.redirects {
            for target in cx.sh.expand_word(&r.target) {
                if r.write {
                    self.writable(&target, cx, "redirects output to")?;
                } else if let Some(why) = self.sensitive_in(&target.text, cx) {
                    return Err(why);
                }
            }
        }
        for argv in cx.sh.expand_argv(&c.argv) {
            self.argv(&argv, cx)?;
            if let Some(code) = &c.stdin {
                self.stdin_program(&argv, code, cx)?;
            }
        }
        Ok(())
    }

    /// A here-document or here-string given to an interpreter that reads
    /// its program from stdin (`bash <<EOF`, `python3 - <<'EOF'`): the
    /// program is checked like `bash -c` or `python3 -c` would be.
    fn stdin_program(&self, argv: &[Arg], code: &Arg, cx: Cx) -> Check {
        let name = effective_name(argv);
        if !is_one_of(&name, INTERPRETERS)
            || matches!(name.as_str(), "eval" | "source" | ".")
            || !reads_program_from_stdin(argv)
        {
            return Ok(());
        }
        for code in cx.sh.expand_word(code) {
            if is_one_of(&name, SHELLS) {
                if code.dynamic && self.config.strict {
                    return Err(format!(
                        "`{name}` runs a here-string only known when it runs; strict mode denies it"
                    ));
                }
                self.child_script(&code.text, cx)?;
            } else if let Some(lang) = interp::lang(&name) {
                self.program(lang, &name, &code, cx)?;
            } else if self.config.strict {
                return Err(format!(
                    "`{name}` runs a program from a here-document the guard does not read; strict mode denies it"
                ));
            }
        }
        Ok(())
    }

    /// One command line, then whatever it wraps.
    fn argv(&self, argv: &[Arg], cx: Cx) -> Check {
        if cx.depth > MAX_DEPTH {
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
            if let Some(why) = self.sensitive_in(&a.text, cx) {
                return Err(why);
            }
        }
        self.rules(&name, args, cx)?;
        // A program given to an interpreter as text.
        if let Some(lang) = interp::lang(&name) {
            for code in interp::inline_programs(lang, args) {
                self.program(lang, &name, &code, cx)?;
            }
        }
        // Code given as text to a shell, to eval or to trap.
        if is_one_of(&name, SHELLS)
            && let Some(i) = args.iter().position(|a| is_c_flag(&a.text))
        {
            return match args.get(i + 1) {
                Some(code) if code.dynamic && self.config.strict => Err(format!(
                    "`{name} -c` runs code that is only known when it runs; strict mode denies it"
                )),
                Some(code) => self.child_script(&code.text, cx),
                None => Ok(()),
            };
        }
        if name == "eval" || name == "trap" {
            let code: Vec<&Arg> = if name == "trap" {
                // `trap CODE SIGNAL…`; `trap -p`, `trap -l`, `trap - SIG` run nothing.
                args.iter()
                    .take(1)
                    .filter(|a| !a.text.starts_with('-') && args.len() > 1)
                    .collect()
            } else {
                args.iter().collect()
            };
            if code.iter().any(|a| a.dynamic) && self.config.strict {
                return Err(format!(
                    "`{name}` runs code that is only known when it runs; strict mode denies it"
                ));
            }
            let code: Vec<&str> = code.iter().map(|a| a.text.as_str()).collect();
            return self
                .script(
                    &code.join(" "),
                    cx.sh,
                    &mut Functions::new(),
                    cx.call,
                    cx.depth + 1,
                )
                .map(|_| ());
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
                return self
                    .script(&script, cx.sh, &mut Functions::new(), cx.call, cx.depth + 1)
                    .map(|_| ());
            }
            if inner.is_empty() {
                return Ok(());
            }
            // `xargs CMD` appends words read from stdin: CMD's last
            // operands are only known when it runs (`echo / | xargs rm -rf`).
            let mut inner = inner;
            if name == "xargs" {
                inner.push(Arg {
                    text: "<words from stdin>".into(),
                    dynamic: true,
                    parts: vec![Part::Opaque("xargs' input".into())],
                });
            }
            return self.argv(&inner, cx.deeper());
        }
        if name == "find" {
            let roots: Vec<&Arg> = args
                .iter()
                .take_while(|a| !a.text.starts_with('-'))
                .collect();
            if args.iter().any(|a| a.text == "-delete") {
                for r in &roots {
                    if let Some(d) = self.doom(r, cx, true) {
                        return Err(d.says("`find -delete` over", r, "would destroy {}"));
                    }
                    self.writable(r, cx, "deletes in")?;
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
                        if let Some(d) = self.doom(r, cx, true) {
                            let act = format!("`find -exec {}` over", basename(&inner[0].text));
                            return Err(d.says(&act, r, "would destroy {}"));
                        }
                    }
                }
                self.argv(&inner, cx.deeper())?;
            }
        }
        Ok(())
    }

    /// Code a shell runs in a child of this one (`bash -c CODE`, `sh <<<
    /// CODE`): it starts with the exported variables and the working
    /// directory, and nothing it sets comes back.
    fn child_script(&self, code: &str, cx: Cx) -> Check {
        let child = cx.sh.child(cx.env);
        self.script(code, &child, &mut Functions::new(), cx.call, cx.depth + 1)
            .map(|_| ())
    }

    /// A program given to an interpreter (`python3 -c CODE`, a
    /// here-document): what it deletes, moves, writes and runs.
    fn program(&self, lang: Lang, name: &str, code: &Arg, cx: Cx) -> Check {
        let Some(text) = interp::program_text(code) else {
            return if self.config.strict {
                Err(format!(
                    "`{name}` runs a program only known when it runs; strict mode denies it"
                ))
            } else {
                Ok(())
            };
        };
        for effect in interp::effects(lang, &text) {
            match effect {
                Effect::Delete {
                    call,
                    target,
                    recursive,
                } => {
                    // A tree: an unknown target could be anything; a file or
                    // an empty folder only matters when it is named.
                    if let Some(d) = self.doom(&target, cx, recursive) {
                        let act = format!("`{name}` code: `{call}` of");
                        return Err(d.says(&act, &target, "would destroy {}"));
                    }
                    self.writable(&target, cx, &format!("`{name}` code: `{call}` deletes"))?;
                }
                Effect::Move { call, target } => {
                    if let Some(d) = self.doom(&target, cx, false) {
                        let act = format!("`{name}` code: `{call}` of");
                        return Err(d.says(&act, &target, "would move {} away"));
                    }
                    self.writable(&target, cx, &format!("`{name}` code: `{call}` moves away"))?;
                }
                Effect::Write { call, target } => {
                    self.writable(&target, cx, &format!("`{name}` code: `{call}` writes"))?;
                }
                Effect::Shell { call, script } => {
                    if script.dynamic {
                        if self.config.strict {
                            return Err(format!(
                                "`{name}` code: `{call}` runs a shell command only known when it runs; strict mode denies it"
                            ));
                        }
                        continue;
                    }
                    let child = cx.sh.child(&[]);
                    self.script(
                        &script.text,
                        &child,
                        &mut Functions::new(),
                        cx.call,
                        cx.depth + 1,
                    )?;
                }
                Effect::Exec { call, argv } => {
                    if argv.first().is_none_or(|a| a.dynamic) {
                        if self.config.strict {
                            return Err(format!(
                                "`{name}` code: `{call}` runs a command only known when it runs; strict mode denies it"
                            ));
                        }
                        continue;
                    }
                    self.argv(&argv, cx.deeper())?;
                }
            }
        }
        Ok(())
    }

    /// The built-in rules for one command.
    fn rules(&self, name: &str, args: &[Arg], cx: Cx) -> Check {
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
                    if recursive && let Some(d) = self.doom(o, cx, true) {
                        return Err(d.says("`rm -r` of", o, "would destroy {}"));
                    }
                    self.writable(o, cx, "deletes")?;
                }
            }
            "chmod" | "chown" | "chgrp" => {
                let recursive = flags
                    .iter()
                    .any(|f| *f == "--recursive" || (!f.starts_with("--") && f.contains('R')));
                let (mode, targets) = operands
                    .split_first()
                    .map_or((None, &[][..]), |(m, t)| (Some(m), t));
                if name == "chmod"
                    && let Some(m) = mode.filter(|m| world_writable(&m.text))
                {
                    return Err(format!(
                        "`chmod {}` makes files writable by everyone",
                        m.text
                    ));
                }
                for t in targets {
                    if recursive && let Some(d) = self.doom(t, cx, true) {
                        let act = format!("`{name} -R` of");
                        return Err(d.says(&act, t, "would change every file in {}"));
                    }
                    self.writable(t, cx, "changes the owner or mode of")?;
                }
            }
            "tee" | "touch" | "mkdir" | "rmdir" | "truncate" | "shred" | "unlink" => {
                for o in &operands {
                    self.writable(o, cx, "writes")?;
                }
            }
            "cp" | "mv" | "install" | "ln" | "rsync" | "scp" => {
                let mut target_dir = args
                    .windows(2)
                    .find(|w| w[0].text == "-t" || w[0].text == "--target-directory")
                    .map(|w| w[1].clone());
                if target_dir.is_none() {
                    target_dir = args
                        .iter()
                        .find_map(|a| a.strip_prefix("--target-directory="));
                }
                let dest = target_dir.clone().or_else(|| {
                    operands
                        .last()
                        .map(|a| (*a).clone())
                        .filter(|_| operands.len() > 1)
                });
                if let Some(dest) = &dest {
                    self.writable(dest, cx, "writes")?;
                    // `rsync --delete` empties what the destination holds
                    // that the source does not.
                    if name == "rsync"
                        && flags.iter().any(|f| f.starts_with("--delete"))
                        && let Some(d) = self.doom(dest, cx, true)
                    {
                        return Err(d.says(
                            "`rsync --delete` into",
                            dest,
                            "would delete what {} holds",
                        ));
                    }
                }
                // What `mv` moves is gone from where it was.
                if name == "mv" {
                    let sources: Vec<&Arg> = match &target_dir {
                        Some(t) => {
                            let mut seen = false;
                            operands
                                .iter()
                                .copied()
                                .filter(|o| {
                                    let is_dir = !seen && o.text == t.text;
                                    seen |= is_dir;
                                    !is_dir
                                })
                                .collect()
                        }
                        None => operands[..operands.len().saturating_sub(1)].to_vec(),
                    };
                    for s in sources {
                        if let Some(d) = self.doom(s, cx, false) {
                            return Err(d.says("`mv` of", s, "would move {} away"));
                        }
                        self.writable(s, cx, "moves away")?;
                    }
                }
            }
            "sed" | "perl"
                if flags
                    .iter()
                    .any(|f| f.starts_with("-i") || *f == "--in-place") =>
            {
                for o in operands.iter().skip(1) {
                    self.writable(o, cx, "edits")?;
                }
            }
            "dd" => {
                for a in args {
                    if let Some(out) = a.strip_prefix("of=") {
                        self.writable(&out, cx, "writes")?;
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
                let sub = push::subcommand(&words).map(|(i, _)| &words[i..]);
                if let Some(sub) = sub
                    && sub.first() == Some(&"config")
                    && sub
                        .iter()
                        .any(|w| *w == "core.hooksPath" || w.starts_with("alias."))
                {
                    return Err(
                        "`git config` of hooks or aliases changes what later commands run".into(),
                    );
                }
                let dirs: Option<Vec<PathBuf>> =
                    cx.sh.cwd.dirs().map(|d| d.iter().cloned().collect());
                push::check(&words, dirs.as_deref(), &self.protected)?;
            }
            _ => {}
        }
        Ok(())
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
