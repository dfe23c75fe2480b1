import { useMemo, type KeyboardEvent, type Ref } from 'react'
import type { ExchangeRecord, LoggedBody } from '../../engine'
import { formatTime } from '../shared/format'
import { reasonPhrase, saidIn } from '../shared/wire'
import { DecisionTrace, VirtualTime } from './decision-trace'
import { Name, Quoted } from '../shared/quoted'
import { HeaderList } from './header-list'
import { OpenInConsole } from './open-in-console'
import { MessageBody, readLogged, type TextPlace } from './message-body'
import { endpointOf, formatMs, headerOf, tokenOf } from './records'

/** Where the engine said a JSON body went wrong (`… at line 1, column 7`). */
function placeOf(message: string | null): TextPlace | undefined {
  const found = message ? /not valid JSON: .* at line (\d+), column (\d+)$/.exec(message) : null
  return found ? { line: Number(found[1]), column: Number(found[2]) } : undefined
}

/** The message of an error answer in any of the wire's families, as a person reads it. */
function errorMessageOf(body: LoggedBody | null, contentType: string): string | undefined {
  if (!body) return undefined
  const read = readLogged(body, contentType)
  const { error } = saidIn(read.value, contentType, true)
  if (error !== undefined) return error
  return /^text\//i.test(contentType) || contentType === '' ? read.raw : undefined
}

/**
 * One exchange in full: what was sent and answered (headers, bodies every way they can be
 * read) and the engine's decision trace. Escape goes back to the list. `withConsole` (default
 * on) offers to open it in the console, with the account's own secrets to choose from: off
 * where the page's service is not running yet (a shared step opened first, decision 106).
 */
export function ExchangeDetail({
  record,
  closeHref,
  onClose,
  headingRef,
  withConsole = true,
}: {
  record: ExchangeRecord
  closeHref: string
  onClose: () => void
  headingRef: Ref<HTMLHeadingElement>
  withConsole?: boolean
}) {
  const { request, response, trace } = record
  const requestType = headerOf(request.headers, 'content-type') ?? ''
  const responseType = headerOf(response.headers, 'content-type') ?? ''
  const token = tokenOf(record)
  const tokens = useMemo(() => (token ? [token] : []), [token])
  const failed = response.status >= 400
  const wireError = failed ? errorMessageOf(response.body, responseType) : undefined
  const query = [...new URL(request.url).searchParams]

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault()
      onClose()
    }
  }

  return (
    <section
      className="panel log-detail"
      aria-labelledby="log-detail-heading"
      data-testid="exchange-detail"
      onKeyDown={onKeyDown}
    >
      <div className="panel-heading">
        <h3 id="log-detail-heading" ref={headingRef} tabIndex={-1}>
          Exchange #{record.id}:{' '}
          <code>
            <Name text={endpointOf(record)} />
          </code>
        </h3>
        <a href={closeHref} className="log-close">
          Back to all exchanges
        </a>
      </div>
      <dl className="log-facts log-summary">
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`log-status log-status-${Math.floor(response.status / 100)}xx`}>
              {response.status} {reasonPhrase(response.status)}
            </span>
          </dd>
        </div>
        <div>
          <dt>Answered at</dt>
          <dd>
            <VirtualTime seconds={record.at} />
          </dd>
        </div>
        <div>
          <dt>Sent at</dt>
          <dd>
            {formatTime(record.startedAt / 1000)} <span className="muted">(real)</span>
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatMs(record.durationMs)}</dd>
        </div>
      </dl>

      {withConsole && <OpenInConsole record={record} />}

      <DecisionTrace trace={trace} at={record.at} />

      <section aria-labelledby="log-request-heading" className="log-part">
        <h4 id="log-request-heading">Request</h4>
        <p className="log-line">
          <code>
            {request.method} <Name text={request.url} />
          </code>
        </p>
        {query.length > 0 && (
          <>
            <h5>Query arguments</h5>
            <dl className="log-headers" aria-label="Query arguments">
              {query.map(([name, value], index) => (
                <div key={`${name}-${index}`}>
                  <dt>
                    <Name text={name} />
                  </dt>
                  <dd>
                    <code>
                      <Name text={value} />
                    </code>
                  </dd>
                </div>
              ))}
            </dl>
          </>
        )}
        <h5>Headers</h5>
        <HeaderList label="Request headers" headers={request.headers} />
        <h5>Body</h5>
        <MessageBody
          label="Request body"
          body={request.body}
          contentType={requestType}
          tokens={tokens}
          place={placeOf(trace.outcome.message)}
        />
      </section>

      <section aria-labelledby="log-response-heading" className="log-part">
        <h4 id="log-response-heading">Response</h4>
        <p className="log-line">
          <code>
            {response.status} {reasonPhrase(response.status)}
          </code>
        </p>
        {wireError !== undefined && (
          <p className="log-wire-error" data-testid="wire-error">
            <span className="muted">Error message: </span>
            <Quoted text={wireError} />
          </p>
        )}
        <h5>Headers</h5>
        <HeaderList label="Response headers" headers={response.headers} />
        <h5>Body</h5>
        <MessageBody
          label="Response body"
          body={response.body}
          contentType={responseType}
          tokens={tokens}
        />
      </section>
    </section>
  )
}
