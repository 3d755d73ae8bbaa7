//! Each seat's chance to win from where the tokens stand, for the players panel: worked out by
//! [`snl_analysis::exact::live_odds`] (the server's live odds use the same), to a glance's
//! precision (whole percents). On very large boards the work is capped and no chance is shown.

use snl_analysis::exact::{RaceLimits, TurnChain, live_odds};
use snl_engine::Game;

/// Each seat's chance to be the first of those still playing to finish (0 for seats already
/// out), or `None` when that is too much work to work out.
pub(crate) fn win_chances(chain: &TurnChain, game: &Game) -> Option<Vec<f64>> {
    live_odds(chain, game, RaceLimits::GLANCE).map(|race| race.chances)
}
