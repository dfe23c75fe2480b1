import { readFileSync } from 'node:fs'
import { decode } from '@msgpack/msgpack'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  goFloat,
  goJson,
  pack,
  printed,
  sent,
  type Invocation,
  type Printed,
} from '../../testing/proc-cli'
import { startServe, stopAll, type Started } from '../../testing/serve-process'

/**
 * The real service's command-line tool against `serve --service-name proc`: the exact bytes it
 * sends for `compile`, `exec` and `deploy`, over HTTP to a real process, and what it prints for
 * each answer, for programs shaped as those of its own acceptance specs.
 */
const SECRET = 'proc-cli-secret-key'
const CONTROL = 'proc-cli-control-token-0001'
let server: Started & { url: string }

beforeAll(async () => {
  server = await startServe([
    '--service-name',
    'proc',
    '--base-url',
    'https://proc.run',
    '--secret',
    SECRET,
    '--control-token',
    CONTROL,
  ])
}, 60_000)

afterAll(() => stopAll())

beforeEach(async () => {
  const reset = await fetch(`${server.url}/_account/reset`, {
    method: 'POST',
    headers: { authorization: `bearer ${CONTROL}`, 'content-type': 'application/json' },
  })
  expect(reset.status).toBe(200)
})

const source = (file: string) =>
  readFileSync(new URL(`../../testing/proc-cli/${file}`, import.meta.url), 'utf8')

type Command = Omit<Invocation, 'source'> & { source?: string }

/** Runs the command as the tool would: its bytes to serve, its printing of the answer. */
async function proc(command: Command): Promise<Printed> {
  const invocation = { ...command, source: command.source ?? source(command.file) }
  const request = sent(invocation, SECRET)
  const response = await fetch(`${server.url}/${request.path}`, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
  })
  const body = await response.text()
  return printed(invocation, { status: response.status, statusText: response.statusText, body })
}

const ok = (stdout: string): Printed => ({ stdout, exitCode: 0 })
const fails = (stdout: string): Printed => ({ stdout, exitCode: 1 })

describe('what the tool sends', () => {
  it('compile: code and lang, as MessagePack arrays and strings', () => {
    const request = sent({ command: 'compile', file: 'x.rb', source: 'exec { a }' }, 'tok')
    const str = (text: string) => [0xa0 | text.length, ...Buffer.from(text)]
    expect([...request.body]).toEqual([
      0x92,
      ...[0x93, ...str('$$'), ...str('code'), 0x92, ...str('%%'), ...str('exec { a }')],
      ...[0x93, ...str('$$'), ...str('lang'), 0x92, ...str('%%'), ...str('rb')],
    ])
    expect(request.path).toBe('core/compile')
    expect(request.headers).toMatchObject({
      authorization: 'bearer tok',
      'content-type': 'application/vnd.proc+msgpack',
      accept: 'application/json',
    })
  })

  it('exec and deploy: core.compile piped into core.exec or core.deploy, then the -args', () => {
    const code = source('several.rb')
    const exec = sent(
      {
        command: 'exec',
        file: 'several.rb',
        source: code,
        args: [
          ['a', '1'],
          ['b', null],
        ],
      },
      't',
    )
    expect(decode(exec.body)).toEqual([
      [
        '$$',
        'proc',
        [
          '{}',
          ['()', 'core.compile', ['$$', 'code', ['%%', code]], ['$$', 'lang', ['%%', 'rb']]],
          ['()', 'core.exec'],
        ],
      ],
      ['$$', 'a', '1'],
      ['$$', 'b', null],
    ])
    expect(exec.headers.accept).toBe('text/plain')
    const deploy = sent(
      { command: 'deploy', file: 'several.rb', source: code, release: true, json: true },
      't',
    )
    expect(decode(deploy.body)).toEqual([
      [
        '$$',
        'proc',
        [
          '{}',
          ['()', 'core.compile', ['$$', 'code', ['%%', code]], ['$$', 'lang', ['%%', 'rb']]],
          ['()', 'core.deploy', ['$$', 'release', true]],
        ],
      ],
    ])
    expect(deploy.headers.accept).toBe('application/json')
  })

  it('strings past 255 bytes as str16, and the library’s one-byte nil and booleans', () => {
    expect(pack('x'.repeat(300)).slice(0, 3)).toEqual([0xda, 0x01, 0x2c])
    expect(pack('x'.repeat(40)).slice(0, 2)).toEqual([0xd9, 40])
    expect([pack(null), pack(true), pack(false)]).toEqual([[0xc0], [0xc3], [0xc2]])
    expect(pack(Array.from({ length: 16 }, () => null)).slice(0, 3)).toEqual([0xdc, 0x00, 0x10])
  })

  it('prints numbers as Go does, and hashes as Go’s JSON writes them', () => {
    // As `fmt.Printf("%v", f)` printed them with Go 1.19.
    const go = [
      '0',
      '42',
      '42.42',
      '100000',
      '1e+06',
      '1.23456789e+08',
      '1e+21',
      '0.0001',
      '1e-05',
      '-2.5e-07',
    ]
    expect(
      [0, 42, 42.42, 100000, 1e6, 123456789, 1e21, 0.0001, 0.00001, -2.5e-7].map(goFloat),
    ).toEqual(go)
    expect(goJson({ z: [1, null], a: '<&>' })).toBe('{"a":"\\u003c\\u0026\\u003e","z":[1,null]}')
  })
})

