import { useState } from 'react'
import type { DiffItem, TokenLeastPrivilege } from '../../engine'
import { ErrorBoundary } from '../shared/error-boundary'
import { messageOf } from '../shared/format'
import { Name, NameList, Quoted } from '../shared/quoted'
import { callText } from './counterexample'
import { useLeastPrivilege } from '../shared/least-privilege'
import { useComposeArgsHref } from './use-composition'

/** Items of what the suggestion would stop reaching drawn at first. */
const DRAWN = 12

/**
 * "Tighten to what was used", under a token's reach (decision 090): asked on demand, the
 * engine's suggestion of the narrowest `auth.create` arguments for what this tab's log shows the
 * token doing, the proof of it (its calls replayed, the two tokens diffed), what the suggestion
 * would stop reaching, and a link that puts the arguments into the composer.
 */
export function TightenToUse({ token }: { token: string }) {
  const [asked, setAsked] = useState(false)
  return (
    <section className="tighten" aria-labelledby="tighten-heading" data-testid="tighten">
      <h3 id="tighten-heading">Tighten to what was used</h3>
      {!asked ? (
        <>
          <p className="muted">
            The narrowest abilities under which every call this tab&apos;s log shows the token
            making still answers as it did, proven by the engine.
          </p>
          <button type="button" onClick={() => setAsked(true)}>
            Tighten to what was used
          </button>
        </>
      ) : (
        <Suggested token={token} />
      )}
    </section>
  )
}

function Suggested({ token }: { token: string }) {
  const { query, logError } = useLeastPrivilege(token)
  if (logError) return <p role="alert">{messageOf(logError)}</p>
  if (query.isError) {
    return <p role="alert">The engine could not say: {messageOf(query.error)}</p>
  }
  if (!query.data) return <p className="muted">Asking the engine…</p>
  const [found] = query.data.tokens
  if (!found) {
    return (
      <p className="muted" data-testid="tighten-none">
        This tab&apos;s log holds no call made with this token: call endpoints with it (the
        Console), then ask again.
      </p>
    )
  }
  return (
    <ErrorBoundary what="The suggestion">
      <SuggestionView token={found} />
    </ErrorBoundary>
  )
}

function SuggestionView({ token }: { token: TokenLeastPrivilege }) {
  const composeHref = useComposeArgsHref()
  const { suggestion, proof, minted, flags } = token
  const lost = proof?.lost ?? []
  return (
    <>
      <dl className="tighten-facts">
        <div>
          <dt>Minted with</dt>
          <dd data-testid="tighten-minted">
            {minted.abilities ? (
              <NameList names={minted.abilities} className="tighten-abilities" />
            ) : (
              'unknown (no trace of its calls says): suggested from its use alone'
            )}
            {minted.insecure && ' · insecure'}
          </dd>
        </div>
        <div>
          <dt>Its use needs</dt>
          <dd data-testid="tighten-suggested">
            <NameList names={suggestion.abilities} className="tighten-abilities" />
            {suggestion.insecure && ' · insecure'}
            {suggestion.ttl !== null && <> · ttl {suggestion.ttl} s</>}
          </dd>
        </div>
        <div>
          <dt>Proof</dt>
          <dd data-testid="tighten-proof" data-status={proof?.status ?? 'none'}>
            {proof ? (
              <>
                <strong>{proof.status}</strong>: <Quoted text={proof.sentence} />
              </>
            ) : (
              'not run'
            )}
          </dd>
        </div>
      </dl>
      {suggestion.notes.length > 0 && (
        <ul className="tighten-notes muted">
          {suggestion.notes.map((note) => (
            <li key={note}>
              <Quoted text={note} />
            </li>
          ))}
        </ul>
      )}
      {flags.length > 0 && (
        <ul className="tighten-flags" data-testid="tighten-flags">
          {flags.map((flag, i) => (
            <li key={`${flag.kind}\u0000${i}`} data-kind={flag.kind}>
              <Quoted text={flag.sentence} />
            </li>
          ))}
        </ul>
      )}
      <Lost items={lost} />
      <p>
        <a href={composeHref(suggestion.args)} data-testid="tighten-compose">
          Put these into the composer
        </a>
      </p>
    </>
  )
}

function Lost({ items }: { items: readonly DiffItem[] }) {
  const [all, setAll] = useState(false)
  const drawn = all ? items : items.slice(0, DRAWN)
  return (
    <section className="tighten-lost" data-testid="tighten-lost" aria-label="What it would stop">
      <h4>
        What it would stop reaching <span className="muted">({items.length})</span>
      </h4>
      {items.length === 0 ? (
        <p className="muted">Nothing: the token already reaches no more than its use.</p>
      ) : (
        <ul>
          {drawn.map((item, i) => (
            <li
              key={`${item.kind}\u0000${item.endpoint}\u0000${i}`}
              data-testid="tighten-lost-item"
              data-endpoint={item.endpoint}
            >
              <span className="diff-kind">{item.kind}</span> <Quoted text={item.sentence} />{' '}
              <code>
                <Name text={callText(item.counterexample)} edges={false} />
              </code>
            </li>
          ))}
        </ul>
      )}
      {drawn.length < items.length && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          Show {items.length - drawn.length} more
        </button>
      )}
    </section>
  )
}
