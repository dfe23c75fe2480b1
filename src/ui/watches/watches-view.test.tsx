import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import { remember } from '../shared/page-store'
import type { PlaygroundConfig } from '../shared/config'
import WatchesView from './watches-view'

/** An authorization the page remembers, as its log reader would. */
async function mint(service: Service, config: PlaygroundConfig, abilities: string[], ttl?: number) {
  const token = await service.authorize(abilities, ttl === undefined ? {} : { ttl })
  await remember(config, [token])
  return token
}

const watches = () => screen.queryAllByTestId('watch')
const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })

describe('Watches', { timeout: 30_000 }, () => {
  it('pins what a token can and cannot do, and says when a change turns it', async () => {
    const view = await renderWithService(<WatchesView />)
    const { service, config, client } = view
    const token = await mint(service, config, ['keyv.get?bucket=users&prefix=alice/'], 600)
    await client.invalidateQueries()
    await screen.findByText(/No watch yet/, {}, { timeout: 10_000 })
    const menu = screen.getByLabelText('Token') as HTMLSelectElement
    await waitFor(() =>
      expect([...menu.options].map((o) => o.value)).toContain(`authorization:${token}`),
    )
    fill('Token', `authorization:${token}`)
    fill('Bucket', 'users')
    fill('Key', 'alice/1')
    fireEvent.click(screen.getByRole('button', { name: 'Pin the watch' }))
    await waitFor(() => expect(watches()).toHaveLength(1), { timeout: 10_000 })
    fill('Key', 'bob/1')
    fireEvent.click(screen.getByRole('button', { name: 'Pin the watch' }))
    await waitFor(() => expect(watches()).toHaveLength(2), { timeout: 10_000 })
    const [alice, bob] = watches()
    expect(alice!.dataset.holds).toBe('true')
    expect(alice!.textContent).toMatch(
      /^✓ holds the authorization \[keyv\.get\?bucket=users&prefix=alice\/\] can call keyv\.get\(bucket: "users", key: "alice\/1"\)/,
    )
    expect(bob!.dataset.holds).toBe('false')
    expect(within(bob!).getByTestId('watch-result').textContent).toMatch(
      /401 Unauthorized, refused \(outside_limit\)/,
    )
    // The fix starts from the watched token.
    const fix = within(bob!).getByTestId('compose-fix').getAttribute('href')!
    expect(new URLSearchParams(fix.split('?')[1]).getAll('ability')).toEqual([
      'keyv.get?bucket=users',
    ])
    expect(screen.getByTestId('watch-count').textContent).toMatch(/^1 of 2 does not hold/)
    expect(screen.getByText('Watches').closest('section')!.textContent).not.toContain(token)

    // What could never be a watch is refused with the engine's words, and nothing is pinned.
    fill('Key', '')
    fireEvent.click(screen.getByRole('button', { name: 'Pin the watch' }))
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toMatch(
      /^The watch was not pinned: a watch's call must be one `keyv\.get' accepts.*invalid argument `key'/,
    )
    fill('Endpoint', 'no.such')
    fireEvent.click(screen.getByRole('button', { name: 'Pin the watch' }))
    await waitFor(
      () =>
        expect(screen.getByRole('alert').textContent).toBe(
          "The watch was not pinned: undefined service `no.such'",
        ),
      { timeout: 10_000 },
    )
    expect(watches()).toHaveLength(2)

    // Kept with the account: the export carries them.
    const exported = (await (await fetch(`${service.baseUrl}/_account/export`)).json()) as {
      meta: { watches?: unknown[] }
    }
    expect(exported.meta.watches).toHaveLength(2)

    // The clock passes the token's expiry: asked again, the first no longer holds.
    await service.advanceClock(601)
    await client.invalidateQueries()
    await waitFor(() => expect(watches()[0]!.dataset.holds).toBe('false'), { timeout: 10_000 })
    expect(within(watches()[0]!).getByTestId('watch-result').textContent).toMatch(/\(expired\)/)
    fireEvent.click(within(watches()[1]!).getByRole('button', { name: /^Remove the watch/ }))
    await waitFor(() => expect(watches()).toHaveLength(1), { timeout: 10_000 })
  })
})
