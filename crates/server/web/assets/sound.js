// Sounds synthesized with Web Audio: nothing to download. The audio starts only after the
// first click or key (browsers require it), and an off switch is remembered in localStorage.

const KEY = 'snl.sound';

/** @type {AudioContext | null} */
let context = null;
let enabled = localStorage.getItem(KEY) !== 'off';

/** Whether sound is on. */
export function soundOn() {
  return enabled;
}

/** @param {boolean} on */
export function setSound(on) {
  enabled = on;
  localStorage.setItem(KEY, on ? 'on' : 'off');
}

/** Creates the audio context at the first click or key, as browsers require. */
export function armSound() {
  const start = () => {
    if (!context) {
      try {
        context = new AudioContext();
      } catch {
        context = null;
      }
    }
    removeEventListener('pointerdown', start, true);
    removeEventListener('keydown', start, true);
  };
  addEventListener('pointerdown', start, true);
  addEventListener('keydown', start, true);
}

/**
 * One tone: frequency glide from `f0` to `f1`, `type` wave, at `t` seconds from now.
 * @param {AudioContext} ac
 * @param {{f0: number, f1?: number, t?: number, d: number, type?: OscillatorType, gain?: number}} o
 */
function tone(ac, { f0, f1 = f0, t = 0, d, type = 'sine', gain = 0.18 }) {
  const start = ac.currentTime + t;
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f0, start);
  osc.frequency.exponentialRampToValueAtTime(Math.max(1, f1), start + d);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.012);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + d);
  osc.connect(amp).connect(ac.destination);
  osc.start(start);
  osc.stop(start + d + 0.02);
}

/**
 * A burst of noise (the dice rattling).
 * @param {AudioContext} ac
 * @param {number} t
 * @param {number} d
 */
function rattle(ac, t, d) {
  const frames = Math.floor(ac.sampleRate * d);
  const buffer = ac.createBuffer(1, frames, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = 2400;
  const amp = ac.createGain();
  amp.gain.value = 0.25;
  src.connect(filter).connect(amp).connect(ac.destination);
  src.start(ac.currentTime + t);
}

/** @type {Record<string, (ac: AudioContext) => void>} */
const SOUNDS = {
  roll: (ac) => { rattle(ac, 0, 0.08); rattle(ac, 0.11, 0.07); rattle(ac, 0.2, 0.09); },
  six: (ac) => { SOUNDS.roll(ac); tone(ac, { f0: 1318, t: 0.3, d: 0.25, type: 'triangle' }); tone(ac, { f0: 1760, t: 0.38, d: 0.35, type: 'triangle' }); },
  step: (ac) => tone(ac, { f0: 520, f1: 660, d: 0.06, type: 'triangle', gain: 0.09 }),
  ladder: (ac) => [523, 659, 784, 1047].forEach((f, i) => tone(ac, { f0: f, t: i * 0.09, d: 0.16, type: 'square', gain: 0.06 })),
  snake: (ac) => { tone(ac, { f0: 700, f1: 110, d: 0.7, type: 'sawtooth', gain: 0.07 }); rattle(ac, 0, 0.3); },
  shield: (ac) => [880, 1175, 1568].forEach((f, i) => tone(ac, { f0: f, t: i * 0.05, d: 0.4, gain: 0.08 })),
  wormhole: (ac) => tone(ac, { f0: 200, f1: 1600, d: 0.8, type: 'sine', gain: 0.12 }),
  bump: (ac) => tone(ac, { f0: 160, f1: 90, d: 0.15, type: 'square', gain: 0.08 }),
  win: (ac) => [523, 659, 784, 1047, 784, 1047].forEach((f, i) => tone(ac, { f0: f, t: i * 0.13, d: i === 5 ? 0.6 : 0.18, type: 'triangle', gain: 0.14 })),
};

/**
 * Plays sound `name` if sound is on and the page has been clicked.
 * @param {string} name
 */
export function play(name) {
  if (!enabled || !context) return;
  if (context.state === 'suspended') void context.resume();
  SOUNDS[name]?.(context);
}
