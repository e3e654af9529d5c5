// PLACEHOLDER — being written. Reads nothing yet.
import type { Convention } from './types.js';
export const genAi: Convention = { id: 'genai-semconv', claims: () => false, read: () => [] };
