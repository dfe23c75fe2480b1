import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import KeyvView from './keyv-view'
import { scanReach } from './reach'

configure({ defaultHidden: true })

async function call(service: Service, endpoint: string, args: object) {
  const response = await fetch(`${service.baseUrl}/${endpoint.replaceAll('.', '/')}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${service.secret}`,
      'content-type': 'application/vnd.service+json',
    },
    body: JSON.stringify(Object.entries(args).map(([name, value]) => ['$$', name, ['%%', value]])),
  })
  const [[, value]] = (await response.json()) as [[string, unknown]]
  return value
}

const count = async (bucket: string) => {
  const list = await screen.findByRole('list', { name: 'Buckets' })
  const button = await within(list).findByRole('button', { name: new RegExp(`^${bucket}`) })
  return within(button).getByTestId('bucket-count').textContent
}

describe("a bucket's count, as the token acting sees it", { timeout: 20_000 }, () => {
  it('counts only the keys a limited authorization reaches, and says when it reaches none', async () => {
    const { service } = await renderWithService(<KeyvView />)
    for (const key of ['alice/1', 'alice/2', 'bob/1']) {
      await call(service, 'keyv.set', { bucket: 'users', key, value: 1 })
    }
    for (const key of ['a', 'b'])
      await call(service, 'keyv.set', { bucket: 'orders', key, value: 1 })
    const token = (await call(service, 'auth.create', {
      abilities: ['keyv.scan?bucket=users&prefix=alice%2F', 'keyv.get'],
    })) as string
    window.location.hash = '#/keyv'
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    await waitFor(async () => expect(await count('users')).toBe('3 keys'))
    window.location.hash = `#/keyv?token=authorization:${token}`
    await waitFor(async () => expect(await count('users')).toBe('2 of 3 keys reachable'))
    expect(await count('orders')).toBe('2 keys, none reachable with this token')
  })

  it('reads the scan limits as the engine does', () => {
    expect(scanReach(undefined, 'users')).toEqual({ kind: 'all' })
    expect(scanReach(['keyv'], 'users')).toEqual({ kind: 'all' })
    expect(scanReach(['keyv.get'], 'users')).toEqual({ kind: 'none' })
    expect(scanReach(['keyv?bucket=users'], 'users')).toEqual({ kind: 'all' })
    expect(scanReach(['keyv?bucket=users'], 'orders')).toEqual({ kind: 'none' })
    expect(
      scanReach(
        ['keyv.scan?prefix=a', 'keyv.scan?prefix=ab', 'keyv?bucket=users&prefix=b'],
        'users',
      ),
    ).toEqual({ kind: 'prefixes', prefixes: ['a', 'b'] })
  })
})
