import { onlineManager } from '@tanstack/react-query'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithService } from '../../testing/render'
import SecretsView from './secrets-view'

afterEach(() => onlineManager.setOnline(true))

describe('SecretsView', () => {
  it('lists the secrets with their masked key, state and times', async () => {
    const { service } = await renderWithService(<SecretsView />)
    const [secret] = await service.listSecrets()
    const table = await screen.findByRole('table', { name: 'Secrets' })
    const row = within(table).getByRole('row', { name: new RegExp(secret!.id) })
    expect(within(row).getByTestId('secret-state').textContent).toBe('active')
    expect(within(row).getByTestId('masked-value').textContent).not.toContain(secret!.key)
    fireEvent.click(within(row).getByRole('button', { name: `Reveal the key of ${secret!.id}` }))
    expect(within(row).getByTestId('masked-value').textContent).toBe(secret!.key)
    expect(within(row).getByText('Expires never')).toBeTruthy()
  })

  it('creates secrets while the browser says it is offline: the engine is local', async () => {
    onlineManager.setOnline(false)
    const { service } = await renderWithService(<SecretsView />)
    await screen.findAllByTestId('secret-row')
    fireEvent.click(screen.getByRole('button', { name: 'Create secret' }))
    await waitFor(() => expect(screen.getAllByTestId('secret-row')).toHaveLength(2))
    expect(await service.listSecrets()).toHaveLength(2)
  })

  it('says what to do next once a secret is made', async () => {
    await renderWithService(<SecretsView />)
    await screen.findAllByTestId('secret-row')
    fireEvent.click(screen.getByRole('button', { name: 'Create secret' }))
    const next = await screen.findByTestId('secret-created')
    expect(next.textContent).toMatch(/^Created sec_\S+\. Next: compose an authorization/)
    expect(
      within(next).getByRole('link', { name: 'compose an authorization' }).getAttribute('href'),
    ).toBe('#/authorizations')
  })

  it('rolls a secret now: it expires and its replacement is listed', async () => {
    const { service } = await renderWithService(<SecretsView />)
    const [secret] = await service.listSecrets()
    const row = await screen.findByRole('row', { name: new RegExp(secret!.id) })
    fireEvent.click(within(row).getByRole('button', { name: 'Roll now' }))
    fireEvent.click(within(row).getByRole('button', { name: 'Roll it now' }))
    await waitFor(() => expect(screen.getAllByTestId('secret-row')).toHaveLength(2))
    await waitFor(() => expect(within(row).getByTestId('secret-state').textContent).toBe('expired'))
    const [rolled] = await service.listSecrets()
    expect(rolled!.state).toBe('expired')
  })

  it('rolls at a date and time, says in its own terms when it has passed, and one problem at a time', async () => {
    const { service } = await renderWithService(<SecretsView />)
    const row = (await screen.findAllByTestId('secret-row'))[0]!
    const at = within(row).getByLabelText('Roll at (UTC, 24 h)') as HTMLInputElement
    // It starts an hour ahead on the virtual clock, in UTC, 24 h, to the second.
    await waitFor(() => expect(at.value).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/))
    fireEvent.change(at, { target: { value: '2000-01-01T00:00:00' } })
    fireEvent.click(within(row).getByRole('button', { name: 'Roll at…' }))
    expect((await within(row).findByRole('alert')).textContent).toMatch(
      /^2000-01-01 00:00:00 UTC has passed on the virtual clock \(now .*\): choose a later moment, or use Roll now\.$/,
    )
    expect((await service.listSecrets())[0]!.state).toBe('active')
    fireEvent.change(at, { target: { value: '' } })
    fireEvent.click(within(row).getByRole('button', { name: 'Roll at…' }))
    await waitFor(() =>
      expect(
        within(row)
          .getAllByRole('alert')
          .map((alert) => alert.textContent),
      ).toEqual(['Give a date and time to roll at, in UTC, as 2026-11-30 14:05:00.']),
    )
    const now = await service.now()
    const inAnHour = new Date((now + 3600) * 1000).toISOString().slice(0, 19).replace('T', ' ')
    fireEvent.change(at, { target: { value: inAnHour } })
    fireEvent.click(within(row).getByRole('button', { name: 'Roll at…' }))
    await waitFor(() => expect(within(row).getByTestId('secret-state').textContent).toBe('rolling'))
    expect(within(row).queryByRole('alert')).toBeNull()
    expect((await service.listSecrets())[0]!.expiresAt).toBe(Math.floor(now + 3600))
  })

  it('shows why a request failed when nothing answers', async () => {
    const { service } = await renderWithService(<SecretsView />)
    await screen.findAllByTestId('secret-row')
    service.stop()
    fireEvent.click(screen.getByRole('button', { name: 'Create secret' }))
    const alerts = await screen.findAllByRole('alert')
    expect(alerts.map((alert) => alert.textContent).join(' ')).toMatch(/fetch failed/)
  })

  it('asks before rolling now, and rolls only once confirmed', async () => {
    const { service } = await renderWithService(<SecretsView />)
    const [secret] = await service.listSecrets()
    const row = await screen.findByRole('row', { name: new RegExp(secret!.id) })
    fireEvent.click(within(row).getByRole('button', { name: 'Roll now' }))
    const question = within(row).getByRole('group', { name: `Roll ${secret!.id} now?` })
    expect(question.textContent).toMatch(
      /Its key stops working at once; every authorization made from it elsewhere dies too/,
    )
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }))
    expect(within(row).queryByRole('group')).toBeNull()
    expect((await service.listSecrets())[0]!.state).toBe('active')
    fireEvent.click(within(row).getByRole('button', { name: 'Roll now' }))
    fireEvent.click(within(row).getByRole('button', { name: 'Roll it now' }))
    await waitFor(() => expect(screen.getAllByTestId('secret-row')).toHaveLength(2))
    expect((await service.listSecrets())[0]!.state).toBe('expired')
  })
})
