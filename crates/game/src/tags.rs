//! PDN tag pairs: `[Event "..."]`, `[White "..."]` and the rest, in the order they were given.

/// The seven tags PDN writers put first, in this order, when they are known.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The tag pairs of a game. Names are case-sensitive, as in PDN; setting a name that exists replaces its value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags::default()
    }

    /// The value of tag `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing any value it had (and keeping its place).
    pub fn set(&mut self, name: &str, value: &str) {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.0.push((name.to_string(), value.to_string())),
        }
    }

    /// Removes tag `name`; returns its value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.0.iter().position(|(n, _)| n == name)?;
        Some(self.0.remove(i).1)
    }

    /// Every tag, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Whether there are no tags.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Tags from pairs, as if each were [`set`](Tags::set) in turn (a repeated name keeps its first place and its
/// last value), in time linear in the number of pairs.
impl FromIterator<(String, String)> for Tags {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(pairs: I) -> Tags {
        let mut places: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let mut tags: Vec<(String, String)> = Vec::new();
        for (name, value) in pairs {
            match places.get(&name) {
                Some(&i) => tags[i].1 = value,
                None => {
                    places.insert(name.clone(), tags.len());
                    tags.push((name, value));
                }
            }
        }
        Tags(tags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_replaces_in_place() {
        let mut tags = Tags::new();
        assert!(tags.is_empty());
        tags.set("Event", "A");
        tags.set("White", "W");
        tags.set("Event", "B");
        assert_eq!(tags.get("Event"), Some("B"));
        assert_eq!(tags.get("event"), None);
        assert_eq!(
            tags.iter().collect::<Vec<_>>(),
            vec![("Event", "B"), ("White", "W")]
        );
        assert_eq!(tags.remove("Event").as_deref(), Some("B"));
        assert_eq!(tags.remove("Event"), None);
        assert_eq!(tags.iter().count(), 1);
    }

    #[test]
    fn collecting_pairs_is_setting_them_in_turn() {
        let pairs = [("Event", "A"), ("White", "W"), ("Event", "B")];
        let mut set = Tags::new();
        for (n, v) in pairs {
            set.set(n, v);
        }
        let collected: Tags = pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        assert_eq!(collected, set);
    }
}
