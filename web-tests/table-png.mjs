// Makes crates/server/web/assets/table.png, the table's light behind every page: the gradient
// of style.css (--table2 to --table) as Chromium draws it over 1280×860, averaged down to
// 64×43 (the averaging takes out the dithering). Run again after changing those colours:
//   node table-png.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { launch, root } from './e2e/support.mjs';

const [W, H, w, h] = [1280, 860, 64, 43];
const browser = await launch();
const page = await browser.newPage({ viewport: { width: W, height: H } });
await page.setContent('<style>html,body{margin:0;height:100%}body{background:radial-gradient(ellipse at 30% 0%, #17574f, #0f3d3a 70%)}</style>');
const big = (await page.screenshot()).toString('base64');
const png = await page.evaluate(async ([big, W, H, w, h]) => {
  const image = new Image();
  image.src = `data:image/png;base64,${big}`;
  await image.decode();
  const full = new OffscreenCanvas(W, H).getContext('2d');
  if (!full) throw new Error('no 2d context');
  full.drawImage(image, 0, 0);
  const d = full.getImageData(0, 0, W, H).data;
  const small = new OffscreenCanvas(w, h);
  const ctx = small.getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  const out = ctx.createImageData(w, h);
  for (let by = 0; by < h; by++) {
    for (let bx = 0; bx < w; bx++) {
      const [x0, x1] = [Math.round((bx * W) / w), Math.round(((bx + 1) * W) / w)];
      const [y0, y1] = [Math.round((by * H) / h), Math.round(((by + 1) * H) / h)];
      const sum = [0, 0, 0];
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          for (let c = 0; c < 3; c++) sum[c] += d[(y * W + x) * 4 + c];
        }
      }
      const n = (x1 - x0) * (y1 - y0);
      for (let c = 0; c < 3; c++) out.data[(by * w + bx) * 4 + c] = Math.round(sum[c] / n);
      out.data[(by * w + bx) * 4 + 3] = 255;
    }
  }
  ctx.putImageData(out, 0, 0);
  const bytes = new Uint8Array(await (await small.convertToBlob({ type: 'image/png' })).arrayBuffer());
  return Array.from(bytes);
}, [big, W, H, w, h]);
await browser.close();
const out = path.join(root, 'crates', 'server', 'web', 'assets', 'table.png');
writeFileSync(out, Buffer.from(png));
console.log(`wrote ${out} (${png.length} bytes)`);
