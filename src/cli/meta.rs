//! Commands about gsd itself rather than a planning tree: shell completions
//! and the man page, both generated from the clap definition so they never
//! drift from the real flags.

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::args::Cli;
use crate::cli::error::CliError;
use crate::cli::output::Output;

/// `gsd completions SHELL`: the script to source or install.
pub fn completions(shell: Shell) -> Result<Output, CliError> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "gsd", &mut buf);
    Ok(Output::ok(String::from_utf8_lossy(&buf).into_owned()))
}

/// `gsd man`: roff for `man -l -`, the top page followed by one section per
/// command so one page holds every flag.
pub fn man() -> Result<Output, CliError> {
    let cmd = Cli::command();
    let mut buf = Vec::new();
    let io =
        |e: std::io::Error| CliError::input(format!("could not render the man page: {e}"), None);
    clap_mangen::Man::new(cmd.clone())
        .render(&mut buf)
        .map_err(io)?;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        render_command_section(&mut buf, &format!("gsd {}", sub.get_name()), sub).map_err(io)?;
    }
    Ok(Output::ok(ascii_roff(&String::from_utf8_lossy(&buf))))
}

/// roff input is read as Latin-1 unless a preprocessor says otherwise, so
/// every non-ASCII character (`…`, `—`, `→` in help texts) is written as the
/// `\[uXXXX]` escape that groff and mandoc both read.
fn ascii_roff(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", c as u32));
        }
    }
    out
}

/// One `.SH` section for a command and, below it, its own subcommands.
fn render_command_section(
    buf: &mut Vec<u8>,
    path: &str,
    cmd: &clap::Command,
) -> std::io::Result<()> {
    use std::io::Write;
    let man = clap_mangen::Man::new(cmd.clone().bin_name(path.to_owned()));
    writeln!(buf, ".SH \"{}\"", path.to_uppercase().replace('-', "\\-"))?;
    if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
        writeln!(buf, "{}", escape(&about.to_string()))?;
    }
    man.render_synopsis_section(buf)?;
    man.render_options_section(buf)?;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        render_command_section(buf, &format!("{path} {}", sub.get_name()), sub)?;
    }
    Ok(())
}

/// Text for roff: a leading `.` or `'` would be read as a request.
fn escape(s: &str) -> String {
    s.lines()
        .map(|l| {
            let l = l.replace('\\', "\\e").replace('-', "\\-");
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
