// Which tenant a span or log record belongs to: the `tenantAttribute` of its resource
// (`service.name` by default). One definition for state scoping, the findings store, the explain
// page and a tenant-bound token's sending scope. Pure; must never throw on odd attribute values.

/** The tenant of records whose resource does not name one. */
export const NO_TENANT = '(no tenant)';

/** The tenant a resource names, or NO_TENANT (a number is read as its decimal text). */
export function tenantOfResource(resource: Readonly<Record<string, unknown>>, tenantAttribute: string): string {
  const v = resource[tenantAttribute];
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : NO_TENANT;
}
