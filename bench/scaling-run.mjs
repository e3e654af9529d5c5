// Child entry for bench/run.mjs: one scaling curve (window | args) from bench/scaling.mjs.
import { scalingArgs, scalingWindow } from './scaling.mjs';
import { emit } from './lib.mjs';

const which = process.argv[2];
const r = which === 'args' ? scalingArgs() : scalingWindow();
const key = which === 'args' ? 'scaling-args' : 'scaling-window';
const unit = which === 'args' ? (p) => `${p.arguments} args ${p.microseconds} µs (${p.usPerArgument} µs/arg)` : (p) => `${p.windowKB} KB ${p.microseconds} µs (${p.usPerKB} µs/KB)`;
console.log(`${key}: ${r.points.map(unit).join(', ')}; ratio ${r.ratio}${r.ratioFrom100KB !== undefined ? `, per-KB 1 MB / 100 KB ${r.ratioFrom100KB}` : ''} (${r.target})`);
emit(key, { ...r, met: r.ratio <= 2 });
