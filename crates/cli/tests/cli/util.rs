//! Helpers: run `snl` with arguments and optional input, and compare output with a clear diff.

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::atomic::{AtomicUsize, Ordering},
};

/// What one run of `snl` produced.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `snl` with `args`, feeding `input` on standard input (none: an empty stdin).
///
/// Games are recorded in a database of this run's own (`SNL_DB`), never in the user's; a test
/// that looks at the database passes `--db` itself.
pub(crate) fn snl_with_input(args: &[&str], input: &str) -> Run {
    let scratch = TempDir::new("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(args)
        .env_remove("NO_COLOR")
        .env("SNL_DB", scratch.path().join("games.db"))
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

/// A fresh folder under the build's temporary folder, removed when dropped.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("snl-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("temporary folder");
        TempDir(path)
    }

    /// A fresh folder under the system's temporary folder, open to every user (`0755`): for
    /// tests that run `snl` as another user, who may not reach into the build's folder.
    /// The folder is `box` inside a folder of its own, where such a test may put what the other
    /// user runs; both go when dropped.
    pub(crate) fn shared(name: &str) -> TempDir {
        use std::os::unix::fs::PermissionsExt;
        let outer = std::env::temp_dir().join(format!("snl-shared-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&outer);
        let path = outer.join("box");
        std::fs::create_dir_all(&path).expect("temporary folder");
        for folder in [&outer, &path] {
            std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        TempDir(path)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }

    /// A path in this folder, as a string for arguments.
    pub(crate) fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("utf-8 path").to_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        if let Some(outer) = self.0.parent().filter(|p| {
            p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("snl-shared-"))
        }) {
            let _ = std::fs::remove_dir_all(outer);
        }
    }
}

/// Runs `snl` with `args` and an empty standard input.
pub(crate) fn snl(args: &[&str]) -> Run {
    snl_with_input(args, "")
}

/// The `type` of each event in `jsonl` (SPEC §6: one JSON object per line), in order.
pub(crate) fn event_types(jsonl: &str) -> Vec<String> {
    jsonl
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

/// Runs `snl` with `args`, asserts it succeeded, and parses its standard output as one JSON value.
#[track_caller]
pub(crate) fn snl_json(args: &[&str]) -> serde_json::Value {
    let run = snl(args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

/// Asserts a run failed with `code` and one clear message on stderr containing each of `needles`.
#[track_caller]
pub(crate) fn assert_fails(run: &Run, code: i32, needles: &[&str]) {
    assert_eq!(run.code, code, "exit code; stderr: {}", run.stderr);
    // The error is the last line (prompts may come before it).
    let last = run.stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("snl: ") || run.stderr.starts_with("snl: "), "stderr: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "stderr: {}", run.stderr);
    for needle in needles {
        assert!(run.stderr.contains(needle), "{needle:?} not in stderr: {}", run.stderr);
    }
}

/// The lines of the table whose heading line starts (after its indent) with `heading`: the
/// heading and the indented lines after it, up to a blank or unindented line.
#[track_caller]
pub(crate) fn table<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = text.lines().skip_while(|l| !l.trim_start().starts_with(heading));
    let first = lines.next().unwrap_or_else(|| panic!("no table {heading:?} in:\n{text}"));
    std::iter::once(first).chain(lines.take_while(|l| l.starts_with("  "))).collect()
}

/// Asserts that every line of a table ends in the same column: its last column is right-aligned
/// and each row fills it.
#[track_caller]
pub(crate) fn assert_right_edge_lines_up(lines: &[&str]) {
    let width = lines[0].chars().count();
    for line in lines {
        assert_eq!(
            line.chars().count(),
            width,
            "{line:?} is not aligned in:\n{}",
            lines.join("\n")
        );
    }
}

/// Asserts that no number in `text` is in scientific notation (`2.57e-2`).
#[track_caller]
pub(crate) fn assert_no_scientific_notation(text: &str) {
    let bytes = text.as_bytes();
    for i in 1..bytes.len().saturating_sub(2) {
        let exponent = bytes[i] == b'e' && (bytes[i + 1] == b'-' || bytes[i + 1].is_ascii_digit());
        assert!(!(exponent && bytes[i - 1].is_ascii_digit()), "scientific notation in:\n{text}");
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

/// Runs `snl` with `args` as [`snl`] does, but reads at most `limit` bytes of its standard error:
/// a run that writes more is killed and reported as exit code -1, with what it wrote so far. So
/// a test of a run that once went on for ever ends without a clock (its standard output is not
/// kept).
pub(crate) fn snl_bounded(args: &[&str], limit: u64) -> Run {
    use std::io::Read;
    let scratch = TempDir::new("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(args)
        .env("SNL_DB", scratch.path().join("games.db"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("snl starts");
    let mut stderr = Vec::new();
    let mut pipe = child.stderr.take().expect("stderr");
    pipe.by_ref().take(limit).read_to_end(&mut stderr).expect("stderr read");
    let mut more = [0_u8; 1];
    let endless = pipe.read(&mut more).expect("stderr read") > 0;
    if endless {
        child.kill().expect("snl killed");
    }
    let status = child.wait().expect("snl ends");
    Run {
        code: if endless { -1 } else { status.code().unwrap_or(-1) },
        stdout: String::new(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}
