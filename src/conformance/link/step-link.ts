import { stepsOf, type CallStep, type CaseFile, type Format, type Step } from '../cases'
import { LinkError, packLink, unpackLink } from './link-bytes'
import { ENGINE_VERSION } from './engine-version'
import validate from './link-validate.js'

export { LinkError } from './link-bytes'

/** A fault rule as a link carries it: a role for its token, never a token. */
export interface LinkFault {
  kind?: 'status' | 'delay' | 'network' | 'reset' | 'truncate' | 'hang'
  status?: number | null
  delayMs?: number
  retryAfter?: number
  endpoint?: string | null
  token?: 'secret' | 'authorization' | 'none' | null
  probability?: number
  count?: number | null
}

/** A contract case as a link carries it: its steps up to the one the link is about. */
export type LinkCase = CaseFile['cases'][number]

/** What a step's link holds (`schemas/link.json`): the case, and how its account stood. */
export interface StepLink {
  v: 1
  /** The engine version that answered the recorded exchanges. */
  engine: string
  /** The account's seed, when it was deterministic. */
  seed?: string
  /** The account's virtual time when the step was answered (Unix seconds). */
  time?: number
  faults?: LinkFault[]
  /** The case up to and including the step: its last step is the one the link is about. */
  case: LinkCase
}

/** The link to a failed case's first differing step, as the reports carry it. */
export interface FailureLink {
  /** The case's id, as its result names it. */
  id: string
  /** The step, from 1. */
  step: number
  url: string
}

/** The fragment's key: `#r=v1.…`. */
export const LINK_KEY = 'r'

/** The goal: a step's link fits in a chat message. */
export const LINK_GOAL_CHARS = 2000

const ROLES = new Set(['secret', 'authorization', 'none'])

/**
 * Fault rules as a link may carry them: the replayable kinds, a token only as its role. A rule
 * bound to one token, or answering a canned body, is left out (its token or body could be
 * anything); the second list says which, for the link's notes.
 */
export function linkFaults(rules: ReadonlyArray<Record<string, unknown>>): {
  faults: LinkFault[]
  left: string[]
} {
  const faults: LinkFault[] = []
  const left: string[] = []
  for (const rule of rules) {
    const token = rule.token
    const kind = rule.kind
    if (
      (token !== null && token !== undefined && !ROLES.has(String(token))) ||
      kind === 'respond'
    ) {
      left.push(
        `a ${String(kind)} fault${rule.endpoint ? ` on ${String(rule.endpoint)}` : ''} is left out: ${kind === 'respond' ? 'it answers a canned body' : 'it is bound to one token'}`,
      )
      continue
    }
    const fault: Record<string, unknown> = {}
    for (const key of [
      'kind',
      'status',
      'delayMs',
      'retryAfter',
      'endpoint',
      'token',
      'probability',
      'count',
    ]) {
      if (rule[key] !== undefined) fault[key] = rule[key]
    }
    faults.push(fault as LinkFault)
  }
  return { faults, left }
}

export interface MakeLinkOptions {
  /** The case's index in the file, from 0. */
  caseIndex?: number
  /** The step the link is about, from 1; the case's last step unless given. */
  step?: number
  /** The body format of a case run once per format: its first unless given. */
  format?: Format
  seed?: string | null
  time?: number
  faults?: LinkFault[]
  /**
   * Texts that must never be in a link (the account's secrets, tokens the page holds): a link
   * that would hold one is refused. The recorder never writes one; this is the last guard.
   */
  never?: readonly string[]
}

/** A step's link: the fragment value (`v1.…`), and its payload. */
export interface MadeLink {
  value: string
  payload: StepLink
  /** The index of the case in its file, from 0, and of its step, from 1. */
  caseIndex: number
  step: number
}

const isCall = (step: Step | undefined): step is CallStep => !!step && 'call' in step

/**
 * The link to step `step` of a case of `file` (a contract or a file of conformance cases): the
 * case's steps up to it, the account's seed, faults and time, and this engine's version,
 * compressed into a URL fragment's value. Throws `LinkError` for a case or step that is not
 * there, a step that is not a call, or a link that would hold a text of `never`.
 */
export async function makeStepLink(
  file: CaseFile,
  options: MakeLinkOptions = {},
): Promise<MadeLink> {
  const caseIndex = options.caseIndex ?? 0
  const written = file.cases[caseIndex]
  // A case's setup runs before its steps: a link numbers and carries them together.
  const source = written && { ...written, steps: stepsOf(written) }
  if (!source) {
    throw new LinkError(
      `there is no case ${caseIndex + 1}: the file has ${file.cases.length}`,
      'shape',
    )
  }
  const step = options.step ?? source.steps.length
  if (!Number.isInteger(step) || step < 1 || step > source.steps.length) {
    throw new LinkError(
      `case ${caseIndex + 1} ("${source.name}") has steps 1 to ${source.steps.length}, not ${step}`,
      'shape',
    )
  }
  if (!isCall(source.steps[step - 1])) {
    throw new LinkError(
      `step ${step} of "${source.name}" does not call an endpoint: a link is made to a call`,
      'shape',
    )
  }
  const format = options.format ?? source.formats?.[0]
  const linked: LinkCase = {
    name: source.name,
    ...(format && source.formats ? { formats: [format] } : {}),
    ...(source.fresh ? { fresh: true } : {}),
    steps: source.steps.slice(0, step),
    ...(source.notes?.length ? { notes: source.notes } : {}),
  }
  const payload: StepLink = {
    v: 1,
    engine: ENGINE_VERSION,
    ...(options.seed ? { seed: options.seed } : {}),
    ...(options.time === undefined ? {} : { time: options.time }),
    ...(options.faults?.length ? { faults: options.faults } : {}),
    case: linked,
  }
  const json = JSON.stringify(payload)
  for (const text of options.never ?? []) {
    if (text.length >= 8 && json.includes(text)) {
      throw new LinkError(
        `step ${step} of "${source.name}" would carry a secret or a token of the account: a link never holds one`,
        'secret',
      )
    }
  }
  return { value: await packLink(json), payload, caseIndex, step }
}

/**
 * A link's fragment value (`v1.…`) as its payload, checked against `schemas/link.json` (by
 * Ajv's code for it, compiled ahead: `link-validate.js`).
 * Throws `LinkError`, whose message a person can act on, for anything else: too long, another
 * version, garbled or cut, a deflate bomb, not JSON, the wrong shape, or a case whose last
 * step is not a call.
 */
export async function readStepLink(value: string): Promise<StepLink> {
  const text = await unpackLink(value)
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new LinkError('the link inflates to something that is not JSON', 'not-json')
  }
  if (!validate(data)) {
    const [first] = validate.errors ?? []
    throw new LinkError(
      `the link does not hold a step: ${first?.instancePath || '(the link)'} ${first?.message ?? 'does not match the link schema'}`,
      'shape',
    )
  }
  if (!isCall(data.case.steps.at(-1))) {
    throw new LinkError('the link does not end at a call: there is no step to show', 'shape')
  }
  return data
}

/** The page's URL with a step's link in its fragment. */
export function stepLinkUrl(page: string, value: string): string {
  return `${page.replace(/#.*$/, '')}#${LINK_KEY}=${value}`
}

/** The link's value in a URL's fragment (`#r=v1.…`), or `undefined` when it holds none. */
export function linkInFragment(hash: string): string | undefined {
  const found = /^#?r=(.*)$/s.exec(hash)
  return found ? found[1] : undefined
}
