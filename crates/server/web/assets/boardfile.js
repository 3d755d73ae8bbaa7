// Reads a board file (SPEC §4) picked in the lobby: TOML (`size`, `width`, `[[snake]]`,
// `[[ladder]]`, `[[cell]]`, `[rules]`) or the same as JSON, into the board JSON the server takes.
// The server checks the board; this reads only the shape of the file.

/**
 * A TOML value as board files write them: a number, a string, a boolean or an array of numbers.
 * @param {string} raw
 * @param {number} line
 * @returns {string | number | boolean | number[]}
 */
function value(raw, line) {
  const v = raw.trim();
  if (/^-?\d+$/.test(v)) return Number(v);
  if (v === 'true' || v === 'false') return v === 'true';
  const quoted = /^"((?:[^"\\]|\\.)*)"$|^'([^']*)'$/.exec(v);
  if (quoted) return quoted[1] !== undefined ? JSON.parse(`"${quoted[1]}"`) : quoted[2];
  if (/^\[[\s\d,-]*\]$/.test(v)) return v.slice(1, -1).split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  throw new Error(`line ${line}: cannot read the value ${v}`);
}

/**
 * @param {string} text
 * @returns {Record<string, any>}
 */
export function parseToml(text) {
  /** @type {Record<string, any>} */
  const root = {};
  /** @type {Record<string, any>} */
  let table = root;
  text.split(/\r?\n/).forEach((full, i) => {
    const line = full.replace(/\s+#.*$|^#.*$/, '').trim();
    if (!line) return;
    const array = /^\[\[\s*([\w-]+)\s*\]\]$/.exec(line);
    const plain = /^\[\s*([\w-]+)\s*\]$/.exec(line);
    if (array) {
      const list = (root[array[1]] ??= []);
      if (!Array.isArray(list)) throw new Error(`line ${i + 1}: ${array[1]} is not a list`);
      table = {};
      list.push(table);
    } else if (plain) {
      table = root[plain[1]] ??= {};
    } else {
      const eq = line.indexOf('=');
      if (eq < 1) throw new Error(`line ${i + 1}: expected key = value`);
      const key = line.slice(0, eq).trim().replace(/^"(.*)"$/, '$1');
      if (key in table) throw new Error(`line ${i + 1}: ${key} is given twice`);
      table[key] = value(line.slice(eq + 1), i + 1);
    }
  });
  return root;
}

/**
 * A board file's text as board JSON (TOML, or JSON when it starts with `{`).
 * @param {string} text
 */
export function readBoardFile(text) {
  const data = text.trim().startsWith('{') ? JSON.parse(text) : parseToml(text);
  if (typeof data.size !== 'number') throw new Error('a board file needs size = N');
  return data;
}
