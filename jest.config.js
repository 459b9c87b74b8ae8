const fs = require('node:fs');
const swc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swc.$schema;

// ESM-only packages that @swc/jest must turn into CommonJS.
const esm = ['@octokit', 'universal-user-agent', 'before-after-hook', 'content-disposition', '@electric-sql', 'fast-content-type-parse', 'toad-cache', 'bottleneck', 'content-type', 'json-with-bigint'];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  transform: { '^.+\\.(t|j|mj|cj)s$': ['@swc/jest', { ...swc, swcrc: false }] },
  transformIgnorePatterns: [`node_modules/(?!(${esm.join('|')})/)`],
  testTimeout: 60000,
  maxWorkers: 2,
  globalSetup: '<rootDir>/scripts/build-web.js',
};
