import type { Json } from '../../engine'
import { useCatalogue } from '../shared/catalogue'
import { JsonField, readJson, type JsonReading } from '../shared/json-field'
import { callProblem, shapeProblem } from './rules'

/**
 * A procedure's text read as JSON, then held to the shape of a procedure and, once the
 * catalogue is known (`endpoints`), to calls of endpoints that exist.
 */
export const readProc = (text: string, endpoints?: readonly string[]): JsonReading =>
  readJson(
    text,
    (proc: Json) => shapeProblem(proc) ?? (endpoints ? callProblem(proc, endpoints) : undefined),
  )

/** The names of the engine's endpoints, once read: what `readProc` holds calls to. */
export function useEndpointNames(): readonly string[] | undefined {
  return useCatalogue().data?.map((endpoint) => endpoint.name)
}

/** What to say when the editor is submitted empty. */
export const EMPTY_PROC = 'Write the procedure as JSON tuples, e.g. ["{}", ["()", "core.ping"]].'

const HELP = (
  <>
    Markers: <code>{'"{}"'}</code> a composition, its calls run in turn, each fed the last output;{' '}
    <code>{'"()"'}</code> a call, <code>{'["()", "endpoint", …]'}</code>; <code>{'">>"'}</code> an
    input; <code>{'"$$"'}</code> a named argument; <code>{'"%%"'}</code> a literal, data never run;{' '}
    <code>{'"@@"'}</code> a reference to an argument,{' '}
    <code>{'["@@", "name", {"default": …}]'}</code>.
  </>
)

/** The tuple editor: a JSON textarea checked as it is typed, with the markers explained. */
export function ProcField({
  label,
  text,
  onText,
  reading,
}: {
  label: string
  text: string
  onText: (text: string) => void
  reading: JsonReading
}) {
  return (
    <JsonField
      label={label}
      text={text}
      onText={onText}
      reading={reading}
      rows={Math.min(14, Math.max(4, text.split('\n').length))}
      placeholder='["{}", ["()", "type.string.reverse"]]'
      help={HELP}
      className="proc-field"
    />
  )
}
