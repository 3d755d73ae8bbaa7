// First contentful paint of two builds of `snl serve` side by side, measured as e2e/perf.test.mjs
// does (a fresh context per load, 1280×860, FCP from the page's own paint timing), with the loads
// of A and B alternated so that the machine's load falls on both alike; and the floor (a JSON
// reply of the same server, shown as text) in the same run. Prints each median and every run.
//   node fcp-ab.mjs [RUNS] [BIN_A] [BIN_B]    (defaults: 9, target/release/snl for both)
import { launch, openPage, post, root, startServer } from './e2e/support.mjs';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 9);
const bins = [process.argv[3], process.argv[4]].map((b) => b ?? path.join(root, 'target', 'release', 'snl'));

/** @param {string} bin */
async function serve(bin) {
  process.env.SNL_BIN = bin;
  const server = await startServer();
  const room = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'hard', name: 'Robo' }] });
  return { server, pages: { lobby: '/', room: `/room/${room.room}`, floor: '/api/rooms' } };
}
const sides = [await serve(bins[0]), await serve(bins[1])];
const browser = await launch();
/** @type {Record<string, number[]>} */
const paints = {};
for (let run = 0; run < runs; run++) {
  for (const page of ['lobby', 'room', 'floor']) {
    for (const [i, side] of sides.entries()) {
      if (page === 'floor' && i === 1 && bins[0] === bins[1]) continue;
      const { page: p, context } = await openPage(browser);
      await p.goto(`${side.server.url}${side.pages[/** @type {'lobby'|'room'|'floor'} */ (page)]}`, { waitUntil: 'load' });
      await p.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
      const fcp = await p.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime);
      (paints[`${page} ${'AB'[i]}`] ??= []).push(fcp);
      await context.close();
    }
  }
}
await browser.close();
for (const side of sides) side.server.stop();
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`A = ${bins[0]}\nB = ${bins[1]}`);
for (const [label, xs] of Object.entries(paints)) {
  console.log(`${label.padEnd(8)} median ${median(xs).toFixed(0).padStart(4)} ms over ${xs.length} loads (${xs.map((x) => x.toFixed(0)).join(', ')})`);
}
