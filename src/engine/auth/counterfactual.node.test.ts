import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ServiceError } from '../errors'
import { COUNTERFACTUAL_CODES, counterfactualOf, forCredential } from './counterfactual'

const SRC = fileURLToPath(new URL('../..', import.meta.url))

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : []
  })
}

/**
 * Every code the engine (and the stores `serve` runs on) can answer a call with, read from the
 * source: the codes of its error classes, those given when one is thrown, and the reasons a
 * token is refused for.
 */
function codesInSource(): Set<string> {
  const codes = new Set<string>()
  const code = /'([a-z]+(?:_[a-z]+)*)'/g
  for (const file of ['engine', 'node', 'server', 'storage'].flatMap((dir) =>
    sources(join(SRC, dir)),
  )) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(/(?:new (?:\w*Error|Refusal)|super)\(/g)) {
      // The constructor's arguments: up to the parenthesis that closes it.
      let depth = 0
      let end = match.index + match[0].length - 1
      for (; end < text.length; end++) {
        if (text[end] === '(') depth++
        else if (text[end] === ')' && --depth === 0) break
      }
      const args = text.slice(match.index + match[0].length, end)
      for (const [, found] of args.matchAll(code)) codes.add(found!)
    }
    for (const [, found] of text.matchAll(/(?:code = |code: |reason: )'([a-z_]+)'/g)) {
      codes.add(found!)
    }
  }
  // Words that appear among those arguments but are not codes (a type's name, a verb, the
  // composer language's block names quoted in its messages).
  for (const word of ['string', 'number', 'boolean', 'cover', 'covers', 'exec', 'proc']) {
    codes.delete(word)
  }
  return codes
}

describe('counterfactuals', () => {
  it('exist for every code the engine answers with', () => {
    const found = codesInSource()
    expect(found.size).toBeGreaterThan(30)
    const missing = [...found].filter((code) => !COUNTERFACTUAL_CODES.includes(code))
    expect(missing).toEqual([])
  })

  it('say something particular for each code: none falls back to the generic sentence', () => {
    const generic = counterfactualOf(new ServiceError(400, 'invalid', 'x')).sentence
    for (const code of COUNTERFACTUAL_CODES) {
      const made = [
        'missing',
        'malformed',
        'unknown_token',
        'bad_signature',
        'expired',
        'secret_rolled',
        'secret_unknown',
      ].includes(code)
        ? forCredential({
            kind: 'authorization',
            reason: code,
            secretId: 'sec_x',
            expiresAt: 10,
            secretExpiresAt: 20,
          })
        : counterfactualOf(new ServiceError(400, code, 'y'))
      expect(made.code, code).toBe(code)
      expect(made.sentence.length, code).toBeGreaterThan(10)
      if (code !== 'invalid') expect(made.sentence, code).not.toBe(generic)
    }
  })

  it('names the argument a 400 was about', () => {
    const made = counterfactualOf(
      new ServiceError(
        400,
        'not_coercible',
        "invalid argument `length' for `type.string.truncate' (given value could not be coerced into the defined type)",
      ),
    )
    expect(made).toMatchObject({ change: 'fix_request', argument: 'length' })
  })
})
