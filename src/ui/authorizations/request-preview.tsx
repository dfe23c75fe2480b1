import { useState } from 'react'
import { useConfig } from '../shared/config'
import { CopyButton } from '../shared/copy-button'
import { mask } from '../shared/masked'
import { servePlan, ServeNote, terminalCurl } from '../shared/serve-note'
import {
  asClient,
  asCurl,
  asFetch,
  planCall,
  toHex,
  type CallDraft,
  type HttpPlan,
} from '../shared/wire'

/** The request as it travels: method and URL, headers, a blank line, the body (hex for MessagePack). */
export function httpText(plan: HttpPlan): string {
  const lines = [`${plan.method} ${plan.url}`, ...plan.headers.map(([n, v]) => `${n}: ${v}`)]
  if (plan.body === null) return lines.join('\n')
  const body =
    typeof plan.body === 'string'
      ? plan.body
      : `${toHex(plan.body)}\n(MessagePack, ${plan.body.length} bytes, in hex)`
  return `${lines.join('\n')}\n\n${body}`
}

/**
 * The exact request a draft becomes, before it is sent, and the same call as `curl`, as
 * `fetch` and in the real client's style, each with a copy button. The token is masked on
 * screen until revealed; what is copied is the real request.
 */
export function RequestPreview({ draft }: { draft: CallDraft }) {
  const config = useConfig()
  const { baseUrl, serviceName } = config
  const [revealed, setRevealed] = useState(false)
  const plan = planCall(baseUrl, serviceName, draft)
  const shown =
    revealed || !draft.token
      ? plan
      : planCall(baseUrl, serviceName, { ...draft, token: mask(draft.token) })
  const snippets: Array<{ id: string; title: string; label?: string; text: string; copy: string }> =
    [
      { id: 'http', title: 'HTTP request', text: httpText(shown), copy: httpText(plan) },
      {
        id: 'curl',
        title: 'curl (to npm run serve)',
        label: 'Copy curl',
        text: asCurl(servePlan(shown, config)),
        copy: terminalCurl(plan, config),
      },
      { id: 'fetch', title: 'fetch', text: asFetch(shown), copy: asFetch(plan) },
      { id: 'client', title: 'Client', text: asClient(draft), copy: asClient(draft) },
    ]
  return (
    <div className="request-preview">
      <div className="preview-heading">
        <h3 id="request-heading">The request it sends</h3>
        {draft.token && (
          <button
            type="button"
            className="link"
            aria-pressed={revealed}
            onClick={() => setRevealed(!revealed)}
          >
            {revealed ? 'Hide the token' : 'Reveal the token'}
          </button>
        )}
      </div>
      <ServeNote shown={shown} config={config} curl={false} />
      {snippets.map((snippet) => (
        <figure key={snippet.id} className="snippet">
          <figcaption>
            <span>{snippet.title}</span>
            <CopyButton text={snippet.copy} label={snippet.label ?? `Copy ${snippet.title}`} />
          </figcaption>
          <pre data-testid={`snippet-${snippet.id}`}>{snippet.text}</pre>
        </figure>
      ))}
    </div>
  )
}
