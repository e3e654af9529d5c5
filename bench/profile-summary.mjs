// Summarises a V8 .cpuprofile (from node --cpu-prof): self time by function and by file, and the
// total (inclusive) time of chosen functions. Usage: node bench/profile-summary.mjs FILE [top] [fn,fn]
import { readFileSync } from 'node:fs';

const [file, topArg = '25', names = ''] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const label = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules\/|dist\/|bench\/)/, '$1')}:${n.callFrame.lineNumber + 1}`;
const agg = (key) => {
  const m = new Map();
  for (const [id, t] of self) {
    const k = key(byId.get(id));
    m.set(k, (m.get(k) ?? 0) + t);
  }
  return [...m].sort((a, b) => b[1] - a[1]);
};
const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
console.log(`total sampled ${(total / 1e3).toFixed(0)} ms`);
console.log('\nself time by function:');
for (const [k, t] of agg(label).slice(0, +topArg)) console.log(`${pct(t)}  ${k}`);
console.log('\nself time by file:');
for (const [k, t] of agg((n) => n.callFrame.url.replace(/^.*\/(node_modules\/|dist\/|bench\/)/, '$1') || '(native)').slice(0, 15)) console.log(`${pct(t)}  ${k}`);
if (names) {
  console.log('\ninclusive time (a frame counted once per sample even when recursive):');
  for (const want of names.split(',')) {
    let t = 0;
    for (const [id, s] of self) {
      let cur = id;
      while (cur !== undefined) {
        const n = byId.get(cur);
        if ((n.callFrame.functionName || '(anonymous)') === want) {
          t += s;
          break;
        }
        cur = parent.get(cur);
      }
    }
    console.log(`${pct(t)}  ${want}`);
  }
}

// Top-down: inclusive time of the callees under the first frame named by PROFILE_ROOT, to PROFILE_DEPTH.
const rootName = process.env.PROFILE_ROOT;
if (rootName) {
  const maxDepth = +(process.env.PROFILE_DEPTH ?? 4);
  const incl = new Map();
  const inclOf = (id) => {
    if (incl.has(id)) return incl.get(id);
    const n = byId.get(id);
    let t = self.get(id) ?? 0;
    for (const c of n.children ?? []) t += inclOf(c);
    incl.set(id, t);
    return t;
  };
  // Merge nodes by label at each level, starting from every node named rootName (not nested in another).
  const roots = prof.nodes.filter((n) => (n.callFrame.functionName || '(anonymous)') === rootName && ![...ancestors(n.id)].some((a) => (byId.get(a).callFrame.functionName || '') === rootName));
  function* ancestors(id) {
    let p = parent.get(id);
    while (p !== undefined) {
      yield p;
      p = parent.get(p);
    }
  }
  const walk = (ids, depth, indent) => {
    const groups = new Map();
    for (const id of ids) {
      const k = label(byId.get(id));
      const g = groups.get(k) ?? { t: 0, self: 0, kids: [] };
      g.t += inclOf(id);
      g.self += self.get(id) ?? 0;
      g.kids.push(...(byId.get(id).children ?? []));
      groups.set(k, g);
    }
    for (const [k, g] of [...groups].sort((a, b) => b[1].t - a[1].t)) {
      if (g.t / total < 0.004) continue;
      console.log(`${pct(g.t)} (self ${pct(g.self)})  ${indent}${k}`);
      if (depth < maxDepth) walk(g.kids, depth + 1, indent + '  ');
    }
  };
  console.log(`\ntop-down under ${rootName}:`);
  walk(roots.map((n) => n.id), 0, '');
}

// Line-level self time of the functions named in PROFILE_LINES (comma-separated), from positionTicks.
if (process.env.PROFILE_LINES) {
  for (const want of process.env.PROFILE_LINES.split(',')) {
    const lines = new Map();
    let url = '';
    for (const n of prof.nodes) {
      if ((n.callFrame.functionName || '(anonymous)') !== want) continue;
      url = n.callFrame.url;
      for (const pt of n.positionTicks ?? []) lines.set(pt.line, (lines.get(pt.line) ?? 0) + pt.ticks);
    }
    const all = [...lines.values()].reduce((a, b) => a + b, 0);
    console.log(`\nself ticks by line in ${want} (${url.replace(/^.*\/(dist\/|node_modules\/)/, '$1')}), ${all} ticks:`);
    for (const [l, t] of [...lines].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`  line ${l}: ${t} ticks (${((100 * t) / all).toFixed(0)}%)`);
  }
}
