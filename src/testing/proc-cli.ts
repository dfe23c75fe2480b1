/**
 * The real service's command-line tool (`cli/` of metabahn/proc), restated for tests: the
 * bytes each command sends, and what it prints for the answer it gets. Nothing of its code is
 * here; its behaviour is written down from reading it. For tests only.
 *
 * - `compile FILE` posts `[["$$","code",["%%",SRC]],["$$","lang",["%%",EXT]]]` to `core/compile`
 *   with `accept: application/json` and prints the body.
 * - `exec FILE` posts `[["$$","proc",["{}",["()","core.compile",CODE,LANG],["()","core.exec"]]],
 *   …args]` to `core/exec` with `accept: text/plain` (`application/json` with `-json`) and
 *   prints the body.
 * - `deploy FILE` posts the same with `["()","core.deploy",["$$","release",BOOL]]` in place of
 *   `core.exec`; in text it prints each result, in JSON the body.
 * - `-arg k=v` adds `["$$","k","v"]`, a bare `-arg k` adds `["$$","k",nil]`.
 * - Any status but 200 and 424 prints `<status line>: <body>` (text) or the body (JSON) and
 *   exits 1.
 */

export type Command = 'compile' | 'exec' | 'deploy'

export interface Invocation {
  command: Command
  /** The file's name: its extension is the `lang` sent. */
  file: string
  source: string
  /** `-arg name=value`, in the order given; `null` for a bare `-arg name`. */
  args?: Array<[string, string | null]>
  json?: boolean
  release?: boolean
}

export interface Sent {
  path: string
  headers: Record<string, string>
  body: Uint8Array<ArrayBuffer>
}

/** What the tool sends for `invocation`, with the authorization `token`. */
export function sent(invocation: Invocation, token: string): Sent {
  const ext = invocation.file.split('.').at(-1)!
  const code: Item = ['$$', 'code', ['%%', invocation.source]]
  const lang: Item = ['$$', 'lang', ['%%', ext]]
  let path: string
  let ast: Item[]
  if (invocation.command === 'compile') {
    path = 'core/compile'
    ast = [code, lang]
  } else {
    const last: Item =
      invocation.command === 'exec'
        ? ['()', 'core.exec']
        : ['()', 'core.deploy', ['$$', 'release', invocation.release ?? false]]
    path = 'core/exec'
    ast = [['$$', 'proc', ['{}', ['()', 'core.compile', code, lang], last]]]
    for (const [name, value] of invocation.args ?? []) ast.push(['$$', name, value])
  }
  const accept =
    invocation.command === 'compile' || invocation.json ? 'application/json' : 'text/plain'
  return {
    path,
    headers: {
      // What Go's http.Client adds, then the tool's own three.
      'user-agent': 'Go-http-client/1.1',
      'accept-encoding': 'gzip',
      authorization: `bearer ${token}`,
      'content-type': 'application/vnd.proc+msgpack',
      accept,
    },
    body: new Uint8Array(pack(ast)),
  }
}

export interface Answer {
  status: number
  /** The reason phrase of the status line (`Bad Request`). */
  statusText: string
  body: string
}

export interface Printed {
  stdout: string
  exitCode: number
}

/** What the tool prints for `answer` (to standard output), and how it exits. */
export function printed(invocation: Invocation, answer: Answer): Printed {
  const json = invocation.command === 'compile' || invocation.json
  if (answer.status !== 200 && answer.status !== 424) {
    const line = json
      ? `${answer.body}\n`
      : `${`${answer.status} ${answer.statusText}`.trim()}: ${answer.body.trim()}\n`
    return { stdout: line, exitCode: 1 }
  }
  if (invocation.command !== 'deploy' || json) return { stdout: `${answer.body}\n`, exitCode: 0 }
  return { stdout: deployResults(JSON.parse(answer.body) as unknown[]), exitCode: 0 }
}

/** The text `deploy` prints: Go decodes each result into a struct, so a null name is empty. */
function deployResults(results: unknown[]): string {
  let out = ''
  for (const item of results) {
    const result = item as Record<string, unknown>
    const field = (name: string) =>
      typeof result[name] === 'string' ? (result[name] as string) : ''
    const type = field('type')
    const status = field('status')
    const name = field('name') || '(undefined)'
    if (status === 'ok' && type === 'exec') {
      const output = result.output
      const shown =
        typeof output === 'number'
          ? goFloat(output)
          : typeof output === 'string'
            ? output
            : goJson(output ?? null)
      out += `[${type}]: ${status}\n  ${shown}\n\n`
    } else if (status === 'ok') {
      out += `[${type}] ${name}: ${status}\n  ${field('link')}\n\n`
    } else if (status === 'failed') {
      out += `[${type}] ${name}: ${status}\n  ${field('error')}\n\n`
    }
  }
  return out
}

/**
 * Go's `%v` of a float64 (`%g` with the shortest digits): exponent form from an exponent of 6
 * up or below -4, two digits of exponent at least (`1e+06`, `1.23456789e+08`, `1e-05`).
 */
export function goFloat(value: number): string {
  if (value === 0) return '0'
  const [digits, exponent] = value.toExponential().split('e') as [string, string]
  const exp = Number(exponent)
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+'
    return `${digits}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`
  }
  return String(value)
}

/** Go's `json.Marshal` of a decoded value: members sorted by key, `<`, `>` and `&` escaped. */
export function goJson(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value)
  if (typeof value === 'number') return JSON.stringify(value)
  if (typeof value === 'string') {
    return JSON.stringify(value)
      .replaceAll('<', '\\u003c')
      .replaceAll('>', '\\u003e')
      .replaceAll('&', '\\u0026')
      .replaceAll('\u2028', '\\u2028')
      .replaceAll('\u2029', '\\u2029')
  }
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`
  const members = Object.keys(value as object)
    .sort()
    .map((key) => `${goJson(key)}:${goJson((value as Record<string, unknown>)[key])}`)
  return `{${members.join(',')}}`
}

type Item = string | boolean | null | Item[]

/**
 * MessagePack as the tool's library (vmihailenco/msgpack v5) writes these values: arrays as
 * fixarray up to 15 elements, then array16; strings as fixstr below 32 bytes, then str8 below
 * 256, str16, str32; `true`, `false` and `nil` as their one byte.
 */
export function pack(item: Item): number[] {
  if (item === null) return [0xc0]
  if (item === true) return [0xc3]
  if (item === false) return [0xc2]
  if (Array.isArray(item)) {
    const head =
      item.length < 16 ? [0x90 | item.length] : [0xdc, item.length >> 8, item.length & 0xff]
    return [...head, ...item.flatMap(pack)]
  }
  const bytes = [...new TextEncoder().encode(item)]
  const n = bytes.length
  const head =
    n < 32
      ? [0xa0 | n]
      : n < 256
        ? [0xd9, n]
        : n <= 0xffff
          ? [0xda, n >> 8, n & 0xff]
          : [0xdb, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]
  return [...head, ...bytes]
}
