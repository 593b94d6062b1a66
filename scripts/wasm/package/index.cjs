'use strict';
// The package's CommonJS entry: const { Maharajah } = require('maharajah-engine').
// Node modules are required only inside the Node branch, never at the top; bundlers for
// browsers map them to nothing (package.json "browser").
const core = require('./maharajah-api.js');
const factory = require('./maharajah.js');

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null &&
  typeof window === 'undefined' && typeof importScripts !== 'function';

core.Maharajah.environment = async () => {
  const options = { factory };
  if (isNode) {
    const fs = require('fs'), path = require('path');
    options.wasmBinary = fs.readFileSync(path.join(__dirname, 'maharajah.wasm'));
  }
  return options;
};

core.default = core.Maharajah;  // as the ES module's default export
module.exports = core;
