//! Writing a file so that a crash or a power cut leaves either the old file or the new one, never
//! a mix: write a temporary file beside it, flush it to the disk, rename it over the old one, and
//! flush the folder so the rename itself is on the disk. A write killed before its rename leaves
//! its temporary file behind; the next write to the same file removes it.

use std::{
    fs::{self, File},
    io::{self, Write},
    path::{Path, PathBuf},
};

/// Replaces the file at `path` with `bytes`, atomically.
///
/// # Errors
///
/// Any I/O error; the file at `path` is then as it was, and no temporary file is left behind.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    remove_stale_temporaries(path);
    let temporary = temporary_path(path);
    let written = write_and_sync(&temporary, bytes).and_then(|()| fs::rename(&temporary, path));
    if let Err(e) = written {
        let _ = fs::remove_file(&temporary);
        return Err(e);
    }
    sync_folder(path)
}

/// `.NAME.PID.tmp` beside `path`: in the same folder, so the rename cannot cross file systems,
/// and named by process so two writers never share one.
fn temporary_path(path: &Path) -> PathBuf {
    let name = path.file_name().map_or_else(|| "save".into(), |n| n.to_string_lossy());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Removes the temporary files that writes to `path` by processes no longer running left behind
/// (killed between creating and renaming them). Another live process's temporary is left alone:
/// its write is under way. Best effort: what cannot be listed or removed stays.
fn remove_stale_temporaries(path: &Path) {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy()) else { return };
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(folder) else { return };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let pid = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid
            && (pid == std::process::id() || !running(pid))
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` is running. Where that cannot be told (no `/proc`), every other process
/// counts as running, so nothing in use is ever removed.
fn running(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

fn write_and_sync(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(unix)]
fn sync_folder(path: &Path) -> io::Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    File::open(folder)?.sync_all()
}

#[cfg(not(unix))]
fn sync_folder(_: &Path) -> io::Result<()> {
    // Folders cannot be opened for syncing here; the rename is as durable as the platform makes it.
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_dir::TestDir;

    #[test]
    fn a_write_replaces_the_file_and_leaves_nothing_else() {
        let dir = TestDir::new("atomic");
        let path = dir.path().join("game.json");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let names: Vec<_> =
            fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["game.json"]);
    }

    #[test]
    fn a_write_removes_what_killed_writes_left_and_keeps_a_running_writers_file() {
        let dir = TestDir::new("atomic-stale");
        let path = dir.path().join("game.json");
        // A process that has ended: its temporary is stale.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let ended = child.id();
        child.wait().unwrap();
        let stale = dir.path().join(format!(".game.json.{ended}.tmp"));
        fs::write(&stale, b"half a save").unwrap();
        let own = temporary_path(&path);
        fs::write(&own, b"from before").unwrap();
        // This process's parent is running: its temporary stays, as does another file's.
        let running =
            dir.path().join(format!(".game.json.{}.tmp", std::os::unix::process::parent_id()));
        fs::write(&running, b"under way").unwrap();
        let other = dir.path().join(format!(".other.json.{ended}.tmp"));
        fs::write(&other, b"not ours").unwrap();
        write_atomically(&path, b"whole").unwrap();
        let mut names: Vec<_> =
            fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        let mut expected =
            [other.file_name().unwrap(), running.file_name().unwrap(), path.file_name().unwrap()];
        expected.sort();
        assert_eq!(names, expected);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = TestDir::new("atomic-fail");
        let path = dir.path().join("game.json");
        write_atomically(&path, b"kept").unwrap();
        // A folder where the temporary file should go makes the write fail.
        fs::create_dir(temporary_path(&path)).unwrap();
        assert!(write_atomically(&path, b"lost").is_err());
        assert_eq!(fs::read(&path).unwrap(), b"kept");
    }
}
