//! What a program given to an interpreter as text does: `python3 -c`,
//! `perl -e`/`-E`, `node -e`/`--eval`/`-p`, `ruby -e`, or a here-document
//! fed to one of them.
//!
//! A one-liner can do anything a shell command can — `shutil.rmtree('/')`
//! is `rm -rf /` — so a guard that only reads shell commands is bypassed by
//! the first `python3 -c`. The programs are not run or fully parsed; the
//! calls that delete, move, write or run a shell command are found by name,
//! skipping string literals, and their first argument is read: a string
//! literal is a path (with the parts only known when it runs marked), a few
//! well-known expressions (`Path.home()`, `process.env.HOME`, `Dir.home`,
//! `$ENV{HOME}`, `os.path.join(…)`) are understood, anything else is an
//! unknown expression. The policy judges the result like the shell command
//! it stands for.

use std::sync::LazyLock;

use regex::Regex;

use super::shell::{Arg, Part};

/// Stands in the program text for a piece only known when it runs (an
/// unknown `$X` in `python3 -c "…'$X'…"`): a character no program uses.
pub const UNKNOWN: char = '\u{E000}';

/// The interpreters whose programs the guard reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    Perl,
    Node,
    Ruby,
}

/// The language of an interpreter named `name` (`python3.12`, `nodejs`, …).
pub fn lang(name: &str) -> Option<Lang> {
    let versioned = |base: &str| {
        name.strip_prefix(base)
            .is_some_and(|r| r.chars().all(|c| c.is_ascii_digit() || c == '.'))
    };
    if versioned("python") || versioned("pypy") {
        Some(Lang::Python)
    } else if versioned("perl") {
        Some(Lang::Perl)
    } else if matches!(name, "node" | "nodejs" | "bun") {
        Some(Lang::Node)
    } else if versioned("ruby") {
        Some(Lang::Ruby)
    } else {
        None
    }
}

/// The programs a command line gives its interpreter as text (`-c CODE`,
/// each `-e CODE`, `-eCODE`, `--eval=CODE`); empty when it runs a file or
/// reads stdin.
pub fn inline_programs(lang: Lang, args: &[Arg]) -> Vec<Arg> {
    // The option letters that take the program; the letters whose value is
    // the rest of the word (or the next word when nothing follows them);
    // long options whose value is the next word.
    let (code_letters, value_letters, long_valued): (&[char], &[char], &[&str]) = match lang {
        Lang::Python => (&['c'], &['W', 'X', 'm'], &["--check-hash-based-pycs"]),
        Lang::Perl => (
            &['e', 'E'],
            &['M', 'm', 'I', 'x', 'i', 'C', 'd', 'D', 'F', '0'],
            &[],
        ),
        Lang::Node => (
            &['e', 'p'],
            &['r', 'C'],
            &[
                "--require",
                "--import",
                "--loader",
                "--input-type",
                "--conditions",
            ],
        ),
        Lang::Ruby => (
            &['e'],
            &['r', 'I', 'C', 'E', 'F', 'x', 'K', 'T', '0', 'W'],
            &[],
        ),
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let t = a.text.as_str();
        i += 1;
        if t == "--" || !t.starts_with('-') || t == "-" {
            break; // a script file, stdin or the program's own arguments
        }
        if lang == Lang::Node
            && let Some(flag) = ["--eval", "--print"].iter().find(|f| t.starts_with(**f))
        {
            match t[flag.len()..].strip_prefix('=') {
                Some(_) => out.extend(a.strip_prefix(&format!("{flag}="))),
                None => {
                    out.extend(args.get(i).cloned());
                    i += 1;
                }
            }
            continue;
        }
        if t.starts_with("--") {
            if long_valued.contains(&t) {
                i += 1;
            }
            continue;
        }
        // A cluster of letters (`-le`, `-Bc`, `-MFile::Path`).
        let letters: Vec<char> = t[1..].chars().collect();
        for (k, c) in letters.iter().enumerate() {
            let last = k + 1 == letters.len();
            if code_letters.contains(c) {
                if last {
                    out.extend(args.get(i).cloned());
                    i += 1;
                } else {
                    let prefix: String = std::iter::once('-')
                        .chain(letters[..=k].iter().copied())
                        .collect();
                    out.extend(a.strip_prefix(&prefix));
                }
                break;
            }
            if value_letters.contains(c) {
                if lang == Lang::Python && *c == 'm' {
                    return out; // `python -m module …`: the rest is the module's
                }
                if last && !matches!(c, 'i' | '0' | 'x' | 'd' | 'W' | 'T') {
                    i += 1; // `-r lib`: the value is the next word
                }
                break;
            }
        }
        if lang == Lang::Python && !out.is_empty() {
            break; // python's `-c` ends its options
        }
    }
    out
}

