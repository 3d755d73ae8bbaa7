// The animation planner and the board geometry, under node's test runner (no browser).
import test from 'node:test';
import assert from 'node:assert/strict';
import { planEvent, positionsAfter, walkCells, catchUpSpeed } from '../../crates/server/web/assets/plan.js';
import { center, frame, rowCol, snakePoints, boardWidth, crowdOffset } from '../../crates/server/web/assets/geometry.js';

const classic = {
  size: 100,
  snake: [{ head: 99, tail: 54 }, { head: 25, tail: 2 }],
  ladder: [{ foot: 6, top: 25 }],
};

test('cells are numbered boustrophedon from the bottom-left', () => {
  assert.deepEqual(rowCol(1, 10), { row: 0, col: 0 });
  assert.deepEqual(rowCol(10, 10), { row: 0, col: 9 });
  assert.deepEqual(rowCol(11, 10), { row: 1, col: 9 });
  assert.deepEqual(rowCol(20, 10), { row: 1, col: 0 });
  assert.deepEqual(rowCol(21, 10), { row: 2, col: 0 });
  const f = frame(classic);
  assert.ok(center(1, f).y > center(11, f).y, 'row 2 is drawn above row 1');
  assert.equal(center(10, f).x, center(11, f).x, 'the row turns back above its end');
  assert.ok(center(0, f).y > center(1, f).y, 'off the board is the tray under cell 1');
});

test('the width is the board\'s own, else the square root of a square, else 10', () => {
  assert.equal(boardWidth({ size: 100 }), 10);
  assert.equal(boardWidth({ size: 400 }), 20);
  assert.equal(boardWidth({ size: 50 }), 10);
  assert.equal(boardWidth({ size: 30, width: 6 }), 6);
  assert.equal(boardWidth({ size: 7 }), 7);
});

test('a walk goes cell by cell, from the start tray onto the board', () => {
  const { beats, after } = planEvent(classic, { Ann: 0 }, { type: 'moved', player: 'Ann', from: 0, to: 4, steps: 4 });
  assert.equal(beats.length, 1);
  assert.equal(beats[0].kind, 'walk');
  assert.deepEqual(beats[0].kind === 'walk' && beats[0].cells, [1, 2, 3, 4]);
  assert.deepEqual(after, { Ann: 4 });
});

test('an overshoot under bounce walks to the last cell, and the move walks back: the engine says it bounces', () => {
  assert.deepEqual(walkCells(97, 100), [98, 99, 100]);
  assert.deepEqual(walkCells(100, 98), [99, 98]);
  const events = [
    { type: 'overshoot', player: 'Ann', position: 97, roll: 5, rule: 'bounce' },
    { type: 'moved', player: 'Ann', from: 97, to: 98, steps: 5 },
  ];
  const first = planEvent(classic, { Ann: 97 }, events[0]);
  assert.deepEqual(first.beats[0].kind === 'walk' && first.beats[0].cells, [98, 99, 100]);
  const second = planEvent(classic, first.after, events[1]);
  assert.deepEqual(second.beats[0].kind === 'walk' && second.beats[0].cells, [99, 98]);
  assert.equal(second.after.Ann, 98);
  // Without the engine's word, a move is a straight walk: nothing is guessed from the numbers.
  const plain = planEvent(classic, { Ann: 97 }, events[1]);
  assert.deepEqual(plain.beats[0].kind === 'walk' && plain.beats[0].cells, [98]);
  // Reduced motion: no walk, and the positions come out the same.
  const quick = positionsAfter(classic, { Ann: 97 }, events);
  assert.deepEqual(quick, { Ann: 98 });
});

test('a blocked move under stay shakes the token where it is', () => {
  const { beats, after } = planEvent(classic, { Ann: 97 }, { type: 'overshoot', player: 'Ann', position: 97, roll: 5, rule: 'stay' });
  assert.equal(beats[0].kind, 'bump');
  assert.deepEqual(after, { Ann: 97 });
});

