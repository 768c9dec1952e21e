//! Every simple command a Bash tool call would run, found with a real shell
//! parser (brush-parser), not by looking at the first word.
//!
//! Lists (`;`, `&&`, `||`), pipelines, subshells, brace groups, loops,
//! conditionals, functions, `$(…)`, backticks and process substitutions are
//! all walked; the strings given to `bash -c`, `sh -c` and `eval` are parsed
//! in turn, to a bounded depth. Words are unquoted, with parameter and
//! command expansions kept as `$NAME` / `$(…)` text and marked dynamic.
//!
//! Besides the flat list of commands, a script's [`Flow`] says how they run
//! one after another — which need the one before to succeed (`&&`), which
//! run in a copy of the shell (subshells, pipelines, `$(…)`), which may run
//! or not (branches, loops). The guard follows it to know the directory
//! each command runs in and what its variables hold: `cd / && rm -rf *` is
//! `rm -rf /*`, not `rm -rf` of the project's files.

use brush_parser::ast;
use brush_parser::word::{WordPiece, WordPieceWithSource};

/// How deep `bash -c "$(…)"`-style nesting is followed before giving up.
const MAX_DEPTH: usize = 8;

/// One word after unquoting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// The literal text; expansions appear as `$NAME`, `~` or `$(…)`.
    pub text: String,
    /// Whether the value depends on an expansion (not known before it runs).
    pub dynamic: bool,
    /// The word piece by piece, so what the guard knows of a variable can
    /// be put in later (`X=/; rm -rf $X`).
    pub parts: Vec<Part>,
}

/// One piece of a word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Literal text, quoted or not.
    Lit(String),
    /// `$NAME` or `${NAME}`; `quoted` inside double quotes (no word
    /// splitting). `exact` is false for `${NAME:-…}`-style forms, whose value
    /// is the variable's only when it is set and not empty.
    Var {
        name: String,
        quoted: bool,
        exact: bool,
    },
    /// `~` at the start of a word: `$HOME`.
    Home,
    /// `$(…)` or backticks: the output of this script.
    Output(String),
    /// Anything else only known when it runs (`$((…))`, `~user`, `$1`,
    /// `${X%…}`, `<(…)`), with its text.
    Opaque(String),
}

impl Arg {
    /// A word with no expansion in it.
    pub fn lit(text: impl Into<String>) -> Arg {
        let text = text.into();
        Arg {
            parts: vec![Part::Lit(text.clone())],
            text,
            dynamic: false,
        }
    }

    /// The word without a literal `prefix` (`of=/dev/sda` → `/dev/sda`).
    pub fn strip_prefix(&self, prefix: &str) -> Option<Arg> {
        let rest = self.text.strip_prefix(prefix)?.to_owned();
        let mut parts = self.parts.clone();
        match parts.first_mut() {
            Some(Part::Lit(l)) if l.starts_with(prefix) => {
                *l = l[prefix.len()..].to_owned();
            }
            _ => return None,
        }
        Some(Arg {
            text: rest,
            dynamic: self.dynamic,
            parts,
        })
    }
}

/// Where output goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub write: bool,
    pub target: Arg,
}

/// One simple command, with where it sits.
#[derive(Debug, Clone)]
pub struct SimpleCommand {
    pub argv: Vec<Arg>,
    pub redirects: Vec<Redirect>,
    /// Commands found inside this command's words (`$(…)`, backticks,
    /// `<(…)`): they run first, and their output may become code.
    pub substituted: Vec<SimpleCommand>,
    /// How each substitution's commands run (each in a copy of the shell).
    pub substituted_flows: Vec<Flow>,
    /// `NAME=value` words before the command name: the shell's own
    /// variables when there is no name, the command's environment otherwise.
    pub assignments: Vec<(String, Arg)>,
    /// What a here-document (`<<EOF`) or here-string (`<<<`) feeds the
    /// command on stdin: a program, when the command is an interpreter.
    pub stdin: Option<Arg>,
    /// Which pipeline this command is part of, and its position there.
    pub pipeline: usize,
    pub position: usize,
}

