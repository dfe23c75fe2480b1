import { useState } from 'react'
import type { DiffItem, DiffReport, TokenSummary } from '../../engine'
import { ErrorBoundary } from '../shared/error-boundary'
import { Field } from '../shared/field'
import { formatTime, messageOf } from '../shared/format'
import { reasonLabel } from '../shared/labels'
import { Name, NameList, Quoted } from '../shared/quoted'
import { useRouteParam } from '../shared/router'
import { useTokenChoices, type TokenChoice } from '../shared/tokens'
import { callText, counterexampleHref } from './counterexample'
import { useDiff } from './insight-api'

/** Items drawn at first in each list; the rest on asking. */
const DRAWN = 50

/**
 * Two tokens side by side (`POST /_account/diff`, decision 055): what B reaches that A cannot,
 * and the reverse, each with the call that proves it — the engine's decision on it for both —
 * and links that open that call in the console with either token. The two are kept in the
 * view's `a` and `b` parameters by their choice ids.
 */
export function TokenDiff() {
  const [a, setA] = useRouteParam('authorizations', 'a')
  const [b, setB] = useRouteParam('authorizations', 'b')
  const fromA = useTokenChoices(a).choices
  const fromB = useTokenChoices(b).choices
  const choices = [...fromA, ...fromB.filter((choice) => !fromA.some((c) => c.id === choice.id))]
  const tokenA = choices.find((choice) => choice.id === a)
  const tokenB = choices.find((choice) => choice.id === b)
  const diff = useDiff(tokenA?.token, tokenB?.token)
  return (
    <section aria-labelledby="diff-heading" className="panel token-diff" data-testid="token-diff">
      <h2 id="diff-heading">Compare two tokens</h2>
      <p className="muted">
        What each reaches that the other cannot, each proven by a call the engine decides for both,
        as it would decide it for real.
      </p>
      <div className="diff-picks">
        <TokenField label="Token A" choices={choices} value={a} onChange={setA} chosen={tokenA} />
        <button
          type="button"
          className="diff-swap"
          disabled={!a && !b}
          onClick={() => {
            setA(b)
            setB(a)
          }}
        >
          Swap
        </button>
        <TokenField label="Token B" choices={choices} value={b} onChange={setB} chosen={tokenB} />
      </div>
      {!tokenA || !tokenB ? (
        <p className="empty">
          Choose two tokens: a parent and the authorization it made, an old authorization and its
          replacement, a secret and an authorization.
        </p>
      ) : diff.isError ? (
        <p role="alert">The engine could not compare them: {messageOf(diff.error)}</p>
      ) : !diff.data ? (
        <p className="muted">Comparing…</p>
      ) : (
        <ErrorBoundary what="The comparison">
          <DiffView report={diff.data} a={tokenA} b={tokenB} />
        </ErrorBoundary>
      )}
    </section>
  )
}

