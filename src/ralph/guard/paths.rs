//! What a path is to the guard: one whose loss destroys the machine or the
//! user's home (`/`, a top-level folder, a home folder), a system tree or a
//! file the shell runs at start (never written), a device, or a secret.
//!
//! A target is judged in every directory the shell could be in and with
//! every value its variables could hold ([`super::cwd`]). In strict mode a
//! deletion whose target is only known when it runs is judged for what the
//! unknown part could be — empty, `/` or `$HOME` — because that is how
//! `rm -rf "$DIR"/` with an unset `DIR` destroys a machine; and a relative
//! target after a `cd` the guard cannot follow could be relative to `/` or
//! to home.

use std::path::{Path, PathBuf};

use super::cwd::{Place, resolve};
use super::policy::{Check, Cx, Policy};
use super::shell::{Arg, Part};

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
/// Of [`PROTECTED`], the trees people also keep projects in: a project
/// there may write inside itself.
const PROJECT_TREES: &[&str] = &["/root", "/var", "/opt"];
/// Files under `$HOME` that a shell, ssh, git or the desktop runs or reads
/// at start: writing them changes what every later session does.
const HOME_STARTUP: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zlogout",
    ".cshrc",
    ".tcshrc",
    ".kshrc",
    ".inputrc",
    ".pam_environment",
    ".xprofile",
    ".xinitrc",
    ".gitconfig",
    ".ssh",
    ".gnupg",
    ".config/fish",
    ".config/git",
    ".config/autostart",
    ".config/systemd",
];
/// Writable device files that are not disks.
const HARMLESS_DEVICES: &[&str] = &["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"];

/// Why losing a target would be a disaster.
pub(super) struct Doom {
    /// What would be lost (`/`, `the home directory`, `/usr`).
    what: String,
    /// When this is only a guess: what is unknown.
    guess: Option<String>,
}

impl Doom {
    /// The denial. `harm` says what happens to `{}`: "would destroy {}".
    /// "`rm -r` of / would destroy it", or in strict mode "`rm -r` of
    /// `$DIR/` would destroy / if `$DIR` is unset, empty, `/` or $HOME: …".
    pub(super) fn says(&self, act: &str, target: &Arg, harm: &str) -> String {
        match &self.guess {
            None => format!("{act} {} {}", self.what, harm.replace("{}", "it")),
            Some(unknown) => format!(
                "{act} `{}` {} if {unknown}: that is only known when it runs; strict mode denies it",
                target.text,
                harm.replace("{}", &self.what)
            ),
        }
    }
}

impl Policy {
    /// The absolute paths `target` may name, each with whether it is a
    /// guess. `guesses`: put empty, `/` and `$HOME` in for what is unknown
    /// (parts of the word, or the directory after an unknown `cd`).
    /// `wipe`: a glob of everything in a folder (`dir/*`, `dir/.*`, `*`)
    /// stands for the folder.
    fn places(&self, target: &Arg, cx: Cx, guesses: bool, wipe: bool) -> Vec<(PathBuf, bool)> {
        let mut texts = Vec::new();
        if target.dynamic && guesses {
            let mut subs = vec![String::new(), "/".to_owned()];
            subs.extend(self.home.clone());
            for g in subs {
                let t: String = target
                    .parts
                    .iter()
                    .map(|p| match p {
                        Part::Lit(l) => l.as_str(),
                        _ => g.as_str(),
                    })
                    .collect();
                texts.push((t, true));
            }
        } else {
            texts.push((target.text.clone(), false));
        }
        let mut out = Vec::new();
        for (t, guessed) in texts {
            if t.is_empty() {
                continue; // `rm -rf ""` removes nothing
            }
            let t = self.expand_home(&t);
            let t = if wipe { wiped(&t) } else { t };
            if Path::new(&t).is_absolute() {
                out.push((resolve(&t, Path::new("/")), guessed));
                continue;
            }
            match &cx.sh.cwd {
                Place::At(dirs) => out.extend(dirs.iter().map(|d| (resolve(&t, d), guessed))),
                Place::Anywhere if guesses => {
                    out.push((resolve(&t, Path::new("/")), true));
                    if let Some(h) = &self.home {
                        out.push((resolve(&t, Path::new(h)), true));
                    }
                }
                Place::Anywhere => out.push((resolve(&t, &cx.call.project), guessed)),
            }
        }
        out
    }

    /// Whether deleting (moving away, changing recursively) `target` would
    /// destroy `/`, a top-level folder or a home folder; `guesses` (honoured
    /// in strict mode) judges what is unknown by what it could be.
    pub(super) fn doom(&self, target: &Arg, cx: Cx, guesses: bool) -> Option<Doom> {
        let guesses = guesses && self.config.strict;
        for (abs, guessed) in self.places(target, cx, guesses, true) {
            let Some(what) = self.doomed(&abs) else {
                continue;
            };
            let guess = guessed.then(|| {
                let unknown: Vec<String> = target
                    .parts
                    .iter()
                    .filter(|p| !matches!(p, Part::Lit(_)))
                    .map(|p| match p {
                        Part::Opaque(t) => format!("`{t}`"),
                        _ => "a part of it".to_owned(),
                    })
                    .collect();
                if unknown.is_empty() {
                    "the working directory (after a `cd` the guard cannot follow) is / or $HOME"
                        .to_owned()
                } else {
                    format!("{} is unset, empty, `/` or $HOME", unknown.join(", "))
                }
            });
            return Some(Doom { what, guess });
        }
        None
    }

