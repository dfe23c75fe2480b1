import { test as base, expect, type Page } from '@playwright/test'

/** Which service the page serves; override with `test.use({ config: ... })`. */
export interface PlaygroundConfig {
  baseUrl: string
  serviceName: string
}

/** A response as a client in the page saw it. `status` 0 means the request failed (`error`). */
export interface WireResponse {
  status: number
  headers: Record<string, string>
  body: string
  error?: string
}

export interface WireInit {
  method?: string
  headers?: Record<string, string>
  body?: string
}

export interface CallOptions {
  /** Sent as `authorization: Bearer <token>`. */
  token?: string
  /** `text/plain` unless given. */
  contentType?: string
  accept?: string
  /** A query string without the `?`. */
  query?: string
  body?: string
}

export interface Wire {
  /** `fetch` inside the page, so the service worker sees it. `url` is absolute or below the base URL. */
  fetch(url: string, init?: WireInit): Promise<WireResponse>
  /** POSTs to the endpoint `name` (`a.b.c` at `<baseUrl>/a/b/c`). */
  call(name: string, options?: CallOptions): Promise<WireResponse>
}

/** A secret as the control plane lists it (the engine's `SecretView`). Times are Unix seconds. */
export interface SecretView {
  id: string
  key: string
  createdAt: number
  expiresAt: number | null
  rolledTo: string | null
  state: 'active' | 'rolling' | 'expired'
}

/** The account control plane, called from inside the page. */
export interface AccountHelpers {
  secrets(): Promise<SecretView[]>
  createSecret(): Promise<SecretView>
  /** Rolls now, or at `at` (Unix seconds on the virtual clock); returns the replacement. */
  roll(id: string, at?: number): Promise<SecretView>
  now(): Promise<number>
  /** Moves the virtual clock forward; returns the new time. */
  advance(seconds: number): Promise<number>
}

export interface App {
  page: Page
  config: PlaygroundConfig
  /** Reloads the page and waits for the worker again. */
  reload(): Promise<void>
}

interface Fixtures {
  /** Console messages and page errors; checked to be none once each test ends. */
  consoleProblems: string[]
  config: PlaygroundConfig
  app: App
  wire: Wire
  account: AccountHelpers
}

export const defaultConfig: PlaygroundConfig = {
  baseUrl: 'https://api.example.test',
  serviceName: 'service',
}

/** The playground URL for a configuration. */
export function playgroundUrl(config: Partial<PlaygroundConfig>): string {
  return `/?${new URLSearchParams(config as Record<string, string>)}`
}

async function pageFetch(page: Page, url: string, init: WireInit = {}): Promise<WireResponse> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init)
        return {
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body: await response.text(),
        }
      } catch (error) {
        return { status: 0, headers: {}, body: '', error: String(error) }
      }
    },
    { url, init },
  )
}

async function control<T>(
  wire: Wire,
  method: 'GET' | 'POST',
  path: string,
  body?: object,
): Promise<T> {
  const response = await wire.fetch(`_account/${path}`, {
    method,
    ...(body
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
  })
  expect(response.status, `${method} _account/${path}: ${response.body}`).toBe(200)
  return JSON.parse(response.body) as T
}

/**
 * The line Chromium itself adds for every response of status 400 or more, whoever answered it
 * (decision 013): the playground shows refusals on purpose, so these are not problems.
 */
const NETWORK_STATUS_LINE =
  /^Failed to load resource: the server responded with a status of [45]\d\d/

/** The link to a view in the playground's nav (`Secrets`, `Console`, …). */
export const viewLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name })

/**
 * Goes to a view through the nav, as a person does: below 480 px the views are folded under one
 * button, opened first.
 */
export async function openView(page: Page, name: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Views' })
  const fold = nav.getByRole('button', { name: /\(other views\)$/ })
  if ((await fold.isVisible()) && (await fold.getAttribute('aria-expanded')) !== 'true') {
    await fold.click()
  }
  await viewLink(page, name).click()
}

/** An ability's item in the composer's catalogue tree. */
/**
 * The console's Endpoint field, once the console is shown: a link followed leaves the view it
 * was in for a moment, and Authorizations has an Endpoint field of its own (who reaches it).
 */
export const consoleEndpoint = (page: Page) =>
  page.getByRole('region', { name: 'Console' }).getByRole('combobox', { name: 'Endpoint' })

export const ability = (page: Page, name: string) =>
  page.getByRole('treeitem', { name, exact: true })

/** Grants (or takes back) an ability by clicking its row in the catalogue tree. */
export const grant = (page: Page, name: string) =>
  ability(page, name).locator(':scope > .tree-row').click()

/** Opens a package of the catalogue tree with the keyboard. */
export const expandAbility = (page: Page, name: string) => ability(page, name).press('ArrowRight')

/** Fails when the page is wider than its window: nothing may make it scroll sideways. */
export async function expectNoHorizontalOverflow(page: Page, what = 'the page'): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow, `${what} is wider than the window`).toBeLessThanOrEqual(0)
}

/** Collects a page's console errors and warnings and its uncaught errors, from now on. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    if (!['error', 'warning'].includes(message.type())) return
    if (NETWORK_STATUS_LINE.test(message.text())) return
    problems.push(`${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  return problems
}

export const test = base.extend<Fixtures>({
  config: [defaultConfig, { option: true }],

  consoleProblems: [
    async ({ page }, use) => {
      const problems = watchConsole(page)
      await use(problems)
      expect(problems, 'the browser console stays clean').toEqual([])
    },
    { auto: true },
  ],

  async app({ page, config }, use) {
    const ready = async () => {
      await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
      // Ready means the worker answers the base URL: nothing the page sends may leave before.
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
    }
    await page.goto(playgroundUrl(config))
    await ready()
    await use({
      page,
      config,
      async reload() {
        await page.reload()
        await ready()
      },
    })
  },

  async wire({ app }, use) {
    const { page, config } = app
    const wire: Wire = {
      fetch: (url, init) =>
        pageFetch(page, /^https?:/.test(url) ? url : `${config.baseUrl}/${url}`, init),
      call(name, { token, contentType = 'text/plain', accept, query, body } = {}) {
        const headers: Record<string, string> = { 'content-type': contentType }
        if (accept) headers.accept = accept
        if (token) headers.authorization = `Bearer ${token}`
        const path = `${name.replaceAll('.', '/')}${query ? `?${query}` : ''}`
        return wire.fetch(path, {
          method: 'POST',
          headers,
          ...(body === undefined ? {} : { body }),
        })
      },
    }
    await use(wire)
  },

  async account({ wire }, use) {
    await use({
      secrets: () => control(wire, 'GET', 'secrets'),
      createSecret: () => control(wire, 'POST', 'secrets', {}),
      roll: (id, at) =>
        control(
          wire,
          'POST',
          `secrets/${encodeURIComponent(id)}/roll`,
          at === undefined ? {} : { at },
        ),
      now: async () => (await control<{ now: number }>(wire, 'GET', 'clock')).now,
      advance: async (seconds) =>
        (await control<{ now: number }>(wire, 'POST', 'clock', { advance: seconds })).now,
    })
  },
})

export { expect }
