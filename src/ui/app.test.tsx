import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Service } from '../node'
import { renderWithService } from '../testing/render'
import { App } from './app'

vi.mock('./keyv/keyv-view', () => ({
  default: function Broken() {
    throw new RangeError('Invalid time value')
  },
}))

afterEach(() => vi.restoreAllMocks())

/** The whole playground over a fresh service, opened at the fragment `hash`. */
async function openApp(hash: string, prepare?: (service: Service) => Promise<void>) {
  const view = await renderWithService(<></>)
  await prepare?.(view.service)
  window.location.hash = hash
  view.rerender(<App config={view.config} />)
  return view
}

const nav = () => screen.getByRole('navigation', { name: 'Views' })
const go = (name: string) => fireEvent.click(within(nav()).getByRole('link', { name }))

/** A view's chunk loads on first use: under load that takes more than a second. */
const LAZY = { timeout: 10_000 }

/** Errors React reports for an error a boundary caught; they are expected where a view throws. */
const quietConsole = () => vi.spyOn(console, 'error').mockImplementation(() => undefined)

describe('the playground never goes blank', { timeout: 20_000 }, () => {
  it('shows a view that fails with its error and a way out, the header and the nav kept', async () => {
    quietConsole()
    await openApp('#/keyv')
    const failed = await screen.findByRole('alert', { name: 'Key-value failed' }, LAZY)
    expect(failed.textContent).toContain('RangeError: Invalid time value')
    expect(within(failed).getByRole('link', { name: 'Go to Settings' })).toBeTruthy()
    expect(screen.getByRole('region', { name: 'Virtual clock' })).toBeTruthy()
    go('Settings')
    expect(await screen.findByRole('button', { name: 'Reset the account…' }, LAZY)).toBeTruthy()
    go('Secrets')
    expect(await screen.findByRole('table', { name: 'Secrets' }, LAZY)).toBeTruthy()
  })

  it('survives times no date can hold, whatever the account answers', async () => {
    await openApp('#/secrets', async (service) => {
      const [secret] = await service.listSecrets()
      service.server.use(
        http.get(`${service.baseUrl}/_account/secrets`, () =>
          HttpResponse.json([
            { ...secret, state: 'rolling', expiresAt: 99_999_999_999_999, createdAt: -1e17 },
          ]),
        ),
      )
    })
    const row = await screen.findByTestId('secret-row', {}, LAZY)
    expect(within(row).getByTestId('secret-state').textContent).toBe('rolling')
    expect(row.textContent).toContain('99999999999999')
    // The clock bar offers the far roll as the next event, in words it can hold.
    expect(
      await screen.findByRole('button', { name: /^Next: secret .* rolls \(in .*\)$/ }, LAZY),
    ).toBeTruthy()
    go('Settings')
    expect(await screen.findByRole('button', { name: 'Reset the account…' }, LAZY)).toBeTruthy()
  })

  it('opens Procedures after Authorizations: each view reads the procedures in its own shape', async () => {
    await openApp('#/authorizations', async (service) => {
      const response = await fetch(`${service.baseUrl}/service/create`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${service.secret}`,
          'content-type': 'application/vnd.service+json',
        },
        body: JSON.stringify([
          ['$$', 'name', 'shout'],
          ['$$', 'proc', ['{}', ['()', 'type.string.upcase']]],
        ]),
      })
      expect(response.status).toBe(200)
    })
    // The composer's catalogue lists the stored procedure as an ability…
    // A view's chunk loads on first use: under load that takes more than a second.
    const slow = { timeout: 10_000 }
    // Tree items found by their names, not by role queries of the whole page, slow under load;
    // `lib` opens at once, and shows the procedure when the catalogue read gives it.
    const item = (name: string) =>
      document.querySelector<HTMLElement>(`[role="treeitem"][aria-label="${name}"]`)
    const lib = await waitFor(() => {
      const found = item('lib')
      expect(found?.getAttribute('aria-expanded')).toBe('false')
      return found!
    }, slow)
    fireEvent.keyDown(lib, { key: 'ArrowRight' })
    await waitFor(() => expect(item('lib.shout')).toBeTruthy(), slow)
    expect(screen.getByRole('treeitem', { name: 'lib.shout' })).toBe(item('lib.shout'))
    // …and Procedures then shows its whole record.
    go('Procedures')
    const card = await screen.findByTestId('procedure', {}, slow)
    expect(card.textContent).toMatch(/Created \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/)
  })

  it('says in every view when a fault is armed, not only in Settings', async () => {
    await openApp('#/console', async (service) => {
      const response = await fetch(`${service.baseUrl}/_account/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'status', status: 503, endpoint: 'core.ping', count: 2 }),
      })
      expect(response.status).toBe(200)
    })
    const banner = await screen.findByTestId('operator-banner', {}, { timeout: 10_000 })
    expect(banner.textContent).toBe(
      'Set up to change answers: a fault: 503 to core.ping with any token: the next 2 calls. Settings clears them.',
    )
    go('Secrets')
    expect(await screen.findByRole('table', { name: 'Secrets' }, { timeout: 10_000 })).toBeTruthy()
    expect(screen.getByTestId('operator-banner')).toBeTruthy()
  })

  it('lets a time to live no date can hold be typed in the composer', async () => {
    await openApp('#/authorizations?ability=core&ttl=10000000000000')
    const findings = await screen.findByRole(
      'list',
      { name: 'Before sending' },
      { timeout: 10_000 },
    )
    await waitFor(() => expect(findings.textContent).toMatch(/time to live/i))
    expect(nav()).toBeTruthy()
  })
})
