import { MAX_IN_URL } from '../shared/long-text'
import { BODY_FORMATS, type BodyFormat } from '../shared/wire'
import type { FieldMode } from './json-text'

/**
 * The console's form, as a person left it, and its place in the page URL's fragment so that a
 * link restores it: `#/console?endpoint=type.string.truncate&token=secret:sec_1&format=tuples`
 * `&input.text=hello&arg.length=2`. The fragment never holds a token typed by hand (it may be
 * a secret key); a secret is named by its id, an authorization by itself (what a person shares).
 */

/** A field's text, and how it is read (`undefined` until typed in: by the field's type). */
export interface FieldState {
  text: string
  mode?: FieldMode
}

export interface ArgState extends FieldState {
  name: string
}

/** The `accept` header by format family; empty leaves it out (the request's own family). */
export type AcceptChoice = '' | Exclude<BodyFormat, 'query'>

export const ACCEPT_CHOICES: readonly AcceptChoice[] = ['', 'text', 'json', 'tuples', 'msgpack']

/** The choice that reveals a field for a token typed by hand. */
export const PASTE = 'paste'

/** The choice that sends no token at all (to see the engine's 401). */
export const NO_TOKEN = 'none'

export interface ConsoleState {
  endpoint: string
  /**
   * A token choice id (`secret:<id>`, `authorization:<token>`), `paste`, `none`, or empty when
   * none was chosen: then the first usable secret, as in every view.
   */
  token: string
  /** The token typed by hand, when `token` is `paste`; never kept in the URL. */
  pasted: string
  format: BodyFormat
  accept: AcceptChoice
  input: FieldState
  /** Arguments with a value or added by hand, in order. */
  args: ArgState[]
  /** The tuples edited by hand (JSON text), sent instead of the form's in the tuple formats. */
  raw: string | null
}

export const DEFAULT_FORMAT: BodyFormat = 'json'

export const emptyState: ConsoleState = {
  endpoint: '',
  token: '',
  pasted: '',
  format: DEFAULT_FORMAT,
  accept: '',
  input: { text: '' },
  args: [],
  raw: null,
}

/** A token choice as links carry it: a secret's id, an authorization, or none at all. */
export const isChoiceId = (id: string) => id === NO_TOKEN || /^(secret|authorization):\S+$/.test(id)

const isFormat = (value: string | null): value is BodyFormat =>
  value !== null && (BODY_FORMATS as readonly string[]).includes(value)

const isAccept = (value: string | null): value is AcceptChoice =>
  value !== null && (ACCEPT_CHOICES as readonly string[]).includes(value)

/** The form a fragment describes; what does not parse is left at its default. */
export function stateFromParams(params: URLSearchParams): ConsoleState {
  const state: ConsoleState = { ...emptyState, args: [] }
  const endpoint = params.get('endpoint')?.trim()
  if (endpoint && /^[^\s/?#]+$/.test(endpoint)) state.endpoint = endpoint
  const token = params.get('token') ?? ''
  if (isChoiceId(token)) state.token = token
  const format = params.get('format')
  if (isFormat(format)) state.format = format
  const accept = params.get('accept')
  if (isAccept(accept)) state.accept = accept
  const raw = params.get('raw')
  if (raw !== null) state.raw = raw
  for (const [key, value] of params) {
    if (key === 'input' || key === 'input.text') {
      state.input = { text: value, mode: key === 'input' ? 'json' : 'text' }
      continue
    }
    const arg = /^(arg|text)\.(.+)$/.exec(key)
    if (!arg || state.args.some((a) => a.name === arg[2])) continue
    state.args.push({ name: arg[2]!, text: value, mode: arg[1] === 'arg' ? 'json' : 'text' })
  }
  return state
}

/**
 * The fragment's parameters for a form. A field's mode is written only when it was chosen
 * (`input` JSON, `input.text` plain text; `arg.<name>` and `text.<name>` likewise).
 */
export function paramsOfState(state: ConsoleState): URLSearchParams {
  const params = new URLSearchParams()
  if (state.endpoint) params.set('endpoint', state.endpoint)
  if (isChoiceId(state.token)) params.set('token', state.token)
  if (state.format !== DEFAULT_FORMAT) params.set('format', state.format)
  if (state.accept) params.set('accept', state.accept)
  if (state.input.text !== '' && fitsLink(state.input.text)) {
    params.set(state.input.mode === 'text' ? 'input.text' : 'input', state.input.text)
  }
  for (const arg of state.args) {
    if (!fitsLink(arg.text)) continue
    params.append(`${arg.mode === 'text' ? 'text' : 'arg'}.${arg.name}`, arg.text)
  }
  if (state.raw !== null && fitsLink(state.raw)) params.set('raw', state.raw)
  return params
}

const fitsLink = (text: string) => text.length <= MAX_IN_URL

/**
 * The fields too long to keep in the page URL (`Input`, an argument's name, `Tuples`): the form
 * keeps them while the page is open, a link or a reload does not.
 */
export function leftOutOfLink(state: ConsoleState): string[] {
  return [
    ...(fitsLink(state.input.text) ? [] : ['Input']),
    ...state.args.filter((arg) => !fitsLink(arg.text)).map((arg) => arg.name),
    ...(state.raw === null || fitsLink(state.raw) ? [] : ['Tuples']),
  ]
}

/**
 * How a field of type `type` reads its text when no mode was chosen: as plain text where it
 * takes a string, and wherever it may when the body is `text/plain` (an input of type any, a
 * stored procedure's input, which the catalogue does not describe).
 */
export const defaultMode = (type: string | undefined, format?: BodyFormat): FieldMode =>
  type === 'string' || (format === 'text' && allowsText(type)) ? 'text' : 'json'

/** Whether a field of type `type` may be typed as plain text (unknown types may). */
export const allowsText = (type: string | undefined): boolean =>
  type === undefined || type === 'string' || type === 'any'
