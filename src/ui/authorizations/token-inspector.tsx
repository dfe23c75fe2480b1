import { useQuery } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { messageOf } from '../shared/format'
import { useNow } from '../shared/clock'
import { useConfig } from '../shared/config'
import { Field } from '../shared/field'
import { Masked } from '../shared/masked'
import { inspectQuery } from '../shared/queries'
import { Quoted } from '../shared/quoted'
import { useRouteParam } from '../shared/router'
import { useTokenChoices, type TokenChoice } from '../shared/tokens'
import { ReachGrid } from './reach-grid'
import { TokenFacts } from './token-details'
import { liveStatus } from '../shared/token-state'
import { fromBase64Url } from '../../client/wire'

/**
 * Paste any token, or pick one this page knows, and read what the engine says it is
 * (`POST /_account/inspect`), in plain words, and what it can do (`POST /_account/reach`). A
 * picked token is kept in the view's `inspect` parameter by its choice id (a secret by its id,
 * never its key); a pasted one stays hidden unless shown: it may be a secret key.
 */
export function TokenInspector() {
  const { baseUrl } = useConfig()
  const inputId = useId()
  const [typed, setTyped] = useState('')
  const [shown, setShown] = useState(false)
  const [pasted, setPasted] = useState('')
  const [picked, setPicked] = useRouteParam('authorizations', 'inspect')
  const { choices } = useTokenChoices(picked)
  const chosen = picked ? choices.find((choice) => choice.id === picked) : undefined
  const token = pasted || chosen?.token || ''
  const report = useQuery({ ...inspectQuery(baseUrl, token), enabled: token !== '' })
  const now = useNow()
  const status = liveStatus(report.data, now)

  function submit(event: FormEvent) {
    event.preventDefault()
    setPasted(withoutScheme(typed))
    setPicked(null)
  }

  function pick(id: string) {
    setPasted('')
    setTyped('')
    setPicked(id === '' ? null : id)
  }
  const hadScheme = pasted !== '' && withoutScheme(typed) === pasted && typed.trim() !== pasted
  const claims = token && report.data && !report.data.details ? decodeClaims(token) : undefined

  return (
    <section aria-labelledby="inspector-heading" className="panel inspector">
      <h2 id="inspector-heading">Inspect a token</h2>
      <p className="muted">
        Paste a secret key or an authorization, or pick one this page knows: the engine says what it
        is, whether it works now, and what it can do.
      </p>
      <TokenPick choices={choices} value={chosen && !pasted ? chosen.id : ''} onPick={pick} />
      <form className="inspect-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor={inputId}>Token</label>
          <input
            id={inputId}
            type={shown ? 'text' : 'password'}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        <button
          type="button"
          className="link"
          aria-pressed={shown}
          onClick={() => setShown(!shown)}
        >
          {shown ? 'Hide token' : 'Show token'}
        </button>
        <button type="submit" disabled={typed.trim() === ''}>
          Inspect
        </button>
      </form>
      {report.isError && <p role="alert">{messageOf(report.error)}</p>}
      {token && report.data && (
        <div className="inspect-result" data-testid="inspect-result" aria-live="polite">
          <p>
            <Masked value={token} label="the inspected token" />
          </p>
          {hadScheme && (
            <p className="muted" data-testid="inspect-scheme">
              Read without its <code>Bearer</code> scheme, as the engine reads the header.
            </p>
          )}
          {claims !== undefined && (
            <div className="inspect-claims" data-testid="inspect-claims">
              <p className="muted">
                What its payload says, decoded but <strong>not verified</strong>: nothing in it can
                be trusted until its signature checks out.
              </p>
              <pre>{claims}</pre>
            </div>
          )}
          <p>
            <span className={`token-state token-state-${status.state}`} data-testid="inspect-state">
              {status.headline}
            </span>
            {status.detail && (
              <span className="inspect-detail">
                {' '}
                <Quoted text={status.detail} />
              </span>
            )}
          </p>
          {report.data.details ? (
            <TokenFacts details={report.data.details} now={now} />
          ) : (
            claims === undefined && (
              <p className="muted">
                Nothing more can be read from it: it is no signed token whose payload decodes.
              </p>
            )
          )}
        </div>
      )}
      {token && report.data && (
        <ReachGrid token={token} {...choiceIdOf(token, choices, report.data.details?.kind)} />
      )}
    </section>
  )
}

/** The tokens this page knows, to inspect one without pasting it. */
function TokenPick({
  choices,
  value,
  onPick,
}: {
  choices: readonly TokenChoice[]
  value: string
  onPick: (id: string) => void
}) {
  if (choices.length === 0) return null
  return (
    <Field label="Pick a token this page knows" className="inspect-pick">
      {(id) => (
        <select id={id} value={value} onChange={(event) => onPick(event.target.value)}>
          <option value="">— pasted below —</option>
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

/**
 * How the console's links name the token inspected: a token the page knows by its choice id, an
 * authorization by itself (a link may carry one); a pasted secret key the page does not know,
 * not at all (it never goes into a URL).
 */
function choiceIdOf(
  token: string,
  choices: readonly TokenChoice[],
  kind: 'secret' | 'authorization' | undefined,
): { choiceId?: string } {
  const known = choices.find((choice) => choice.token === token)
  if (known) return { choiceId: known.id }
  return kind === 'authorization' ? { choiceId: `authorization:${token}` } : {}
}

/** The token of a pasted `Authorization` value: `Bearer <token>` is read as `<token>`. */
export const withoutScheme = (text: string): string =>
  text
    .trim()
    .replace(/^bearer\s+/i, '')
    .trim()

/**
 * The payload of a signed token (`<payload>.<signature>`, both base64url) as indented JSON,
 * read without checking the signature; `undefined` when it has no such payload.
 */
export function decodeClaims(token: string): string | undefined {
  const match = /^([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+$/.exec(token)
  if (!match) return undefined
  try {
    const bytes = fromBase64Url(match[1]!)
    if (!bytes) return undefined
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    return JSON.stringify(value, null, 2)
  } catch {
    return undefined
  }
}
