import './program.css'
import { useId, useRef } from 'react'
import { ErrorReason } from '../shared/refusal'
import { formatTuples } from './format-tuples'
import type { ProgramProblem } from './program'
import type { Compiled } from './use-compiled'

/**
 * A program in the composer language (Ruby syntax, as the real command-line tool reads it),
 * compiled by the engine as it is typed: where it leaves the language is shown at its line
 * and column (the line itself, a caret under the column, and a button that puts the cursor
 * there), else the tuples of each block.
 */
export function ProgramEditor({
  label,
  code,
  onCode,
  compiled,
  placeholder,
}: {
  label: string
  code: string
  onCode: (code: string) => void
  compiled: Compiled
  placeholder?: string
}) {
  const id = useId()
  const area = useRef<HTMLTextAreaElement>(null)
  const { problem, objects, error, pending } = compiled
  const rows = Math.min(16, Math.max(5, code.split('\n').length + 1))

  function goTo(at: ProgramProblem) {
    area.current?.focus()
    area.current?.setSelectionRange(at.offset, at.offset)
  }

  return (
    <div className="program-editor">
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <textarea
          id={id}
          ref={area}
          rows={rows}
          value={code}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          placeholder={placeholder}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-status`}
          onChange={(event) => onCode(event.target.value)}
        />
      </div>
      <div id={`${id}-status`} className="program-status" aria-live="polite">
        {code.trim() === '' ? null : pending ? (
          <p className="muted">Compiling…</p>
        ) : problem ? (
          <ProblemView code={code} problem={problem} onGo={() => goTo(problem)} />
        ) : error ? (
          <ErrorReason error={error} />
        ) : objects?.length === 0 ? (
          <p className="muted">
            No blocks yet: write <code>{'exec { … }'}</code> or <code>{'proc(name: …) { … }'}</code>
            .
          </p>
        ) : objects ? (
          <p className="ok">
            Compiled: {objects.length} {objects.length === 1 ? 'block' : 'blocks'}.
          </p>
        ) : null}
      </div>
      {!pending && !problem && objects && objects.length > 0 && (
        <ol className="program-objects" aria-label="Compiled tuples">
          {objects.map((object, index) => (
            <li key={index}>
              <p className="program-object-kind">
                {object.kind === 'exec' ? (
                  <>
                    <strong>exec</strong> block: runs when the program runs or deploys
                  </>
                ) : (
                  <>
                    <strong>proc</strong>{' '}
                    {object.name ? <code>{object.name}</code> : <em>without a name</em>}: stored
                    when the program deploys
                  </>
                )}
              </p>
              <pre data-testid="program-tuples">{formatTuples(object.tuples)}</pre>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

/** The line the problem is on, with a caret under its column. */
function ProblemView({
  code,
  problem,
  onGo,
}: {
  code: string
  problem: ProgramProblem
  onGo: () => void
}) {
  const line = code.split('\n')[problem.line - 1] ?? ''
  // Tabs stay tabs, so that the caret lines up under the character.
  const indent = [...line]
    .slice(0, problem.column - 1)
    .map((c) => (c === '\t' ? '\t' : ' '))
    .join('')
  const where = `Line ${problem.line}, column ${problem.column}`
  return (
    <div className="program-problem" role="alert">
      <p>
        <strong>{where}:</strong> {problem.message}
      </p>
      <pre aria-hidden="true" data-testid="program-problem-line">
        {`${line}\n${indent}^`}
      </pre>
      <button type="button" onClick={onGo}>
        Go to {where.toLowerCase()}
      </button>
    </div>
  )
}