describe('proc compile', () => {
  it('prints the program as tuples', async () => {
    expect(await proc({ command: 'compile', file: 'hello.rb' })).toEqual(
      ok(
        '[["{}",[">>",["%%","hello"]],["()","core.echo",[">>",["%%","hello"]]],["()","type.string.capitalize"],["()","type.string.reverse"]]]\n',
      ),
    )
  })

  it('prints where a program leaves the language, and fails', async () => {
    expect(await proc({ command: 'compile', file: 'outside.rb' })).toEqual(
      fails(
        '{"error":{"message":"invalid argument `code\' for `core.compile\' (line 2, column 13: expected an expression, found `Time\': constants are outside the language (it names calls and values, and runs nothing))"}}\n',
      ),
    )
    expect(await proc({ command: 'exec', file: 'outside.rb' })).toEqual(
      fails(
        "400 Bad Request: invalid argument `code' for `core.compile' (line 2, column 13: expected an expression, found `Time': constants are outside the language (it names calls and values, and runs nothing))\n",
      ),
    )
  })

  it('names the languages it reads when the file is another', async () => {
    expect(
      await proc({ command: 'compile', file: 'hello.py', source: source('hello.rb') }),
    ).toEqual(
      fails(
        '{"error":{"message":"invalid argument `lang\' for `core.compile\' (`py\' is not supported; use `rb\')"}}\n',
      ),
    )
  })
})

describe('proc exec', () => {
  it('prints the result', async () => {
    expect(await proc({ command: 'exec', file: 'hello.rb' })).toEqual(ok('olleH\n'))
    expect(await proc({ command: 'exec', file: 'hello.rb', json: true })).toEqual(ok('"olleH"\n'))
  })

  it('passes one argument, and several', async () => {
    expect(await proc({ command: 'exec', file: 'word.rb', args: [['word', 'ruby']] })).toEqual(
      ok('ybuR\n'),
    )
    expect(
      await proc({
        command: 'exec',
        file: 'pair.rb',
        args: [
          ['first', 'one'],
          ['second', 'two'],
        ],
      }),
    ).toEqual(ok('["one","two"]\n'))
    // A bare `-arg first` sends nil.
    expect(
      await proc({
        command: 'exec',
        file: 'pair.rb',
        args: [
          ['first', null],
          ['second', 'two'],
        ],
      }),
    ).toEqual(ok('[null,"two"]\n'))
  })

  it.each([
    ['type-string.rb', 'plain text', '"plain text"'],
    ['type-integer.rb', '7', '7'],
    ['type-decimal.rb', '3.25', '3.25'],
    ['type-boolean.rb', 'false', 'false'],
    ['type-hash.rb', '{"z":1,"a":"<b>"}', '{"z":1,"a":"<b>"}'],
    ['type-array.rb', '[1,"two",null]', '[1,"two",null]'],
  ])('prints %s in text and in JSON', async (file, text, json) => {
    expect(await proc({ command: 'exec', file })).toEqual(ok(`${text}\n`))
    expect(await proc({ command: 'exec', file, json: true })).toEqual(ok(`${json}\n`))
  })

  it('prints a refusal as its status line and message, and fails', async () => {
    expect(await proc({ command: 'exec', file: 'word.rb' })).toEqual(
      fails("400 Bad Request: invalid argument `word' for `core.exec' (is required)\n"),
    )
    expect(await proc({ command: 'exec', file: 'word.rb', json: true })).toEqual(
      fails('{"error":{"message":"invalid argument `word\' for `core.exec\' (is required)"}}\n'),
    )
  })
})

