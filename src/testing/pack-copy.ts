import { cpSync, readFileSync, symlinkSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { run, shown } from './run-command'

/** What a copy of the checkout leaves out at its top: git, builds, reports. */
const TOP_LEFT_OUT = new Set([
  '.git',
  'dist',
  'kit',
  'playwright-report',
  'service-coverage',
  'shadow-report',
  '.package.json.packing',
])
/** And at any depth: installed packages and test output. */
const LEFT_OUT = new Set(['node_modules', 'test-results'])

const copied = (relativePath: string) => {
  const parts = relativePath.split(sep)
  return !TOP_LEFT_OUT.has(parts[0]!) && !parts.some((part) => LEFT_OUT.has(part))
}

export interface Packed {
  /** The tarball's path, in `work`. */
  tarball: string
  /** The copy's manifest after `npm pack`, as its `postpack` left it. */
  manifestAfter: string
  /** The manifest the copy was made from. */
  manifestBefore: string
}

/**
 * `npm pack` as the project's `prepack` and `postpack` scripts run it, but in a copy of the
 * checkout at `work/checkout` (its own `node_modules` linked in): the kit's build and the
 * packed manifest written in place of `package.json` for the pack's duration happen there, so
 * tests running `npm run …` or reading the kit's sources beside it never see them. Throws
 * with what npm printed if packing fails.
 */
export async function packFromCopy(root: string, work: string): Promise<Packed> {
  const copy = join(work, 'checkout')
  cpSync(root, copy, {
    recursive: true,
    filter: (path) => copied(relative(root, path)),
  })
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir')
  const manifestBefore = readFileSync(join(copy, 'package.json'), 'utf8')
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], copy)
  if (packed.code !== 0) throw new Error(`npm pack failed: ${shown(packed)}`)
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }]
  return {
    tarball: join(work, filename),
    manifestBefore,
    manifestAfter: readFileSync(join(copy, 'package.json'), 'utf8'),
  }
}
