import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useConfig } from '../shared/config'
import { Field } from '../shared/field'
import { messageOf } from '../shared/format'
import { useAccountMutation } from '../shared/queries'
import { useTokenChoices } from '../shared/tokens'
import {
  addFault,
  clearFault,
  clearFaults,
  faultsQuery,
  type FaultKind,
  type FaultRequest,
} from './operator-api'
import { describeFault } from './fault-words'

/** The kinds the form sets; a canned answer (`respond`) is the kit's, set from a test. */
const KINDS: Record<Exclude<FaultKind, 'respond'>, string> = {
  status: 'An error status',
  delay: 'The real answer, late',
  network: 'No answer: the connection drops',
  reset: 'Headers, then the connection drops mid-body',
  truncate: 'The real answer cut in half',
  hang: 'Nothing, until the client gives up',
}

const STATUSES = [
  [429, '429 Too Many Requests (with retry-after)'],
  [503, '503 Service Unavailable'],
  [500, '500 Internal Server Error'],
  [502, '502 Bad Gateway'],
  [504, '504 Gateway Timeout'],
  [408, '408 Request Timeout'],
] as const

/**
 * Faults on demand: an error status, a delay, a dropped connection, a cut body or a hang, for
 * one endpoint or package and one token, a number of calls or every call, with a probability:
 * what a client's retry logic meets. Each faulted answer carries `x-fault`; a reset clears them.
 */
export function FaultForm() {
  const { baseUrl } = useConfig()
  // Calls use faults up: the list is read again while it is shown.
  const faults = useQuery({ ...faultsQuery(baseUrl), refetchInterval: 2000 })
  const { choices } = useTokenChoices()
  const [kind, setKind] = useState<FaultKind>('status')
  const [status, setStatus] = useState('503')
  const [retryAfter, setRetryAfter] = useState('5')
  const [delayMs, setDelayMs] = useState('2000')
  const [endpoint, setEndpoint] = useState('')
  const [token, setToken] = useState('')
  const [count, setCount] = useState('1')
  const [always, setAlways] = useState(false)
  const [percent, setPercent] = useState('100')
  const add = useAccountMutation((fault: FaultRequest) => addFault(baseUrl, fault))
  const clearOne = useAccountMutation((id: string) => clearFault(baseUrl, id))
  const clearAll = useAccountMutation(() => clearFaults(baseUrl))

  function submit(event: FormEvent) {
    event.preventDefault()
    const fault: FaultRequest = {
      kind,
      count: always ? null : Number(count),
      probability: Number(percent) / 100,
      ...(kind === 'status' ? { status: Number(status) } : {}),
      ...(kind === 'status' && status === '429' ? { retryAfter: Number(retryAfter) } : {}),
      ...(kind === 'delay' || kind === 'hang' ? { delayMs: Number(delayMs) } : {}),
      ...(endpoint.trim() ? { endpoint: endpoint.trim() } : {}),
      ...(token ? { token } : {}),
    }
    add.mutate(fault)
  }

  const list = faults.data ?? []
  return (
    <section aria-labelledby="faults-heading" className="operator-part">
      <h4 id="faults-heading">Faults</h4>
      <form className="fault-form" onSubmit={submit} noValidate>
        <Field label="Fault">
          {(id) => (
            <select id={id} value={kind} onChange={(e) => setKind(e.target.value as FaultKind)}>
              {Object.entries(KINDS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {kind === 'status' && (
          <Field label="Status">
            {(id) => (
              <select id={id} value={status} onChange={(e) => setStatus(e.target.value)}>
                {STATUSES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {kind === 'status' && status === '429' && (
          <Field label="retry-after (seconds)">
            {(id) => (
              <input
                id={id}
                type="number"
                min={0}
                value={retryAfter}
                onChange={(e) => setRetryAfter(e.target.value)}
              />
            )}
          </Field>
        )}
        {(kind === 'delay' || kind === 'hang') && (
          <Field label={kind === 'hang' ? 'Drop the connection after (ms)' : 'Delay (ms)'}>
            {(id) => (
              <input
                id={id}
                type="number"
                min={0}
                value={delayMs}
                onChange={(e) => setDelayMs(e.target.value)}
              />
            )}
          </Field>
        )}
        <Field label="Endpoint or package (empty for any)">
          {(id) => (
            <input
              id={id}
              value={endpoint}
              placeholder="keyv.get"
              spellCheck={false}
              onChange={(e) => setEndpoint(e.target.value)}
            />
          )}
        </Field>
        <Field label="Token">
          {(id) => (
            <select id={id} value={token} onChange={(e) => setToken(e.target.value)}>
              <option value="">Any token</option>
              {choices.map((choice) => (
                <option key={choice.id} value={choice.token}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Calls">
          {(id) => (
            <input
              id={id}
              type="number"
              min={1}
              value={count}
              disabled={always}
              onChange={(e) => setCount(e.target.value)}
            />
          )}
        </Field>
        <label className="fault-always">
          <input type="checkbox" checked={always} onChange={(e) => setAlways(e.target.checked)} />{' '}
          every call, until cleared
        </label>
        <Field label="Probability (%)">
          {(id) => (
            <input
              id={id}
              type="number"
              min={1}
              max={100}
              value={percent}
              onChange={(e) => setPercent(e.target.value)}
            />
          )}
        </Field>
        <div>
          <button type="submit" disabled={add.isPending}>
            Add the fault
          </button>
        </div>
      </form>
      {add.isError && <p role="alert">Not added: {messageOf(add.error)}</p>}
      {faults.isError && <p role="alert">{messageOf(faults.error)}</p>}
      {list.length === 0 ? (
        <p className="muted" data-testid="no-faults">
          No fault is set: every call gets its real answer.
        </p>
      ) : (
        <>
          <ul className="fault-list" aria-label="Faults set">
            {list.map((rule) => (
              <li key={rule.id} data-testid="fault">
                <span>{describeFault(rule)}</span>{' '}
                <button
                  type="button"
                  className="link"
                  aria-label={`Clear the fault ${describeFault(rule)}`}
                  onClick={() => clearOne.mutate(rule.id)}
                >
                  Clear
                </button>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => clearAll.mutate()}>
            Clear every fault
          </button>
        </>
      )}
    </section>
  )
}
