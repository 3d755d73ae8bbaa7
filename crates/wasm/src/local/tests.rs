use serde_json::{Value, json};

use super::{local_act, local_new, local_odds};

fn value(answer: &str) -> Value {
    serde_json::from_str(answer).unwrap()
}

/// The last awaited input of `frames` (the welcome's, or the last awaiting frame's).
fn awaited(frames: &[Value]) -> Value {
    let last = frames.iter().rev().find(|f| f["type"] == "awaiting" || f["type"] == "welcome");
    let last = last.unwrap();
    if last["type"] == "welcome" {
        last["state"]["awaiting"].clone()
    } else {
        last["awaiting"].clone()
    }
}

#[test]
fn a_game_here_is_played_to_its_end_and_its_intents_give_it_again() {
    let setup =
        json!({"board": "kids", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "greedy"}]});
    let start = value(&local_new(&json!({"setup": setup, "seed": 3}).to_string()));
    let mut frames: Vec<Value> = start["frames"].as_array().unwrap().clone();
    assert_eq!(
        frames[0]["state"]["seats"][1]["name"], "Computer (greedy)",
        "a computer named as in a room"
    );
    let mut intents = Vec::new();
    let mut events = 0;
    while !awaited(&frames).is_null() {
        intents.push(json!({"act": "roll"}));
        frames = value(&local_act(r#"{"act":"roll"}"#))["frames"].as_array().unwrap().clone();
        assert_ne!(frames[0]["type"], "error", "{frames:?}");
        events += frames.iter().filter(|f| f["type"] == "event").count();
        assert!(intents.len() < 10_000);
    }
    let odds = value(&local_odds("{}"));
    assert_eq!(odds["seats"].as_array().unwrap().len(), 2);
    let refused = value(&local_act(r#"{"act":"roll"}"#));
    assert_eq!(refused["frames"][0]["message"], "the game is over");
    let again =
        value(&local_new(&json!({"setup": setup, "seed": 3, "intents": intents}).to_string()));
    let again = again["frames"].as_array().unwrap();
    assert_eq!(again[0]["state"]["status"], "over");
    assert_eq!(again.iter().filter(|f| f["past"] == true).count(), events);
}

#[test]
fn a_game_here_that_cannot_be_set_up_or_played_back_says_why_in_a_sentence() {
    let cases = [
        (
            json!({"setup": {"board": "nowhere", "seats": [{"kind": "human"}]}, "seed": 1}),
            "nowhere",
        ),
        (
            json!({"setup": {"seats": [{"kind": "human"}]}, "seed": 1}),
            "1 seats asked for: a game here has 2 to 16",
        ),
        (json!({"setup": {"seats": []}, "seed": 1}), "0 seats asked for"),
        (
            json!({"setup": {"seats": [{"kind": "human", "name": "A"}, {"kind": "easy", "name": "A"}]}, "seed": 1}),
            "name 'A' is given to two seats",
        ),
        (
            json!({"setup": {"seats": [{"kind": "human", "name": "x".repeat(50)}, {"kind": "easy"}]}, "seed": 1}),
            "must be 1 to 32 characters",
        ),
        (
            json!({"setup": {"seats": [{"kind": "human"}, {"kind": "easy"}]}, "seed": 1, "intents": [{"act": "choose", "option": 2}]}),
            "intent 1 of the game kept here",
        ),
        (json!({"setup": {"seats": [{"kind": "human"}]}}), "the request is not one"),
    ];
    for (request, said) in cases {
        let answer = value(&local_new(&request.to_string()));
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains(said), "{request}: {answer}");
    }
}
