//! Where the shell is and what its variables hold, from one command of a
//! Bash call to the next.
//!
//! A rule that looks at `rm -rf *` alone cannot tell the project's build
//! folder from `/`: `cd / && rm -rf *` and `X=/; rm -rf $X` are only
//! dangerous because of a command before them. So the guard follows `cd`,
//! `pushd`, `popd`, assignments, `export`, `unset` and `read` through `&&`,
//! `;`, `||`, subshells and branches, keeping every directory the shell could
//! be in and every value a variable could hold (a few of each; more is
//! "unknown"). What it cannot know — `cd "$X"` with an unknown X, `cd -`
//! before any `cd`, a variable from the environment, anything after
//! `source` — stays unknown, and the policy decides what unknown means for a
//! command that deletes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use super::shell::{Arg, Part};

/// How many directories or values are kept before calling it unknown: enough
/// for `for d in a b c`, few enough that the guard stays fast.
const MAX_CHOICES: usize = 8;

/// Where the shell could be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// In one of these directories.
    At(BTreeSet<PathBuf>),
    /// Anywhere at all (`cd "$X"`, `cd -` with no earlier `cd`, after `source`).
    Anywhere,
}

impl Place {
    fn one(p: PathBuf) -> Place {
        Place::At(BTreeSet::from([p]))
    }

    fn union(&self, other: &Place) -> Place {
        match (self, other) {
            (Place::At(a), Place::At(b)) => {
                let all: BTreeSet<PathBuf> = a.union(b).cloned().collect();
                if all.len() > MAX_CHOICES {
                    Place::Anywhere
                } else {
                    Place::At(all)
                }
            }
            _ => Place::Anywhere,
        }
    }

    /// The directories, when they are known.
    pub fn dirs(&self) -> Option<&BTreeSet<PathBuf>> {
        match self {
            Place::At(d) => Some(d),
            Place::Anywhere => None,
        }
    }
}

/// What a variable could hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// One of these strings (`""` for unset).
    Known(BTreeSet<String>),
    /// Anything (from the environment, `read`, `$(…)`).
    Unknown,
}

impl Value {
    fn one(s: impl Into<String>) -> Value {
        Value::Known(BTreeSet::from([s.into()]))
    }

