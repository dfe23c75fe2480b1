import { encode } from '@msgpack/msgpack'
import type { Json } from '../../engine'
import type { EndpointInfo, ParamSpec } from '../shared/catalogue'
import { mediaTypeOf, toTuples, type CallDraft } from '../shared/wire'
import { parseField, parseJsonText } from './json-text'
import { allowsText, defaultMode, type ArgState, type ConsoleState } from './state'

/** One argument field as the form shows it: the catalogue's in its order, then those added. */
export interface ArgField {
  name: string
  spec?: ParamSpec
  state?: ArgState
}

export function argFields(state: ConsoleState, endpoint: EndpointInfo | undefined): ArgField[] {
  const declared = Object.entries(endpoint?.args ?? {}).map(([name, spec]): ArgField => ({
    name,
    spec,
    ...withState(state.args.find((arg) => arg.name === name)),
  }))
  const added = state.args
    .filter((arg) => !endpoint?.args[arg.name])
    .map((arg): ArgField => ({ name: arg.name, state: arg }))
  return [...declared, ...added]
}

const withState = (state: ArgState | undefined) => (state ? { state } : {})

/** A field whose text cannot be sent, and why. */
export interface Problem {
  /** `input`, `raw`, or the argument's name. */
  field: string
  message: string
}

export interface BuiltCall {
  /** What Send sends; `null` while a field does not parse. */
  draft: CallDraft | null
  problems: Problem[]
  /** The tuples the form makes (what the raw editor starts from). */
  tuples: string
  /** Whether the raw tuples are sent instead of the form's (tuple formats only). */
  rawInUse: boolean
  /** Raw tuples that are not JSON: still sent as typed in vnd+json, the engine says why. */
  rawWarning?: string
  /** The input is left out: the endpoint takes none, or the query string carries none. */
  inputLeftOut?: 'endpoint' | 'query'
  /** Fields (`input`, or an argument's name) that are not JSON and are sent as their text. */
  asText: string[]
}

/** The call a form makes, with the token its choice resolved to. */
export function buildCall(
  state: ConsoleState,
  endpoint: EndpointInfo | undefined,
  token: string,
  serviceName: string,
): BuiltCall {
  const problems: Problem[] = []
  const takesInput = endpoint?.input !== null
  const asText: string[] = []
  const input = parseField(
    state.input.text,
    state.input.mode ?? defaultMode(endpoint?.input?.type, state.format),
    allowsText(endpoint?.input?.type),
  )
  if (!input.ok && takesInput) problems.push({ field: 'input', message: input.message })
  if (input.ok && input.asText && takesInput) asText.push('input')
  const args: Array<[string, Json]> = []
  for (const field of argFields(state, endpoint)) {
    if (!field.state) continue
    const parsed = parseField(
      field.state.text,
      field.state.mode ?? defaultMode(field.spec?.type, state.format),
      allowsText(field.spec?.type),
    )
    if (!parsed.ok) problems.push({ field: field.name, message: parsed.message })
    else if (parsed.value !== undefined) args.push([field.name, parsed.value])
    if (parsed.ok && parsed.asText) asText.push(field.name)
  }
  const formInput = input.ok && takesInput ? input.value : undefined
  const tuples = JSON.stringify(toTuples(formInput, args), null, 2)
  const inputValue = state.format === 'query' ? undefined : formInput
  const rawInUse = state.raw !== null && (state.format === 'tuples' || state.format === 'msgpack')
  const built: BuiltCall = { draft: null, problems, tuples, rawInUse, asText }
  if (state.input.text !== '' && !takesInput) built.inputLeftOut = 'endpoint'
  else if (state.input.text !== '' && state.format === 'query') built.inputLeftOut = 'query'

  let rawBody: CallDraft['rawBody']
  if (rawInUse) {
    // The raw tuples replace the form's: its problems no longer stop the call.
    problems.length = 0
    const raw = state.raw!
    if (state.format === 'tuples') {
      rawBody = raw
      const parsed = parseJsonText(raw)
      if (!parsed.ok) built.rawWarning = parsed.message
    } else {
      const parsed = parseJsonText(raw)
      if (parsed.ok) rawBody = encode(parsed.value)
      else problems.push({ field: 'raw', message: parsed.message })
    }
  }
  if (problems.length > 0) return built
  built.draft = {
    endpoint: state.endpoint,
    token,
    format: state.format,
    accept: state.accept ? (mediaTypeOf(state.accept, serviceName) ?? '') : '',
    ...(inputValue === undefined ? {} : { input: inputValue }),
    args,
    ...(rawBody === undefined ? {} : { rawBody }),
  }
  return built
}