impl SimpleCommand {
    /// The command name without its directory (`/usr/bin/sudo` → `sudo`).
    pub fn name(&self) -> &str {
        self.argv
            .first()
            .map(|a| a.text.rsplit('/').next().unwrap_or(&a.text))
            .unwrap_or("")
    }

    fn new(pipeline: usize, position: usize) -> SimpleCommand {
        SimpleCommand {
            argv: Vec::new(),
            redirects: Vec::new(),
            substituted: Vec::new(),
            substituted_flows: Vec::new(),
            assignments: Vec::new(),
            stdin: None,
            pipeline,
            position,
        }
    }
}

/// How a script's simple commands run, one after another.
#[derive(Debug, Clone)]
pub enum Flow {
    /// One simple command.
    Run(Box<SimpleCommand>),
    /// One after another (`;`, newlines, `{ …; }`).
    Seq(Vec<Flow>),
    /// `a && b || c`: the first, then each with whether it runs when the
    /// one before succeeded (`&&`, true) or failed (`||`, false).
    AndOr(Box<Flow>, Vec<(bool, Flow)>),
    /// In a copy of the shell (a subshell, one stage of a pipeline, a job
    /// run with `&`): what it changes does not last.
    Isolated(Box<Flow>),
    /// `if cond; then …; else …; fi`.
    If(Box<Flow>, Box<Flow>, Box<Flow>),
    /// One of these or none (`case`).
    Either(Vec<Flow>),
    /// Any number of times, maybe none (`while`, `until`).
    Loop(Box<Flow>),
    /// `for NAME in WORDS; do …; done` (`None`: over `"$@"`).
    For(String, Option<Vec<Arg>>, Box<Flow>),
    /// A function definition: its name and body.
    Function(String, Box<Flow>),
}

impl Flow {
    fn empty() -> Flow {
        Flow::Seq(Vec::new())
    }
}

/// Why a command could not be understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ShellError(pub String);

/// A parsed script.
#[derive(Debug)]
pub struct Parsed {
    /// Its simple commands (nested ones in their `substituted`).
    pub commands: Vec<SimpleCommand>,
    /// Functions that call themselves (`:(){ :|:& };:`).
    pub self_calling: Vec<String>,
    /// How the commands run.
    pub flow: Flow,
}

/// Parse `script` into its simple commands.
pub fn parse(script: &str) -> Result<Parsed, ShellError> {
    let mut w = Walker::default();
    let flow = w.script(script, 0)?;
    Ok(Parsed {
        commands: w.out,
        self_calling: w.self_calling,
        flow,
    })
}

/// Parse `script` into its simple commands (nested ones included, in
/// `substituted`).
pub fn simple_commands(script: &str) -> Result<Vec<SimpleCommand>, ShellError> {
    parse(script).map(|p| p.commands)
}

#[derive(Default)]
struct Walker {
    out: Vec<SimpleCommand>,
    pipelines: usize,
    self_calling: Vec<String>,
}

/// The commands substituted into a word, and how they run.
#[derive(Default)]
struct Subst {
    cmds: Vec<SimpleCommand>,
    flows: Vec<Flow>,
}

impl Subst {
    fn add(&mut self, inner: Walker, flow: Flow) {
        self.cmds.extend(inner.out);
        self.flows.push(Flow::Isolated(Box::new(flow)));
    }
}

fn options() -> brush_parser::ParserOptions {
    brush_parser::ParserOptions::default()
}

impl Walker {
    fn script(&mut self, script: &str, depth: usize) -> Result<Flow, ShellError> {
        if depth > MAX_DEPTH {
            return Err(ShellError(format!(
                "commands nested more than {MAX_DEPTH} levels deep"
            )));
        }
        let tokens = brush_parser::tokenize_str(script)
            .map_err(|e| ShellError(format!("cannot tokenize: {e}")))?;
        let program = brush_parser::parse_tokens(&tokens, &options())
            .map_err(|e| ShellError(format!("cannot parse: {e}")))?;
        let mut seq = Vec::new();
        for list in &program.complete_commands {
            seq.push(self.list(list, depth)?);
        }
        Ok(Flow::Seq(seq))
    }

