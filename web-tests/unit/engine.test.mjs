// The browser's engine (engine.wasm, committed beside engine.js and proved by scripts/wasm.sh to be
// what the sources build) under node's test runner: its answers are the Rust engine's, checked
// against the figures the Rust tests pin and against the `snl` binary itself.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, checkBoardFile, boardCheck, options, odds, analysable } from '../../crates/server/web/assets/engine.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const bin = process.env.SNL_BIN ?? path.join(root, 'target', 'release', 'snl');
await load(readFileSync(path.join(root, 'crates/server/web/assets/engine.wasm')));

/** A board file with a problem of each kind: a key that is not a board's, a ladder off the board,
 * a snake that goes up, a bad rule. */
const BROKEN = `size = 30
colour = "red"
[[ladder]]
foot = 3
top = 31
[[snake]]
head = 5
tail = 9
[rules]
overshoot = "sideways"
`;

/** `snl board validate FILE --json`, run on `text`. @param {string} text */
function validate(text) {
  const dir = mkdtempSync(path.join(tmpdir(), 'snl-engine-'));
  try {
    const file = path.join(dir, 'board.toml');
    writeFileSync(file, text);
    try {
      return JSON.parse(execFileSync(bin, ['board', 'validate', file, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch (e) {
      // Exit 2 for an invalid board, its JSON on standard output all the same.
      return JSON.parse(/** @type {{stdout: string}} */ (e).stdout);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a broken board file gets the very problems snl board validate lists', async () => {
  const answer = await checkBoardFile(BROKEN);
  assert.equal(answer.valid, false);
  const cli = validate(BROKEN);
  assert.equal(cli.valid, false);
  assert.ok(cli.problems.length >= 3, JSON.stringify(cli));
  assert.deepEqual(answer.valid ? [] : answer.problems, cli.problems);
});

test('a good board file comes back as the board the server takes, with its rules', async () => {
  const answer = await checkBoardFile('size = 20\n[[snake]]\nhead = 9\ntail = 2\n[rules]\novershoot = "bounce"\n');
  assert.equal(answer.valid, true);
  if (!answer.valid) return;
  assert.equal(answer.playable, true);
  assert.deepEqual(answer.board.snake, [{ head: 9, tail: 2 }]);
  assert.equal(answer.rules.overshoot, 'bounce');
});

test('the Milton Bradley board takes 39.2251223082 turns, 7 at best, as the Rust tests pin', async () => {
  const file = await checkBoardFile(readFileSync(path.join(here, 'milton-bradley.toml'), 'utf8'));
  assert.equal(file.valid, true);
  if (!file.valid) return;
  const answer = await boardCheck({ board: file.board, seats: 2 });
  assert.equal(answer.valid, true);
  assert.equal(answer.exact, true);
  assert.ok(Math.abs(/** @type {number} */ (answer.expected_turns) - 39.225_122_308_2) < 1e-9, String(answer.expected_turns));
  assert.equal(answer.min_turns, 7);
  const [first, second] = /** @type {number[]} */ (answer.win_probability);
  assert.ok(Math.abs(first + second - 1) < 1e-9 && first > second);
});

test('a roll\'s options are the engine\'s: where each lands and what it meets', async () => {
  const board = { size: 20, snake: [{ head: 9, tail: 2 }] };
  const [only] = await options({ board, at: 5, roll: [4] });
  assert.deepEqual({ landed: only.landed, lands: only.lands, meets: only.meets }, { landed: 9, lands: 2, meets: 'snake' });
  const blocked = await options({ board, at: 18, roll: [5] });
  assert.equal(blocked[0].meets, 'blocked');
  await assert.rejects(options({ board, at: 5, roll: [7] }), /is not one of/);
});

test('live odds: a token one roll from the end leads; a winner takes all; a board with no way to the end says why', async () => {
  const file = await checkBoardFile(readFileSync(path.join(here, 'milton-bradley.toml'), 'utf8'));
  if (!file.valid) throw new Error('the fixture is valid');
  const start = await odds({ board: file.board, seats: 2 });
  assert.equal(start.exact, true);
  assert.ok(/** @type {number} */ (start.seats[0].win) > 0.5);
  const won = await odds({ board: file.board, positions: [100, 40], winner: 0 });
  assert.deepEqual(won.seats.map((s) => s.win), [1, 0]);
  assert.deepEqual(await analysable({ board: file.board }), { analysable: true });
  await assert.rejects(odds({ seats: 2 }), /names no board/);
});

test('a game on this device plays to its end, and its intents play back to the same game', async () => {
  const { localNew, localAct, localOdds } = await import('../../crates/server/web/assets/engine.js');
  const setup = { board: 'party', rules: { set: 'standard', choice: 'may-pass' }, seats: [{ kind: 'human', name: 'Ann' }, { kind: 'human', name: 'Bob' }, { kind: 'hard', name: 'Hal' }] };
  const start = await localNew({ setup, seed: 11 });
  assert.equal(start.frames[0].type, 'welcome');
  assert.deepEqual(start.frames[0].state.seats.map((/** @type {any} */ s) => s.name), ['Ann', 'Bob', 'Hal']);
  /** @type {any[]} */
  const intents = [];
  /** @type {any[]} */
  let frames = start.frames;
  const told = frames.filter((f) => f.type === 'event');
  for (let i = 0; i < 5000; i++) {
    const awaiting = [...frames].reverse().find((f) => f.type === 'awaiting' || f.type === 'welcome');
    const awaited = awaiting.type === 'welcome' ? awaiting.state.awaiting : awaiting.awaiting;
    if (!awaited) break;
    const intent = awaited.type === 'roll' ? { act: 'roll' } : { act: 'choose', option: awaited.options.length - 1 };
    if (awaited.type === 'choice') assert.equal(awaited.labels.length, awaited.options.length, 'every option is labelled');
    intents.push(intent);
    ({ frames } = await localAct(intent));
    assert.notEqual(frames[0].type, 'error', JSON.stringify(frames[0]));
    told.push(...frames.filter((f) => f.type === 'event'));
  }
  assert.equal(told.at(-1).event.type, 'game_ended');
  assert.deepEqual(told.map((f) => f.seq), told.map((_, i) => i + 1), 'events numbered 1, 2, … without gaps');
  const odds = await localOdds();
  assert.equal(odds.seats.length, 3);
  // The refused intent changes nothing and says why.
  const refused = await localAct({ act: 'roll' });
  assert.deepEqual(refused.frames.map((/** @type {any} */ f) => f.type), ['error']);
  // Played back, the intents give the same game: its past events are the ones told.
  const again = await localNew({ setup, seed: 11, intents });
  const past = again.frames.filter((/** @type {any} */ f) => f.past);
  assert.deepEqual(past.map((/** @type {any} */ f) => [f.seq, f.text ?? null]), told.map((f) => [f.seq, f.text ?? null]));
  assert.equal(again.frames[0].state.status, 'over');
  await assert.rejects(localNew({ setup: { ...setup, board: 'nowhere' }, seed: 1 }), /nowhere/);
  await assert.rejects(localNew({ setup, seed: 11, intents: [{ act: 'choose', option: 9 }] }), /intent 1 /);
});
