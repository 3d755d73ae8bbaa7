// Page weight (script and styles, those written into the page included), first contentful paint
// and frame times in Chromium, printed (and kept in
// target/web-screenshots/perf.json). Targets: script and styles under 120 KB (35 KB gzipped; the
// room 38 KB, see below),
// first paint under 150 ms on loopback, no frame over 50 ms during play. The weights are asserted;
// timings are reported, not asserted: they depend on the machine.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { launch, openPage, playToEnd, post, shots, startServer } from './support.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/** @param {number[]} xs @param {number} q */
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

/** @type {Record<string, any>} */
const report = {};

test('a game on this device: the first roll is possible this long after the page starts loading', async () => {
  /** @type {number[]} */
  const times = [];
  for (let run = 0; run < 5; run++) {
    const { page, context } = await openPage(browser);
    // A new game kept on this device, as the lobby's "Play here" keeps it.
    await context.addInitScript(() => {
      if (location.pathname === '/local') localStorage.setItem('snl.local', JSON.stringify({ setup: { board: 'classic', seats: [{ kind: 'human', name: 'Ann' }, { kind: 'hard', name: 'Hal' }] }, seed: 4, intents: [] }));
    });
    await page.goto(`${server.url}/local`);
    // From the start of navigation (performance's time origin) to the Roll button taking a click.
    const at = await page.waitForFunction(() => {
      const roll = /** @type {HTMLButtonElement | null} */ (document.getElementById('roll'));
      return roll && !roll.disabled && !roll.hidden ? performance.now() : false;
    }, undefined, { polling: 'raf' });
    times.push(Number(await at.jsonValue()));
    await context.close();
  }
  report.local_first_roll = { ms_median: quantile(times, 0.5), ms_runs: times.map((t) => Math.round(t)) };
  console.log(`game on this device: first roll possible ${quantile(times, 0.5).toFixed(0)} ms after the page starts loading, median over 5 loads (${times.map((t) => t.toFixed(0)).join(', ')})`);
  assert.equal(times.length, 5);
});

