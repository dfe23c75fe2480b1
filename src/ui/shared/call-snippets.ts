/**
 * A planned request written out as code a person can paste: a `curl` command line, a `fetch`
 * call, or the call as the real clients write it.
 */
import type { CallDraft, HttpPlan } from './call-plan'
import { hexByte } from './readable-body'

/** A shell-safe single-quoted string. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

/** The request as a `curl` command line. */
export function asCurl(plan: HttpPlan): string {
  const lines = [`curl -X POST ${shellQuote(plan.url)}`]
  for (const [name, value] of plan.headers) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`)
  if (typeof plan.body === 'string') lines.push(`--data-binary ${shellQuote(plan.body)}`)
  if (plan.body instanceof Uint8Array) {
    const escaped = [...plan.body].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`)
    return `printf '${escaped.join('')}' |\n  ${lines.join(' \\\n  ')} \\\n  --data-binary @-`
  }
  return lines.join(' \\\n  ')
}

/** The request as a `fetch` call. */
export function asFetch(plan: HttpPlan): string {
  const headers = Object.fromEntries(plan.headers)
  const init = [
    `  method: 'POST',`,
    `  headers: ${JSON.stringify(headers, null, 2).replaceAll('\n', '\n  ')},`,
  ]
  if (typeof plan.body === 'string') init.push(`  body: ${JSON.stringify(plan.body)},`)
  if (plan.body instanceof Uint8Array) {
    init.push(
      `  body: new Uint8Array([${[...plan.body].map((b) => `0x${hexByte(b)}`).join(', ')}]),`,
    )
  }
  return `const response = await fetch(${JSON.stringify(plan.url)}, {\n${init.join('\n')}\n})`
}

/**
 * The call as the real clients write it: the endpoint as a path of properties, the input
 * first, the arguments as one object (`client.type.string.truncate("hello", { length: 2 })`).
 */
export function asClient(draft: Pick<CallDraft, 'endpoint' | 'input' | 'args'>): string {
  const path = draft.endpoint
    .trim()
    .split('.')
    .map((part) => (/^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`))
    .join('')
  const params: string[] = []
  if (draft.input !== undefined) params.push(JSON.stringify(draft.input))
  if (draft.args.length > 0) {
    const members = draft.args.map(
      ([name, value]) =>
        `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}: ${JSON.stringify(value)}`,
    )
    params.push(`{ ${members.join(', ')} }`)
  }
  return `await client${path}(${params.join(', ')})`
}
