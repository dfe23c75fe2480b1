/**
 * The page's own exchange log (its IndexedDB database beside the account's), filled for a
 * benchmark: exchanges the engine really logged, copied as many times as asked, each with a key
 * of its own, for the tab the page runs in.
 */
import type { Page } from '@playwright/test'

/** A logged exchange as the engine answers it in `GET /_account/exchanges`. */
export type LoggedExchange = Record<string, unknown> & { request: { url: string } }

/**
 * Makes a few calls in a running playground (a key written, a string reversed, a read refused
 * by nothing, a ping refused for want of a token) and answers what the engine logged of them.
 */
export async function loggedExchanges(page: Page, base: string): Promise<LoggedExchange[]> {
  return page.evaluate(async (base) => {
    const secrets = (await (await fetch(`${base}/_account/secrets`)).json()) as Array<{
      key: string
    }>
    const key = secrets[0]!.key
    const post = (path: string, body: string, type = 'application/vnd.service+json') =>
      fetch(`${base}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': type },
        body,
      })
    await post(
      'keyv/set',
      JSON.stringify([
        ['$$', 'bucket', 'users'],
        ['$$', 'key', 'alice/1'],
        ['$$', 'value', ['%%', { name: 'Alice' }]],
      ]),
    )
    await post('type/string/reverse', 'hello', 'text/plain')
    await post('keyv/get?bucket=users&key=bob%2F1', '', 'text/plain')
    const { exchanges } = (await (await fetch(`${base}/_account/exchanges`)).json()) as {
      exchanges: LoggedExchange[]
    }
    await fetch(`${base}/_account/exchanges/clear`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    return exchanges
  }, base)
}

/**
 * Writes `count` exchanges made from `exchanges` into the page's log for this tab, creating the
 * database as the page does (`src/ui/shared/page-store.ts`) when it is not there yet. Runs in any
 * page of the playground's origin, the playground itself or not.
 */
export async function seedPageLog(
  page: Page,
  base: string,
  exchanges: readonly LoggedExchange[],
  count: number,
): Promise<void> {
  await page.evaluate(
    async ({ base, exchanges, count }) => {
      // This tab, as the page names it, named here if not yet.
      let tab = sessionStorage.getItem('playground:tab')
      if (!tab) sessionStorage.setItem('playground:tab', (tab = crypto.randomUUID()))
      const name = `playground:service@${base}:page`
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name, 1)
        request.onupgradeneeded = () => {
          const made = request.result
          made
            .createObjectStore('authorizations', { keyPath: 'token' })
            .createIndex('savedAt', 'savedAt')
          made
            .createObjectStore('exchanges', { keyPath: 'id', autoIncrement: true })
            .createIndex('tab', 'tab')
        }
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('exchanges', 'readwrite')
        tx.objectStore('exchanges').clear()
        for (let i = 0; i < count; i++) {
          const { id: _id, ...record } = exchanges[i % exchanges.length]!
          const url = `${record.request.url.split('?')[0]}?key=user%2F${i}`
          tx.objectStore('exchanges').add({ ...record, request: { ...record.request, url }, tab })
        }
        tx.oncomplete = () => resolve()
        tx.onerror = () => reject(tx.error)
      })
      db.close()
    },
    { base, exchanges, count },
  )
}

/**
 * Opens a blank page of the playground's origin (`origin`) in `page`: the page the playground
 * then opens from, in the same tab, cold (no worker, no cache, no database), with the browser's
 * process for the origin already up.
 */
export async function openBlank(page: Page, origin: string): Promise<void> {
  const blank = `${origin}/__seed`
  await page.route(blank, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>seed</title><link rel="icon" href="data:,">',
    }),
  )
  await page.goto(blank)
  await page.unroute(blank)
}

/**
 * Fills this tab's page log with `count` exchanges from a blank page of the playground's origin
 * (`openBlank`), so that the playground then opens in the same tab with that log, cold.
 */
export async function seedFromBlank(
  page: Page,
  origin: string,
  base: string,
  exchanges: readonly LoggedExchange[],
  count: number,
): Promise<void> {
  await openBlank(page, origin)
  await seedPageLog(page, base, exchanges, count)
}
