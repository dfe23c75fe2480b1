import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useCatalogue, type EndpointInfo } from '../shared/catalogue'
import { useConfig } from '../shared/config'
import { CopyButton } from '../shared/copy-button'
import { useExchangeLog, useLoggedExchange } from '../shared/exchange-log'
import { useShareStep } from '../link/share-step'
import { useNow } from '../shared/clock'
import { messageOf } from '../shared/format'
import { procedureNames, proceduresQuery, useAccountMutation } from '../shared/queries'
import { routeHref } from '../shared/router'
import { useRememberedActions, useTokenChoices } from '../shared/tokens'
import { planCall, sendPlan, type HttpPlan } from '../shared/wire'
import { readAnswer } from './answer'
import { AnswerActions } from './answer-actions'
import { AnswerView } from './answer-view'
import { CallForm } from './call-form'
import { CallNotes } from './call-notes'
import { ProgramCall } from './program-call'
import { buildCall } from './draft'
import { pageAt } from './next-page'
import { RequestPlan } from './request-plan'
import { paramsOfState, type ConsoleState } from './state'
import { resolveToken } from './token-picker'
import { useConsoleState } from './use-console-state'
import './console.css'
import { mintedAuthorization } from '../../client/exchange'

/**
 * The Console: call any endpoint, with any token, in every body format, and see the exchange
 * on the wire: the exact request before it leaves, and every part of the answer.
 */
