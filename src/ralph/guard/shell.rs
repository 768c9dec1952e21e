//! Every simple command a Bash tool call would run, found with a real shell
//! parser (brush-parser), not by looking at the first word.
//!
//! Lists (`;`, `&&`, `||`), pipelines, subshells, brace groups, loops,
//! conditionals, functions, `$(…)`, backticks and process substitutions are
//! all walked; the strings given to `bash -c`, `sh -c` and `eval` are parsed
//! in turn, to a bounded depth. Words are unquoted, with parameter and
//! command expansions kept as `$NAME` / `$(…)` text and marked dynamic.

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
}

/// Why a command could not be understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ShellError(pub String);

/// A parsed script.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Its simple commands (nested ones in their `substituted`).
    pub commands: Vec<SimpleCommand>,
    /// Functions that call themselves (`:(){ :|:& };:`).
    pub self_calling: Vec<String>,
}

/// Parse `script` into its simple commands.
pub fn parse(script: &str) -> Result<Parsed, ShellError> {
    let mut w = Walker::default();
    w.script(script, 0)?;
    Ok(Parsed {
        commands: w.out,
        self_calling: w.self_calling,
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

fn options() -> brush_parser::ParserOptions {
    brush_parser::ParserOptions::default()
}

impl Walker {
    fn script(&mut self, script: &str, depth: usize) -> Result<(), ShellError> {
        if depth > MAX_DEPTH {
            return Err(ShellError(format!(
                "commands nested more than {MAX_DEPTH} levels deep"
            )));
        }
        let tokens = brush_parser::tokenize_str(script)
            .map_err(|e| ShellError(format!("cannot tokenize: {e}")))?;
        let program = brush_parser::parse_tokens(&tokens, &options())
            .map_err(|e| ShellError(format!("cannot parse: {e}")))?;
        for list in &program.complete_commands {
            self.list(list, depth)?;
        }
        Ok(())
    }

    fn list(&mut self, list: &ast::CompoundList, depth: usize) -> Result<(), ShellError> {
        for ast::CompoundListItem(and_or, _) in &list.0 {
            self.pipeline(&and_or.first, depth)?;
            for next in &and_or.additional {
                match next {
                    ast::AndOr::And(p) | ast::AndOr::Or(p) => self.pipeline(p, depth)?,
                }
            }
        }
        Ok(())
    }

    fn pipeline(&mut self, p: &ast::Pipeline, depth: usize) -> Result<(), ShellError> {
        self.pipelines += 1;
        let id = self.pipelines;
        for (pos, cmd) in p.seq.iter().enumerate() {
            self.command(cmd, id, pos, depth)?;
        }
        Ok(())
    }

    fn command(
        &mut self,
        cmd: &ast::Command,
        pipeline: usize,
        position: usize,
        depth: usize,
    ) -> Result<(), ShellError> {
        match cmd {
            ast::Command::Simple(s) => {
                let c = self.simple(s, pipeline, position, depth)?;
                self.out.push(c);
            }
            ast::Command::Compound(c, redirects) => {
                self.compound(c, depth)?;
                if let Some(r) = redirects {
                    // Redirects of a compound command apply to all of it: record
                    // them on a command of their own, named after the group.
                    let mut holder = SimpleCommand {
                        argv: vec![Arg {
                            text: "{".into(),
                            dynamic: false,
                        }],
                        redirects: Vec::new(),
                        substituted: Vec::new(),
                        pipeline,
                        position,
                    };
                    for io in &r.0 {
                        self.redirect(io, &mut holder, depth)?;
                    }
                    self.out.push(holder);
                }
            }
            ast::Command::Function(f) => {
                let start = self.out.len();
                self.compound(&f.body.0, depth)?;
                if self.out[start..].iter().any(|c| c.name() == f.fname.value) {
                    self.self_calling.push(f.fname.value.clone());
                }
            }
            ast::Command::ExtendedTest(_, _) => {}
        }
        Ok(())
    }

    fn compound(&mut self, c: &ast::CompoundCommand, depth: usize) -> Result<(), ShellError> {
        use ast::CompoundCommand as C;
        match c {
            C::BraceGroup(b) => self.list(&b.list, depth),
            C::Subshell(s) => self.list(&s.list, depth),
            C::ForClause(f) => {
                for w in f.values.iter().flatten() {
                    let mut sink = Vec::new();
                    self.word(&w.value, &mut sink, depth)?;
                    self.out.extend(sink);
                }
                self.list(&f.body.list, depth)
            }
            C::CaseClause(cc) => {
                for item in &cc.cases {
                    if let Some(l) = &item.cmd {
                        self.list(l, depth)?;
                    }
                }
                Ok(())
            }
            C::IfClause(i) => {
                self.list(&i.condition, depth)?;
                self.list(&i.then, depth)?;
                for e in i.elses.iter().flatten() {
                    if let Some(c) = &e.condition {
                        self.list(c, depth)?;
                    }
                    self.list(&e.body, depth)?;
                }
                Ok(())
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                self.list(&w.0, depth)?;
                self.list(&w.1.list, depth)
            }
            C::Coprocess(c) => {
                self.pipelines += 1;
                let id = self.pipelines;
                self.command(&c.body, id, 0, depth)
            }
            C::Arithmetic(_) | C::ArithmeticForClause(_) => Ok(()),
        }
    }

    fn simple(
        &mut self,
        s: &ast::SimpleCommand,
        pipeline: usize,
        position: usize,
        depth: usize,
    ) -> Result<SimpleCommand, ShellError> {
        let mut cmd = SimpleCommand {
            argv: Vec::new(),
            redirects: Vec::new(),
            substituted: Vec::new(),
            pipeline,
            position,
        };
        let prefix = s.prefix.iter().flat_map(|p| p.0.iter()).map(|i| (i, true));
        let suffix = s.suffix.iter().flat_map(|p| p.0.iter()).map(|i| (i, false));
        let mut named = false;
        for (item, in_prefix) in prefix.chain(suffix) {
            if !in_prefix && !named {
                named = true;
                if let Some(w) = &s.word_or_name {
                    let a = self.word(&w.value, &mut cmd.substituted, depth)?;
                    cmd.argv.push(a);
                }
            }
            use ast::CommandPrefixOrSuffixItem as I;
            match item {
                I::Word(w) => {
                    let a = self.word(&w.value, &mut cmd.substituted, depth)?;
                    cmd.argv.push(a);
                }
                // `X=$(…) cmd`: the assignment runs nothing itself, but its value may.
                I::AssignmentWord(_, w) if in_prefix => {
                    let text = w.value.split_once('=').map_or("", |(_, v)| v);
                    self.word(text, &mut cmd.substituted, depth)?;
                }
                // `env Y=2 cmd`: after the name it is an argument like any other.
                I::AssignmentWord(_, w) => {
                    let a = self.word(&w.value, &mut cmd.substituted, depth)?;
                    cmd.argv.push(a);
                }
                I::IoRedirect(io) => self.redirect(io, &mut cmd, depth)?,
                I::ProcessSubstitution(_, sub) => {
                    let mut inner = Walker::default();
                    inner.list(&sub.list, depth + 1)?;
                    cmd.substituted.extend(inner.out);
                    cmd.argv.push(Arg {
                        text: "<(…)".into(),
                        dynamic: true,
                    });
                }
            }
        }
        if !named && let Some(w) = &s.word_or_name {
            let a = self.word(&w.value, &mut cmd.substituted, depth)?;
            cmd.argv.insert(0, a);
        }
        Ok(cmd)
    }

    fn redirect(
        &mut self,
        io: &ast::IoRedirect,
        cmd: &mut SimpleCommand,
        depth: usize,
    ) -> Result<(), ShellError> {
        use ast::{IoFileRedirectKind as K, IoFileRedirectTarget as T, IoRedirect as R};
        match io {
            R::File(_, kind, target) => {
                let write = matches!(kind, K::Write | K::Append | K::Clobber | K::ReadAndWrite);
                match target {
                    T::Filename(w) => {
                        let a = self.word(&w.value, &mut cmd.substituted, depth)?;
                        cmd.redirects.push(Redirect { write, target: a });
                    }
                    T::ProcessSubstitution(_, sub) => {
                        let mut inner = Walker::default();
                        inner.list(&sub.list, depth + 1)?;
                        cmd.substituted.extend(inner.out);
                    }
                    T::Fd(_) | T::Duplicate(_) => {}
                }
            }
            R::OutputAndError(w, _) => {
                let a = self.word(&w.value, &mut cmd.substituted, depth)?;
                cmd.redirects.push(Redirect {
                    write: true,
                    target: a,
                });
            }
            R::HereString(_, w) => {
                self.word(&w.value, &mut cmd.substituted, depth)?;
            }
            R::HereDocument(_, _) => {}
        }
        Ok(())
    }

    /// Unquote one word; commands substituted in it go to `sink`.
    fn word(
        &mut self,
        word: &str,
        sink: &mut Vec<SimpleCommand>,
        depth: usize,
    ) -> Result<Arg, ShellError> {
        let pieces = brush_parser::word::parse(word, &options())
            .map_err(|e| ShellError(format!("cannot parse the word `{word}`: {e}")))?;
        let mut arg = Arg {
            text: String::new(),
            dynamic: false,
        };
        pieces_into(&pieces, &mut arg, sink, depth)?;
        Ok(arg)
    }
}

fn pieces_into(
    pieces: &[WordPieceWithSource],
    arg: &mut Arg,
    sink: &mut Vec<SimpleCommand>,
    depth: usize,
) -> Result<(), ShellError> {
    for p in pieces {
        match &p.piece {
            WordPiece::Text(t) | WordPiece::SingleQuotedText(t) | WordPiece::AnsiCQuotedText(t) => {
                arg.text.push_str(t)
            }
            WordPiece::EscapeSequence(e) => arg.text.push_str(e.strip_prefix('\\').unwrap_or(e)),
            WordPiece::DoubleQuotedSequence(inner)
            | WordPiece::GettextDoubleQuotedSequence(inner) => {
                pieces_into(inner, arg, sink, depth)?
            }
            WordPiece::TildeExpansion(t) => {
                arg.dynamic = true;
                arg.text.push_str(match t {
                    brush_parser::word::TildeExpr::Home => "~",
                    _ => "~?",
                });
            }
            WordPiece::ParameterExpansion(e) => {
                arg.dynamic = true;
                arg.text.push('$');
                arg.text.push_str(&parameter_name(e));
            }
            WordPiece::CommandSubstitution(s) | WordPiece::BackquotedCommandSubstitution(s) => {
                arg.dynamic = true;
                arg.text.push_str("$(…)");
                let mut inner = Walker::default();
                inner.script(s, depth + 1)?;
                sink.extend(inner.out);
            }
            WordPiece::ArithmeticExpression(_) => {
                arg.dynamic = true;
                arg.text.push_str("$((…))");
            }
        }
    }
    Ok(())
}

/// `HOME` for `$HOME`, `${HOME}` and `${HOME:-x}`; `?` when it is not a plain name.
fn parameter_name(e: &brush_parser::word::ParameterExpr) -> String {
    use brush_parser::word::{Parameter, ParameterExpr as P};
    let param = match e {
        P::Parameter { parameter, .. }
        | P::UseDefaultValues { parameter, .. }
        | P::AssignDefaultValues { parameter, .. } => Some(parameter),
        _ => None,
    };
    match param {
        Some(Parameter::Named(n)) => n.clone(),
        Some(Parameter::Positional(n)) => n.to_string(),
        _ => "?".into(),
    }
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
                target: Arg {
                    text: "/etc/hosts".into(),
                    dynamic: false
                }
            }]
        );
        let c = &simple_commands("rm -rf ~/").unwrap()[0];
        assert!(c.argv[2].dynamic && c.argv[2].text == "~/");
    }

    #[test]
    fn unparseable_is_an_error() {
        assert!(simple_commands("echo 'unterminated").is_err());
        assert!(simple_commands("if then fi (").is_err());
    }
}
