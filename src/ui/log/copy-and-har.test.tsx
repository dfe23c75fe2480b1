/**
 * The log's "Copy as test" (the exchanges as a Vitest, Jest or Playwright file, shown and put on
 * the clipboard, those before the chosen ones as its starting state) and
 * a HAR opened as a contract (the `import-har` reader, in the page).
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { createReplayHandlers } from '../../msw/replays'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import { ExchangeLogFollower } from '../shared/exchange-log'
import { toHar } from './har'
import LogView from './log-view'

const Followed = () => (
  <>
    <ExchangeLogFollower />
    <LogView />
  </>
)

/** Reverses `text` as code in the page would, with `token`. */
const reverse = (service: Service, text: string, token = service.secret) =>
  fetch(`${service.baseUrl}/type/string/reverse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    body: text,
  })

async function authorize(service: Service): Promise<string> {
  const response = await fetch(`${service.baseUrl}/auth/create`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${service.secret}`,
      'content-type': `application/vnd.${service.serviceName}+json`,
      accept: 'text/plain',
    },
    body: JSON.stringify([['$$', 'abilities', ['type.string']]]),
  })
  return response.text()
}

describe('Copy as test', { timeout: 20_000 }, () => {
  it('gives the exchanges shown as a Vitest file with the kit, tokens made in it, none pasted', async () => {
    const { service } = await renderWithService(<Followed />)
    const token = await authorize(service)
    expect(await (await reverse(service, 'abc', token)).text()).toBe('cba')
    expect((await reverse(service, 'abc', 'not-a-token')).status).toBe(401)
    await waitFor(() => expect(screen.getAllByTestId('exchange-row')).toHaveLength(3))
    fireEvent.click(screen.getByRole('button', { name: 'Copy as test' }))
    const region = await screen.findByRole('region', { name: 'Test copied' }, { timeout: 10_000 })
    expect(within(region).queryByRole('alert')).toBeNull()
    const code = within(region).getByTestId('copied-test').textContent!
    expect(code).toContain("import { useService } from 'service-playground/vitest'")
    expect(code).toContain(
      `useService({ baseUrl: "${service.baseUrl}", serviceName: "${service.serviceName}" })`,
    )
    expect(code).toContain('const auth1 = await response1.text()')
    expect(code).toContain('expect(await response2.text()).toBe("cba")')
    expect(code).toContain('expect(response3.status).toBe(401)')
    for (const secret of [token, service.secret]) expect(code).not.toContain(secret)
    expect(within(region).getByRole('status').textContent).toMatch(/replaying 3 exchanges/)
  })

  it('makes the exchanges before the chosen ones again as the starting state, for the runner chosen', async () => {
    const { service } = await renderWithService(<Followed />)
    const token = await authorize(service)
    expect(await (await reverse(service, 'abc', token)).text()).toBe('cba')
    await waitFor(() => expect(screen.getAllByTestId('exchange-row')).toHaveLength(2))
    fireEvent.click(screen.getByRole('checkbox', { name: /^Choose exchange \d+: type\.string/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Copy as test' }))
    const region = await screen.findByRole('region', { name: 'Test copied' }, { timeout: 10_000 })
    fireEvent.change(within(region).getByLabelText('Runner'), { target: { value: 'jest' } })
    await waitFor(() =>
      expect(within(region).getByRole('status').textContent).toMatch(
        /a Jest test replaying 1 exchange .*in process, the 1 before them made again as its starting state/,
      ),
    )
    const code = within(region).getByTestId('copied-test').textContent!
    expect(code).toContain("const { useService } = require('service-playground/jest')")
    // The authorization is made before the test, and the test reads it.
    expect(code).toMatch(/let auth1 = ''\n[\s\S]*beforeEach\(async \(\) => \{[\s\S]*auth1 = /)
    expect(code).toContain('authorization: `Bearer ${auth1}`')
    for (const secret of [token, service.secret]) expect(code).not.toContain(secret)
  })
})

describe('a HAR opened as a contract', { timeout: 20_000 }, () => {
  it('reads the page’s own HAR export into a contract that replays green, no token in it', async () => {
    const { service } = await renderWithService(<Followed />)
    // Replays run on a throwaway account, as the page's service worker makes them.
    service.server.use(
      ...createReplayHandlers({
        baseUrl: service.baseUrl,
        serviceName: service.serviceName,
        exchangeLog: 0,
      }),
    )
    const token = await authorize(service)
    expect(await (await reverse(service, 'hello', token)).text()).toBe('olleh')
    const { exchanges } = (await (
      await fetch(`${service.baseUrl}/_account/exchanges`, {
        headers: { authorization: `Bearer ${service.secret}` },
      })
    ).json()) as { exchanges: ExchangeRecord[] }
    const har = JSON.stringify(toHar(exchanges, service.serviceName))
    expect(har).toContain(token)
    const file = new File([har], 'session.har', { type: 'application/json' })
    fireEvent.change(screen.getByLabelText('Contract file to open'), { target: { files: [file] } })
    const panel = await screen.findByTestId('contract')
    await waitFor(() => expect(panel.getAttribute('aria-busy')).toBe('false'), { timeout: 10_000 })
    expect(within(panel).queryByTestId('contract-error')).toBeNull()
    expect(within(panel).getByRole('heading').textContent).toBe('Contract session.contract.json')
    fireEvent.click(within(panel).getByRole('button', { name: /^Replay/ }))
    await waitFor(
      () =>
        expect(within(panel).getByRole('status').textContent, panel.textContent!).toMatch(
          /1 passed, 0 differ/,
        ),
      {
        timeout: 15_000,
      },
    )
  })
})
