import { Name } from '../shared/quoted'
import type { Case, CaseView, StepView } from './contracts'

const CASE_WORDS: Record<CaseView['status'], string> = {
  passed: 'passed',
  failed: 'differs',
  skipped: 'skipped',
}

const STEP_WORDS: Record<StepView['status'], string> = {
  passed: 'passed',
  failed: 'differs',
  skipped: 'skipped',
}

/**
 * A contract's cases, each with its replay's result once it has one (`results[i]` is the
 * result of `cases[i]`): every step passed, differing (each difference, then the request and
 * the answer, credentials by name) or skipped (why).
 */
export function CaseList({
  fileName,
  cases,
  results,
}: {
  fileName: string
  cases: readonly Case[]
  results: readonly CaseView[]
}) {
  return (
    <ol className="log-contract-cases" aria-label="Cases">
      {cases.map((one, index) => {
        const result = results[index]
        const name = one.id.startsWith(`${fileName} › `)
          ? one.id.slice(fileName.length + 3)
          : one.id
        const steps = `${one.steps.length} ${one.steps.length === 1 ? 'step' : 'steps'}`
        return (
          <li
            key={index}
            className="log-contract-case"
            data-testid="contract-case"
            data-status={result?.status ?? 'not-run'}
          >
            <div className="log-contract-case-head">
              <span className={`log-badge log-contract-${result?.status ?? 'not-run'}`}>
                {result ? CASE_WORDS[result.status] : 'not run'}
              </span>
              <span className="log-contract-case-name">
                <Name text={name} />
              </span>
              <span className="muted">
                {steps}
                {one.fresh ? ', on an empty account' : ''}
              </span>
            </div>
            {result?.reason && <p className="log-contract-reason">{result.reason}</p>}
            {one.notes && one.notes.length > 0 && (
              <details className="log-contract-notes">
                <summary>Notes ({one.notes.length})</summary>
                <ul>
                  {one.notes.map((note, noteIndex) => (
                    <li key={noteIndex}>{note}</li>
                  ))}
                </ul>
              </details>
            )}
            {result && result.steps.length > 0 && (
              <ol className="log-contract-steps" aria-label={`Steps of ${name}`}>
                {result.steps.map((step) => (
                  <Step key={step.index} step={step} />
                ))}
              </ol>
            )}
          </li>
        )
      })}
    </ol>
  )
}

function Step({ step }: { step: StepView }) {
  return (
    <li
      className={`log-contract-step log-contract-step-${step.status}`}
      data-testid="contract-step"
      data-status={step.status}
    >
      <div className="log-contract-step-head">
        <span className="log-contract-mark">{STEP_WORDS[step.status]}</span>
        <span className="log-contract-index">{step.index}.</span>
        <code className="log-contract-label">{step.label}</code>
        {step.reason && <span className="log-contract-why">{step.reason}</span>}
      </div>
      {step.differences.length > 0 && (
        <ul className="log-contract-differences" data-testid="step-differences">
          {step.differences.map((difference, index) => (
            <li key={index}>{difference}</li>
          ))}
        </ul>
      )}
      {step.exchange && (
        <pre
          className="log-contract-exchange"
          aria-label={`Step ${step.index}: the request and the answer`}
        >
          {step.exchange}
        </pre>
      )}
      {step.strict.map((deviation, index) => (
        <p key={index} className="log-contract-strict">
          Strict mode would refuse it: {deviation}
        </p>
      ))}
    </li>
  )
}
