import { describe, expect, it } from 'vitest'
import { createEngine } from '../../engine'
import { createMemoryStore } from '../../storage/memory-store'
import { nodeHmac } from '../../server/node-hmac'
import { newAccountId } from '../../storage/sql/account-shelf'
import { newControlToken, newSecretKey } from '../../server/host'
import { conformanceCommand, verifyCommand } from '../conformance/commands'
import { coverageCommand } from '../conformance/coverage-command'
import { replayCommand } from '../conformance/replay-command'
import { configure } from './serve-cli'
import { SERVE_USAGE } from './serve-usage'

/** What a command prints for `--help`, and its exit code. */
async function help(command: (args: string[], context: object) => Promise<number>) {
  let printed = ''
  const code = await command(['--help'], { out: (text: string) => (printed += text) })
  return { code, printed }
}

describe('values the project makes, and values given to its flags', () => {
  it('makes every token, secret and id start with a letter', async () => {
    const engine = createEngine({ store: createMemoryStore(), hmac: nodeHmac, exchangeLog: 10 })
    await engine.start()
    const made: string[] = []
    for (let i = 0; i < 20; i++) {
      const secret = await engine.account.createSecret()
      made.push(secret.id, secret.key, newControlToken(), newSecretKey(), newAccountId())
      made.push(
        (await engine.checkpoints.checkpoint()).id,
        (
          await engine.operator.faults.add({
            kind: 'status',
            status: 503,
            count: 1,
            endpoint: null,
            token: null,
            probability: 1,
            delayMs: 0,
            retryAfter: 1,
          })
        ).id,
      )
    }
    expect(made.filter((value) => !/^[A-Za-z]/.test(value))).toEqual([])
    expect(made.filter((value) => !/^(sec|sk|ct|cp|flt)_|^[a-z][a-z0-9]{15}$/.test(value))).toEqual(
      [],
    )
  })

  it('takes a value starting with - as --flag=value, and every --help says so', async () => {
    const token = '-starts-with-a-dash-0123'
    expect(configure([`--control-token=${token}`, `--secret=-also-a-dash`]).controlToken).toBe(
      token,
    )
    expect(SERVE_USAGE).toMatch(/starts with - .* --flag=value/)
    for (const command of [conformanceCommand, verifyCommand, coverageCommand, replayCommand]) {
      const { code, printed } = await help(command)
      expect({ code, says: /starts with - .*--flag=value/.test(printed) }).toEqual({
        code: 0,
        says: true,
      })
    }
    // A dash-led token given as --flag=value reaches the command as it is: here, as the token
    // a replay would send (to a target that is not there).
    let said = ''
    const code = await replayCommand(
      ['missing.json', '--target=http://127.0.0.1:9', `--control-token=${token}`],
      {
        err: (text: string) => (said += text),
      },
    )
    expect({ code, said }).toMatchObject({
      code: 2,
      said: expect.stringContaining('cannot read missing.json'),
    })
  })
})
