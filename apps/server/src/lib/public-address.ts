import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether an address is one the public internet routes to: IPv4 unicast outside every special range
 * (private, loopback, link-local, shared, documentation, benchmarking, reserved...), IPv6 inside global
 * unicast (2000::/3) and outside its special ranges (documentation, 6to4, Teredo, NAT64...). An IPv4
 * address written as IPv6 is judged as IPv4; `::7f00:1` (IPv4-compatible) is outside 2000::/3. The
 * classification is a maintained one's, not a list kept here.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  return parsed.range() === 'unicast' && (parsed as ipaddr.IPv6).match(ipaddr.IPv6.parse('2000::'), 3);
}

export class AddressRefused extends Error {
  constructor() {
    super('the address is private or local');
  }
}

/** A URL's host as the resolver takes it (an IPv6 address without its brackets). */
export const hostOf = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/**
 * The addresses a host resolves to (an address stands for itself), or AddressRefused when there are
 * none or, where private addresses are not allowed, when any of them is not public.
 */
export async function checkedAddresses(
  host: string,
  allowPrivate: boolean,
): Promise<{ address: string; family: number }[]> {
  const family = isIP(host);
  const found = family ? [{ address: host, family }] : await lookup(host, { all: true, verbatim: true });
  if (found.length === 0 || (!allowPrivate && found.some((a) => !isPublicAddress(a.address))))
    throw new AddressRefused();
  return found;
}

/**
 * The socket's DNS lookup: it hands the socket the very addresses it checked, so the name is not
 * resolved a second time between check and connect, and a name that answers differently the second
 * time (rebinding) cannot reach a private address.
 */
export function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostOf(hostname), allowPrivate).then(
      (found) => {
        if ((options as { all?: boolean }).all) return callback(null, found as never);
        const [first] = found as [{ address: string; family: number }];
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

/** Whether a URL's host resolves only to public addresses (a name that does not resolve is not). */
export function reachesOnlyPublic(url: string): Promise<boolean> {
  return checkedAddresses(hostOf(new URL(url).hostname), false).then(
    () => true,
    () => false,
  );
}
