import { useQuery } from '@tanstack/react-query'
import { useConfig } from '../shared/config'
import { messageOf } from '../shared/format'
import { useSwitchBranch } from '../shared/branches'
import { branchesQuery } from '../shared/queries'
import { routeHref } from '../shared/router'
import './branches.css'

/**
 * Which branch of its history the account is on, once it has more than one (decision 086), and
 * the way back: the branch it was made from, or any other, in one step. In the header, beside
 * the clock, so it is in view on every view.
 */
export function BranchBar() {
  const { baseUrl } = useConfig()
  const branches = useQuery(branchesQuery(baseUrl))
  const move = useSwitchBranch()
  const list = branches.data
  if (!list || list.branches.length < 2) return null
  const current = list.branches.find((branch) => branch.current)
  const back = current?.from ? list.branches.find((b) => b.id === current.from!.branch) : undefined
  return (
    <section aria-label="Branch" className="branch-bar" data-testid="branch-bar">
      <p>
        <span className="muted">Branch</span>{' '}
        <strong data-testid="branch-current">{current?.name ?? list.current}</strong>
        {current?.from && (
          <span className="muted">
            {' '}
            (from {back?.name ?? current.from.branch}, before #{current.from.before})
          </span>
        )}
      </p>
      <div className="branch-actions">
        {back && (
          <button type="button" disabled={move.isPending} onClick={() => move.mutate(back.id)}>
            Return to {back.name}
          </button>
        )}
        <select
          aria-label="Switch to branch"
          value={list.current}
          disabled={move.isPending}
          onChange={(event) => move.mutate(event.target.value)}
        >
          {list.branches.map((branch) => (
            <option key={branch.id} value={branch.id}>
              {branch.name}
            </option>
          ))}
        </select>
        <a
          href={routeHref('log', {
            compare: `${list.current},${back?.id ?? list.branches[0]!.id}`,
          })}
        >
          Compare branches
        </a>
      </div>
      {move.isError && <p role="alert">{messageOf(move.error)}</p>}
    </section>
  )
}