test('a snake slides along the drawn body, head to tail', () => {
  const { beats, after } = planEvent(classic, { Ann: 99 }, { type: 'snake', player: 'Ann', from: 99, to: 54 });
  const slide = beats[0];
  assert.equal(slide.kind, 'slide');
  if (slide.kind !== 'slide') return;
  const f = frame(classic);
  assert.deepEqual(slide.points, snakePoints(99, 54, f), 'the same points the board draws');
  assert.deepEqual(slide.points[0], center(99, f));
  const last = slide.points[slide.points.length - 1];
  assert.ok(Math.abs(last.x - center(54, f).x) < 1e-9 && Math.abs(last.y - center(54, f).y) < 1e-9);
  assert.equal(slide.sound, 'snake');
  assert.equal(after.Ann, 54);
});

test('a ladder climbs from its foot to its top', () => {
  const { beats, after } = planEvent(classic, { Ann: 6 }, { type: 'ladder', player: 'Ann', from: 6, to: 25 });
  assert.equal(beats[0].kind, 'slide');
  assert.equal(beats[0].kind === 'slide' && beats[0].jump, 'ladder');
  assert.equal(after.Ann, 25);
});

test('a wormhole fades the token out and in elsewhere', () => {
  const { beats, after } = planEvent(classic, { Ann: 30 }, { type: 'wormhole', player: 'Ann', from: 30, to: 81 });
  assert.equal(beats[0].kind, 'fade');
  assert.equal(after.Ann, 81);
});

test('dice land on the rolled faces; a top face on every die is a six', () => {
  const one = planEvent(classic, {}, { type: 'dice_rolled', player: 'Ann', roll: 6, dice: [6] });
  assert.deepEqual(one.beats[0].kind === 'dice' && one.beats[0].dice, [6]);
  assert.equal(one.beats[0].sound, 'six');
  const two = planEvent(classic, {}, { type: 'dice_rolled', player: 'Ann', roll: 9, dice: [3, 6] }, { faces: 6 });
  assert.equal(two.beats[0].sound, 'roll');
});

test('the winner is celebrated; a later finisher is not', () => {
  assert.equal(planEvent(classic, {}, { type: 'player_finished', player: 'Ann', rank: 1 }).beats[0].kind, 'win');
  assert.equal(planEvent(classic, {}, { type: 'player_finished', player: 'Bob', rank: 2 }).beats.length, 0);
});

test('reduced motion keeps every move but shortens each to a quick fade', () => {
  const full = planEvent(classic, { Ann: 0 }, { type: 'moved', player: 'Ann', from: 0, to: 6, steps: 6 });
  const reduced = planEvent(classic, { Ann: 0 }, { type: 'moved', player: 'Ann', from: 0, to: 6, steps: 6 }, { reduced: true });
  assert.equal(reduced.beats[0].kind, 'fade');
  assert.ok(reduced.beats[0].ms <= 150 && reduced.beats[0].ms < full.beats[0].ms);
  assert.deepEqual(reduced.after, full.after);
  const dice = planEvent(classic, {}, { type: 'dice_rolled', player: 'Ann', roll: 2, dice: [2] }, { reduced: true });
  assert.equal(dice.beats[0].ms, 0, 'the dice show their faces at once');
});

test('a void turn sends the token back; positions follow a whole turn', () => {
  const events = [
    { type: 'dice_rolled', player: 'Ann', roll: 6, dice: [6] },
    { type: 'moved', player: 'Ann', from: 0, to: 6, steps: 6 },
    { type: 'ladder', player: 'Ann', from: 6, to: 25 },
    { type: 'snake', player: 'Bob', from: 25, to: 2 },
    { type: 'turn_voided', player: 'Ann', back_to: 0 },
  ];
  assert.deepEqual(positionsAfter(classic, { Ann: 0, Bob: 25 }, events), { Ann: 0, Bob: 2 });
});

