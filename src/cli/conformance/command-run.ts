import { parseArgs, type ParseArgsConfig } from 'node:util'
import { CaseFileError } from '../../conformance/cases'
import { PreflightError } from '../../conformance/preflight'

/**
 * What the commands exit with: 0 everything passed; 1 a case failed or a contract differs; 2 the
 * command line or a file is wrong; 3 the pre-flight check found the target unusable; 4 (verify)
 * every contract was skipped, so nothing was verified.
 */
export const EXIT = { passed: 0, failed: 1, usage: 2, preflight: 3, nothingVerified: 4 } as const

/** Where a command runs: its project root, its output, its environment. */
export interface CommandContext {
  /** Where `--target serve` starts `serve` (the project's root). */
  root?: string
  out?: (text: string) => void
  err?: (text: string) => void
  /** The environment the commands read (the summary's file, the upstream's secret); process.env. */
  env?: NodeJS.ProcessEnv
}

/** A command line or a file that is wrong: said, and the command exits 2. */
export class UsageError extends Error {}

/** The command line read by `config`; a flag it does not know is a `UsageError`. */
export function parse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** Runs `body`, turning the errors a user can act on into a message and an exit code. */
export async function guarded(
  context: CommandContext,
  body: () => Promise<number>,
): Promise<number> {
  const err = context.err ?? ((text: string) => console.error(text))
  try {
    return await body()
  } catch (error) {
    if (error instanceof UsageError || error instanceof CaseFileError) {
      err(`error: ${error.message}`)
      return EXIT.usage
    }
    if (error instanceof PreflightError) {
      err(`error: ${error.message}`)
      return EXIT.preflight
    }
    throw error
  }
}
