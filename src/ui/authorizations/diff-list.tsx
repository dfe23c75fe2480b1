import { useState } from 'react'
import type { DiffItem } from '../../engine'
import { ErrorBoundary } from '../shared/error-boundary'
import { formatTime } from '../shared/format'
import { Name, Quoted } from '../shared/quoted'
import type { TokenChoice } from '../shared/tokens'
import { callText, counterexampleHref } from './counterexample'

/** Items drawn at first in each list; the rest on asking. */
const DRAWN = 50

/** A token of the diff: its letter and what was chosen. */
interface Side {
  name: 'A' | 'B'
  choice: TokenChoice
}

/** One list of what one token reaches and the other cannot, the first `DRAWN` drawn at first. */
export function DiffList({
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

/** One thing one token reaches and the other cannot, with a call that shows it. */
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
