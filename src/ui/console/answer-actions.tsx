import type { useShareStep } from '../link/share-step'
import type { PageExchange } from '../shared/page-store'
import type { TokenChoice } from '../shared/tokens'
import type { CallDraft } from '../shared/wire'
import type { Answer } from './answer'
import { PinWatch } from './pin-watch'

/**
 * What can be done with the last answer: pin its call as a watch, share its step, read its next
 * page, or take the authorization it made as the token.
 */
export function AnswerActions({
  answer,
  authorization,
  sent,
  exchange,
  sharing,
  token,
  onNextPage,
  onUseAuthorization,
}: {
  answer: Answer
  /** The authorization the call made, when it made one. */
  authorization: string | undefined
  /** The call answered, with the token it went with. */
  sent: { draft: CallDraft; choice: TokenChoice } | undefined
  /** The call in the exchange log: `null` when the log has none. */
  exchange: PageExchange | null | undefined
  sharing: ReturnType<typeof useShareStep>
  /** The form's token, as the form holds it. */
  token: string
  onNextPage: (cursor: string) => void
  onUseAuthorization: (authorization: string) => void
}) {
  return (
    <>
      {sent && (
        <PinWatch
          key={answer.result.sent.sentAt}
          draft={sent.draft}
          choice={sent.choice}
          status={answer.result.status}
        />
      )}
      {exchange && (
        <button type="button" disabled={sharing.busy} onClick={() => sharing.share(exchange)}>
          Share this step
        </button>
      )}
      {answer.cursor && (
        <button type="button" onClick={() => onNextPage(answer.cursor!)}>
          Next page
        </button>
      )}
      {authorization && token !== `authorization:${authorization}` && (
        <button type="button" onClick={() => onUseAuthorization(authorization)}>
          Use this authorization as the token
        </button>
      )}
      {sharing.panel}
    </>
  )
}