/// Something a program does that the guard judges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Deletes `target` (a whole tree when `recursive`).
    Delete {
        call: String,
        target: Arg,
        recursive: bool,
    },
    /// Moves `target` away.
    Move { call: String, target: Arg },
    /// Writes to `target`.
    Write { call: String, target: Arg },
    /// Runs `script` with a shell.
    Shell { call: String, script: Arg },
    /// Runs this command line (no shell).
    Exec { call: String, argv: Vec<Arg> },
}

/// How a call's arguments are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Deletes a tree: every path argument.
    DeleteTree,
    /// Deletes files or empty directories: every path argument.
    Delete,
    /// Deletes a tree when its options say `recursive` (node's `fs.rm`).
    DeleteIfRecursive,
    /// Moves its first argument away.
    Move,
    /// Writes its first argument.
    Write,
    /// Writes its first argument when the mode (second argument) writes.
    Open,
    /// Runs its first argument with a shell.
    Shell,
    /// A shell when given one string (or `shell=True`), a command line otherwise.
    ShellOrExec,
    /// A program and an array of its arguments.
    Spawn,
    /// `Path(X).unlink()`, `.rmdir()`, `.write_text()`: the method after `Path(…)`.
    PathMethod,
}

struct Pattern {
    re: Regex,
    kind: Kind,
    /// Only when the program mentions this (node's `exec(` is also
    /// `RegExp.exec`; it is a shell only from child_process).
    requires: &'static str,
}

fn patterns(lang: Lang) -> &'static [Pattern] {
    fn compile(list: &[(&'static str, Kind)]) -> Vec<Pattern> {
        list.iter()
            .map(|&(re, kind)| {
                let (re, requires) = match re.split_once(" IF ") {
                    Some((re, req)) => (re, req),
                    None => (re, ""),
                };
                Pattern {
                    re: Regex::new(re).expect("a valid pattern"),
                    kind,
                    requires,
                }
            })
            .collect()
    }
    static PYTHON: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
        compile(&[
            (r"\brmtree\s*\(", Kind::DeleteTree),
            (
                r"\bos\.(?:remove|unlink|rmdir|removedirs)\s*\(",
                Kind::Delete,
            ),
            (
                r"\b(?:shutil\.move|os\.rename|os\.renames|os\.replace)\s*\(",
                Kind::Move,
            ),
            (r"\bos\.(?:system|popen)\s*\(", Kind::Shell),
            (
                r"\bsubprocess\.(?:getoutput|getstatusoutput)\s*\(",
                Kind::Shell,
            ),
            (
                r"\bsubprocess\.(?:run|call|check_call|check_output|Popen)\s*\(",
                Kind::ShellOrExec,
            ),
            (
                r"\bos\.(?:exec|spawn|posix_spawn)\w*\s*\(",
                Kind::ShellOrExec,
            ),
            (r"(?:^|[^.\w])open\s*\(", Kind::Open),
            (r"\bPath\s*\(", Kind::PathMethod),
        ])
    });
    static PERL: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
        compile(&[
            (r"\b(?:rmtree|remove_tree)\b", Kind::DeleteTree),
            (r"\b(?:unlink|rmdir)\b", Kind::Delete),
            (r"\b(?:rename|move)\b", Kind::Move),
            (r"\b(?:system|exec)\b", Kind::ShellOrExec),
            (r"\bqx\s*[({\[/|]", Kind::Shell),
            (r"\bopen\b", Kind::Open),
        ])
    });
    static NODE: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
        compile(&[
            (
                r"(?:\.|\b)(?:rmSync|rmdirSync)\s*\(",
                Kind::DeleteIfRecursive,
            ),
            (r"\.(?:rm|rmdir)\s*\(", Kind::DeleteIfRecursive),
            (r"(?:\.|\b)unlinkSync\s*\(|\.unlink\s*\(", Kind::Delete),
            (
                r"\b(?:rimraf(?:\.sync)?|rimrafSync|removeSync|emptyDirSync)\s*\(|\.(?:remove|emptyDir)\s*\(",
                Kind::DeleteTree,
            ),
            (
                r"(?:\.|\b)(?:renameSync|moveSync)\s*\(|\.(?:rename|move)\s*\(",
                Kind::Move,
            ),
            (
                r"(?:\.|\b)(?:writeFileSync|appendFileSync|createWriteStream|outputFileSync)\s*\(|\.(?:writeFile|appendFile)\s*\(",
                Kind::Write,
            ),
            (r"\bexecSync\s*\(", Kind::Shell),
            (r"(?:\.|\b)exec\s*\( IF child_process", Kind::Shell),
            (
                r"\b(?:spawnSync|spawn|execFileSync|execFile)\s*\(",
                Kind::Spawn,
            ),
        ])
    });
    static RUBY: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
        compile(&[
            (
                r"\b(?:rm_rf|rm_r|rmtree|remove_(?:dir|entry_secure|entry))\b",
                Kind::DeleteTree,
            ),
            (
                r"\b(?:FileUtils\.(?:rm_f|rm|rmdir|remove)|File\.(?:delete|unlink)|Dir\.(?:rmdir|delete|unlink))\b",
                Kind::Delete,
            ),
            (r"\b(?:FileUtils\.(?:mv|move)|File\.rename)\b", Kind::Move),
            (r"\bFile\.(?:write|binwrite)\b", Kind::Write),
            (r"\bFile\.open\b", Kind::Open),
            (
                r"(?:^|[^.\w])(?:system|exec|spawn)\b|\bIO\.popen\b|\bOpen3\.\w+",
                Kind::ShellOrExec,
            ),
            (r"%x\s*[({\[]", Kind::Shell),
        ])
    });
    match lang {
        Lang::Python => &PYTHON,
        Lang::Perl => &PERL,
        Lang::Node => &NODE,
        Lang::Ruby => &RUBY,
    }
}

