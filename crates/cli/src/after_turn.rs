//! The console's lines after a turn, in the words of every screen (`snl_words`): each player's
//! fewest rolls to finish (`--hint`), each one's chance to win (`--odds`, worked out as the full
//! screen and the server's live odds do, on boards with cell effects and in races too; when
//! `win` computers play, from their solved game, every seat playing as solved), and
//! what each carries from the cell effects (a shield, a turn to be skipped), always shown on a
//! board with effects.

use snl_analysis::exact::{RaceLimits, TurnChain, live_odds};
use snl_engine::Game;
use snl_words::{carried, chance};

/// What the console tells after each turn, as asked.
pub(crate) struct AfterTurn {
    /// Fewest rolls to finish from every position (`--hint`).
    hints: Option<Vec<Option<u32>>>,
    /// The chain the chances are worked out on (`--odds`).
    odds: Option<TurnChain>,
}

impl AfterTurn {
    pub(crate) fn new(game: &Game, hint: bool, odds: bool) -> AfterTurn {
        let (board, rules) = (game.board(), game.rules());
        AfterTurn {
            hints: hint.then(|| snl_analysis::solve::rolls_to_finish(board, rules)),
            odds: odds.then(|| TurnChain::new(board, rules)),
        }
    }

    /// The lines to print after a turn of `game` that is not its last; `win` gives the chances
    /// when `win` computers play ([`snl_session::Session::win_odds`]).
    pub(crate) fn lines(&self, game: &Game, win: Option<Vec<f64>>) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(hints) = &self.hints {
            lines.push(hint_line(game, hints));
        } else if let Some(line) = carried_line(game) {
            lines.push(line);
        }
        if let Some(chain) = &self.odds {
            let chances =
                win.or_else(|| live_odds(chain, game, RaceLimits::GLANCE).map(|r| r.chances));
            lines.push(odds_line(game, chances));
        }
        lines
    }
}

/// The seats still playing, with their names.
fn playing(game: &Game) -> impl Iterator<Item = (usize, &str)> {
    let seats = game.seats().iter().enumerate();
    seats.filter(|&(seat, _)| game.is_playing(seat)).map(|(seat, s)| (seat, s.name.as_str()))
}

fn carried_by(game: &Game, seat: usize) -> Option<String> {
    carried(game.has_shield(seat), game.skips_next_turn(seat))
}

/// "  (at best: Ann 4 rolls (shield), Bob 7 rolls)" for the players still in the game.
fn hint_line(game: &Game, hints: &[Option<u32>]) -> String {
    let parts: Vec<String> = playing(game)
        .map(|(seat, name)| {
            let rolls = format!(
                "{name} {}",
                snl_words::fewest_rolls(hints[game.positions()[seat] as usize])
            );
            match carried_by(game, seat) {
                Some(what) => format!("{rolls} ({what})"),
                None => rolls,
            }
        })
        .collect();
    format!("  (at best: {})", parts.join(", "))
}

/// "  (carrying: Ann shield, Bob skips next turn)" when a player still in the game carries
/// something from the cell effects.
fn carried_line(game: &Game) -> Option<String> {
    let parts: Vec<String> = playing(game)
        .filter_map(|(seat, name)| carried_by(game, seat).map(|what| format!("{name} {what}")))
        .collect();
    (!parts.is_empty()).then(|| format!("  (carrying: {})", parts.join(", ")))
}

/// "  (chances to win: Ann 54%, Bob 46%)", or why there are none.
fn odds_line(game: &Game, chances: Option<Vec<f64>>) -> String {
    match chances {
        Some(chances) => {
            let parts: Vec<String> = playing(game)
                .map(|(seat, name)| format!("{name} {}", chance(chances[seat])))
                .collect();
            format!("  (chances to win: {})", parts.join(", "))
        }
        None => "  (chances to win: too much work to work out on this board)".to_owned(),
    }
}
