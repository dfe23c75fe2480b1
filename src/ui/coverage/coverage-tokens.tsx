import type { TokenLeastPrivilege } from '../../engine'
import { messageOf } from '../shared/format'
import { useLeastPrivilege } from '../shared/least-privilege'
import { NameList, Quoted } from '../shared/quoted'
import { routeHref } from '../shared/router'

/** Tokens drawn; the rest are counted. */
const DRAWN = 20

/** Whether a token reaches beyond its use: by the proof's diff, else by its flags. */
const overBroad = (token: TokenLeastPrivilege) =>
  token.excess
    ? token.excess.endpoints > 0 || token.excess.limits > 0 || token.excess.time
    : token.flags.length > 0

/**
 * The tokens of this tab's log that reach beyond their use, first in the view (decision 090):
 * the engine's least-privilege report over the log, those reaching furthest beyond their use
 * first, each with what it was minted with, what its use needs and why it is flagged. A token
 * is named by its place in the log, never by its value.
 */
export function CoverageTokens() {
  const { query, logError } = useLeastPrivilege(undefined)
  const report = query.data
  const broad = report?.tokens.filter(overBroad) ?? []
  return (
    <section
      aria-labelledby="coverage-tokens-heading"
      className="panel coverage-tokens"
      data-testid="coverage-tokens"
    >
      <h2 id="coverage-tokens-heading">
        Tokens wider than their use{report && <span className="muted"> ({broad.length})</span>}
      </h2>
      {logError ? (
        <p role="alert">{messageOf(logError)}</p>
      ) : query.isError ? (
        <p role="alert">The engine could not say: {messageOf(query.error)}</p>
      ) : !report ? (
        <p className="muted">Asking the engine…</p>
      ) : broad.length === 0 ? (
        <p className="coverage-clean">
          {report.tokens.length === 0
            ? 'No call in the log was made with an authorization.'
            : `None: each of the ${report.tokens.length} tokens used reaches no more than its use.`}
        </p>
      ) : (
        <>
          <p className="muted">
            Each reaches more than the log shows it using. Inspect it in{' '}
            <a href={routeHref('authorizations')}>Authorizations</a> and tighten it there, or run{' '}
            <code>npx service-playground tokens</code> over a saved log.
          </p>
          <ol className="coverage-token-list">
            {broad.slice(0, DRAWN).map((token) => (
              <li key={token.label} data-testid="coverage-token">
                <strong>{token.label}</strong>
                {token.excess && (
                  <span className="muted">
                    {' '}
                    · {token.excess.endpoints} endpoints, {token.excess.limits} key-value regions
                    beyond its use{token.excess.time && ', and longer-lived'}
                  </span>
                )}
                <div className="coverage-token-abilities">
                  Minted with{' '}
                  {token.minted.abilities ? (
                    <NameList names={token.minted.abilities} className="tighten-abilities" />
                  ) : (
                    'unknown abilities'
                  )}
                  ; its use needs{' '}
                  <NameList names={token.suggestion.abilities} className="tighten-abilities" />
                </div>
                <ul>
                  {token.flags.map((flag, i) => (
                    <li key={`${flag.kind}\u0000${i}`} data-kind={flag.kind}>
                      <Quoted text={flag.sentence} />
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
          {broad.length > DRAWN && (
            <p className="muted">
              and {broad.length - DRAWN} more (the report of the command line lists every one)
            </p>
          )}
        </>
      )}
    </section>
  )
}
