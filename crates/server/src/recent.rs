//! The last events of a room kept in its memory (as lila-ws keeps 20): a page that comes late
//! gets the welcome's snapshot and these, and a connection that dropped a moment ago gets what
//! it missed from here rather than from the storage. Older events are read from the storage, a
//! page at a time ([`crate::ws`]).

use std::collections::VecDeque;

use axum::extract::ws::Utf8Bytes;

/// Event frames a room keeps: a turn tells a handful, so a page that dropped a few turns ago
/// still finds them here. Every room holds these (issue 31's memory per player).
pub(crate) const KEPT: usize = 20;

/// A room's last [`KEPT`] event frames.
#[derive(Debug, Default)]
pub(crate) struct Recent {
    frames: VecDeque<Utf8Bytes>,
}

impl Recent {
    /// The last of a stored room's `events`.
    pub(crate) fn of_stored(events: &[String]) -> Recent {
        let tail = &events[events.len().saturating_sub(KEPT)..];
        Recent { frames: tail.iter().map(|e| Utf8Bytes::from(e.as_str())).collect() }
    }

    /// Keeps the next event's frame.
    pub(crate) fn push(&mut self, frame: Utf8Bytes) {
        if self.frames.len() == KEPT {
            self.frames.pop_front();
        }
        self.frames.push_back(frame);
    }

    /// The events `after + 1 ..= last` (`last` the room's last event): the range to read from
    /// the storage, if any, and the frames kept in memory that follow it.
    pub(crate) fn after(&self, after: u64, last: u64) -> (Option<(u64, u64)>, Vec<Utf8Bytes>) {
        let first_kept = last - self.frames.len() as u64;
        if after >= first_kept {
            let skip = usize::try_from(after - first_kept).unwrap_or(usize::MAX);
            return (None, self.frames.iter().skip(skip).cloned().collect());
        }
        (Some((after, first_kept)), self.frames.iter().cloned().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_after_a_number_come_from_memory_and_older_ones_from_the_storage() {
        let events: Vec<String> = (1..=100).map(|n| n.to_string()).collect();
        let mut recent = Recent::of_stored(&events);
        let (stored, kept) = recent.after(90, 100);
        assert_eq!(stored, None);
        assert_eq!(kept, ["91", "92", "93", "94", "95", "96", "97", "98", "99", "100"]);
        let (stored, kept) = recent.after(10, 100);
        assert_eq!(stored, Some((10, 80)));
        assert_eq!((kept.len(), kept[0].as_str()), (KEPT, "81"));
        assert_eq!(recent.after(100, 100), (None, vec![]));
        recent.push("101".into());
        assert_eq!(recent.after(99, 101).1, ["100", "101"]);
        assert_eq!(Recent::default().after(0, 3), (Some((0, 3)), vec![]));
    }
}
