// experiment: FCP of static page variants (dirs with page.html + assets/), alternated, with floor.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { launch, openPage } from './e2e/support.mjs';
const runs = Number(process.argv[2]);
const dirs = process.argv.slice(3);
const types = { html: 'text/html; charset=utf-8', js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', png: 'image/png', json: 'application/json' };
async function serve(dir) {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let file;
    if (url.pathname === '/') file = path.join(dir, 'page.html');
    else if (url.pathname.startsWith('/api/')) { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"rooms":[]}'); return; }
    else { const parts = url.pathname.split('/').filter(Boolean); file = path.join(dir, 'assets', parts.at(-1)); }
    try { const body = await readFile(file); res.writeHead(200, { 'content-type': types[path.extname(file).slice(1)] ?? 'application/octet-stream' }); res.end(body); }
    catch { res.writeHead(404); res.end(); }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}
const sides = await Promise.all(dirs.map(serve));
const browser = await launch();
const paints = {};
for (let run = 0; run < runs; run++) {
  for (const [i, side] of [...sides.entries(), [-1, sides[0]]]) {
    const { page: p, context } = await openPage(browser);
    await p.goto(i < 0 ? `${side.url}/api/rooms` : `${side.url}/`, { waitUntil: 'load' });
    await p.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    const fcp = await p.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime);
    (paints[i < 0 ? 'floor' : dirs[i]] ??= []).push(fcp);
    await context.close();
  }
}
await browser.close();
for (const s of sides) s.server.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const q = (xs, f) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * f)];
for (const [label, xs] of Object.entries(paints)) console.log(`${label.padEnd(20)} median ${median(xs).toFixed(0).padStart(4)} mean ${mean(xs).toFixed(1)} p25 ${q(xs, 0.25).toFixed(0)} p75 ${q(xs, 0.75).toFixed(0)} p90 ${q(xs, 0.9).toFixed(0)}`);
