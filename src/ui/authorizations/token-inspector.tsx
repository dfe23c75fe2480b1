import { useQuery } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { messageOf } from '../shared/format'
import { useNow } from '../shared/clock'
import { useConfig } from '../shared/config'
import { Masked } from '../shared/masked'
import { inspectQuery } from '../shared/queries'
import { Quoted } from '../shared/quoted'
import { TokenFacts } from './token-details'
import { liveStatus } from './token-state'

/**
 * Paste any token and read what the engine says it is (`POST /_account/inspect`), in plain
 * words. The pasted token stays hidden unless shown: it may be a secret key.
 */
export function TokenInspector() {
  const { baseUrl } = useConfig()
  const inputId = useId()
  const [typed, setTyped] = useState('')
  const [shown, setShown] = useState(false)
  const [token, setToken] = useState('')
  const report = useQuery({ ...inspectQuery(baseUrl, token), enabled: token !== '' })
  const now = useNow()
  const status = liveStatus(report.data, now)

  function submit(event: FormEvent) {
    event.preventDefault()
    setToken(withoutScheme(typed))
  }
  const hadScheme = token !== '' && withoutScheme(typed) === token && typed.trim() !== token
  const claims = token && report.data && !report.data.details ? decodeClaims(token) : undefined

  return (
    <section aria-labelledby="inspector-heading" className="panel inspector">
      <h2 id="inspector-heading">Inspect a token</h2>
      <p className="muted">
        Paste a secret key or an authorization: the engine says what it is and whether it works now.
      </p>
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
    </section>
  )
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
    const base64 = match[1]!.replaceAll('-', '+').replaceAll('_', '/')
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    return JSON.stringify(value, null, 2)
  } catch {
    return undefined
  }
}
