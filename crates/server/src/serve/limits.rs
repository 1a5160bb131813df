//! How many connections the server holds, and whose: players who have signed in, and strangers who have not
//! (yet).
//!
//! Every connection starts as a stranger, in a pool of its own with smaller limits and a deadline to sign in
//! by: a stranger still there at the deadline is cut off. When the strangers' pool is full, the newcomer takes
//! the place of the stranger who has waited longest (who is cut off), so that sockets which never say a word
//! can delay a real player by one handshake at most, never lock them out. Signing in moves a connection to the
//! players' pool, which strangers never touch: however many strangers knock, the players' places are theirs.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use super::cut::Cut;
use super::ids::Fingerprint;

/// How many connections one pool holds: in all, and from one address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    /// In all.
    pub total: usize,
    /// From one address.
    pub per_address: usize,
}

/// The connections held: players and strangers, each pool counted in all and per address.
#[derive(Debug)]
pub struct ConnectionLimits {
    players: Quota,
    strangers: Quota,
    sign_in_deadline: Duration,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct Tally {
    total: usize,
    per_address: HashMap<IpAddr, usize>,
}

impl Tally {
    fn from(&self, address: IpAddr) -> usize {
        self.per_address.get(&address).copied().unwrap_or(0)
    }

    fn refusal(&self, quota: Quota, address: IpAddr) -> Option<ConnectionRefusal> {
        if self.total >= quota.total {
            Some(ConnectionRefusal::Full)
        } else if self.from(address) >= quota.per_address {
            Some(ConnectionRefusal::TooManyFromAddress)
        } else {
            None
        }
    }

    fn add(&mut self, address: IpAddr) {
        self.total += 1;
        *self.per_address.entry(address).or_default() += 1;
    }

    fn remove(&mut self, address: IpAddr) {
        self.total = self.total.saturating_sub(1);
        if let Some(n) = self.per_address.get_mut(&address) {
            *n -= 1;
            if *n == 0 {
                self.per_address.remove(&address);
            }
        }
    }
}

#[derive(Debug, Default)]
struct State {
    /// The number the next connection gets: connections are told apart, and strangers ordered, by it.
    next: u64,
    players: Tally,
    strangers: Tally,
    /// The strangers, oldest first, with the switch that cuts each off.
    waiting: BTreeMap<u64, (IpAddr, Arc<Cut>)>,
    /// The players signed in, with their key (none for a guest) and the switch that cuts each off: a ban made
    /// while they play ends their connection.
    signed: BTreeMap<u64, Signed>,
}

/// A player's connection as the limits know it.
#[derive(Debug)]
struct Signed {
    address: IpAddr,
    key: Option<Fingerprint>,
    cut: Arc<Cut>,
}

impl State {
    /// Takes stranger `number` out of the pool, if it is still there; its switch.
    fn remove_stranger(&mut self, number: u64) -> Option<Arc<Cut>> {
        let (address, cut) = self.waiting.remove(&number)?;
        self.strangers.remove(address);
        Some(cut)
    }
}

/// Why a connection was turned away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionRefusal {
    /// The pool holds as many connections as it may.
    Full,
    /// This address holds as many as one address may.
    TooManyFromAddress,
}

/// A connection's place, given back when it is dropped.
#[derive(Debug)]
pub struct Admission {
    limits: Arc<ConnectionLimits>,
    number: u64,
    address: IpAddr,
    signed_in: bool,
    cut: Arc<Cut>,
}

