// The same suite under Jest, its files unchanged: each file gets the service in its own
// environment (setup/jest.js), and what the files import from 'vitest' is Jest's own globals
// (setup/vitest-in-jest.js). Jest loads the ES modules natively:
//   NODE_OPTIONS=--experimental-vm-modules npx jest
export default {
  testMatch: ['<rootDir>/test/**/*.test.js', '<rootDir>/jest/**/*.test.js'],
  setupFilesAfterEnv: ['<rootDir>/setup/jest.js'],
  moduleNameMapper: { '^vitest$': '<rootDir>/setup/vitest-in-jest.js' },
  transform: {},
}
