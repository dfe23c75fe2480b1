import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CoverageReport, ExchangeRecord } from '../../engine'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import { ExchangeLogFollower } from '../shared/exchange-log'
import type { PageExchange } from '../shared/page-store'
import { coverageOf } from './coverage-api'
import CoverageView from './coverage-view'

const Followed = () => (
  <>
    <ExchangeLogFollower />
    <CoverageView />
  </>
)

afterEach(() => vi.restoreAllMocks())

/** A request from the test itself, as any code in the page would send it. */
function send(service: Service, name: string, token: string | null, body = '', query = '') {
  return fetch(`${service.baseUrl}/${name.replaceAll('.', '/')}${query ? `?${query}` : ''}`, {
    method: 'POST',
    headers: {
      'content-type': 'text/plain',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body,
  })
}

/** How many entries each `POST /_account/coverage` sent, from now on (and the bodies, in `bodies`). */
function watchCoverageRequests(): number[] & { bodies: string[] } {
  const sent = Object.assign([] as number[], { bodies: [] as string[] })
  const original = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    // The control client sends a Request; code in the page may send a URL and an init.
    const request = new Request(input, init)
    if (request.url.endsWith('/_account/coverage')) {
      const body = await request.clone().text()
      sent.push((JSON.parse(body) as { entries: unknown[] }).entries.length)
      sent.bodies.push(body)
    }
    return original(request)
  })
  return sent
}

const flagged = () =>
  screen.queryAllByTestId('coverage-flag').map((flag) => flag.getAttribute('data-subject'))

describe('the Coverage view', { timeout: 30_000 }, () => {
  it("counts this tab's exchanges as the engine does, and what they never exercised", async () => {
    const { service } = await renderWithService(<Followed />)
    await waitFor(() => expect(screen.getByTestId('coverage-empty')).toBeTruthy(), {
      timeout: 5000,
    })
    const token = await service.authorize(['keyv.get?bucket=users', 'core.ping'], { ttl: 60 })
    await send(service, 'keyv.get', token, 'alice', 'bucket=users')
    await send(service, 'keyv.get', token, 'alice', 'bucket=admin')
    await send(service, 'core.ping', service.secret)
    await send(service, 'type.string.reverse', token, 'x')
    // The engine's own report of the same exchanges.
    const journal = (await (await fetch(`${service.baseUrl}/_account/exchanges`)).json()) as {
      exchanges: ExchangeRecord[]
    }
    const expected = (await (
      await fetch(`${service.baseUrl}/_account/coverage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ entries: journal.exchanges }),
      })
    ).json()) as CoverageReport
    await waitFor(
      () => expect(screen.getByTestId('coverage-read').textContent).toMatch(/^From 5 calls in 5/),
      { timeout: 5000 },
    )
    expect(screen.getByTestId('coverage-percent').textContent).toBe(`${expected.score}%`)
    expect(flagged()).toEqual(expected.flags.map((flag) => flag.subject))
    expect(
      within(screen.getByTestId('flags-code_never_met'))
        .getAllByTestId('coverage-flag')
        .map((flag) => flag.getAttribute('data-subject')),
    ).toContain('expired')
    // Endpoint × credential × outcome × limit.
    const get = screen
      .getAllByTestId('coverage-endpoint')
      .find((e) => e.getAttribute('data-endpoint') === 'keyv.get')!
    const cells = within(get)
      .getAllByTestId('coverage-cell')
      .map((cell) => cell.textContent)
    expect(cells).toEqual([
      'authorizationallowed1bucket 1, expiry 1',
      'authorizationoutside_limit1bucket 1, expiry 1',
    ])
    const ping = screen
      .getAllByTestId('coverage-endpoint')
      .find((e) => e.getAttribute('data-endpoint') === 'core.ping')!
    expect(ping.textContent).toContain('only a secret key')
    const ability = screen
      .getAllByTestId('coverage-ability')
      .find((row) => row.getAttribute('data-ability') === 'core.ping')!
    const use = expected.abilities.find((a) => a.ability === 'core.ping')!
    expect(ability.textContent).toBe(`core.ping${use.minted}${use.allowed}${use.refused}`)
  })

  it('sends only the exchanges made since, as the log grows', async () => {
    const { service } = await renderWithService(<Followed />)
    // Over msw's fetch, which answers the service's requests without the fetch below it.
    const sent = watchCoverageRequests()
    await send(service, 'core.ping', service.secret)
    await send(service, 'core.ping', null)
    await waitFor(
      () => expect(screen.getByTestId('coverage-read').textContent).toMatch(/^From 2 calls/),
      { timeout: 5000 },
    )
    const before = sent.length
    await send(service, 'core.ping', service.secret)
    await waitFor(
      () => expect(screen.getByTestId('coverage-read').textContent).toMatch(/^From 3 calls/),
      { timeout: 5000 },
    )
    expect([...sent].slice(before)).toEqual([1])
    const none = screen
      .getAllByTestId('coverage-refusal')
      .find((row) => row.getAttribute('data-code') === 'missing')!
    expect(none.textContent).toMatch(/^missing.*1no$/)
  })

  it('gives the same report sent in many parts as in one, and leaves out what it cannot read', async () => {
    const { service } = await renderWithService(<div />)
    const token = await service.authorize(['type.string', 'keyv?bucket=notes'], { insecure: false })
    for (const word of ['a', 'b', 'c']) await send(service, 'type.string.reverse', token, word)
    await send(service, 'keyv.get', token, 'k', 'bucket=other')
    await send(service, 'core.ping', token)
    const journal = (await (await fetch(`${service.baseUrl}/_account/exchanges`)).json()) as {
      exchanges: ExchangeRecord[]
    }
    const exchanges = journal.exchanges
      .reverse()
      .map((record) => ({ ...record, tab: 't' }) as PageExchange)
    const whole = await coverageOf(service.baseUrl, exchanges)
    const sent = watchCoverageRequests()
    const parts = await coverageOf(service.baseUrl, exchanges, undefined, 1)
    expect([...sent]).toEqual(exchanges.map(() => 1))
    // What the tally reads, and never the token the requests carried.
    for (const body of sent.bodies) {
      expect(body).not.toContain(token)
      expect(body).not.toContain(service.secret)
    }
    expect(parts).toEqual(whole)
    expect(whole.skipped).toBe(0)
    // An entry an older page kept, in a shape the tally cannot read: left out and counted.
    const damaged = { ...exchanges[0]!, trace: { ...exchanges[0]!.trace, calls: 'none' } }
    const read = await coverageOf(service.baseUrl, [
      damaged as unknown as PageExchange,
      ...exchanges,
    ])
    expect(read).toEqual({ ...whole, skipped: 1 })
  })
})
