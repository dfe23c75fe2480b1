import { millisecondsWarning } from '../shared/format'
import { Quoted } from '../shared/quoted'
import type { CallDraft } from '../shared/wire'
import { numberFindings } from './numbers'
import { leftOutOfLink, type ConsoleState } from './state'

/**
 * What to know about the call before it is sent: an `auth.create` expiry that looks like
 * milliseconds, numbers the engine will refuse, and fields too long for the page's link.
 */
export function CallNotes({
  state,
  draft,
  now,
}: {
  state: ConsoleState
  draft: CallDraft | null
  /** The engine's virtual time, in Unix seconds, once read. */
  now: number | undefined
}) {
  const name = state.endpoint.trim()
  const expiry = draft?.args.find(([arg]) => arg === 'expiry')?.[1]
  const expiryWarning =
    name === 'auth.create' && (typeof expiry === 'number' || typeof expiry === 'string')
      ? millisecondsWarning(Number(expiry))
      : undefined
  const numberNotes = draft ? numberFindings(name, draft, now) : []
  const leftOut = leftOutOfLink(state)
  return (
    <>
      {expiryWarning && (
        <p className="finding finding-warning" data-testid="expiry-warning">
          <strong>Note:</strong> <Quoted text={expiryWarning} /> The engine accepts it as sent.
        </p>
      )}
      {numberNotes.map((note) => (
        <p key={note} className="finding finding-engine" data-testid="number-note">
          <strong>The engine will refuse:</strong> <Quoted text={note} />
        </p>
      ))}
      {leftOut.length > 0 && (
        <p className="muted" data-testid="left-out-of-link">
          Too long for a link: {leftOut.join(', ')} stay in the form while the page is open, but a
          copied link or a reload leaves them out.
        </p>
      )}
    </>
  )
}
