//! gsd onto PATH the way README.md says: `cargo install --path .` into a
//! fresh root gives a `gsd` that runs, and the published package carries the
//! sources and templates only.

mod common;

use std::path::Path;
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where pre-commit is installed, its test (`tests/recipes.rs`) makes these
/// same checks on the gsd its `cargo install --path` built: gsd compiled
/// once by cargo instead of twice, minutes of the CI budget.
#[test]
#[cfg_attr(
    gsd_pre_commit,
    ignore = "pre_commit_fails_a_broken_tree_and_passes_a_fixed_one installs gsd with cargo install and checks it"
)]
fn cargo_install_puts_a_working_gsd_in_the_root() {
    let root = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO"))
        .args(["install", "--locked", "--debug", "--quiet", "--path"])
        .arg(repo())
        .arg("--root")
        .arg(root.path())
        .envs(common::quick_install("cargo-install"))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "cargo install failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    common::assert_installed_gsd_works(&root.path().join("bin/gsd"));
}

#[test]
fn the_package_lists_sources_templates_and_metadata_only() {
    let o = Command::new(env!("CARGO"))
        .args(["package", "--allow-dirty", "--no-verify", "--list"])
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let listed = String::from_utf8_lossy(&o.stdout);
    let files: Vec<&str> = listed.lines().collect();
    let top = [
        ".cargo_vcs_info.json",
        "Cargo.lock",
        "Cargo.toml",
        "Cargo.toml.orig",
        "LICENSE",
        "README.md",
        "build.rs",
    ];
    let stray: Vec<&&str> = files
        .iter()
        .filter(|f| !(f.starts_with("src/") || f.starts_with("templates/") || top.contains(f)))
        .collect();
    assert!(stray.is_empty(), "stray files in the package: {stray:?}");
    for needed in [
        "src/main.rs",
        "src/lib.rs",
        "templates/PLAN.md.j2",
        "LICENSE",
        "Cargo.lock",
    ] {
        assert!(files.contains(&needed), "{needed} missing from the package");
    }
    // Metadata crates.io asks for.
    let toml = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    for key in [
        "description",
        "license",
        "repository",
        "readme",
        "keywords",
        "categories",
        "rust-version",
    ] {
        assert!(
            toml.lines().any(|l| l.starts_with(&format!("{key} ="))),
            "Cargo.toml lacks {key}"
        );
    }
}
