import type { Json } from '../../engine'
import type { PlaygroundConfig } from '../shared/config'
import {
  callEndpoint,
  literal,
  type CallFormat,
  type EndpointAnswer,
} from '../shared/endpoint-call'

export type { ProcRecord } from '../shared/api'

type Manage = { name: string; proc: Json }

/**
 * `<service>.create` (409 when the name exists, in either stage) or `.update` (404 when it does
 * not), which releases: a dev stage goes.
 */
export async function saveProcedure(
  config: PlaygroundConfig,
  token: string,
  verb: 'create' | 'update',
  { name, proc }: Manage,
): Promise<void> {
  const args: Array<[string, Json]> = [
    ['name', name],
    ['proc', proc],
  ]
  await callEndpoint(config, { endpoint: `${config.serviceName}.${verb}`, token, args })
}

/** `<service>.delete` (404 when it does not exist): both stages go. */
export async function deleteProcedure(
  config: PlaygroundConfig,
  token: string,
  name: string,
): Promise<void> {
  const args: Array<[string, Json]> = [['name', name]]
  await callEndpoint(config, { endpoint: `${config.serviceName}.delete`, token, args })
}

/**
 * Calls `lib.<name>` with an input (or none) and arguments, all as data, in `format`: in the
 * tuple formats everything is a `%%` literal in the body; in JSON and text the input is the body
 * and the arguments travel in the query string.
 */
export function callProcedure(
  config: PlaygroundConfig,
  token: string,
  name: string,
  input: Json | undefined,
  args: Record<string, Json>,
  format: CallFormat = 'tuples',
): Promise<EndpointAnswer> {
  const data = format === 'tuples' || format === 'msgpack' ? literal : (value: Json) => value
  return callEndpoint(
    config,
    {
      endpoint: `lib.${name}`,
      token,
      ...(input === undefined ? {} : { input: data(input) }),
      args: Object.entries(args).map(([arg, value]): [string, Json] => [arg, data(value)]),
    },
    format,
  )
}

/** `<service>.deploy(name, proc, release: true)`: makes `proc` the release; the dev stage goes. */
export async function releaseProcedure(
  config: PlaygroundConfig,
  token: string,
  { name, proc }: Manage,
): Promise<void> {
  const args: Array<[string, Json]> = [
    ['name', name],
    ['proc', proc],
    ['release', true],
  ]
  await callEndpoint(config, { endpoint: `${config.serviceName}.deploy`, token, args })
}
