import { useEffect, useMemo, useRef, useState, type Ref } from 'react'
import type { ExchangeRecord } from '../../engine'
import { useConfig } from '../shared/config'
import { CopyButton } from '../shared/copy-button'
import { BranchCompare } from '../branches/branch-compare'
import { useRewind } from '../shared/branches'
import { useWholeLog, type LogEmptied } from '../shared/exchange-log'
import { canRewind } from '../shared/log-state'
import type { PageExchange } from '../shared/page-store'
import { messageOf } from '../shared/format'
import { MAX_LOGGED } from '../shared/page-store'
import { routeHref } from '../shared/router'
import { ContractPart } from './contract-panel'
import { ExchangeDetail } from './exchange-detail'
import { ExchangeList } from './exchange-list'
import { ROWS_AT_ONCE, useDrawnRows } from './drawn-rows'
import { LogActions } from './log-actions'
import { LogFilters, useLogFilters } from './log-filters'
import { useChosenExchanges, useOpenExchange } from './log-route'
import { useShareStep } from '../link/share-step'
import './log.css'

const EMPTIED_WORDS: Record<LogEmptied['why'], string> = {
  reset: 'when the account was reset',
  clear: 'when the log was cleared',
  import: 'when an account was imported',
  elsewhere: "when the engine's log was emptied from outside the views",
}

const EMPTIED_WHY: Record<LogEmptied['why'], string> = {
  reset:
    "A reset empties this tab's log with the account: its requests were made with keys and tokens that no longer work.",
  clear: 'Clear log empties this tab’s log and the engine’s.',
  import: "An import replaces this tab's log with the file's.",
  elsewhere: 'Code in the page (POST /_account/exchanges/clear, or a reset) emptied it.',
}

/**
 * The Exchange log: every request this page's engine answered (from the UI, the devtools
 * console or any code in the page), newest first, polled while the view is open; filtered by
 * status and endpoint; exported as HAR; each opened with its decision trace
 * (`#/log?id=<id>`). Exchanges chosen with their boxes (`chosen=`) are saved as a contract;
 * a contract opened from a file is replayed here.
 */
