// The engine in the browser: the same Rust engine and analysis as `snl` and `snl serve`, compiled
// to WebAssembly (crates/wasm, built by scripts/wasm.sh into engine.wasm beside this file). The
// page asks it what a board file means and what is wrong with it, where a roll's options land,
// whether odds can be worked out and the odds themselves, instead of restating a rule.
//
// The module is fetched on the first call, never before — except for a game on this device, whose
// first roll needs it: boot.js starts its streamed compile there beside the first paint, which it
// never holds back. Each call sends one
// JSON request through the module's memory and reads one JSON answer; an answer
// `{"error": sentence}` is thrown as an Error with that sentence.

/**
 * @typedef {import('./geometry.js').BoardJson} BoardJson
 * @typedef {Record<string, any>} RulesJson
 * @typedef {{valid: true, playable: boolean, summary: string, board: BoardJson & {rules?: RulesJson}, rules: RulesJson}
 *   | {valid: false, problems: string[]}} BoardFileAnswer
 * @typedef {{steps: number, lands: number, top_face: boolean, landed: number,
 *   meets: 'nothing' | 'blocked' | 'snake' | 'ladder' | 'wormhole' | 'shield'}} MoveOption
 * @typedef {{seat: number, name: string | null, position: number, win: number | null,
 *   fewest_rolls: number | null, chance: string | null, fewest: string}} OddsSeat
 * @typedef {{room: string, seq: number, exact: boolean, unresolved: number | null, seats: OddsSeat[]}} OddsAnswer
 * @typedef {{analysable: true} | {analysable: false, reason: string}} Analysable
 * @typedef {{valid: boolean, playable?: boolean, message: string, problems: string[], size?: number,
 *   rules?: RulesJson, seats?: number, min_rolls?: number | null, path?: number[] | null,
 *   expected_turns?: number | null, expected_rolls?: number | null, median_turns?: number | null,
 *   min_turns?: number | null, never_finish_probability?: number, win_probability?: number[],
 *   expected_game_rolls?: number | null, exact?: boolean, analysis_error?: string}} BoardCheckAnswer
 * @typedef {{memory: WebAssembly.Memory, snl_alloc: (len: number) => number,
 *   snl_free: (ptr: number, len: number) => void} & Record<string, any>} Exports
 */

/** @type {Promise<Exports> | null} */
let loading = null;

/**
 * Loads the module: from `bytes` when given (tests, a page that has them), else fetched beside
 * this file. Called again, it returns the same module.
 * @param {BufferSource} [bytes]
 * @returns {Promise<Exports>}
 */
export function load(bytes) {
  loading ??= (async () => {
    const url = new URL('./engine.wasm', import.meta.url);
    /** @type {Promise<WebAssembly.Module> | undefined} */
    const early = /** @type {any} */ (globalThis).snlEngineModule;
    /** @type {WebAssembly.Instance | null} */
    let instance = null;
    if (!bytes) {
      // Compiled as it streamed in (boot.js started it on /local, else now); a server or a
      // static host that does not say `application/wasm` is read the plain way below.
      try {
        instance = early
          ? await WebAssembly.instantiate(await early, {})
          : (await WebAssembly.instantiateStreaming(fetch(url), {})).instance;
      } catch {
        instance = null;
      }
    }
    if (!instance) {
      const source = bytes ?? await (await fetch(url)).arrayBuffer();
      ({ instance } = await WebAssembly.instantiate(source, {}));
    }
    return /** @type {Exports} */ (/** @type {unknown} */ (instance.exports));
  })();
  loading.catch(() => { loading = null; });
  return loading;
}

/**
 * One call: `request` as JSON in, the answer out.
 * @param {string} name
 * @param {unknown} request
 * @returns {Promise<any>}
 */
async function call(name, request) {
  const wasm = await load();
  const input = new TextEncoder().encode(JSON.stringify(request));
  const at = wasm.snl_alloc(input.length);
  new Uint8Array(wasm.memory.buffer, at, input.length).set(input);
  /** @type {bigint} */
  let packed;
  try {
    packed = wasm[name](at, input.length);
  } finally {
    wasm.snl_free(at, input.length);
  }
  const ptr = Number(packed >> 32n);
  const len = Number(packed & 0xffffffffn);
  const text = new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, ptr, len));
  wasm.snl_free(ptr, len);
  const answer = JSON.parse(text);
  if (answer && typeof answer === 'object' && !Array.isArray(answer) && typeof answer.error === 'string') {
    throw new Error(answer.error);
  }
  return answer;
}

