/**
 * The contract code the command line runs (`src/conformance/browser.ts`), as the one module the
 * playground loads it through: `import('./contract-code')` makes it a chunk of its own, named
 * after this file, which the log view fetches only when a contract is saved or opened.
 */
export * from '../../conformance/browser'
