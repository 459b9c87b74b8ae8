import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** True for an address on the public internet: not loopback, private, link-local, CGNAT, multicast, reserved… */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** Why a webhook URL is refused, or undefined when it is acceptable. Names resolving to no address pass (checked again at delivery). */
export async function refuseUrl(url: string, allowPrivate: boolean): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute http or https URL.';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'url must use http or https.';
  if (parsed.username || parsed.password) return 'url must not carry credentials.';
  if (allowPrivate) return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return undefined;
    }
  }
  if (addresses.some((a) => !isPublicAddress(a))) return 'url points to a loopback, private or link-local address; set WEBHOOK_ALLOW_PRIVATE=true to allow it.';
  return undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses non-public addresses: the check happens on the address
 * the socket actually connects to, so a name that re-resolves to 127.0.0.1 (DNS rebinding) is caught.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const bad = !allowPrivate && list.find((a) => !isPublicAddress(a.address));
      if (bad) return callback(Object.assign(new Error(`destination ${bad.address} is not a public address`), { code: 'EPRIVATE' }), []);
      if ((options as { all?: boolean }).all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
