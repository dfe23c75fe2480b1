import { useQuery } from '@tanstack/react-query'
import type { ExchangeRecord } from '../../engine'
import type { BranchInfo } from '../shared/api'
import { useConfig } from '../shared/config'
import { formatTime, messageOf } from '../shared/format'
import { Name } from '../shared/quoted'
import { branchesQuery, compareQuery } from '../shared/queries'
import { routeHref, useRouteParam } from '../shared/router'
import { reasonPhrase } from '../shared/wire'
import { endpointOf } from '../log/records'
import { factsOf } from '../log/summary'

/** The two branches compared, as the log view's URL holds them: `compare=<a>,<b>`. */
export const useCompared = () => useRouteParam('log', 'compare')

/**
 * Two branches of the account's history side by side, from where they part (decision 086):
 * each one's exchanges since, in order, the first pair that differs marked, and the
 * authorizations each minted, to compare in What can this token do.
 */
export function BranchCompare() {
  const { baseUrl } = useConfig()
  const [compared, setCompared] = useCompared()
  const branches = useQuery(branchesQuery(baseUrl))
  const list = branches.data?.branches ?? []
  const [a = '', b = ''] = (compared ?? '').split(',')
  const ready = list.some((x) => x.id === a) && list.some((x) => x.id === b) && a !== b
  const comparison = useQuery({ ...compareQuery(baseUrl, a, b), enabled: ready })
  if (compared === null) return null
  const pick = (side: 0 | 1, id: string) => setCompared(side === 0 ? `${id},${b}` : `${a},${id}`)
  const data = comparison.data
  return (
    <section aria-labelledby="compare-heading" className="panel branch-compare">
      <div className="panel-heading">
        <h2 id="compare-heading">Two branches, side by side</h2>
        <a href={routeHref('log')} className="log-close">
          Close
        </a>
      </div>
      <p className="muted">
        What each branch did from where they part: the first pair that differs is marked. Go back to
        before an exchange from its row; each rewind opens a branch, and the one it left stays.
      </p>
      <div className="branch-pickers">
        <BranchPick label="Left" value={a} list={list} onPick={(id) => pick(0, id)} />
        <BranchPick label="Right" value={b} list={list} onPick={(id) => pick(1, id)} />
      </div>
      {!ready && <p className="muted">Choose two different branches.</p>}
      {comparison.isError && <p role="alert">{messageOf(comparison.error)}</p>}
      {data && (
        <>
          <p role="status" className="muted" data-testid="compare-summary">
            They part {data.fork === null ? 'before any exchange' : `after exchange #${data.fork}`};
            since, {data.a.name} has {data.counts.a} and {data.b.name} {data.counts.b}.{' '}
            {data.first
              ? `They first differ at the ${ordinal(data.first.index + 1)} exchange after.`
              : 'They do the same.'}
          </p>
          <div className="branch-columns">
            <Column
              branch={data.a}
              records={data.exchanges.a}
              first={data.first?.a ?? null}
              tokens={data.tokens.a.length}
            />
            <Column
              branch={data.b}
              records={data.exchanges.b}
              first={data.first?.b ?? null}
              tokens={data.tokens.b.length}
            />
          </div>
          {data.tokens.a.length + data.tokens.b.length > 0 && (
            <p className="muted">
              The page remembers the authorizations both branches minted:{' '}
              <a href={routeHref('authorizations')}>compare two of them</a> under Authorizations,
              Compare two tokens.
            </p>
          )}
        </>
      )}
    </section>
  )
}

function BranchPick({
  label,
  value,
  list,
  onPick,
}: {
  label: string
  value: string
  list: readonly BranchInfo[]
  onPick: (id: string) => void
}) {
  return (
    <label className="branch-pick">
      {label}{' '}
      <select value={value} onChange={(event) => onPick(event.target.value)}>
        <option value="">Choose a branch</option>
        {list.map((branch) => (
          <option key={branch.id} value={branch.id}>
            {branch.name}
            {branch.current ? ' (current)' : ''}
          </option>
        ))}
      </select>
    </label>
  )
}

function Column({
  branch,
  records,
  first,
  tokens,
}: {
  branch: BranchInfo
  records: readonly ExchangeRecord[]
  first: number | null
  tokens: number
}) {
  // Oldest first, as the two are read against each other.
  const ordered = [...records].reverse()
  return (
    <div className="branch-column" data-testid="branch-column">
      <h3>
        {branch.name}
        {branch.current && <span className="muted"> (current)</span>}
      </h3>
      <p className="muted">
        {count(ordered.length, 'exchange')} shown
        {tokens > 0 ? `, ${count(tokens, 'authorization')} minted` : ''}
      </p>
      <ol>
        {ordered.map((record) => {
          const status = record.response.status
          const facts = factsOf(record)
          return (
            <li
              key={record.id}
              data-first={record.id === first ? 'true' : undefined}
              data-testid="branch-exchange"
            >
              <span className="muted">#{record.id}</span>{' '}
              <span className="muted">{formatTime(record.at)}</span>{' '}
              <Name text={endpointOf(record)} />{' '}
              {facts.args && (
                <span className="log-args">
                  <Name text={facts.args} edges={false} />
                </span>
              )}{' '}
              <span className={`log-status log-status-${Math.floor(status / 100)}xx`}>
                {status} {reasonPhrase(status)}
              </span>
              {record.id === first && <strong className="branch-first"> first to differ</strong>}
            </li>
          )
        })}
      </ol>
    </div>
  )
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`

const ordinal = (n: number) => {
  const last = n % 10
  const teen = n % 100 >= 11 && n % 100 <= 13
  return `${n}${!teen && last === 1 ? 'st' : !teen && last === 2 ? 'nd' : !teen && last === 3 ? 'rd' : 'th'}`
}
