import { useId, useState } from 'react'
import { isLong, Preview } from '../shared/long-text'
import type { ParamSpec } from '../shared/catalogue'
import type { BodyFormat } from '../shared/wire'
import type { FieldMode } from './json-text'
import { allowsText, defaultMode, type FieldState } from './state'

/** Past this many characters a value is previewed rather than laid out whole in its field. */
export const LONG_VALUE = 100_000

/** What the catalogue says of a field: `integer · required · default 250`. */
export function specLine(spec: ParamSpec | undefined, unknown: string): string {
  if (!spec) return unknown
  const parts = [spec.type]
  if (spec.required) parts.push('required')
  if (spec.default !== undefined) parts.push(`default ${JSON.stringify(spec.default)}`)
  return parts.join(' · ')
}

/**
 * One input or argument: its text typed as JSON, or as plain text where the type takes a
 * string (so `hello` need not be quoted); the catalogue's type, marker, default and doc around it.
 */
export function ValueField({
  label,
  spec,
  unknown = 'added by name · any JSON',
  state,
  format,
  multiline,
  problem,
  asText = false,
  onChange,
  onRemove,
}: {
  label: string
  spec?: ParamSpec
  /** What the spec line says without a spec. */
  unknown?: string
  state: FieldState | undefined
  /** The body format: plain text is the default for what may be text when it is `text`. */
  format: BodyFormat
  multiline?: boolean
  /** Why the text does not parse, if it does not. */
  problem?: string
  /** The text is not JSON, and is sent as the text it is. */
  asText?: boolean
  onChange: (state: FieldState) => void
  onRemove?: () => void
}) {
  const id = useId()
  const [editWhole, setEditWhole] = useState(false)
  const text = state?.text ?? ''
  const previewed = isLong(text, LONG_VALUE) && !editWhole
  const mode: FieldMode = state?.mode ?? defaultMode(spec?.type, format)
  const canBeText = allowsText(spec?.type)
  const describedBy = [
    `${id}-spec`,
    spec?.doc && `${id}-doc`,
    problem && `${id}-problem`,
    asText && `${id}-as-text`,
  ]
    .filter(Boolean)
    .join(' ')
  const placeholder =
    spec?.default !== undefined
      ? JSON.stringify(spec.default)
      : mode === 'text'
        ? 'plain text'
        : 'a JSON value'
  const control = {
    id,
    value: text,
    placeholder,
    spellCheck: false,
    'aria-describedby': describedBy,
    'aria-invalid': problem ? true : undefined,
    'aria-required': spec?.required ? true : undefined,
    onChange: (event: { target: { value: string } }) =>
      onChange({ text: event.target.value, mode }),
  }
  return (
    <div className="value-field" data-field={label}>
      <div className="value-field-head">
        <label htmlFor={id}>{label}</label>
        <span id={`${id}-spec`} className="muted value-spec">
          {specLine(spec, unknown)}
          {spec?.required && (
            <abbr className="required" title="required" aria-hidden="true">
              *
            </abbr>
          )}
        </span>
        {canBeText && (
          <label className="value-mode">
            <input
              type="checkbox"
              checked={mode === 'text'}
              aria-label={`${label} as plain text`}
              onChange={(event) => onChange({ text, mode: event.target.checked ? 'text' : 'json' })}
            />
            plain text
          </label>
        )}
        {onRemove && (
          <button
            type="button"
            className="link"
            aria-label={`Remove argument ${label}`}
            onClick={onRemove}
          >
            Remove
          </button>
        )}
      </div>
      {previewed ? (
        <div
          className="long-value"
          role="group"
          aria-labelledby={id}
          aria-describedby={describedBy}
          data-testid="long-value"
        >
          <output id={id}>{text.length.toLocaleString('en-US')} characters</output>
          <Preview text={text} what="kept whole, and sent" />
          <div className="long-value-actions">
            <button type="button" onClick={() => setEditWhole(true)}>
              Edit it whole
            </button>
            <button type="button" onClick={() => onChange({ text: '', mode })}>
              Clear {label}
            </button>
          </div>
        </div>
      ) : multiline ? (
        <textarea rows={3} {...control} />
      ) : (
        <input {...control} />
      )}
      {spec?.doc && (
        <p id={`${id}-doc`} className="muted value-doc">
          {spec.doc}
        </p>
      )}
      {asText && (
        <p id={`${id}-as-text`} className="muted field-as-text" data-testid="sent-as-text">
          Not JSON: sent as the text it is, <code>{JSON.stringify(text)}</code>. Tick plain text to
          send any text as it is.
        </p>
      )}
      {problem && (
        <p id={`${id}-problem`} className="field-problem">
          {label} is {problem}
          {canBeText && mode === 'json' && ': put strings in double quotes, or tick plain text'}
        </p>
      )}
    </div>
  )
}
