import { describe, expect, it, vi } from 'vitest'
import { gateFetch, type GatedPage } from './fetch-gate'

const BASE = 'https://api.example.test/api'

/** A page as the gate sees it: its `fetch` records what leaves; its worker comes when told. */
function pageOf() {
  const sent: string[] = []
  const container = new EventTarget() as EventTarget & { controller: object | null }
  container.controller = null
  const page: GatedPage = {
    fetch: vi.fn(async (input: RequestInfo | URL) => {
      sent.push(input instanceof Request ? input.url : String(input))
      return new Response('sent')
    }),
    navigator: { serviceWorker: container as unknown as ServiceWorkerContainer },
    location: { href: 'http://127.0.0.1:4173/?baseUrl=x' },
  }
  const control = () => {
    container.controller = {}
    container.dispatchEvent(new Event('controllerchange'))
  }
  return { page, sent, control }
}

/** Lets every pending promise run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A promise and the functions that settle it. */
function deferred() {
  let resolve!: () => void
  let reject!: (error: Error) => void
  const promise = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)))
  return { promise, resolve, reject }
}

describe('the page fetch gate', () => {
  it('holds requests to the base URL until the service started and a worker controls the page', async () => {
    const { page, sent, control } = pageOf()
    const started = deferred()
    gateFetch(page, BASE, started.promise)
    const held = [
      page.fetch(`${BASE}/_account/clock`),
      page.fetch(new Request(`${BASE}/core/ping`, { method: 'POST' })),
      page.fetch(`${BASE}?q=1`),
    ]
    // Not below the base URL: sent at once.
    await page.fetch('/assets/app.js')
    await page.fetch('https://api.example.test/apix/core/ping')
    await page.fetch('https://elsewhere.example.test/api/core/ping')
    await settle()
    expect(sent).toEqual([
      '/assets/app.js',
      'https://api.example.test/apix/core/ping',
      'https://elsewhere.example.test/api/core/ping',
    ])
    started.resolve()
    await settle()
    // Started, but no worker controls the page yet: a request would still reach the network.
    expect(sent).toHaveLength(3)
    control()
    await Promise.all(held)
    expect(sent.slice(3).sort()).toEqual([
      `${BASE}/_account/clock`,
      `${BASE}/core/ping`,
      `${BASE}?q=1`,
    ])
    await page.fetch(`${BASE}/_account/secrets`)
    expect(sent.at(-1)).toBe(`${BASE}/_account/secrets`)
  })

  it('sends at once once a worker that already controlled the page has its service started', async () => {
    const { page, sent, control } = pageOf()
    control()
    gateFetch(page, BASE, Promise.resolve())
    await page.fetch(`${BASE}/_account/clock`)
    expect(sent).toEqual([`${BASE}/_account/clock`])
  })

  it('fails a held request as fetch fails, saying why, when the service cannot start', async () => {
    const { page, sent, control } = pageOf()
    control()
    const started = deferred()
    gateFetch(page, BASE, started.promise)
    const held = page.fetch(`${BASE}/_account/secrets`)
    started.reject(new Error('IndexedDB is not available'))
    await expect(held).rejects.toThrow(TypeError)
    await expect(page.fetch(`${BASE}/core/ping`)).rejects.toThrow(
      `Not sent: the playground's service did not start (IndexedDB is not available), and nothing is sent to ${BASE} without it.`,
    )
    expect(sent).toEqual([])
  })

  it('in a browser with no service worker, sends a held request again through what answers in the page', async () => {
    const { page, sent } = pageOf()
    delete page.navigator.serviceWorker
    const started = deferred()
    gateFetch(page, BASE, started.promise)
    const held = page.fetch(`${BASE}/core/ping`)
    // MSW's fallback, as it starts: a fetch of its own around the page's, answering the base URL.
    const gated = page.fetch
    page.fetch = async (input, init) =>
      String(input).startsWith(BASE) ? new Response('in the page') : gated(input, init)
    started.resolve()
    expect(await (await held).text()).toBe('in the page')
    expect(sent).toEqual([])
  })
})
