// The registered checks: every check the core runs, with its seam and whether it reads message
// content. The disposition lists every one of them, armed or not, so "no findings" never reads as
// "all checked". Data only.

import type { Seam } from '../model/finding.js';

export interface RegisteredCheck {
  id: string;
  seam: Seam;
  /** Needs recorded message content (so it is unreachable when capture is off). */
  readsContent: boolean;
}

export const CHECK_CATALOG: readonly RegisteredCheck[] = [
  { id: 'unsupported-argument', seam: 'choice', readsContent: true },
];

/** The reason every content-reading check gives when the instrumentation recorded no messages. */
export const CONTENT_NOT_CAPTURED = 'message content was not captured';