impl ConnectionLimits {
    /// Limits of `players` for those signed in and `strangers` for those not, who have `sign_in_deadline` to
    /// sign in.
    pub fn new(
        players: Quota,
        strangers: Quota,
        sign_in_deadline: Duration,
    ) -> Arc<ConnectionLimits> {
        Arc::new(ConnectionLimits {
            players,
            strangers,
            sign_in_deadline,
            state: Mutex::new(State::default()),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A stranger's place for a connection from `address`, unless that address already has as many strangers
    /// as it may. A full pool makes room by cutting off the stranger who has waited longest.
    pub fn admit(self: &Arc<Self>, address: IpAddr) -> Result<Admission, ConnectionRefusal> {
        let mut state = self.state();
        // One address's own flood is turned away at its own limit, and costs nobody else a place.
        if state.strangers.from(address) >= self.strangers.per_address {
            return Err(ConnectionRefusal::TooManyFromAddress);
        }
        if state.strangers.total >= self.strangers.total {
            let oldest = state.waiting.keys().next().copied();
            if let Some(cut) = oldest.and_then(|number| state.remove_stranger(number)) {
                tracing::info!("the strangers' places are full: the longest waiting is cut off");
                cut.make();
            }
        }
        if let Some(refusal) = state.strangers.refusal(self.strangers, address) {
            // Only with no stranger to make room (a pool of none).
            return Err(refusal);
        }
        let number = state.next;
        state.next += 1;
        let cut = Cut::new();
        state.strangers.add(address);
        state.waiting.insert(number, (address, Arc::clone(&cut)));
        Ok(Admission {
            limits: Arc::clone(self),
            number,
            address,
            signed_in: false,
            cut,
        })
    }

    /// The connections held now, players and strangers.
    pub fn held(&self) -> usize {
        let state = self.state();
        state.players.total + state.strangers.total
    }

    /// The strangers held now.
    pub fn strangers(&self) -> usize {
        self.state().strangers.total
    }

    /// Cuts off every player connected with a key or from an address `banned` holds; how many.
    pub fn cut_banned(&self, banned: impl Fn(Option<&Fingerprint>, IpAddr) -> bool) -> usize {
        let state = self.state();
        let mut cut = 0;
        for signed in state.signed.values() {
            if !signed.cut.is_made() && banned(signed.key.as_ref(), signed.address) {
                signed.cut.make();
                cut += 1;
            }
        }
        cut
    }
}

impl Admission {
    /// The switch that cuts this connection off.
    pub fn cut(&self) -> Arc<Cut> {
        Arc::clone(&self.cut)
    }

    /// Moves this connection, of the player with `key` (none for a guest), from the strangers to the players, if
    /// the players' pool has room for it. A connection cut off meanwhile (its deadline passed, or a newcomer took
    /// its place) stays out.
    pub fn sign_in(&mut self, key: Option<Fingerprint>) -> Result<(), ConnectionRefusal> {
        if self.signed_in {
            return Ok(());
        }
        let mut state = self.limits.state();
        if !state.waiting.contains_key(&self.number) {
            return Err(ConnectionRefusal::Full);
        }
        if let Some(refusal) = state.players.refusal(self.limits.players, self.address) {
            return Err(refusal);
        }
        state.remove_stranger(self.number);
        state.players.add(self.address);
        let signed = Signed {
            address: self.address,
            key,
            cut: Arc::clone(&self.cut),
        };
        state.signed.insert(self.number, signed);
        self.signed_in = true;
        Ok(())
    }

    /// Waits out the sign-in deadline, then cuts this connection off if it is still a stranger. Run it beside
    /// the connection; it holds nothing but the limits.
    pub fn deadline(&self) -> impl Future<Output = ()> + Send + 'static {
        let limits = Arc::clone(&self.limits);
        let number = self.number;
        async move {
            tokio::time::sleep(limits.sign_in_deadline).await;
            let cut = limits.state().remove_stranger(number);
            if let Some(cut) = cut {
                tracing::info!("no sign-in before the deadline: connection cut off");
                cut.make();
            }
        }
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut state = self.limits.state();
        if self.signed_in {
            state.players.remove(self.address);
            state.signed.remove(&self.number);
        } else {
            // Gone already if it was cut off to make room or at its deadline.
            state.remove_stranger(self.number);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    fn limits(players: (usize, usize), strangers: (usize, usize)) -> Arc<ConnectionLimits> {
        let quota = |(total, per_address)| Quota { total, per_address };
        ConnectionLimits::new(quota(players), quota(strangers), Duration::from_millis(50))
    }

    #[test]
    fn players_places_are_counted_and_given_back() {
        let limits = limits((3, 2), (10, 10));
        let (a, b) = (address("127.0.0.1"), address("::1"));
        let signed = |from| {
            let mut admission = limits.admit(from).expect("a stranger's place");
            admission.sign_in(None).map(|()| admission)
        };
        let first = signed(a).expect("room");
        let second = signed(a).expect("room");
        assert_eq!(signed(a).err(), Some(ConnectionRefusal::TooManyFromAddress));
        let third = signed(b).expect("room");
        assert_eq!(signed(b).err(), Some(ConnectionRefusal::Full));
        assert_eq!(limits.held(), 3);
        assert_eq!(limits.strangers(), 0, "the refused gave their places back");
        drop(first);
        assert!(signed(a).is_ok());
        drop((second, third));
        assert_eq!(limits.held(), 0);
    }

    #[test]
    fn a_ban_cuts_the_players_it_names_and_no_one_else() {
        let limits = limits((10, 10), (10, 10));
        let (a, b) = (address("10.0.0.1"), address("10.0.0.2"));
        let key = |name: &str| Fingerprint::new(format!("SHA256:{name}"));
        let mut mallory = limits.admit(a).expect("room");
        mallory.sign_in(Some(key("mallory"))).expect("room");
        let mut guest = limits.admit(b).expect("room");
        guest.sign_in(None).expect("room");
        let mut bob = limits.admit(a).expect("room");
        bob.sign_in(Some(key("bob"))).expect("room");
        let stranger = limits.admit(b).expect("room");
        // By key: mallory alone.
        assert_eq!(limits.cut_banned(|k, _| k == Some(&key("mallory"))), 1);
        assert!(mallory.cut.is_made() && !bob.cut.is_made() && !guest.cut.is_made());
        // Cut once: not counted again. By address: the guest (a stranger waits on its own deadline).
        assert_eq!(limits.cut_banned(|k, _| k == Some(&key("mallory"))), 0);
        assert_eq!(limits.cut_banned(|_, address| address == b), 1);
        assert!(guest.cut.is_made() && !stranger.cut.is_made() && !bob.cut.is_made());
        // Gone, forgotten.
        drop(bob);
        assert_eq!(limits.cut_banned(|_, _| true), 0);
    }

    #[test]
    fn strangers_never_take_a_players_place() {
        let limits = limits((2, 2), (3, 3));
        let a = address("10.0.0.1");
        let silent: Vec<Admission> = (0..3).map(|_| limits.admit(a).expect("room")).collect();
        assert_eq!(limits.strangers(), 3);
        let mut player = limits.admit(address("10.0.0.2")).expect("room is made");
        assert!(
            silent[0].cut.is_made(),
            "the longest waiting stranger is cut off"
        );
        assert!(!silent[1].cut.is_made() && !silent[2].cut.is_made());
        assert_eq!(player.sign_in(None), Ok(()));
        assert_eq!(limits.strangers(), 2);
        drop(silent);
        assert_eq!(limits.held(), 1, "only the player is left");
    }

    #[test]
    fn one_address_is_turned_away_at_its_own_limit_without_cutting_anyone() {
        // The pool is full too: the address's own limit still comes first.
        let limits = limits((10, 10), (3, 2));
        let a = address("10.0.0.1");
        let other = limits.admit(address("10.0.0.9")).expect("room");
        let _first = limits.admit(a).expect("room");
        let _second = limits.admit(a).expect("room");
        assert_eq!(
            limits.admit(a).err(),
            Some(ConnectionRefusal::TooManyFromAddress)
        );
        assert!(!other.cut.is_made());
    }

    #[test]
    fn a_stranger_cut_off_cannot_sign_in_and_gives_back_nothing_twice() {
        let limits = limits((10, 10), (1, 1));
        let mut first = limits.admit(address("10.0.0.1")).expect("room");
        let second = limits.admit(address("10.0.0.2")).expect("room");
        assert!(first.cut.is_made());
        assert_eq!(first.sign_in(None), Err(ConnectionRefusal::Full));
        drop(first);
        assert_eq!(limits.strangers(), 1, "the newcomer's place is untouched");
        drop(second);
        assert_eq!(limits.held(), 0);
    }

    #[tokio::test]
    async fn the_deadline_cuts_off_a_stranger_and_spares_a_player() {
        let limits = limits((10, 10), (10, 10));
        let stranger = limits.admit(address("10.0.0.1")).expect("room");
        let mut player = limits.admit(address("10.0.0.2")).expect("room");
        let (stranger_deadline, player_deadline) = (stranger.deadline(), player.deadline());
        player.sign_in(None).expect("room");
        tokio::join!(stranger_deadline, player_deadline);
        assert!(stranger.cut.is_made());
        assert!(!player.cut.is_made());
        assert_eq!(limits.strangers(), 0);
        assert_eq!(limits.held(), 1);
    }
}