    fn doomed(&self, abs: &Path) -> Option<String> {
        if abs == Path::new("/") {
            return Some("/".into());
        }
        if let Some(h) = self.home.as_deref().map(Path::new) {
            if abs == h {
                return Some("the home directory".into());
            }
            if h.starts_with(abs) {
                return Some(format!("{} (it holds the home directory)", abs.display()));
            }
        }
        let n = abs.components().count();
        // A guess at the top level is doomed too: with its variable unset,
        // `$BUILD_ROOT/build` is `/build`, and the variable could be anything.
        if n == 2 {
            return Some(abs.display().to_string());
        }
        if n == 3 && (abs.starts_with("/home") || abs.starts_with("/Users")) {
            return Some(format!("{} (a home directory)", abs.display()));
        }
        None
    }

    /// Refuse writes into system trees, to devices, to the files a shell
    /// runs at start and to secrets.
    pub(super) fn writable(&self, target: &Arg, cx: Cx, verb: &str) -> Check {
        for (p, _) in self.places(target, cx, false, false) {
            self.writable_path(&p, &target.text, &cx.call.project, verb)?;
        }
        if let Some(why) = self.sensitive_in(&target.text, cx) {
            return Err(why);
        }
        Ok(())
    }

    /// One absolute path a command or tool writes; `shown` is how the call
    /// named it. Under `$HOME` nothing is a system tree (a home in /root is
    /// the user's own), and a project kept in /opt, /var or /root may write
    /// inside itself.
    pub(super) fn writable_path(&self, p: &Path, shown: &str, project: &Path, verb: &str) -> Check {
        let s = p.to_string_lossy();
        // /dev/shm is a tmpfs folder like /tmp, and a project kept under
        // /dev (a RAM disk's checkout) writes its own files, not devices.
        if s.starts_with("/dev/")
            && !HARMLESS_DEVICES.contains(&s.as_ref())
            && !s.starts_with("/dev/fd/")
            && !s.starts_with("/dev/shm/")
            && !p.starts_with(project)
        {
            return Err(format!("{verb} a device (`{shown}` is {s})"));
        }
        let home = self.home.as_deref().map(Path::new);
        if let Some(rel) = home.and_then(|h| p.strip_prefix(h).ok())
            && let Some(f) = HOME_STARTUP.iter().find(|f| rel.starts_with(f))
        {
            return Err(format!(
                "{verb} `{shown}`: ~/{f} is read by every later shell, ssh or git session; an agent never changes it"
            ));
        }
        let under_home = home.is_some_and(|h| p.starts_with(h) && p != h);
        for root in PROTECTED {
            if !p.starts_with(root) {
                continue;
            }
            if *root == "/var" && (p.starts_with("/var/tmp") || p.starts_with("/var/folders")) {
                continue;
            }
            let own_project = PROJECT_TREES.contains(root)
                && project.starts_with(root)
                && project != Path::new(root)
                && p.starts_with(project);
            if under_home || own_project {
                continue;
            }
            return Err(format!("{verb} `{shown}` under {root}, a system directory"));
        }
        Ok(())
    }

    pub(super) fn expand_home(&self, text: &str) -> String {
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

    /// [`Policy::sensitive`] in each directory the shell could be in.
    pub(super) fn sensitive_in(&self, path: &str, cx: Cx) -> Option<String> {
        match cx.sh.cwd.dirs() {
            Some(dirs) => dirs.iter().find_map(|d| self.sensitive(path, d)),
            None => self.sensitive(path, &cx.call.project),
        }
    }

    /// Secrets: `.env` files, keys, credentials (and config.json's deny_paths).
    pub(super) fn sensitive(&self, path: &str, cwd: &Path) -> Option<String> {
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
        // `.env`, `.env.local`, `.env.production.bak`: secrets. A file
        // marked as an example anywhere in its name (`.env.example`,
        // `.env.example.bak`, `.env.local.sample`) holds none.
        let env_file = name == ".env"
            || (name.starts_with(".env.")
                && !name[5..].split('.').any(|part| {
                    matches!(
                        part,
                        "example" | "sample" | "template" | "dist" | "defaults" | "tpl" | "tmpl"
                    )
                }));
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

/// The folder a deletion wipes: `dir/*`, `dir/.*`, `dir/.` and `dir/` are
/// `dir`; `*` alone is the working directory.
fn wiped(text: &str) -> String {
    let mut t = text.to_owned();
    loop {
        let trimmed = t.trim_end_matches('/');
        if trimmed.is_empty() {
            return "/".into();
        }
        let (dir, last) = match trimmed.rsplit_once('/') {
            Some((d, l)) => (Some(d), l),
            None => (None, trimmed),
        };
        let catch_all =
            last == "." || last.contains('*') && last.chars().all(|c| "*?.[]!^".contains(c));
        if !catch_all {
            return trimmed.to_owned();
        }
        t = match dir {
            Some("") => "/".into(),
            Some(d) => d.to_owned(),
            None => return ".".into(),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::wiped;

    #[test]
    fn globs_of_everything_stand_for_the_folder() {
        for (t, w) in [
            ("/*", "/"),
            ("/", "/"),
            ("~/*", "~"),
            ("~/.*", "~"),
            ("*", "."),
            ("./*", "."),
            ("build/*", "build"),
            ("/home/*/", "/home"),
            ("*.rs", "*.rs"),
            ("src/", "src"),
            ("..", ".."),
        ] {
            assert_eq!(wiped(t), w, "{t}");
        }
    }
}
