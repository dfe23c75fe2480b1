import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useConfig } from '../shared/config'
import { Field } from '../shared/field'
import { messageOf } from '../shared/format'
import { useAccountMutation } from '../shared/queries'
import { FaultForm } from './fault-form'
import './operator.css'
import {
  rateLimitQuery,
  setRateLimit,
  setStrict,
  strictQuery,
  type RateLimitView,
} from './operator-api'

/**
 * The operator's controls, as `serve` and the kit have them: faults, strict mode and its report,
 * the rate limit's enforcement. A demo can show a client's retry logic meeting a 503, or a 429.
 */
export function OperatorPanel() {
  return (
    <section aria-labelledby="operator-heading" className="panel settings operator-panel">
      <h2 id="operator-heading">Operator controls</h2>
      <p className="muted">
        What a client meets beyond the happy path: faults on demand, strict mode, the rate limit. A
        reset clears faults and turns strict mode and the rate limit back to how the page started.
      </p>
      <FaultForm />
      <StrictPart />
      <RatePart />
    </section>
  )
}

/** Strict mode: refuses what the interface does not promise, and reports every request. */
function StrictPart() {
  const { baseUrl } = useConfig()
  const strict = useQuery({ ...strictQuery(baseUrl), refetchInterval: 2000 })
  const toggle = useAccountMutation((enabled: boolean) => setStrict(baseUrl, enabled))
  const requests = strict.data?.requests ?? []
  const flagged = requests.filter((request) => request.deviations.length > 0)
  return (
    <section aria-labelledby="strict-heading" className="operator-part">
      <h4 id="strict-heading">Strict mode</h4>
      <label className="operator-switch">
        <input
          type="checkbox"
          checked={strict.data?.enabled ?? false}
          disabled={!strict.data || toggle.isPending}
          onChange={(e) => toggle.mutate(e.target.checked)}
        />{' '}
        Refuse what a lenient server lets pass but the interface does not promise (a body with no
        content type, JSON sent as text, an accept nothing answers, an unknown tuple marker)
      </label>
      {toggle.isError && <p role="alert">{messageOf(toggle.error)}</p>}
      {strict.data?.enabled && (
        <div data-testid="strict-report">
          <p className="muted">
            {requests.length} {requests.length === 1 ? 'request' : 'requests'} since strict mode was
            turned on, {flagged.length} with something a client should fix
            {flagged.length > 0 ? ':' : '.'}
          </p>
          {flagged.length > 0 && (
            <ul className="strict-list">
              {flagged
                .slice(-20)
                .reverse()
                .map((request, index) => (
                  <li key={index}>
                    <code>
                      {request.method} {new URL(request.url).pathname}
                    </code>
                    : {request.deviations.join('; ')}
                  </li>
                ))}
            </ul>
          )}
        </div>
      )}
    </section>
  )
}

/** The rate limit: counted always (the `x-rate-limit` header), enforced with 429 when asked. */
function RatePart() {
  const { baseUrl } = useConfig()
  const rate = useQuery(rateLimitQuery(baseUrl))
  return (
    <section aria-labelledby="rate-heading" className="operator-part">
      <h4 id="rate-heading">Rate limit</h4>
      {rate.isError && <p role="alert">{messageOf(rate.error)}</p>}
      {rate.data && <RateForm key={JSON.stringify(rate.data)} current={rate.data} />}
    </section>
  )
}

function RateForm({ current }: { current: RateLimitView }) {
  const { baseUrl } = useConfig()
  const [enforce, setEnforce] = useState(current.enforce)
  const [limit, setLimit] = useState(String(current.limit))
  const [windowSeconds, setWindowSeconds] = useState(String(current.windowSeconds))
  const save = useAccountMutation((next: RateLimitView) => setRateLimit(baseUrl, next))

  function submit(event: FormEvent) {
    event.preventDefault()
    save.mutate({ enforce, limit: Number(limit), windowSeconds: Number(windowSeconds) })
  }

  return (
    <form className="rate-form" onSubmit={submit} noValidate>
      <p className="muted" data-testid="rate-now">
        Now: {current.limit} calls per {current.windowSeconds} s,{' '}
        {current.enforce
          ? 'enforced: a call past it answers 429 with retry-after'
          : 'counted only (the x-rate-limit header), never refused'}
        .
      </p>
      <label className="operator-switch">
        <input type="checkbox" checked={enforce} onChange={(e) => setEnforce(e.target.checked)} />{' '}
        Enforce it
      </label>
      <Field label="Calls allowed">
        {(id) => (
          <input
            id={id}
            type="number"
            min={1}
            value={limit}
            onChange={(e) => setLimit(e.target.value)}
          />
        )}
      </Field>
      <Field label="In a window of (seconds)">
        {(id) => (
          <input
            id={id}
            type="number"
            min={1}
            value={windowSeconds}
            onChange={(e) => setWindowSeconds(e.target.value)}
          />
        )}
      </Field>
      <div>
        <button type="submit" disabled={save.isPending}>
          Set the rate limit
        </button>
      </div>
      {save.isError && <p role="alert">Not set: {messageOf(save.error)}</p>}
    </form>
  )
}