    fn union(&self, other: &Value) -> Value {
        match (self, other) {
            (Value::Known(a), Value::Known(b)) => {
                let all: BTreeSet<String> = a.union(b).cloned().collect();
                if all.len() > MAX_CHOICES {
                    Value::Unknown
                } else {
                    Value::Known(all)
                }
            }
            _ => Value::Unknown,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Var {
    value: Value,
    exported: bool,
}

/// The shell's state at one command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shell {
    /// The working directory.
    pub cwd: Place,
    oldpwd: Place,
    /// `pushd`'s stack, top first; `None` when not known.
    stack: Option<Vec<Place>>,
    /// Variables this script set or unset; any other name holds whatever
    /// the environment gave it (unknown, but for `HOME`). Shared between
    /// copies until one changes (a state is copied at every command).
    vars: Rc<BTreeMap<String, Var>>,
    /// `HOME` as the guard's own environment has it.
    home: Option<String>,
}

/// A piece of a word whose variables have been put in.
#[derive(Debug, Clone)]
enum Piece {
    Text(String),
    /// Only known when it runs; the text shown for it.
    Unknown(String),
    /// Word splitting of an unquoted expansion.
    Break,
}

impl Shell {
    /// A new shell in `cwd`, with `HOME` from the guard's environment.
    pub fn new(cwd: &Path, home: Option<String>) -> Shell {
        Shell {
            cwd: Place::one(cwd.to_path_buf()),
            oldpwd: Place::Anywhere,
            stack: Some(Vec::new()),
            vars: Rc::default(),
            home,
        }
    }

    /// Either of two states (after `a || b`, after an `if` without knowing
    /// which branch ran).
    pub fn union(&self, other: &Shell) -> Shell {
        if self == other {
            return self.clone();
        }
        let vars = if Rc::ptr_eq(&self.vars, &other.vars) {
            self.vars.clone()
        } else {
            Rc::new(self.union_vars(other))
        };
        Shell {
            cwd: self.cwd.union(&other.cwd),
            oldpwd: self.oldpwd.union(&other.oldpwd),
            stack: if self.stack == other.stack {
                self.stack.clone()
            } else {
                None
            },
            vars,
            home: self.home.clone(),
        }
    }

    fn union_vars(&self, other: &Shell) -> BTreeMap<String, Var> {
        let mut vars = BTreeMap::new();
        for name in self.vars.keys().chain(other.vars.keys()) {
            let v = match (self.vars.get(name), other.vars.get(name)) {
                (Some(a), Some(b)) => Var {
                    value: a.value.union(&b.value),
                    exported: a.exported || b.exported,
                },
                // Set on one side only: the other holds the environment's value.
                (Some(v), None) | (None, Some(v)) => Var {
                    value: Value::Unknown,
                    exported: v.exported,
                },
                (None, None) => continue,
            };
            vars.insert(name.clone(), v);
        }
        vars
    }

    /// The state a new shell process starts in (`bash -c`, an interpreter):
    /// the same directory, the exported variables and `env` (`X=1 bash -c …`).
    pub fn child(&self, env: &[(String, Arg)]) -> Shell {
        let mut vars: BTreeMap<String, Var> = self
            .vars
            .iter()
            .filter(|(_, v)| v.exported)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (name, arg) in env {
            vars.insert(
                name.clone(),
                Var {
                    value: self.value_of(arg),
                    exported: true,
                },
            );
        }
        Shell {
            cwd: self.cwd.clone(),
            oldpwd: self.oldpwd.clone(),
            stack: Some(Vec::new()),
            vars: Rc::new(vars),
            home: self.home.clone(),
        }
    }

    /// `HOME` now.
    pub fn home(&self) -> Option<String> {
        match self.lookup("HOME") {
            Value::Known(v) if v.len() == 1 => v.into_iter().next().filter(|h| !h.is_empty()),
            _ => None,
        }
    }

    fn lookup(&self, name: &str) -> Value {
        if let Some(v) = self.vars.get(name) {
            return v.value.clone();
        }
        let place = |p: &Place| match p {
            Place::At(d) => Value::Known(d.iter().map(|p| p.display().to_string()).collect()),
            Place::Anywhere => Value::Unknown,
        };
        match name {
            "HOME" => self.home.clone().map_or(Value::Unknown, Value::one),
            "PWD" => place(&self.cwd),
            "OLDPWD" => place(&self.oldpwd),
            _ => Value::Unknown,
        }
    }

    /// What `$(script)` prints, when the guard can tell: `pwd` is the
    /// working directory, `mktemp` a new name under /tmp.
    fn output_of(&self, script: &str) -> Value {
        let words: Vec<&str> = script.split_whitespace().collect();
        match words.split_first() {
            Some((&"pwd", rest)) if rest.iter().all(|w| matches!(*w, "-P" | "-L")) => {
                self.lookup("PWD")
            }
            Some((&"mktemp", rest)) => {
                let mut template = "tmp.XXXXXXXXXX";
                for w in rest {
                    match *w {
                        "-d" | "-q" | "-u" | "-t" | "--directory" | "--quiet" | "--dry-run" => {}
                        w if !w.starts_with('-') && !w.contains('/') && !w.contains('$') => {
                            template = w
                        }
                        _ => return Value::Unknown,
                    }
                }
                Value::one(format!("/tmp/{template}"))
            }
            _ => Value::Unknown,
        }
    }

    /// The choices for one part of a word; `collapse` makes a variable with
    /// several values unknown (to bound how many words come out).
    fn choices(&self, part: &Part, collapse: bool) -> Vec<Vec<Piece>> {
        let known = |v: Value, split: bool, shown: &str| -> Vec<Vec<Piece>> {
            match v {
                Value::Known(set) if !(collapse && set.len() > 1) => set
                    .into_iter()
                    .map(|s| {
                        if !split {
                            return vec![Piece::Text(s)];
                        }
                        // An unquoted expansion is split into words.
                        let mut out = Vec::new();
                        for (i, f) in s.split([' ', '\t', '\n']).enumerate() {
                            if i > 0 {
                                out.push(Piece::Break);
                            }
                            out.push(Piece::Text(f.to_owned()));
                        }
                        out
                    })
                    .collect(),
                _ => vec![vec![Piece::Unknown(shown.to_owned())]],
            }
        };
        match part {
            Part::Lit(s) => vec![vec![Piece::Text(s.clone())]],
            Part::Var {
                name,
                quoted,
                exact,
            } => {
                let mut v = self.lookup(name);
                if !exact && matches!(&v, Value::Known(s) if s.iter().any(String::is_empty)) {
                    v = Value::Unknown; // `${X:-…}` of an empty X: the default
                }
                known(v, !quoted, &format!("${name}"))
            }
            Part::Home => known(self.lookup("HOME"), false, "~"),
            Part::Output(script) => known(self.output_of(script), false, "$(…)"),
            Part::Opaque(t) => vec![vec![Piece::Unknown(t.clone())]],
        }
    }

    /// Every way `arg` could come out: each a list of words (an unquoted
    /// expansion may split into several words or vanish).
    fn alternatives(&self, arg: &Arg, collapse: bool) -> Vec<Vec<Arg>> {
        let mut alts: Vec<Vec<Piece>> = vec![Vec::new()];
        for part in &arg.parts {
            let mut c = self.choices(part, collapse);
            if alts.len() * c.len() > MAX_CHOICES {
                c = self.choices(part, true);
            }
            alts = alts
                .iter()
                .flat_map(|a| {
                    c.iter().map(move |ch| {
                        let mut n = a.clone();
                        n.extend(ch.iter().cloned());
                        n
                    })
                })
                .collect();
        }
        // An unquoted expansion that comes out empty is no word at all.
        let droppable = !arg.parts.is_empty()
            && arg
                .parts
                .iter()
                .all(|p| matches!(p, Part::Var { quoted: false, .. } | Part::Output(_)));
        alts.into_iter()
            .map(|pieces| {
                pieces
                    .split(|p| matches!(p, Piece::Break))
                    .map(field)
                    .filter(|a| !(droppable && a.text.is_empty() && !a.dynamic))
                    .collect()
            })
            .collect()
    }

    /// Every command line `argv` could become once its variables are put in
    /// (a few; more makes the multi-valued variables unknown).
    pub fn expand_argv(&self, argv: &[Arg]) -> Vec<Vec<Arg>> {
        let mut per: Vec<Vec<Vec<Arg>>> =
            argv.iter().map(|a| self.alternatives(a, false)).collect();
        if per.iter().map(Vec::len).product::<usize>() > MAX_CHOICES {
            per = argv.iter().map(|a| self.alternatives(a, true)).collect();
        }
        let mut lines: Vec<Vec<Arg>> = vec![Vec::new()];
        for alts in per {
            lines = lines
                .iter()
                .flat_map(|l| {
                    alts.iter().map(move |words| {
                        let mut n = l.clone();
                        n.extend(words.iter().cloned());
                        n
                    })
                })
                .collect();
        }
        lines
    }

    /// Every single word `arg` could become, unsplit (a redirect target, an
    /// interpreter's program).
    pub fn expand_word(&self, arg: &Arg) -> Vec<Arg> {
        self.alternatives(&unsplit(arg), false)
            .into_iter()
            .map(|words| words.into_iter().next().unwrap_or_else(|| Arg::lit("")))
            .collect()
    }

    /// The value an assignment stores.
    fn value_of(&self, arg: &Arg) -> Value {
        let mut set = BTreeSet::new();
        for a in self.expand_word(arg) {
            if a.dynamic {
                return Value::Unknown;
            }
            set.insert(a.text);
        }
        if set.is_empty() || set.len() > MAX_CHOICES {
            Value::Unknown
        } else {
            Value::Known(set)
        }
    }

    /// `NAME=value` with no command: the shell's own variable.
    pub fn assign(&mut self, name: &str, value: &Arg) {
        let value = self.value_of(value);
        self.set(name, value, None);
    }

    fn set(&mut self, name: &str, value: Value, exported: Option<bool>) {
        let was = self.vars.get(name).is_some_and(|v| v.exported);
        Rc::make_mut(&mut self.vars).insert(
            name.to_owned(),
            Var {
                value,
                exported: exported.unwrap_or(was),
            },
        );
    }

    /// `for NAME in WORDS`: the loop variable holds one of the words.
    pub fn bind_loop(&mut self, name: &str, words: Option<&[Arg]>) {
        let mut set = BTreeSet::new();
        let mut known = words.is_some();
        for w in words.unwrap_or_default() {
            for alt in self.alternatives(w, false) {
                for a in alt {
                    known &= !a.dynamic;
                    set.insert(a.text);
                }
            }
        }
        let value = if known && !set.is_empty() && set.len() <= MAX_CHOICES {
            Value::Known(set)
        } else {
            Value::Unknown
        };
        self.set(name, value, None);
    }

    /// Forget everything a sourced script could change.
    fn forget(&mut self) {
        self.cwd = Place::Anywhere;
        self.oldpwd = Place::Anywhere;
        self.stack = None;
        // What the sourced file may have set, it may have exported.
        let vars = Rc::make_mut(&mut self.vars);
        vars.clear();
        vars.insert(
            "HOME".into(),
            Var {
                value: self.home.clone().map_or(Value::Unknown, Value::one),
                exported: true,
            },
        );
    }

    /// Where `cd ARG` goes (no argument: home).
    fn destination(&self, arg: Option<&Arg>) -> Place {
        let texts: Vec<Arg> = match arg {
            None => vec![Arg {
                text: "~".into(),
                dynamic: true,
                parts: vec![Part::Home],
            }],
            Some(a) => vec![a.clone()],
        };
        let mut out = BTreeSet::new();
        for a in texts.iter().flat_map(|a| self.expand_word(a)) {
            if a.dynamic {
                return Place::Anywhere;
            }
            if a.text == "-" {
                match &self.oldpwd {
                    Place::At(d) => out.extend(d.iter().cloned()),
                    Place::Anywhere => return Place::Anywhere,
                }
                continue;
            }
            if Path::new(&a.text).is_absolute() {
                out.insert(resolve(&a.text, Path::new("/")));
                continue;
            }
            match &self.cwd {
                Place::At(dirs) => out.extend(dirs.iter().map(|d| resolve(&a.text, d))),
                Place::Anywhere => return Place::Anywhere,
            }
        }
        if out.is_empty() || out.len() > MAX_CHOICES {
            Place::Anywhere
        } else {
            Place::At(out)
        }
    }

    fn moved_to(&self, dest: Place) -> Shell {
        let mut s = self.clone();
        s.oldpwd = std::mem::replace(&mut s.cwd, dest);
        s
    }

    /// What a builtin that changes the shell does: the state after it
    /// succeeds and after it fails. `None` for any other command.
    pub fn builtin(&self, argv: &[Arg]) -> Option<(Shell, Shell)> {
        let name = argv.first()?.text.as_str();
        let args = &argv[1..];
        let operands: Vec<&Arg> = {
            let mut done = false;
            args.iter()
                .filter(|a| {
                    if done {
                        return true;
                    }
                    if a.text == "--" {
                        done = true;
                        return false;
                    }
                    !(a.text.starts_with('-') && a.text.len() > 1 && !a.dynamic)
                })
                .collect()
        };
        let same = || Some((self.clone(), self.clone()));
        match name {
            "cd" | "chdir" => {
                let dest = self.destination(operands.first().copied());
                Some((self.moved_to(dest), self.clone()))
            }
            "pushd" => {
                let mut s = self.clone();
                match operands.first() {
                    Some(a) if a.text.starts_with('+') || a.text.starts_with('-') => {
                        s.cwd = Place::Anywhere;
                        s.stack = None;
                    }
                    Some(a) => {
                        let dest = self.destination(Some(a));
                        s = self.moved_to(dest);
                        if let Some(st) = s.stack.as_mut() {
                            st.insert(0, self.cwd.clone());
                        }
                    }
                    None => match s.stack.as_mut() {
                        Some(st) if !st.is_empty() => {
                            let top = std::mem::replace(&mut st[0], self.cwd.clone());
                            s = Shell {
                                cwd: top,
                                oldpwd: self.cwd.clone(),
                                ..s
                            };
                        }
                        Some(_) => return Some((self.clone(), self.clone())),
                        None => s.cwd = Place::Anywhere,
                    },
                }
                if args.iter().any(|a| a.text == "-n") {
                    s.cwd = self.cwd.clone();
                    s.stack = None;
                }
                Some((s, self.clone()))
            }
            "popd" => {
                let mut s = self.clone();
                if !operands.is_empty() || args.iter().any(|a| a.text == "-n") {
                    s.stack = None;
                    s.cwd = Place::Anywhere;
                    return Some((s, self.clone()));
                }
                match s.stack.as_mut() {
                    Some(st) if !st.is_empty() => {
                        let top = st.remove(0);
                        s.oldpwd = std::mem::replace(&mut s.cwd, top);
                    }
                    Some(_) => {} // an empty stack: popd fails, nothing moves
                    None => s.cwd = Place::Anywhere,
                }
                Some((s, self.clone()))
            }
            "export" | "declare" | "typeset" | "local" | "readonly" => {
                let flags: String = args
                    .iter()
                    .take_while(|a| a.text.starts_with('-') && !a.dynamic)
                    .flat_map(|a| a.text.chars().skip(1))
                    .collect();
                if flags.contains('f') || flags.contains('F') || flags.contains('p') {
                    return same();
                }
                let exported = (name == "export" || flags.contains('x')).then_some(true);
                let mut s = self.clone();
                for a in args
                    .iter()
                    .skip_while(|a| a.text.starts_with('-') && !a.dynamic)
                {
                    match split_assignment(a) {
                        Some((n, v)) => {
                            let value = if flags.contains('n') || flags.contains('a') {
                                Value::Unknown
                            } else {
                                s.value_of(&v)
                            };
                            s.set(&n, value, exported);
                        }
                        None if a.dynamic => s.forget(),
                        None if name == "export" => {
                            let value = s.lookup(&a.text);
                            s.set(&a.text, value, Some(true));
                        }
                        None => s.set(&a.text, Value::one(""), exported),
                    }
                }
                Some((s.clone(), s))
            }
            "unset" => {
                if args.iter().any(|a| a.text == "-f") {
                    return same();
                }
                let mut s = self.clone();
                for a in &operands {
                    s.set(&a.text, Value::one(""), Some(false));
                }
                Some((s.clone(), s))
            }
            "read" | "mapfile" | "readarray" | "getopts" | "printf" => {
                let mut s = self.clone();
                let valued = [
                    "-p", "-d", "-n", "-N", "-t", "-u", "-i", "-C", "-c", "-O", "-s",
                ];
                let mut names = Vec::new();
                let mut i = 0;
                while i < args.len() {
                    let t = args[i].text.as_str();
                    if t == "-a" || t == "-v" {
                        names.extend(args.get(i + 1).map(|a| a.text.clone()));
                        i += 2;
                    } else if valued.contains(&t) {
                        i += 2;
                    } else if t.starts_with('-') {
                        i += 1;
                    } else {
                        if name == "read" {
                            names.push(t.to_owned());
                        }
                        i += 1;
                    }
                }
                match name {
                    "mapfile" | "readarray" => {
                        names.push(operands.last().map_or("MAPFILE".into(), |a| a.text.clone()))
                    }
                    "getopts" => names.extend(operands.get(1).map(|a| a.text.clone())),
                    "read" if names.is_empty() => names.push("REPLY".into()),
                    _ => {}
                }
                for n in names {
                    s.set(&n, Value::Unknown, None);
                }
                Some((s.clone(), s))
            }
            "source" | "." => {
                let mut s = self.clone();
                s.forget();
                Some((s.clone(), s))
            }
            _ => None,
        }
    }
}

/// `NAME=value` (an argument of `export`) split in two.
fn split_assignment(a: &Arg) -> Option<(String, Arg)> {
    let Some(Part::Lit(first)) = a.parts.first() else {
        return None;
    };
    let (name, rest) = first.split_once('=')?;
    let name = name.strip_suffix('+').unwrap_or(name);
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let mut parts = a.parts.clone();
    parts[0] = Part::Lit(rest.to_owned());
    let text = a.text.split_once('=').map_or("", |(_, v)| v).to_owned();
    Some((
        name.to_owned(),
        Arg {
            text,
            dynamic: a.dynamic,
            parts,
        },
    ))
}

/// `arg` with its expansions marked quoted: one word whatever they hold.
fn unsplit(arg: &Arg) -> Arg {
    let mut a = arg.clone();
    for p in &mut a.parts {
        if let Part::Var { quoted, .. } = p {
            *quoted = true;
        }
    }
    a
}

/// One word from its pieces.
fn field(pieces: &[Piece]) -> Arg {
    let mut a = Arg {
        text: String::new(),
        dynamic: false,
        parts: Vec::new(),
    };
    for p in pieces {
        match p {
            Piece::Text(t) => {
                a.text.push_str(t);
                match a.parts.last_mut() {
                    Some(Part::Lit(l)) => l.push_str(t),
                    _ => a.parts.push(Part::Lit(t.clone())),
                }
            }
            Piece::Unknown(t) => {
                a.dynamic = true;
                a.text.push_str(t);
                a.parts.push(Part::Opaque(t.clone()));
            }
            Piece::Break => {}
        }
    }
    a
}

/// `path` made absolute against `cwd`, with `.` and `..` folded away.
pub fn resolve(path: &str, cwd: &Path) -> PathBuf {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ralph::guard::shell::parse;

    fn argv(cmd: &str) -> Vec<Arg> {
        parse(cmd).unwrap().commands.remove(0).argv
    }

    fn sh() -> Shell {
        Shell::new(Path::new("/work/p"), Some("/home/u".into()))
    }

    fn after(s: &Shell, cmd: &str) -> Shell {
        s.builtin(&argv(cmd)).unwrap().0
    }

    #[test]
    fn cd_pushd_popd_move_the_shell() {
        let s = after(&sh(), "cd build");
        assert_eq!(s.cwd, Place::one("/work/p/build".into()));
        assert_eq!(after(&s, "cd").cwd, Place::one("/home/u".into()));
        assert_eq!(after(&s, "cd -").cwd, Place::one("/work/p".into()));
        assert_eq!(after(&sh(), "cd -").cwd, Place::Anywhere);
        assert_eq!(after(&sh(), "cd \"$X\"").cwd, Place::Anywhere);
        let s = after(&sh(), "pushd /tmp");
        assert_eq!(s.cwd, Place::one("/tmp".into()));
        assert_eq!(after(&s, "popd").cwd, Place::one("/work/p".into()));
        // popd on an empty stack fails: the shell stays.
        assert_eq!(after(&sh(), "popd").cwd, Place::one("/work/p".into()));
    }

    #[test]
    fn variables_are_put_in_and_split() {
        let mut s = sh();
        s.assign("X", &Arg::lit("/"));
        let lines = s.expand_argv(&argv("rm -rf $X"));
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0][2].text, "/");
        assert!(!lines[0][2].dynamic);
        s.assign("Y", &Arg::lit("a /"));
        let words: Vec<String> = s.expand_argv(&argv("rm -rf $Y"))[0]
            .iter()
            .map(|a| a.text.clone())
            .collect();
        assert_eq!(words, ["rm", "-rf", "a", "/"]);
        // Quoted: one word.
        assert_eq!(s.expand_argv(&argv("rm -rf \"$Y\""))[0].len(), 3);
        // Unknown stays unknown; unset is empty and an unquoted empty vanishes.
        let l = &s.expand_argv(&argv("rm -rf \"$DIR\"/"))[0];
        assert!(l[2].dynamic && l[2].text == "$DIR/");
        let u = after(&s, "unset Z");
        assert_eq!(u.expand_argv(&argv("rm -rf $Z"))[0].len(), 2);
        assert_eq!(u.expand_argv(&argv("rm -rf \"$Z\"/"))[0][2].text, "/");
        assert_eq!(s.expand_argv(&argv("ls ~/x $HOME"))[0][1].text, "/home/u/x");
    }

    #[test]
    fn branches_merge() {
        let a = after(&sh(), "cd /a");
        let b = after(&sh(), "cd /b");
        let m = a.union(&b);
        assert_eq!(m.cwd.dirs().unwrap().len(), 2);
        let mut x = sh();
        x.assign("V", &Arg::lit("1"));
        assert_eq!(x.union(&sh()).lookup("V"), Value::Unknown);
        let e = after(&sh(), "export X=/tmp");
        assert_eq!(e.child(&[]).lookup("X"), Value::one("/tmp"));
        let mut n = sh();
        n.assign("Y", &Arg::lit("/tmp"));
        assert_eq!(n.child(&[]).lookup("Y"), Value::Unknown);
    }
}
