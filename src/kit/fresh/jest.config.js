// The same files under Jest, unchanged: 'vitest' is Jest's own globals (setup/vitest-in-jest.js)
// and the Vitest helper is the Jest one. ES modules:
//   NODE_OPTIONS=--experimental-vm-modules npx jest
// Tests the playground copied for Jest (CommonJS, `.test.cjs`) run in their own project:
// `copied-*` in process, `served-*` over `serve`; its copies for Vitest are left to Vitest.
const copiedForVitest = '/(copied|served)-[^/]*\\.test\\.js$'
const common = {
  moduleNameMapper: {
    '^vitest$': '<rootDir>/setup/vitest-in-jest.js',
    '^service-playground/vitest$': 'service-playground/jest',
  },
  transform: {},
  testMatch: ['<rootDir>/*.test.js'],
}

export default {
  testTimeout: 30_000,
  projects: [
    {
      ...common,
      displayName: 'in-process',
      testMatch: [...common.testMatch, '<rootDir>/copied-*.test.cjs'],
      testPathIgnorePatterns: [copiedForVitest],
    },
    {
      ...common,
      displayName: 'serve',
      testMatch: [...common.testMatch, '<rootDir>/served-*.test.cjs'],
      testPathIgnorePatterns: ['/in-flight\\.test\\.js$', '/engine\\.test\\.js$', copiedForVitest],
      globalSetup: '<rootDir>/setup/jest-serve-global.js',
      globalTeardown: '<rootDir>/setup/jest-serve-teardown.js',
      setupFiles: ['<rootDir>/setup/jest-serve.js'],
    },
  ],
}
