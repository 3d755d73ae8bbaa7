//! The backward search: from cell N outwards, the fewest rolls from every position at once.
//!
//! A position p reaches q in one roll when p + step lands (after the overshoot rule) on q, or on a
//! jump start whose jumps end on q. So the positions one roll before q are, for each such landing
//! cell ℓ and each target t that the overshoot rule turns into ℓ, the run `t − b..=t − a`: no
//! edge list is stored, and the search costs about N · (b − a + 1) steps.

use snl_engine::Overshoot;

use super::track::Track;

const UNKNOWN: u32 = u32::MAX;

/// For every position `0..=N`, the fewest rolls to reach N from it, or `None`.
pub(crate) fn rolls_to_finish(track: &Track) -> Vec<Option<u32>> {
    let n = track.size();
    let (a, b) = (track.least(), track.most());
    let mut by_end: Vec<(u32, u32)> =
        track.jumps().iter().zip(track.ends()).map(|(j, &end)| (end, j.from)).collect();
    by_end.sort_unstable();

    let mut rolls = vec![UNKNOWN; n as usize + 1];
    let mut queue: Vec<u32> = Vec::with_capacity(n as usize + 1);
    rolls[n as usize] = 0;
    queue.push(n);
    let mut targets = Vec::new();
    let mut head = 0;
    while let Some(&q) = queue.get(head) {
        head += 1;
        let next = rolls[q as usize] + 1;
        let first = by_end.partition_point(|&(end, _)| end < q);
        let via_jumps = by_end[first..].iter().take_while(|&&(end, _)| end == q).map(|&(_, s)| s);
        // A token rests on q after landing on it (unless it starts a jump), or on a jump to it.
        let plain = (!track.starts().contains(q)).then_some(q);
        for landed in plain.into_iter().chain(via_jumps) {
            targets_landing_on(track, landed, &mut targets);
            for &t in &targets {
                if t < a {
                    continue;
                }
                for p in t.saturating_sub(b)..=(t - a).min(n - 1) {
                    if rolls[p as usize] == UNKNOWN {
                        rolls[p as usize] = next;
                        queue.push(p);
                    }
                }
            }
        }
    }
    rolls.into_iter().map(|r| (r != UNKNOWN).then_some(r)).collect()
}

/// Every target (position plus roll) that the overshoot rule turns into a landing on `landed`.
fn targets_landing_on(track: &Track, landed: u32, out: &mut Vec<u32>) {
    let n = track.size();
    let b = track.most();
    out.clear();
    out.push(landed);
    // The largest target: the last position before N plus the longest roll.
    let last = n - 1 + b;
    match track.rules().overshoot {
        Overshoot::Win if landed == n => out.extend(n + 1..=last),
        Overshoot::Stay | Overshoot::Win => {}
        // With rolls no longer than the board, a target reflects once: to 2n − t.
        Overshoot::Bounce if b <= n => {
            if landed < n && 2 * n - landed <= last {
                out.push(2 * n - landed);
            }
        }
        Overshoot::Bounce => {
            out.extend((n + 1..=last).filter(|&t| Overshoot::Bounce.land(n, t) == Some(landed)));
        }
    }
}
