// Runs the JSON vectors of tests/vectors/ against the wasm build (wasm-core/pkg-node, made by
// scripts/build-wasm.sh) and requires exactly the results of the native run (tests/vectors.rs):
// the same return values, and the same {code, key, params} payloads thrown as plain objects.
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
const pkgEntry = join(here, '..', 'pkg-node', 'wasm_core.js');

function loadWasm() {
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

const wasm = loadWasm();
const vectorFiles = loadVectorFiles();
// Every function the wasm build exports must have vectors (the native run checks the same for its
// adapters, so an export missing on either side fails one of the two runs).
const FUNCTIONS = Object.keys(wasm).filter((name) => typeof wasm[name] === 'function');

test('every export has a vector file', () => {
  const covered = new Set(vectorFiles.map((file) => file.function));
  assert.deepEqual(FUNCTIONS.filter((name) => !covered.has(name)), []);
  assert.ok(FUNCTIONS.length > 0, 'the wasm build exports no function');
});

for (const file of vectorFiles) {
  test(`${file.name}: ${file.function}`, () => {
    assert.ok(FUNCTIONS.includes(file.function), `unknown function ${file.function}`);
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
