import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Service } from '../../node'
import { remember } from '../shared/page-store'
import { renderWithService } from '../../testing/render'
import KeyvView from './keyv-view'

// Role queries skip jsdom's costly visibility checks: nothing in this view is hidden by CSS.
configure({ defaultHidden: true })

/** Calls an endpoint of the service directly, with tuples, as a client would. */
async function call(service: Service, endpoint: string, args: object, token = service.secret) {
  const response = await fetch(`${service.baseUrl}/${endpoint.replaceAll('.', '/')}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `application/vnd.${service.serviceName}+json`,
    },
    body: JSON.stringify(Object.entries(args).map(([name, value]) => ['$$', name, ['%%', value]])),
  })
  const [[marker, value]] = (await response.json()) as [[string, unknown]]
  if (marker !== '<<') throw new Error(`${endpoint}: ${JSON.stringify(value)}`)
  return value
}

const set = (service: Service, bucket: string, key: string, value: unknown) =>
  call(service, 'keyv.set', { bucket, key, value })

const bucketButton = (name: RegExp) =>
  within(screen.getByRole('list', { name: 'Buckets' })).findByRole('button', { name })

const keyNames = () => screen.queryAllByTestId('key-row').map((row) => row.getAttribute('data-key'))

// Generous: these run on machines shared with other suites.
describe('KeyvView', { timeout: 20_000 }, () => {
  it('lists the buckets with their counts of keys', async () => {
    const { service } = await renderWithService(<KeyvView />)
    expect(await screen.findByText(/No buckets yet/)).toBeTruthy()
    await set(service, 'users', 'alice', 1)
    await set(service, 'users', 'bob', 2)
    await set(service, 'default', 'k', 3)
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    fireEvent.click(screen.getByRole('button', { name: 'Open' }))
    await screen.findByRole('alert')
    fireEvent.change(screen.getByLabelText('Open a bucket by name'), {
      target: { value: 'users' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Open' }))
    const users = await bucketButton(/^users/)
    expect(users.textContent).toBe('users2 keys')
    expect(users.getAttribute('aria-current')).toBe('true')
    expect((await bucketButton(/^default/)).textContent).toBe('default1 key')
    await waitFor(() => expect(keyNames()).toEqual(['alice', 'bob']))
  })

  it('pages through more keys than a page holds, and back to the first', async () => {
    const { service } = await renderWithService(<KeyvView />)
    const keys = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}`)
    for (const key of keys) await set(service, 'big', key, key)
    window.location.hash = '#/keyv?bucket=big'
    await waitFor(() => expect(keyNames()).toEqual(keys.slice(0, 25)))
    expect(screen.getByText(/Page 1/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(keyNames()).toEqual(keys.slice(25)))
    expect(screen.getByText(/Page 2/)).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', true)
    fireEvent.click(screen.getByRole('button', { name: 'First page' }))
    await waitFor(() => expect(keyNames()).toEqual(keys.slice(0, 25)))

    fireEvent.change(screen.getByLabelText('Only keys starting with'), { target: { value: 'k2' } })
    await waitFor(() => expect(keyNames()).toEqual(keys.slice(20, 30)))
    expect(screen.queryByRole('navigation', { name: 'Pages of keys' })).toBeNull()
    expect(window.location.hash).toBe('#/keyv?bucket=big&prefix=k2')
  })

  it('shows a value as pretty JSON on demand', async () => {
    const { service } = await renderWithService(<KeyvView />)
    await set(service, 'users', 'alice', { name: 'Alice', tags: ['a'] })
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Show value of alice' }))
    const value = await screen.findByTestId('key-value')
    expect(value.textContent).toBe(JSON.stringify({ name: 'Alice', tags: ['a'] }, null, 2))
    fireEvent.click(screen.getByRole('button', { name: 'Hide value of alice' }))
    expect(screen.queryByTestId('key-value')).toBeNull()
  })

  it('adds, edits and deletes a key over the wire', async () => {
    const { service } = await renderWithService(<KeyvView />)
    await screen.findByText(/No keys in default yet/)
    fireEvent.change(screen.getByLabelText('Key'), { target: { value: 'carol' } })
    // A value that looks like a call stays data.
    fireEvent.change(screen.getByLabelText('Value (JSON or text)'), {
      target: { value: '["()", "core.ping"]' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }))
    expect((await screen.findByRole('status')).textContent).toMatch(
      /^Saved carol in default\. Next: compose an authorization/,
    )
    await waitFor(() => expect(keyNames()).toEqual(['carol']))
    expect((await bucketButton(/^default/)).textContent).toBe('default1 key')
    expect(await call(service, 'keyv.get', { key: 'carol' })).toEqual(['()', 'core.ping'])

    fireEvent.click(screen.getByRole('button', { name: 'Edit carol' }))
    const editor = await screen.findByLabelText('New value of carol (JSON or text)')
    expect((editor as HTMLTextAreaElement).value).toBe('[\n  "()",\n  "core.ping"\n]')
    fireEvent.change(editor, { target: { value: '{"age": 41}' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save value' }))
    await waitFor(() =>
      expect(screen.getByTestId('key-value').textContent).toBe('{\n  "age": 41\n}'),
    )
    expect(await call(service, 'keyv.get', { key: 'carol' })).toEqual({ age: 41 })

    fireEvent.click(screen.getByRole('button', { name: 'Delete carol' }))
    expect(screen.getByRole('group', { name: 'Delete carol?' }).textContent).toMatch(
      /Delete carol from default\?/,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Delete key' }))
    await screen.findByText(/No keys in default yet/)
    expect(await call(service, 'keyv.get', { key: 'carol' })).toBeNull()
    await screen.findByText(/No buckets yet/)
  })

  it('saves a value that is not JSON as the text it is, and says so; JSON stays JSON', async () => {
    const { service } = await renderWithService(<KeyvView />)
    await screen.findByText(/No keys in default yet/)
    fireEvent.change(screen.getByLabelText('Key'), { target: { value: 'note' } })
    fireEvent.change(screen.getByLabelText(/^Value/), { target: { value: 'bob/1 is back' } })
    expect(screen.getByTestId('sent-as-text').textContent).toBe(
      'Not JSON: saved as the text it is, "bob/1 is back".',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }))
    await screen.findByRole('status')
    expect(await call(service, 'keyv.get', { key: 'note' })).toBe('bob/1 is back')

    fireEvent.click(await screen.findByRole('button', { name: 'Edit note' }))
    const editor = await screen.findByLabelText(/^New value of note/)
    fireEvent.change(editor, { target: { value: '12' } })
    expect(screen.queryByTestId('sent-as-text')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Save value' }))
    await waitFor(() => expect(screen.getByTestId('key-value').textContent).toBe('12'))
    expect(await call(service, 'keyv.get', { key: 'note' })).toBe(12)
  })

  it('says where a value is not JSON, and sends nothing', async () => {
    const { service } = await renderWithService(<KeyvView />)
    await screen.findByText(/No keys in default yet/)
    fireEvent.change(screen.getByLabelText('Key'), { target: { value: 'k' } })
    const value = screen.getByLabelText('Value (JSON or text)')
    fireEvent.change(value, { target: { value: '{\n  "a": 1,\n  "b": }' } })
    expect(value.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText(/^Line 3, column 8: expected a value/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }))
    expect(document.activeElement).toBe(value)
    fireEvent.change(value, { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }))
    expect(screen.getByText(/^Write the value: text, or JSON/)).toBeTruthy()
    expect(await call(service, 'keyv.get', { key: 'k' })).toBeNull()
  })

  it('shows the engine’s message for a value over the limit', async () => {
    await renderWithService(<KeyvView />)
    await screen.findByText(/No keys in default yet/)
    fireEvent.change(screen.getByLabelText('Key'), { target: { value: 'big' } })
    fireEvent.change(screen.getByLabelText('Value (JSON or text)'), {
      target: { value: JSON.stringify('x'.repeat(200_000)) },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/^413 Content Too Large: /)
  })

  it('acts with an authorization: its bucket’s keys, and a readable 401 elsewhere', async () => {
    const { service, config, client } = await renderWithService(<KeyvView />)
    await set(service, 'users', 'alice', 1)
    await set(service, 'other', 'secret-plan', 2)
    const token = (await call(service, 'auth.create', {
      abilities: ['keyv?bucket=users'],
    })) as string
    await remember(config, [token])
    await client.invalidateQueries()
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    const select = (await screen.findByLabelText('Act with')) as HTMLSelectElement
    await waitFor(() => expect(select.options).toHaveLength(2))
    fireEvent.change(select, { target: { value: `authorization:${token}` } })
    await waitFor(() =>
      expect(document.querySelector('.token-reach')?.textContent).toMatch(
        /^This authorization reaches only: keyv\?bucket=users\. /,
      ),
    )

    fireEvent.click(await bucketButton(/^users/))
    await waitFor(() => expect(keyNames()).toEqual(['alice']))
    fireEvent.click(await bucketButton(/^other/))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe(
      "401 Unauthorized: authorization does not have the ability to access service `keyv.scan'",
    )
    expect(keyNames()).toEqual([])
  })
})