test('page weight and first contentful paint', async () => {
  const room = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'hard', name: 'Robo' }] });
  for (const [label, address] of [['lobby', '/'], ['room', `/room/${room.room}`]]) {
    /** @type {number[]} */
    const paints = [];
    let bytes = 0;
    let gzipped = 0;
    for (let run = 0; run < 5; run++) {
      const { page, context } = await openPage(browser);
      /** @type {Promise<void>[]} */
      const bodies = [];
      let b = 0;
      let g = 0;
      page.on('response', (r) => {
        const type = r.request().resourceType();
        if (type === 'script' || type === 'stylesheet') {
          bodies.push(r.body().then((body) => { b += body.length; g += gzipSync(body).length; }));
        }
      });
      await page.goto(`${server.url}${address}`, { waitUntil: 'load' });
      await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
      paints.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime));
      // The page's modules are imported after its first paint (assets/boot.js): all of them count.
      await page.waitForSelector('html[data-ready]', { state: 'attached' });
      await Promise.all(bodies);
      // The styles the server writes into the page count as styles too.
      const inline = Buffer.from(await page.evaluate(() => Array.from(document.querySelectorAll('style'), (s) => s.textContent ?? '').join('')));
      bytes = b + inline.length;
      gzipped = g + (inline.length ? gzipSync(inline).length : 0);
      await context.close();
    }
    report[label] = { script_and_styles_bytes: bytes, gzipped_bytes: gzipped, fcp_ms_median: quantile(paints, 0.5), fcp_ms_runs: paints.map((p) => Math.round(p)) };
    console.log(`${label}: script+styles ${(bytes / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped; first contentful paint median ${quantile(paints, 0.5).toFixed(0)} ms over 5 loads (${paints.map((p) => p.toFixed(0)).join(', ')})`);
    assert.ok(bytes > 0 && gzipped < bytes);
    // The weight targets (bytes are the same on every machine, unlike the timings).
    assert.ok(bytes < 120 * 1024, `${label}: ${bytes} bytes of script and styles, over 120 KB`);
    // 35 KB gzipped until this wave; the room page then took the grace for dropped players, a
    // seat's own invite, the fair-dice card and the achievements at the end (issues 26 and 30),
    // 40.0 KB with the zoom, which now loads only for a board of more than 400 cells (37.2 KB).
    assert.ok(gzipped < (label === 'room' ? 38 : 35) * 1024, `${label}: ${gzipped} bytes gzipped, over its budget`);
  }
  // The floor on this machine: the first paint of a page with nothing to load (a JSON reply of the
  // same server, shown as text), measured the same way, so the figures above can be read against it.
  /** @type {number[]} */
  const floor = [];
  for (let run = 0; run < 5; run++) {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/api/rooms`, { waitUntil: 'load' });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    floor.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime));
    await context.close();
  }
  report.floor = { fcp_ms_median: quantile(floor, 0.5), fcp_ms_runs: floor.map((p) => Math.round(p)) };
  console.log(`floor (a page with nothing to load): first contentful paint median ${quantile(floor, 0.5).toFixed(0)} ms over 5 loads (${floor.map((p) => p.toFixed(0)).join(', ')})`);
});

test('the lobby does not move once painted: its script fills places kept for it', async () => {
  // Layout shift as Chromium scores it (the sum of every shift's fraction of the viewport moved
  // times how far, 0.1 being "good" by Web Vitals): the lobby's script runs after its first
  // paint (assets/boot.js), and the seats and the preview it writes in have their places kept.
  // Without them it scored 0.061 (the two seat rows pushing the form down) and 0.036 (the preview).
  const room = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'hard', name: 'Robo' }] });
  for (const [label, address] of [['lobby', '/'], ['room', `/room/${room.room}`]]) {
    const { page, context, errors } = await openPage(browser);
    await page.addInitScript(() => {
      // @ts-expect-error kept for the test to read
      window.shifts = [];
      new PerformanceObserver((list) => {
        // @ts-expect-error set above; a layout-shift entry has a value
        for (const e of list.getEntries()) window.shifts.push({ value: e.value, from: e.sources.map((s) => s.node?.id || s.node?.className || s.node?.nodeName) });
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${server.url}${address}`, { waitUntil: 'load' });
    await page.waitForSelector('html[data-ready]', { state: 'attached' });
    // Filled in: the seats and the preview in the lobby; the players in a room (from its welcome).
    await page.waitForSelector(label === 'lobby' ? '#seats li >> nth=1' : '#players li >> nth=1', { state: 'attached' });
    await page.waitForSelector(label === 'lobby' ? '#preview [data-cell="100"]' : '[data-cell="100"]', { state: 'attached' });
    // One more frame, for a shift of the last change to be reported.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    // @ts-expect-error set above
    const shifts = /** @type {{value: number, from: string[]}[]} */ (await page.evaluate(() => window.shifts));
    const score = shifts.reduce((sum, s) => sum + s.value, 0);
    report[label].layout_shift = score;
    console.log(`${label}: layout shift ${score.toFixed(4)} ${JSON.stringify(shifts)}`);
    if (label === 'lobby') assert.ok(score < 0.01, `the lobby moved: ${JSON.stringify(shifts)}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('frame times while a game animates at full motion', async () => {
  const room = await post(`${server.url}/api/rooms`, { board: 'classic', rules: 'bonus-six', seats: [{ kind: 'human' }, { kind: 'greedy', name: 'Robo' }], seed: 21 });
  const { token } = await post(`${server.url}/api/rooms/${room.room}/seats/0`, { name: 'Ann' });
  const { page, errors } = await openPage(browser, { reducedMotion: 'no-preference' });
  await page.goto(`${server.url}/room/${room.room}#token=${token}`);
  await page.waitForSelector('[data-player="Ann"]');
  await page.evaluate(() => {
    /** @type {number[]} */
    const frames = [];
    // @ts-expect-error kept for the test to read
    window.frameTimes = frames;
    let last = performance.now();
    const tick = (/** @type {number} */ t) => {
      if (document.body.dataset.idle === 'false') frames.push(t - last);
      last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await playToEnd(page);
  // @ts-expect-error set above
  const frames = /** @type {number[]} */ (await page.evaluate(() => window.frameTimes));
  const over = frames.filter((f) => f > 50).length;
  report.frames = { count: frames.length, median_ms: quantile(frames, 0.5), p95_ms: quantile(frames, 0.95), p99_ms: quantile(frames, 0.99), max_ms: Math.max(...frames), over_50ms: over };
  console.log(`frames while animating: ${frames.length}, median ${quantile(frames, 0.5).toFixed(1)} ms, p95 ${quantile(frames, 0.95).toFixed(1)} ms, p99 ${quantile(frames, 0.99).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms, ${over} over 50 ms`);
  await page.screenshot({ path: path.join(shots, 'game-full-motion.png') });
  writeFileSync(path.join(shots, 'perf.json'), `${JSON.stringify(report, null, 2)}\n`);
  assert.ok(frames.length > 30, 'the game animated');
  assert.deepEqual(errors, []);
});
