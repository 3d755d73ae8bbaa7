//! `snl serve`: the online game server (SPEC §9). The first line on stdout is
//! `listening on http://HOST:PORT`; the rooms, their seats and their events live in the game
//! database (the same one `snl play` records into), so a server started again goes on with every
//! unfinished room. With `--db postgres://…` several servers share the rooms on PostgreSQL
//! (behind nginx; see `docs/scaling.md` and `deploy/cluster.sh`).

use std::{io::Write, net::SocketAddr, time::Duration};

use clap::Args;
use snl_server::{Config, ServeError};

use crate::{
    common::{CmdResult, Failure},
    session::DbArgs,
};
use snl_tui::console::Console;

/// Options of `snl serve`.
#[derive(Args, Clone, Debug)]
#[command(
    after_help = "Limits: a request body or WebSocket message of at most 65536 bytes, a chat \
line of at most 500 characters, at most 16 seats a room; rooms and connections as set above."
)]
pub(crate) struct ServeArgs {
    /// Where to listen (port 0: any free port).
    #[arg(
        long,
        value_name = "HOST:PORT",
        default_value = "127.0.0.1:8080",
        help_heading = "Listening"
    )]
    pub(crate) addr: SocketAddr,
    #[command(flatten)]
    pub(crate) db: DbArgs,
    /// The pause before a computer seat plays, in milliseconds, so people can follow.
    #[arg(long, value_name = "N", default_value_t = 600, help_heading = "Rooms")]
    pub(crate) bot_delay_ms: u64,
    /// Seconds a person whose connection drops keeps their seat, their turn clock paused and
    /// counting down for everyone; then the computer (hard) plays it until they take it back.
    #[arg(long, value_name = "S", default_value_t = snl_server::DEFAULT_GRACE_SECS,
        value_parser = clap::value_parser!(u64).range(0..=86_400), help_heading = "Rooms")]
    pub(crate) grace: u64,
    /// Most rooms not over at once; more are refused.
    #[arg(long, value_name = "N", default_value_t = 10_000, help_heading = "Rooms")]
    pub(crate) max_rooms: usize,
    /// Rooms one client address may create a minute (twice as many at once); past it, 429.
    /// Behind a reverse proxy every client has the proxy's address: raise it there.
    #[arg(long, value_name = "N", default_value_t = 10, help_heading = "Rooms")]
    pub(crate) rooms_per_minute: u32,
    /// Most WebSocket connections at once; more are refused.
    #[arg(long, value_name = "N", default_value_t = 20_000, help_heading = "Connections")]
    pub(crate) max_connections: usize,
    /// Most connections open at once from one client address (0: no limit); past it, 429.
    /// Behind a reverse proxy every client has the proxy's address: raise it there.
    #[arg(long, value_name = "N", default_value_t = 256, help_heading = "Connections")]
    pub(crate) connections_per_address: usize,
    /// Frames a connection may send per second (sustained; twice as many at once).
    #[arg(long, value_name = "N", default_value_t = 20, help_heading = "Connections")]
    pub(crate) rate: u32,
    /// An origin besides the server's own whose pages may use the API (repeatable): the scheme,
    /// host and port a reverse proxy serves the game at under another name or over https, as
    /// `https://snl.example.com`.
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = snl_server::origin,
        help_heading = "Connections")]
    pub(crate) allow_origin: Vec<String>,
    /// Wait for the disk at every commit (safe against a power cut; slower). Without it every
    /// event is still in the database before it is sent, safe against the process being killed.
    #[arg(long, help_heading = "Game database")]
    pub(crate) fsync: bool,
    /// Open the lobby in the browser ($BROWSER, else xdg-open) once the server listens.
    #[arg(long, help_heading = "Listening")]
    pub(crate) open: bool,
}

/// Runs the server until the process ends.
pub(crate) fn run(args: &ServeArgs, console: &mut Console) -> CmdResult {
    let mut config = Config::new(args.db.required_path()?);
    config.bot_delay = Duration::from_millis(args.bot_delay_ms);
    config.grace = Duration::from_secs(args.grace);
    config.max_rooms = args.max_rooms;
    config.max_connections = args.max_connections;
    config.edge.per_address = args.connections_per_address;
    let per_minute = args.rooms_per_minute.max(1);
    config.create_limit =
        snl_server::CreateLimit { rate: per_minute, burst: per_minute.saturating_mul(2) };
    config.fsync = args.fsync;
    config.allow_origins.clone_from(&args.allow_origin);
    config.limits.rate = args.rate.max(1);
    config.limits.burst = args.rate.max(1).saturating_mul(2);
    let out = &mut console.out;
    let mut told = Ok(());
    let browser = args.open.then(|| std::env::var("BROWSER").unwrap_or_default());
    let served = snl_server::run(config, args.addr, |addr| {
        told = writeln!(out, "listening on http://{addr}").and_then(|()| out.flush());
        if let Some(browser) = &browser {
            let url = format!("http://{addr}/");
            if let Err(why) = open_browser(browser, &url) {
                snl_tui::stderr_line!("snl: no browser could be opened ({why}): visit {url}");
            }
        }
    });
    told.map_err(Failure::other)?;
    served.map_err(|e| match e {
        ServeError::Restore(_) => Failure::bad(e),
        other => Failure::other(other),
    })
}

/// Opens `url` with the first command of `browser` (the `$BROWSER` convention: commands separated
/// by `:`, `%s` standing for the address, else the address goes last) that starts, or with
/// `xdg-open` when `browser` is empty. The browser is not waited for.
fn open_browser(browser: &str, url: &str) -> Result<(), String> {
    let commands: Vec<&str> = if browser.trim().is_empty() {
        vec!["xdg-open"]
    } else {
        browser.split(':').filter(|c| !c.trim().is_empty()).collect()
    };
    let mut why = String::from("no browser command");
    for command in commands {
        let mut words = command.split_whitespace();
        let Some(program) = words.next() else { continue };
        let mut args: Vec<String> = words.map(|w| w.replace("%s", url)).collect();
        if !command.contains("%s") {
            args.push(url.to_owned());
        }
        match std::process::Command::new(program)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .spawn()
        {
            Ok(mut child) => {
                // Reaped when it ends, so no zombie is left behind; the server does not wait.
                std::thread::spawn(move || child.wait());
                return Ok(());
            }
            Err(e) => why = format!("{program}: {e}"),
        }
    }
    Err(why)
}
