//! What the analysis does not handle yet, said in one place so that no command gives a wrong
//! number in silence: cell effects (SPEC §3b) and race mode. Every command that analyses a board
//! (`analyze`, `solve`, `simulate`, `tournament`, `board design`) asks [`check_supported`] first.
//! As each analysis learns effects or races, its part of this check goes.

use snl_engine::{Board, Rules};

/// A board or rules the analysis cannot give exact or simulated numbers for yet.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unsupported {
    /// The board has cell effects.
    #[error(
        "this board has cell effects ({names}), which snl cannot analyse yet: it can be played \
         with snl play"
    )]
    Effects {
        /// The kinds of effect on the board, as written in board files.
        names: String,
    },
    /// The rules are a race.
    #[error("race mode ({rounds} rounds) cannot be analysed yet: it can be played with snl play")]
    Race {
        /// The rounds.
        rounds: u32,
    },
}

/// A kind of analysis: each learns effects and races on its own, so each is checked on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Work {
    /// Exact numbers (`analyze`, live odds, the board check's numbers).
    Exact,
    /// Fewest rolls and turns (`solve`, the rolls-left column).
    Solve,
    /// Monte Carlo (`simulate`).
    Simulate,
    /// Strategies and tournaments between them.
    Strategy,
}

impl Work {
    /// Whether this work handles cell effects.
    #[allow(clippy::match_same_arms, reason = "one arm per work, each changed on its own")]
    const fn handles_effects(self) -> bool {
        match self {
            Self::Exact => true,
            Self::Solve => true,
            Self::Simulate => true,
            // Hard over (cell, shield, skip), greedy's worth of each effect, and tournaments of
            // engine games whose wormhole draws come from the seeded dice.
            Self::Strategy => true,
        }
    }

    /// Whether this work handles race mode.
    #[allow(clippy::match_same_arms, reason = "one arm per work, each changed on its own")]
    const fn handles_race(self) -> bool {
        match self {
            Self::Exact => true,
            // Fewest rolls and turns to reach N: a race's rounds do not change the question.
            Self::Solve => true,
            Self::Simulate => true,
            // Hard plays for the fewest expected turns, which is not how to win a race.
            Self::Strategy => false,
        }
    }
}

/// Whether `work` can handle `board` under `rules`.
///
/// # Errors
///
/// [`Unsupported`] naming what it cannot handle yet.
pub fn check_supported_for(work: Work, board: &Board, rules: &Rules) -> Result<(), Unsupported> {
    if !work.handles_effects() {
        check_no_effects(board)?;
    }
    if !work.handles_race() {
        check_supported_rules(rules)?;
    }
    Ok(())
}

/// Whether every kind of analysis can handle `board` under `rules`.
///
/// # Errors
///
/// [`Unsupported`] naming what it cannot handle yet.
pub fn check_supported(board: &Board, rules: &Rules) -> Result<(), Unsupported> {
    check_no_effects(board)?;
    check_supported_rules(rules)
}

fn check_no_effects(board: &Board) -> Result<(), Unsupported> {
    if board.has_effects() {
        let mut names: Vec<&str> = board.effects().iter().map(|e| e.effect.name()).collect();
        names.sort_unstable();
        names.dedup();
        return Err(Unsupported::Effects { names: names.join(", ") });
    }
    Ok(())
}

/// The part of [`check_supported`] about the rules alone (for work that draws its own boards).
///
/// # Errors
///
/// [`Unsupported::Race`] for race mode.
pub fn check_supported_rules(rules: &Rules) -> Result<(), Unsupported> {
    if let Some(rounds) = rules.mode.rounds() {
        return Err(Unsupported::Race { rounds });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use snl_engine::{Preset, RuleSpec};

    use super::*;

    #[test]
    fn effects_and_races_are_refused_with_one_sentence() {
        let rules = Rules::default();
        let party = Board::new(&Preset::Party.spec(), &rules).unwrap();
        assert_eq!(
            check_supported(&party, &rules).unwrap_err().to_string(),
            "this board has cell effects (extra, shield, skip, wormhole), which snl cannot \
             analyse yet: it can be played with snl play"
        );
        let classic = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        assert_eq!(check_supported(&classic, &rules), Ok(()));
        let mut race = rules;
        let spec = RuleSpec { mode: Some("race".into()), rounds: Some(4), ..RuleSpec::default() };
        race.apply(&spec).unwrap();
        assert_eq!(
            check_supported(&classic, &race).unwrap_err().to_string(),
            "race mode (4 rounds) cannot be analysed yet: it can be played with snl play"
        );
        // Solving and strategies handle effects; solving handles races too.
        assert_eq!(check_supported_for(Work::Solve, &party, &race), Ok(()));
        assert_eq!(check_supported_for(Work::Strategy, &party, &rules), Ok(()));
        assert!(check_supported_for(Work::Strategy, &classic, &race).is_err());
    }
}