describe('proc deploy', () => {
  const greetDev = '[proc] greet: ok\n  proc.run/lib/greet:dev\n\n'
  const undefinedName =
    "invalid argument `name' for `proc.deploy' (must contain only alphanumeric characters; `.' and `_' are allowed)"

  it('deploys one procedure to the dev stage, which is then called', async () => {
    expect(await proc({ command: 'deploy', file: 'greet.rb' })).toEqual(ok(greetDev))
    expect(await proc({ command: 'exec', file: 'greet-call.rb' })).toEqual(ok('Ada\n'))
  })

  it('runs and deploys several objects in order', async () => {
    expect(await proc({ command: 'deploy', file: 'several.rb' })).toEqual(
      ok(
        [
          '[exec]: ok\n  begin\n\n',
          '[proc] greet.first: ok\n  proc.run/lib/greet.first:dev\n\n',
          '[proc] greet_second: ok\n  proc.run/lib/greet_second:dev\n\n',
          '[exec]: ok\n  end\n\n',
        ].join(''),
      ),
    )
  })

  it('stops at an object that cannot deploy', async () => {
    expect(await proc({ command: 'deploy', file: 'broken.rb' })).toEqual(
      ok(
        [
          '[exec]: ok\n  begin\n\n',
          greetDev,
          `[proc] (undefined): failed\n  ${undefinedName}\n\n`,
        ].join(''),
      ),
    )
  })

  it('refuses a file with nothing to deploy', async () => {
    expect(await proc({ command: 'deploy', file: 'nothing.rb' })).toEqual(
      fails(
        "400 Bad Request: invalid argument `objects' for `core.deploy' (does not have any deployable objects)\n",
      ),
    )
  })

  it('takes the name from an argument, and the release from another', async () => {
    expect(await proc({ command: 'deploy', file: 'named.rb', args: [['name', 'named']] })).toEqual(
      ok('[proc] named: ok\n  proc.run/lib/named:dev\n\n'),
    )
    expect(
      await proc({
        command: 'deploy',
        file: 'named-live.rb',
        args: [
          ['name', 'named'],
          ['live', 'true'],
        ],
      }),
    ).toEqual(ok('[proc] named: ok\n  proc.run/lib/named\n\n'))
    expect(await proc({ command: 'deploy', file: 'named.rb', args: [['name', null]] })).toEqual(
      ok(`[proc] (undefined): failed\n  ${undefinedName}\n\n`),
    )
  })

  it('-release deploys to the release stage', async () => {
    expect(await proc({ command: 'deploy', file: 'greet.rb', release: true })).toEqual(
      ok('[proc] greet: ok\n  proc.run/lib/greet\n\n'),
    )
    expect(await proc({ command: 'exec', file: 'greet-call.rb' })).toEqual(ok('Ada\n'))
  })

  it('-json prints the results, or the error, as JSON', async () => {
    expect(await proc({ command: 'deploy', file: 'greet.rb', json: true })).toEqual(
      ok('[{"status":"ok","type":"proc","name":"greet","link":"proc.run/lib/greet:dev"}]\n'),
    )
    expect(await proc({ command: 'deploy', file: 'broken.rb', json: true })).toEqual(
      ok(
        `[{"status":"ok","type":"exec","output":"begin"},{"status":"ok","type":"proc","name":"greet","link":"proc.run/lib/greet:dev"},{"status":"failed","type":"proc","name":null,"error":${JSON.stringify(undefinedName)}}]\n`,
      ),
    )
    expect(await proc({ command: 'deploy', file: 'nothing.rb', json: true })).toEqual(
      fails(
        '{"error":{"message":"invalid argument `objects\' for `core.deploy\' (does not have any deployable objects)"}}\n',
      ),
    )
  })

  it.each([
    ['string', 'plain text'],
    ['integer', '7'],
    ['decimal', '3.25'],
    ['boolean', 'false'],
    ['hash', '{"a":"\\u003cb\\u003e","z":1}'],
    ['array', '[1,"two",null]'],
  ])(
    'prints an exec block’s %s as the tool does, beside a deployed procedure',
    async (kind, output) => {
      expect(await proc({ command: 'deploy', file: `deploy-${kind}.rb` })).toEqual(
        ok(
          `[exec]: ok\n  ${output}\n\n[proc] kind.${kind}: ok\n  proc.run/lib/kind.${kind}:dev\n\n`,
        ),
      )
    },
  )

  it('procedures deployed are removed with proc.delete from exec', async () => {
    await proc({ command: 'deploy', file: 'greet.rb' })
    await proc({ command: 'deploy', file: 'named.rb', args: [['name', 'named']] })
    expect(await proc({ command: 'exec', file: 'tidy.rb' })).toEqual(ok('true\n'))
    expect(await proc({ command: 'exec', file: 'greet-call.rb' })).toEqual(
      fails("404 Not Found: undefined proc `lib.greet'\n"),
    )
  })
})
