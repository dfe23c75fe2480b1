// The same suite under Jest, its files unchanged, in two projects: each file gets the service in
// its own environment (setup/jest.js), or an account of its own on one `serve` for the run
// (setup/jest-serve*.js). What the files import from 'vitest' is Jest's own globals
// (setup/vitest-in-jest.js). Jest loads the ES modules natively:
//   NODE_OPTIONS=--experimental-vm-modules npx jest
const common = {
  moduleNameMapper: { '^vitest$': '<rootDir>/setup/vitest-in-jest.js' },
  transform: {},
}

export default {
  testTimeout: 30_000,
  projects: [
    {
      ...common,
      displayName: 'in-process',
      testMatch: ['<rootDir>/test/**/*.test.js'],
      setupFilesAfterEnv: ['<rootDir>/setup/jest.js'],
    },
    {
      ...common,
      displayName: 'serve',
      testMatch: ['<rootDir>/test/**/*.test.js'],
      globalSetup: '<rootDir>/setup/jest-serve-global.js',
      globalTeardown: '<rootDir>/setup/jest-serve-teardown.js',
      setupFilesAfterEnv: ['<rootDir>/setup/jest-serve.js'],
    },
  ],
}