    fn list(&mut self, list: &ast::CompoundList, depth: usize) -> Result<Flow, ShellError> {
        let mut seq = Vec::new();
        for ast::CompoundListItem(and_or, sep) in &list.0 {
            let first = self.pipeline(&and_or.first, depth)?;
            let mut rest = Vec::new();
            for next in &and_or.additional {
                match next {
                    ast::AndOr::And(p) => rest.push((true, self.pipeline(p, depth)?)),
                    ast::AndOr::Or(p) => rest.push((false, self.pipeline(p, depth)?)),
                }
            }
            let flow = if rest.is_empty() {
                first
            } else {
                Flow::AndOr(Box::new(first), rest)
            };
            seq.push(match sep {
                ast::SeparatorOperator::Async => Flow::Isolated(Box::new(flow)),
                ast::SeparatorOperator::Sequence => flow,
            });
        }
        Ok(Flow::Seq(seq))
    }

    fn pipeline(&mut self, p: &ast::Pipeline, depth: usize) -> Result<Flow, ShellError> {
        self.pipelines += 1;
        let id = self.pipelines;
        let mut stages = Vec::new();
        for (pos, cmd) in p.seq.iter().enumerate() {
            stages.push(self.command(cmd, id, pos, depth)?);
        }
        // Each stage of a real pipeline runs in its own subshell.
        if stages.len() == 1 {
            Ok(stages.pop().unwrap_or_else(Flow::empty))
        } else {
            Ok(Flow::Seq(
                stages
                    .into_iter()
                    .map(|s| Flow::Isolated(Box::new(s)))
                    .collect(),
            ))
        }
    }

    fn command(
        &mut self,
        cmd: &ast::Command,
        pipeline: usize,
        position: usize,
        depth: usize,
    ) -> Result<Flow, ShellError> {
        match cmd {
            ast::Command::Simple(s) => {
                let c = self.simple(s, pipeline, position, depth)?;
                self.out.push(c.clone());
                Ok(Flow::Run(Box::new(c)))
            }
            ast::Command::Compound(c, redirects) => {
                let body = self.compound(c, depth)?;
                let Some(r) = redirects else {
                    return Ok(body);
                };
                // Redirects of a compound command apply to all of it: record
                // them on a command of their own, named after the group.
                let mut holder = SimpleCommand::new(pipeline, position);
                holder.argv.push(Arg::lit("{"));
                for io in &r.0 {
                    self.redirect(io, &mut holder, depth)?;
                }
                self.out.push(holder.clone());
                Ok(Flow::Seq(vec![body, Flow::Run(Box::new(holder))]))
            }
            ast::Command::Function(f) => {
                let start = self.out.len();
                let body = self.compound(&f.body.0, depth)?;
                if self.out[start..].iter().any(|c| c.name() == f.fname.value) {
                    self.self_calling.push(f.fname.value.clone());
                }
                Ok(Flow::Function(f.fname.value.clone(), Box::new(body)))
            }
            ast::Command::ExtendedTest(_, _) => Ok(Flow::empty()),
        }
    }

    fn compound(&mut self, c: &ast::CompoundCommand, depth: usize) -> Result<Flow, ShellError> {
        use ast::CompoundCommand as C;
        Ok(match c {
            C::BraceGroup(b) => self.list(&b.list, depth)?,
            C::Subshell(s) => Flow::Isolated(Box::new(self.list(&s.list, depth)?)),
            C::ForClause(f) => {
                let mut sub = Subst::default();
                let mut values = None;
                if let Some(ws) = &f.values {
                    let mut v = Vec::new();
                    for w in ws {
                        v.push(self.word(&w.value, &mut sub, depth)?);
                    }
                    values = Some(v);
                }
                self.out.extend(sub.cmds);
                let body = self.list(&f.body.list, depth)?;
                let mut seq = sub.flows;
                seq.push(Flow::For(f.variable_name.clone(), values, Box::new(body)));
                Flow::Seq(seq)
            }
            C::CaseClause(cc) => {
                let mut arms = Vec::new();
                for item in &cc.cases {
                    if let Some(l) = &item.cmd {
                        arms.push(self.list(l, depth)?);
                    }
                }
                Flow::Either(arms)
            }
            C::IfClause(i) => {
                let cond = self.list(&i.condition, depth)?;
                let then = self.list(&i.then, depth)?;
                // `elif`s nest as ifs in the else branch, from the last one.
                let mut otherwise = Flow::empty();
                for e in i.elses.iter().flatten().rev() {
                    let body = self.list(&e.body, depth)?;
                    otherwise = match &e.condition {
                        Some(c) => Flow::If(
                            Box::new(self.list(c, depth)?),
                            Box::new(body),
                            Box::new(otherwise),
                        ),
                        None => body,
                    };
                }
                Flow::If(Box::new(cond), Box::new(then), Box::new(otherwise))
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                let cond = self.list(&w.0, depth)?;
                let body = self.list(&w.1.list, depth)?;
                Flow::Seq(vec![
                    cond.clone(),
                    Flow::Loop(Box::new(Flow::Seq(vec![body, cond]))),
                ])
            }
            C::Coprocess(c) => {
                self.pipelines += 1;
                let id = self.pipelines;
                Flow::Isolated(Box::new(self.command(&c.body, id, 0, depth)?))
            }
            C::Arithmetic(_) | C::ArithmeticForClause(_) => Flow::empty(),
        })
    }

