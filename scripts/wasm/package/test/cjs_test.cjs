// The package required as CommonJS in Node.
'use strict';
const pkg = require('maharajah-engine');
const { playShortGame } = require('./game.js');
if (pkg.default !== pkg.Maharajah || typeof pkg.Engine !== 'function') throw new Error('cjs: exports');
playShortGame(pkg.Maharajah, 'cjs').catch((e) => { console.error(e); process.exit(1); });