/// The program's text, with [`UNKNOWN`] where a piece is only known when it
/// runs; `None` when nothing of it is known.
pub fn program_text(code: &Arg) -> Option<String> {
    let mut s = String::new();
    for p in &code.parts {
        match p {
            Part::Lit(t) => s.push_str(t),
            _ => s.push(UNKNOWN),
        }
    }
    (!s.replace(UNKNOWN, "").trim().is_empty()).then_some(s)
}

/// Everything the guard judges in a program.
pub fn effects(lang: Lang, code: &str) -> Vec<Effect> {
    let strings = string_spans(lang, code);
    let in_string = |at: usize| strings.iter().any(|&(s, e)| at > s && at < e);
    let mut out = Vec::new();
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '%';
    for p in patterns(lang) {
        if !code.contains(p.requires) {
            continue;
        }
        for m in p.re.find_iter(code) {
            let lead = m.as_str().len() - m.as_str().trim_start_matches(|c| !word(c)).len();
            if in_string(m.start() + lead) {
                continue;
            }
            let call = m.as_str()[lead..]
                .trim_end_matches(['(', ' ', '\t'])
                .to_owned();
            let after = m.end();
            // The argument list: `(…)` (the pattern may have eaten the
            // parenthesis), or perl/ruby's bare `rmtree "/"`.
            let args = if m.as_str().ends_with('(') {
                split_args(code, after - 1, lang)
            } else if lang == Lang::Perl && call.starts_with("qx") {
                let open = after - 1;
                let close = closing(code, open, lang).unwrap_or(code.len());
                let body = &code[open + 1..close.min(code.len())];
                out.push(Effect::Shell {
                    call: "qx".into(),
                    script: interpolated(lang, body),
                });
                continue;
            } else if call.starts_with("%x") {
                let open = after - 1;
                let close = closing(code, open, lang).unwrap_or(code.len());
                out.push(Effect::Shell {
                    call: "%x".into(),
                    script: interpolated(lang, &code[open + 1..close]),
                });
                continue;
            } else {
                bare_args(code, after, lang)
            };
            let Some((args, end)) = args else { continue };
            judge(lang, p.kind, &call, &args, &code[end..], &mut out);
        }
    }
    // Backticks run a shell in perl and ruby.
    if matches!(lang, Lang::Perl | Lang::Ruby) {
        for &(s, e) in &strings {
            if code[s..].starts_with('`') && e > s {
                out.push(Effect::Shell {
                    call: "`…`".into(),
                    script: interpolated(lang, &code[s + 1..e.saturating_sub(1).max(s + 1)]),
                });
            }
        }
    }
    out
}