    fn simple(
        &mut self,
        s: &ast::SimpleCommand,
        pipeline: usize,
        position: usize,
        depth: usize,
    ) -> Result<SimpleCommand, ShellError> {
        let mut cmd = SimpleCommand::new(pipeline, position);
        let mut sub = Subst::default();
        let prefix = s.prefix.iter().flat_map(|p| p.0.iter()).map(|i| (i, true));
        let suffix = s.suffix.iter().flat_map(|p| p.0.iter()).map(|i| (i, false));
        let mut named = false;
        for (item, in_prefix) in prefix.chain(suffix) {
            if !in_prefix && !named {
                named = true;
                if let Some(w) = &s.word_or_name {
                    let a = self.word(&w.value, &mut sub, depth)?;
                    cmd.argv.push(a);
                }
            }
            use ast::CommandPrefixOrSuffixItem as I;
            match item {
                I::Word(w) => {
                    let a = self.word(&w.value, &mut sub, depth)?;
                    cmd.argv.push(a);
                }
                // `X=$(…) cmd`: the assignment runs nothing itself, but its value may.
                I::AssignmentWord(assignment, w) if in_prefix => {
                    let text = w.value.split_once('=').map_or("", |(_, v)| v);
                    let value = self.word(text, &mut sub, depth)?;
                    let exact = !assignment.append
                        && matches!(assignment.value, ast::AssignmentValue::Scalar(_));
                    if let ast::AssignmentName::VariableName(name) = &assignment.name {
                        let value = if exact { value } else { opaque(&w.value) };
                        cmd.assignments.push((name.clone(), value));
                    }
                }
                // `env Y=2 cmd`: after the name it is an argument like any other.
                I::AssignmentWord(_, w) => {
                    let a = self.word(&w.value, &mut sub, depth)?;
                    cmd.argv.push(a);
                }
                I::IoRedirect(io) => self.redirect(io, &mut cmd, depth)?,
                I::ProcessSubstitution(_, s) => {
                    let mut inner = Walker::default();
                    let flow = inner.list(&s.list, depth + 1)?;
                    sub.add(inner, flow);
                    cmd.argv.push(opaque("<(…)"));
                }
            }
        }
        if !named && let Some(w) = &s.word_or_name {
            let a = self.word(&w.value, &mut sub, depth)?;
            cmd.argv.insert(0, a);
        }
        cmd.substituted.extend(sub.cmds);
        cmd.substituted_flows.extend(sub.flows);
        Ok(cmd)
    }

