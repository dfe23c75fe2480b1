/**
 * The playground's service worker. It serves the app shell (the built page and its assets) from
 * a cache, so the playground opens with no network, and leaves every other request to MSW's
 * worker, loaded at the end, which hands the base URL's requests to the engine in the page.
 * Why one worker and how it updates: docs/decisions/011-offline-shell.md.
 */

// Filled in by the build (the app-shell plugin in vite.config.ts): the built files to precache
// and a version naming them. Empty in dev, where the shell steps aside and the dev server
// answers the page's own requests.
const APP_SHELL = { version: '', files: [] }

const CACHE_PREFIX = 'app-shell-'
const CACHE = CACHE_PREFIX + APP_SHELL.version

addEventListener('install', (event) => {
  if (!APP_SHELL.version) return
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(APP_SHELL.files)))
})

addEventListener('activate', (event) => {
  const stale = (name) => name.startsWith(CACHE_PREFIX) && name !== CACHE
  event.waitUntil(
    caches.keys().then((names) => Promise.all(names.filter(stale).map((n) => caches.delete(n)))),
  )
})

addEventListener('fetch', (event) => {
  const answer = shell(event)
  if (!answer) return
  event.respondWith(answer)
  // MSW's listener, registered after this one, must not answer the same request.
  event.stopImmediatePropagation()
})

addEventListener('message', (event) => {
  // MSW's worker unregisters itself when its last tab closes or reloads. The shell has to
  // outlive its tabs to open the next visit offline, so that message stops here.
  if (event.data === 'CLIENT_CLOSED') event.stopImmediatePropagation()
})

/** The shell's answer to a request of the page's own origin, or nothing to let MSW decide. */
function shell(event) {
  const { request } = event
  if (!APP_SHELL.version || request.method !== 'GET') return undefined
  const url = new URL(request.url)
  if (url.origin !== location.origin) return undefined
  if (request.mode === 'navigate') {
    return url.pathname === '/' || url.pathname === '/index.html' ? networkFirst(event) : undefined
  }
  return url.pathname.startsWith('/assets/') ? cacheFirst(event) : undefined
}

/** The page itself: the server's latest when it answers, else the copy kept from before. */
async function networkFirst(event) {
  const cache = await caches.open(CACHE)
  try {
    const response = await fetch(event.request)
    if (response.ok) event.waitUntil(cache.put('/', response.clone()))
    return response
  } catch (error) {
    const kept = await cache.match('/')
    if (kept) return kept
    throw error
  }
}

/**
 * Built assets: their names change with their content, so a kept copy is never stale. Matched
 * ignoring `Vary`: servers send `Vary: Origin`, and the page's module requests carry an
 * `Origin` that the worker's own precache requests did not.
 */
async function cacheFirst(event) {
  const cache = await caches.open(CACHE)
  const kept = await cache.match(event.request, { ignoreVary: true })
  if (kept) return kept
  const response = await fetch(event.request)
  if (response.ok) event.waitUntil(cache.put(event.request, response.clone()))
  return response
}

// At the top level, so the browser fetches it at install and keeps it with this worker: the
// worker then starts with no network too. Its listeners run after the ones above.
importScripts('/mockServiceWorker.js')
