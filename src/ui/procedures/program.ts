import type { Json } from '../../engine'
import type { PlaygroundConfig } from '../shared/config'
import { callEndpoint, EndpointError, literal } from '../shared/endpoint-call'

/**
 * Programs in the composer language (Ruby syntax), as the real command-line tool sends them:
 * compiled by `core.compile`, run by `core.exec`, deployed by `core.deploy`. The page talks to
 * the engine over fetch only; nothing here reads a program itself.
 */

/** Where `core.compile` says a program leaves the language. */
export interface ProgramProblem {
  line: number
  column: number
  message: string
  /** Where that is in the text, in UTF-16 units (what a textarea's selection counts). */
  offset: number
}

/** One top-level block of a compiled program. */
export interface ProgramObject {
  kind: 'exec' | 'proc'
  /** A `proc` block's name as written: text, an argument's name (`:name`), or none. */
  name?: string
  tuples: Json
}

const LOCATED =
  /^invalid argument `code' for `core\.compile' \(line (\d+), column (\d+): ([\s\S]*)\)$/

/** The position an error of `core.compile` names, or undefined for any other error. */
export function problemOf(code: string, error: unknown): ProgramProblem | undefined {
  if (!(error instanceof EndpointError)) return undefined
  const found = LOCATED.exec(error.message)
  if (!found) return undefined
  const line = Number(found[1])
  const column = Number(found[2])
  return { line, column, message: found[3]!, offset: offsetOf(code, line, column) }
}

/** Line and column (in characters) as an offset in UTF-16 units. */
export function offsetOf(code: string, line: number, column: number): number {
  const lines = code.split('\n')
  let offset = 0
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1
  const characters = [...(lines[line - 1] ?? '')].slice(0, column - 1)
  return offset + characters.join('').length
}

/** `core.compile(code, lang: "rb")`: the program's tuples, one composition per block. */
export async function compile(config: PlaygroundConfig, token: string, code: string) {
  const { value } = await callEndpoint(config, {
    endpoint: 'core.compile',
    token,
    args: [
      ['code', literal(code)],
      ['lang', literal('rb')],
    ],
  })
  return value as Json[]
}

/** The blocks of a compiled program: a deploying block names `<service>.deploy`. */
export function objectsOf(program: Json[], serviceName: string): ProgramObject[] {
  return program.map((tuples) => {
    const [, call] = Array.isArray(tuples) ? tuples : []
    const deploys =
      Array.isArray(tuples) &&
      tuples.length === 2 &&
      Array.isArray(call) &&
      call[0] === '()' &&
      call[1] === `${serviceName}.deploy`
    if (!deploys) return { kind: 'exec', tuples }
    const name = (call as Json[]).find((tuple) => Array.isArray(tuple) && tuple[1] === 'name')
    const value = Array.isArray(name) ? name[2] : undefined
    const written = Array.isArray(value)
      ? value[0] === '%%' && typeof value[1] === 'string'
        ? value[1]
        : value[0] === '@@' && typeof value[1] === 'string'
          ? `:${value[1]}`
          : undefined
      : undefined
    return { kind: 'proc', ...(written === undefined ? {} : { name: written }), tuples }
  })
}

/**
 * `-arg name=value` lines, as the command-line tool reads them: the text after the first `=`
 * is the value (a string), a line without `=` sends `null`; blank lines are skipped.
 */
export function readArgs(text: string): Array<[string, Json]> {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line): [string, Json] => {
      const equals = line.indexOf('=')
      return equals === -1 ? [line, null] : [line.slice(0, equals), line.slice(equals + 1)]
    })
}

/**
 * The `proc` the command-line tool gives `core.exec`: `core.compile` of the code, then
 * `last` (`core.exec` to run it, `core.deploy` to deploy it).
 */
export function toolProc(code: string, last: Json): Json {
  return [
    '{}',
    ['()', 'core.compile', ['$$', 'code', ['%%', code]], ['$$', 'lang', ['%%', 'rb']]],
    last,
  ]
}

/** One result of `core.deploy`. */
export interface DeployResult {
  status: 'ok' | 'failed'
  type: 'exec' | 'proc'
  name?: string | null
  link?: string
  output?: Json
  error?: string
}

/** `proc deploy`: the program deployed, to the dev stage or released, with its `-arg`s. */
export async function deploy(
  config: PlaygroundConfig,
  token: string,
  code: string,
  release: boolean,
  args: Array<[string, Json]>,
): Promise<DeployResult[]> {
  const { value } = await callEndpoint(config, {
    endpoint: 'core.exec',
    token,
    args: [['proc', toolProc(code, ['()', 'core.deploy', ['$$', 'release', release]])], ...args],
  })
  return value as unknown as DeployResult[]
}
