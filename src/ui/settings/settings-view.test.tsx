import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { getSeed } from '../shared/api'
import { listRemembered, remember, tabLog } from '../shared/page-store'
import { renderWithService } from '../../testing/render'
import SettingsView from './settings-view'

let downloads: Blob[]

beforeEach(() => {
  downloads = []
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => (downloads.push(blob), 'blob:export'),
      revokeObjectURL: () => undefined,
    }),
  )
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined)
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('SettingsView', () => {
  it('refuses a configuration the playground cannot serve, saying why', async () => {
    await renderWithService(<SettingsView />)
    fireEvent.change(screen.getByLabelText('Service name'), { target: { value: 'Not A Name' } })
    fireEvent.click(screen.getByRole('button', { name: 'Open this service' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Invalid serviceName "Not A Name": use 1 to 32 characters/,
    )
  })

  it('resets the account only once confirmed, and forgets its authorizations', async () => {
    const { service, config } = await renderWithService(<SettingsView />)
    await remember(config, ['some.token'])
    await service.createSecret()
    fireEvent.click(screen.getByRole('button', { name: 'Reset the account…' }))
    expect(await service.listSecrets()).toHaveLength(2)
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('group', { name: 'Confirm the reset' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Reset the account…' }))
    fireEvent.click(screen.getByRole('button', { name: 'Reset everything' }))
    expect((await screen.findByRole('status')).textContent).toMatch(/^The account was reset/)
    // Back to how the service started: here, with the one secret the test service starts with.
    expect((await service.listSecrets()).map((secret) => secret.key)).toEqual([service.secret])
    expect(await listRemembered(config)).toEqual([])
  })

  it('exports the account as a JSON file, warning that it holds the secrets', async () => {
    const { service } = await renderWithService(<SettingsView />)
    const button = screen.getByRole('button', { name: 'Export account' })
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /holds the account's secret keys/,
    )
    fireEvent.click(button)
    await waitFor(() => expect(downloads).toHaveLength(1))
    const exported = JSON.parse(await downloads[0]!.text()) as { secrets: Array<{ key: string }> }
    expect(exported.secrets.map((secret) => secret.key)).toEqual([service.secret])
  })

  it('imports an exported account, and says why a file is refused', async () => {
    const { service } = await renderWithService(<SettingsView />)
    const snapshot = await service.engine.account.exportSnapshot()
    await service.createSecret()
    const input = screen.getByLabelText('Import account (replaces everything)')
    const file = (name: string, text: string) =>
      new File([text], name, { type: 'application/json' })
    const replace = () =>
      fireEvent.click(screen.getByRole('button', { name: 'Replace the account' }))
    fireEvent.change(input, { target: { files: [file('broken.json', '{')] } })
    replace()
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Import failed: broken.json is not a JSON file; choose a file the export made',
    )
    fireEvent.change(input, {
      target: { files: [file('other.json', JSON.stringify({ format: 'x' }))] },
    })
    replace()
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toMatch(/^Import failed: invalid snapshot/),
    )
    expect(await service.listSecrets()).toHaveLength(2)
    fireEvent.change(input, { target: { files: [file('backup.json', JSON.stringify(snapshot))] } })
    // Nothing is replaced before the question is answered.
    const question = screen.getByRole('group', { name: 'Confirm the import' })
    expect(question.textContent).toMatch(/^Replace this account with the one in backup\.json\?/)
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('group', { name: 'Confirm the import' })).toBeNull()
    expect(await service.listSecrets()).toHaveLength(2)
    fireEvent.change(input, { target: { files: [file('backup.json', JSON.stringify(snapshot))] } })
    replace()
    expect((await screen.findByRole('status')).textContent).toBe(
      'The account was replaced by the one in backup.json.',
    )
    expect((await service.listSecrets()).map((secret) => secret.key)).toEqual([service.secret])
  })

  it('exports and imports what the page keeps, leaving out entries it cannot read', async () => {
    const { service, config } = await renderWithService(<SettingsView />)
    const minted = await fetch(`${service.baseUrl}/auth/create?abilities=core`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.secret}`, accept: 'text/plain' },
    })
    const token = await minted.text()
    await remember(config, [token])
    const [logged] = (
      (await (await fetch(`${service.baseUrl}/_account/exchanges`)).json()) as {
        exchanges: unknown[]
      }
    ).exchanges
    fireEvent.click(screen.getByRole('button', { name: 'Export account' }))
    await waitFor(() => expect(downloads).toHaveLength(1))
    const exported = JSON.parse(await downloads[0]!.text()) as {
      playground: { authorizations: Array<{ token: string }> }
    }
    expect(exported.playground.authorizations.map((saved) => saved.token)).toEqual([token])

    const file = {
      ...exported,
      playground: {
        authorizations: [...exported.playground.authorizations, { token: 42 }],
        exchanges: [logged, { id: 'not an exchange' }],
      },
    }
    fireEvent.change(screen.getByLabelText('Import account (replaces everything)'), {
      target: { files: [new File([JSON.stringify(file)], 'mine.json')] },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Replace the account' }))
    expect((await screen.findByRole('status')).textContent).toBe(
      "The account was replaced by the one in mine.json. 2 of the page's entries in it could not be read and were left out.",
    )
    expect((await listRemembered(config)).map((saved) => saved.token)).toEqual([token])
    expect((await tabLog(config)).map((entry) => entry.trace.endpoint)).toEqual(['auth.create'])
  })

  it('exports an exchange answered just before, and brings it back after a reset', async () => {
    const { service, config } = await renderWithService(<SettingsView />)
    // Sent from code, not from a view: nothing has read the engine's log since.
    await fetch(`${service.baseUrl}/auth/create?abilities=keyv.get`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.secret}`, accept: 'text/plain' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Export account' }))
    await waitFor(() => expect(downloads).toHaveLength(1))
    const exported = JSON.parse(await downloads[0]!.text()) as {
      playground: { exchanges: Array<{ trace: { endpoint: string } }> }
    }
    expect(exported.playground.exchanges.map((record) => record.trace.endpoint)).toEqual([
      'auth.create',
    ])

    fireEvent.click(screen.getByRole('button', { name: 'Reset the account…' }))
    fireEvent.click(screen.getByRole('button', { name: 'Reset everything' }))
    expect((await screen.findByRole('status')).textContent).toMatch(/^The account was reset/)
    expect(await tabLog(config)).toEqual([])
    fireEvent.change(screen.getByLabelText('Import account (replaces everything)'), {
      target: { files: [new File([await downloads[0]!.text()], 'saved.json')] },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Replace the account' }))
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'The account was replaced by the one in saved.json.',
      ),
    )
    expect((await tabLog(config)).map((entry) => entry.trace.endpoint)).toEqual(['auth.create'])
  })

  it('resets the account with a seed once confirmed, shows it, and takes it away again', async () => {
    const { service } = await renderWithService(<SettingsView />)
    const seedNow = () => screen.getByTestId('seed-now').textContent
    await waitFor(() => expect(seedNow()).toMatch(/^No seed/), { timeout: 3000 })
    fireEvent.change(screen.getByLabelText('Seed (empty for none)'), {
      target: { value: 'checkout-42' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Reset with this seed…' }))
    expect(await getSeed(service.baseUrl)).toEqual({ seed: null })
    const confirm = screen.getByRole('group', { name: 'Confirm the reset with a seed' })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Reset with the seed' }))
    expect((await screen.findByRole('status', {}, { timeout: 3000 })).textContent).toBe(
      'The account was reset with seed “checkout-42”.',
    )
    expect(await getSeed(service.baseUrl)).toEqual({ seed: 'checkout-42' })
    await waitFor(() => expect(seedNow()).toMatch(/^Seed “checkout-42”/), { timeout: 3000 })

    fireEvent.change(screen.getByLabelText('Seed (empty for none)'), { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Reset with this seed…' }))
    fireEvent.click(screen.getByRole('button', { name: 'Reset with the seed' }))
    await waitFor(() => expect(seedNow()).toMatch(/^No seed/), { timeout: 3000 })
    expect(await getSeed(service.baseUrl)).toEqual({ seed: null })
  })

  it('answers a seed the engine refuses, and changes nothing', async () => {
    const { service } = await renderWithService(<SettingsView />)
    const secrets = await service.listSecrets()
    fireEvent.change(screen.getByLabelText('Seed (empty for none)'), {
      target: { value: 'a\u0007bell' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Reset with this seed…' }))
    fireEvent.click(screen.getByRole('button', { name: 'Reset with the seed' }))
    expect((await screen.findByRole('alert', {}, { timeout: 3000 })).textContent).toMatch(/seed/)
    expect(await getSeed(service.baseUrl)).toEqual({ seed: null })
    expect(await service.listSecrets()).toEqual(secrets)
  })
})
