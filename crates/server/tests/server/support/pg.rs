//! A throwaway PostgreSQL cluster for one test: `initdb` in a fresh folder, `pg_ctl start -w`
//! on a free loopback port (it returns once the server accepts connections), stopped and
//! removed when dropped. As root, the server runs as the `postgres` user (PostgreSQL refuses
//! root); otherwise as the current user.

use std::{
    net::TcpListener,
    path::{Path, PathBuf},
    process::Command,
};

/// A running PostgreSQL cluster.
pub(crate) struct Postgres {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
}

/// The folder of PostgreSQL's programs: Debian's newest `/usr/lib/postgresql/N/bin`, else
/// wherever `initdb` is on the PATH.
fn bin() -> PathBuf {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    found.sort();
    if let Some((_, bin)) = found.pop() {
        return bin;
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .find(|p| p.join("initdb").exists())
        .expect("PostgreSQL's initdb is installed (scripts/test.sh installs Debian's postgresql)")
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

impl Postgres {
    pub(crate) fn start(name: &str) -> Postgres {
        let dir = std::env::temp_dir().join(format!("snl-pg-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if is_root() {
            let owned = Command::new("chown").arg("postgres:postgres").arg(&dir).status().unwrap();
            assert!(owned.success(), "the postgres user exists (Debian's postgresql makes it)");
        }
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let postgres = Postgres { dir, bin: bin(), port };
        let data = postgres.dir.join("data");
        postgres
            .run("initdb", &["-D", path(&data), "-U", "snl", "--auth=trust", "-E", "UTF8", "-N"]);
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 \
             -c max_locks_per_transaction=256",
            path(&postgres.dir)
        );
        let log = postgres.dir.join("log");
        postgres
            .run("pg_ctl", &["-D", path(&data), "-l", path(&log), "-o", &options, "-w", "start"]);
        postgres
    }

    fn run(&self, program: &str, args: &[&str]) {
        let program = self.bin.join(program);
        let mut command = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&program);
            c
        } else {
            Command::new(&program)
        };
        // What they say on success is noise in a test's output; their errors go to stderr.
        let status = command.args(args).stdout(std::process::Stdio::null()).status().unwrap();
        assert!(status.success(), "{} {args:?} failed", program.display());
    }

    /// The URL of database `db` (see [`Postgres::database`]).
    pub(crate) fn url(&self, db: &str) -> String {
        format!("postgres://snl@127.0.0.1:{}/{db}", self.port)
    }

    /// A fresh database named `db`; returns its URL.
    pub(crate) async fn database(&self, db: &str) -> String {
        let (client, connection) =
            tokio_postgres::connect(&self.url("postgres"), tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(connection);
        client.batch_execute(&format!("CREATE DATABASE {db}")).await.unwrap();
        self.url(db)
    }
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let _ = std::panic::catch_unwind(|| {
            self.run("pg_ctl", &["-D", path(&data), "-m", "immediate", "-w", "stop"]);
        });
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
