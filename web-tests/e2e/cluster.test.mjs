// Issue 28 point 5: the cluster lets browsers in. Two nodes on PostgreSQL behind nginx
// (deploy/cluster.sh); Chromium opens the lobby through nginx, makes a room from the page (its
// POST carries the page's Origin, as a browser's does), opens the room's WebSocket through nginx
// and plays to the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { launch, openPage, playToEnd, settled, logLines, root } from './support.mjs';

const run = promisify(execFile);

/**
 * Whether a loopback port can be listened on now.
 * @param {number} port
 */
function free(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A port P with P-1 (PostgreSQL), P (nginx), P+1 and P+2 (the nodes) all free. */
async function freePorts() {
  for (let tries = 0; tries < 200; tries++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const all = await Promise.all([base - 1, base, base + 1, base + 2].map(free));
    if (all.every(Boolean)) return base;
  }
  throw new Error('no four free loopback ports in a row');
}

test('a room made and played in Chromium through the cluster’s nginx plays to its end', async () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'snl-web-cluster-'));
  chmodSync(tmp, 0o755); // the postgres user runs the database inside
  const env = {
    ...process.env,
    SNL_CLUSTER_DIR: path.join(tmp, 'cluster'),
    SNL_CLUSTER_PORT: String(await freePorts()),
    SNL_SERVE_ARGS: '--bot-delay-ms 0',
    ...(process.env.SNL_BIN ? { SNL_BIN: process.env.SNL_BIN } : {}),
  };
  const script = path.join(root, 'deploy', 'cluster.sh');
  const browser = await launch();
  try {
    const up = await run('bash', [script, 'up', '2'], { env, maxBuffer: 1 << 24 });
    const url = up.stdout.trim().split('\n').at(-1) ?? '';
    assert.equal(url, `http://127.0.0.1:${env.SNL_CLUSTER_PORT}`, 'the last line is nginx’s address');

    const { page, errors } = await openPage(browser);
    await page.goto(url);
    // The page's own request, with its Origin: nginx must pass the client's Host for the node
    // to take it as the server's own.
    const made = await page.evaluate(async () => {
      const post = async (/** @type {string} */ to, /** @type {unknown} */ body) => {
        const r = await fetch(to, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: r.status, body: await r.json() };
      };
      const room = await post('/api/rooms', { seats: [{ kind: 'human' }, { kind: 'easy', name: 'Robo' }], seed: 5 });
      const seat = await post(`/api/rooms/${room.body.room}/seats/0`, { name: 'Ann' });
      return { room, seat };
    });
    assert.equal(made.room.status, 201, JSON.stringify(made.room.body));
    assert.equal(made.seat.status, 200, JSON.stringify(made.seat.body));

    await page.goto(`${url}/room/${made.room.body.room}#token=${made.seat.body.token}`);
    await page.waitForFunction(() => document.querySelector('#players .player .badge-you'));
    await settled(page);
    const rolls = await playToEnd(page);
    assert.ok(rolls > 0, 'Ann rolled');
    const winner = await page.locator('#winner').textContent();
    assert.match(winner ?? '', /Ann|Robo/);
    const lines = await logLines(page);
    assert.ok(lines.some((l) => /wins|won/.test(l)), `the log tells the end: ${lines.slice(-3).join(' | ')}`);
    assert.deepEqual(errors, [], 'no script error and no refused socket');
  } finally {
    await browser.close();
    await run('bash', [script, 'down'], { env }).catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
  }
});
