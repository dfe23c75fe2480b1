import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
let host: string
beforeEach(async () => {
  h = await createHarness({ serviceName: 'proc' })
  host = new URL(h.baseUrl).host
})

/** `core.exec` of `core.compile` then `core.deploy`, as the command-line tool sends it. */
const deploy = (
  code: string,
  { release = false, args = [] as unknown[], token = h.secret.key } = {},
) =>
  h.tuples(
    'core.exec',
    [
      [
        '$$',
        'proc',
        [
          '{}',
          ['()', 'core.compile', ['$$', 'code', ['%%', code]], ['$$', 'lang', ['%%', 'rb']]],
          ['()', 'core.deploy', ['$$', 'release', release]],
        ],
      ],
      ...args,
    ],
    { accept: 'application/json', token },
  )

const call = async (name: string, input: string) => {
  const response = await h.call(name, { body: input, accept: 'text/plain' })
  return `${response.status} ${response.text}`
}

const shout = 'proc(name: "shout") { type.string.upcase }'
const whisper = 'proc(name: "shout") { type.string.downcase }'

describe('deploying to the dev stage and releasing', () => {
  it('a deploy goes to the dev stage, which lib.<name> calls while nothing is released', async () => {
    const response = await deploy(shout)
    expect([response.status, response.json()]).toEqual([
      200,
      [{ status: 'ok', type: 'proc', name: 'shout', link: `${host}/lib/shout:dev` }],
    ])
    expect(await call('lib.shout:dev', 'hi')).toBe('200 HI')
    expect(await call('lib.shout', 'hi')).toBe('200 HI')
  })

  it('a release is what lib.<name> calls; a later dev deploy is only at :dev', async () => {
    expect((await deploy(shout, { release: true })).json()).toEqual([
      { status: 'ok', type: 'proc', name: 'shout', link: `${host}/lib/shout` },
    ])
    expect(await call('lib.shout:dev', 'Hi')).toBe('200 HI')
    await deploy(whisper)
    expect(await call('lib.shout', 'Hi')).toBe('200 HI')
    expect(await call('lib.shout:dev', 'Hi')).toBe('200 hi')
    // Releasing again makes both stages the release.
    await deploy(whisper, { release: true })
    expect(await call('lib.shout', 'Hi')).toBe('200 hi')
    const records = (await h.control('procedures')).body as Array<{ name: string }>
    expect(records.map((record) => record.name)).toEqual(['shout'])
  })

  it('a block releases itself with release: true, or the text "true" an argument brings', async () => {
    const code = 'proc(name: "shout", release: arg(:live)) { type.string.upcase }'
    const live = await deploy(code, { args: [['$$', 'live', 'true']] })
    expect(live.json()).toEqual([
      { status: 'ok', type: 'proc', name: 'shout', link: `${host}/lib/shout` },
    ])
    for (const value of ['false', null, false]) {
      const dev = await deploy(code, { args: [['$$', 'live', value]] })
      expect((dev.json() as Array<{ link: string }>)[0]!.link).toBe(`${host}/lib/shout:dev`)
    }
    const odd = await deploy(code, { args: [['$$', 'live', 42]] })
    expect(odd.json()).toEqual([
      {
        status: 'failed',
        type: 'proc',
        name: 'shout',
        error:
          "invalid argument `release' for `proc.deploy' (given value could not be coerced into the defined type)",
      },
    ])
  })

  it('the name may come from an argument; without one the block fails alone, its name null', async () => {
    const code = 'proc(name: :name) { core.echo }'
    expect((await deploy(code, { args: [['$$', 'name', 'from_arg']] })).json()).toEqual([
      { status: 'ok', type: 'proc', name: 'from_arg', link: `${host}/lib/from_arg:dev` },
    ])
    expect((await deploy(code)).json()).toEqual([
      {
        status: 'failed',
        type: 'proc',
        name: null,
        error: "invalid argument `name' for `core.deploy' (is required)",
      },
    ])
    expect((await deploy('proc(name: "bad name") { core.echo }')).json()).toEqual([
      {
        status: 'failed',
        type: 'proc',
        name: 'bad name',
        error:
          "invalid argument `name' for `proc.deploy' (must contain only alphanumeric characters; `.' and `_' are allowed)",
      },
    ])
  })
})