/**
 * A board file's text (TOML) read as `snl board validate` reads it: its problems, or the board as
 * the server takes it.
 * @param {string} text
 * @returns {Promise<BoardFileAnswer>}
 */
export const checkBoardFile = (text) => call('check_board_file', { text });

/**
 * The board and rules a room's setup makes, as the server makes them: a preset, a random board
 * from its seed and settings, a board file with its own rules.
 * @param {{setup: Record<string, unknown>, seed: number}} request
 * @returns {Promise<{name: string, summary: string, start: number, board: BoardJson, rules: RulesJson}>}
 */
export const boardOf = (request) => call('board_of', request);

/**
 * The board editor's check (the request and answer of POST /api/boards/check): the board's
 * problems, or its exact analysis.
 * @param {{board: unknown, rules?: string | RulesJson, seats?: number}} request
 * @returns {Promise<BoardCheckAnswer>}
 */
export const boardCheck = (request) => call('board_check', request);

/**
 * The options of a roll: where each lands and what it meets.
 * @param {{board: BoardJson, rules?: RulesJson, at: number, roll: number[], shield?: boolean}} request
 * @returns {Promise<MoveOption[]>}
 */
export const options = (request) => call('options', request);

/**
 * Each seat's exact chance to win and fewest rolls, with the tokens on `positions` (the start when
 * absent) as their next turns begin, seat `first` to play, or `winner` the winner.
 * @param {{board: BoardJson, rules?: RulesJson, seats?: number, positions?: number[], first?: number,
 *   winner?: number, names?: (string | null)[], room?: string, seq?: number}} request
 * @returns {Promise<OddsAnswer>}
 */
export const odds = (request) => call('odds', request);

/**
 * Whether a game's odds can be worked out on this board under these rules, and if not why.
 * @param {{board: BoardJson, rules?: RulesJson}} request
 * @returns {Promise<Analysable>}
 */
export const analysable = (request) => call('analysable', request);

/**
 * A recorded game's dice checked as `snl verify` checks them (docs/fairness.md): an online room's
 * revealed secret against its commitment and its seats' seeds, then every roll and wormhole draw
 * against the seed's dice. `request` is the board and rules with GET /api/games/{id}'s `dice`.
 * @param {{board: BoardJson, rules: RulesJson, seed: string | null,
 *   room?: {commitment: string, seat_seeds: (string | null)[], secret: string | null} | null,
 *   history: unknown[]}} request
 * @returns {Promise<{verified: true, rolls: number, draws: number, text: string}
 *   | {verified: false, why: string}>}
 */
export const verify = (request) => call('verify', request);

/**
 * @typedef {{act: 'roll'} | {act: 'choose', option: number}} LocalIntent
 * @typedef {{type: string} & Record<string, any>} LocalFrame
 */

/**
 * Starts a game on this device (the lobby's "Play here"): `setup` is the request an online room is
 * created with (POST /api/rooms), `seed` the dice's, `intents` what people played in it so far
 * (played again, to come back to where it was). Answers the frames an online room would send: the
 * welcome, the events before it marked `past`, then the computers' play up to a person.
 * @param {{setup: Record<string, any>, seed: number, intents?: LocalIntent[]}} request
 * @returns {Promise<{frames: LocalFrame[]}>}
 */
export const localNew = (request) => call('local_new', request);

/**
 * A person's intent in the game on this device: its events and the computers' play after it, as
 * frames; one error frame when it is refused.
 * @param {LocalIntent} intent
 * @returns {Promise<{frames: LocalFrame[]}>}
 */
export const localAct = (intent) => call('local_act', intent);

/**
 * The live odds of the game on this device (as GET /api/rooms/{room}/odds answers).
 * @returns {Promise<OddsAnswer>}
 */
export const localOdds = () => call('local_odds', {});
