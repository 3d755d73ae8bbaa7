//! Every single edit of a real save file — of any line of its journal — is refused with one
//! sentence (exit 2): nothing edited or damaged is played as if it were the saved game.

use crate::util::*;

/// Every single edit of `value`: each number one more and one less, each string another value
/// (another option for a rule or a kind), each list one item shorter and one longer, each field
/// removed — with the path of what was edited.
fn single_edits(value: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    use serde_json::{Value, json};
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Value)>) {
        let here = |out: &mut Vec<(Vec<String>, Value)>, path: &Vec<String>, new: Value| {
            out.push((path.clone(), new));
        };
        match v {
            Value::Number(n) => {
                let n = n.as_u64().expect("saves hold whole numbers");
                here(out, path, json!(n + 1));
                if n > 0 {
                    here(out, path, json!(n - 1));
                }
            }
            Value::String(s) => {
                let key = path.last().map_or("", String::as_str);
                let other = match (key, s.as_str()) {
                    ("start", "off-board") => "first-cell",
                    ("dice", "1d6") => "2d6",
                    ("overshoot", "stay") => "bounce",
                    ("jumps", "single") => "chain",
                    ("bonus", "top-face") => "none",
                    ("bonus", _) => "top-face",
                    ("max-bonus", "unlimited") => "2",
                    ("max-bonus", _) => "unlimited",
                    ("on-max", "pass") => "void",
                    ("on-max", _) => "pass",
                    ("finish", "first") => "all",
                    ("finish", _) => "first",
                    ("choice", "none") => "may-pass",
                    ("kind", "easy") => "greedy",
                    ("kind", "moved") => "blocked",
                    ("kind", _) => "easy",
                    ("status", "running") => "finished",
                    _ => "",
                };
                let other = if other.is_empty() { format!("{s}x") } else { other.to_owned() };
                here(out, path, json!(other));
            }
            Value::Bool(b) => here(out, path, json!(!b)),
            Value::Null => here(out, path, json!(1)),
            Value::Array(items) => {
                if let Some(last) = items.last() {
                    here(out, path, Value::Array(items[..items.len() - 1].to_vec()));
                    let mut longer = items.clone();
                    longer.push(last.clone());
                    here(out, path, Value::Array(longer));
                } else {
                    here(out, path, json!([0]));
                }
                for (i, item) in items.iter().enumerate() {
                    path.push(i.to_string());
                    walk(item, path, out);
                    path.pop();
                }
            }
            Value::Object(fields) => {
                for (key, item) in fields {
                    path.push(key.clone());
                    let mut without = fields.clone();
                    without.remove(key);
                    out.push((path[..path.len() - 1].to_vec(), Value::Object(without)));
                    walk(item, path, out);
                    path.pop();
                }
            }
        }
    }
    let mut edits = Vec::new();
    walk(value, &mut Vec::new(), &mut edits);
    edits
        .into_iter()
        .map(|(path, new)| {
            let mut edited = value.clone();
            let pointer = path.iter().fold(String::new(), |p, k| format!("{p}/{k}"));
            *edited.pointer_mut(&pointer).unwrap() = new;
            (pointer, edited)
        })
        .collect()
}

#[test]
fn every_single_edit_of_a_real_save_is_refused_with_a_sentence() {
    let dir = TempDir::new("every-edit");
    let seeded = dir.file("seeded.json");
    let scripted = dir.file("scripted.json");
    let base = ["play", "--player", "Ann:easy", "--player", "Bob:greedy", "--no-record"];
    for (file, more) in [
        (&seeded, &["--seed", "12", "--rules", "bonus-six", "--stop-after", "7"][..]),
        (&scripted, &["--rolls", "6,2,5,1,3,6,6,4,2,2,5,3,1,4", "--stop-after", "5"]),
    ] {
        let mut args = base.to_vec();
        args.extend(more);
        args.extend(["--save", file]);
        assert_eq!(snl(&args).code, 0);
    }
    let edited = dir.file("edited.json");
    let (mut tried, mut accepted) = (0, Vec::new());
    for file in [&seeded, &scripted] {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 5, "a line per turn: {text}");
        for (n, line) in lines.iter().enumerate() {
            let original: serde_json::Value = serde_json::from_str(line).unwrap();
            for (pointer, edit) in single_edits(&original) {
                let mut edited_lines = lines.clone();
                let edit = serde_json::to_string(&edit).unwrap();
                edited_lines[n] = &edit;
                std::fs::write(&edited, edited_lines.join("\n") + "\n").unwrap();
                let run = snl(&["play", "--load", &edited, "--no-record", "--stop-after", "1"]);
                tried += 1;
                let sentence = format!("snl: cannot load the save file {edited}: ");
                if run.code != 2
                    || !run.stderr.starts_with(&sentence)
                    || run.stderr.lines().count() != 1
                {
                    accepted.push(format!(
                        "{file} line {} {pointer}: exit {}, {}",
                        n + 1,
                        run.code,
                        run.stderr
                    ));
                }
            }
        }
    }
    assert!(tried > 1000, "{tried} edits");
    assert!(
        accepted.is_empty(),
        "{} of {tried} edits not refused:\n{}",
        accepted.len(),
        accepted.join("\n")
    );
}
