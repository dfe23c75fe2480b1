import type { Case, CaseFile, CaseResult, TestRunner, TestTarget } from './contract-code'
import type { ExchangeRecord } from '../../engine'
import { listSecrets } from '../shared/api'
import type { PlaygroundConfig } from '../shared/config'
import type { PageExchange } from '../shared/page-store'

/**
 * Contracts in the exchange log, without React: saving chosen exchanges as a contract, opening
 * a contract file, replaying one against the page's own engine. The contract code
 * (`src/conformance/browser.ts`, the same the command line runs) is loaded only when one of these
 * is used: with its schema checker it weighs more than the rest of the log view.
 */

export type { Case, CaseFile, CaseResult } from './contract-code'

/** The contract code, in a chunk of its own. */
export const loadContractCode = () => import('./contract-code')

/** The largest file the page opens: a contract of thousands of steps is far below it. */
export const MAX_CONTRACT_BYTES = 5 * 1024 * 1024

/** A contract file opened in the page: as written, and as the cases it runs. */
export interface OpenedContract {
  /** The file's name, as the file picker gave it; the cases' ids start with it. */
  fileName: string
  file: CaseFile
  cases: Case[]
}

/** A file that cannot be opened as a contract; the message says why, with the JSON path. */
export class ContractFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ContractFileError'
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/**
 * Reads a file as a contract, checked against the case schema as `verify` checks it: a file
 * that is not JSON, or not a contract, fails with the command line's own message
 * (`notes.json: /cases/0/steps/2 must have required property 'expect'`).
 */
export async function readContract(
  file: Blob & { name: string },
  service?: Pick<PlaygroundConfig, 'baseUrl' | 'serviceName'>,
): Promise<OpenedContract> {
  if (service && isHarName(file.name)) return readHarContract(file, service)
  if (file.size > MAX_CONTRACT_BYTES) {
    throw new ContractFileError(
      `${file.name}: ${megabytes(file.size)} is more than the ${megabytes(MAX_CONTRACT_BYTES)} the playground opens; verify it with the command line instead (npx service-playground verify ${file.name})`,
    )
  }
  const [text, code] = await Promise.all([file.text(), loadContractCode()])
  try {
    return {
      fileName: file.name,
      file: code.readCaseFile(file.name, text),
      cases: code.parseCaseFile(file.name, text),
    }
  } catch (error) {
    if (error instanceof code.CaseFileError) throw new ContractFileError(error.message)
    throw error
  }
}

const isHarName = (name: string) => /\.har$/i.test(name)

/**
 * A browser's HAR opened as the contract `import-har` makes of it (the same reader: its
 * exchanges with the page's base URL, tokens as roles, other hosts counted and dropped), named
 * `<name>.contract.json`. A HAR that cannot be read fails with the command's own message.
 */
async function readHarContract(
  file: Blob & { name: string },
  service: Pick<PlaygroundConfig, 'baseUrl' | 'serviceName'>,
): Promise<OpenedContract> {
  const code = await loadContractCode()
  if (file.size > code.MAX_HAR_BYTES) {
    throw new ContractFileError(
      `${file.name}: ${megabytes(file.size)} is more than the ${megabytes(code.MAX_HAR_BYTES)} a HAR import reads: save a HAR of the session alone (one page, or filtered to the service's host)`,
    )
  }
  const fileName = `${file.name.replace(/\.har$/i, '')}.contract.json`
  try {
    const har = code.readHar(file.name, await file.text())
    const imported = code.importHar(file.name, har, {
      name: file.name,
      baseUrl: service.baseUrl,
      serviceName: service.serviceName,
    })
    const text = code.formatContract(imported.contract)
    return {
      fileName,
      file: code.readCaseFile(fileName, text),
      cases: code.parseCaseFile(fileName, text),
    }
  } catch (error) {
    if (error instanceof code.HarError || error instanceof code.RecordError) {
      throw new ContractFileError(`${file.name}: ${error.message.replace(`${file.name}: `, '')}`)
    }
    throw error
  }
}

/** A contract made from chosen exchanges, as the file to download. */
export interface SavedContract {
  fileName: string
  /** The file's text, laid out as the command line and the kit write contracts. */
  text: string
  /** The case recorded from the exchanges (the file may hold others). */
  recorded: CaseFile['cases'][number]
}

/** `Checkout, then pay` → `checkout-then-pay.json`. */
export function contractFileName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return `${slug || 'contract'}.json`
}

/**
 * Records `exchanges` (the page's copies of the engine's records) as one case named `name`,
 * with the account's secrets as they are now (their rolls become steps, their keys are never
 * written). With `into`, the case is added to that open file (replacing its namesake), and the
 * download keeps the file's name. Throws the recorder's `RecordError` when nothing can be
 * recorded, or when a token would be written.
 */
