// PLACEHOLDER — being written. Reads nothing yet.
import type { Convention } from './types.js';
export const vercelAi: Convention = { id: 'vercel-ai', claims: () => false, read: () => [] };
