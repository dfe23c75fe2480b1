import { onlineManager, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SecretView } from '../../engine'
import { createQueryClient } from '../query-client'
import { AccountPanel } from './account-panel'

const baseUrl = 'https://api.example.test'
const now = Date.UTC(2030, 0, 1) / 1000

function secret(id: string): SecretView {
  return {
    id,
    key: `key_of_${id}`,
    createdAt: now,
    expiresAt: null,
    rolledTo: null,
    state: 'active',
  }
}

/** A tiny control plane: GET and POST secrets, GET clock; anything else is a 404. */
function fakeAccount(initial: SecretView[]) {
  const secrets = [...initial]
  const json = (value: unknown, status = 200) =>
    new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } })
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    if (url === `${baseUrl}/_account/secrets` && method === 'GET') return json(secrets)
    if (url === `${baseUrl}/_account/secrets` && method === 'POST') {
      const created = secret(`sec_${secrets.length + 1}`)
      secrets.push(created)
      return json(created)
    }
    if (url === `${baseUrl}/_account/clock` && method === 'GET') return json({ now })
    return json({ error: { message: `no route ${method} ${url}` } }, 404)
  })
}

function renderPanel() {
  const client = createQueryClient()
  return render(
    <QueryClientProvider client={client}>
      <AccountPanel baseUrl={baseUrl} />
    </QueryClientProvider>,
  )
}

describe('AccountPanel', () => {
  let fetchMock: ReturnType<typeof fakeAccount>

  beforeEach(() => {
    fetchMock = fakeAccount([secret('sec_1')])
    vi.stubGlobal('fetch', fetchMock)
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
    onlineManager.setOnline(true)
  })

  it('lists and creates secrets while the browser says it is offline: the engine is local', async () => {
    onlineManager.setOnline(false)
    renderPanel()
    await screen.findByRole('row', { name: /sec_1/ })
    fireEvent.click(screen.getByRole('button', { name: 'Create secret' }))
    expect(await screen.findByRole('row', { name: /sec_2/ })).toBeTruthy()
  })

  it('lists the secrets with their key, state and times', async () => {
    renderPanel()
    const table = await screen.findByRole('table', { name: 'Secrets' })
    const row = within(table).getByRole('row', { name: /sec_1/ })
    expect(within(row).getByText('key_of_sec_1')).toBeTruthy()
    expect(within(row).getByText('active')).toBeTruthy()
    expect(within(row).getByText('Created 2030-01-01 00:00:00 UTC')).toBeTruthy()
    expect(within(row).getByText('Expires never')).toBeTruthy()
    expect(within(row).getByRole('button', { name: 'Roll now' })).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledWith(
      `${baseUrl}/_account/secrets`,
      expect.objectContaining({ method: 'GET' }),
    )
  })

  it('creates a secret with a POST and lists it after', async () => {
    renderPanel()
    await screen.findByRole('row', { name: /sec_1/ })
    fireEvent.click(screen.getByRole('button', { name: 'Create secret' }))
    expect(await screen.findByRole('row', { name: /sec_2/ })).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledWith(
      `${baseUrl}/_account/secrets`,
      expect.objectContaining({ method: 'POST' }),
    )
    expect(screen.getAllByTestId('secret-row')).toHaveLength(2)
  })

  it('shows the error a failing control plane answers', async () => {
    fetchMock.mockImplementation(async () =>
      Response.json({ error: { message: 'the store is closed' } }, { status: 500 }),
    )
    renderPanel()
    expect((await screen.findAllByRole('alert')).map((alert) => alert.textContent)).toContain(
      'the store is closed',
    )
  })
})
