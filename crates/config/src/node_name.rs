//! A node's name: what its leases and messages are addressed by, and part of its `LISTEN` channel's name.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The longest node name, in characters: with the channel prefix it stays under PostgreSQL's 63-byte identifiers.
pub const MAX_NODE_NAME: usize = 40;

/// A node's name: 1 to [`MAX_NODE_NAME`] lower-case ASCII letters, digits, `-` and `_` (letters given in upper
/// case are lowered), so it can be written into a channel name and a log line as it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeName(String);

/// Why a text is not a node name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NodeNameError {
    /// Nothing was given.
    #[error("a node name cannot be empty")]
    Empty,
    /// Too long.
    #[error("a node name has at most {MAX_NODE_NAME} characters; this one has {0}")]
    TooLong(usize),
    /// A character other than a letter, digit, `-` or `_`.
    #[error("a node name is made of letters, digits, '-' and '_'; {0:?} is not one of them")]
    Character(char),
}

impl NodeName {
    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `node-PORT`: a name for a node on a machine whose own name cannot be one.
    pub fn from_port(port: u16) -> NodeName {
        NodeName(format!("node-{port}"))
    }

    /// The channel the node listens on for its messages.
    pub fn channel(&self) -> String {
        format!("crowned_node_{}", self.0)
    }
}

impl FromStr for NodeName {
    type Err = NodeNameError;

    fn from_str(text: &str) -> Result<NodeName, NodeNameError> {
        let length = text.chars().count();
        if length == 0 {
            return Err(NodeNameError::Empty);
        }
        if length > MAX_NODE_NAME {
            return Err(NodeNameError::TooLong(length));
        }
        if let Some(bad) = text
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
        {
            return Err(NodeNameError::Character(bad));
        }
        Ok(NodeName(text.to_ascii_lowercase()))
    }
}

impl fmt::Display for NodeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_lowered_and_checked() {
        let name: NodeName = "Node-1_b".parse().expect("a name");
        assert_eq!(name.as_str(), "node-1_b");
        assert_eq!(name.channel(), "crowned_node_node-1_b");
        assert_eq!("".parse::<NodeName>(), Err(NodeNameError::Empty));
        assert_eq!(
            "a".repeat(41).parse::<NodeName>(),
            Err(NodeNameError::TooLong(41))
        );
        assert_eq!(
            "a b".parse::<NodeName>(),
            Err(NodeNameError::Character(' '))
        );
        assert_eq!(
            "nöde".parse::<NodeName>(),
            Err(NodeNameError::Character('ö'))
        );
        assert_eq!(
            "x\"; drop".parse::<NodeName>(),
            Err(NodeNameError::Character('"'))
        );
        let longest = "z"
            .repeat(MAX_NODE_NAME)
            .parse::<NodeName>()
            .expect("a name");
        assert!(longest.channel().len() <= 63);
    }
}
