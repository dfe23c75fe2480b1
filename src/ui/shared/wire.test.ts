import { describe, expect, it } from 'vitest'
import { startService } from '../../node'
import {
  asClient,
  asCurl,
  asFetch,
  BODY_FORMATS,
  loggedBytes,
  planCall,
  readBody,
  saidIn,
  sendPlan,
  type CallDraft,
} from './wire'

const draft = (format: CallDraft['format'], token = 'tok'): CallDraft => ({
  endpoint: 'type.string.truncate',
  token,
  format,
  accept: '',
  input: 'hello',
  args: [['length', 2]],
})

describe('planCall', () => {
  it('puts input and arguments where each format carries them', () => {
    const plans = Object.fromEntries(
      BODY_FORMATS.map((format) => [format, planCall('https://x.test', 'proc', draft(format))]),
    )
    expect(plans.text).toMatchObject({
      url: 'https://x.test/type/string/truncate?length=2',
      body: 'hello',
    })
    expect(plans.text!.headers).toEqual([
      ['content-type', 'text/plain'],
      ['authorization', 'Bearer tok'],
    ])
    expect(plans.json).toMatchObject({ body: '"hello"' })
    expect(plans.tuples).toMatchObject({
      url: 'https://x.test/type/string/truncate',
      body: '[[">>","hello"],["$$","length",2]]',
    })
    expect(plans.tuples!.headers[0]).toEqual(['content-type', 'application/vnd.proc+json'])
    expect(plans.msgpack!.body).toBeInstanceOf(Uint8Array)
    expect(plans.query).toMatchObject({ body: null, headers: [['authorization', 'Bearer tok']] })
  })

  it('gives the same answer in every body format that carries an input, through the engine', async () => {
    const service = await startService({ baseUrl: 'https://wire.example.test' })
    try {
      for (const format of ['text', 'json', 'tuples', 'msgpack'] as const) {
        const result = await sendPlan(
          planCall(service.baseUrl, 'service', draft(format, service.secret)),
        )
        const body = readBody(result.bytes, result.contentType)
        const said = saidIn(body.value, result.contentType, result.status >= 400)
        const value = 'value' in said ? said.value : (body.value ?? body.raw)
        expect([format, result.status, result.statusText, value]).toEqual([format, 200, 'OK', 'he'])
      }
      const refused = await sendPlan(planCall(service.baseUrl, 'service', draft('tuples', 'nope')))
      const body = readBody(refused.bytes, refused.contentType)
      expect([refused.statusText, saidIn(body.value, refused.contentType, true)]).toEqual([
        'Unauthorized',
        { error: 'authorization is invalid' },
      ])
    } finally {
      service.stop()
    }
  })
})

describe('the request as code', () => {
  const plan = planCall('https://x.test', 'proc', draft('tuples'))

  it('as curl, fetch and the real client', () => {
    expect(asCurl(plan)).toBe(
      [
        "curl -X POST 'https://x.test/type/string/truncate' \\",
        "  -H 'content-type: application/vnd.proc+json' \\",
        "  -H 'authorization: Bearer tok' \\",
        `  --data-binary '[[">>","hello"],["$$","length",2]]'`,
      ].join('\n'),
    )
    expect(asFetch(plan)).toContain(`body: "[[\\">>\\",\\"hello\\"],[\\"$$\\",\\"length\\",2]]",`)
    expect(asClient(draft('tuples'))).toBe(
      'await client.type.string.truncate("hello", { length: 2 })',
    )
    expect(asCurl(planCall('https://x.test', 'proc', draft('msgpack')))).toMatch(
      /^printf '\\x92\\x92\\xa2\\x3e\\x3e.*' \|\n {2}curl -X POST/s,
    )
  })
})

describe('loggedBytes', () => {
  it('reads the log’s text and base64 bodies back into bytes', () => {
    const text = { encoding: 'text', data: 'é', bytes: 2, truncated: false } as const
    const binary = { encoding: 'base64', data: 'kZKiPj4B', bytes: 6, truncated: false } as const
    expect([...loggedBytes(text)]).toEqual([0xc3, 0xa9])
    expect([...loggedBytes(binary)]).toEqual([0x91, 0x92, 0xa2, 0x3e, 0x3e, 0x01])
  })
})
