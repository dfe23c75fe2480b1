import { expect, test } from './fixtures'

const VND = 'application/vnd.service+json'

test('a stored procedure is created, called, updated, survives a reload and is deleted', async ({
  app,
  wire,
  account,
}) => {
  const { key: token } = await account.createSecret()
  const manage = (verb: string, body: unknown[]) =>
    wire.call(`service.${verb}`, { token, contentType: VND, body: JSON.stringify(body) })
  const shout = [
    '{}',
    ['()', 'type.string.upcase'],
    ['()', 'type.string.append', ['$$', 'value', '!']],
  ]

  const created = await manage('create', [
    ['$$', 'name', 'shout'],
    ['$$', 'proc', shout],
  ])
  expect([created.status, created.body]).toEqual([200, '[["<<",true]]'])
  expect((await wire.call('lib.shout', { token, body: 'hey' })).body).toBe('HEY!')

  const whisper = ['{}', ['()', 'type.string.downcase']]
  expect(
    (
      await manage('update', [
        ['$$', 'name', 'shout'],
        ['$$', 'proc', whisper],
      ])
    ).status,
  ).toBe(200)
  await app.reload()
  expect((await wire.call('lib.shout', { token, body: 'HEY' })).body).toBe('hey')

  const limited = await wire.call('auth.create', {
    token,
    contentType: VND,
    accept: 'text/plain',
    body: JSON.stringify([['$$', 'abilities', ['lib.shout']]]),
  })
  expect((await wire.call('lib.shout', { token: limited.body, body: 'ABC' })).body).toBe('abc')

  expect((await manage('delete', [['$$', 'name', 'shout']])).status).toBe(200)
  await app.reload()
  const gone = await wire.call('lib.shout', { token, body: 'x' })
  expect([gone.status, gone.body]).toEqual([404, "undefined service `lib.shout'"])
})

test('compositions, references and enum.map answer as real clients expect', async ({
  wire,
  account,
}) => {
  const { key: token } = await account.createSecret()
  const send = (name: string, body: unknown) =>
    wire.call(name, { token, contentType: VND, body: JSON.stringify(body) })

  const exec = await send('core.exec', [
    [
      '$$',
      'proc',
      [
        '{}',
        ['>>', ['%%', 'foo']],
        ['()', 'type.string.reverse'],
        ['()', 'type.string.capitalize'],
      ],
    ],
  ])
  expect([exec.status, exec.body]).toEqual([200, '[["<<","Oof"]]'])

  const missing = await send('type.string.truncate', [
    ['>>', ['%%', 'foo']],
    ['$$', 'length', ['@@', 'truncate_to', {}]],
  ])
  expect([missing.status, JSON.parse(missing.body)]).toEqual([
    400,
    [
      [
        '!!',
        { message: "invalid argument `truncate_to' for `type.string.truncate' (is required)" },
      ],
    ],
  ])

  const mapped = await send('enum.map', [
    ['>>', ['%%', ['foo', 'bar']]],
    ['$$', 'proc', ['{}', ['()', 'type.string.reverse']]],
  ])
  expect([mapped.status, mapped.body]).toEqual([200, '[["<<",["oof","rab"]]]'])
})

test('MessagePack bodies go through the service worker intact', async ({ app, account }) => {
  const { key: token } = await account.createSecret()
  // [[">>","abc"]] in MessagePack: fixarray(1) fixarray(2) fixstr ">>" fixstr "abc"
  const body = [0x91, 0x92, 0xa2, 0x3e, 0x3e, 0xa3, 0x61, 0x62, 0x63]
  const answer = await app.page.evaluate(
    async ({ url, token, body }) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `bearer ${token}`,
          'content-type': 'application/vnd.service+msgpack',
        },
        body: new Uint8Array(body),
      })
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        bytes: [...new Uint8Array(await response.arrayBuffer())],
      }
    },
    { url: `${app.config.baseUrl}/type/string/reverse`, token, body },
  )
  // [["<<","cba"]]
  expect(answer).toEqual({
    status: 200,
    type: 'application/vnd.service+msgpack',
    bytes: [0x91, 0x92, 0xa2, 0x3c, 0x3c, 0xa3, 0x63, 0x62, 0x61],
  })
})