test('a long walk is capped in time; piled-up events speed up, then skip', () => {
  const { beats } = planEvent({ size: 400 }, { Ann: 0 }, { type: 'moved', player: 'Ann', from: 0, to: 60, steps: 60 });
  assert.ok(beats[0].ms <= 1500);
  assert.equal(catchUpSpeed(0), 1);
  assert.ok(catchUpSpeed(6) > 1);
  assert.equal(catchUpSpeed(50), Infinity);
  const fast = planEvent(classic, { Ann: 0 }, { type: 'moved', player: 'Ann', from: 0, to: 4, steps: 4 }, { speed: 2 });
  const slow = planEvent(classic, { Ann: 0 }, { type: 'moved', player: 'Ann', from: 0, to: 4, steps: 4 });
  assert.equal(fast.beats[0].ms * 2, slow.beats[0].ms);
});

test('tokens sharing a cell are spread apart and shrunk', () => {
  assert.deepEqual(crowdOffset(0, 1), { dx: 0, dy: 0, scale: 1 });
  const spots = [0, 1, 2, 3].map((i) => crowdOffset(i, 4));
  assert.equal(new Set(spots.map((s) => `${s.dx},${s.dy}`)).size, 4);
  assert.ok(spots.every((s) => s.scale < 1));
  assert.equal(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => JSON.stringify(crowdOffset(i, 9)))).size, 9);
});

// The sounds each beat carries (anim.js plays `beat.sound` as the beat starts, and a walk's
// 'step' once per cell): a ladder, a shield, a win and a walk's steps, as snake, six and roll above.
const fx = {
  size: 36,
  snake: [{ head: 33, tail: 4 }],
  ladder: [{ foot: 3, top: 22 }],
  cell: [{ at: 17, effect: 'shield' }],
};

test('a walk steps to the sound of steps; a ladder climbs to its own sound, reduced motion too', () => {
  const walk = planEvent(fx, { Ann: 0 }, { type: 'moved', player: 'Ann', from: 0, to: 3, steps: 3 });
  assert.equal(walk.beats[0].kind, 'walk');
  assert.equal(walk.beats[0].sound, 'step');
  for (const reduced of [false, true]) {
    const up = planEvent(fx, { Ann: 3 }, { type: 'ladder', player: 'Ann', from: 3, to: 22 }, { reduced });
    assert.equal(up.beats.length, 1);
    assert.equal(up.beats[0].sound, 'ladder', `reduced: ${reduced}`);
    assert.equal(up.after.Ann, 22);
  }
  const down = planEvent(fx, { Ann: 33 }, { type: 'snake', player: 'Ann', from: 33, to: 4 }, { reduced: true });
  assert.equal(down.beats[0].sound, 'snake', 'a snake keeps its sound under reduced motion');
});

test('a shield rings as it is picked up and as it stops a snake; the token stays', () => {
  const gained = planEvent(fx, { Ann: 17 }, { type: 'shield_gained', player: 'Ann' });
  assert.deepEqual(gained.beats.map((b) => [b.kind, b.sound]), [['shield', 'shield']]);
  assert.equal(gained.beats[0].kind === 'shield' && gained.beats[0].on, true);
  assert.deepEqual(gained.after, { Ann: 17 });
  const used = planEvent(fx, { Ann: 33 }, { type: 'shield_used', player: 'Ann', at: 33 }, { reduced: true });
  assert.deepEqual(used.beats.map((b) => [b.kind, b.sound]), [['shield', 'shield']], 'heard under reduced motion too');
  assert.equal(used.beats[0].kind === 'shield' && used.beats[0].on, false);
  assert.deepEqual(used.after, { Ann: 33 });
});

test('the winner is celebrated to the win sound, shorter under reduced motion', () => {
  const full = planEvent(fx, { Ann: 30 }, { type: 'player_finished', player: 'Ann', rank: 1 });
  const reduced = planEvent(fx, { Ann: 30 }, { type: 'player_finished', player: 'Ann', rank: 1 }, { reduced: true });
  for (const plan of [full, reduced]) {
    assert.deepEqual(plan.beats.map((b) => [b.kind, b.sound]), [['win', 'win']]);
    assert.equal(plan.after.Ann, 36);
  }
  assert.ok(reduced.beats[0].ms > 0 && reduced.beats[0].ms < full.beats[0].ms);
  assert.equal(planEvent(fx, {}, { type: 'game_ended', ranking: ['Ann', 'Bob'] }).beats.length, 0, 'the end itself adds no second fanfare');
});
