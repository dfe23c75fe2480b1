import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useConfig } from '../shared/config'
import { CopyButton } from '../shared/copy-button'
import { ErrorBoundary } from '../shared/error-boundary'
import { messageOf } from '../shared/format'
import { CaseList } from './contract-cases'
import { closeContract, setReplay, useContract, type Replay } from './contract-store'
import { replayContract, type CaseView, type OpenedContract } from './contracts'

/**
 * The contract part of the log, failing alone: should a file hold what the panel cannot show,
 * the error says so where the panel was, with a way to close the contract (which starts the
 * part afresh), and the list stays.
 */
export function ContractPart() {
  const { baseUrl } = useConfig()
  const opened = useContract(baseUrl) !== undefined
  return (
    <ErrorBoundary
      key={String(opened)}
      what="The contract"
      actions={
        <button type="button" onClick={() => closeContract(baseUrl)}>
          Close the contract
        </button>
      }
    >
      <ContractPanel />
    </ErrorBoundary>
  )
}

/**
 * The contract opened in the log: its cases, a replay on a throwaway account of its own (the
 * page's account is never touched, so nothing is asked first), and each step passed, differing (what, with the
 * request and the answer) or skipped (why). A file that is not a contract says why, with the
 * JSON path, and nothing else changes.
 */
function ContractPanel() {
  const { baseUrl } = useConfig()
  const state = useContract(baseUrl)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const shown = state?.kind === 'open' ? state.contract : state

  useEffect(() => {
    // A file just opened (or refused) takes focus to its heading.
    if (shown) headingRef.current?.focus()
  }, [shown])

  if (!state) return null
  const fileName = state.kind === 'open' ? state.contract.fileName : state.fileName
  const running = state.kind === 'open' && state.replay?.state === 'running'
  return (
    <section
      className="panel log-contract"
      aria-labelledby="log-contract-heading"
      aria-busy={state.kind === 'reading' || running}
      data-testid="contract"
    >
      <div className="panel-heading">
        <h3 id="log-contract-heading" ref={headingRef} tabIndex={-1}>
          Contract <code>{fileName}</code>
        </h3>
        <button type="button" disabled={running} onClick={() => closeContract(baseUrl)}>
          Close the contract
        </button>
      </div>
      {state.kind === 'reading' && <p className="muted">Reading {fileName}…</p>}
      {state.kind === 'unreadable' && (
        <>
          <p role="alert" data-testid="contract-error">
            {state.error}
          </p>
          <p className="muted">
            A contract is a JSON file of cases, as <code>npx service-playground verify</code> reads
            them and as <em>Save as contract</em>, the kit&apos;s <code>contract.save</code> and its
            fixture write them. Nothing was changed.
          </p>
        </>
      )}
      {state.kind === 'open' && <Opened contract={state.contract} replay={state.replay} />}
    </section>
  )
}

function Opened({ contract, replay }: { contract: OpenedContract; replay: Replay | undefined }) {
  const config = useConfig()
  const run = useMutation({
    mutationFn: async () => {
      const cases: CaseView[] = []
      setReplay(config.baseUrl, contract, { state: 'running', cases })
      try {
        const { report } = await replayContract(config, contract.cases, (view) => {
          cases.push(view)
          setReplay(config.baseUrl, contract, { state: 'running', cases: [...cases] })
        })
        setReplay(config.baseUrl, contract, { state: 'done', cases, report })
      } catch (error) {
        setReplay(config.baseUrl, contract, { state: 'failed', cases, error: messageOf(error) })
      }
    },
  })
  const total = contract.cases.length
  const cases = replay?.cases ?? []

  return (
    <>
      <p className="log-contract-description">{contract.file.description}</p>
      {replay?.state !== 'running' && (
        <div className="log-actions">
          <button type="button" className="primary" onClick={() => run.mutate()}>
            {replay ? 'Replay again' : 'Replay'}
          </button>
          <span className="muted" data-testid="replay-where">
            On a throwaway account of its own: this page&apos;s account, its authorizations and this
            log stay as they are.
          </span>
        </div>
      )}
      {replay?.state === 'running' && (
        <p role="status" className="muted">
          Replaying case {Math.min(cases.length + 1, total)} of {total}…
        </p>
      )}
      {replay?.state === 'done' && (
        <div className="log-contract-summary">
          <p role="status" data-testid="contract-summary">
            {summary(cases)}
          </p>
          <CopyButton text={replay.report} label="Copy the report" />
        </div>
      )}
      {replay?.state === 'failed' && <p role="alert">The replay stopped: {replay.error}</p>}
      <CaseList fileName={contract.fileName} cases={contract.cases} results={cases} />
    </>
  )
}

/** `2 passed, 1 differs` in the words the steps use. */
function summary(cases: readonly CaseView[]): string {
  const count = (status: CaseView['status']) => cases.filter((c) => c.status === status).length
  const parts = [
    `${count('passed')} passed`,
    `${count('failed')} ${count('failed') === 1 ? 'differs' : 'differ'}`,
    `${count('skipped')} skipped`,
  ]
  const noun = cases.length === 1 ? 'case' : 'cases'
  return `Replayed ${cases.length} ${noun} on a throwaway account: ${parts.join(', ')}.`
}
