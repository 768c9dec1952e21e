//! The CI and pre-commit recipes, run by the real tools from PyPI
//! (`.ci/pytools` installs them; `.ci/test` names them in GSD_PRE_COMMIT and
//! GSD_CHECK_JSONSCHEMA): `action.yml` validates against the GitHub Actions
//! schema, and `pre-commit try-repo` runs the `gsd-lint` hook on a sample
//! repository, failing a broken tree and passing a fixed one.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::*;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn tool(var: &str) -> PathBuf {
    PathBuf::from(
        std::env::var_os(var)
            .unwrap_or_else(|| panic!("{var} is set (this test is ignored without it)")),
    )
}

fn check_action(file: &Path) -> Output {
    Command::new(tool("GSD_CHECK_JSONSCHEMA"))
        .args(["--builtin-schema", "vendor.github-actions"])
        .arg(file)
        .output()
        .unwrap()
}

#[test]
#[cfg_attr(
    not(gsd_check_jsonschema),
    ignore = "needs check-jsonschema from PyPI in GSD_CHECK_JSONSCHEMA (bash .ci/test installs it)"
)]
fn action_yml_validates_against_the_github_actions_schema() {
    let o = check_action(&repo().join("action.yml"));
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    // The validator does reject a broken action (a composite step without `shell`).
    let text = std::fs::read_to_string(repo().join("action.yml")).unwrap();
    let broken = text.replacen("      shell: bash\n", "", 1);
    assert_ne!(broken, text);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("action.yml"), broken).unwrap();
    let o = check_action(&dir.path().join("action.yml"));
    assert!(
        !o.status.success(),
        "a step without shell passed: {}",
        stdout(&o)
    );
}

/// A sample repository whose `.planning/` is a copy of `fixture`, committed.
fn sample(fixture: &str) -> tempfile::TempDir {
    let t = repo_of(fixture);
    git(t.path(), &["add", "-A"]);
    t
}

/// A `cargo` ahead of the real one on PATH that adds `--locked` and `--debug`
/// to `cargo install` (`--debug`: the dev profile `common::quick_install`
/// seeds its build folder for). pre-commit builds the hook with `cargo install --path`,
/// which resolves the dependencies afresh; with any crate released since
/// Cargo.lock was written (there always is one) that rebuilt every
/// dependency the install test had just built in the same target folder —
/// 7 minutes of CI. What this test proves is the hook's wiring; the
/// lockfile's build is the install test's.
fn locked_cargo(dir: &Path) -> std::ffi::OsString {
    let real = env!("CARGO");
    let shim = dir.join("cargo");
    std::fs::write(
        &shim,
        format!(
            "#!/bin/sh\nif [ \"$1\" = install ]; then shift; exec '{real}' install --locked --debug \"$@\"; fi\nexec '{real}' \"$@\"\n"
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut path = std::ffi::OsString::from(dir);
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    path
}

fn try_repo(sample: &Path, home: &Path) -> Output {
    let bin = tempfile::tempdir().unwrap();
    Command::new(tool("GSD_PRE_COMMIT"))
        .args(["try-repo"])
        .arg(repo())
        .args(["gsd-lint", "--all-files", "--color", "never"])
        .current_dir(sample)
        .env("PRE_COMMIT_HOME", home)
        .env("PATH", locked_cargo(bin.path()))
        // pre-commit builds the hook with `cargo install`.
        .envs(common::quick_install("pre-commit"))
        .output()
        .unwrap()
}

#[test]
#[cfg_attr(
    not(gsd_pre_commit),
    ignore = "needs pre-commit from PyPI in GSD_PRE_COMMIT (bash .ci/test installs it)"
)]
fn pre_commit_fails_a_broken_tree_and_passes_a_fixed_one() {
    let home = tempfile::tempdir().unwrap();
    let broken = sample("all-rules");
    let o = try_repo(broken.path(), home.path());
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(out.contains("gsd lint") && out.contains("Failed"), "{out}");
    assert!(out.contains("error(s)"), "gsd's findings are shown: {out}");

    let fixed = sample("clean");
    let o = try_repo(fixed.path(), home.path());
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("gsd lint") && out.contains("Passed"), "{out}");

    // pre-commit built the hook with `cargo install --path` (the README's
    // route onto PATH) in the build folder `quick_install` gave it; its
    // try-repo store is gone with it, the binary it copied from is not. That
    // gsd runs on its own: this is the install check where pre-commit is here
    // (`tests/install.rs` otherwise), so the suite compiles gsd with cargo
    // once, not twice.
    let [(_, target)] = common::quick_install("pre-commit");
    common::assert_installed_gsd_works(&PathBuf::from(target).join("debug/gsd"));
}
