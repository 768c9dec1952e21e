//! How output looks: colour on or off, and `-q`.
//!
//! Colour follows the usual contract so gsd behaves like the other tools in a
//! pipeline: `--color always|never` wins; under `auto`, `NO_COLOR` (set and
//! non-empty) turns it off, `CLICOLOR_FORCE` (set, not `0`) turns it on for a
//! pipe, `CLICOLOR=0` turns it off, and otherwise a terminal gets colour.

use std::io::IsTerminal;

use clap::ValueEnum;

/// `--color`.
#[derive(Debug, Clone, Copy, Default, ValueEnum, PartialEq, Eq)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// What the environment says about colour (read once, so the rule is pure).
#[derive(Debug, Clone, Copy, Default)]
pub struct ColorEnv {
    pub no_color: bool,
    pub clicolor_force: bool,
    /// `CLICOLOR=0`.
    pub clicolor_off: bool,
}

impl ColorEnv {
    /// Read by hand: anstyle-query counts `CLICOLOR_FORCE=0` as forcing,
    /// where the convention (bixense.com/clicolors) says `0` does not.
    pub fn read() -> Self {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        ColorEnv {
            no_color: var("NO_COLOR").is_some(),
            clicolor_force: var("CLICOLOR_FORCE").is_some_and(|v| v != "0"),
            clicolor_off: var("CLICOLOR").is_some_and(|v| v == "0"),
        }
    }
}

/// Whether a stream gets colour.
pub fn colored(choice: ColorChoice, env: ColorEnv, is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if env.no_color => false,
        ColorChoice::Auto if env.clicolor_force => true,
        ColorChoice::Auto if env.clicolor_off => false,
        ColorChoice::Auto => is_terminal,
    }
}

/// The decisions for this process.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub stdout_color: bool,
    pub stderr_color: bool,
    /// `-q`: nothing on stdout and no notes or warnings on stderr; errors and
    /// the exit code stay.
    pub quiet: bool,
}

impl Style {
    pub fn new(choice: ColorChoice, quiet: bool) -> Self {
        let env = ColorEnv::read();
        Style {
            stdout_color: colored(choice, env, std::io::stdout().is_terminal()),
            stderr_color: colored(choice, env, std::io::stderr().is_terminal()),
            quiet,
        }
    }

    /// Error reports on stderr follow the same decision.
    ///
    /// Messages are wrapped to the terminal's width only on a terminal: in
    /// a pipe or a CI log a wrapped line breaks a path or a phrase someone
    /// greps for, at a column that depends on how long the path was.
    pub fn install_error_handler(self) {
        let color = self.stderr_color;
        let wrap = std::io::stderr().is_terminal();
        let _ = miette::set_hook(Box::new(move |_| {
            Box::new(
                miette::MietteHandlerOpts::new()
                    .color(color)
                    .wrap_lines(wrap)
                    .build(),
            )
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(no_color: bool, force: bool, off: bool) -> ColorEnv {
        ColorEnv {
            no_color,
            clicolor_force: force,
            clicolor_off: off,
        }
    }

    #[test]
    fn the_flag_wins_over_the_environment() {
        assert!(colored(ColorChoice::Always, env(true, false, true), false));
        assert!(!colored(ColorChoice::Never, env(false, true, false), true));
    }

    #[test]
    fn auto_honours_no_color_then_clicolor_force_then_the_terminal() {
        assert!(!colored(ColorChoice::Auto, env(true, true, false), true));
        assert!(colored(ColorChoice::Auto, env(false, true, false), false));
        assert!(!colored(ColorChoice::Auto, env(false, false, true), true));
        assert!(colored(ColorChoice::Auto, env(false, false, false), true));
        assert!(!colored(ColorChoice::Auto, env(false, false, false), false));
    }
}
