import { useId, useMemo, useState, type ReactNode } from 'react'
import type { LoggedBody } from '../../engine'
import { CopyButton } from '../shared/copy-button'
import { loggedBytes, readBody, type ReadableBody } from '../shared/wire'
import { holdsTokens, maskTokens } from './masking'

type BodyView = 'pretty' | 'raw' | 'decoded' | 'hex'

const VIEW_LABELS: Record<BodyView, string> = {
  pretty: 'Pretty',
  raw: 'Raw',
  decoded: 'Decoded',
  hex: 'Hex',
}

/** A place in a text body, from 1, as the engine's JSON errors name it. */
export interface TextPlace {
  line: number
  column: number
}

/** A body as the log kept it, decoded once: MessagePack from base64, JSON pretty-printed. */
export function readLogged(body: LoggedBody, contentType: string): ReadableBody {
  return readBody(loggedBytes(body), contentType)
}

function viewsOf(read: ReadableBody): BodyView[] {
  if (read.hex !== undefined) return ['decoded', 'hex']
  if (read.value !== undefined && read.pretty !== read.raw) return ['pretty', 'raw']
  return ['raw']
}

function textOf(read: ReadableBody, view: BodyView): string {
  switch (view) {
    case 'pretty':
    case 'decoded':
      return read.pretty
    case 'raw':
      return read.raw
    case 'hex':
      return read.hex ?? ''
  }
}

/** The offset of a 1-based line and column in `text`, or `undefined` past its end. */
function offsetOf(text: string, { line, column }: TextPlace): number | undefined {
  let offset = 0
  for (let at = 1; at < line; at++) {
    const next = text.indexOf('\n', offset)
    if (next < 0) return undefined
    offset = next + 1
  }
  const found = offset + column - 1
  return found <= text.length ? found : undefined
}

/**
 * One body of an exchange: each way of reading it (pretty and raw; for MessagePack, decoded and
 * hex), its size, whether the log cut it, and a copy button. Tokens in it (an `auth.create`
 * answer, the token sent) stay masked until revealed; `place` marks where the engine said the
 * text went wrong.
 */
export function MessageBody({
  label,
  body,
  contentType,
  tokens,
  place,
}: {
  label: string
  body: LoggedBody | null
  contentType: string
  tokens: readonly string[]
  place?: TextPlace | undefined
}) {
  const read = useMemo(() => (body ? readLogged(body, contentType) : null), [body, contentType])
  const views = read ? viewsOf(read) : []
  const [chosen, setChosen] = useState<BodyView | null>(null)
  const [reveal, setReveal] = useState(false)
  const view = chosen && views.includes(chosen) ? chosen : views[0]
  const preId = useId()
  if (!body || !read || !view) return <p className="muted">No body.</p>
  const text = textOf(read, view)
  const secret = holdsTokens(read.raw + read.pretty, tokens)
  const shown = (part: string) => (reveal || !secret ? part : maskTokens(part, tokens))
  const offset = view === 'raw' && place ? offsetOf(text, place) : undefined
  let content: ReactNode = shown(text)
  if (offset !== undefined) {
    content = (
      <>
        {shown(text.slice(0, offset))}
        <mark data-testid="error-place" title={`line ${place!.line}, column ${place!.column}`}>
          {text.slice(offset, offset + 1) || ' '}
        </mark>
        {shown(text.slice(offset + 1))}
      </>
    )
  }
  return (
    <div className="log-body">
      <div className="log-body-bar">
        {views.length > 1 && (
          <div role="group" aria-label={`${label}: how to read it`} className="log-body-views">
            {views.map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={option === view}
                aria-controls={preId}
                onClick={() => setChosen(option)}
              >
                {VIEW_LABELS[option]}
              </button>
            ))}
          </div>
        )}
        <span className="muted">
          {body.bytes} bytes{body.encoding === 'base64' ? ', binary' : ''}
        </span>
        <CopyButton text={text} label={`Copy ${VIEW_LABELS[view].toLowerCase()}`} />
        {secret && (
          <button
            type="button"
            className="link"
            aria-pressed={reveal}
            aria-label={`${reveal ? 'Mask' : 'Reveal'} the tokens in the ${label.toLowerCase()}`}
            onClick={() => setReveal(!reveal)}
          >
            {reveal ? 'Mask tokens' : 'Reveal tokens'}
          </button>
        )}
      </div>
      {body.truncated && (
        <p className="log-note">
          The log kept only the first 64 KiB of this body ({body.bytes} bytes in all).
        </p>
      )}
      <pre id={preId} tabIndex={0} aria-label={`${label} (${VIEW_LABELS[view].toLowerCase()})`}>
        {content}
      </pre>
    </div>
  )
}
