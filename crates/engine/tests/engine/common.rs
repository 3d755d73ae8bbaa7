//! What the engine's test files share: a small board with every effect, and rules from text.

use snl_engine::{BoardSpec, CellSpec, RuleSpec, Rules};

/// A 20-cell board: ladder 2→9, snake 16→4; skip on 5, extra roll on 6, shield on 11, and a
/// wormhole on 12 with exits 3, 11 and 16.
pub(crate) fn board_spec() -> BoardSpec {
    let mut spec = BoardSpec::with_jumps(20, [(2, 9), (16, 4)]);
    let cell = |at, effect: &str, exits: &[u32]| CellSpec {
        at,
        effect: effect.to_owned(),
        exits: exits.to_vec(),
    };
    spec.cells = vec![
        cell(5, "skip", &[]),
        cell(6, "extra", &[]),
        cell(11, "shield", &[]),
        cell(12, "wormhole", &[3, 11, 16]),
    ];
    spec
}

/// The default rules changed by `spec`.
pub(crate) fn rules(spec: &RuleSpec) -> Rules {
    let mut rules = Rules::default();
    rules.apply(spec).unwrap();
    rules
}
