// What each dependency costs in the wasm file: reads a module that still has its name section
// (scripts/bench.sh makes one with `wasm-opt -Oz -g`, the shipped optimisation plus names) and adds
// up the code bytes of each function by the crate its name starts with. Export shims (wasm-bindgen's
// wrappers, into which the optimiser inlines the binding and often core code) count for the module
// whose vector files name the export. The data segment (constants, panic locations, strings) is
// reported on its own: it cannot be split by crate. Shares are of raw bytes; gzip compresses each
// part differently, so the gzipped share is an estimate.
//
//   node wasm-core/bench-js/wasm-size.mjs <named.wasm>
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const buf = readFileSync(process.argv[2]);

let p = 8;
function leb() {
  let result = 0;
  let shift = 0;
  let byte;
  do {
    byte = buf[p++];
    result += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return result;
}
function skipLimits() {
  const flags = buf[p++];
  leb();
  if (flags & 1) leb();
}

const names = new Map();
const sizes = [];
const sections = {};
let importedFunctions = 0;
while (p < buf.length) {
  const id = buf[p++];
  const size = leb();
  const end = p + size;
  if (id === 2) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      for (let part = 0; part < 2; part++) {
        const length = leb();
        p += length;
      }
      const kind = buf[p++];
      if (kind === 0) {
        leb();
        importedFunctions++;
      } else if (kind === 1) {
        p++;
        skipLimits();
      } else if (kind === 2) {
        skipLimits();
      } else {
        p += 2;
      }
    }
  } else if (id === 10) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      const bodySize = leb();
      sizes.push(bodySize);
      p += bodySize;
    }
  } else if (id === 0) {
    const nameLength = leb();
    const sectionName = buf.subarray(p, p + nameLength).toString();
    p += nameLength;
    if (sectionName === 'name') {
      while (p < end) {
        const sub = buf[p++];
        const subSize = leb();
        const subEnd = p + subSize;
        if (sub === 1) {
          const count = leb();
          for (let i = 0; i < count; i++) {
            const index = leb();
            const length = leb();
            names.set(index, buf.subarray(p, p + length).toString());
            p += length;
          }
        }
        p = subEnd;
      }
    }
    sections[`custom:${sectionName}`] = size;
  }
  if (id !== 0) sections[id] = (sections[id] ?? 0) + size;
  p = end;
}

// Export name → core module, from the vector files ("kline-aggregate-trades.json" → kline).
const moduleOf = new Map();
const vectorsDir = join(here, '..', 'tests', 'vectors');
for (const file of readdirSync(vectorsDir).filter((f) => f.endsWith('.json'))) {
  const { function: fn } = JSON.parse(readFileSync(join(vectorsDir, file), 'utf8'));
  const prefix = file.split('-')[0];
  moduleOf.set(fn, ['kline', 'margin', 'validate'].includes(prefix) ? prefix : 'format');
}

// The crate a function belongs to: an export shim goes to its module; a function of a generic from
// core, alloc or std instantiated for a wasm-core type goes to that wasm-core module (it exists
// because of it); otherwise the first crate named (`<f64 as core::fmt::Display>::fmt` is core's).
function owner(name) {
  const shim = /^(\w+) (externref shim|multivalue shim)/.exec(name);
  if (shim) return `wasm_core::${moduleOf.get(shim[1]) ?? 'bindings'} (exports)`;
  const crates = [...name.matchAll(/([a-z_][a-z0-9_]*)\[[0-9a-f]+\]((?:::\w+)?)/g)];
  if (crates.length > 0) {
    const [, first] = crates[0];
    const core = crates.find(([, crate]) => crate === 'wasm_core');
    if (core && (first === 'wasm_core' || ['core', 'alloc', 'std'].includes(first))) {
      return `wasm_core${core[2]}`;
    }
    return first;
  }
  if (/^(__wbg|__wbindgen|__externref)/.test(name)) return 'wasm_bindgen';
  if (/^(memcpy|memset|memmove|memcmp|__multi3|__[a-z]*div[a-z]*3|__[a-z]*mod[a-z]*3|__ash|__lsh)/.test(name)) return 'compiler_builtins';
  return 'other';
}

const byOwner = new Map();
let code = 0;
sizes.forEach((size, i) => {
  const name = names.get(i + importedFunctions) ?? `function ${i + importedFunctions}`;
  const key = owner(name);
  const entry = byOwner.get(key) ?? { bytes: 0, functions: 0, largest: [] };
  entry.bytes += size;
  entry.functions += 1;
  entry.largest.push([size, name]);
  byOwner.set(key, entry);
  code += size;
});

const rows = [...byOwner.entries()].sort((a, b) => b[1].bytes - a[1].bytes);
console.log(`${'owner'.padEnd(34)} ${'code bytes'.padStart(10)} ${'share'.padStart(6)}  largest function`);
for (const [key, entry] of rows) {
  entry.largest.sort((a, b) => b[0] - a[0]);
  const [size, name] = entry.largest[0];
  console.log(`${key.padEnd(34)} ${String(entry.bytes).padStart(10)} ${((100 * entry.bytes) / code).toFixed(1).padStart(5)}%  ${name.slice(0, 70)} (${size})`);
  console.log(`SIZE ${JSON.stringify({ owner: key, bytes: entry.bytes, functions: entry.functions, share: entry.bytes / code })}`);
}
console.log(`${'code section'.padEnd(34)} ${String(code).padStart(10)}`);
console.log(`${'data section'.padEnd(34)} ${String(sections[11] ?? 0).padStart(10)}`);
console.log(`SIZE ${JSON.stringify({ owner: 'data section', bytes: sections[11] ?? 0 })}`);
