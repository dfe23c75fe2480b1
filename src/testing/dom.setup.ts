import { configure } from '@testing-library/react'

/**
 * A view's answers come over fetch from an engine in the same process, which a loaded machine
 * can hold up for more than a second: `findBy…` and `waitFor` wait five seconds, well inside a
 * test's own limit, rather than testing-library's one.
 */
configure({ asyncUtilTimeout: 5_000 })
