//! Writing a file so that a crash or a power cut leaves either the old file or the new one, never
//! a mix: write a temporary file beside it, flush it to the disk, rename it over the old one, and
//! flush the folder so the rename itself is on the disk. A write killed before its rename leaves
//! its temporary file behind; the next write to the same file removes it.
//!
//! Only a regular file (or a path where nothing is yet) is ever replaced: a folder, a device, a
//! pipe or a socket at the path is refused before anything is written, since renaming a file
//! over it would put a file where something else was (`--save /dev/null` once replaced the
//! machine's `/dev/null`). A symbolic link is followed, and the file it leads to is replaced,
//! the link staying a link.

use std::{
    fs::{self, File},
    io::{self, Write},
    path::{Path, PathBuf},
};

/// Replaces the file at `path` with `bytes`, atomically.
///
/// `path` must be a regular file or not exist yet. A symbolic link is resolved first (each link
/// in turn, as the system would): the temporary file is written beside the file the link leads
/// to and renamed over that file, so the link stays a link and its target changes atomically.
///
/// # Errors
///
/// [`io::ErrorKind::InvalidInput`] when `path` (or where its links lead) is a folder, a device,
/// a pipe or a socket, before anything is written; any other I/O error. The file at `path` is
/// then as it was, and no temporary file is left behind.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = regular_target(path)?;
    let path = target.as_path();
    remove_stale_temporaries(path);
    let temporary = temporary_path(path);
    let written = write_and_sync(&temporary, bytes).and_then(|()| fs::rename(&temporary, path));
    if let Err(e) = written {
        let _ = fs::remove_file(&temporary);
        return Err(e);
    }
    sync_folder(path)
}

/// How many symbolic links a path may go through before it is refused (as Linux's `ELOOP`).
const MAX_LINKS: usize = 40;

/// The file a write to `path` replaces: `path` itself when it is a regular file or nothing is
/// there yet, or the end of its chain of symbolic links (which need not exist yet either).
///
/// # Errors
///
/// [`io::ErrorKind::InvalidInput`] for anything that is not a regular file, a link loop or a
/// chain longer than [`MAX_LINKS`]; the error of a path that cannot be looked at.
fn regular_target(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_owned();
    for _ in 0..=MAX_LINKS {
        let meta = match fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_file() {
            return Ok(at);
        }
        if !kind.is_symlink() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, not_a_file(kind)));
        }
        let link = fs::read_link(&at)?;
        // A relative link is relative to the folder the link is in.
        at = match at.parent() {
            Some(folder) if link.is_relative() => folder.join(link),
            _ => link,
        };
    }
    Err(io::Error::new(io::ErrorKind::InvalidInput, "it goes through too many symbolic links"))
}

/// Why a file of this kind is not written over, in words.
fn not_a_file(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() || kind.is_block_device() {
            return "it is a device, not a regular file";
        }
        if kind.is_fifo() {
            return "it is a pipe (FIFO), not a regular file";
        }
        if kind.is_socket() {
            return "it is a socket, not a regular file";
        }
    }
    if kind.is_dir() { "it is a folder, not a file" } else { "it is not a regular file" }
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
    fn a_folder_a_pipe_and_a_device_are_refused_and_left_as_they_are() {
        let dir = TestDir::new("atomic-kinds");
        let folder = dir.path().join("folder");
        fs::create_dir(&folder).unwrap();
        let pipe = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status().unwrap();
        assert!(made.success());
        for (path, why) in [(&folder, "folder"), (&pipe, "pipe")] {
            let e = write_atomically(path, b"no").unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{e}");
            assert!(e.to_string().contains(why), "{e}");
        }
        assert!(fs::metadata(&folder).unwrap().is_dir());
        assert!(std::os::unix::fs::FileTypeExt::is_fifo(&fs::metadata(&pipe).unwrap().file_type()));
        let names: Vec<_> =
            fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        // Only looked at, never written: the device's kind is read from its metadata.
        let kind = fs::metadata("/dev/null").unwrap().file_type();
        assert_eq!(not_a_file(kind), "it is a device, not a regular file");
    }

    #[test]
    fn a_link_stays_a_link_and_the_file_it_leads_to_is_replaced() {
        let dir = TestDir::new("atomic-link");
        fs::create_dir(dir.path().join("real")).unwrap();
        let target = dir.path().join("real").join("game.json");
        fs::write(&target, b"old").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("real/game.json", &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(&target).unwrap(), b"new");
        // A dangling link: the file it names is created.
        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink("real/later.json", &dangling).unwrap();
        write_atomically(&dangling, b"made").unwrap();
        assert!(fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(dir.path().join("real").join("later.json")).unwrap(), b"made");
        // A loop is refused.
        let a = dir.path().join("a");
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        assert_eq!(write_atomically(&a, b"x").unwrap_err().kind(), io::ErrorKind::InvalidInput);
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
