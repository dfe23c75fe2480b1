import { useState } from 'react'
import type { SimulateCall } from '../../engine'
import { useConfig } from '../shared/config'
import { messageOf } from '../shared/format'
import { useAccountMutation } from '../shared/queries'
import { routeHref } from '../shared/router'
import type { TokenChoice } from '../shared/tokens'
import type { CallDraft } from '../shared/wire'
import { pinWatch, watchLabel } from '../watches/watches-api'

/** The call a console draft made, as a watch asks it (the tuples' values, or the raw tuples). */
export function watchCall(draft: CallDraft, serviceName: string): SimulateCall | undefined {
  if (draft.rawBody instanceof Uint8Array) return undefined
  if (draft.rawBody !== undefined) {
    return {
      endpoint: draft.endpoint,
      body: draft.rawBody,
      contentType: `application/vnd.${serviceName}+json`,
    }
  }
  return {
    endpoint: draft.endpoint,
    ...(draft.input === undefined ? {} : { input: draft.input }),
    ...(draft.args.length === 0 ? {} : { args: Object.fromEntries(draft.args) }),
  }
}

/**
 * "Keep watching this": pins the call just answered as a watch, expecting what it answered (let
 * in, or refused), so that a change to the account that turns it is said in Watches.
 */
export function PinWatch({
  draft,
  choice,
  status,
}: {
  draft: CallDraft
  choice: TokenChoice
  status: number
}) {
  const { baseUrl, serviceName } = useConfig()
  const [pinned, setPinned] = useState(false)
  const expect = status === 200 ? 'allowed' : 'refused'
  const call = watchCall(draft, serviceName)
  const pin = useAccountMutation(() =>
    pinWatch(baseUrl, { token: choice.token, call: call!, expect, label: watchLabel(choice) }),
  )
  if (!call || (status !== 200 && status !== 401)) return null
  if (pinned) {
    return (
      <span className="muted" role="status">
        Watched: <a href={routeHref('watches')}>Watches</a> says when it turns.
      </span>
    )
  }
  return (
    <>
      <button
        type="button"
        aria-disabled={pin.isPending ? true : undefined}
        onClick={() =>
          !pin.isPending && pin.mutate(undefined, { onSuccess: () => setPinned(true) })
        }
      >
        {expect === 'allowed' ? 'Watch: it can make this call' : 'Watch: it cannot make this call'}
      </button>
      {pin.isError && <span role="alert">{messageOf(pin.error)}</span>}
    </>
  )
}
