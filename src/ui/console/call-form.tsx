import { useId, useState, type Dispatch, type KeyboardEvent, type SetStateAction } from 'react'
import type { EndpointInfo, ParamSpec } from '../shared/catalogue'
import type { TokenChoice } from '../shared/tokens'
import { isLong, Preview } from '../shared/long-text'
import { argFields, type BuiltCall } from './draft'
import { FormatRow } from './format-row'
import { EndpointPicker, type EndpointOption } from './endpoint-picker'
import { defaultMode, type ArgState, type ConsoleState, type FieldState } from './state'
import { TokenPicker, type ResolvedToken } from './token-picker'
import { ValueField } from './value-field'

/** Past this many characters, the tuples built from the form are previewed, not edited. */
const LONG_FIELD = 100_000

/** Arguments whose type needs room: compositions and structures. */
const ROOMY = new Set(['proc', 'object', 'array', 'any'])

/** An argument's new state in the list: kept in its place, added at the end. */
function withArg(args: readonly ArgState[], arg: ArgState): ArgState[] {
  return args.some((a) => a.name === arg.name)
    ? args.map((a) => (a.name === arg.name ? arg : a))
    : [...args, arg]
}

/**
 * The call as a person composes it: endpoint, token, input and arguments (written once), body
 * format and accept. Ctrl+Enter (or Cmd+Enter) anywhere in it sends.
 */