describe('KeyvView with a limited token', { timeout: 20_000 }, () => {
  it('opens the bucket and the prefix the token may reach, and lists them', async () => {
    const { service } = await renderWithService(<KeyvView />)
    await set(service, 'users', 'alice/1', 1)
    await set(service, 'users', 'bob/1', 2)
    await set(service, 'other', 'x', 3)
    const token = (await call(service, 'auth.create', {
      abilities: ['keyv?bucket=users&prefix=alice%2F'],
    })) as string
    window.location.hash = `#/keyv?token=authorization:${token}`
    await waitFor(() => expect(keyNames()).toEqual(['alice/1']))
    expect(screen.getByRole('heading', { name: 'Keys in users' })).toBeTruthy()
    expect((screen.getByLabelText('Only keys starting with') as HTMLInputElement).value).toBe(
      'alice/',
    )
    expect(screen.queryByRole('alert')).toBeNull()

    // A key outside the limit: the engine's reason, not only the wire's words.
    fireEvent.change(screen.getByLabelText('Key'), { target: { value: 'bob/2' } })
    fireEvent.change(screen.getByLabelText('Value (JSON or text)'), { target: { value: '1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }))
    const alert = await screen.findByRole('alert')
    await waitFor(() => expect(alert.textContent).toContain('outside_limit'))
    expect(alert.textContent).toContain('not bucket users with key bob/2')
  })

  it('shows invisible and bidirectional characters in names, escaped', async () => {
    const { service } = await renderWithService(<KeyvView />)
    const bucket = 'users\u202Egnp.exe'
    await set(service, bucket, 'admin', 1)
    await set(service, bucket, 'admin\u200B', 2)
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    const button = await waitFor(() => bucketButton(/^users/))
    expect(button.textContent).not.toContain('\u202E')
    expect(button.textContent).toContain('U+202E')
    await waitFor(() => expect(screen.getAllByTestId('key-row')).toHaveLength(2))
    const shown = screen
      .getAllByTestId('key-row')
      .map((row) => row.querySelector('th')!.textContent)
    expect(shown[0]).toBe('admin')
    expect(shown[1]).not.toContain('\u200B')
    expect(shown[1]).toContain('U+200B')
  })
})
