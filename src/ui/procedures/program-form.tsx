import { useState, type FormEvent } from 'react'
import { useConfig } from '../shared/config'
import { ErrorReason } from '../shared/refusal'
import { Field } from '../shared/field'
import { useAccountMutation } from '../shared/queries'
import { deploy, readArgs, type DeployResult } from './program'
import { ProgramEditor } from './program-editor'
import { useCompiled } from './use-compiled'
import { useEndpointNames } from './proc-field'
import { callProblem } from './rules'

/** A program to start from: one procedure, with an argument and its default. */
export const EXAMPLE_PROGRAM = `proc(name: "text.shout") {
  type.string.upcase
    .| type.string.append(value: arg(:mark, default: "!"))
}
`

/**
 * Deploys a program written in the composer language, exactly as `proc deploy FILE` does:
 * `core.exec` of `core.compile` then `core.deploy`. Its `proc` blocks go to the dev stage
 * (`lib.<name>:dev`) or, released, to `lib.<name>`; its `exec` blocks run, in order.
 */
export function ProgramForm({ token }: { token: string }) {
  const config = useConfig()
  const [code, setCode] = useState('')
  const [argsText, setArgsText] = useState('')
  const [release, setRelease] = useState(false)
  const compiled = useCompiled(code, token)
  const run = useAccountMutation(() => deploy(config, token, code, release, readArgs(argsText)))
  const endpoints = useEndpointNames()
  // A call to an endpoint that does not exist would only answer 404 when the procedure runs.
  const unknown = compiled.objects
    ?.map((object) => (endpoints ? callProblem(object.tuples, endpoints) : undefined))
    .find(Boolean)
  const deployable =
    (compiled.objects?.some((object) => object.kind === 'proc') ?? false) &&
    endpoints !== undefined &&
    unknown === undefined

  function submit(event: FormEvent) {
    event.preventDefault()
    if (deployable && !compiled.pending) run.mutate()
  }

  return (
    <form
      className="proc-deploy"
      aria-labelledby="proc-deploy-heading"
      onSubmit={submit}
      noValidate
    >
      <h3 id="proc-deploy-heading">Deploy a program</h3>
      <p className="muted">
        The real command-line tool&apos;s language (Ruby syntax): each{' '}
        <code>{'proc(name: "…") { … }'}</code> block is stored, in its dev stage (
        <code>lib.&lt;name&gt;:dev</code>) unless released; each <code>{'exec { … }'}</code> block
        runs. Calls by dotted name, <code>.|</code> to compose, <code>:name</code> and{' '}
        <code>arg(:name, default: …)</code> for arguments. <code>proc deploy FILE</code> sends the
        same request.
      </p>
      {code === '' && (
        <div>
          <button type="button" onClick={() => setCode(EXAMPLE_PROGRAM)}>
            Start from an example program
          </button>
        </div>
      )}
      <ProgramEditor
        label="Program (composer language)"
        code={code}
        onCode={setCode}
        compiled={compiled}
        placeholder={'proc(name: "text.flip") {\n  type.string.reverse\n}'}
      />
      <Field label="Arguments (name=value, one a line, as -arg)">
        {(id) => (
          <textarea
            id={id}
            rows={2}
            value={argsText}
            spellCheck={false}
            placeholder="mark=?"
            onChange={(event) => setArgsText(event.target.value)}
          />
        )}
      </Field>
      <label className="proc-release">
        <input
          type="checkbox"
          checked={release}
          onChange={(event) => setRelease(event.target.checked)}
        />{' '}
        Release (<code>lib.&lt;name&gt;</code>, as <code>-release</code>)
      </label>
      <div>
        <button type="submit" disabled={!deployable || compiled.pending || run.isPending}>
          Deploy
        </button>
      </div>
      {unknown && !compiled.pending && (
        <p className="proc-problem" role="alert" data-testid="unknown-endpoint">
          Not deployed: {unknown}
        </p>
      )}
      {compiled.objects && !deployable && !unknown && !compiled.pending && (
        <p className="muted">
          Nothing to deploy: add a <code>{'proc(name: "…") { … }'}</code> block.
        </p>
      )}
      {run.isError && <ErrorReason error={run.error} />}
      {run.data && <DeployResults results={run.data} />}
    </form>
  )
}

/** What `core.deploy` answered, one line per object, as the command-line tool prints it. */
function DeployResults({ results }: { results: DeployResult[] }) {
  return (
    <ul className="deploy-results" aria-label="Deployed" role="status">
      {results.map((result, index) => (
        <li key={index} data-testid="deploy-result">
          <span className={result.status === 'ok' ? 'deploy-ok' : 'deploy-failed'}>
            [{result.type}]{result.type === 'proc' ? ` ${result.name ?? '(undefined)'}` : ''}:{' '}
            {result.status}
          </span>
          <code>
            {result.status === 'failed'
              ? result.error
              : result.type === 'proc'
                ? result.link
                : JSON.stringify(result.output)}
          </code>
        </li>
      ))}
    </ul>
  )
}
