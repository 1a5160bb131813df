//! What players add to a record beside its moves, the same whatever the rules: a comment after each point and a
//! mark on each move, which [`Game`](super::Game) keeps here.

use super::marks::MoveMark;

/// The comments and marks of a record with one entry per point (the start, then after each move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Notes {
    /// `comments[i]` is the comment after move `i` (`comments[0]` comes before the first move).
    comments: Vec<Option<String>>,
    /// `marks[i]` is the mark of move `i` (`marks[0]`, before any move, stays empty).
    marks: Vec<Option<MoveMark>>,
}

impl Notes {
    /// The notes of a record that has only its start.
    pub(crate) fn new() -> Notes {
        Notes {
            comments: vec![None],
            marks: vec![None],
        }
    }

    /// Room for the point after one more move, with nothing on it.
    pub(crate) fn push(&mut self) {
        self.comments.push(None);
        self.marks.push(None);
    }

    /// Keeps the first `points` points.
    pub(crate) fn truncate(&mut self, points: usize) {
        self.comments.truncate(points);
        self.marks.truncate(points);
    }

    /// The comment after move number `ply` (0: before the first move).
    pub(crate) fn comment(&self, ply: usize) -> Option<&str> {
        self.comments.get(ply)?.as_deref()
    }

    /// Sets or clears the comment after move number `ply`. Returns `false` past the end.
    pub(crate) fn set_comment(&mut self, ply: usize, comment: Option<String>) -> bool {
        match self.comments.get_mut(ply) {
            Some(slot) => {
                *slot = comment;
                true
            }
            None => false,
        }
    }

    /// The mark of move number `ply`, if it has one.
    pub(crate) fn mark(&self, ply: usize) -> Option<MoveMark> {
        self.marks.get(ply).copied().flatten()
    }

    /// Sets or clears the mark of move number `ply` (1 or more); `false` when there is no such move.
    pub(crate) fn set_mark(&mut self, ply: usize, mark: Option<MoveMark>) -> bool {
        match self.marks.get_mut(ply).filter(|_| ply > 0) {
            Some(slot) => {
                *slot = mark;
                true
            }
            None => false,
        }
    }
}
