// PLACEHOLDER — being written. Reads nothing yet.
import type { Convention } from './types.js';
export const openInference: Convention = { id: 'openinference', claims: () => false, read: () => [] };
