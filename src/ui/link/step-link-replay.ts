import type { ExchangeRecord } from '../../engine'
import type { PlaygroundConfig } from '../shared/config'
import { listSecrets, control } from '../shared/api'
import { throwawayBaseUrl } from '../log/contracts'
import type { PageExchange } from '../shared/page-store'
import type { StepDifference } from './link-code'

/**
 * A failing step as a link (decision 093), without React: opening one (replayed on a throwaway
 * account, never the page's own) and making one from a row of the exchange log. The link code
 * is loaded only when one of these is used.
 */

export const loadLinkCode = () => import('./link-code')

/** A link opened: what it holds, and the throwaway account's exchanges as its replay left them. */
export interface OpenedLink {
  name: string
  /** How many steps the case has; the last is the one the link is about. */
  steps: number
  /** The engine version that made the link, and this page's. */
  engine: string
  here: string
  seed?: string
  time?: number
  faults: number
  notes: string[]
  /** The replay's exchanges, oldest first: the last is the step's. */
  exchanges: ExchangeRecord[]
  /** The first step whose answer differs from the one recorded, if one does. */
  differs?: StepDifference
  /** Why the replay stopped before the step (a step that needs what the page cannot give). */
  skipped?: string
}

/**
 * Opens a link's fragment value: reads it (a `LinkError` for anything that is not a link), then
 * replays its case on a throwaway account of its own (the seed and faults set first, each step
 * run as `verify` runs it), and reads that account's exchanges back. The account is an engine
 * over memory answered in this page (`throwawayFetch`, decision 106), not through the service
 * worker: nothing of the replay leaves the page, and the page's own account, its
 * authorizations and its log are never touched. The marks `link:…` (User Timing) say where the
 * time goes.
 */
export async function openStepLink(config: PlaygroundConfig, value: string): Promise<OpenedLink> {
  performance.mark('link:open')
  const code = await loadLinkCode()
  performance.mark('link:code loaded')
  const link = await code.readStepLink(value)
  performance.mark('link:read')
  const baseUrl = throwawayBaseUrl(config)
  const target = code.fetchTarget({
    baseUrl,
    serviceName: config.serviceName,
    control: true,
    name: 'playground',
    // The journal holds every step: the exchanges are read back from it.
    fetch: await code.throwawayFetch({
      baseUrl,
      serviceName: config.serviceName,
      exchangeLog: link.case.steps.length + 10,
    }),
  })
  const { differs, skipped } = await code.replayStepLink(target, link)
  performance.mark('link:replayed')
  const page = (await target.control!('exchanges')) as { exchanges: ExchangeRecord[] }
  performance.mark('link:listed')
  return {
    name: link.case.name,
    steps: link.case.steps.length,
    engine: link.engine,
    here: code.ENGINE_VERSION,
    ...(link.seed ? { seed: link.seed } : {}),
    ...(link.time === undefined ? {} : { time: link.time }),
    faults: link.faults?.length ?? 0,
    notes: link.case.notes ?? [],
    exchanges: [...page.exchanges].reverse(),
    ...(differs ? { differs } : {}),
    ...(skipped ? { skipped } : {}),
  }
}

/** A step's link made from the log: the URL, and its length. */
export interface SharedStep {
  url: string
  length: number
  /** Over the goal: the link is made all the same, and says how long it is. */
  long: boolean
}

/**
 * The link to an exchange of the log: the exchanges before it in the log and itself recorded
 * as a contract case (tokens as roles, never copied), with the account's seed and time. The
 * faults standing now are not those the steps met (an exchange a fault answered is left out of
 * a contract), so none are carried. Throws when the exchange itself cannot be replayed (a fault injected, strict mode's
 * refusal: the recorder's reason), or when a secret would be written.
 */
export async function shareStep(
  config: PlaygroundConfig,
  log: readonly PageExchange[],
  row: PageExchange,
  page = window.location.href,
): Promise<SharedStep> {
  const [code, secrets, seed] = await Promise.all([
    loadLinkCode(),
    listSecrets(config.baseUrl),
    control<{ seed: string | null }>(config.baseUrl, 'GET', 'seed'),
  ])
  const records: ExchangeRecord[] = log
    .filter((entry) => entry.id <= row.id)
    .sort((a, b) => a.id - b.id)
    .map(({ tab: _tab, engineId: _engine, ...record }) => record)
  const file = code.recordContract(records, {
    name: `exchange ${row.id}`,
    serviceName: config.serviceName,
    baseUrl: config.baseUrl,
    secrets,
  })
  const recorded = file.cases[0]!
  const leftOut = recorded.notes?.find((note) => note.startsWith(`${code.labelOf(row)} left out`))
  if (leftOut)
    throw new Error(`This exchange cannot be replayed, so it cannot be shared: ${leftOut}`)
  const made = await code.makeStepLink(file, {
    seed: seed.seed,
    time: row.at,
    never: secrets.map((secret) => secret.key),
  })
  const url = code.stepLinkUrl(page, made.value)
  return { url, length: url.length, long: url.length > code.LINK_GOAL_CHARS }
}