export default function ConsoleView() {
  const { baseUrl, serviceName } = useConfig()
  const [state, setState] = useConsoleState()
  const catalogue = useCatalogue()
  const procedures = useQuery({ ...proceduresQuery(baseUrl), select: procedureNames })
  const { choices, loaded } = useTokenChoices(state.token)
  const { remember } = useRememberedActions()
  const now = useNow()
  // Why the last Send sent nothing, shown until the form changes.
  const [blocked, setBlocked] = useState<{ form: ConsoleState; why: string } | null>(null)
  // The form as it was sent: an answer to another form is marked as an earlier request's.
  const [sentForm, setSentForm] = useState<ConsoleState | null>(null)

  const endpoints = catalogue.data ?? []
  const options = [
    ...endpoints,
    ...(procedures.data ?? []).map((name) => ({
      name: `lib.${name}`,
      summary: 'Stored procedure',
    })),
  ]
  const infoOf = (name: string): EndpointInfo | undefined =>
    endpoints.find((e) => e.name === name.trim())
  const endpoint = infoOf(state.endpoint)

  const compute = (form: ConsoleState) => {
    const resolved = resolveToken(form.token, form.pasted, choices, loaded)
    const built = buildCall(form, infoOf(form.endpoint), resolved.token, serviceName)
    const plan =
      built.draft && form.endpoint.trim() ? planCall(baseUrl, serviceName, built.draft) : null
    return { resolved, built, plan }
  }
  const { resolved, built, plan } = compute(state)

  // Any call may change the account (a key, a procedure, an authorization): it is read again.
  const send = useAccountMutation(
    async ({ plan, endpoint }: { plan: HttpPlan; endpoint: string }) => {
      const result = await sendPlan(plan)
      const answer = readAnswer(result)
      let authorization: string | undefined
      if (mintedAuthorization(endpoint.trim(), result.status) && answer.value) {
        // An authorization made here is remembered, as every view of the playground does.
        authorization = answer.value.trim()
        await remember(authorization)
      }
      return { answer, authorization }
    },
  )
  const exchange = useLoggedExchange(send.data?.answer.result.sent)
  // "Share this step" for the last answer: the log up to its exchange, as the log's rows share.
  const logged = useExchangeLog().data?.entries
  const sharing = useShareStep(logged ?? [])

  function trySend(form: ConsoleState = state) {
    if (send.isPending) return
    const { built, plan } = compute(form)
    if (!form.endpoint.trim()) {
      return setBlocked({ form, why: 'Not sent: pick or type an endpoint first.' })
    }
    if (!plan) {
      const problems = built.problems.map(
        (p) => `${p.field === 'raw' ? 'the tuples' : p.field} is ${p.message}`,
      )
      return setBlocked({ form, why: `Not sent: ${problems.join('; ')}.` })
    }
    setBlocked(null)
    setSentForm(form)
    send.mutate({ plan, endpoint: form.endpoint })
  }

  function nextPage(cursor: string) {
    const next = pageAt(state, built.rawInUse, cursor)
    setState(next)
    trySend(next)
  }

  const name = state.endpoint.trim()
  const stale = sentForm !== null && sentForm !== state
  const endpointNote =
    !name || !catalogue.isSuccess || endpoint
      ? undefined
      : name.startsWith('lib.')
        ? procedures.data?.some((proc) => `lib.${proc}` === name)
          ? 'A stored procedure: add its arguments by name below.'
          : `No stored procedure ${name.slice(4)} in this account yet: the engine will answer 404 until one is created.`
        : `${name} is not in the engine's catalogue. You can still send it: the engine's 404 says what it makes of it.`
  const outcome = send.data
  // The call last answered, with the token it went with: what "Watch" pins.
  const sentBuilt = sentForm ? compute(sentForm) : undefined
  const sentChoice = choices.find((c) => c.id === sentBuilt?.resolved.id)
  const sent =
    sentBuilt?.built.draft && sentChoice
      ? { draft: sentBuilt.built.draft, choice: sentChoice }
      : undefined
  // A secret is named by its id; an authorization travels as itself.
  const linksToken = state.token.startsWith('authorization:')

  return (
    <div className="console">
      <section aria-labelledby="view-heading" className="panel console-compose">
        <div className="panel-heading">
          <h2 id="view-heading">Console</h2>
          <CopyButton text={shareLink(state)} label="Copy link to this request" />
          {linksToken && (
            <CopyButton
              text={shareLink({ ...state, token: '' })}
              label="Copy link without the token"
            />
          )}
        </div>
        {linksToken && (
          <p className="muted link-token-note" data-testid="link-token-note">
            The link, and this page&apos;s address (so the browser&apos;s history), hold the
            authorization itself: whoever has them can use it, until it expires or its secret rolls.
            Share it as you would the token, or copy the link without it.
          </p>
        )}
        {catalogue.isError && (
          <p role="alert">The catalogue could not be read: {messageOf(catalogue.error)}</p>
        )}
        <CallForm
          state={state}
          setState={setState}
          endpoint={endpoint}
          options={options}
          {...(endpointNote ? { endpointNote } : {})}
          choices={choices}
          resolved={resolved}
          built={built}
          serviceName={serviceName}
          sending={send.isPending}
          onPickEndpoint={(picked) =>
            setState((s) => {
              const info = infoOf(picked)
              // The picked endpoint's own arguments keep their values; the others go.
              return {
                ...s,
                endpoint: picked,
                args: info ? s.args.filter((a) => info.args[a.name]) : s.args,
              }
            })
          }
          onSend={() => trySend()}
        />
        <ProgramCall
          state={state}
          token={resolved.token}
          onRun={(next) => {
            setState(next)
            trySend(next)
          }}
        />
        <CallNotes state={state} draft={built.draft} now={now} />
        {blocked?.form === state && (
          <p role="alert" className="blocked">
            {blocked.why}
          </p>
        )}
      </section>
      <div className="console-wire">
        {plan && built.draft ? (
          <RequestPlan plan={plan} draft={built.draft} />
        ) : (
          <section aria-labelledby="console-request-heading" className="panel console-plan">
            <h2 id="console-request-heading">Request</h2>
            <p className="empty">
              {name
                ? 'Fix the fields marked in the form to see the request.'
                : 'Pick an endpoint to see the request it makes.'}
            </p>
          </section>
        )}
        {send.isError && (
          <p role="alert" className={stale ? 'stale' : undefined}>
            Not answered: {messageOf(send.error)}
            {stale && ' (the request sent before the form changed)'}
          </p>
        )}
        {outcome ? (
          <AnswerView
            answer={outcome.answer}
            stale={stale}
            {...(exchange ? { exchange } : {})}
            actions={
              (outcome.answer.cursor || outcome.authorization || sent || exchange) && (
                <AnswerActions
                  answer={outcome.answer}
                  authorization={outcome.authorization}
                  sent={sent}
                  exchange={exchange}
                  sharing={sharing}
                  token={state.token}
                  onNextPage={nextPage}
                  onUseAuthorization={(authorization) =>
                    setState((s) => ({ ...s, token: `authorization:${authorization}` }))
                  }
                />
              )
            }
          />
        ) : (
          <section aria-labelledby="console-answer-heading" className="panel console-answer">
            <h2 id="console-answer-heading">Answer</h2>
            <p className="empty">Send the request to see the answer: status, headers and body.</p>
          </section>
        )}
      </div>
    </div>
  )
}

/** The page's address with the form in its fragment: what "Copy link" gives. */
function shareLink(state: ConsoleState): string {
  const { origin, pathname, search } = window.location
  return `${origin}${pathname}${search}${routeHref('console', paramsOfState(state))}`
}
