// The live region's words (as the console says them) and the lobby's board-file reader.
import test from 'node:test';
import assert from 'node:assert/strict';
import { narrator, ordinal } from '../../crates/server/web/assets/words.js';
import { parseToml, readBoardFile } from '../../crates/server/web/assets/boardfile.js';

const rules = { start: 'off-board', dice: '1d6', overshoot: 'bounce', jumps: 'single', bonus: 'none', 'max-bonus': 'unlimited', 'on-max': 'pass', finish: 'first', choice: 'none' };

test('events are told in the console\'s plain words', () => {
  const n = narrator(100, rules);
  assert.match(/** @type {string} */ (n.sentence({ type: 'game_started', players: ['Ann', 'Robo'], board_size: 100 })), /^New game on a board of 100 cells: Ann, Robo\. Rules: start off-board, dice 1d6/);
  assert.equal(n.sentence({ type: 'dice_rolled', player: 'Ann', roll: 6, dice: [6] }), null);
  assert.equal(n.sentence({ type: 'moved', player: 'Ann', from: 0, to: 6, steps: 6 }), 'Ann rolled a 6 and moved from the start to 6');
  assert.equal(n.sentence({ type: 'ladder', player: 'Ann', from: 6, to: 25 }), 'Yes! A ladder at 6 took Ann up to 25');
  assert.equal(n.sentence({ type: 'snake', player: 'Ann', from: 25, to: 2 }), 'Oh no! A snake at 25 took Ann down to 2');
  n.sentence({ type: 'dice_rolled', player: 'Robo', roll: 8, dice: [8] });
  n.sentence({ type: 'overshoot', player: 'Robo', position: 95, roll: 8, rule: 'bounce' });
  assert.equal(n.sentence({ type: 'moved', player: 'Robo', from: 95, to: 97, steps: 8 }), 'Robo rolled an 8, 3 past 100: bounced back from 95 to 97');
  assert.equal(n.sentence({ type: 'player_finished', player: 'Ann', rank: 1 }), 'Ann reached 100 and wins!');
  assert.equal(n.sentence({ type: 'game_ended', ranking: ['Ann', 'Robo'] }), 'Final ranking: 1. Ann (on 100), 2. Robo (on 97)');
  assert.equal(ordinal(2), '2nd');
  assert.equal(ordinal(12), '12th');
});

test('a player named You is spoken to, as the console does', () => {
  const n = narrator(100, rules);
  assert.equal(n.sentence({ type: 'snake', player: 'You', from: 99, to: 54 }), 'Oh no! A snake at 99 took you down to 54');
  assert.equal(n.sentence({ type: 'ladder', player: 'You', from: 6, to: 25 }), 'Yes! A ladder at 6 took you up to 25');
  assert.equal(n.sentence({ type: 'shield_used', player: 'You', at: 40 }), 'Your shield stops the snake at 40');
  assert.equal(n.sentence({ type: 'presence', player: 'You', online: false }), 'You are away');
  assert.equal(n.sentence({ type: 'presence', player: 'Ann', online: true }), 'Ann is here');
  assert.equal(n.sentence({ type: 'player_finished', player: 'You', rank: 1 }), 'You reached 100 and win!');
});

test('a board file is read from TOML or JSON', () => {
  const toml = `# a small board\nsize = 30\nwidth = 6\n\n[[snake]]\nhead = 27\ntail = 3\n\n[[ladder]]\nfoot = 4 # up\ntop = 20\n\n[[cell]]\nat = 10\neffect = "wormhole"\nexits = [3, 25]\n\n[rules]\ndice = "1d4"\n`;
  assert.deepEqual(readBoardFile(toml), {
    size: 30, width: 6, snake: [{ head: 27, tail: 3 }], ladder: [{ foot: 4, top: 20 }],
    cell: [{ at: 10, effect: 'wormhole', exits: [3, 25] }], rules: { dice: '1d4' },
  });
  assert.deepEqual(readBoardFile('{"size": 12}'), { size: 12 });
  assert.throws(() => parseToml('size = 3\nsize = 4'), /line 2: size is given twice/);
  assert.throws(() => readBoardFile('width = 3'), /needs size/);
});
