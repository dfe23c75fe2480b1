import './json-field.css'
import type { ReactNode } from 'react'
import { useId } from 'react'
import type { Json } from '../../engine'
import { checkJson } from './json-text'

/** What a JSON field holds: its value, or why it cannot be sent yet. */
export interface JsonReading {
  /** `undefined` while the field is empty or wrong. */
  value?: Json
  /** Where the text does not parse, or what is wrong with its shape. */
  problem?: string
  empty: boolean
}

/** Reads a JSON field's text; `shape` may refuse a value that parses. */
export function readJson(text: string, shape?: (value: Json) => string | undefined): JsonReading {
  if (text.trim() === '') return { empty: true }
  const checked = checkJson(text)
  if (!checked.ok) return { empty: false, problem: checked.message }
  const problem = shape?.(checked.value)
  return problem ? { empty: false, problem } : { empty: false, value: checked.value }
}

/** A value read from a field that takes any value: `asText` when it was taken as text. */
export type ValueReading = JsonReading & { asText?: boolean }

/**
 * Reads a field that takes any value (a key's value, a procedure's input) as a person means it:
 * JSON when it is JSON (`12` is a number, `"12"` a string); other text as the text it is
 * (`bob/1`, `hello`), with `asText` so the field can say so. Text that opens as JSON does (`{`,
 * `[`, `"`) but does not parse was meant as JSON: it stays a problem, said where.
 */
export function readValue(text: string): ValueReading {
  const reading = readJson(text)
  if (!reading.problem || /^\s*[[{"]/.test(text)) return reading
  return { empty: false, value: text, asText: true }
}

/** What a field says of a value it took as text. */
export function AsText({ text, verb = 'sent' }: { text: string; verb?: string }) {
  return (
    <span data-testid="sent-as-text">
      Not JSON: {verb} as the text it is, <code>{JSON.stringify(text)}</code>.
    </span>
  )
}

/**
 * A textarea for JSON, checked as it is typed: where it does not parse (line and column) is
 * said under it at once, politely, and the field is marked invalid.
 */
export function JsonField({
  label,
  text,
  onText,
  reading,
  help,
  rows = 4,
  placeholder,
  className,
  id: givenId,
}: {
  label: string
  text: string
  onText: (text: string) => void
  reading: JsonReading
  help?: ReactNode
  rows?: number
  placeholder?: string
  className?: string
  id?: string
}) {
  const ownId = useId()
  const id = givenId ?? ownId
  const problemId = `${id}-problem`
  const helpId = `${id}-help`
  const described = [reading.problem ? problemId : '', help ? helpId : ''].filter(Boolean)
  return (
    <div className={className ? `field json-field ${className}` : 'field json-field'}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        value={text}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        placeholder={placeholder}
        aria-invalid={reading.problem ? true : undefined}
        aria-describedby={described.length ? described.join(' ') : undefined}
        onChange={(event) => onText(event.target.value)}
      />
      <p id={problemId} className="json-problem" aria-live="polite">
        {reading.problem ?? ''}
      </p>
      {help && (
        <p id={helpId} className="muted json-help">
          {help}
        </p>
      )}
    </div>
  )
}
