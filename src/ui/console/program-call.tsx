import { useId, useState } from 'react'
import { Field } from '../shared/field'
import { ProgramEditor } from '../procedures/program-editor'
import { readArgs, toolProc } from '../procedures/program'
import { useCompiled } from '../procedures/use-compiled'
import type { ConsoleState } from './state'

/**
 * Runs a program in the composer language as `proc exec FILE` does: the console's form is
 * filled with the request the command-line tool sends (`core.exec` of `core.compile` then
 * `core.exec`, in MessagePack, answered as text, each `-arg` a text argument) and sent, so
 * that the request, the answer and the trace show as for any call. The program is compiled
 * as it is typed, with the console's token.
 */
export function ProgramCall({
  state,
  token,
  onRun,
}: {
  state: ConsoleState
  token: string
  onRun: (next: ConsoleState) => void
}) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const [code, setCode] = useState('')
  const [argsText, setArgsText] = useState('')
  const compiled = useCompiled(open ? code : '', token || undefined)

  function run() {
    const args = readArgs(argsText).map(([name, value]) =>
      value === null
        ? { name, text: 'null', mode: 'json' as const }
        : { name, text: String(value), mode: 'text' as const },
    )
    onRun({
      ...state,
      endpoint: 'core.exec',
      format: 'msgpack',
      accept: 'text',
      input: { text: '' },
      raw: null,
      args: [
        { name: 'proc', text: JSON.stringify(toolProc(code, ['()', 'core.exec'])), mode: 'json' },
        ...args.filter((arg) => arg.name !== 'proc'),
      ],
    })
  }

  return (
    <details
      className="program-call"
      open={open}
      onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}
    >
      <summary id={`${id}-summary`}>Run a program (as proc exec does)</summary>
      {open && (
        <div className="program-call-body">
          <ProgramEditor
            label="Program to run"
            code={code}
            onCode={setCode}
            compiled={compiled}
            placeholder={'exec {\n  core.echo("hello") .| type.string.reverse\n}'}
          />
          <Field label="Its arguments (name=value, one a line, as -arg)">
            {(fieldId) => (
              <textarea
                id={fieldId}
                rows={2}
                value={argsText}
                spellCheck={false}
                onChange={(event) => setArgsText(event.target.value)}
              />
            )}
          </Field>
          <div>
            <button
              type="button"
              disabled={code.trim() === '' || compiled.pending || Boolean(compiled.problem)}
              onClick={run}
            >
              Run as core.exec
            </button>
          </div>
        </div>
      )}
    </details>
  )
}
