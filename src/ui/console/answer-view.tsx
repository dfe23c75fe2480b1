import { useId, useState, type ReactNode } from 'react'
import { CopyButton } from '../shared/copy-button'
import { Preview } from '../shared/long-text'
import type { PageExchange } from '../shared/page-store'
import { Name } from '../shared/quoted'
import { RefusalReason, TraceWarnings } from '../shared/refusal'
import { routeHref } from '../shared/router'
import type { Answer } from './answer'

type BodyView = 'pretty' | 'raw' | 'hex'

/**
 * What came back: the status with its reason phrase, the time taken, the engine's message or
 * the value, every header, and the body raw and pretty (MessagePack decoded and in hex).
 */
export function AnswerView({
  answer,
  exchange,
  actions,
  stale = false,
}: {
  answer: Answer
  /** The form has changed since this request was sent: the answer is an earlier request's. */
  stale?: boolean
  /** This request in the exchange log, once found: its trace says why it was refused. */
  exchange?: PageExchange
  /** More to do with the answer (next page, use an authorization). */
  actions?: ReactNode
}) {
  const id = useId()
  const { result, body } = answer
  const isMsgpack = body.hex !== undefined
  const views: BodyView[] = isMsgpack ? ['pretty', 'hex'] : ['pretty', 'raw']
  const [chosen, setChosen] = useState<BodyView>('pretty')
  const view = views.includes(chosen) ? chosen : 'pretty'
  const text = view === 'hex' ? (body.hex ?? '') : view === 'raw' ? body.raw : body.pretty
  const ok = result.status < 400
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className={stale ? 'panel console-answer stale' : 'panel console-answer'}
      data-stale={stale ? 'true' : undefined}
    >
      <div className="panel-heading">
        <h2 id={`${id}-heading`}>{stale ? 'Answer to the earlier request' : 'Answer'}</h2>
        {exchange && (
          <a href={routeHref('log', { id: String(exchange.id) })}>See in the exchange log</a>
        )}
      </div>
      {stale && (
        <p className="stale-note" data-testid="stale-note">
          The form has changed since this request was sent: this answer is the earlier
          request&apos;s. Send (<kbd>Ctrl</kbd>+<kbd>Enter</kbd>) to see this one&apos;s.
        </p>
      )}
      <p className="answer-status">
        <output className={ok ? 'ok' : 'failed'} data-testid="answer-status">
          {result.status} {result.statusText}
        </output>{' '}
        <span className="muted">
          in {result.durationMs.toFixed(result.durationMs < 10 ? 1 : 0)} ms
        </span>
      </p>
      {answer.error !== undefined && (
        <div className="answer-error">
          <h3>The engine says</h3>
          <p data-testid="answer-message">
            <Name text={answer.error} edges={false} />
          </p>
          {exchange && <RefusalReason trace={exchange.trace} />}
        </div>
      )}
      {exchange && <TraceWarnings trace={exchange.trace} />}
      {answer.value !== undefined && (
        <div className="answer-value">
          <div className="panel-heading">
            <h3>Value</h3>
            <CopyButton text={answer.value} label="Copy value" />
          </div>
          <Preview text={answer.value} testId="answer-value" what="copied whole" />
        </div>
      )}
      {actions && <div className="answer-actions">{actions}</div>}
      <h3>Headers</h3>
      <dl className="wire-headers" aria-label="Response headers" data-testid="answer-headers">
        {result.headers.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd data-header={name}>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="panel-heading">
        <h3>
          Body <span className="muted">({result.bytes.length} bytes)</span>
        </h3>
        {result.bytes.length > 0 && (
          <fieldset className="body-views">
            <legend className="visually-hidden">Show the body</legend>
            {views.map((option) => (
              <label key={option}>
                <input
                  type="radio"
                  name={`${id}-view`}
                  checked={view === option}
                  onChange={() => setChosen(option)}
                />
                {option === 'pretty' ? (isMsgpack ? 'decoded' : 'pretty') : option}
              </label>
            ))}
          </fieldset>
        )}
      </div>
      {result.bytes.length === 0 ? (
        <p className="muted">No body.</p>
      ) : (
        <Preview text={text} testId="answer-body" what="received whole" />
      )}
    </section>
  )
}
