import { describe, expect, it } from 'vitest'
import manifest from '../../package.json'

/**
 * A person who wants the offline playground builds it without paying for the type checker
 * (minutes on two cores); `npm test` still checks the types before anything else.
 */
describe('the scripts', () => {
  it('build the playground with Vite alone', () => {
    expect(manifest.scripts.build).toBe('vite build')
  })

  it('check the types first in npm test', () => {
    expect(manifest.scripts.test.split(' && ')[0]).toBe('npm run typecheck')
    expect(manifest.scripts.typecheck).toContain('tsc -p tsconfig.app.json')
  })
})
