import type { DiffReport, TokenSummary } from '../../engine'
import { ErrorBoundary } from '../shared/error-boundary'
import { Field } from '../shared/field'
import { messageOf } from '../shared/format'
import { reasonLabel } from '../shared/labels'
import { NameList } from '../shared/quoted'
import { useRouteParam } from '../shared/router'
import { useTokenChoices, type TokenChoice } from '../shared/tokens'
import { DiffList } from './diff-list'
import { useDiff } from './insight-api'

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
