import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type Service } from '../node'
import { tuplesRequest } from '../testing/tuples'
import { checkReceived } from './received-check'

const BASE = 'https://journal-filters.example.test'

describe('toHaveReceived cannot pass by mistake', () => {
  let service: Service
  beforeAll(async () => {
    service = await startService({ baseUrl: BASE })
    await fetch(
      tuplesRequest(BASE, 'keyv.set', service.secret, [
        ['$$', 'bucket', 'users'],
        ['$$', 'key', 'alice/1'],
        ['$$', 'value', { name: 'Alice', at: 1234 }],
      ]),
    )
    await fetch(
      new Request(`${BASE}/core/echo`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${service.secret}`,
          'content-type': 'application/json',
          'x-request-id': 'req-42',
        },
        body: '{"hello":"world"}',
      }),
    )
  })
  afterAll(() => service.stop())

  it('refuses keys it does not read, naming those it does', () => {
    const requests = service.requests()
    expect(() => checkReceived(requests, 'keyv.set', { time: 1 } as never)).toThrow(
      /unknown key `time'; it reads times, atLeast, atMost, status, token, format, args, input, fault, headers, body/,
    )
    expect(() => checkReceived(requests, 'keyv.set', { times: -1 })).toThrow(/whole number/)
  })

  it('picks faulted requests by kind, or by the status a status fault answered', async () => {
    service.fault({ kind: 'network', endpoint: 'core.ping' })
    await fetch(`${BASE}/core/ping`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.secret}` },
    }).catch(() => undefined)
    service.fault({ status: 503, endpoint: 'core.ping' })
    await fetch(`${BASE}/core/ping`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.secret}` },
    })
    const requests = service.requests()
    expect(
      checkReceived(requests, 'core.ping', { fault: 'network', status: 0, times: 1 }).pass,
    ).toBe(true)
    expect(checkReceived(requests, 'core.ping', { fault: '503', times: 1 }).pass).toBe(true)
    const missed = checkReceived(requests, 'core.ping', { fault: 'hang' })
    expect(missed.pass).toBe(false)
    expect(missed.message).toMatch(
      /^expected at least 1 request\(s\) to core.ping met by a hang fault, received 0/,
    )
    expect(missed.message).toContain('fault: expected "hang", received "network"')
  })

  it('lets asymmetric matchers stand anywhere inside args and input', () => {
    const requests = service.requests()
    expect(
      checkReceived(requests, 'keyv.set', {
        args: {
          key: expect.stringMatching(/^alice\//),
          value: expect.objectContaining({ at: expect.any(Number) }),
        },
      }).pass,
    ).toBe(true)
    expect(
      checkReceived(requests, 'keyv.set', {
        args: { value: expect.objectContaining({ at: expect.any(String) }) },
      }).pass,
    ).toBe(false)
    expect(
      checkReceived(requests, 'core.echo', { input: { hello: expect.any(String) } }).pass,
    ).toBe(true)
  })

  it('filters by request headers and the raw body', () => {
    const requests = service.requests()
    expect(
      checkReceived(requests, 'core.echo', { headers: { 'X-Request-Id': 'req-42' } }).pass,
    ).toBe(true)
    expect(
      checkReceived(requests, 'core.echo', { headers: { 'x-request-id': /^req-\d+$/ } }).pass,
    ).toBe(true)
    expect(
      checkReceived(requests, 'core.echo', { body: expect.stringContaining('"hello"') }).pass,
    ).toBe(true)
    expect(checkReceived(requests, 'core.echo', { body: '{}' }).pass).toBe(false)
  })

  it('shows, per field of the nearest request, what was expected and what was received', () => {
    const { pass, message } = checkReceived(service.requests(), 'keyv.set', {
      status: 401,
      args: { bucket: 'admins', key: expect.stringMatching(/^bob/) },
    })
    expect(pass).toBe(false)
    expect(message).toContain('status: expected 401, received 200')
    expect(message).toContain('args.bucket: expected "admins", received "users"')
    expect(message).toMatch(/args\.key: expected StringMatching.*received "alice\/1"/)
  })
})
