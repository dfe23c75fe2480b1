import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { cliBundle } from '../testing/cli-bundle'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** `service-playground ...args` from its source, bundled as the kit's bin is. */
async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [await cliBundle(), ...args],
      { cwd: root, timeout: 30_000 },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string }
    return { code, stdout, stderr }
  }
}

describe('service-playground <command> --help', () => {
  it.each([
    [
      'serve',
      [
        '--port',
        '--service-name',
        '--control-token',
        '--data',
        '--export-on-exit',
        '--upstream URL',
        '--upstream-secret-file',
        '--upstream-secret KEY',
        '--shadow-report',
      ],
    ],
    [
      'conformance',
      ['--target', '--base-url', '--filter', '--junit', '--shadow URL', '--upstream-secret-file'],
    ],
    ['verify', ['--base-url', '--control-token', '--fail-on-strict', '--junit', '--shadow URL']],
    ['coverage', ['--min', '--out', '--service-name', '--summary FILE']],
    ['drift', ['--upstream URL', '--rate N', '--summary FILE', '--upstream-secret-file']],
    ['import-har', ['--base-url', '--out', '--name', '--service-name']],
  ])(
    '%s --help and -h print its flags and exit 0, starting nothing',
    async (command, flags) => {
      for (const help of ['--help', '-h']) {
        const { code, stdout, stderr } = await cli(command, help)
        expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
        expect(stdout).toMatch(new RegExp(`^usage: service-playground ${command} `))
        for (const flag of [...flags, '-h, --help']) expect(stdout).toContain(flag)
        expect(stdout).not.toMatch(/^listening on /m)
      }
    },
    60_000,
  )

  it('help names every command and how to see its flags', async () => {
    const { code, stdout } = await cli('help')
    expect(code).toBe(0)
    for (const command of [
      'serve',
      'conformance',
      'verify',
      'coverage',
      'drift',
      'import-har',
      'link',
      'open',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'))
    }
    expect(stdout).toContain('service-playground <command> --help')
  }, 60_000)
})
