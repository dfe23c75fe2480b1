import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listening, post, serve, stopAll } from '../../testing/serve-process'

afterAll(stopAll)

describe('serve for a team of test workers', () => {
  const SECRET = 'team-secret-0123456789'
  let url: string
  let dir: string
  let control: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'serve-accounts-'))
    url = await listening(
      serve([
        '--port',
        '0',
        '--secret',
        SECRET,
        '--journal',
        '50',
        '--control-token-file',
        join(dir, 'control-token'),
      ]),
    )
    control = (await readFile(join(dir, 'control-token'), 'utf8')).trim()
  }, 35_000)
  afterAll(() => rm(dir, { recursive: true, force: true }))

  const controlPlane = (base: string, path: string, body?: unknown, token = control) =>
    fetch(`${base}/_account/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })

  it('writes the control token it made to --control-token-file', async () => {
    expect(control).toMatch(/^ct_[A-Za-z0-9_-]{32}$/)
    expect((await controlPlane(url, 'secrets')).status).toBe(200)
  })

  it('keeps its --secret through POST /_account/reset, and journals with --journal', async () => {
    await post(`${url}/core/ping`, SECRET, '')
    const journal = (await (await controlPlane(url, 'exchanges')).json()) as {
      capacity: number
      exchanges: unknown[]
    }
    expect(journal.capacity).toBe(50)
    expect(journal.exchanges.length).toBeGreaterThan(0)
    expect((await controlPlane(url, 'reset', {})).status).toBe(200)
    const ping = await post(`${url}/core/ping`, SECRET, '')
    expect([ping.status, await ping.text()]).toEqual([200, 'true'])
  })

  it('gives each worker an account of its own, with the same journal setting', async () => {
    const made = await fetch(`${url}/_accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${control}` },
    })
    const account = (await made.json()) as { baseUrl: string; secret: string; controlToken: string }
    expect((await post(`${account.baseUrl}/core/ping`, account.secret, '')).status).toBe(200)
    expect((await post(`${account.baseUrl}/core/ping`, SECRET, '')).status).toBe(401)
    const journal = await controlPlane(
      account.baseUrl,
      'exchanges',
      undefined,
      account.controlToken,
    )
    expect(((await journal.json()) as { capacity: number }).capacity).toBe(50)
  })
})