fn judge(lang: Lang, kind: Kind, call: &str, args: &[&str], rest: &str, out: &mut Vec<Effect>) {
    let call = call.to_owned();
    let first = args.first().map(|a| classify(lang, a));
    let paths = || -> Vec<Arg> {
        args.iter()
            .filter(|a| !a.trim_start().starts_with('{') && !is_keyword_arg(a))
            .flat_map(|a| match list_items(a) {
                Some(items) => items.iter().map(|i| classify(lang, i)).collect(),
                None => vec![classify(lang, a)],
            })
            .collect()
    };
    match kind {
        Kind::DeleteTree | Kind::Delete => {
            for target in paths() {
                out.push(Effect::Delete {
                    call: call.clone(),
                    target,
                    recursive: kind == Kind::DeleteTree,
                });
            }
        }
        Kind::DeleteIfRecursive => {
            let recursive = args.iter().skip(1).any(|a| {
                let a = a.replace(' ', "");
                a.contains("recursive") && !a.contains("recursive:false")
            });
            if let Some(target) = first {
                out.push(Effect::Delete {
                    call,
                    target,
                    recursive,
                });
            }
        }
        Kind::Move => {
            if let Some(target) = first {
                out.push(Effect::Move { call, target });
            }
        }
        Kind::Write => {
            if let Some(target) = first {
                out.push(Effect::Write { call, target });
            }
        }
        Kind::Open => {
            // python open(path, mode) / ruby File.open(path, mode) / perl
            // open(FH, MODE, PATH) or open(FH, ">PATH").
            let (path, mode) = match lang {
                Lang::Perl => match args {
                    [_, mode, path, ..] => (Some(*path), literal(lang, mode)),
                    [_, both] => match literal(lang, both) {
                        Some(s) if s.starts_with(['>', '+']) => {
                            let p = s.trim_start_matches(['>', '+', '<', ' ']).to_owned();
                            out.push(Effect::Write {
                                call,
                                target: text_arg(&p),
                            });
                            return;
                        }
                        _ => (None, None),
                    },
                    _ => (None, None),
                },
                _ => {
                    let mode = args
                        .iter()
                        .find_map(|a| {
                            a.trim()
                                .strip_prefix("mode")
                                .map(str::trim_start)
                                .and_then(|m| m.strip_prefix('='))
                        })
                        .or(args.get(1).copied());
                    (args.first().copied(), mode.and_then(|m| literal(lang, m)))
                }
            };
            if let (Some(path), Some(mode)) = (path, mode)
                && mode.contains(['w', 'a', 'x', '+', '>'])
            {
                out.push(Effect::Write {
                    call,
                    target: classify(lang, path),
                });
            }
        }
        Kind::Shell => {
            if let Some(script) = first {
                out.push(Effect::Shell { call, script });
            }
        }
        Kind::ShellOrExec => {
            let shell = args.iter().any(|a| {
                let a = a.replace(' ', "");
                a == "shell=True" || a.starts_with("shell:true")
            });
            let positional: Vec<&str> = args
                .iter()
                .copied()
                .filter(|a| !is_keyword_arg(a) && !a.trim_start().starts_with('{'))
                .collect();
            let exec_call = call.contains("exec") && lang == Lang::Python;
            match positional.as_slice() {
                [] => {}
                // os.execvp('rm', ['rm', '-rf', '/']): the list is argv.
                [_, list, ..] if exec_call && list_items(list).is_some() => {
                    let argv = list_items(list)
                        .unwrap_or_default()
                        .iter()
                        .map(|i| classify(lang, i))
                        .collect();
                    out.push(Effect::Exec { call, argv });
                }
                [one] => match list_items(one) {
                    Some(items) => out.push(Effect::Exec {
                        call,
                        argv: items.iter().map(|i| classify(lang, i)).collect(),
                    }),
                    None if shell || lang != Lang::Python => out.push(Effect::Shell {
                        call,
                        script: classify(lang, one),
                    }),
                    None => out.push(Effect::Exec {
                        call,
                        argv: vec![classify(lang, one)],
                    }),
                },
                many => out.push(Effect::Exec {
                    call,
                    argv: many.iter().map(|a| classify(lang, a)).collect(),
                }),
            }
        }
        Kind::Spawn => {
            let mut argv: Vec<Arg> = first.into_iter().collect();
            if let Some(items) = args.get(1).and_then(|a| list_items(a)) {
                argv.extend(items.iter().map(|i| classify(lang, i)));
            }
            if !argv.is_empty() {
                out.push(Effect::Exec { call, argv });
            }
        }
        Kind::PathMethod => {
            let rest = rest.trim_start();
            let Some(method) = rest.strip_prefix('.') else {
                return;
            };
            let method: String = method
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let Some(target) = first else { return };
            let call = format!("Path(…).{method}");
            match method.as_str() {
                "unlink" | "rmdir" => out.push(Effect::Delete {
                    call,
                    target,
                    recursive: false,
                }),
                "write_text" | "write_bytes" | "touch" => out.push(Effect::Write { call, target }),
                "rename" | "replace" => out.push(Effect::Move { call, target }),
                _ => {}
            }
        }
    }
}

/// `shell=True`, ruby's `secure: true`, `:force => true`: an option, not a path.
fn is_keyword_arg(a: &str) -> bool {
    let a = a.trim();
    if a.starts_with(':') && a[1..].starts_with(|c: char| c.is_alphabetic()) {
        return true;
    }
    let name: String = a
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return false;
    }
    let rest = a[name.len()..].trim_start();
    rest.starts_with('=') && !rest.starts_with("==") && !rest.starts_with("=>")
        || rest.starts_with(':') && !rest.starts_with("::")
}

