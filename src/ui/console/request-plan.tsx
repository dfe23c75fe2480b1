import { useConfig } from '../shared/config'
import { CopyButton } from '../shared/copy-button'
import { isLong, PREVIEW_CHARS, Preview, prefixOf } from '../shared/long-text'
import { Masked, mask } from '../shared/masked'
import { ServeNote, terminalCurl } from '../shared/serve-note'
import { asClient, asFetch, toHex, type CallDraft, type HttpPlan } from '../shared/wire'

/** A body's size as a person reads it. */
const sizeOf = (body: string | Uint8Array) => {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body).length : body.length
  return `${bytes} byte${bytes === 1 ? '' : 's'}`
}

/** The plan with its bearer token masked, as the screen shows it until revealed. */
const masked = (plan: HttpPlan, token: string): HttpPlan =>
  token
    ? {
        ...plan,
        headers: plan.headers.map(([name, value]) =>
          name === 'authorization' ? [name, value.replace(token, mask(token))] : [name, value],
        ),
      }
    : plan

/** The bytes of MessagePack the screen draws in hex (three characters a byte). */
const SHOWN_BYTES = PREVIEW_CHARS / 4

/** The plan as the screen shows it: a long body cut to what the screen draws. */
function shortened(plan: HttpPlan): HttpPlan {
  const { body } = plan
  if (typeof body === 'string') return isLong(body) ? { ...plan, body: `${prefixOf(body)}…` } : plan
  return body && body.length > SHOWN_BYTES ? { ...plan, body: body.subarray(0, SHOWN_BYTES) } : plan
}

/**
 * The exact HTTP request Send makes, before it is sent: method, URL, every header (the token
 * masked until revealed) and the body (MessagePack in hex), with the same call to copy as
 * `curl` (against `npm run serve`: the base URL exists only in the page), as `fetch` and as a
 * real client writes it.
 */
export function RequestPlan({ plan, draft }: { plan: HttpPlan; draft: CallDraft }) {
  const config = useConfig()
  const { body } = plan
  return (
    <section aria-labelledby="console-request-heading" className="panel console-plan">
      <div className="panel-heading">
        <h2 id="console-request-heading">Request</h2>
        <div className="copy-row">
          <CopyButton text={() => terminalCurl(plan, config)} label="Copy as curl" />
          <CopyButton text={() => asFetch(plan)} label="Copy as fetch" />
          <CopyButton text={() => asClient(draft)} label="Copy as client call" />
        </div>
      </div>
      <p className="plan-line" data-testid="plan-line">
        <strong>{plan.method}</strong> <code>{plan.url}</code>
      </p>
      <dl className="wire-headers" aria-label="Request headers" data-testid="plan-headers">
        {plan.headers.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd data-header={name}>
              {name === 'authorization' ? (
                <>
                  {value.slice(0, value.indexOf(' ') + 1)}
                  <Masked value={draft.token.trim()} label="the token of the request" />
                </>
              ) : (
                value
              )}
            </dd>
          </div>
        ))}
      </dl>
      <p className="muted plan-note">
        The browser adds headers of its own, such as <code>accept: */*</code> when none is set.
      </p>
      {body === null ? (
        <p className="muted">No body.</p>
      ) : (
        <>
          <h3>
            Body{' '}
            <span className="muted">
              ({typeof body === 'string' ? sizeOf(body) : `MessagePack, ${sizeOf(body)}, in hex`})
            </span>
          </h3>
          {typeof body === 'string' ? (
            <Preview text={body} testId="plan-body" what="all are sent" />
          ) : (
            <>
              <pre data-testid="plan-body">{toHex(body.subarray(0, SHOWN_BYTES))}</pre>
              {body.length > SHOWN_BYTES && (
                <p className="muted preview-more" data-testid="preview-more">
                  … and {(body.length - SHOWN_BYTES).toLocaleString('en-US')} more bytes (all are
                  sent)
                </p>
              )}
            </>
          )}
        </>
      )}
      <ServeNote shown={shortened(masked(plan, draft.token.trim()))} config={config} />
    </section>
  )
}
