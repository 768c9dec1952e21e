//! gsd: a fast, exact toolkit for GSD `.planning/` directories.
//!
//! Layers, each depending only on those above it: `doc` (lossless text),
//! `model` (typed GSD), `lint` (rules and reports). The CLI lives in `cli`
//! and is the only place that parses arguments or prints.

/// `eprintln!` that cannot panic: when stderr is a pipe whose reader has
/// gone (`gsd … 2>&1 | head -1`, a hook runner that closed it), the message
/// is lost and the command still ends with its own exit code, not 101.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// [`errln!`] without the newline.
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr().lock(), $($arg)*);
    }};
}

pub mod cli;
pub mod convert;
pub mod doc;
pub mod edit;
pub mod export;
pub mod lint;
pub mod mcp;
pub mod model;
pub mod ops;
pub mod ralph;
pub mod render;
pub mod sdk;
pub mod store;
pub mod view;
