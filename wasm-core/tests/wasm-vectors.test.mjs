// Runs the JSON vectors of tests/vectors/ against the wasm builds (wasm-core/pkg-node and
// wasm-core/pkg-earn-loan-node, made by scripts/build-wasm.sh) and requires exactly the results of
// the native run (tests/vectors.rs): the same return values, and the same {code, key, params}
// payloads thrown as plain objects. Each export is in one of the two modules: the earn and loan ones
// (vector files earn-*, loan-*) in the earn-loan module only, every other in the main module only.
// A class's cases (an export called with `new`) give its constructor's arguments as "construct" and
// then "method" and its "args"; whichever step throws gives the case's error. A buffer class's
// cases (KlineBuffer) also give "write", numbers to write into its typed-array views (views of wasm
// memory) before the call, and "read", the view read after it: the result is {returned, [read]}.
// Run with `node --test wasm-core/tests/`. A missing build fails the test: build it first.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const vectorsDir = join(here, 'vectors');
/** The two modules' Node.js builds. */
const MODULES = {
  main: join(here, '..', 'pkg-node', 'wasm_core.js'),
  'earn-loan': join(here, '..', 'pkg-earn-loan-node', 'wasm_core_earn_loan.js'),
};

function loadWasm(pkgEntry) {
  assert.ok(
    existsSync(pkgEntry),
    `${pkgEntry} is missing: run scripts/build-wasm.sh first`,
  );
  return createRequire(import.meta.url)(pkgEntry);
}

function loadVectorFiles() {
  const files = readdirSync(vectorsDir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  assert.ok(files.length > 0, `no vector files in ${vectorsDir}`);
  return files.map((name) => ({
    name,
    ...JSON.parse(readFileSync(join(vectorsDir, name), 'utf8')),
  }));
}

/** The module a vector file's export belongs in. */
function moduleOf(fileName) {
  return /^(earn|loan)-/.test(fileName) ? 'earn-loan' : 'main';
}

const modules = Object.fromEntries(Object.entries(MODULES).map(([name, entry]) => [name, loadWasm(entry)]));
const vectorFiles = loadVectorFiles();
/** The functions (and classes) each module exports. */
const EXPORTS = Object.fromEntries(
  Object.entries(modules).map(([name, module]) => [name, Object.keys(module).filter((key) => typeof module[key] === 'function')]),
);
// Every function a wasm build exports must have vectors (the native run checks the same for its
// adapters, so an export missing on either side fails one of the two runs).
const FUNCTIONS = Object.values(EXPORTS).flat();

test('every export has a vector file', () => {
  const covered = new Set(vectorFiles.map((file) => file.function));
  assert.deepEqual(FUNCTIONS.filter((name) => !covered.has(name)), []);
  for (const [name, list] of Object.entries(EXPORTS)) assert.ok(list.length > 0, `the ${name} module exports no function`);
});

test('each export is in its own module only: earn and loan in earn-loan, the rest in main', () => {
  for (const file of vectorFiles) {
    const home = moduleOf(file.name);
    for (const [name, list] of Object.entries(EXPORTS)) {
      assert.equal(list.includes(file.function), name === home, `${file.function} (${file.name}) ${name === home ? 'missing from' : 'also in'} the ${name} module`);
    }
  }
});

for (const file of vectorFiles) {
  test(`${file.name}: ${file.function}`, () => {
    const wasm = modules[moduleOf(file.name)];
    assert.ok(typeof wasm[file.function] === 'function', `unknown function ${file.function}`);
    assert.ok(Array.isArray(file.cases) && file.cases.length > 0, 'no cases');
    for (const [index, testCase] of file.cases.entries()) {
      const isMethod = Object.hasOwn(testCase, 'construct');
      assert.equal(isMethod, Object.hasOwn(testCase, 'method'), `case ${index}: "construct" and "method" go together`);
      const call = isMethod
        ? `new ${file.function}(${JSON.stringify(testCase.construct)}).${testCase.method}`
        : file.function;
      const isBuffer = Object.hasOwn(testCase, 'write');
      assert.equal(isBuffer, Object.hasOwn(testCase, 'read'), `case ${index}: "write" and "read" go together`);
      const fn = isMethod
        ? (...args) => {
          const instance = new wasm[file.function](...testCase.construct);
          try {
            if (!isBuffer) return instance[testCase.method](...args);
            // A buffer class: write into its views in wasm memory, call, read one view back.
            // A BigInt64Array view (int64 trades) takes the vector's numbers as BigInt.
            for (const [view, values] of Object.entries(testCase.write)) {
              const target = instance[view]();
              target.set(target instanceof BigInt64Array ? values.map(BigInt) : values);
            }
            const returned = instance[testCase.method](...args);
            return { returned, [testCase.read]: Array.from(instance[testCase.read]()) };
          } finally {
            instance.free();
          }
        }
        : wasm[file.function];
      const label = `case ${index} (${testCase.name ?? 'unnamed'}): ${call}(${JSON.stringify(testCase.args)})`;
      const hasExpect = Object.hasOwn(testCase, 'expect');
      assert.ok(hasExpect !== Object.hasOwn(testCase, 'error'), `${label}: needs exactly one of expect and error`);
      if (hasExpect) {
        // JSON has no undefined: an export returning undefined matches a vector's null.
        const actual = fn(...testCase.args);
        assert.deepStrictEqual(actual === undefined ? null : actual, testCase.expect, label);
      } else {
        assert.throws(
          () => fn(...testCase.args),
          (thrown) => {
            assert.deepStrictEqual(thrown, testCase.error, label);
            return true;
          },
          `${label}: expected a thrown error`,
        );
      }
    }
  });
}