/// The spans (start, end exclusive, quotes included) of the string literals
/// in `code`.
fn string_spans(lang: Lang, code: &str) -> Vec<(usize, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let is_quote = c == b'\'' || c == b'"' || c == b'`' && lang != Lang::Python;
        if c == b'#' && matches!(lang, Lang::Python | Lang::Ruby | Lang::Perl) {
            // A comment (perl's `$#x` and ruby's `#{}` are inside code or strings).
            if i > 0 && matches!(b[i - 1], b'$' | b'@') {
                i += 1;
                continue;
            }
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if is_quote {
            let end = string_end(code, i);
            out.push((i, end));
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

/// Where the string literal opening at `start` ends (after its quote).
fn string_end(code: &str, start: usize) -> usize {
    let b = code.as_bytes();
    let q = b[start];
    let mut i = start + 1;
    while i < b.len() {
        if b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == q {
            return i + 1;
        }
        i += 1;
    }
    b.len()
}

/// The index of the bracket closing the one at `open`.
fn closing(code: &str, open: usize, lang: Lang) -> Option<usize> {
    let b = code.as_bytes();
    let (o, c) = match b.get(open)? {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        b'{' => (b'{', b'}'),
        b'<' => (b'<', b'>'),
        &d => (d, d),
    };
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        let ch = b[i];
        if i > open && (ch == b'\'' || ch == b'"' || ch == b'`' && lang != Lang::Python) && o != c {
            i = string_end(code, i);
            continue;
        }
        if ch == b'\\' {
            i += 2;
            continue;
        }
        if ch == c && (i > open || o != c) {
            if o == c || depth == 1 {
                return Some(i);
            }
            depth -= 1;
        } else if ch == o {
            depth += 1;
        }
        i += 1;
    }
    None
}

/// The top-level, comma-separated arguments of the call whose `(` is at
/// `open`, and where the call ends.
fn split_args(code: &str, open: usize, lang: Lang) -> Option<(Vec<&str>, usize)> {
    let close = closing(code, open, lang)?;
    Some((split_top(&code[open + 1..close], lang, &[',']), close + 1))
}

/// `rmtree "/", "/x";` or `FileUtils.rm_rf Dir.home`: arguments up to the
/// end of the statement.
fn bare_args(code: &str, from: usize, lang: Lang) -> Option<(Vec<&str>, usize)> {
    let rest = &code[from..];
    let lead = rest.len() - rest.trim_start().len();
    if rest.trim_start().starts_with('(') {
        return split_args(code, from + lead, lang);
    }
    let b = code.as_bytes();
    let mut i = from;
    let mut depth = 0i32;
    while i < b.len() {
        match b[i] {
            b'\'' | b'"' | b'`' => {
                i = string_end(code, i);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => break,
            b')' | b']' | b'}' => depth -= 1,
            b';' | b'\n' if depth == 0 => break,
            _ => {}
        }
        if depth == 0 {
            let tail = &code[i..];
            if [" or ", " and ", " if ", " unless ", " || ", " && ", " do "]
                .iter()
                .any(|k| tail.starts_with(k))
            {
                break;
            }
        }
        i += 1;
    }
    let text = &code[from..i];
    if text.trim().is_empty() || text.trim_start().starts_with(['=', '.']) {
        return None; // a name, not a call (`$x = rename`, `os.rename.__doc__`)
    }
    Some((split_top(text, lang, &[',']), i))
}

/// `text` split at top-level `seps` (outside strings and brackets).
fn split_top<'a>(text: &'a str, lang: Lang, seps: &[char]) -> Vec<&'a str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\'' || c == b'"' || c == b'`' && lang != Lang::Python {
            i = string_end(text, i);
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth == 0 && seps.contains(&(c as char)) => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let last = text[start..].trim();
    if !last.is_empty() || !out.is_empty() {
        out.push(last);
    }
    out.retain(|s| !s.is_empty());
    out
}

/// The items of a list literal `[a, b]` (or ruby's `%w[a b]`).
fn list_items(a: &str) -> Option<Vec<&str>> {
    let a = a.trim();
    if let Some(inner) = a.strip_prefix("%w[").and_then(|r| r.strip_suffix(']')) {
        return Some(inner.split_whitespace().collect());
    }
    let inner = a.strip_prefix('[')?.strip_suffix(']')?;
    Some(split_top(inner, Lang::Python, &[',']))
}

/// An argument as a path: a string literal, a known expression, or unknown.
pub fn classify(lang: Lang, expr: &str) -> Arg {
    let e = strip_parens(expr.trim());
    if let Some(a) = string_literal(lang, e) {
        return a;
    }
    let compact: String = e.chars().filter(|c| !c.is_whitespace()).collect();
    let home = [
        "Path.home()",
        "pathlib.Path.home()",
        "os.environ['HOME']",
        "os.environ[\"HOME\"]",
        "os.environ.get('HOME')",
        "os.environ.get(\"HOME\")",
        "os.getenv('HOME')",
        "os.getenv(\"HOME\")",
        "process.env.HOME",
        "process.env['HOME']",
        "process.env[\"HOME\"]",
        "os.homedir()",
        "require('os').homedir()",
        "require(\"os\").homedir()",
        "$ENV{HOME}",
        "$ENV{'HOME'}",
        "$ENV{\"HOME\"}",
        "Dir.home",
        "ENV['HOME']",
        "ENV[\"HOME\"]",
        "ENV.fetch('HOME')",
        "ENV.fetch(\"HOME\")",
    ];
    if home.contains(&compact.as_str()) {
        return text_arg("~");
    }
    let cwd = [
        "os.getcwd()",
        "Path.cwd()",
        "os.curdir",
        "process.cwd()",
        "Dir.pwd",
        "getcwd()",
        "cwd()",
        "Cwd::getcwd()",
    ];
    if cwd.contains(&compact.as_str()) {
        return text_arg(".");
    }
    // A call that wraps a path or joins several: `str(p)`, `Path(p)`,
    // `os.path.join(a, b)`, `File.expand_path(p)`.
    if let Some(open) = e.find('(')
        && e.ends_with(')')
        && closing(e, open, lang) == Some(e.len() - 1)
    {
        let func: String = e[..open].chars().filter(|c| !c.is_whitespace()).collect();
        let name = func.rsplit(['.', ':', '>']).next().unwrap_or(&func);
        let wraps = [
            "str",
            "Path",
            "PurePath",
            "PosixPath",
            "fspath",
            "abspath",
            "realpath",
            "normpath",
            "expanduser",
            "normalize",
            "String",
            "expand_path",
            "new",
            "Pathname",
            "abs_path",
            "rel2abs",
            "glob",
        ];
        let joins = ["join", "resolve", "catdir", "catfile"];
        if wraps.contains(&name) || joins.contains(&name) {
            let inner = split_top(&e[open + 1..e.len() - 1], lang, &[',']);
            let parts: Vec<Arg> = inner
                .iter()
                .filter(|a| !is_keyword_arg(a))
                .map(|a| classify(lang, a))
                .collect();
            if parts.len() == 1 || joins.contains(&name) && !parts.is_empty() {
                return join(&parts);
            }
        }
    }
    // `Path.home() / '.cache'`, `os.environ['HOME'] + '/x'`, perl `$d . '/x'`.
    let (seps, joined): (&[char], bool) = match lang {
        Lang::Python => (&['/'], true),
        _ => (&['+'], false),
    };
    for (s, j) in [(seps, joined), (&['+'][..], false)] {
        let pieces = split_top(e, lang, s);
        if pieces.len() > 1 {
            let parts: Vec<Arg> = pieces.iter().map(|p| classify(lang, p)).collect();
            return if j { join(&parts) } else { concat(&parts) };
        }
    }
    if lang == Lang::Perl {
        let pieces: Vec<&str> = e.split(" . ").collect();
        if pieces.len() > 1 {
            return concat(&pieces.iter().map(|p| classify(lang, p)).collect::<Vec<_>>());
        }
    }
    unknown(e)
}

fn strip_parens(e: &str) -> &str {
    let mut e = e;
    while e.starts_with('(') && closing(e, 0, Lang::Python) == Some(e.len() - 1) {
        e = e[1..e.len() - 1].trim();
    }
    e
}

fn unknown(shown: &str) -> Arg {
    Arg {
        text: shown.to_owned(),
        dynamic: true,
        parts: vec![Part::Opaque(shown.to_owned())],
    }
}

/// A path from literal text, with [`UNKNOWN`] marks as unknown parts.
fn text_arg(s: &str) -> Arg {
    let mut a = Arg {
        text: String::new(),
        dynamic: false,
        parts: Vec::new(),
    };
    for (i, piece) in s.split(UNKNOWN).enumerate() {
        if i > 0 {
            push(&mut a, unknown("…"));
        }
        if !piece.is_empty() {
            push(&mut a, Arg::lit(piece));
        }
    }
    a
}

fn push(a: &mut Arg, b: Arg) {
    a.text.push_str(&b.text);
    a.dynamic |= b.dynamic;
    for p in b.parts {
        match (a.parts.last_mut(), p) {
            (Some(Part::Lit(l)), Part::Lit(r)) => l.push_str(&r),
            (_, p) => a.parts.push(p),
        }
    }
}

fn concat(parts: &[Arg]) -> Arg {
    let mut a = Arg {
        text: String::new(),
        dynamic: false,
        parts: Vec::new(),
    };
    for p in parts {
        push(&mut a, p.clone());
    }
    a
}

/// Path components joined with `/`; an absolute one starts over.
fn join(parts: &[Arg]) -> Arg {
    let mut a = Arg {
        text: String::new(),
        dynamic: false,
        parts: Vec::new(),
    };
    for p in parts {
        if !p.dynamic && (p.text.starts_with('/') || p.text.starts_with('~')) {
            a = p.clone();
            continue;
        }
        if !a.text.is_empty() && !a.text.ends_with('/') {
            push(&mut a, Arg::lit("/"));
        }
        push(&mut a, p.clone());
    }
    a
}

/// The value of a literal string argument, if it is one with no unknown part.
fn literal(lang: Lang, e: &str) -> Option<String> {
    string_literal(lang, e.trim())
        .filter(|a| !a.dynamic)
        .map(|a| a.text)
}

/// `e` as one string literal of `lang`, its interpolations unknown.
fn string_literal(lang: Lang, e: &str) -> Option<Arg> {
    // Python's prefixes: r'', b'', f'', rb''.
    let (prefix, body) = match lang {
        Lang::Python => {
            let n = e
                .chars()
                .take_while(|c| "rRbBuUfF".contains(*c))
                .count()
                .min(2);
            (e[..n].to_lowercase(), &e[n..])
        }
        _ => (String::new(), e),
    };
    let q = body.chars().next()?;
    if !matches!(q, '\'' | '"' | '`') || body.len() < 2 || string_end(body, 0) != body.len() {
        return None;
    }
    let inner = &body[1..body.len() - 1];
    let raw = prefix.contains('r');
    let interpolating = match lang {
        Lang::Python => prefix.contains('f'),
        Lang::Node => q == '`',
        Lang::Perl | Lang::Ruby => q == '"',
    };
    let mut text = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if !raw => {
                if let Some(n) = chars.next() {
                    text.push(match n {
                        'n' => '\n',
                        't' => '\t',
                        _ => n,
                    });
                }
            }
            '{' if interpolating && lang == Lang::Python => {
                if chars.peek() == Some(&'{') {
                    chars.next();
                    text.push('{');
                } else {
                    for d in chars.by_ref() {
                        if d == '}' {
                            break;
                        }
                    }
                    text.push(UNKNOWN);
                }
            }
            '$' if interpolating && lang == Lang::Node && chars.peek() == Some(&'{') => {
                skip_braces(&mut chars);
                text.push(UNKNOWN);
            }
            '#' if interpolating && lang == Lang::Ruby && chars.peek() == Some(&'{') => {
                skip_braces(&mut chars);
                text.push(UNKNOWN);
            }
            '$' | '@' if interpolating && lang == Lang::Perl => {
                if chars.peek() == Some(&'{') {
                    skip_braces(&mut chars); // `${name}`
                    text.push(UNKNOWN);
                    continue;
                }
                let mut name = String::new();
                while let Some(&n) = chars.peek() {
                    if n.is_alphanumeric() || n == '_' || n == ':' {
                        name.push(n);
                        chars.next();
                    } else {
                        break;
                    }
                }
                if name == "ENV" && chars.peek() == Some(&'{') {
                    chars.next();
                    let key: String = chars.by_ref().take_while(|c| *c != '}').collect();
                    text.push(if key.trim_matches(['\'', '"']) == "HOME" {
                        '~'
                    } else {
                        UNKNOWN
                    });
                } else if name.is_empty() {
                    text.push(c);
                } else {
                    text.push(UNKNOWN);
                }
            }
            _ => text.push(c),
        }
    }
    Some(text_arg(&text))
}