export function CallForm({
  state,
  setState,
  endpoint,
  options,
  endpointNote,
  choices,
  resolved,
  built,
  serviceName,
  sending,
  onPickEndpoint,
  onSend,
}: {
  state: ConsoleState
  setState: Dispatch<SetStateAction<ConsoleState>>
  endpoint: EndpointInfo | undefined
  options: readonly EndpointOption[]
  endpointNote?: string
  choices: readonly TokenChoice[]
  resolved: ResolvedToken
  built: BuiltCall
  serviceName: string
  sending: boolean
  onPickEndpoint: (name: string) => void
  onSend: () => void
}) {
  const id = useId()
  const [newArg, setNewArg] = useState('')
  const [newArgProblem, setNewArgProblem] = useState<string | null>(null)
  const update = (change: Partial<ConsoleState>) => setState((s) => ({ ...s, ...change }))
  const problemOf = (field: string) => built.problems.find((p) => p.field === field)?.message
  const fields = argFields(state, endpoint)
  const tupleFormat = state.format === 'tuples' || state.format === 'msgpack'

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      onSend()
    }
  }

  function setArg(name: string, field: FieldState, spec: ParamSpec | undefined) {
    setState((s) => ({
      ...s,
      // An empty declared argument is not sent, and not kept unless its mode was chosen (plain
      // text ticked stays ticked); one added by hand stays.
      args:
        spec && field.text === '' && field.mode === defaultMode(spec.type, s.format)
          ? s.args.filter((a) => a.name !== name)
          : withArg(s.args, { name, ...field }),
    }))
  }

  function addArg() {
    const name = newArg.trim()
    if (!name) return setNewArgProblem('Give the argument a name.')
    if (fields.some((field) => field.name === name)) {
      return setNewArgProblem(`${name} is already in the form.`)
    }
    setNewArgProblem(null)
    setNewArg('')
    update({ args: [...state.args, { name, text: '' }] })
  }

  return (
    <form
      className="call-form-console"
      aria-label="Call"
      noValidate
      onKeyDown={onKeyDown}
      onSubmit={(event) => {
        event.preventDefault()
        onSend()
      }}
    >
      <EndpointPicker
        value={state.endpoint}
        options={options}
        describedBy={`${id}-endpoint`}
        onType={(name) => update({ endpoint: name })}
        onPick={onPickEndpoint}
      />
      <div id={`${id}-endpoint`} className="endpoint-about">
        {endpoint && (
          <p className="endpoint-summary" data-testid="endpoint-summary">
            {endpoint.summary}
            {endpoint.insecure && <span className="badge">insecure</span>}
          </p>
        )}
        {endpointNote && <p className="endpoint-note">{endpointNote}</p>}
      </div>

      <TokenPicker
        value={state.token}
        pasted={state.pasted}
        choices={choices}
        resolved={resolved}
        onChange={(change) => update(change)}
      />

      <FormatRow
        id={id}
        format={state.format}
        accept={state.accept}
        serviceName={serviceName}
        onChange={update}
      />

      <fieldset className="values" disabled={built.rawInUse}>
        <legend>Input and arguments</legend>
        {built.rawInUse && (
          <p className="muted">The tuples below were edited by hand and are sent as written.</p>
        )}
        {endpoint?.input === null ? (
          <p className="muted" data-testid="no-input">
            {endpoint.name} takes no input.
            {built.inputLeftOut === 'endpoint' && ' The input typed before is kept, but not sent.'}
          </p>
        ) : (
          <ValueField
            label="Input"
            unknown="not in the catalogue · any JSON"
            multiline
            state={state.input}
            format={state.format}
            {...(endpoint?.input ? { spec: endpoint.input } : {})}
            {...withProblem(problemOf('input'))}
            asText={built.asText.includes('input')}
            onChange={(input) => update({ input })}
          />
        )}
        {built.inputLeftOut === 'query' && (
          <p className="muted">The query string carries arguments only: the input is not sent.</p>
        )}
        {fields.map((field) => (
          <ValueField
            key={field.name}
            label={field.name}
            state={field.state}
            format={state.format}
            multiline={ROOMY.has(field.spec?.type ?? '')}
            {...(field.spec ? { spec: field.spec } : {})}
            {...withProblem(problemOf(field.name))}
            asText={built.asText.includes(field.name)}
            onChange={(value) => setArg(field.name, value, field.spec)}
            {...(field.spec
              ? {}
              : {
                  onRemove: () =>
                    update({ args: state.args.filter((arg) => arg.name !== field.name) }),
                })}
          />
        ))}
        <div className="add-arg">
          <div className="field">
            <label htmlFor={`${id}-new-arg`}>Another argument</label>
            <input
              id={`${id}-new-arg`}
              value={newArg}
              placeholder="name"
              spellCheck={false}
              aria-describedby={newArgProblem ? `${id}-new-arg-problem` : undefined}
              onChange={(event) => setNewArg(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
                  event.preventDefault()
                  addArg()
                }
              }}
            />
          </div>
          <button type="button" onClick={addArg}>
            Add argument
          </button>
          {newArgProblem && (
            <p id={`${id}-new-arg-problem`} className="field-problem">
              {newArgProblem}
            </p>
          )}
        </div>
      </fieldset>

      {tupleFormat && (
        <div className="field raw-tuples">
          <label htmlFor={`${id}-raw`}>
            Tuples{state.format === 'msgpack' ? ' (edited as JSON, sent as MessagePack)' : ''}
          </label>
          {state.raw === null && isLong(built.tuples, LONG_FIELD) ? (
            <div id={`${id}-raw`} className="raw-preview">
              <Preview text={built.tuples} what="sent as built from the form" />
              <button type="button" onClick={() => update({ raw: built.tuples })}>
                Edit the tuples by hand
              </button>
            </div>
          ) : (
            <textarea
              id={`${id}-raw`}
              rows={6}
              spellCheck={false}
              value={state.raw ?? built.tuples}
              aria-describedby={`${id}-raw-about`}
              aria-invalid={problemOf('raw') ? true : undefined}
              onChange={(event) => update({ raw: event.target.value })}
            />
          )}
          <div id={`${id}-raw-about`} className="raw-about">
            {state.raw === null ? (
              <p className="muted">Built from the form. Edit them to send your own.</p>
            ) : (
              <p>
                Edited by hand: sent as written, instead of the form&apos;s.{' '}
                <button type="button" className="link" onClick={() => update({ raw: null })}>
                  Reset to the form
                </button>
              </p>
            )}
            {problemOf('raw') && <p className="field-problem">The tuples are {problemOf('raw')}</p>}
            {built.rawWarning && (
              <p className="field-problem">
                The tuples are {built.rawWarning}; they are sent anyway, and the engine will say why
                it refuses them.
              </p>
            )}
          </div>
        </div>
      )}

      <div className="send-row">
        <button type="submit" className="primary" disabled={sending}>
          {sending ? 'Sending…' : 'Send'}
        </button>
        <span className="muted">
          or <kbd>Ctrl</kbd>+<kbd>Enter</kbd>
        </span>
      </div>
    </form>
  )
}

const withProblem = (problem: string | undefined) => (problem ? { problem } : {})
