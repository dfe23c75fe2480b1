// The same files under Jest, unchanged: 'vitest' is Jest's own globals (setup/vitest-in-jest.js)
// and the Vitest helper is the Jest one. ES modules:
//   NODE_OPTIONS=--experimental-vm-modules npx jest
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
    { ...common, displayName: 'in-process' },
    {
      ...common,
      displayName: 'serve',
      testPathIgnorePatterns: ['/in-flight\\.test\\.js$', '/engine\\.test\\.js$'],
      globalSetup: '<rootDir>/setup/jest-serve-global.js',
      globalTeardown: '<rootDir>/setup/jest-serve-teardown.js',
      setupFiles: ['<rootDir>/setup/jest-serve.js'],
    },
  ],
}