fn skip_braces(chars: &mut std::iter::Peekable<std::str::Chars>) {
    let mut depth = 0;
    for d in chars.by_ref() {
        match d {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
}

/// The body of backticks or `qx{}`: a shell script, interpolated.
fn interpolated(lang: Lang, body: &str) -> Arg {
    string_literal(lang, &format!("\"{}\"", body.replace('"', "\\\"")))
        .unwrap_or_else(|| unknown(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deletes(lang: Lang, code: &str) -> Vec<(String, bool, bool)> {
        effects(lang, code)
            .into_iter()
            .filter_map(|e| match e {
                Effect::Delete {
                    target, recursive, ..
                } => Some((target.text, target.dynamic, recursive)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn finds_deleting_calls_and_their_targets() {
        assert_eq!(
            deletes(Lang::Python, "import shutil; shutil.rmtree('/')"),
            [("/".into(), false, true)]
        );
        assert_eq!(
            deletes(
                Lang::Python,
                "import shutil,os; shutil.rmtree(os.path.expanduser('~'))"
            ),
            [("~".into(), false, true)]
        );
        assert_eq!(
            deletes(
                Lang::Python,
                "from pathlib import Path; import shutil; shutil.rmtree(Path.home() / '.cache')"
            ),
            [("~/.cache".into(), false, true)]
        );
        assert_eq!(
            deletes(Lang::Perl, "use File::Path; rmtree(\"/\")"),
            [("/".into(), false, true)]
        );
        assert_eq!(
            deletes(
                Lang::Perl,
                "use File::Path qw(remove_tree); remove_tree $ENV{HOME}, {verbose=>1}"
            ),
            [("~".into(), false, true)]
        );
        assert_eq!(
            deletes(
                Lang::Node,
                "require('fs').rmSync(process.env.HOME,{recursive:true})"
            ),
            [("~".into(), false, true)]
        );
        assert_eq!(
            deletes(Lang::Node, "require('fs').unlinkSync('a.txt')"),
            [("a.txt".into(), false, false)]
        );
        assert_eq!(
            deletes(Lang::Ruby, "require 'fileutils'; FileUtils.rm_rf(Dir.home)"),
            [("~".into(), false, true)]
        );
        assert_eq!(
            deletes(Lang::Ruby, "require 'fileutils'; FileUtils.rm_rf '/usr'"),
            [("/usr".into(), false, true)]
        );
        // Unknown expressions stay unknown; names in strings are not calls.
        let d = deletes(
            Lang::Python,
            "import shutil,sys; shutil.rmtree(sys.argv[1])",
        );
        assert!(d[0].1 && d[0].2);
        assert!(deletes(Lang::Python, "print('shutil.rmtree(\"/\")')").is_empty());
        // f-strings: the braces are unknown.
        let d = deletes(Lang::Python, "import shutil; shutil.rmtree(f'{d}/')");
        assert_eq!(d[0].0, "…/");
    }

    #[test]
    fn finds_shell_commands() {
        let e = effects(Lang::Python, "import os; os.system('sudo id')");
        assert!(matches!(&e[0], Effect::Shell { script, .. } if script.text == "sudo id"));
        let e = effects(
            Lang::Python,
            "import subprocess; subprocess.run(['rm', '-rf', '/'])",
        );
        assert!(
            matches!(&e[0], Effect::Exec { argv, .. } if argv.len() == 3 && argv[2].text == "/")
        );
        let e = effects(Lang::Perl, "print `sudo id`");
        assert!(matches!(&e[0], Effect::Shell { script, .. } if script.text == "sudo id"));
        let e = effects(Lang::Node, "require('child_process').execSync('rm -rf ~')");
        assert!(matches!(&e[0], Effect::Shell { script, .. } if script.text == "rm -rf ~"));
        let e = effects(Lang::Python, "open('/etc/hosts', 'a').write('x')");
        assert!(matches!(&e[0], Effect::Write { target, .. } if target.text == "/etc/hosts"));
        assert!(effects(Lang::Python, "print(open('README.md').read())").is_empty());
    }

    #[test]
    fn reads_inline_programs_from_the_command_line() {
        let args = |s: &[&str]| s.iter().map(|t| Arg::lit(*t)).collect::<Vec<_>>();
        let texts = |v: Vec<Arg>| v.into_iter().map(|a| a.text).collect::<Vec<_>>();
        assert_eq!(
            texts(inline_programs(Lang::Python, &args(&["-Bc", "x"]))),
            ["x"]
        );
        assert_eq!(
            texts(inline_programs(
                Lang::Python,
                &args(&["script.py", "-c", "x"])
            )),
            Vec::<String>::new()
        );
        assert_eq!(
            texts(inline_programs(
                Lang::Perl,
                &args(&["-MFile::Path", "-le", "a", "-e", "b"])
            )),
            ["a", "b"]
        );
        assert_eq!(
            texts(inline_programs(Lang::Node, &args(&["--eval=x"]))),
            ["x"]
        );
        assert_eq!(
            texts(inline_programs(
                Lang::Ruby,
                &args(&["-rfileutils", "-e", "x"])
            )),
            ["x"]
        );
        assert_eq!(
            texts(inline_programs(
                Lang::Ruby,
                &args(&["-r", "fileutils", "-e", "x"])
            )),
            ["x"]
        );
        assert_eq!(
            texts(inline_programs(
                Lang::Perl,
                &args(&["-i", "-pe", "s/a/b/", "f"])
            )),
            ["s/a/b/"]
        );
        assert_eq!(
            texts(inline_programs(
                Lang::Python,
                &args(&["-m", "pytest", "-c", "x"])
            )),
            Vec::<String>::new()
        );
        assert_eq!(lang("python3.12"), Some(Lang::Python));
        assert_eq!(lang("nodejs"), Some(Lang::Node));
        assert_eq!(lang("pythonista"), None);
    }
}
