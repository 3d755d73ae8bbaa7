//! Memory per connection: opens N spectator connections to one room of a running `snl serve` and
//! reports the server's resident memory before and after (Linux `/proc`).
//!
//! ```text
//! cargo run --release -p snl-server --example conns -- --addr HOST:PORT --server-pid PID --n 2000
//! ```

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn arg(args: &[String], name: &str) -> String {
    let at = args.iter().position(|a| a == name).unwrap();
    args[at + 1].clone()
}

async fn post(addr: &str, path: &str, body: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    response
}

fn field(response: &str, name: &str) -> String {
    let key = format!("\"{name}\":\"");
    response.split(&key).nth(1).unwrap().split('"').next().unwrap().to_owned()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr = arg(&args, "--addr");
    let pid: u32 = arg(&args, "--server-pid").parse().unwrap();
    let n: usize = arg(&args, "--n").parse().unwrap();
    let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let body = r#"{"seats":[{"kind":"human"},{"kind":"human"}]}"#;
    let request = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let room = response.split("\"room\":\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
    let mut sockets = Vec::with_capacity(n);
    if args.iter().any(|a| a == "--seated") {
        // Rooms of two people, both seats connected.
        let before = rss_kib(pid);
        for _ in 0..n / 2 {
            let room = field(&post(&addr, "/api/rooms", body).await, "room");
            for seat in 0..2 {
                let path = format!("/api/rooms/{room}/seats/{seat}");
                let name = format!(r#"{{"name":"P{seat}"}}"#);
                let token = field(&post(&addr, &path, &name).await, "token");
                let url = format!("ws://{addr}/api/rooms/{room}/ws");
                let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
                let hello = format!(r#"{{"type":"hello","token":"{token}","since":null}}"#);
                socket.send(Message::Text(hello.into())).await.unwrap();
                socket.next().await.unwrap().unwrap();
                sockets.push(socket);
            }
        }
        let after = rss_kib(pid);
        println!(
            "{n} seated connections in {} rooms: server RSS {before} KiB -> {after} KiB, {:.0} bytes per connection (rooms included)",
            n / 2,
            (after - before) as f64 * 1024.0 / n as f64
        );
        return;
    }
    let before = rss_kib(pid);
    for _ in 0..n {
        let url = format!("ws://{addr}/api/rooms/{room}/ws");
        let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let hello = r#"{"type":"hello","token":null,"since":null}"#;
        socket.send(Message::Text(hello.into())).await.unwrap();
        socket.next().await.unwrap().unwrap();
        sockets.push(socket);
    }
    let after = rss_kib(pid);
    println!(
        "{n} connections: server RSS {before} KiB -> {after} KiB, {:.0} bytes per connection",
        (after - before) as f64 * 1024.0 / n as f64
    );
}
