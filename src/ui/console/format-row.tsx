import { BODY_FORMATS, mediaTypeOf, type BodyFormat } from '../shared/wire'
import { ACCEPT_CHOICES, type AcceptChoice } from './state'

/** How each body format is offered: by the media type it sends. */
const FORMAT_LABELS: Record<BodyFormat, (service: string) => string> = {
  text: () => 'text/plain',
  json: () => 'application/json',
  tuples: (service) => `application/vnd.${service}+json (tuples)`,
  msgpack: (service) => `application/vnd.${service}+msgpack`,
  query: () => 'Query string only (no body)',
}

/** The call's body format and the answer's format it accepts, each a choice of the known ones. */
export function FormatRow({
  id,
  format,
  accept,
  serviceName,
  onChange,
}: {
  /** The form's id, which the fields' ids start with. */
  id: string
  format: BodyFormat
  accept: AcceptChoice
  serviceName: string
  onChange: (change: { format: BodyFormat } | { accept: AcceptChoice }) => void
}) {
  return (
    <div className="format-row">
      <div className="field">
        <label htmlFor={`${id}-format`}>Body format</label>
        <select
          id={`${id}-format`}
          value={format}
          onChange={(event) => onChange({ format: event.target.value as BodyFormat })}
        >
          {BODY_FORMATS.map((option) => (
            <option key={option} value={option}>
              {FORMAT_LABELS[option](serviceName)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-accept`}>Accept</label>
        <select
          id={`${id}-accept`}
          value={accept}
          onChange={(event) => onChange({ accept: event.target.value as AcceptChoice })}
        >
          {ACCEPT_CHOICES.map((option) => (
            <option key={option} value={option}>
              {option === '' ? 'Same family (no header)' : mediaTypeOf(option, serviceName)}
            </option>
          ))}
        </select>
      </div>
    </div>
  )
}
