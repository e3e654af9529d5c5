// The shared state store's series on the service's own Prometheus registry: operations by outcome,
// their duration, turns judged without shared state, and whether the store is connected.
// Must never throw at a caller (metric updates are fire-and-forget).

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import * as N from '../service/names.js';

export type StoreOp = 'load' | 'save';
export type StoreOutcome = 'ok' | 'unavailable' | 'over-budget' | 'conflict' | 'too-large' | 'undecodable' | 'corrupt';

export class StateMetrics {
  readonly ops: Counter<'op' | 'outcome'>;
  readonly seconds: Histogram<'op'>;
  readonly unavailableTurns: Counter;
  readonly incompleteTurns: Counter<'reason'>;

  constructor(registry: Registry, up: () => boolean) {
    const r = [registry];
    this.ops = new Counter({ name: N.M_STATE_STORE_OPS, help: 'Shared state store operations, by op (load, save) and outcome (ok, unavailable, over-budget, conflict, too-large, undecodable, corrupt: a value of another type or an unreadable version at a key).', labelNames: ['op', 'outcome'], registers: r });
    for (const op of ['load', 'save']) for (const outcome of ['ok', 'unavailable', 'over-budget']) this.ops.labels({ op, outcome }).inc(0);
    this.seconds = new Histogram({ name: N.M_STATE_STORE_SECONDS, help: 'Time a batch waited on the shared state store, by op.', labelNames: ['op'], buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1], registers: r });
    this.unavailableTurns = new Counter({ name: N.M_STATE_UNAVAILABLE, help: 'Turns (traces) judged without their shared conversation state (store slow or down); their disposition says so.', registers: r });
    this.unavailableTurns.inc(0);
    this.incompleteTurns = new Counter({ name: N.M_STATE_INCOMPLETE, help: 'Turns (traces) judged without conversation state they should have had, by reason (unavailable, concurrent, lost, unreadable, recovering, earlier-gap); their disposition and standing say so (footprint.state.incomplete).', labelNames: ['reason'], registers: r });
    for (const reason of ['unavailable', 'concurrent', 'lost', 'unreadable', 'recovering', 'earlier-gap']) this.incompleteTurns.labels({ reason }).inc(0);
    new Gauge({ name: N.M_STATE_STORE_UP, help: '1 while the shared state store is connected.', registers: r, collect() { this.set(up() ? 1 : 0); } });
  }
}
