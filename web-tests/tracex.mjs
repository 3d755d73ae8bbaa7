// experiment: renderer main-thread time by event before FCP, averaged over N loads per variant dir.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { launch, openPage } from './e2e/support.mjs';
const runs = Number(process.argv[2]);
const dirs = process.argv.slice(3);
const types = { html: 'text/html; charset=utf-8', js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', png: 'image/png' };
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
const totals = dirs.map(() => ({}));
const fcps = dirs.map(() => []);
for (let run = 0; run < runs; run++) {
  for (const [i, side] of sides.entries()) {
    const { page: p, context } = await openPage(browser);
    await browser.startTracing(p, { categories: ['devtools.timeline', 'blink', 'v8', 'disabled-by-default-devtools.timeline', 'loading', 'cc', 'gpu'] });
    await p.goto(`${side.url}/`, { waitUntil: 'load' });
    await p.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    const fcp = await p.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime);
    await p.waitForTimeout(300);
    const buf = await browser.stopTracing();
    const ev = JSON.parse(buf.toString()).traceEvents;
    fcps[i].push(fcp);
    const fcpEv = ev.find((e) => e.name === 'firstContentfulPaint');
    const nav = ev.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame) ?? ev.find((e) => e.name === 'navigationStart');
    const tid = fcpEv?.tid, pid = fcpEv?.pid;
    const end = fcpEv ? fcpEv.ts : Infinity;
    for (const e of ev) {
      if (e.ph !== 'X' || e.ts > end) continue;
      if (e.pid !== pid) continue;
      const key = (e.tid === tid ? '' : 'other:') + e.name;
      totals[i][key] = (totals[i][key] ?? 0) + Math.min(e.dur ?? 0, end - e.ts) / 1000;
    }
    totals[i]['~fcp-from-nav'] = (totals[i]['~fcp-from-nav'] ?? 0) + (nav ? (end - nav.ts) / 1000 : 0);
    await context.close();
  }
}
await browser.close();
for (const s of sides) s.server.close();
const names = new Set(totals.flatMap((t) => Object.keys(t)));
const rows = [...names].map((n) => [n, ...totals.map((t) => (t[n] ?? 0) / runs)]).filter((r) => r.slice(1).some((x) => x >= 1)).sort((a, b) => b[1] - a[1]);
console.log('event'.padEnd(40) + dirs.map((d) => path.basename(d).padStart(12)).join(''));
for (const r of rows) console.log(String(r[0]).slice(0, 40).padEnd(40) + r.slice(1).map((x) => x.toFixed(1).padStart(12)).join(''));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log('fcp median'.padEnd(40) + fcps.map((f) => median(f).toFixed(0).padStart(12)).join(''));
