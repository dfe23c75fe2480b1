import { InvalidError } from '../errors'
import { assertJsonDepth } from './depth'
import type { Args, CallNode, CallRequest, ComposeNode, Node, RefNode } from './tree'
import { literal } from './tree'
import { jsonText } from './json-text'
import type { Value } from './value'

/**
 * The tuple format of `application/vnd.<service>+json` (and its MessagePack twin): parses a
 * decoded body into the call's input and arguments. Every marker of the language is read
 * here, at any depth; evaluation is the runtime's.
 */
export function parseTupleBody(body: unknown): CallRequest {
  if (!Array.isArray(body)) {
    throw new InvalidError(
      'the body must be an array of tuples, such as [[">>", input], ["$$", name, value]]',
    )
  }
  const request: CallRequest = { args: new Map() }
  for (const entry of body) {
    const tuple = asTuple(entry, 'the body')
    if (tuple[0] === '>>') setInput(request, tuple, 'the body')
    else if (tuple[0] === '$$') setArg(request.args, tuple, 'the body')
    else throw misplaced(tuple[0], 'the body', '">>" input and "$$" argument tuples')
  }
  return request
}

/** Parses one value position: a literal, composition, call, reference or bare JSON. */
export function parseValue(value: unknown): Node {
  if (!isMarked(value)) return literal(value as Value)
  const [marker] = value
  switch (marker) {
    case '%%':
      if (value.length !== 2) throw new InvalidError('a "%%" literal takes exactly one value')
      return literal(value[1] as Value)
    case '{}':
      return parseCompose(value)
    case '()':
      return parseCall(value)
    case '@@':
      return parseRef(value)
    default:
      throw misplaced(
        marker,
        'a value',
        'a "%%" literal, "{}" composition, "()" call or "@@" reference',
      )
  }
}

const MARKERS = new Set(['>>', '$$', '%%', '()', '{}', '@@', '<<', '!!'])

function isMarked(value: unknown): value is [string, ...unknown[]] {
  return Array.isArray(value) && typeof value[0] === 'string' && MARKERS.has(value[0])
}

function asTuple(entry: unknown, where: string): [string, ...unknown[]] {
  if (!isMarked(entry)) {
    throw new InvalidError(
      `${where} holds ${jsonText(entry as Value)}, which is not a tuple; tuples are arrays starting with a marker such as ">>" or "$$"`,
    )
  }
  return entry
}

function misplaced(marker: string, where: string, expected: string): InvalidError {
  if (marker === '<<' || marker === '!!') {
    return new InvalidError(`"${marker}" marks a response and cannot appear in a request`)
  }
  return new InvalidError(`"${marker}" cannot appear in ${where}; expected ${expected}`)
}

function setInput(target: { input?: Node }, tuple: unknown[], where: string): void {
  if (tuple.length !== 2) throw new InvalidError('a ">>" input tuple takes exactly one value')
  if (target.input !== undefined) throw new InvalidError(`${where} gives more than one ">>" input`)
  target.input = parseValue(tuple[1])
}

function setArg(args: Args, tuple: unknown[], where: string): void {
  const [, name, value] = tuple
  if (tuple.length !== 3 || typeof name !== 'string' || name === '') {
    throw new InvalidError('a "$$" argument tuple takes a name and a value: ["$$", name, value]')
  }
  if (args.has(name)) throw new InvalidError(`${where} gives argument \`${name}' more than once`)
  args.set(name, parseValue(value))
}

function parseCompose(tuple: unknown[]): ComposeNode {
  const node: ComposeNode = { kind: 'compose', args: new Map(), calls: [] }
  for (const entry of tuple.slice(1)) {
    const inner = asTuple(entry, 'a composition')
    if (inner[0] === '>>') setInput(node, inner, 'a composition')
    else if (inner[0] === '$$') setArg(node.args, inner, 'a composition')
    else if (inner[0] === '()') node.calls.push(parseCall(inner))
    else throw misplaced(inner[0], 'a composition', '">>", "$$" or "()" tuples')
  }
  return node
}

function parseCall(tuple: unknown[]): CallNode {
  const name = tuple[1]
  if (typeof name !== 'string' || name === '') {
    throw new InvalidError('a "()" call names its endpoint first: ["()", "a.b.c", ...]')
  }
  const node: CallNode = { kind: 'call', name, args: new Map() }
  const where = `the call to \`${name}'`
  for (const entry of tuple.slice(2)) {
    const inner = asTuple(entry, where)
    if (inner[0] === '>>') setInput(node, inner, where)
    else if (inner[0] === '$$') setArg(node.args, inner, where)
    else throw misplaced(inner[0], where, '">>" and "$$" tuples')
  }
  return node
}

function parseRef(tuple: unknown[]): RefNode {
  const [, name, options] = tuple
  if (typeof name !== 'string' || name === '' || tuple.length > 3) {
    throw new InvalidError(
      'a "@@" reference names an argument: ["@@", name, { "default": …, "type": … }]',
    )
  }
  const node: RefNode = { kind: 'ref', name }
  if (options === undefined) return node
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidError(`the options of reference \`${name}' must be an object`)
  }
  for (const [key, value] of Object.entries(options)) {
    if (key === 'default') node.default = parseValue(value)
    else if (key === 'type') node.type = parseValue(value)
    else {
      throw new InvalidError(
        `reference \`${name}' has an unknown option \`${key}'; use default or type`,
      )
    }
  }
  return node
}

/** Writes a parsed node back as tuples; literals always as `%%`, so data stays data. */
export function toTuples(node: Node): Value {
  const tuples = (input: Node | undefined, args: Args): Value[] => [
    ...(input ? [['>>', toTuples(input)]] : []),
    ...[...args].map(([name, value]): Value => ['$$', name, toTuples(value)]),
  ]
  switch (node.kind) {
    case 'literal':
      return ['%%', node.value]
    case 'ref': {
      const options: { [key: string]: Value } = {}
      if (node.default) options.default = toTuples(node.default)
      if (node.type) {
        const { type } = node
        options.type =
          type.kind === 'literal' && typeof type.value === 'string' ? type.value : toTuples(type)
      }
      return Object.keys(options).length ? ['@@', node.name, options] : ['@@', node.name]
    }
    case 'compose':
      return ['{}', ...tuples(node.input, node.args), ...node.calls.map(toTuples)]
    case 'call':
      return ['()', node.name, ...tuples(node.input, node.args)]
  }
}

/**
 * A procedure as a composition: a `{}` as is, a `()` wrapped, a tuple tree sent as data parsed
 * (also as JSON text, as a query string carries it).
 */
export function asProcedure(node: Node): ComposeNode | undefined {
  const tree = node.kind === 'literal' ? parseValue(fromText(node.value)) : node
  if (tree.kind === 'compose') return tree
  if (tree.kind === 'call') return { kind: 'compose', args: new Map(), calls: [tree] }
  return undefined
}

function fromText(value: Value): unknown {
  if (typeof value !== 'string' || !value.trimStart().startsWith('[')) return value
  try {
    const parsed: unknown = JSON.parse(value)
    assertJsonDepth(parsed)
    return parsed
  } catch (error) {
    if (error instanceof InvalidError) throw error
    return value
  }
}