    fn redirect(
        &mut self,
        io: &ast::IoRedirect,
        cmd: &mut SimpleCommand,
        depth: usize,
    ) -> Result<(), ShellError> {
        use ast::{IoFileRedirectKind as K, IoFileRedirectTarget as T, IoRedirect as R};
        let mut sub = Subst::default();
        match io {
            R::File(_, kind, target) => {
                let write = matches!(kind, K::Write | K::Append | K::Clobber | K::ReadAndWrite);
                match target {
                    T::Filename(w) => {
                        let a = self.word(&w.value, &mut sub, depth)?;
                        cmd.redirects.push(Redirect { write, target: a });
                    }
                    T::ProcessSubstitution(_, s) => {
                        let mut inner = Walker::default();
                        let flow = inner.list(&s.list, depth + 1)?;
                        sub.add(inner, flow);
                    }
                    T::Fd(_) | T::Duplicate(_) => {}
                }
            }
            R::OutputAndError(w, _) => {
                let a = self.word(&w.value, &mut sub, depth)?;
                cmd.redirects.push(Redirect {
                    write: true,
                    target: a,
                });
            }
            R::HereString(_, w) => {
                let a = self.word(&w.value, &mut sub, depth)?;
                cmd.stdin = Some(a);
            }
            R::HereDocument(_, doc) => {
                // The text as written: a shell given it expands what the
                // shell it came from would have, so its `$X` reads the same.
                cmd.stdin = Some(Arg {
                    text: doc.doc.value.clone(),
                    dynamic: false,
                    parts: vec![Part::Lit(doc.doc.value.clone())],
                });
            }
        }
        cmd.substituted.extend(sub.cmds);
        cmd.substituted_flows.extend(sub.flows);
        Ok(())
    }

    /// Unquote one word; commands substituted in it go to `sub`.
    fn word(&mut self, word: &str, sub: &mut Subst, depth: usize) -> Result<Arg, ShellError> {
        let pieces = brush_parser::word::parse(word, &options())
            .map_err(|e| ShellError(format!("cannot parse the word `{word}`: {e}")))?;
        let mut arg = Arg {
            text: String::new(),
            dynamic: false,
            parts: Vec::new(),
        };
        pieces_into(&pieces, &mut arg, sub, false, depth)?;
        Ok(arg)
    }
}

/// A word only known when it runs, shown as `text`.
fn opaque(text: &str) -> Arg {
    Arg {
        text: text.to_owned(),
        dynamic: true,
        parts: vec![Part::Opaque(text.to_owned())],
    }
}

fn push_lit(arg: &mut Arg, t: &str) {
    arg.text.push_str(t);
    match arg.parts.last_mut() {
        Some(Part::Lit(l)) => l.push_str(t),
        _ => arg.parts.push(Part::Lit(t.to_owned())),
    }
}

fn push_dynamic(arg: &mut Arg, text: &str, part: Part) {
    arg.dynamic = true;
    arg.text.push_str(text);
    arg.parts.push(part);
}

fn pieces_into(
    pieces: &[WordPieceWithSource],
    arg: &mut Arg,
    sub: &mut Subst,
    quoted: bool,
    depth: usize,
) -> Result<(), ShellError> {
    for p in pieces {
        match &p.piece {
            WordPiece::Text(t) | WordPiece::SingleQuotedText(t) | WordPiece::AnsiCQuotedText(t) => {
                push_lit(arg, t)
            }
            WordPiece::EscapeSequence(e) => push_lit(arg, e.strip_prefix('\\').unwrap_or(e)),
            WordPiece::DoubleQuotedSequence(inner)
            | WordPiece::GettextDoubleQuotedSequence(inner) => {
                pieces_into(inner, arg, sub, true, depth)?
            }
            WordPiece::TildeExpansion(t) => match t {
                brush_parser::word::TildeExpr::Home => push_dynamic(arg, "~", Part::Home),
                _ => push_dynamic(arg, "~?", Part::Opaque("~?".into())),
            },
            WordPiece::ParameterExpansion(e) => {
                let (name, exact) = parameter(e);
                let text = format!("${name}");
                let part = if name == "?" || name.chars().all(|c| c.is_ascii_digit()) {
                    Part::Opaque(text.clone())
                } else {
                    Part::Var {
                        name,
                        quoted,
                        exact,
                    }
                };
                push_dynamic(arg, &text, part);
            }
            WordPiece::CommandSubstitution(s) | WordPiece::BackquotedCommandSubstitution(s) => {
                push_dynamic(arg, "$(…)", Part::Output(s.clone()));
                let mut inner = Walker::default();
                let flow = inner.script(s, depth + 1)?;
                sub.add(inner, flow);
            }
            WordPiece::ArithmeticExpression(_) => {
                push_dynamic(arg, "$((…))", Part::Opaque("$((…))".into()))
            }
        }
    }
    Ok(())
}

