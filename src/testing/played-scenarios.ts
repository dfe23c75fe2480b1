/**
 * Each starter scenario played to its end as a person would in the page: loaded by the page's
 * own loader, then what its note says to try, sent by the page's own endpoint call, on a
 * service in this process. What comes out is the exchange log the page would show, oldest first,
 * and the account's secrets: what "Copy as test" is given.
 */
import 'fake-indexeddb/auto'
import type { ExchangeRecord, Json } from '../engine'
import { startService } from '../node'
import { LOADERS } from '../ui/scenarios/loaders'
import { SCENARIOS, type ScenarioId } from '../ui/scenarios/scenario-list'
import { advanceClock, listExchanges, listSecrets } from '../ui/shared/api'
import type { PlaygroundConfig } from '../ui/shared/config'
import { callEndpoint, literal, type CallFormat } from '../ui/shared/endpoint-call'
import { listRemembered } from '../ui/shared/page-store'

/** A scenario played to its end. */
export interface PlayedScenario {
  id: ScenarioId
  title: string
  /** Where it was played: the page's base URL. */
  baseUrl: string
  exchanges: ExchangeRecord[]
  secrets: Awaited<ReturnType<typeof listSecrets>>
}

/** A call made from the console, as the note says to: refusals are part of the story. */
async function tryCall(
  config: PlaygroundConfig,
  token: string,
  endpoint: string,
  args: Record<string, Json> = {},
  input?: Json,
  format: CallFormat = 'tuples',
): Promise<void> {
  const inTuples = format === 'tuples' || format === 'msgpack'
  const value = (json: Json) => (inTuples ? literal(json) : json)
  try {
    await callEndpoint(
      config,
      {
        endpoint,
        token,
        ...(input === undefined ? {} : { input: value(input) }),
        args: Object.entries(args).map(([name, json]): [string, Json] => [name, value(json)]),
      },
      format,
    )
  } catch {
    // Refused as the story means it: the log keeps the engine's reason.
  }
}

/** What each scenario's note says to try, after it is loaded. */
const TRIES: Record<ScenarioId, (config: PlaygroundConfig, tokens: string[]) => Promise<void>> = {
  notes: async (config, [alice]) => {
    const note = { text: 'Call the plumber', done: false }
    await tryCall(config, alice!, 'keyv.set', {
      bucket: 'notes',
      key: 'alice/plumber',
      value: note,
    })
    await tryCall(config, alice!, 'keyv.set', { bucket: 'notes', key: 'bob/plumber', value: note })
    await tryCall(config, alice!, 'keyv.get', { bucket: 'notes', key: 'bob/todo' })
  },
  expiring: async (config, [brief]) => {
    await advanceClock(config.baseUrl, 3600)
    await tryCall(config, brief!, 'type.string.reverse', {}, 'hello', 'text')
  },
  leaked: async (config, [strings, keys]) => {
    // "Next: … rolls" in the clock bar: an hour on, the secret rolled and its tokens with it;
    // its replacement works.
    await advanceClock(config.baseUrl, 3600)
    await tryCall(config, keys!, 'keyv.get', { bucket: 'notes', key: 'alice/todo' })
    await tryCall(config, strings!, 'type.string.reverse', {}, 'hello', 'text')
    const live = (await listSecrets(config.baseUrl)).find((secret) => secret.state !== 'expired')
    await tryCall(config, live!.key, 'core.ping')
  },
  procedures: async (config, [greet]) => {
    await tryCall(config, greet!, 'lib.greet', {}, 'ada')
    await tryCall(config, greet!, 'lib.shout', {}, 'ada')
    const proc = ['{}', ['()', 'type.string.downcase']]
    await tryCall(config, greet!, `${config.serviceName}.create`, { name: 'hush', proc })
  },
  // Its three refusals are made as it loads: the story is reading them.
  refusals: async () => {},
}

/**
 * Plays every starter scenario, one after another, each on a service of its own in this process
 * at `https://<scenario>.played.test` (its own page database too).
 */
export async function playScenarios(serviceName = 'proc'): Promise<PlayedScenario[]> {
  const played: PlayedScenario[] = []
  for (const { id, title } of SCENARIOS) {
    const config: PlaygroundConfig = { baseUrl: `https://${id}.played.test`, serviceName }
    const service = await startService(config)
    try {
      await LOADERS[id](config)
      const tokens = (await listRemembered(config)).map((saved) => saved.token)
      await TRIES[id](config, tokens)
      const { exchanges } = await listExchanges(config.baseUrl)
      const secrets = await listSecrets(config.baseUrl)
      played.push({ id, title, baseUrl: config.baseUrl, exchanges: exchanges.reverse(), secrets })
    } finally {
      service.stop()
    }
  }
  return played
}