describe('core.deploy of a program', () => {
  it('runs exec blocks and deploys procedures in order, stopping at the first failure', async () => {
    const code = [
      'exec { keyv.set(bucket: "b", key: "first", value: 1) .| core.echo("started") }',
      'proc(name: "one") { core.echo }',
      'exec { keyv.set(bucket: "b", key: "failing", value: 2) .| type.string.reverse(7) }',
      'proc(name: "two") { core.echo }',
    ].join('\n')
    const response = await deploy(code)
    expect([response.status, response.json()]).toEqual([
      200,
      [
        { status: 'ok', type: 'exec', output: 'started' },
        { status: 'ok', type: 'proc', name: 'one', link: `${host}/lib/one:dev` },
        {
          status: 'failed',
          type: 'exec',
          error: "proc `type.string.reverse' does not accept the given input",
        },
      ],
    ])
    const get = (key: string) =>
      h.tuples(
        'keyv.get',
        [
          ['$$', 'bucket', 'b'],
          ['$$', 'key', key],
        ],
        { accept: 'application/json' },
      )
    // What came before the failure is kept; the failing block's own write is undone.
    expect((await get('first')).json()).toBe(1)
    expect((await get('failing')).json()).toBe(null)
    expect(await call('lib.one', 'x')).toBe('200 x')
    expect((await call('lib.two', 'x')).startsWith('404')).toBe(true)
  })

  it('a program with nothing to deploy is a 400, and nothing in it runs', async () => {
    const response = await deploy('exec { keyv.set(bucket: "b", key: "k", value: 1) }')
    expect([response.status, response.json()]).toEqual([
      400,
      {
        error: {
          message:
            "invalid argument `objects' for `core.deploy' (does not have any deployable objects)",
        },
      },
    ])
    const read = await h.tuples(
      'keyv.get',
      [
        ['$$', 'bucket', 'b'],
        ['$$', 'key', 'k'],
      ],
      { accept: 'application/json' },
    )
    expect(read.json()).toBe(null)
    const empty = await deploy('')
    expect(empty.status).toBe(400)
  })

  it('takes the program as objects too; without one it is a 400', async () => {
    const objects = [
      [
        '{}',
        [
          '()',
          'proc.deploy',
          ['$$', 'name', ['%%', 'o']],
          ['$$', 'proc', ['{}', ['()', 'core.echo']]],
        ],
      ],
    ]
    const response = await h.tuples('core.deploy', [['$$', 'objects', ['%%', objects]]], {
      accept: 'application/json',
    })
    expect(response.json()).toEqual([
      { status: 'ok', type: 'proc', name: 'o', link: `${host}/lib/o:dev` },
    ])
    const none = await h.tuples('core.deploy', [], { accept: 'text/plain' })
    expect([none.status, none.text]).toEqual([
      400,
      "invalid argument `objects' for `core.deploy' (is required)",
    ])
    const text = await h.call('core.deploy', { body: 'not a program', accept: 'text/plain' })
    expect([text.status, text.text]).toEqual([
      400,
      "invalid argument `objects' for `core.deploy' (does not have any deployable objects)",
    ])
  })

  it('the time limit ends the whole deploy', async () => {
    const slow = await createHarness({
      serviceName: 'proc',
      limits: { ...h.engine.settings.limits, timeLimitMs: 50 },
    })
    const code = 'proc(name: "p") { core.echo }\nexec { core.sleep(seconds: 1) }'
    const responsePromise = slow.tuples(
      'core.exec',
      [
        [
          '$$',
          'proc',
          ['{}', ['()', 'core.compile', ['$$', 'code', ['%%', code]]], ['()', 'core.deploy']],
        ],
      ],
      { accept: 'text/plain' },
    )
    slow.clock.advance(1)
    const response = await responsePromise
    expect(response.status).toBe(408)
    expect((await slow.call('lib.p', { body: 'x' })).status).toBe(404)
  })
})

describe('stages and the other procedure endpoints', () => {
  const manage = (verb: string, name: string, proc?: unknown) =>
    h.tuples(`proc.${verb}`, [['$$', 'name', name], ...(proc ? [['$$', 'proc', proc]] : [])], {
      accept: 'text/plain',
    })
  const reverse = ['{}', ['()', 'type.string.reverse']]

  it('create refuses a name deployed to the dev stage; update releases it; delete removes both stages', async () => {
    await deploy(shout)
    expect((await manage('create', 'shout', reverse)).status).toBe(409)
    expect((await manage('update', 'shout', reverse)).status).toBe(200)
    expect(await call('lib.shout:dev', 'abc')).toBe('200 cba')
    await deploy(whisper)
    expect((await manage('delete', 'shout')).status).toBe(200)
    expect((await h.control('procedures')).body).toEqual([])
    expect((await manage('delete', 'shout')).status).toBe(404)
    await deploy(shout)
    expect((await manage('delete', 'shout')).status).toBe(200)
    expect(await call('lib.shout:dev', 'x')).toBe("404 undefined proc `lib.shout:dev'")
  })

  it('the control plane lists each stage as its record; an export with them imports again', async () => {
    await deploy(shout, { release: true })
    await deploy(whisper)
    const listed = (await h.control('procedures')).body as Array<{ name: string }>
    expect(listed.map((record) => record.name)).toEqual(['shout', 'shout:dev'])
    const exported = (await h.control('export')).body
    expect((await h.control('reset', {})).status).toBe(200)
    expect((await h.control('import', exported)).status).toBe(200)
    expect(await call('lib.shout', 'Hi')).toBe('200 HI')
    expect(await call('lib.shout:dev', 'Hi')).toBe('200 hi')
  })

  it('an ability for lib.<name> reaches both stages; deploying is insecure', async () => {
    await deploy(shout)
    const mine = await h.authorize({ abilities: ['lib.shout'] })
    const other = await h.authorize({ abilities: ['lib.other'] })
    for (const name of ['lib.shout', 'lib.shout:dev']) {
      expect((await h.call(name, { body: 'a', token: mine })).text).toBe('A')
      expect((await h.call(name, { body: 'a', token: other })).status).toBe(401)
    }
    const refused = await h.tuples('auth.create', [['$$', 'abilities', ['proc.deploy']]], {
      accept: 'text/plain',
    })
    expect(refused.status).toBe(400)
    const deployer = await h.authorize({ abilities: ['core', 'proc.deploy'], insecure: true })
    expect((await deploy(shout, { token: deployer })).json()).toEqual([
      { status: 'ok', type: 'proc', name: 'shout', link: `${host}/lib/shout:dev` },
    ])
    const limited = await h.authorize({ abilities: ['core'] })
    expect((await deploy(shout, { token: limited })).json()).toEqual([
      {
        status: 'failed',
        type: 'proc',
        name: 'shout',
        error: "authorization does not have the ability to access proc `proc.deploy'",
      },
    ])
  })

  it('names that are no procedure are undefined at lib', async () => {
    await deploy(shout)
    for (const name of ['lib.shout:dev:dev', 'lib.shout:release', 'lib.:dev']) {
      expect((await h.call(name, { body: 'x' })).status).toBe(404)
    }
  })
})
