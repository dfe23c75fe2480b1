import type { Page } from '@playwright/test'
import type { Target, WireRequest, WireResponse } from '../src/conformance/run'
import { expect, playgroundUrl } from './fixtures'

/** The playground's engine, reached with `fetch` in the page through the service worker. */
export async function pageTarget(
  page: Page,
  { baseUrl, serviceName }: { baseUrl: string; serviceName: string },
): Promise<Target> {
  await page.goto(playgroundUrl({ baseUrl, serviceName }))
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  const send = (request: WireRequest) =>
    page.evaluate(async ({ url, method, headers, body }): Promise<WireResponse> => {
      const bytes =
        body === undefined ? undefined : Uint8Array.from(atob(body), (c) => c.charCodeAt(0))
      const response = await fetch(url, { method, headers, ...(bytes ? { body: bytes } : {}) })
      const data = new Uint8Array(await response.arrayBuffer())
      let binary = ''
      for (const byte of data) binary += String.fromCharCode(byte)
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: btoa(binary),
      }
    }, request)
  return {
    name: 'chromium',
    baseUrl,
    serviceName,
    send,
    async control(path, body) {
      const answer = await send({
        url: `${baseUrl}/_account/${path}`,
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined
          ? {}
          : { body: Buffer.from(JSON.stringify(body)).toString('base64') }),
      })
      const text = Buffer.from(answer.body, 'base64').toString('utf8')
      if (answer.status !== 200) throw new Error(`control plane ${path}: ${answer.status} ${text}`)
      return JSON.parse(text) as unknown
    },
  }
}
