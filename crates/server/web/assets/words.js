// Each event in the console's plain words (crates/cli/src/display.rs, `Sentences`), for the
// page's live region. Rolls are told together with the move they cause, as in the console.

/**
 * @typedef {Record<string, any> & {type: string}} WireEvent
 * @typedef {Record<string, any>} RulesJson
 */

/** @param {number} n */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' })[n % 10] ?? 'th'}`;
}

/** @param {number[]} dice @param {number} total */
function aRoll(dice, total) {
  if (dice.length === 1) return [8, 11, 18].includes(dice[0]) ? `an ${dice[0]}` : `a ${dice[0]}`;
  return `${dice.join('+')} = ${total}`;
}

/** @param {number} p */
function place(p) {
  return p === 0 ? 'the start' : String(p);
}

/** @param {string} name */
function isYou(name) {
  return name.toLowerCase() === 'you';
}

/** @param {string} name @param {string} third @param {string} second */
function agree(name, third, second) {
  return `${name} ${isYou(name) ? second : third}`;
}

/** The name as a sentence's object: "took you down", "took Ann down". @param {string} name */
function whom(name) {
  return isYou(name) ? 'you' : name;
}

/** @param {RulesJson} r */
export function rulesInWords(r) {
  let text = `start ${r.start}, dice ${r.dice}, overshoot ${r.overshoot}, jumps ${r.jumps}, bonus ${r.bonus}`;
  if (r.bonus === 'top-face') text += ` (max ${r['max-bonus']}, on-max ${r['on-max']})`;
  text += `, finish ${r.finish}, choice ${r.choice}`;
  if (r.choice === 'pick-die') text += ' (two dice are thrown and the token moves by either one)';
  return text;
}

/**
 * Tells a room's events one by one; it follows the tokens from the events alone.
 * @param {number} size N
 * @param {RulesJson} rules
 */
export function narrator(size, rules) {
  /** @type {Record<string, number>} */
  const positions = {};
  /** @type {{dice: number[], roll: number} | null} */
  let rolled = null;
  /** @type {number | null} */
  let overshoot = null;
  const takeRoll = () => {
    const r = rolled;
    rolled = null;
    return r ? aRoll(r.dice, r.roll) : '';
  };
  return {
    /** @param {Record<string, number>} now */
    follow(now) {
      Object.assign(positions, now);
    },
    /**
     * The sentence for `e`, or null when it has none of its own.
     * @param {WireEvent} e
     * @returns {string | null}
     */
    sentence(e) {
      const who = /** @type {string} */ (e.player);
      switch (e.type) {
        case 'game_started':
          for (const p of e.players) positions[p] = rules.start === 'first-cell' ? 1 : 0;
          return `New game on a board of ${e.board_size} cells: ${e.players.join(', ')}. Rules: ${rulesInWords(rules)}.`;
        case 'dice_rolled':
          rolled = { dice: e.dice, roll: e.roll };
          return null;
        case 'moved': {
          positions[who] = e.to;
          const picked = rolled && rolled.dice.length > 1 && rules.choice === 'pick-die';
          const what = picked && rolled ? `${rolled.dice.join(' and ')}, took the ${e.steps}` : takeRoll();
          rolled = null;
          const excess = overshoot;
          overshoot = null;
          if (excess !== null && e.to === size) return `${who} rolled ${what}, more than enough: moved from ${place(e.from)} to ${size}`;
          if (excess !== null) return `${who} rolled ${what}, ${excess} past ${size}: bounced back from ${place(e.from)} to ${e.to}`;
          return `${who} rolled ${what} and moved from ${place(e.from)} to ${e.to}`;
        }
        case 'overshoot':
          if ((e.rule ?? 'stay') !== 'stay') {
            overshoot = e.position + e.roll - size;
            return null;
          }
          return `${who} rolled ${takeRoll()} but needs exactly ${size - e.position} to reach ${size}: stays on ${place(e.position)}`;
        case 'snake':
          positions[who] = e.to;
          return `Oh no! A snake at ${e.from} took ${whom(who)} down to ${e.to}`;
        case 'ladder':
          positions[who] = e.to;
          return `Yes! A ladder at ${e.from} took ${whom(who)} up to ${e.to}`;
        case 'wormhole':
          positions[who] = e.to;
          return `Whoosh! A wormhole at ${e.from} took ${whom(who)} to ${e.to}`;
        case 'bonus_roll':
          return agree(who, 'rolls again', 'roll again');
        case 'extra_roll':
          return `${agree(who, 'rolls again', 'roll again')} (extra roll)`;
        case 'turn_skipped':
          return `${agree(who, 'misses', 'miss')} this turn`;
        case 'shield_gained':
          return `${agree(who, 'picks up', 'pick up')} a shield`;
        case 'shield_used':
          return `${isYou(who) ? 'Your' : `${who}'s`} shield stops the snake at ${e.at}`;
        case 'turn_voided':
          positions[who] = e.back_to;
          return `${who} rolled ${takeRoll()}: too many top faces in a row, the turn is void and the token goes back to ${place(e.back_to)}`;
        case 'stayed':
          return `${who} rolled ${takeRoll()} and chose to stay on ${place(e.position)}`;
        case 'autopilot':
          return e.on
            ? `${agree(who, 'hands', 'hand')} the seat to the computer (autopilot on)`
            : `${agree(who, 'takes', 'take')} the seat back (autopilot off)`;
        case 'player_finished':
          positions[who] = size;
          if (e.rank === 1) return `${who} reached ${size} and ${isYou(who) ? 'win' : 'wins'}!`;
          return `${who} reached ${size} and ${isYou(who) ? 'finish' : 'finishes'} ${ordinal(e.rank)}`;
        case 'timed_out':
          return `${who} ran out of time: the computer plays the rest of the turn`;
        case 'time_up':
          return 'Time is up: the game ends with this round.';
        case 'presence':
          return agree(who, 'is', 'are') + (e.online ? ' here' : ' away');
        case 'game_ended':
          return `Final ranking: ${e.ranking.map((/** @type {string} */ p, /** @type {number} */ i) => `${i + 1}. ${p} (on ${place(positions[p] ?? 0)})`).join(', ')}`;
        default:
          return null;
      }
    },
  };
}
