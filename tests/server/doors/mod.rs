//! The server's doors as players and operators reach them: SSH clients (russh's and OpenSSH's), HTTP and
//! WebSocket clients, and a real browser driven over its DevTools protocol. Only this group builds them: the other
//! groups' tests never open a connection.

pub mod browser;
pub mod ssh;
pub mod web;
