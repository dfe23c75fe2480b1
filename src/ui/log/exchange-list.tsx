import { useEffect, useRef, type MouseEvent } from 'react'
import type { ExchangeRecord } from '../../engine'
import { formatTime } from '../shared/format'
import { mask } from '../shared/masked'
import { Name, visibleText } from '../shared/quoted'
import { reasonPhrase } from '../shared/wire'
import { credentialLabel, endpointOf, formatMs, tokenOf } from './records'
import { factsOf } from './summary'

/**
 * The exchanges, newest first: when (virtual clock), which endpoint, with which token (masked,
 * and what the engine found it to be), the status and how long it took. Each opens its detail,
 * and can be chosen (to save as a contract) with its box; the box over the list, all of them.
 */
export function ExchangeList({
  records,
  selected,
  hrefOf,
  onOpen,
  isChosen,
  onChoose,
  goBack,
  share,
}: {
  records: readonly ExchangeRecord[]
  selected: number | null
  hrefOf: (id: number) => string
  onOpen: (id: number) => void
  isChosen: (id: number) => boolean
  /** Chooses (or leaves) the exchanges named. */
  onChoose: (ids: readonly number[], chosen: boolean) => void
  /** Goes back to just before an exchange (decision 086): `undefined` where it cannot. */
  goBack?: {
    can: (record: ExchangeRecord) => boolean
    to: (record: ExchangeRecord) => void
    busy: boolean
  }
  /** Makes the link to an exchange and the steps before it (decision 093). */
  share?: { to: (record: ExchangeRecord) => void; busy: boolean }
}) {
  function openRow(event: MouseEvent<HTMLTableRowElement>, id: number) {
    // The endpoint's link opens it for the keyboard; the rest of the row, for a pointer.
    if ((event.target as Element).closest('a, button, input, .log-cell-choose')) return
    onOpen(id)
  }
  const chosen = records.filter((record) => isChosen(record.id)).length
  return (
    <div className="table-scroll">
      <ChooseAll
        chosen={chosen}
        total={records.length}
        onChange={(all) =>
          onChoose(
            records.map((record) => record.id),
            all,
          )
        }
      />
      <table aria-label="Exchanges" className="log-table">
        <thead>
          <tr>
            <th scope="col" className="log-cell-choose" aria-label="Chosen" />
            <th scope="col">Time (virtual)</th>
            <th scope="col">Endpoint</th>
            <th scope="col">Token</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            {(goBack || share) && (
              <th scope="col" className="log-cell-back">
                <span className="visually-hidden">Go back, share</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {records.map((record) => {
            const token = tokenOf(record)
            const status = record.response.status
            const reason = reasonPhrase(status)
            const endpoint = endpointOf(record)
            const method = record.request.method === 'POST' ? '' : `${record.request.method} `
            const facts = factsOf(record)
            const code = facts.code ?? record.trace.outcome.code
            return (
              <tr
                key={record.id}
                data-testid="exchange-row"
                data-exchange-id={record.id}
                data-selected={record.id === selected ? 'true' : undefined}
                data-chosen={isChosen(record.id) ? 'true' : undefined}
                onClick={(event) => openRow(event, record.id)}
              >
                <td className="log-cell-choose">
                  <input
                    type="checkbox"
                    checked={isChosen(record.id)}
                    aria-label={`Choose exchange ${record.id}: ${method}${visibleText(endpoint)}, ${status}`}
                    onChange={(event) => onChoose([record.id], event.target.checked)}
                  />
                </td>
                <td className="log-cell-time">{formatTime(record.at)}</td>
                <td className="log-cell-endpoint">
                  <a
                    href={hrefOf(record.id)}
                    aria-current={record.id === selected ? 'true' : undefined}
                    aria-label={`${method}${visibleText(endpoint)}: exchange ${record.id}, ${status} ${reason}`}
                  >
                    {method}
                    <Name text={endpoint} />
                  </a>
                  {facts.args && (
                    <span className="log-args" data-testid="exchange-args">
                      <Name text={facts.args} edges={false} />
                    </span>
                  )}
                </td>
                <td className="log-cell-token">
                  <span className="log-token-kind">{credentialLabel(record)}</span>{' '}
                  {token && <code data-testid="masked-value">{mask(token)}</code>}
                </td>
                <td className="log-cell-status">
                  <span className={`log-status log-status-${Math.floor(status / 100)}xx`}>
                    {status} {reason}
                  </span>
                  {code && (
                    <code className="log-cell-code" data-testid="exchange-code">
                      {code}
                    </code>
                  )}
                </td>
                <td className="log-cell-duration">{formatMs(record.durationMs)}</td>
                {(goBack || share) && (
                  <td className="log-cell-back">
                    {goBack && (
                      <button
                        type="button"
                        className="log-back"
                        disabled={goBack.busy || !goBack.can(record)}
                        title={
                          goBack.can(record)
                            ? 'The account as it stood just before this exchange, on a new branch; this timeline stays'
                            : 'Answered before the page was loaded: the engine that answered it is gone'
                        }
                        aria-label={`Go back to before exchange ${record.id}: ${method}${visibleText(endpoint)}, ${status}`}
                        onClick={() => goBack.to(record)}
                      >
                        Go back to before this
                      </button>
                    )}
                    {share && (
                      <button
                        type="button"
                        className="log-back"
                        disabled={share.busy}
                        aria-label={`Share exchange ${record.id} as a link: ${method}${visibleText(endpoint)}, ${status}`}
                        onClick={() => share.to(record)}
                      >
                        Share this step
                      </button>
                    )}
                  </td>
                )}
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

/** The box over the list: every exchange listed chosen, some (mixed), or none. */
function ChooseAll({
  chosen,
  total,
  onChange,
}: {
  chosen: number
  total: number
  onChange: (all: boolean) => void
}) {
  const ref = useRef<HTMLInputElement>(null)
  const some = chosen > 0 && chosen < total
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = some
  }, [some])
  return (
    <label className="log-choose-all">
      <input
        ref={ref}
        type="checkbox"
        checked={total > 0 && chosen === total}
        onChange={() => onChange(chosen < total)}
      />{' '}
      Choose every exchange listed
    </label>
  )
}
