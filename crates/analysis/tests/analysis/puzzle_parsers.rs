//! The puzzle readers under random input (issue 10, point 8): LeetCode 909 JSON and HackerRank
//! text never panic, and a LeetCode board printed as JSON reads back the same. Bounded case
//! counts, so they run as ordinary tests in CI.

use proptest::prelude::*;
use snl_analysis::puzzles::{LeetCode, parse_hackerrank};
use snl_analysis::snl_engine::Jump;

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, ..ProptestConfig::default() }
}

/// Text that looks like a LeetCode matrix: brackets, commas, numbers and some junk.
fn matrix_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just(",".to_owned()),
        Just("-1".to_owned()),
        Just(" ".to_owned()),
        (0_i64..40).prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        "\\PC{0,3}",
    ];
    prop::collection::vec(token, 0..60).prop_map(|t| t.concat())
}

/// A valid LeetCode board: side 2..8 and some jumps off squares 1 and n².
fn leetcode() -> impl Strategy<Value = LeetCode> {
    (2_u32..8).prop_flat_map(|n| {
        let last = n * n;
        prop::collection::btree_map(2..last, 1..=last, 0..(last as usize / 2)).prop_map(
            move |jumps| {
                LeetCode::from_jumps(n, jumps.into_iter().map(|(from, to)| Jump { from, to }))
                    .expect("jumps off squares 1 and n², one per square")
            },
        )
    })
}

/// Text that looks like HackerRank input: small numbers and separators.
fn hackerrank_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        4 => (0_i64..120).prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => "\\PC{0,3}",
    ];
    let sep = prop::sample::select(vec![" ", "\n", "\t", "\r\n"]);
    prop::collection::vec((token, sep), 0..40)
        .prop_map(|t| t.into_iter().flat_map(|(a, b)| [a, b.to_owned()]).collect())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_bytes_as_a_leetcode_board_are_an_answer_never_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = LeetCode::parse(&bytes);
    }

    #[test]
    fn matrix_shaped_text_is_an_answer_never_a_panic(text in matrix_like()) {
        if let Ok(board) = LeetCode::parse(text.as_bytes()) {
            let _ = board.answer();
        }
    }

    #[test]
    fn a_leetcode_board_printed_as_json_reads_back_the_same(board in leetcode()) {
        let mut json = Vec::new();
        board.write_json(&mut json).unwrap();
        let back = LeetCode::parse(&json).unwrap();
        prop_assert_eq!(back.side(), board.side());
        prop_assert_eq!(back.jumps(), board.jumps());
    }

    #[test]
    fn any_text_as_hackerrank_input_is_an_answer_never_a_panic(text in "\\PC{0,200}") {
        let _ = parse_hackerrank(&text);
    }

    #[test]
    fn hackerrank_shaped_text_is_an_answer_never_a_panic(text in hackerrank_like()) {
        if let Ok(tests) = parse_hackerrank(&text) {
            for t in &tests {
                let _ = t.answer();
            }
        }
    }
}
