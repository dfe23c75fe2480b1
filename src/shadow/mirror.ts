/**
 * The mirror account: the engine, in this process, over an account that follows what the
 * client does upstream. It answers every endpoint call the upstream answered, with tokens and
 * cursors swapped for their twins, and does what a control-plane request the upstream obeyed
 * changes (an upstream of ours: `serve` has one, the real service none): a reset, a clock
 * move, a secret made, rolled or its roll cancelled, strict mode, a checkpoint taken or
 * restored, an import.
 */
import { randomBytes } from 'node:crypto'
import { controlClient, type ControlClient } from '../client/control'
import {
  createEngine,
  type Call,
  type Clock,
  type Engine,
  type ExchangeRecord,
  type Reply,
  type SecretView,
} from '../engine'
import { nodeHmac } from '../server/node-hmac'
import { createMemoryStore } from '../storage/memory-store'
import type { KnownSnapshot, KnownState } from './known-state'
import type { Twins } from './twins'
import { toBase64Url } from '../client/wire'

/** Exchanges the mirror's journal keeps: the shadow reads each one as soon as it is answered. */
const JOURNAL = 64

export interface MirrorOptions {
  /** The upstream's base URL: the mirror answers as if it were there (deploy links name it). */
  baseUrl: string
  serviceName: string
  known: KnownState
  twins: Twins
  /** The upstream's secret, paired with the mirror's own starting one. */
  upstreamSecret?: string
}

export class Mirror {
  readonly engine: Engine
  readonly control: ControlClient
  /** An upstream secret's id → its twin's id on the mirror. */
  private readonly secretIds = new Map<string, string>()
  /** An upstream checkpoint's id → the mirror's, and what was known of the upstream then. */
  private readonly checkpoints = new Map<string, { id: string; known: KnownSnapshot }>()
  private lastRecord = 0
  /** When the upstream had the exchange being answered, and when the mirror began it. */
  private window: { sent: number; answered: number; began: number } | undefined
  private skew = 0

