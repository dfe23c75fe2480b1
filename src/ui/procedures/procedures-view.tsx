import './procedures.css'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { messageOf } from '../shared/format'
import { useConfig } from '../shared/config'
import { TokenSelect, useChosenToken } from '../shared/token-select'
import { CreateForm } from './create-form'
import { formatTuples } from './format-tuples'
import { ProcCard } from './proc-card'
import { proceduresQuery } from '../shared/queries'
import { EXAMPLE_PROC } from './rules'
import { ProgramForm } from './program-form'
import { groupStages } from './stages'

const example = formatTuples(EXAMPLE_PROC)

type Writing = 'tuples' | 'program'

/**
 * Stored procedures: listed from the control plane with their stages, created, updated and
 * deleted through the insecure `<service>.create`, `.update` and `.delete` endpoints, deployed
 * from a program (`core.compile`, then `core.deploy`), and called at `lib.<name>` (and
 * `lib.<name>:dev`), all with the chosen token (a secret by default).
 */
export default function ProceduresView() {
  const { baseUrl, serviceName } = useConfig()
  const { choices, chosen, choose, loading } = useChosenToken('procedures')
  const procedures = useQuery({ ...proceduresQuery(baseUrl), select: groupStages })
  const [draft, setDraft] = useState('')
  const [writing, setWriting] = useState<Writing>('tuples')

  function startFromExample() {
    setWriting('tuples')
    setDraft(example)
    document.getElementById('proc-create-heading')?.scrollIntoView?.({ block: 'start' })
    document.querySelector<HTMLTextAreaElement>('.proc-create textarea')?.focus()
  }

  return (
    <section aria-labelledby="procedures-heading" className="panel procedures-view">
      <h2 id="procedures-heading">Procedures</h2>
      <p className="muted">
        A stored procedure is a composition of calls kept under a name and called at{' '}
        <code>lib.&lt;name&gt;</code>, with the account&apos;s full authority. Creating, updating
        and deleting them (<code>{serviceName}.create</code>, <code>.update</code>,{' '}
        <code>.delete</code>) are insecure endpoints: act with a secret, or an authorization granted
        them with <code>insecure: true</code>.
      </p>
      <TokenSelect choices={choices} chosen={chosen} onChoose={choose} loading={loading} />
      <section aria-labelledby="proc-list-heading" className="proc-list">
        <h3 id="proc-list-heading">Stored procedures</h3>
        {procedures.isError && <p role="alert">{messageOf(procedures.error)}</p>}
        {procedures.isPending && <p className="muted">Loading procedures…</p>}
        {procedures.data?.length === 0 && (
          <div className="empty">
            <p>
              No stored procedures yet. Create one below; this one reverses its input, then
              capitalizes it (<code>&quot;foo&quot;</code> → <code>&quot;Oof&quot;</code>):
            </p>
            <pre>{example}</pre>
            <button type="button" onClick={startFromExample}>
              Start from this example
            </button>
          </div>
        )}
        {chosen &&
          procedures.data?.map((procedure) => (
            <ProcCard key={procedure.name} procedure={procedure} token={chosen} />
          ))}
      </section>
      {chosen && (
        <section className="proc-write" aria-label="Write a procedure">
          <div className="proc-write-modes" role="group" aria-label="Write it as">
            {(['tuples', 'program'] as const).map((mode) => (
              <button
                key={mode}
                type="button"
                aria-pressed={writing === mode}
                onClick={() => setWriting(mode)}
              >
                {mode === 'tuples' ? 'Tuples (JSON)' : 'Program (composer language)'}
              </button>
            ))}
          </div>
          {/* Both stay mounted, so that switching keeps what was written in each. */}
          <div hidden={writing !== 'tuples'}>
            <CreateForm token={chosen.token} text={draft} onText={setDraft} />
          </div>
          <div hidden={writing !== 'program'}>
            <ProgramForm token={chosen.token} />
          </div>
        </section>
      )}
    </section>
  )
}
