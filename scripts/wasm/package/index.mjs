// The package's ES module entry: import { Maharajah } from 'maharajah-engine'.
// In Node the wasm is read with node:fs, imported dynamically and only there (a
// specifier that bundlers leave alone); in browsers the loader fetches maharajah.wasm
// from beside this module (after bundling: beside the bundle).
import core from './maharajah-api.js';
import factory from './maharajah.js';

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null &&
  typeof window === 'undefined' && typeof importScripts !== 'function';
const nodeModule = (name) => import(/* webpackIgnore: true */ /* @vite-ignore */ name);

core.Maharajah.environment = async () => {
  const options = { factory };
  if (isNode) {
    const fs = await nodeModule('node:fs');
    options.wasmBinary = await fs.promises.readFile(new URL('./maharajah.wasm', import.meta.url));
  } else {
    options.locateFile = (file) => new URL(file, import.meta.url).href;
  }
  return options;
};

export const { Maharajah, Engine, MaharajahWorker } = core;
export default core.Maharajah;
