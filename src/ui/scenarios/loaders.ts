import type { Json } from '../../engine'
import { advanceClock, control, listSecrets, rollSecret } from '../shared/api'
import type { PlaygroundConfig } from '../shared/config'
import { callEndpoint, literal } from '../shared/endpoint-call'
import { remember } from '../shared/page-store'
import type { ViewId } from '../shared/view-ids'
import type { ScenarioId } from './scenario-list'

/**
 * What each starter scenario does (`scenario-list.ts` names them): it makes its state through
 * the same wire any client uses (the control plane and endpoint calls
 * with the account's secret), then names the view where its story starts, with what to try.
 */

/** Where a scenario's story starts, and what to try there. */
export interface Loaded {
  view: ViewId
  params?: Record<string, string>
  /** What to try, in a sentence or two. */
  note: string
  /**
   * How other views open from the nav for the story's next steps (the console with the
   * scenario's token), rather than as they were left before the reset.
   */
  next?: Partial<Record<ViewId, Record<string, string>>>
}

/** Makes a scenario's state through the wire and says where its story starts. */
export type Loader = (config: PlaygroundConfig) => Promise<Loaded>

/** The account's first live secret: what the scenarios act with. */
async function secretOf(config: PlaygroundConfig): Promise<string> {
  const secret = (await listSecrets(config.baseUrl)).find((s) => s.state !== 'expired')
  if (!secret) throw new Error('the account has no live secret to load a scenario with')
  return secret.key
}

/** Calls an endpoint with the tuple format; values travel as literals. */
async function call(
  config: PlaygroundConfig,
  token: string,
  endpoint: string,
  args: Record<string, Json>,
  input?: Json,
) {
  return callEndpoint(config, {
    endpoint,
    token,
    ...(input === undefined ? {} : { input: literal(input) }),
    args: Object.entries(args).map(([name, value]): [string, Json] => [name, literal(value)]),
  })
}

/** Mints an authorization and has the page remember it at once, as its log reader would. */
async function authorize(
  config: PlaygroundConfig,
  token: string,
  args: Record<string, Json>,
): Promise<string> {
  const { value } = await call(config, token, 'auth.create', args)
  const made = String(value)
  await remember(config, [made])
  return made
}

/** A call that is meant to be refused: its refusal is the point of the story. */
async function refused(
  config: PlaygroundConfig,
  token: string,
  endpoint: string,
  args: Record<string, Json>,
) {
  try {
    await call(config, token, endpoint, args)
  } catch {
    // Refused, as the scenario means it: the log keeps the engine's reason.
  }
}

export const LOADERS: Record<ScenarioId, Loader> = {
  notes: async (config) => {
    const secret = await secretOf(config)
    const notes: Array<[string, Json]> = [
      ['alice/todo', { text: 'Buy milk', done: false }],
      ['alice/ideas', { text: 'A playground for the service' }],
      ['bob/todo', { text: 'Call Alice', done: true }],
    ]
    for (const [key, value] of notes) {
      await call(config, secret, 'keyv.set', { bucket: 'notes', key, value })
    }
    const limits = 'bucket=notes&prefix=alice%2F'
    const token = await authorize(config, secret, {
      abilities: [`keyv.get?${limits}`, `keyv.set?${limits}`, `keyv.scan?${limits}`],
    })
    return {
      view: 'keyv',
      params: { token: `authorization:${token}` },
      next: {
        console: {
          endpoint: 'keyv.get',
          token: `authorization:${token}`,
          format: 'tuples',
          'text.bucket': 'notes',
          'text.key': 'bob/todo',
        },
      },
      note: "Acting with Alice's authorization, the bucket opens on her notes only. Try: add a key under alice/, then one under bob/ (refused: outside its limit, and the reason says which); in the console, keyv.get bob/todo with it.",
    }
  },
  expiring: async (config) => {
    const secret = await secretOf(config)
    const token = await authorize(config, secret, { abilities: ['type.string'], ttl: 300 })
    return {
      view: 'authorizations',
      next: {
        console: {
          endpoint: 'type.string.reverse',
          token: `authorization:${token}`,
          format: 'text',
          'input.text': 'hello',
        },
      },
      note: 'Its card says when it expires. Try: “Next: … expires” in the clock bar (or +1 h), and watch the card turn to expired; then use it in the console: 401, authorization is expired.',
    }
  },
  leaked: async (config) => {
    const secret = await secretOf(config)
    await authorize(config, secret, { abilities: ['keyv.get'] })
    await authorize(config, secret, { abilities: ['type'] })
    const [leaked] = (await listSecrets(config.baseUrl)).filter((s) => s.key === secret)
    const { now } = await control<{ now: number }>(config.baseUrl, 'GET', 'clock')
    await rollSecret(config.baseUrl, leaked!.id, now + 3600)
    return {
      view: 'secrets',
      note: `${leaked!.id} leaked: its roll is scheduled in an hour, and the row says how many authorizations die with it. Its replacement already works. Try: “Next: … rolls” in the clock bar, then the Authorizations view; or cancel the roll.`,
    }
  },
  procedures: async (config) => {
    const secret = await secretOf(config)
    const procedures: Array<[string, Json]> = [
      [
        'greet',
        [
          '{}',
          ['()', 'type.string.capitalize'],
          ['()', 'type.string.append', ['$$', 'value', '!']],
        ],
      ],
      ['shout', ['{}', ['()', 'type.string.upcase']]],
    ]
    for (const [name, proc] of procedures) {
      await call(config, secret, `${config.serviceName}.create`, { name, proc })
    }
    const token = await authorize(config, secret, { abilities: ['lib.greet'] })
    return {
      view: 'procedures',
      params: { token: `authorization:${token}` },
      next: { console: { endpoint: 'lib.greet', token: `authorization:${token}` } },
      note: 'Acting with an authorization that holds only lib.greet. Try: call lib.greet with the input "ada" (its own calls run with the account’s authority), then lib.shout (refused), then create one (refused: an insecure endpoint).',
    }
  },
  refusals: async (config) => {
    const secret = await secretOf(config)
    await call(config, secret, 'keyv.set', { bucket: 'users', key: 'bob/1', value: 'Bob' })
    const strings = await authorize(config, secret, { abilities: ['type.string'] })
    const alice = await authorize(config, secret, {
      abilities: ['keyv.get?bucket=users&prefix=alice%2F'],
    })
    const brief = await authorize(config, secret, { abilities: ['core'], ttl: 60 })
    await refused(config, strings, 'keyv.get', { bucket: 'users', key: 'bob/1' })
    await refused(config, alice, 'keyv.get', { bucket: 'users', key: 'bob/1' })
    await advanceClock(config.baseUrl, 120)
    await refused(config, brief, 'core.ping', {})
    return {
      view: 'log',
      params: { code: 'refused' },
      note: "Three refusals. On the wire two of them read alike; open each to see the engine's own reason in its decision trace: no ability covers keyv.get, the key is outside the limit, the authorization expired.",
    }
  },
}
