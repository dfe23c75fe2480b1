import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Service } from '../../node'
import ConsoleView from '../console/console-view'
import { ConfigProvider, type PlaygroundConfig } from '../shared/config'
import { remember } from '../shared/page-store'
import { renderWithService } from '../../testing/render'
import { SecretRow } from './secret-row'
import SecretsView from './secrets-view'

/** Mints an authorization with `token` and has the page remember it, as the log's reader does. */
async function mint(
  service: Service,
  config: PlaygroundConfig,
  token = service.secret,
  abilities = ['core'],
  ttl?: number,
) {
  const response = await fetch(`${service.baseUrl}/auth/create`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/vnd.service+json',
      accept: 'text/plain',
    },
    body: JSON.stringify([
      ['$$', 'abilities', abilities],
      ...(ttl === undefined ? [] : [['$$', 'ttl', ttl]]),
    ]),
  })
  const made = await response.text()
  await remember(config, [made])
  return made
}

describe('rolls', { timeout: 20_000 }, () => {
  it('says how many authorizations made here a roll kills, on the row and when asked', async () => {
    const { service, config, client } = await renderWithService(<SecretsView />)
    await mint(service, config)
    await mint(service, config)
    await client.invalidateQueries()
    const row = (await screen.findAllByTestId('secret-row'))[0]!
    await waitFor(() =>
      expect(within(row).getByTestId('secret-kills').textContent).toBe(
        '2 authorizations made here would die with it: [core], [core].',
      ),
    )
    fireEvent.click(within(row).getByRole('button', { name: 'Roll now' }))
    const question = within(row).getByRole('group', { name: /now\?$/ })
    expect(question.textContent).toContain(
      'Its key stops working at once, and with it the 2 authorizations made here that descend from it ([core], [core]);',
    )
  })

  it('names the authorizations a roll ends, and not one that expires before it', async () => {
    const { service, config, client } = await renderWithService(<SecretsView />)
    await mint(service, config, service.secret, ['keyv.get'])
    await mint(service, config, service.secret, ['type'], 600)
    await client.invalidateQueries()
    const row = (await screen.findAllByTestId('secret-row'))[0]!
    // Rolled now, both die; rolled in an hour (the moment offered), the short one is gone first.
    await waitFor(() =>
      expect(within(row).getByTestId('secret-kills').textContent).toBe(
        '2 authorizations made here would die with it: [type], [keyv.get].',
      ),
    )
    expect(within(row).getByTestId('roll-at-ends').textContent).toBe(
      '1 authorization made here dies with it: [keyv.get]; [type] expires before it, on its own.',
    )
    fireEvent.click(within(row).getByRole('button', { name: 'Roll at…' }))
    await waitFor(() =>
      expect(within(row).getByTestId('secret-kills').textContent).toBe(
        '1 authorization made here dies with it: [keyv.get]; [type] expires before it, on its own.',
      ),
    )
  })

  it('cancels a scheduled roll: the secret lives on, and nothing dies', async () => {
    const { service } = await renderWithService(<SecretsView />)
    const row = (await screen.findAllByTestId('secret-row'))[0]!
    // The moment offered is an hour ahead once the clock has been read.
    await waitFor(() =>
      expect(
        (within(row).getByLabelText('Roll at (UTC, 24 h)') as HTMLInputElement).value,
      ).not.toBe(''),
    )
    fireEvent.click(within(row).getByRole('button', { name: 'Roll at…' }))
    const slow = { timeout: 5000 }
    await waitFor(
      () => expect(within(row).getByTestId('secret-state').textContent).toBe('rolling'),
      slow,
    )
    await waitFor(() => expect(screen.getAllByTestId('secret-row')).toHaveLength(2), slow)
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel the roll' }))
    await waitFor(
      () => expect(within(row).getByTestId('secret-state').textContent).toBe('active'),
      slow,
    )
    const [kept] = await service.listSecrets()
    expect(kept).toMatchObject({ state: 'active', expiresAt: null })
    expect(within(row).queryByRole('button', { name: 'Cancel the roll' })).toBeNull()
  })

  it('holds the moment offered still once the field has the focus: the tick does not move it', async () => {
    const view = await renderWithService(<></>)
    const [secret] = await view.service.listSecrets()
    const now = 1_795_920_000
    const row = (at: number) =>
      view.rerender(
        <ConfigProvider config={view.config}>
          <QueryClientProvider client={view.client}>
            <table>
              <tbody>
                <SecretRow secret={secret!} now={at} descendants={[]} />
              </tbody>
            </table>
          </QueryClientProvider>
        </ConfigProvider>,
      )
    const field = () => screen.getByLabelText('Roll at (UTC, 24 h)') as HTMLInputElement
    row(now)
    expect(field().value).toBe('2026-11-29 03:40:00')
    // Untouched, it follows the clock; once a person is in it, what they select and type over
    // stays where it was (a value moved under a selection sends the typing to its end).
    row(now + 1)
    expect(field().value).toBe('2026-11-29 03:40:01')
    fireEvent.focus(field())
    row(now + 2)
    expect(field().value).toBe('2026-11-29 03:40:01')
  })

  it('shows only the latest problem: a refusal does not stay beside a new one', async () => {
    const { service } = await renderWithService(<SecretsView />)
    const row = (await screen.findAllByTestId('secret-row'))[0]!
    await waitFor(() =>
      expect(
        (within(row).getByLabelText('Roll at (UTC, 24 h)') as HTMLInputElement).value,
      ).not.toBe(''),
    )
    service.stop()
    fireEvent.click(within(row).getByRole('button', { name: 'Roll at…' }))
    expect((await within(row).findByRole('alert')).textContent).toMatch(/fetch failed/)
    fireEvent.change(within(row).getByLabelText('Roll at (UTC, 24 h)'), {
      target: { value: '2000-01-01T00:00:00' },
    })
    fireEvent.click(within(row).getByRole('button', { name: 'Roll at…' }))
    await waitFor(() =>
      expect(
        within(row)
          .getAllByRole('alert')
          .map((alert) => alert.textContent),
      ).toEqual([expect.stringMatching(/^2000-01-01 00:00:00 UTC has passed/)]),
    )
  })

  it('names an authorization whose secret rolled as the cards do in the token menu', async () => {
    const view = await renderWithService(<></>)
    const token = await mint(view.service, view.config)
    window.location.hash = `#/console?${new URLSearchParams({ token: `authorization:${token}` })}`
    view.rerender(
      <ConfigProvider config={view.config}>
        <QueryClientProvider client={view.client}>
          <ConsoleView />
        </QueryClientProvider>
      </ConfigProvider>,
    )
    await view.service.rollSecret((await view.service.listSecrets())[0]!.id)
    await view.client.invalidateQueries()
    const menu = screen.getByRole('combobox', { name: 'Token' }) as HTMLSelectElement
    await waitFor(() =>
      expect(menu.selectedOptions[0]!.textContent).toBe(
        'Authorization [core] (dead because its secret rolled)',
      ),
    )
    expect(screen.getByText(/This authorization is dead because its secret rolled/)).toBeTruthy()
  })
})
