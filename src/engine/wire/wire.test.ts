import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

describe('request bodies', () => {
  it('reads text/plain as the input, and a missing content type as text', async () => {
    const plain = await h.call('type.string.reverse', {
      body: 'foo',
      contentType: 'text/plain; charset=utf-8',
    })
    expect([plain.status, plain.text]).toEqual([200, 'oof'])
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const bare = await h.call('type.string.reverse', { body: 'bar' })
    expect(bare.text).toBe('rab')
  })

  it('treats an empty text body as no input', async () => {
    const response = await h.call('core.echo', { body: '', contentType: 'text/plain' })
    expect([response.status, response.text]).toEqual([
      400,
      "service `core.echo' does not accept an undefined input",
    ])
  })

  it('reads application/json as one value, null included', async () => {
    const json = await h.call('core.echo', {
      body: '{"a":[1,null]}',
      contentType: 'application/json',
    })
    expect(json.json()).toEqual({ a: [1, null] })
    expect(json.headers.get('content-type')).toBe('application/json')
    const nullInput = await h.call('core.echo', { body: 'null', contentType: 'application/json' })
    expect([nullInput.status, nullInput.text]).toEqual([200, 'null'])
  })

  it('reads tuples: input, arguments, literals and bare values', async () => {
    const response = await h.tuples('type.string.truncate', [
      ['>>', ['%%', 'foobar']],
      ['$$', 'length', 3],
    ])
    expect(response.json()).toEqual([['<<', 'foo']])
    expect(response.headers.get('content-type')).toBe(h.vnd)
    const bare = await h.tuples('core.echo', [['>>', { nested: ['()', 'not', 'a', 'call'] }]])
    expect(bare.json()).toEqual([['<<', { nested: ['()', 'not', 'a', 'call'] }]])
  })

  it('takes arguments from the query string for every content type, coerced to their types', async () => {
    const text = await h.call('type.string.truncate', { body: 'foobar', query: { length: '2' } })
    expect(text.text).toBe('fo')
    const tuple = await h.tuples('type.number.add', [['>>', 2]], { query: { value: '3.5' } })
    expect(tuple.json()).toEqual([['<<', 5.5]])
  })

  it('refuses an argument given twice, or in both the query and the body', async () => {
    const both = await h.tuples(
      'type.string.truncate',
      [
        ['>>', 'abc'],
        ['$$', 'length', 1],
      ],
      { query: { length: '2' } },
    )
    expect(both.status).toBe(400)
    expect(both.json()).toEqual([
      ['!!', { message: "argument `length' is given both in the query string and in the body" }],
    ])
    const twice = await h.tuples('type.string.truncate', [
      ['>>', 'abc'],
      ['$$', 'length', 1],
      ['$$', 'length', 2],
    ])
    expect(twice.json()).toEqual([
      ['!!', { message: "the body gives argument `length' more than once" }],
    ])
    const query = await h.call('type.string.truncate', { body: 'abc', query: {}, headers: {} })
    expect(query.status).toBe(400)
  })

  it.each([
    ['not JSON', '[[">>", "a"', /the body is not valid JSON/],
    ['not an array', '{"a":1}', /must be an array of tuples/],
    ['an entry that is not a tuple', '[1]', /holds 1, which is not a tuple/],
    ['a call at the top level', '[["()","core.ping"]]', /"\(\)" cannot appear in the body/],
    ['a response marker', '[[">>",["<<",1]]]', /"<<" marks a response/],
    ['two inputs', '[[">>",1],[">>",2]]', /more than one ">>" input/],
    ['an argument without a name', '[["$$","",1]]', /takes a name and a value/],
    ['a literal with two values', '[[">>",["%%",1,2]]]', /takes exactly one value/],
    ['a reference with a bad option', '[[">>",["@@","x",{"kind":1}]]]', /unknown option `kind'/],
  ])('refuses a tuple body with %s as a 400', async (_, body, message) => {
    const response = await h.call('core.echo', { body, contentType: h.vnd })
    expect(response.status).toBe(400)
    const [[marker, error]] = response.json() as [[string, { message: string }]]
    expect(marker).toBe('!!')
    expect(error.message).toMatch(message)
  })

  it('refuses invalid UTF-8 and JSON nested beyond the limit', async () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x41])
    const response = await h.send(
      new Request(`${h.baseUrl}/core/echo`, {
        method: 'POST',
        headers: { authorization: `bearer ${h.secret.key}`, 'content-type': 'text/plain' },
        body: bytes,
      }),
    )
    expect([response.status, await response.text()]).toEqual([
      400,
      'the body is not valid UTF-8 text',
    ])
    const deep = '['.repeat(300) + ']'.repeat(300)
    const nested = await h.call('core.echo', { body: deep, contentType: 'application/json' })
    expect(nested.status).toBe(400)
    expect(nested.json()).toEqual({ error: { message: 'the body nests deeper than 256 levels' } })
  })

  it('refuses unsupported content types with 415', async () => {
    const response = await h.call('core.ping', {
      body: 'a=1',
      contentType: 'application/x-www-form-urlencoded',
    })
    expect(response.status).toBe(415)
    expect(response.text).toBe(
      "content type `application/x-www-form-urlencoded' is not supported; use text/plain, application/json, application/vnd.service+json or application/vnd.service+msgpack",
    )
  })

  it('refuses bodies over 131072 bytes with 413, and accepts one at the limit', async () => {
    const over = await h.call('type.string.length', { body: 'a'.repeat(131073) })
    expect([over.status, over.text]).toEqual([
      413,
      'request size exceeded the allowed 131072 bytes',
    ])
    const at = await h.call('type.string.length', { body: 'a'.repeat(131072) })
    expect([at.status, at.text]).toEqual([200, '131072'])
  })
})

