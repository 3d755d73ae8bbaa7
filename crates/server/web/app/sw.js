// The service worker (issue 27, point 3): it keeps the pages, the assets and the engine
// (engine.wasm) of this version, so that once opened the game starts with the network off. It is
// served at /sw.js with its version, pages and assets written in ({{v}}, {{pages}}, {{assets}}).
// Assets carry the version in their address and never change: they come from the cache first.
// Pages come from the network first (a new version shows at once) and from the cache when the
// network fails. The API and the WebSockets are never cached: online parts say when they fail.

const VERSION = '{{v}}';
const CACHE = `snl-${VERSION}`;
const PAGES = /** @type {string[]} */ ({{pages}});
const ASSETS = /** @type {string[]} */ ({{assets}});

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

sw.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([...PAGES, ...ASSETS])).then(() => sw.skipWaiting()));
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('snl-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => sw.clients.claim()));
});

/**
 * The page kept for `url`: itself, or the page it is an instance of (`/room/abc` is `/room`).
 * @param {URL} url
 */
async function keptPage(url) {
  const cache = await caches.open(CACHE);
  const exact = await cache.match(url.pathname, { ignoreSearch: true });
  if (exact) return exact;
  const first = `/${url.pathname.split('/')[1] ?? ''}`;
  return (await cache.match(first)) ?? (await cache.match(`${first}/`)) ?? (await cache.match('/'));
}

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(caches.match(request).then((hit) => hit ?? fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        void caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    })));
    return;
  }
  if (request.mode !== 'navigate') return;
  event.respondWith(fetch(request).then((response) => {
    if (response.ok && PAGES.includes(url.pathname)) {
      const copy = response.clone();
      void caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
    }
    return response;
  }).catch(async () => (await keptPage(url)) ?? Response.error()));
});
