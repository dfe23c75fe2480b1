import type { DiffItem } from '../../engine'
import { routeHref } from '../shared/router'
import { callTuples } from '../../client/wire'

type Counterexample = DiffItem['counterexample']

/**
 * A diff's counterexample (decision 055) as the console sends it: its input and arguments are
 * values as the tuple body reads them (a bare value is data, `["{}", …]` a composition), so the
 * console gets them as raw tuples, sent as `application/vnd.<service>+json` exactly as simulate
 * read them.
 */
export function counterexampleTuples(call: Counterexample): unknown[] {
  return callTuples(call.input, call.args ?? {})
}

/** The console, filled with the counterexample and the token (a choice id) to send it with. */
export function counterexampleHref(call: Counterexample, choiceId: string): string {
  const params = new URLSearchParams({ endpoint: call.endpoint, token: choiceId })
  const tuples = counterexampleTuples(call)
  if (tuples.length > 0) {
    params.set('format', 'tuples')
    params.set('raw', JSON.stringify(tuples))
  }
  return routeHref('console', params)
}

const brief = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}…` : text
}

/** The call in one line: `keyv.get("k", bucket: "users")`. */
export function callText(call: Counterexample): string {
  const parts = [
    ...(call.input === undefined ? [] : [brief(call.input)]),
    ...Object.entries(call.args ?? {}).map(([name, value]) => `${name}: ${brief(value)}`),
  ]
  return `${call.endpoint}(${parts.join(', ')})`
}
