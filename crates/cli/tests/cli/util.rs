//! Helpers: run `snl` with arguments and optional input, and compare output with a clear diff.

use std::{
    io::Write,
    process::{Command, Stdio},
};

/// What one run of `snl` produced.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `snl` with `args`, feeding `input` on standard input (none: an empty stdin).
pub fn snl_with_input(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("snl starts");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input written");
    let out = child.wait_with_output().expect("snl ends");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    }
}

/// Runs `snl` with `args` and an empty standard input.
pub fn snl(args: &[&str]) -> Run {
    snl_with_input(args, "")
}

/// Asserts a run failed with `code` and one clear message on stderr containing each of `needles`.
#[track_caller]
pub fn assert_fails(run: &Run, code: i32, needles: &[&str]) {
    assert_eq!(run.code, code, "exit code; stderr: {}", run.stderr);
    // The error is the last line (prompts may come before it).
    let last = run.stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("snl: ") || run.stderr.starts_with("snl: "), "stderr: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "stderr: {}", run.stderr);
    for needle in needles {
        assert!(run.stderr.contains(needle), "{needle:?} not in stderr: {}", run.stderr);
    }
}

/// Compares two texts and, when they differ, shows both in full.
macro_rules! eqnice {
    ($expected:expr, $got:expr) => {{
        let expected: &str = &$expected;
        let got: &str = &$got;
        if expected != got {
            panic!(
                "\n\n==================== expected ====================\n{}\n\n===================== got ========================\n{}\n==================================================\n",
                expected, got
            );
        }
    }};
}
