import { describe, expect, it } from 'vitest'
import { configure, FlagError } from './serve-cli'

/** `serve --base-url`: the address deploy links name (`proc.run/lib/<name>:dev`). */
describe('serve --base-url', () => {
  it('takes an http or https origin', () => {
    expect(configure(['--base-url', 'https://proc.run']).baseUrl).toBe('https://proc.run')
    expect(configure(['--base-url', 'http://localhost:8787/']).baseUrl).toBe(
      'http://localhost:8787',
    )
    expect(configure([]).baseUrl).toBeUndefined()
  })

  it.each([
    'proc.run',
    'ftp://proc.run',
    'https://proc.run/v1',
    'https://proc.run/?a=1',
    'https://proc.run/#x',
  ])('refuses %s, saying what it takes', (value) => {
    expect(() => configure(['--base-url', value])).toThrow(FlagError)
    expect(() => configure(['--base-url', value])).toThrow(
      `--base-url must be an http or https address with no path, such as https://proc.run, not ${JSON.stringify(value)}`,
    )
  })
})