describe('responses', () => {
  it('answers in the format the accept header asks for', async () => {
    const asJson = await h.tuples('type.string.reverse', [['>>', 'ab']], {
      accept: 'application/json',
    })
    expect([asJson.text, asJson.headers.get('content-type')]).toEqual(['"ba"', 'application/json'])
    const asText = await h.call('core.echo', {
      body: '[1,2]',
      contentType: 'application/json',
      accept: 'text/plain',
    })
    expect(asText.text).toBe('[1,2]')
    const asTuples = await h.call('type.string.reverse', { body: 'ab', accept: h.vnd })
    expect(asTuples.json()).toEqual([['<<', 'ba']])
    const ranked = await h.call('core.ping', {
      accept: 'text/html, application/json;q=0.5, text/plain;q=0.9',
    })
    expect(ranked.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const wildcard = await h.call('core.ping', { contentType: 'application/json', accept: '*/*' })
    expect(wildcard.headers.get('content-type')).toBe('application/json')
  })

  it('shapes errors per format', async () => {
    const text = await h.call('nope.nope', { accept: 'text/plain' })
    expect([text.status, text.text]).toEqual([404, "undefined service `nope.nope'"])
    const json = await h.call('nope.nope', { accept: 'application/json' })
    expect(json.json()).toEqual({ error: { message: "undefined service `nope.nope'" } })
    const tuples = await h.call('nope.nope', { accept: h.vnd })
    expect(tuples.json()).toEqual([['!!', { message: "undefined service `nope.nope'" }]])
  })

  it('sends x-rate-limit on success', async () => {
    const response = await h.call('core.ping')
    expect(response.headers.get('x-rate-limit')).toBe('20;window=60')
  })
})

describe('routing', () => {
  it('answers 404 for an empty path, a package, or an unknown name', async () => {
    expect((await h.call('')).text).toBe("undefined service `'")
    const pkg = await h.call('type')
    expect(pkg.status).toBe(404)
    expect(pkg.text).toMatch(/^undefined service `type'; try one of: `type\.array', /)
    const unknown = await h.call('foo.bar.baz')
    expect([unknown.status, unknown.text]).toEqual([404, "undefined service `foo.bar.baz'"])
  })

  it('answers 405 with allow: POST to other methods', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await h.call('core.ping', { method })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('POST')
    }
  })

  it('checks method, then size, then credentials, then the content type', async () => {
    const odd = { contentType: 'image/png', body: 'x' }
    expect((await h.call('core.ping', { ...odd, method: 'PUT' })).status).toBe(405)
    expect((await h.call('core.ping', { ...odd, body: 'x'.repeat(131073) })).status).toBe(413)
    expect((await h.call('core.ping', { ...odd, token: null })).status).toBe(401)
    expect((await h.call('core.ping', odd)).status).toBe(415)
  })

  it('answers CORS preflights so browsers can call the HTTP server', async () => {
    const response = await h.call('core.ping', { method: 'OPTIONS', token: null })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization')
  })

  it('grants no other origin the control plane: no CORS preflight, no CORS headers', async () => {
    const preflight = await h.send(
      new Request(`${h.baseUrl}/_account/secrets`, {
        method: 'OPTIONS',
        headers: { origin: 'https://elsewhere.test', 'access-control-request-method': 'POST' },
      }),
    )
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull()
    const exported = await h.send(new Request(`${h.baseUrl}/_account/export`))
    expect(exported.status).toBe(200)
    expect([...exported.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([])
    // Endpoint calls keep answering any origin: they need a token.
    const call = await h.call('core.ping')
    expect(call.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('refuses a control-plane POST that is not application/json, as a no-cors form would send', async () => {
    for (const contentType of [undefined, 'text/plain', 'application/x-www-form-urlencoded']) {
      const response = await h.send(
        new Request(`${h.baseUrl}/_account/reset`, {
          method: 'POST',
          ...(contentType ? { headers: { 'content-type': contentType } } : {}),
          body: '{}',
        }),
      )
      expect(response.status).toBe(415)
      expect(await response.json()).toEqual({
        error: {
          message: expect.stringMatching(
            /^the account control plane reads JSON: send the body with content-type: application\/json/,
          ),
        },
      })
    }
    expect((await h.control('secrets')).body).toHaveLength(1)
  })

  it('holds control-plane bodies to the body limit, all but an import', async () => {
    const big = JSON.stringify({ key: 'x'.repeat(200_000) })
    const response = await h.send(
      new Request(`${h.baseUrl}/_account/secrets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: big,
      }),
    )
    expect(response.status).toBe(413)
  })

  it('refuses a base URL that is not absolute, saying so', async () => {
    await expect(createHarness({ baseUrl: 'api.test' })).rejects.toThrow(
      'baseUrl "api.test" must be an absolute URL, such as https://api.example.test',
    )
  })

  it('uses the service name in content type, errors and messages', async () => {
    const proc = await createHarness({ serviceName: 'proc', baseUrl: 'https://proc.run' })
    const response = await proc.call('foo.bar.baz', { accept: 'application/vnd.proc+json' })
    expect(response.json()).toEqual([['!!', { message: "undefined proc `foo.bar.baz'" }]])
    const echo = await proc.tuples('core.echo', [])
    expect(echo.json()).toEqual([
      ['!!', { message: "proc `core.echo' does not accept an undefined input" }],
    ])
    const old = await proc.call('core.ping', {
      contentType: 'application/vnd.service+json',
      body: '[]',
    })
    expect(old.status).toBe(415)
  })

  it('serves a base URL with a path, and nothing outside it', async () => {
    const v1 = await createHarness({ baseUrl: 'https://api.example.test/v1/' })
    expect((await v1.call('core.ping')).text).toBe('true')
    const outside = await v1.engine.handle(
      new Request('https://api.example.test/core/ping', { method: 'POST' }),
    )
    expect(outside.status).toBe(404)
  })
})
