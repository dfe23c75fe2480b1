/**
 * A browser context's requests to a base URL, answered by a handler in the test's process
 * (an engine's, or `fetch` to a `serve` account) through `context.route`.
 */
import type { BrowserContext, Request as PlaywrightRequest, Route } from '@playwright/test'

const inside = (baseUrl: string) => (url: URL) =>
  url.href === baseUrl || url.href.startsWith(`${baseUrl}/`) || url.href.startsWith(`${baseUrl}?`)

/** The page's request as a Fetch `Request`, to hand to an engine. */
async function toRequest(route: Route, signal: AbortSignal): Promise<Request> {
  const request = route.request()
  const headers = Object.entries(await request.allHeaders()).filter(
    ([name]) => !name.startsWith(':'),
  )
  const method = request.method()
  const data = method === 'GET' || method === 'HEAD' ? null : request.postDataBuffer()
  const body = data ? new Uint8Array(data) : null
  return new Request(request.url(), { method, headers, body, signal })
}

/**
 * Answers a routed request as the service did: its answer, or the failure a page meets when
 * the connection drops (`network`, `hang`: `fetch` rejects) or breaks mid-body (`reset`:
 * Playwright can fulfil a request only whole, so the page's `fetch` rejects as for a reset
 * connection).
 */
async function answer(route: Route, response: Response): Promise<void> {
  if (response.type === 'error') return route.abort('failed')
  let body: Buffer
  try {
    body = Buffer.from(await response.arrayBuffer())
  } catch {
    return route.abort('connectionreset')
  }
  await route.fulfill({
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
  })
}

/**
 * Routes `baseUrl` in every page of the context to `handle` (an engine's, or `fetch` to a
 * `serve` account); returns how to stop. A forwarded request that gets no answer (the server
 * dropped the connection: a `network` or `hang` fault) reaches the page as the network error
 * it is, never as a failure of the test.
 */
export async function routeTo(
  context: BrowserContext,
  baseUrl: string,
  handle: (request: Request) => Promise<Response>,
): Promise<() => Promise<void>> {
  const pending = new AbortController()
  // A request the page gave up on (its own timeout aborted its `fetch`) is given up here too:
  // a call the service holds (a `hang`) ends, as a server's would when its client goes away.
  const waiting = new Map<PlaywrightRequest, AbortController>()
  const gaveUp = (request: PlaywrightRequest) => waiting.get(request)?.abort()
  context.on('requestfailed', gaveUp)
  const settled = (error: unknown) =>
    pending.signal.aborted || /closed|disposed|already handled/i.test(String(error))
  await context.route(inside(baseUrl), async (route) => {
    const own = new AbortController()
    waiting.set(route.request(), own)
    let response: Response
    try {
      response = await handle(await toRequest(route, AbortSignal.any([pending.signal, own.signal])))
    } catch (error) {
      if (settled(error) || own.signal.aborted) return
      return route.abort('failed').catch((late: unknown) => {
        if (!settled(late)) throw late
      })
    } finally {
      waiting.delete(route.request())
    }
    try {
      await answer(route, response)
    } catch (error) {
      // The page went away, or the test ended, while the answer was on its way.
      if (!settled(error) && !own.signal.aborted) throw error
    }
  })
  return async () => {
    pending.abort()
    context.off('requestfailed', gaveUp)
    await context.unrouteAll({ behavior: 'ignoreErrors' })
  }
}