  private constructor(
    private readonly options: MirrorOptions,
    readonly secret: string,
  ) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const mirror = this
    const clock: Clock = {
      now: () => mirror.realNow() + mirror.skew,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
      advance(ms) {
        if (!Number.isFinite(ms)) throw new RangeError(`cannot advance a clock by ${ms} ms`)
        mirror.skew += ms
      },
      get offset() {
        return mirror.skew
      },
    }
    this.engine = createEngine({
      store: options.known.track(createMemoryStore()),
      clock,
      serviceName: options.serviceName,
      baseUrl: options.baseUrl,
      secrets: [secret],
      exchangeLog: JOURNAL,
      hmac: nodeHmac,
    })
    this.control = controlClient({ baseUrl: options.baseUrl, send: (r) => this.engine.handle(r) })
  }

  static async start(options: MirrorOptions): Promise<Mirror> {
    const mirror = new Mirror(options, `sk_${toBase64Url(randomBytes(24))}`)
    await mirror.engine.start()
    if (options.upstreamSecret !== undefined) {
      options.twins.pair(options.upstreamSecret, mirror.secret, 'secret')
    }
    return mirror
  }

  /**
   * Sets the mirror's clock to the time the upstream had the exchange (real milliseconds: sent
   * at `sent`, answered at `answered`): it runs from `sent` and stops at `answered`, so the
   * engine answers at a moment the upstream could have, however far behind its queue is, and
   * what it does for one exchange is never later than what the upstream did for the next.
   */
  at(sent: number, answered: number): void {
    this.window = { sent, answered, began: Date.now() }
  }

  private realNow(): number {
    const { window } = this
    if (!window) return Date.now()
    return Math.min(window.sent + (Date.now() - window.began), window.answered)
  }

  /** The engine's answer to a call, and its journal record (the decision trace with it). */
  async answer(call: Call): Promise<{ reply: Reply; record: ExchangeRecord | undefined }> {
    const reply = await this.engine.answer(call)
    const [record] = await this.engine.operator.journal.list(this.lastRecord)
    if (record) this.lastRecord = record.id
    return { reply, record }
  }

  /** The mirror's secrets as the recorder reads them (their rolls show there). */
  secrets(): Promise<SecretView[]> {
    return this.control.get('secrets')
  }

  /**
   * Does on the mirror what a control-plane request the upstream obeyed changes. `path` is
   * below `_account/`; `answer` is the upstream's JSON answer. Says what it could not follow
   * (the mirror then no longer holds what the upstream does), or `undefined`.
   */
  async follow(
    method: string,
    path: string,
    body: unknown,
    answer: unknown,
  ): Promise<string | undefined> {
    const { twins, known } = this.options
    const view = answer as Partial<SecretView> | undefined
    if (method === 'GET' && path === 'secrets') return this.learnIds(answer)
    if (method !== 'POST') return undefined
    const roll = /^secrets\/([^/]+)\/(roll|cancel-roll)$/.exec(path)
    if (path === 'reset') {
      await this.engine.reset()
      known.reset()
    } else if (path === 'clock') {
      await this.control.post('clock', body as { advance: number })
    } else if (path === 'strict') {
      await this.control.post('strict', body as { enabled: boolean })
    } else if (path === 'secrets') {
      const made = await this.control.post('secrets', (body ?? {}) as { key?: string })
      if (view?.key) twins.pair(view.key, made.key, 'secret')
      if (view?.id) this.secretIds.set(view.id, made.id)
    } else if (roll) {
      const twin = this.secretIds.get(decodeURIComponent(roll[1]!))
      if (!twin)
        return `the upstream's secret ${roll[1]} was never seen made or listed here: its ${roll[2]} is not followed`
      if (roll[2] === 'cancel-roll') {
        await this.control.post(`secrets/${encodeURIComponent(twin)}/cancel-roll`, {})
      } else {
        const next = await this.control.post(
          `secrets/${encodeURIComponent(twin)}/roll`,
          (body ?? {}) as { at?: number },
        )
        if (view?.key) twins.pair(view.key, next.key, 'secret')
        if (view?.id) this.secretIds.set(view.id, next.id)
      }
    } else if (path === 'checkpoint') {
      const taken = answer as { id?: unknown } | undefined
      const mine = await this.control.post('checkpoint', {})
      if (typeof taken?.id === 'string') {
        this.checkpoints.set(taken.id, { id: mine.id, known: known.save() })
      }
    } else if (path === 'restore') {
      const id = (body as { id?: unknown } | undefined)?.id
      const twin = typeof id === 'string' ? this.checkpoints.get(id) : undefined
      if (!twin) {
        return `the upstream's checkpoint ${String(id)} was never seen taken here: its restore is not followed`
      }
      await this.control.post('restore', { id: twin.id })
      known.load(twin.known)
      // The checkpoint and every later one are gone, on both sides.
      let later = false
      for (const held of [...this.checkpoints.keys()]) {
        later ||= held === id
        if (later) this.checkpoints.delete(held)
      }
    } else if (path === 'import') {
      // The same account on both sides, its signing key too: every token is its own twin.
      await this.control.post('import', body as never)
      for (const secret of await this.secrets()) twins.pair(secret.key, secret.key, 'secret')
      known.reset()
    }
    return undefined
  }

  /** Secrets the upstream lists, by key: each one with a twin here gets its twin's id. */
  private async learnIds(answer: unknown): Promise<undefined> {
    if (!Array.isArray(answer)) return undefined
    const mine = new Map((await this.secrets()).map((s) => [s.key, s.id]))
    for (const item of answer as Array<Partial<SecretView>>) {
      const twin = item.key ? this.options.twins.engineOf(item.key) : undefined
      const id = twin ? mine.get(twin) : undefined
      if (item.id && id) this.secretIds.set(item.id, id)
    }
    return undefined
  }

  async close(): Promise<void> {
    await this.engine.settings.store.close()
  }
}