/** One side's picker, and what the token chosen is, under its own name. */
function TokenField({
  label,
  choices,
  value,
  onChange,
  chosen,
}: {
  label: string
  choices: readonly TokenChoice[]
  value: string | null
  onChange: (id: string | null) => void
  chosen: TokenChoice | undefined
}) {
  const abilities = chosen?.report?.details?.abilities
  return (
    <div className="diff-pick">
      <Field label={label}>
        {(id) => (
          <select
            id={id}
            value={value ?? ''}
            onChange={(event) => onChange(event.target.value || null)}
          >
            <option value="">— choose —</option>
            {choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {chosen && (
        <div className="muted diff-side" data-testid="diff-side">
          {chosen.kind === 'secret' ? (
            'A secret key: it reaches every endpoint.'
          ) : abilities ? (
            <>
              Holds <NameList names={abilities} className="diff-abilities" />
            </>
          ) : (
            'An authorization.'
          )}
          {chosen.state !== 'usable' && chosen.state !== 'unknown' && ` It is ${chosen.stateText}.`}
        </div>
      )}
    </div>
  )
}

/** Which of two tokens is narrower, by what each reaches that the other cannot. */
export function verdictOf(report: Pick<DiffReport, 'gained' | 'lost'>): {
  kind: 'same' | 'a-narrower' | 'b-narrower' | 'neither'
  text: string
} {
  const more = (n: number) => `${n} ${n === 1 ? 'thing' : 'things'}`
  const gained = report.gained.length
  const lost = report.lost.length
  if (gained === 0 && lost === 0) {
    return {
      kind: 'same',
      text: 'A and B reach the same: neither reaches anything the other cannot.',
    }
  }
  if (lost === 0) {
    return {
      kind: 'a-narrower',
      text: `A is narrower than B: B reaches everything A reaches, and ${more(gained)} more.`,
    }
  }
  if (gained === 0) {
    return {
      kind: 'b-narrower',
      text: `B is narrower than A: A reaches everything B reaches, and ${more(lost)} more.`,
    }
  }
  return {
    kind: 'neither',
    text: `Neither is narrower: A reaches ${more(lost)} B cannot, and B reaches ${more(gained)} A cannot.`,
  }
}

/** A token as the diff saw it, in a few words. */
function describe(summary: TokenSummary): string {
  const kind = summary.kind === 'secret' ? 'a secret key' : 'an authorization'
  return summary.state === 'usable'
    ? kind
    : `${kind}, ${summary.reason ? reasonLabel(summary.reason) : summary.state}: it reaches nothing`
}

function DiffView({ report, a, b }: { report: DiffReport; a: TokenChoice; b: TokenChoice }) {
  const verdict = verdictOf(report)
  const delegated = [...report.gained, ...report.lost].some((item) => item.delegated)
  return (
    <div className="diff-result" data-testid="diff-result">
      <p className="diff-verdict" data-testid="diff-verdict" data-verdict={verdict.kind}>
        <strong>{verdict.text}</strong>
        {delegated && (
          <span className="muted">
            {' '}
            By what each token reaches itself: a token holding <code>auth.create</code> could mint
            more.
          </span>
        )}
      </p>
      <p>
        A is {describe(report.a)}; B is {describe(report.b)}.{' '}
        {report.sameSecret ? (
          <>
            Both hang from secret <code>{report.a.secretId}</code>: rolling it ends both.
          </>
        ) : (
          'They hang from different secrets: a roll of one leaves the other.'
        )}
      </p>
      <div className="diff-lists">
        <DiffList
          title="What B reaches and A cannot"
          items={report.gained}
          at={report.at}
          reaches={{ name: 'B', choice: b }}
          refused={{ name: 'A', choice: a }}
          testId="diff-gained"
        />
        <DiffList
          title="What A reaches and B cannot"
          items={report.lost}
          at={report.at}
          reaches={{ name: 'A', choice: a }}
          refused={{ name: 'B', choice: b }}
          testId="diff-lost"
        />
      </div>
    </div>
  )
}

interface Side {
  name: 'A' | 'B'
  choice: TokenChoice
}

function DiffList({
  title,
  items,
  at,
  reaches,
  refused,
  testId,
}: {
  title: string
  items: readonly DiffItem[]
  at: number
  reaches: Side
  refused: Side
  testId: string
}) {
  const [all, setAll] = useState(false)
  const drawn = all ? items : items.slice(0, DRAWN)
  const delegatedAll = items.length > 1 && items.every((item) => item.delegated)
  return (
    <section className="diff-list" data-testid={testId} aria-label={title}>
      <h3>
        {title} <span className="muted">({items.length})</span>
      </h3>
      {delegatedAll && (
        <p className="muted" data-testid="diff-delegated">
          {refused.name} could mint a token that reaches each of these: it holds{' '}
          <code>auth.create</code>.
        </p>
      )}
      {items.length === 0 ? (
        <p className="muted">Nothing.</p>
      ) : (
        <ul>
          {drawn.map((item, index) => (
            <li
              key={`${item.kind}\u0000${item.endpoint}\u0000${index}`}
              className="diff-item"
              data-testid="diff-item"
              data-kind={item.kind}
              data-endpoint={item.endpoint}
            >
              <ErrorBoundary what="This difference">
                <DiffItemView
                  item={item}
                  at={at}
                  reaches={reaches}
                  refused={refused}
                  delegatedAll={delegatedAll}
                />
              </ErrorBoundary>
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

function DiffItemView({
  item,
  at,
  reaches,
  refused,
  delegatedAll,
}: {
  item: DiffItem
  at: number
  reaches: Side
  refused: Side
  /** Every item of the list is delegated: said once, above them. */
  delegatedAll: boolean
}) {
  const call = item.counterexample
  const later = call.at !== at
  const verdict = (side: Side, proof: DiffItem['proof']['reaches']) =>
    `${side.name}: ${proof.status} ${proof.decision}${proof.code ? ` (${proof.code})` : ''}`
  return (
    <>
      <p className="diff-sentence">
        <span className="diff-kind">{item.kind}</span> <strong>{reaches.name}</strong>{' '}
        <Quoted text={item.sentence} />
      </p>
      <p className="diff-call">
        <span className="muted">The call that shows it: </span>
        <code data-testid="diff-call">
          <Name text={callText(call)} edges={false} />
        </code>
        {later && <> at {formatTime(call.at)}</>}
      </p>
      <p className="diff-proof" data-testid="diff-proof">
        {verdict(reaches, item.proof.reaches)} · {verdict(refused, item.proof.refused)}
      </p>
      {item.delegated && !delegatedAll && (
        <p className="muted">
          {refused.name} could mint a token that reaches it: it holds <code>auth.create</code>.
        </p>
      )}
      {later && (
        <p className="muted">
          The console calls at the clock&apos;s now: move the clock to {formatTime(call.at)} first.
        </p>
      )}
      <p className="diff-actions">
        <a href={counterexampleHref(call, reaches.choice.id)}>
          Open with {reaches.name} in the console
        </a>
        <a href={counterexampleHref(call, refused.choice.id)}>
          Open with {refused.name} in the console
        </a>
      </p>
    </>
  )
}
