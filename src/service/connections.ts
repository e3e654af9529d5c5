// The receivers' connection bound (HTTP, and gRPC since issue 31), built so that no set of clients
// can starve health probes or authenticated senders by holding connections open:
//   - below `connections`, a new connection is simply taken;
//   - at the bound, an idle connection (no request in progress: a silent socket, a keep-alive socket
//     between polls, one still sending headers, an HTTP/2 session with no call) is closed to make
//     room: one that never carried an authenticated request first, those older than
//     CONNECTION_GRACE_MS (or that made a request) before the newest (a client that just connected
//     gets a moment to make its first request), else one that did carry one, idle longest;
//   - when every connection is busy with a request, up to `reservedConnections` more are taken,
//     and a request on one of those is served only if it is a health probe (or, with auth on,
//     carries the token); anything else is answered 503 and the connection closed;
//   - past that, the new connection is closed at once.
// Idle and header timeouts bound how long any socket can sit (see http-receiver.ts).
// File descriptors: the bound is checked against the process's open-files limit at start, and
// the number of open descriptors is logged when it nears the limit.
// Must never throw from a socket event, and never close a connection that is in a request to
// make room.

import { readFileSync, readdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { LogFn } from './pipeline.js';

/** A connection this new that has not made its first request yet is closed after the other untrusted ones. */
export const CONNECTION_GRACE_MS = 1000;

interface Tracked {
  busy: number;
  lastActive: number;
  openedAt: number;
  reserved: boolean;
  /** It carried an authenticated request (or any request, with auth off): evicted after the others. */
  trusted: boolean;
}

export class ConnectionGuard {
  private readonly open = new Map<Socket, Tracked>();
  private fdTimer: NodeJS.Timeout | null = null;
  private warnedFdsAt = 0;
  /** Connections closed to make room, refused outright, and taken on reserved slots (for tests and metrics). */
  readonly counts = { evicted: 0, refused: 0, reserved: 0 };

  private loggedAt = -Infinity;

  constructor(
    private readonly cap: number,
    private readonly reserve: number,
    private readonly log: LogFn,
    private readonly now: () => number = Date.now,
    /** Told of each connection the guard closes (for metrics). */
    private readonly onClosed: (reason: 'evicted-idle' | 'refused') => void = () => {},
    /** What the bound is, for the log line. */
    private readonly what = 'HTTP connections at limits.connections',
  ) {}

  /** Says, at most once a minute, that the bound is being held. */
  private note(): void {
    const t = this.now();
    if (t - this.loggedAt < 60_000) return;
    this.loggedAt = t;
    this.log('warn', `${this.what} (${this.cap}): ${this.counts.evicted} idle ones closed to make room and ${this.counts.refused} refused so far (${this.counts.reserved} taken on the ${this.reserve} reserved slots)`);
  }

  get size(): number {
    return this.open.size;
  }

  /** A new connection: taken, taken after closing the longest-idle one, taken on a reserved slot, or closed. */
  admit(socket: Socket): void {
    if (this.open.size >= this.cap) {
      const idle = this.longestIdle();
      if (idle) {
        this.counts.evicted++;
        this.forget(idle);
        idle.destroy();
        this.onClosed('evicted-idle');
        this.note();
      } else if (this.open.size >= this.cap + this.reserve) {
        this.counts.refused++;
        socket.destroy();
        this.onClosed('refused');
        this.note();
        return;
      }
    }
    const reserved = this.open.size >= this.cap;
    if (reserved) this.counts.reserved++;
    const now = this.now();
    this.open.set(socket, { busy: 0, lastActive: now, openedAt: now, reserved, trusted: false });
    socket.once('close', () => this.forget(socket));
  }

  /** A request started on a socket; returns whether the socket is on a reserved slot. */
  requestStarted(socket: Socket): boolean {
    const t = this.open.get(socket);
    if (!t) return false;
    t.busy++;
    t.lastActive = this.now();
    return t.reserved;
  }

  /** The socket carried an authenticated request: it is evicted only after every untrusted idle one. */
  markTrusted(socket: Socket): void {
    const t = this.open.get(socket);
    if (t) t.trusted = true;
  }

  /** Whether the guard holds this socket (gRPC: a call's peer is looked up). */
  has(socket: Socket): boolean {
    return this.open.has(socket);
  }

  requestEnded(socket: Socket): void {
    const t = this.open.get(socket);
    if (!t) return;
    t.busy = Math.max(0, t.busy - 1);
    t.lastActive = this.now();
  }

  /** The idle connection to close (see the header): untrusted past its grace, else untrusted new, else trusted; idle longest in each. */
  private longestIdle(): Socket | undefined {
    const now = this.now();
    const best: [Socket | undefined, Socket | undefined, Socket | undefined] = [undefined, undefined, undefined];
    const at = [Infinity, Infinity, Infinity];
    for (const [s, t] of this.open) {
      if (t.busy !== 0) continue;
      const rank = t.trusted ? 2 : now - t.openedAt >= CONNECTION_GRACE_MS || t.lastActive > t.openedAt ? 0 : 1;
      if (t.lastActive < at[rank]!) {
        at[rank] = t.lastActive;
        best[rank] = s;
      }
    }
    return best[0] ?? best[1] ?? best[2];
  }

  private forget(socket: Socket): void {
    this.open.delete(socket);
  }

  /** Checks the bound against the open-files limit and starts the periodic near-the-limit log. */
  watchDescriptors(otherConnections: number, intervalMs = 5000): void {
    const limit = openFilesLimit();
    if (limit === undefined) return;
    const need = this.cap + this.reserve + otherConnections + DESCRIPTOR_MARGIN;
    if (need > limit) this.log('warn', `file descriptors: limits.connections + reservedConnections + grpcConnections + ${DESCRIPTOR_MARGIN} = ${need} is above this process's open-files limit (${limit}); raise it (ulimit -n) or lower the connection limits, or connections past the limit fail`);
    this.fdTimer = setInterval(() => {
      const used = openDescriptors();
      if (used === undefined) return;
      if (used >= limit * 0.8 && this.now() - this.warnedFdsAt > 60_000) {
        this.warnedFdsAt = this.now();
        this.log('warn', `file descriptors: ${used} of ${limit} open (${this.open.size} HTTP connections); near the limit, new connections and files will start to fail`);
      }
    }, intervalMs);
    this.fdTimer.unref();
  }

  stop(): void {
    if (this.fdTimer) clearInterval(this.fdTimer);
    this.fdTimer = null;
  }
}

/** Descriptors kept for files, the downstream's sockets and the runtime. */
const DESCRIPTOR_MARGIN = 128;

/** The soft "Max open files" of this process (Linux), or undefined. */
export function openFilesLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (!m || m[1] === 'unlimited') return undefined;
    return Number(m[1]);
  } catch {
    return undefined;
  }
}

export function openDescriptors(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}
