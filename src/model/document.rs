//! A planning file read once: its source, frontmatter split and YAML tree.
//!
//! Every typed document (plan, summary, state, …) starts from a `Document`,
//! and the linter reports frontmatter problems from here, so the YAML of a
//! file is parsed exactly once.

use std::path::Path;
use std::sync::Arc;

use crate::doc::frontmatter::{self, Split};
use crate::doc::yaml::{self, Node, YamlError};
use crate::doc::{Source, Span};

/// What the frontmatter of a file turned out to be.
#[derive(Debug, Clone)]
pub enum Frontmatter {
    /// The file has no `---` block.
    Absent,
    /// An opening `---` line with no closing one.
    Unterminated { open: Span },
    /// The block is not valid YAML (or hit a safety limit).
    Invalid(YamlError),
    /// Valid YAML that is not a mapping (or is empty).
    NotMapping(Option<Node>),
    /// A mapping.
    Map(Node),
}

/// One text file of the planning tree.
#[derive(Debug, Clone)]
pub struct Document {
    pub source: Source,
    /// Path relative to the project root (for messages and output), shared
    /// with the findings about the file (a big tree has a hundred thousand).
    pub rel_path: Arc<Path>,
    pub split: Split,
    pub frontmatter: Frontmatter,
}

impl Document {
    /// Parse a markdown-like file: split the frontmatter and read its YAML.
    pub fn parse(source: Source, rel_path: impl Into<Arc<Path>>) -> Self {
        let rel_path = rel_path.into();
        let Some(text) = source.text() else {
            // Not UTF-8: nothing is parsed, so the body is empty text.
            let body = Span::empty(0);
            return Document {
                source,
                rel_path,
                split: Split::None { body },
                frontmatter: Frontmatter::Absent,
            };
        };
        let split = frontmatter::split(text, source.content_start());
        let frontmatter = match split {
            Split::None { .. } => Frontmatter::Absent,
            Split::Unterminated { open, .. } => Frontmatter::Unterminated { open },
            Split::Found { frontmatter, .. } => match yaml::parse(text, frontmatter.yaml) {
                Err(e) => Frontmatter::Invalid(e),
                Ok(Some(node)) if node.as_map().is_some() => Frontmatter::Map(node),
                Ok(other) => Frontmatter::NotMapping(other),
            },
        };
        Document {
            source,
            rel_path,
            split,
            frontmatter,
        }
    }

    /// A file that is not markdown: no frontmatter is looked for.
    pub fn plain(source: Source, rel_path: impl Into<Arc<Path>>) -> Self {
        let rel_path = rel_path.into();
        let body = match source.text() {
            Some(_) => Span::new(source.content_start().min(source.len()), source.len()),
            None => Span::empty(0),
        };
        Document {
            source,
            rel_path,
            split: Split::None { body },
            frontmatter: Frontmatter::Absent,
        }
    }

    pub fn text(&self) -> &str {
        self.source.text_or_empty()
    }

    pub fn path(&self) -> &Path {
        self.source.path()
    }

    pub fn body(&self) -> Span {
        self.split.body()
    }

    /// The frontmatter mapping, when it parsed.
    pub fn fm(&self) -> Option<&Node> {
        match &self.frontmatter {
            Frontmatter::Map(n) => Some(n),
            _ => None,
        }
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.source.line_of(offset)
    }

    /// The file name.
    pub fn file_name(&self) -> &str {
        self.rel_path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
    }

    /// Reassemble the file from its parsed parts (frontmatter fences, YAML,
    /// body). Used to prove the spans tile the file exactly.
    pub fn reassemble(&self) -> Vec<u8> {
        let bytes = self.source.bytes();
        let mut out = Vec::with_capacity(bytes.len());
        out.extend_from_slice(&bytes[..self.source.content_start().min(bytes.len())]);
        match self.split {
            Split::Found { frontmatter, body } => {
                for span in [frontmatter.open, frontmatter.yaml, frontmatter.close, body] {
                    out.extend_from_slice(&bytes[span.start..span.end]);
                }
            }
            Split::None { body } | Split::Unterminated { body, .. } => {
                if self.source.text().is_some() {
                    out.extend_from_slice(&bytes[body.start..body.end]);
                } else {
                    out = bytes.to_vec();
                }
            }
        }
        out
    }
}
