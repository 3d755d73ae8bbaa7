//! Writing a file so that a crash or a power cut leaves either the old file or the new one, never
//! a mix: write a temporary file beside it, flush it to the disk, rename it over the old one, and
//! flush the folder so the rename itself is on the disk.

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
