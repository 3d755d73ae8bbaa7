//! A series: several games between the same seats (best of K), the seat who starts moving on by
//! one each game (SPEC §3b). Who leads, when the series is decided and its score, counted from
//! each seat's wins so far — one copy for `snl play --games` and for a series of online rooms.

/// The seat (in the first game's order) who starts game `game` (from 1) of `seats` seats.
pub fn starter(game: u32, seats: usize) -> usize {
    (game.saturating_sub(1) as usize) % seats.max(1)
}

/// Whether no other seat can catch the leader with `left` games to play (or none are left).
pub fn decided(wins: &[u64], left: u64) -> bool {
    let Some(leader) = leader(wins).or_else(|| (left == 0).then_some(0)) else { return false };
    left == 0 || wins.iter().enumerate().all(|(s, &w)| s == leader || w + left < wins[leader])
}

/// The seat with strictly most wins, if one has.
pub fn leader(wins: &[u64]) -> Option<usize> {
    let best = *wins.iter().max()?;
    let mut at = wins.iter().enumerate().filter(|&(_, &w)| w == best).map(|(s, _)| s);
    let first = at.next()?;
    at.next().is_none().then_some(first)
}

/// The seats by wins, most first, then in seating order.
pub fn order(wins: &[u64]) -> Vec<usize> {
    let mut seats: Vec<usize> = (0..wins.len()).collect();
    seats.sort_by_key(|&s| std::cmp::Reverse(wins[s]));
    seats
}

/// The score, most wins first: "3-1", "2-2-1".
pub fn score(wins: &[u64]) -> String {
    let parts: Vec<String> = order(wins).into_iter().map(|s| wins[s].to_string()).collect();
    parts.join("-")
}

/// `names` with their wins, most first: "Ann 2, Bob 1".
pub fn so_far(names: &[&str], wins: &[u64]) -> String {
    let parts: Vec<String> =
        order(wins).into_iter().map(|s| format!("{} {}", names[s], wins[s])).collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_is_decided_when_no_one_can_catch_the_leader() {
        assert!(!decided(&[1, 0], 2), "1-0 with two to play: 1-2 is still possible");
        assert!(decided(&[2, 0], 1), "2-0 with one to play");
        assert!(!decided(&[1, 1], 1));
        assert!(decided(&[1, 1], 0), "none left: over, and drawn");
        assert_eq!(leader(&[1, 1]), None);
        assert!(decided(&[2, 0, 0], 1));
        assert!(!decided(&[2, 1, 0], 1), "the second can still draw level");
    }

    #[test]
    fn the_score_and_standings_put_most_wins_first_then_seating_order() {
        assert_eq!(score(&[1, 3, 1]), "3-1-1");
        assert_eq!(order(&[1, 3, 1]), vec![1, 0, 2]);
        assert_eq!(so_far(&["Ann", "Bob"], &[1, 2]), "Bob 2, Ann 1");
        assert_eq!((starter(1, 3), starter(2, 3), starter(4, 3)), (0, 1, 0));
    }
}
