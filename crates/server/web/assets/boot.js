// Every page's one script tag. The page's own modules, named by `data-main` on <html> (a space
// between two; they run one after the other, in that order), are imported only once the page has
// been painted, so their fetching, parsing and running never hold back its first paint. (Chromium
// runs a module script that is ready when parsing ends before the first frame, as it did the
// modulepreloaded ones: 20–30 ms of the lobby's first paint on a 2-core machine.) A page that
// opens hidden, in a background tab, paints no frame to wait for: it starts them at once, so a
// seat still connects. Once they have all run, <html> gets `data-ready` (for tests that count
// what a page loads). Every page registers the service worker (/sw.js), which keeps the pages,
// assets and engine for use offline; pages opened from a file or an insecure origin go without it.
const html = document.documentElement;
// A game on this device (/local) needs the engine before its first roll: its fetch and compile
// start now, beside the first paint, streamed (compiled as it arrives, and the compiled code kept
// by the browser for the next load); engine.js instantiates what this started.
const local = /^\/local(\/|\/index\.html)?$/.test(location.pathname);
if (local && 'compileStreaming' in WebAssembly) {
  const compiling = WebAssembly.compileStreaming(fetch(new URL('./engine.wasm', import.meta.url)));
  compiling.catch(() => {}); // engine.js fetches it the plain way then
  /** @type {any} */ (globalThis).snlEngineModule = compiling;
}
const names = (html.dataset.main ?? '').split(' ').filter(Boolean);
const start = () => names
  .reduce((before, name) => before.then(() => import(`./${name}.js`)), Promise.resolve())
  .then(() => { html.dataset.ready = ''; });
// A game on this device waits for its modules, not for its first paint: they start at once.
// local.js (and engine.js with it) is fetched beside room.js, which imports it.
if (local) import('./local.js').catch(() => {});
if (document.visibilityState === 'hidden' || local) start();
else requestAnimationFrame(() => setTimeout(start, 0));
if ('serviceWorker' in navigator && window.isSecureContext) {
  addEventListener('load', () => { navigator.serviceWorker.register('/sw.js').catch(() => {}); });
}
