/** Who a user is (ARCHITECTURE section 5). Staff are `employee`; the rest belong to an organisation. */
export const IDENTITIES = ['employee', 'branch', 'agent', 'customer'] as const;
export type Identity = (typeof IDENTITIES)[number];

export const ORGANISATION_TYPES = ['branch', 'agent', 'customer'] as const;
export type OrganisationType = (typeof ORGANISATION_TYPES)[number];

export function identityMatches(identity: Identity, wanted: Identity | readonly Identity[]): boolean {
  return typeof wanted === 'string' ? identity === wanted : wanted.includes(identity);
}
