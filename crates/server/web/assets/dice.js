// The dice: faces with pips (numbers past six), a tumble that lands on the rolled faces.

/** Pip positions (a 3×3 grid, 0..8) for each face of a six-sided die. */
const PIPS = [[], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];

/**
 * Draws `value` on die `node` (pips up to six faces, else the number).
 * @param {HTMLElement} node
 * @param {number} value
 * @param {number} faces
 */
export function drawFace(node, value, faces) {
  if (node.dataset.value === String(value) && node.classList.contains('die-number') === !(faces <= 6 && value >= 1 && value <= 6)) return;
  node.dataset.value = String(value);
  if (faces <= 6 && value >= 1 && value <= 6) {
    // The nine pips are made once and only switched on and off (a tumble redraws a face every
    // 80 ms: no nodes made or dropped while it runs).
    if (node.classList.contains('die-number') || node.children.length !== 9) {
      node.classList.remove('die-number');
      node.replaceChildren(...Array.from({ length: 9 }, () => {
        const pip = document.createElement('span');
        pip.className = 'pip';
        return pip;
      }));
    }
    Array.from(node.children).forEach((pip, i) => pip.classList.toggle('on', PIPS[value].includes(i)));
  } else {
    node.replaceChildren();
    node.classList.add('die-number');
    node.textContent = String(value);
  }
}

/**
 * The dice tray: shows `count` dice; `roll` tumbles them and lands on the faces rolled.
 * @param {HTMLElement} tray
 */
export function diceTray(tray) {
  /** @param {number} count */
  const dice = (count) => {
    while (tray.children.length < count) {
      const die = document.createElement('div');
      die.className = 'die';
      tray.appendChild(die);
    }
    while (tray.children.length > count) tray.lastElementChild?.remove();
    return /** @type {HTMLElement[]} */ (Array.from(tray.children));
  };
  return {
    /** @param {number[]} values @param {number} faces */
    show(values, faces) {
      dice(values.length).forEach((d, i) => drawFace(d, values[i], faces));
    },
    /**
     * @param {number[]} values
     * @param {number} faces
     * @param {number} ms
     */
    async roll(values, faces, ms) {
      const nodes = dice(values.length);
      if (ms <= 0) {
        nodes.forEach((d, i) => drawFace(d, values[i], faces));
        return;
      }
      let tick = 0;
      const flicker = setInterval(() => {
        tick++;
        nodes.forEach((d, i) => drawFace(d, ((tick * 7 + i * 3 + values[i]) % faces) + 1, faces));
      }, 80);
      try {
        await Promise.all(nodes.map((d, i) => d.animate([
          { transform: 'translate(0, -10px) rotate(0deg) scale(1)' },
          { transform: `translate(${i % 2 ? 6 : -6}px, -26px) rotate(${i % 2 ? -260 : 250}deg) scale(1.12)` },
          { transform: 'translate(0, 0) rotate(360deg) scale(1)' },
        ], { duration: ms, easing: 'cubic-bezier(.3,.7,.4,1)' }).finished.catch(() => undefined)));
      } finally {
        clearInterval(flicker);
        nodes.forEach((d, i) => drawFace(d, values[i], faces));
      }
    },
  };
}
