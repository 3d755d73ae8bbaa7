//! How connections are taken in: at most [`Edge::per_address`] open at once from one client
//! address (a WebSocket counts until it closes), and an HTTP connection that does not send a
//! request's header lines within [`Edge::header_time`] — idle between requests included — is
//! closed. So a client that opens sockets and sends nothing, or a header a byte at a time, holds
//! neither file descriptors nor memory for long, nor more than its share.

use std::{
    collections::HashMap,
    net::{IpAddr, SocketAddr},
    pin::Pin,
    sync::{Arc, Mutex, PoisonError},
    task::{Context, Poll},
    time::Duration,
};

use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream},
};

/// How connections are taken in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// Most connections open at once from one client address (0: no limit). Behind a reverse
    /// proxy every client has the proxy's address: raise it there.
    pub per_address: usize,
    /// How long an HTTP connection may take to send a request's header lines, counted from
    /// when the server is ready to read them (a fresh connection, or the end of the last
    /// answer on a kept-alive one): past it the connection is closed.
    pub header_time: Duration,
}

impl Default for Edge {
    fn default() -> Edge {
        Edge { per_address: 256, header_time: Duration::from_secs(15) }
    }
}

/// The send buffer the system keeps for each connection, in bytes (Linux doubles it for its
/// bookkeeping): plenty for a room's frames, and a bound on what a client that does not read
/// holds in the kernel.
pub(crate) const SEND_BUFFER: usize = 128 * 1024;

/// The connections open from each address.
#[derive(Debug)]
struct Peers {
    open: Mutex<HashMap<IpAddr, usize>>,
    max: usize,
}

/// One connection counted against its address while it lives.
#[derive(Debug)]
struct Slot {
    peers: Arc<Peers>,
    ip: IpAddr,
}

impl Peers {
    fn take(self: &Arc<Self>, ip: IpAddr) -> Option<Slot> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(ip).or_insert(0);
        if self.max != 0 && *count >= self.max {
            return None;
        }
        *count += 1;
        Some(Slot { peers: self.clone(), ip })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.peers.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// A client's socket with its place among its address's connections (kept by a WebSocket
/// after the upgrade too).
#[derive(Debug)]
struct Counted {
    tcp: TcpStream,
    _slot: Slot,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}

/// The answer to a connection past its address's limit, written without waiting (a client
/// that does not read it loses it) before the socket is closed: SPEC §9's error shape.
fn refusal(ip: IpAddr, max: usize) -> String {
    let body = serde_json::json!({"error": {
        "code": "connection_limit",
        "message": format!("address {ip} holds its limit of {max} open connections: close some first"),
    }})
    .to_string();
    format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Serves `router` on `listener` until accepting fails for good: each connection on a task of
/// its own, HTTP/1.1 with upgrades (WebSocket), each request knowing its client's address.
pub(crate) async fn serve(listener: TcpListener, router: axum::Router, edge: Edge) {
    let peers = Arc::new(Peers { open: Mutex::default(), max: edge.per_address });
    loop {
        let (tcp, addr) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors or memory, or the peer left before it was accepted:
                // wait a little for connections to close rather than spin.
                if !matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionAborted | std::io::ErrorKind::ConnectionReset
                ) {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                continue;
            }
        };
        let Some(slot) = peers.take(addr.ip()) else {
            let _ = tcp.try_write(refusal(addr.ip(), edge.per_address).as_bytes());
            continue;
        };
        // Frames are small and each waits for an answer: send them at once (no Nagle delay).
        let _ = tcp.set_nodelay(true);
        // What the system holds for a client that does not read is bounded too (not grown to
        // 4 MiB per socket): past it the server waits for the client, then cuts it off.
        let _ = socket2::SockRef::from(&tcp).set_send_buffer_size(SEND_BUFFER);
        tokio::spawn(connection(Counted { tcp, _slot: slot }, addr, router.clone(), edge));
    }
}

async fn connection(io: Counted, addr: SocketAddr, router: axum::Router, edge: Edge) {
    let service = hyper::service::service_fn(move |mut request| {
        // Each request knows its client's address (rooms created per address are limited).
        request.extensions_mut().insert(ConnectInfo(addr));
        let mut router = router.clone();
        async move { tower_service::Service::call(&mut router, request).await }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(edge.header_time);
    let _ = builder.serve_connection(TokioIo::new(io), service).with_upgrades().await;
}
