// The lobby's board-file reader.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseToml, readBoardFile } from '../../crates/server/web/assets/boardfile.js';

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
