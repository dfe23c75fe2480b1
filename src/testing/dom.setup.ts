import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'
import { stopStarted } from './rendered-services'

/**
 * A view's answers come over fetch from an engine in the same process, which a loaded machine
 * can hold up for more than a second: `findBy…` and `waitFor` wait five seconds, well inside a
 * test's own limit, rather than testing-library's one.
 */
configure({ asyncUtilTimeout: 5_000 })

/**
 * What a test rendered, the services it started and what it stored in the window go after it,
 * here, where every file registers it: also where the files of a worker would share one module
 * graph and one window (`isolate: false`), and `src/testing/render.tsx` loads once.
 */
afterEach(() => {
  cleanup()
  stopStarted()
  localStorage.clear()
  sessionStorage.clear()
  window.location.hash = ''
})
