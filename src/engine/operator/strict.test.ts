import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness({ strict: true })
})

const messageOf = (text: string) =>
  (JSON.parse(text) as { error: { message: string } }).error.message

describe('strict mode', () => {
  it('answers a request that keeps the interface as usual', async () => {
    const answer = await h.tuples('type.string.reverse', [['>>', 'abc']], {
      accept: 'application/json',
    })
    expect([answer.status, answer.text]).toEqual([200, '"cba"'])
  })

  it('refuses a body with no content type, saying what to send', async () => {
    // Bytes, not a string: `fetch` would label a string body text/plain by itself.
    const response = await h.send(
      new Request(`${h.baseUrl}/type/string/reverse`, {
        method: 'POST',
        headers: { authorization: `bearer ${h.secret.key}`, accept: 'application/json' },
        body: new TextEncoder().encode('abc'),
      }),
    )
    expect(response.status).toBe(400)
    expect(messageOf(await response.text())).toBe(
      'strict mode: the body has no content-type: say text/plain, application/json or application/vnd.service+json',
    )
  })

  it('refuses JSON sent as text', async () => {
    const answer = await h.call('core.echo', {
      body: '[[">>","abc"]]',
      contentType: 'text/plain',
      accept: 'application/json',
    })
    expect(answer.status).toBe(400)
    expect(messageOf(answer.text)).toMatch(/^strict mode: the body is JSON sent as text/)
  })

  it('refuses an accept no format answers with a 406', async () => {
    const answer = await h.call('core.ping', { accept: 'application/xml' })
    expect(answer.status).toBe(406)
    expect(answer.text).toMatch(/^strict mode: accept `application\/xml' names no format/)
  })

  it('refuses tuples with a marker the language does not have', async () => {
    const answer = await h.tuples('core.echo', [['>>', ['??', 1]]], { accept: 'application/json' })
    expect(answer.status).toBe(400)
    expect(messageOf(answer.text)).toMatch(
      /^strict mode: "\?\?" is not a marker of the tuple language/,
    )
  })

  it('reports every request and its deviations, and can be switched off', async () => {
    await h.tuples('core.ping', [])
    await h.call('core.ping', { accept: 'application/xml' })
    const report = (await h.control('strict')).body as {
      enabled: boolean
      requests: Array<{ url: string; deviations: string[] }>
    }
    expect(report.enabled).toBe(true)
    expect(report.requests.map((r) => r.deviations.length)).toEqual([0, 1])
    expect(report.requests[0]!.url).toBe(`${h.baseUrl}/core/ping`)
    await h.control('strict', { enabled: false })
    expect((await h.call('core.ping', { accept: 'application/xml' })).status).toBe(200)
  })

  it('is off unless asked for', async () => {
    const lenient = await createHarness()
    expect((await lenient.call('type.string.reverse', { body: 'abc' })).text).toBe('cba')
  })
})
