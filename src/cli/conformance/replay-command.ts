/**
 * `replay RECORDING.json... --target URL|handle|msw|serve [--control-token T]`: sends recordings
 * (`GET <baseUrl>/_account/recording?from=<exchange>`) to any target of ours, each exchange as
 * it was first sent, and says whether every one answered byte for byte as recorded (status,
 * headers but `date`, body, decision trace), naming the first that did not (decision 086).
 *
 * Exit codes: 0 every exchange answered the same; 1 one differed; 2 the command line or the
 * file is wrong; 3 the target could not be used.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { ControlError } from '../../client/control'
import { RECORDING_FORMAT, type Recording } from '../../engine/history/recording'
import { fetchTarget } from '../../conformance/fetch-target'
import { describeReplay, replayRecording } from '../../conformance/replay'
import type { Target } from '../../conformance/run'
import { handleTarget, mswTarget, serveTarget } from '../../conformance/targets'
import { REPLAY_USAGE } from './usage'

interface Context {
  root?: string
  out?: (text: string) => void
  err?: (text: string) => void
}

class UsageError extends Error {}

function readRecording(path: string): Recording {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${path} is not JSON: ${(error as Error).message}`)
  }
  const recording = value as Partial<Recording> | null
  if (recording?.format !== RECORDING_FORMAT || !Array.isArray(recording.steps)) {
    throw new UsageError(
      `${path} is not a recording: save one from GET <baseUrl>/_account/recording?from=<exchange>`,
    )
  }
  return recording as Recording
}

async function open(
  given: string,
  recording: Recording,
  token: string | undefined,
  root: string,
): Promise<Target & { close?: () => unknown }> {
  const serviceName = recording.serviceName
  const engineOptions = { serviceName }
  switch (given) {
    case 'handle':
      return handleTarget(engineOptions)
    case 'msw':
      return mswTarget(engineOptions)
    case 'serve':
      return serveTarget(root, { serviceName })
  }
  try {
    new URL(given)
  } catch {
    throw new UsageError(
      `--target must be the base URL of an account of ours (serve, or a hosted /a/<id>), or handle, msw or serve, not ${given}`,
    )
  }
  return fetchTarget({ baseUrl: given, serviceName, control: token ?? true, name: given })
}

export async function replayCommand(args: string[], context: Context = {}): Promise<number> {
  const out = context.out ?? ((text: string) => console.log(text))
  const err = context.err ?? ((text: string) => console.error(text))
  let target: (Target & { close?: () => unknown }) | undefined
  try {
    const { values, positionals } = (() => {
      try {
        return parseArgs({
          args,
          allowPositionals: true,
          options: {
            target: { type: 'string' },
            'control-token': { type: 'string' },
            help: { type: 'boolean', short: 'h', default: false },
          },
        })
      } catch (error) {
        throw new UsageError((error as Error).message)
      }
    })()
    if (values.help) {
      out(REPLAY_USAGE)
      return 0
    }
    if (positionals.length === 0) throw new UsageError('give a recording: replay RECORDING.json...')
    if (!values.target) throw new UsageError('--target URL (or handle, msw, serve) is required')
    const recordings = positionals.map((path) => ({ path, recording: readRecording(path) }))
    target = await open(
      values.target,
      recordings[0]!.recording,
      values['control-token'],
      context.root ?? '.',
    )
    let differed = false
    const total = { exchanges: 0, identical: 0 }
    for (const { path, recording } of recordings) {
      let result
      try {
        result = await replayRecording(recording, target)
      } catch (error) {
        const why =
          error instanceof ControlError
            ? `${error.status} ${error.reason}`
            : (error as Error).message
        err(`error: ${path} on ${target.name}: ${why}`)
        return 3
      }
      out(`${recordings.length > 1 ? `${path}: ` : ''}${describeReplay(result)}`)
      total.exchanges += result.exchanges
      total.identical += result.identical
      differed ||= result.difference !== undefined
    }
    if (recordings.length > 1) {
      out(`in all: ${total.identical} of ${total.exchanges} exchanges replayed identically`)
    }
    return differed ? 1 : 0
  } catch (error) {
    if (error instanceof UsageError) {
      err(`error: ${error.message}`)
      return 2
    }
    throw error
  } finally {
    await target?.close?.()
  }
}