export default function LogView() {
  const { baseUrl } = useConfig()
  const log = useWholeLog()
  const { id, hrefOf, closeHref, open, close } = useOpenExchange()
  const [isChosen, choose] = useChosenExchanges()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const lastOpened = useRef<number | null>(null)
  const rewind = useRewind()
  const [wentBack, setWentBack] = useState<string | null>(null)

  function goBackTo(record: PageExchange) {
    setWentBack(null)
    rewind.mutate(record.engineId!, {
      onSuccess: (branch) => {
        if (id !== null) close()
        setWentBack(
          `The account is as it stood just before that exchange, on branch “${branch.name}”: the timeline it left is kept, and the header returns to it.`,
        )
      },
    })
  }

  const records = useMemo(() => log.data?.entries ?? [], [log.data])
  const sharing = useShareStep(records)
  const total = Math.max(log.data?.total ?? 0, records.length)
  const filters = useLogFilters(records)
  const { shown } = filters
  // The list draws the newest matches, a page at a time: ten thousand rows would not be read.
  const { drawn, complete: allDrawn, more } = useDrawnRows(shown.length > 0)
  const selected = id === null ? undefined : records.find((record) => record.id === id)
  const chosen = useMemo(() => records.filter((record) => isChosen(record.id)), [records, isChosen])

  function onChoose(ids: readonly number[], add: boolean) {
    const next = new Set(chosen.map((record) => record.id))
    for (const one of ids) {
      if (add) next.add(one)
      else next.delete(one)
    }
    choose(next)
  }
  const isOpen = selected !== undefined

  useEffect(() => {
    // Opening an exchange takes focus to it; closing it, back to its row.
    if (id !== null) {
      if (isOpen) {
        headingRef.current?.focus()
        lastOpened.current = id
      }
      return
    }
    if (lastOpened.current === null) return
    document.querySelector<HTMLElement>(`[data-exchange-id="${lastOpened.current}"] a`)?.focus()
    lastOpened.current = null
  }, [id, isOpen])

  const snippet = `await fetch('${baseUrl}/core/ping', {\n  method: 'POST',\n  headers: { authorization: 'Bearer <a secret key>' },\n})`

  return (
    <div className="log-view" data-open={id !== null ? 'true' : undefined}>
      <ContractPart />
      <BranchCompare />
      <section aria-labelledby="view-heading" className="panel log-list">
        <div className="panel-heading">
          <h2 id="view-heading">Exchange log</h2>
          <LogActions
            shown={shown}
            all={records}
            total={total}
            chosen={chosen}
            onChooseNone={() => choose([])}
            onCleared={() => id !== null && close()}
          />
        </div>
        <p className="muted">
          Every request this page&apos;s engine answered, newest first: from the views, from the
          browser&apos;s devtools console, from any code in the page. Requests to the account
          control plane are not kept. The log is kept for this tab across reloads, and travels in
          the account export.
        </p>
        <p className="log-note">
          Export HAR saves the exchanges shown as a <code>.har</code> file. It holds the tokens
          these requests sent, in full: share it only as you would share those tokens. Save as
          contract writes the exchanges chosen with their boxes without a single token.
        </p>
        {log.isError && <p role="alert">{messageOf(log.error)}</p>}
        {rewind.isError && <p role="alert">{messageOf(rewind.error)}</p>}
        {sharing.panel}
        {wentBack && (
          <p role="status" className="log-went-back" data-testid="went-back">
            {wentBack}
          </p>
        )}
        {records.length > 0 && <LogFilters records={records} filters={filters} />}
        {log.data && records.length > 0 && (
          <p className="muted log-count" role="status" data-testid="log-count">
            {shown.length === records.length
              ? `${total.toLocaleString('en-US')} ${total === 1 ? 'exchange' : 'exchanges'}`
              : `${shown.length.toLocaleString('en-US')} of ${records.length.toLocaleString('en-US')} exchanges match`}
            {!log.complete &&
              ` (the newest ${records.length.toLocaleString('en-US')} read so far; reading the rest)`}
            {chosen.length > 0 ? `, ${chosen.length} chosen;` : ';'} the page keeps the last{' '}
            {MAX_LOGGED.toLocaleString('en-US')}, across reloads.
          </p>
        )}
        {log.isPending && <p className="muted">Loading the exchange log…</p>}
        {log.data && records.length === 0 && (
          <div className="empty log-empty">
            <p>
              No requests yet. Send a request from the <a href={routeHref('console')}>Console</a>,
              or run <code>fetch(...)</code> in the browser&apos;s devtools console: every request
              to <code>{baseUrl}</code> from this page shows up here.
            </p>
            <pre>{snippet}</pre>
            <CopyButton text={snippet} label="Copy the example" />
          </div>
        )}
        {records.length > 0 && shown.length === 0 && (
          <div className="empty">
            <p>No exchange matches these filters.</p>
            <button type="button" onClick={filters.clear}>
              Show every exchange
            </button>
          </div>
        )}
        {shown.length > 0 && (
          <ExchangeList
            records={shown.length > drawn ? shown.slice(0, drawn) : shown}
            selected={id}
            hrefOf={hrefOf}
            onOpen={open}
            isChosen={isChosen}
            onChoose={onChoose}
            goBack={{
              can: (record) => canRewind(log.data, record as PageExchange),
              to: (record) => goBackTo(record as PageExchange),
              busy: rewind.isPending,
            }}
            share={{ to: (record) => sharing.share(record as PageExchange), busy: sharing.busy }}
          />
        )}
        {allDrawn && shown.length > drawn && (
          <p className="log-more">
            <span className="muted">
              The newest {drawn.toLocaleString('en-US')} of {shown.length.toLocaleString('en-US')}{' '}
              shown.{' '}
            </span>
            <button type="button" onClick={more}>
              Show {Math.min(ROWS_AT_ONCE, shown.length - drawn).toLocaleString('en-US')} more
            </button>
          </p>
        )}
      </section>
      {id !== null && (
        <Opened
          id={id}
          record={selected}
          loading={log.isPending}
          capacity={MAX_LOGGED}
          emptied={log.data?.emptied}
          closeHref={closeHref}
          onClose={close}
          headingRef={headingRef}
        />
      )}
    </div>
  )
}

function Opened({
  id,
  record,
  loading,
  capacity,
  emptied,
  closeHref,
  onClose,
  headingRef,
}: {
  id: number
  record: ExchangeRecord | undefined
  loading: boolean
  capacity: number | undefined
  emptied: LogEmptied | undefined
  closeHref: string
  onClose: () => void
  headingRef: Ref<HTMLHeadingElement>
}) {
  if (record) {
    return (
      <ExchangeDetail
        key={record.id}
        record={record}
        closeHref={closeHref}
        onClose={onClose}
        headingRef={headingRef}
      />
    )
  }
  return (
    <section className="panel log-detail" aria-labelledby="log-missing-heading">
      <div className="panel-heading">
        <h3 id="log-missing-heading">Exchange #{id}</h3>
        <a href={closeHref} className="log-close">
          Back to all exchanges
        </a>
      </div>
      {loading ? (
        <p className="muted">Loading…</p>
      ) : emptied && id <= emptied.upTo ? (
        <p className="empty" data-testid="exchange-gone">
          Exchange #{id} was removed {EMPTIED_WORDS[emptied.why]} at{' '}
          {new Date(emptied.at).toLocaleTimeString('en-GB')}. {EMPTIED_WHY[emptied.why]}
        </p>
      ) : (
        <p className="empty" data-testid="exchange-gone">
          Exchange #{id} is not in this tab&apos;s log: it is older than the last{' '}
          {(capacity ?? 0).toLocaleString('en-US')} the log keeps, or was logged in another tab.
        </p>
      )}
    </section>
  )
}
