/** What the gate needs of the page: its `fetch`, its service workers and its address. */
export interface GatedPage {
  fetch: typeof fetch
  navigator: { serviceWorker?: ServiceWorkerContainer }
  location: { href: string }
}

/**
 * Holds the page's requests to `baseUrl` (the base URL and below it, as the service worker's
 * handlers match them) until the page's service answers them: until `started` (the engine and
 * the worker started, `startPlaygroundService`) has resolved and a service worker controls the
 * page. A page no worker controls sends its requests straight to the network: a first visit, a
 * link opened cold, a hard reload, before the worker takes the page (decision 111). Once both
 * hold, requests go out at once, to the worker, which holds them itself whenever its engine is
 * not answering (decision 027). When the service cannot start, a held request fails as `fetch`
 * fails (a `TypeError`) saying so, and nothing is sent. Every other request passes untouched.
 * In a browser that gives the page no service worker, MSW answers in the page itself (its
 * fallback wraps the page's `fetch` as it starts): a held request is sent again through it.
 * Installed once, before the page renders anything (`boot`), on the page's own `fetch`: every
 * call of the page to the base URL (its views' queries, the console, the contracts' runs)
 * passes there.
 */
export function gateFetch(page: GatedPage, baseUrl: string, started: Promise<unknown>): void {
  const send = page.fetch.bind(page)
  const open = started.then(() => controlled(page.navigator.serviceWorker))
  let opened = false
  open.then(
    () => (opened = true),
    () => undefined,
  )
  page.fetch = async (input, init) => {
    if (opened || !isBelow(urlOf(input, page.location.href), baseUrl)) return send(input, init)
    try {
      await open
    } catch (error) {
      throw new TypeError(
        `Not sent: the playground's service did not start (${error instanceof Error ? error.message : String(error)}), and nothing is sent to ${baseUrl} without it.`,
        { cause: error },
      )
    }
    // Sent again from the top: in a browser with no service worker, MSW answers in the page
    // through a `fetch` of its own, wrapped around this one as it started.
    return page.fetch(input, init)
  }
}

/**
 * Resolves once a service worker controls the page; at once in a browser that gives the page
 * none, where MSW, started, answers in the page itself.
 */
function controlled(container: ServiceWorkerContainer | undefined): Promise<void> {
  if (!container || container.controller) return Promise.resolve()
  return new Promise((resolve) =>
    container.addEventListener('controllerchange', () => resolve(), { once: true }),
  )
}

function urlOf(input: RequestInfo | URL, page: string): URL | undefined {
  try {
    return new URL(input instanceof Request ? input.url : input, page)
  } catch {
    return undefined
  }
}

/** Whether `url` is the base URL or below it (its query aside), as the worker's handlers match. */
function isBelow(url: URL | undefined, baseUrl: string): boolean {
  if (!url) return false
  const path = `${url.origin}${url.pathname}`
  return path === baseUrl || path.startsWith(`${baseUrl}/`)
}
