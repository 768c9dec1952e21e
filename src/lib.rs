//! gsd: a fast, exact toolkit for GSD `.planning/` directories.
//!
//! Layers, each depending only on those above it: `doc` (lossless text),
//! `model` (typed GSD), `lint` (rules and reports). The CLI lives in `cli`
//! and is the only place that parses arguments or prints.

pub mod cli;
pub mod convert;
pub mod doc;
pub mod edit;
pub mod export;
pub mod lint;
pub mod model;
pub mod ops;
pub mod ralph;
pub mod render;
pub mod sdk;
pub mod store;
