import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import { ConfigProvider } from '../shared/config'
import {
  ExchangeLogFollower,
  exchangeLogQuery,
  FIRST_PAGE,
  readOlder,
  type LogState,
} from '../shared/exchange-log'
import { keys } from '../shared/queries'
import { createQueryClient } from '../shared/query-client'
import {
  appendToLog,
  COMPACT_BODY_CHARS,
  KEPT_WHOLE,
  MAX_LOGGED,
  tabLog,
} from '../shared/page-store'
import { resetPlayground } from '../shared/reset-account'
import LogView from './log-view'

const Followed = () => (
  <>
    <ExchangeLogFollower />
    <LogView />
  </>
)

function send(
  service: Service,
  path: string,
  init: { token?: string; type?: string; body?: string },
) {
  return fetch(`${service.baseUrl}/${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${init.token ?? service.secret}`,
      'content-type': init.type ?? 'text/plain',
      accept: 'text/plain',
    },
    ...(init.body === undefined ? {} : { body: init.body }),
  })
}

/** The exchanges the engine's log holds now. */
async function engineLog(service: Service): Promise<ExchangeRecord[]> {
  const response = await fetch(`${service.baseUrl}/_account/exchanges`)
  return ((await response.json()) as { exchanges: ExchangeRecord[] }).exchanges
}

