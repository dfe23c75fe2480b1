/**
 * The playground's service worker. It serves the app shell (the built page and its assets) from
 * a cache, so the playground opens with no network, and leaves every other request to MSW's
 * worker, loaded at the end, which hands the base URL's requests to the engine in the page.
 * A request to a page's base URL never reaches the network: until that page's engine answers
 * (after a reload, or after the browser stopped this worker), the worker holds it.
 * Why one worker and how it updates: docs/decisions/011-offline-shell.md; the guard: 027.
 */

/* global handleRequest -- MSW's own, from mockServiceWorker.js (imported at the end) */

// Filled in by the build (the app-shell plugin in vite.config.ts): the built files to precache
// and a version naming them. Empty in dev, where the shell steps aside and the dev server
// answers the page's own requests.
const APP_SHELL = { version: '', files: [], first: [] }

const CACHE_PREFIX = 'app-shell-'
const CACHE = CACHE_PREFIX + APP_SHELL.version

const isShell = (name) => name.startsWith(CACHE_PREFIX)

addEventListener('install', (event) => {
  if (!APP_SHELL.version) return
  // An update caches its whole shell before it takes over the open tabs. A first visit caches
  // only the scripts its first screen runs (cached here, at install, Chromium compiles them ahead
  // for the next visit), and the rest as soon as the page's engine answers (`ENGINE_READY`).
  event.waitUntil(
    caches
      .keys()
      .then((names) => (names.some(isShell) ? cacheShell() : cacheShell(APP_SHELL.first))),
  )
})

let shellCached
/**
 * Caches the built files the cache lacks (the whole shell, or the `files` named); the whole
 * shell once at a time, and again after a failure.
 */
function cacheShell(files) {
  if (files) return addMissing(files)
  shellCached ??= addMissing(APP_SHELL.files).catch((error) => {
    shellCached = undefined
    throw error
  })
  return shellCached
}

async function addMissing(files) {
  const cache = await caches.open(CACHE)
  const kept = await Promise.all(files.map((file) => cache.match(file, { ignoreVary: true })))
  await cache.addAll(files.filter((_file, index) => !kept[index]))
}

addEventListener('activate', (event) => {
  const stale = (name) => isShell(name) && name !== CACHE
  event.waitUntil(
    caches.keys().then((names) => Promise.all(names.filter(stale).map((n) => caches.delete(n)))),
  )
})

addEventListener('fetch', (event) => {
  const answer = shell(event) ?? guard(event)
  if (!answer) return
  event.respondWith(answer)
  // MSW's listener, registered after this one, must not answer the same request.
  event.stopImmediatePropagation()
})

addEventListener('message', (event) => {
  // MSW's worker unregisters itself when its last tab closes or reloads. The shell has to
  // outlive its tabs to open the next visit offline, so that message stops here.
  if (event.data === 'CLIENT_CLOSED') event.stopImmediatePropagation()
  const client = event.source
  // A page this worker does not control asks to be taken (src/msw/playground.ts `controlled`):
  // its claim at activation came before the page could be claimed, or a hard reload left it.
  if (event.data?.type === 'CLAIM') {
    event.stopImmediatePropagation()
    event.waitUntil(self.clients.claim())
    return
  }
  // A page asks which build this worker serves (src/ui/boot.ts `reloadOnNewWorker`).
  if (event.data?.type === 'SHELL_VERSION') {
    event.stopImmediatePropagation()
    event.ports[0]?.postMessage({ type: 'SHELL_VERSION', version: APP_SHELL.version })
    return
  }
  if (event.data?.type === 'ENGINE_READY' && client) {
    engines.set(client.id, event.data.baseUrl)
    // Taken in: the page sends its requests once it hears so (src/msw/browser.ts).
    event.ports[0]?.postMessage({ type: 'ENGINE_READY_TAKEN' })
    for (const ready of waiting.get(client.id) ?? []) ready(true)
    waiting.delete(client.id)
    // The page is usable: now the shell is cached, and the page told, so the next visit opens
    // with no network.
    if (APP_SHELL.version) {
      event.waitUntil(
        cacheShell().then(
          () => client.postMessage({ type: 'SHELL_CACHED' }),
          () => undefined,
        ),
      )
    }
  }
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

/**
 * The pages whose engine answers now, by client id, with their base URL: each page says so
 * (`ENGINE_READY`, src/msw/browser.ts) once MSW answers for it. Kept in memory only, like MSW's
 * own list of active clients: when the browser stops this worker, both are gone together.
 */
const engines = new Map()
/** Held requests waiting for a page's engine, by client id. */
const waiting = new Map()
/** How long a request waits for its page's engine before the worker answers 503 itself. */
const HOLD_MS = 10_000
/** The playground's base URL when its page names none (DEFAULT_BASE_URL in the engine). */
const DEFAULT_BASE_URL = 'https://api.service.test'

/**
 * Requests from a page whose engine is not answering yet: those to its base URL are held (the
 * network must never see them, bearer secrets included); the rest go on as MSW would let them.
 */
function guard(event) {
  const { request, clientId } = event
  if (request.mode === 'navigate' || !clientId || engines.has(clientId)) return undefined
  if (new URL(request.url).origin === location.origin) return undefined
  return hold(event)
}

async function hold(event) {
  const client = await self.clients.get(event.clientId)
  const baseUrl = client ? baseUrlOf(client.url) : undefined
  if (!baseUrl || !isBelow(event.request.url, baseUrl)) return fetch(event.request)
  if (!(await engineOf(client))) {
    client.postMessage({ type: 'ENGINE_NOT_RUNNING' })
    const text = `engine not running: no playground page answers ${baseUrl} now; reload the playground`
    return new Response(text, {
      status: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    })
  }
  // MSW's worker (imported below) answers it as it answers every request of an active page.
  return handleRequest(event, crypto.randomUUID(), Date.now())
}

/** Resolves `true` once the client's engine answers, `false` after `HOLD_MS`. */
function engineOf(client) {
  if (engines.has(client.id)) return Promise.resolve(true)
  // A page whose engine runs restarts MSW's client at once; a page still starting says so
  // when it has started.
  client.postMessage({ type: 'ENGINE_NEEDED' })
  return new Promise((resolve) => {
    const list = waiting.get(client.id) ?? []
    list.push(resolve)
    waiting.set(client.id, list)
    setTimeout(() => resolve(false), HOLD_MS)
  })
}

/** The base URL a playground page at `pageUrl` serves (src/ui/shared/config.tsx reads it so). */
function baseUrlOf(pageUrl) {
  const raw = new URL(pageUrl).searchParams.get('baseUrl') ?? DEFAULT_BASE_URL
  try {
    const url = new URL(raw)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
  } catch {
    return undefined
  }
}

/** Whether `requestUrl` is the base URL or below it, as MSW's handlers match it. */
function isBelow(requestUrl, baseUrl) {
  const url = new URL(requestUrl)
  const path = `${url.origin}${url.pathname}`
  return path === baseUrl || path.startsWith(`${baseUrl}/`)
}

// At the top level, so the browser fetches it at install and keeps it with this worker: the
// worker then starts with no network too. Its listeners run after the ones above.
importScripts('/mockServiceWorker.js')