export async function saveContract(
  config: PlaygroundConfig,
  exchanges: readonly PageExchange[],
  name: string,
  into?: OpenedContract,
): Promise<SavedContract> {
  const [code, secrets] = await Promise.all([loadContractCode(), listSecrets(config.baseUrl)])
  const records: ExchangeRecord[] = exchanges.map(({ tab: _tab, ...record }) => record)
  const recorded = code.recordContract(records, {
    name,
    serviceName: config.serviceName,
    baseUrl: config.baseUrl,
    secrets,
  })
  const file = into ? code.addToContract(into.file, recorded) : recorded
  return {
    fileName: into?.fileName ?? contractFileName(name),
    text: code.formatContract(file),
    recorded: recorded.cases[0]!,
  }
}

/** How "Copy as test" writes the test: its runner, where its service runs, its starting state. */
export interface TestChoice {
  runner: TestRunner
  target: TestTarget
  /** The last exchange of the starting state: those up to it are made again before the test. */
  setupUntil?: number
}

/**
 * `exchanges` as a test file for the runner chosen that replays them with the kit, in process
 * (the page's base URL and service name) or on a running `serve`, tokens made in the test,
 * never pasted. Throws the generator's error, which says what cannot be written as a test.
 */
export async function testFromExchanges(
  config: PlaygroundConfig,
  exchanges: ReadonlyArray<ExchangeRecord | PageExchange>,
  choice: TestChoice = { runner: 'vitest', target: 'in-process' },
): Promise<string> {
  const [code, secrets] = await Promise.all([loadContractCode(), listSecrets(config.baseUrl)])
  const records = exchanges.map((exchange) => {
    const { tab: _tab, ...record } = exchange as PageExchange
    return record as ExchangeRecord
  })
  const own = records.filter((r) => choice.setupUntil === undefined || r.id > choice.setupUntil)
  const count = `${own.length} ${own.length === 1 ? 'exchange' : 'exchanges'}`
  return code.testCode(records, {
    name: `replays ${count} from the playground`,
    serviceName: config.serviceName,
    baseUrl: config.baseUrl,
    secrets,
    runner: choice.runner,
    target: choice.target,
    ...(choice.setupUntil === undefined ? {} : { setupUntil: choice.setupUntil }),
  })
}

/** One step of a replayed case, in words: what the view shows, nothing left to compute. */
export interface StepView {
  /** From 1. */
  index: number
  /** The endpoint called, or what the step did to the account. */
  label: string
  status: 'passed' | 'failed' | 'skipped'
  /** Why it was skipped. */
  reason?: string
  /** What differed, a line each (`expected status 401, got 200 ([])`). */
  differences: string[]
  /** For a step that differed: the request and the answer, credentials by name. */
  exchange?: string
  /** What strict mode would refuse in the request. */
  strict: string[]
}

/** One replayed case, in words. */
export interface CaseView {
  id: string
  status: 'passed' | 'failed' | 'skipped'
  /** Why it failed (naming the first step that differed) or was skipped. */
  reason?: string
  steps: StepView[]
}

type ContractCode = Awaited<ReturnType<typeof loadContractCode>>

function viewOf(code: ContractCode, result: CaseResult): CaseView {
  return {
    id: result.id,
    status: result.status,
    ...(result.reason === undefined ? {} : { reason: result.reason }),
    steps: result.stepResults.map((step) => ({
      index: step.index,
      label: step.label,
      status: step.status,
      ...(step.reason === undefined ? {} : { reason: step.reason }),
      differences: step.differences.map(code.formatDifference),
      ...(step.status === 'failed'
        ? { exchange: code.exchangeText(step, result.credentials) }
        : {}),
      strict: step.strict ?? [],
    })),
  }
}

/** A replay's outcome: each case in words, and the report `verify` prints for the same run. */
export interface Replayed {
  cases: CaseView[]
  report: string
}

/** Where the page's throwaway accounts answer, below its base URL (`src/msw/replays.ts`). */
export const REPLAY_PATH = '_replay'

/** A throwaway account of its own for one replay: its base URL. */
export const throwawayBaseUrl = (config: PlaygroundConfig, id = `run_${crypto.randomUUID()}`) =>
  `${config.baseUrl}/${REPLAY_PATH}/${id}`

/**
 * Replays `cases` one by one on a throwaway account of their own (an engine the page makes for
 * the replay, over memory, at `throwawayBaseUrl`), through `fetch` and the service worker like
 * any client, each case on that account reset through its control plane (`verify`'s runner,
 * every step run, strict mode checked); `onCase` hears each case as it ends. The page's own
 * account, its authorizations and its log are never touched.
 */
export async function replayContract(
  config: PlaygroundConfig,
  cases: readonly Case[],
  onCase: (view: CaseView) => void,
): Promise<Replayed> {
  const code = await loadContractCode()
  const target = code.fetchTarget({
    baseUrl: throwawayBaseUrl(config),
    serviceName: config.serviceName,
    control: true,
    name: 'playground',
  })
  const results: CaseResult[] = []
  const views: CaseView[] = []
  for (const one of cases) {
    const [result] = await code.verifyContracts(target, [one])
    const view = viewOf(code, result!)
    results.push(result!)
    views.push(view)
    onCase(view)
  }
  return { cases: views, report: code.stepReport(target.name, results) }
}
