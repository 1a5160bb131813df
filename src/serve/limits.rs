//! How many connections the server holds: in all, and from one address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// The connections held, counted in all and per address.
#[derive(Debug)]
pub struct Limits {
    max_total: usize,
    max_per_address: usize,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    per_address: HashMap<IpAddr, usize>,
}

/// Why a connection was turned away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The server holds as many connections as it may.
    Full,
    /// This address holds as many as one address may.
    TooManyFromAddress,
}

/// A connection's place, given back when it is dropped.
#[derive(Debug)]
pub struct Admission {
    limits: Arc<Limits>,
    address: IpAddr,
}

impl Limits {
    /// At most `max_total` connections, `max_per_address` of them from one address.
    pub fn new(max_total: usize, max_per_address: usize) -> Arc<Limits> {
        Arc::new(Limits {
            max_total,
            max_per_address,
            counts: Mutex::new(Counts::default()),
        })
    }

    /// A place for a connection from `address`, if there is one.
    pub fn admit(self: &Arc<Self>, address: IpAddr) -> Result<Admission, Refusal> {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.total >= self.max_total {
            return Err(Refusal::Full);
        }
        let from_address = counts.per_address.entry(address).or_default();
        if *from_address >= self.max_per_address {
            return Err(Refusal::TooManyFromAddress);
        }
        *from_address += 1;
        counts.total += 1;
        Ok(Admission {
            limits: Arc::clone(self),
            address,
        })
    }

    /// The connections held now.
    pub fn held(&self) -> usize {
        self.counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .total
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut counts = self
            .limits
            .counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        counts.total = counts.total.saturating_sub(1);
        if let Some(n) = counts.per_address.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                counts.per_address.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_and_given_back() {
        let limits = Limits::new(3, 2);
        let a: IpAddr = "127.0.0.1".parse().expect("address");
        let b: IpAddr = "::1".parse().expect("address");
        let first = limits.admit(a).expect("room");
        let second = limits.admit(a).expect("room");
        assert_eq!(limits.admit(a).err(), Some(Refusal::TooManyFromAddress));
        let third = limits.admit(b).expect("room");
        assert_eq!(limits.admit(b).err(), Some(Refusal::Full));
        assert_eq!(limits.held(), 3);
        drop(first);
        assert!(limits.admit(a).is_ok());
        drop((second, third));
        assert_eq!(limits.held(), 0);
    }
}