/** The engine's first exchange, to copy into the page's log, and the engine's log cleared. */
async function takeModel(service: Service): Promise<ExchangeRecord | undefined> {
  const [model] = await engineLog(service)
  await fetch(`${service.baseUrl}/_account/exchanges/clear`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  return model
}

const tuples = (...entries: unknown[]) => JSON.stringify(entries)
const rows = () => screen.getAllByTestId('exchange-row')
const row = (endpoint: string) => rows().find((r) => r.textContent?.includes(endpoint))!

/** Three exchanges that look alike but for their arguments, and a refusal of each kind. */
async function fill(service: Service) {
  const vnd = 'application/vnd.service+json'
  for (const key of ['alice/1', 'alice/2', 'bob/1']) {
    await send(service, 'keyv/set', {
      type: vnd,
      body: tuples(['$$', 'bucket', 'users'], ['$$', 'key', key], ['$$', 'value', ['%%', 1]]),
    })
  }
  const limited = await (
    await send(service, 'auth/create', {
      type: vnd,
      body: tuples(['$$', 'abilities', ['keyv.get?bucket=users&prefix=alice%2F']]),
    })
  ).text()
  await send(service, 'keyv/get?bucket=users&key=bob%2F1', { token: limited })
  await send(service, 'keyv/get?bucket=users&key=alice%2F1', { token: limited })
  await send(service, 'type/string/reverse', { body: 'hello there' })
  return limited
}

describe('the exchange log, searched', { timeout: 30_000 }, () => {
  it('tells alike rows apart by their arguments, and shows the refusal code', async () => {
    const { service } = await renderWithService(<Followed />)
    await fill(service)
    await waitFor(() => expect(rows()).toHaveLength(7), { timeout: 5000 })
    const args = rows().map((r) => within(r).queryByTestId('exchange-args')?.textContent ?? '')
    expect(args).toContain('bucket=users · key=alice/1 · value=1')
    expect(args).toContain('bucket=users · key=bob/1 · value=1')
    expect(args).toContain('input "hello there"')
    const refused = rows().find(
      (r) => r.textContent?.includes('key=bob/1') && r.textContent.includes('401'),
    )!
    expect(within(refused).getByTestId('exchange-code').textContent).toBe('outside_limit')
  })

  it('filters by token, refusal code, body format and text in the request or answer', async () => {
    const { service } = await renderWithService(<Followed />)
    const limited = await fill(service)
    await waitFor(() => expect(rows()).toHaveLength(7), { timeout: 5000 })
    const filter = (label: string, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } })
    const endpoints = () => rows().map((r) => r.querySelector('.log-cell-endpoint a')!.textContent)

    filter('Token', 'authorization')
    expect(endpoints()).toEqual(['keyv.get', 'keyv.get'])
    filter('Token', limited.slice(0, 12))
    expect(endpoints()).toEqual(['keyv.get', 'keyv.get'])
    filter('Token', '')
    filter('Refusal', 'outside_limit')
    expect(rows()).toHaveLength(1)
    expect(row('keyv.get').textContent).toContain('bob/1')
    filter('Refusal', '')
    filter('Body format', 'tuples')
    expect(endpoints()).toEqual(['auth.create', 'keyv.set', 'keyv.set', 'keyv.set'])
    filter('Body format', '')
    filter('Text in the request or answer', 'ALICE/2')
    expect(endpoints()).toEqual(['keyv.set'])
    filter('Text in the request or answer', 'ereht')
    expect(endpoints()).toEqual(['type.string.reverse'])
    expect(window.location.hash).toContain('text=ereht')
  })

  it(`keeps ${MAX_LOGGED.toLocaleString('en-US')} exchanges, the older ones smaller, and draws a page of them`, async () => {
    const { service, config, rerender } = await renderWithService(<></>)
    await send(service, 'type/string/reverse', { body: 'x'.repeat(10_000) })
    const [model] = await engineLog(service)
    const many = Array.from({ length: 1200 }, (_, i) => ({ ...model!, id: i + 1 }))
    await appendToLog(config, many)
    const kept = await tabLog(config)
    expect(kept).toHaveLength(1200)
    expect(kept[0]!.request.body!.data).toHaveLength(10_000)
    expect(kept[KEPT_WHOLE - 1]!.request.body!.data).toHaveLength(10_000)
    expect(kept[KEPT_WHOLE]!.request.body).toMatchObject({
      bytes: 10_000,
      truncated: true,
      data: 'x'.repeat(COMPACT_BODY_CHARS),
    })
    rerender(
      <ConfigProvider config={config}>
        <QueryClientProvider client={createQueryClient()}>
          <LogView />
        </QueryClientProvider>
      </ConfigProvider>,
    )
    await waitFor(() => expect(rows()).toHaveLength(200), { timeout: 10_000 })
    // The newest come first; the older part is read behind them, and counted once it is.
    await screen.findByText(/The newest 200 of 1,201 shown/, {}, { timeout: 10_000 })
    expect(screen.getByTestId('log-count').textContent).toMatch(/^1,201 exchanges;/)
    fireEvent.click(screen.getByRole('button', { name: 'Show 200 more' }))
    expect(rows()).toHaveLength(400)
  })

  it('is read newest first: the first read takes a page however long the log, the rest when a view needs it', async () => {
    const { service, config } = await renderWithService(<></>)
    await send(service, 'core/ping', {})
    const model = await takeModel(service)
    await appendToLog(
      config,
      Array.from({ length: 2500 }, (_, i) => ({ ...model!, id: i + 1, at: i })),
    )
    const client = createQueryClient()
    const first = await client.fetchQuery(exchangeLogQuery(config))
    expect(first.entries).toHaveLength(FIRST_PAGE)
    expect(first.total).toBe(2500)
    expect(first.entries.map((e) => e.at).slice(0, 2)).toEqual([2499, 2498])
    expect(first.older).toBe(first.entries.at(-1)!.id)
    await readOlder(config, client)
    const whole = client.getQueryData<LogState>(keys.exchanges(config.baseUrl))!
    expect(whole.older).toBeUndefined()
    expect(whole.entries.map((e) => e.at)).toEqual(Array.from({ length: 2500 }, (_, i) => 2499 - i))
  })

  it("shows the page's newest rows before the engine answers, and the engine's newer ones once it does", async () => {
    const { service, config } = await renderWithService(<></>)
    await send(service, 'core/ping', {})
    const model = await takeModel(service)
    // Three from an engine before this page's (a reload), one from this page's engine.
    await appendToLog(
      config,
      Array.from({ length: 3 }, (_, i) => ({ ...model!, id: i + 1, at: i })),
    )
    await send(service, 'type/string/reverse', { body: 'abc' })
    // The engine's answer waits, as the page's requests wait for its service to start.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const sent = globalThis.fetch
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (url.startsWith(`${service.baseUrl}/_account/exchanges`)) await held
      return sent(input, init)
    })
    const client = createQueryClient()
    const read = client.fetchQuery(exchangeLogQuery(config))
    await vi.waitFor(() =>
      expect(client.getQueryData<LogState>(keys.exchanges(config.baseUrl))?.entries).toHaveLength(
        3,
      ),
    )
    release()
    const log = await read
    vi.restoreAllMocks()
    expect(log.entries.map((entry) => new URL(entry.request.url).pathname)).toEqual([
      '/type/string/reverse',
      '/core/ping',
      '/core/ping',
      '/core/ping',
    ])
    expect(log.total).toBe(4)
  })

  it('says what happened to the exchange it showed when the account is reset', async () => {
    const view = await renderWithService(<Followed />)
    await send(view.service, 'type/string/reverse', { body: 'abc' })
    await waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 })
    const id = rows()[0]!.getAttribute('data-exchange-id')
    window.location.hash = `#/log?id=${id}`
    await screen.findByRole('heading', { name: new RegExp(`Exchange #${id}`) })
    await resetPlayground(view.config, view.client)
    expect((await screen.findByTestId('exchange-gone')).textContent).toMatch(
      new RegExp(
        `^Exchange #${id} was removed when the account was reset at \\d\\d:\\d\\d:\\d\\d\\. A reset empties`,
      ),
    )
  })
})
