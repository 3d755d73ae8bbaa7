// For working on the pages: serves crates/server/web from the disk (edit, reload, no rebuild)
// and passes /api/ (HTTP and WebSocket) to a running `snl serve`.
//   node dev-server.mjs http://127.0.0.1:8080 [port]
import http from 'node:http';
import net from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../crates/server/web');
const backend = new URL(process.argv[2] ?? 'http://127.0.0.1:8080');
const port = Number(process.argv[3] ?? 8081);
const types = { html: 'text/html', js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', png: 'image/png' };

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname.startsWith('/api/')) {
    const up = http.request({ host: backend.hostname, port: backend.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
    return;
  }
  const parts = url.pathname.split('/').filter(Boolean);
  const file = parts[0] === 'assets' ? path.join(web, 'assets', ...parts.slice(2)) : path.join(web, `${parts[0] ?? 'index'}.html`);
  try {
    let body = await readFile(file);
    const ext = /** @type {keyof typeof types} */ (path.extname(file).slice(1));
    if (ext === 'html') body = Buffer.from(body.toString().replaceAll('{{v}}', 'dev'));
    res.writeHead(200, { 'content-type': types[ext] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end('not found');
  }
});
server.on('upgrade', (req, socket, head) => {
  const up = net.connect(Number(backend.port), backend.hostname, () => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`, ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`), '', ''];
    up.write(lines.join('\r\n'));
    up.write(head);
    up.pipe(socket);
    socket.pipe(up);
  });
  up.on('error', () => socket.destroy());
  socket.on('error', () => up.destroy());
});
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