/// `HOME` for `$HOME`, `${HOME}` and `${HOME:-x}`, with whether the value is
/// exactly the variable's (not for `${HOME:-x}`); `?` when it is not a
/// plain name.
fn parameter(e: &brush_parser::word::ParameterExpr) -> (String, bool) {
    use brush_parser::word::{Parameter, ParameterExpr as P};
    let (param, exact) = match e {
        P::Parameter {
            parameter,
            indirect: false,
        } => (Some(parameter), true),
        P::UseDefaultValues {
            parameter,
            indirect: false,
            ..
        }
        | P::AssignDefaultValues {
            parameter,
            indirect: false,
            ..
        }
        | P::IndicateErrorIfNullOrUnset {
            parameter,
            indirect: false,
            ..
        } => (Some(parameter), false),
        _ => (None, false),
    };
    let name = match param {
        Some(Parameter::Named(n)) => n.clone(),
        Some(Parameter::Positional(n)) => n.to_string(),
        _ => "?".into(),
    };
    (name, exact)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str) -> Vec<String> {
        fn all(cs: &[SimpleCommand], out: &mut Vec<String>) {
            for c in cs {
                all(&c.substituted, out);
                out.push(
                    c.argv
                        .iter()
                        .map(|a| a.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
        }
        let mut out = Vec::new();
        all(&simple_commands(s).unwrap(), &mut out);
        out
    }

    #[test]
    fn finds_every_simple_command() {
        assert_eq!(
            names("ls -la && echo 'a b' | wc -l; true || false"),
            ["ls -la", "echo a b", "wc -l", "true", "false"]
        );
        assert_eq!(
            names("echo $(id -u) `whoami`"),
            ["id -u", "whoami", "echo $(…) $(…)"]
        );
        assert_eq!(names("X=1 env Y=2 cmd \"$HOME\""), ["env Y=2 cmd $HOME"]);
        assert_eq!(
            names("(cd /tmp; { make; }) > out.txt"),
            ["cd /tmp", "make", "{"]
        );
        assert_eq!(
            names("for f in *.rs $(ls src); do rustfmt $f; done"),
            ["ls src", "rustfmt $f"]
        );
    }

    #[test]
    fn redirects_and_dynamic_words() {
        let c = &simple_commands("echo hi >> /etc/hosts 2>&1").unwrap()[0];
        assert_eq!(
            c.redirects,
            [Redirect {
                write: true,
                target: Arg::lit("/etc/hosts")
            }]
        );
        let c = &simple_commands("rm -rf ~/").unwrap()[0];
        assert!(c.argv[2].dynamic && c.argv[2].text == "~/");
    }

    #[test]
    fn flow_keeps_the_order_and_the_subshells() {
        let p = parse("cd / && rm -rf * || (cd /tmp; ls) | wc -l & echo").unwrap();
        let Flow::Seq(items) = &p.flow else {
            panic!("{:?}", p.flow)
        };
        let Flow::Seq(list) = &items[0] else {
            panic!("{:?}", items[0])
        };
        assert_eq!(list.len(), 2, "{list:?}");
        assert!(
            matches!(&list[0], Flow::Isolated(inner) if matches!(**inner, Flow::AndOr(_, ref rest) if rest.len() == 2))
        );
        let w = &simple_commands("X=\"$HOME/a\" make").unwrap()[0];
        assert_eq!(w.assignments[0].0, "X");
        assert_eq!(
            w.assignments[0].1.parts,
            [
                Part::Var {
                    name: "HOME".into(),
                    quoted: true,
                    exact: true
                },
                Part::Lit("/a".into())
            ]
        );
        let h = &simple_commands("python3 - <<'EOF'\nprint(1)\nEOF\n").unwrap()[0];
        assert_eq!(h.stdin.as_ref().unwrap().text, "print(1)\n");
    }

    #[test]
    fn unparseable_is_an_error() {
        assert!(simple_commands("echo 'unterminated").is_err());
        assert!(simple_commands("if then fi (").is_err());
    }
}
