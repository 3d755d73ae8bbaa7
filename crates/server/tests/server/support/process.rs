//! A server in a process of its own — this test binary run again with one test selected and the
//! database named in its environment — so that its memory (`VmHWM`) is the server's alone and
//! what it says on standard error can be waited for line by line.

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    path::Path,
    process::{Command, Stdio},
    time::Duration,
};

use tokio::sync::mpsc;

/// The test that, run with [`DB`] set, is the server.
const SERVER_TEST: &str =
    "support::process::a_server_process_listens_and_stops_when_its_input_closes";
/// The database of the server process.
const DB: &str = "SNL_TEST_SERVER_DB";
/// `Limits::send_time` of the server process, in milliseconds.
const SEND_MS: &str = "SNL_TEST_SERVER_SEND_MS";

/// How long a test waits for a line (a guard against hangs, not a timing).
const PATIENCE: Duration = Duration::from_mins(1);

/// A server process on a free loopback port.
pub(crate) struct ServerProcess {
    pub(crate) addr: SocketAddr,
    pub(crate) pid: u32,
    child: std::process::Child,
    stderr: mpsc::UnboundedReceiver<String>,
}

impl ServerProcess {
    /// Starts one on the database in `dir`, a connection that reads nothing cut off after
    /// `send_time`.
    pub(crate) fn start(dir: &Path, send_time: Duration) -> ServerProcess {
        let exe = std::env::current_exe().unwrap();
        // Through a shell that ignores SIGXFSZ (an ignored signal stays ignored across exec):
        // a write past the file-size limit the full-disk test sets then fails with EFBIG, as a
        // write to a full disk fails, rather than killing the process.
        let mut child = Command::new("sh")
            .args(["-c", "trap '' XFSZ; exec \"$0\" \"$@\""])
            .arg(exe)
            .args([SERVER_TEST, "--exact", "--nocapture", "--test-threads=1", "-q"])
            .env(DB, dir.join("games.db"))
            .env(SEND_MS, send_time.as_millis().to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut addr = None;
        for line in stdout.lines() {
            let line = line.unwrap();
            if let Some(at) = line.strip_prefix("listening on http://") {
                addr = Some(at.parse().unwrap());
                break;
            }
        }
        let (tx, stderr) = mpsc::unbounded_channel();
        let lines = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in lines.lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let pid = child.id();
        ServerProcess { addr: addr.expect("the server listens"), pid, child, stderr }
    }

    /// Waits for a line on its standard error that holds `text`; the lines before it.
    pub(crate) async fn line_with(&mut self, text: &str) -> Vec<String> {
        let mut before = Vec::new();
        loop {
            let line = tokio::time::timeout(PATIENCE, self.stderr.recv()).await;
            let line = line.expect("the line within the patience").expect("the server runs");
            if line.contains(text) {
                return before;
            }
            before.push(line);
        }
    }

    /// Sets the size past which it cannot write a file (`None`: no limit): 0 is a full disk.
    pub(crate) fn limit_file_size(&self, bytes: Option<u64>) {
        let soft = bytes.map_or_else(|| "unlimited".to_owned(), |b| b.to_string());
        let status = Command::new("prlimit")
            .args(["--pid", &self.pid.to_string(), &format!("--fsize={soft}:unlimited")])
            .status()
            .expect("prlimit (util-linux) runs");
        assert!(status.success(), "prlimit --fsize={soft} on the server process");
    }

    /// Its peak resident memory (`VmHWM`), in KiB.
    pub(crate) fn peak_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// Closes its standard input (it exits) and waits for it; whether it exited well.
    pub(crate) fn stop(mut self) -> bool {
        drop(self.child.stdin.take());
        self.child.wait().unwrap().success()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Run alone with [`DB`] set, this is the server process: it serves until its standard input
/// closes. Run as a test, it starts one and checks that it serves and stops so.
#[test]
fn a_server_process_listens_and_stops_when_its_input_closes() {
    if let Some(db) = std::env::var_os(DB) {
        std::thread::spawn(|| {
            let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
            std::process::exit(0);
        });
        let mut config = snl_server::Config::new(db.into());
        config.bot_delay = Duration::ZERO;
        config.limits.rate = 10_000;
        config.limits.burst = 10_000;
        config.max_connections = 1_000_000;
        config.max_rooms = 1_000_000;
        config.edge.per_address = 0;
        config.create_limit = snl_server::CreateLimit { rate: 1_000_000, burst: 1_000_000 };
        if let Some(ms) = std::env::var(SEND_MS).ok().and_then(|ms| ms.parse().ok()) {
            config.limits.send_time = Duration::from_millis(ms);
        }
        let listening = |addr| println!("listening on http://{addr}");
        snl_server::run(config, "127.0.0.1:0".parse().unwrap(), listening).unwrap();
        return;
    }
    let dir = super::TestDir::new("process");
    let server = ServerProcess::start(dir.path(), Duration::from_secs(20));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (status, _) = runtime.block_on(super::http(server.addr, "GET", "/api/rooms", None));
    assert_eq!(status, 200);
    assert!(server.peak_kib() > 0);
    assert!(server.stop(), "it exits well when its input closes");
}
