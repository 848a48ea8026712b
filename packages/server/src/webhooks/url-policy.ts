/**
 * Which webhook URLs PGS may call (SSRF protection). A URL must be https and its host
 * must resolve only to public unicast addresses; `allowPrivate` (PGS_WEBHOOKS_ALLOW_PRIVATE)
 * lifts both rules for development and tests.
 *
 * Range checks use ipaddr.js (pure JS, no dependencies, already in the tree through
 * Fastify's proxy-addr): its `range()` names every special-purpose block of IPv4 and IPv6
 * (IANA registries), including IPv4-mapped IPv6 addresses, which a hand-written list of
 * prefixes tends to miss.
 */
import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** IPv6 global unicast (RFC 4291): the only IPv6 block a webhook may point into. */
const GLOBAL_UNICAST: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];

/**
 * Blocks inside 2000::/3 that are not ordinary hosts, refused even where ipaddr.js calls
 * them unicast: IETF protocol assignments (2001::/23: Teredo, ORCHID, benchmarking, AMT…),
 * documentation (2001:db8::/32, 3fff::/20), 6to4 (2002::/16, which embeds any IPv4
 * address, private ones included) and SRv6 segment identifiers (5f00::/16).
 */
const RESERVED_IN_GLOBAL: ReadonlyArray<[string, ipaddr.IPv6, number]> = [
  ['IETF protocol assignments', ipaddr.IPv6.parse('2001::'), 23],
  ['documentation', ipaddr.IPv6.parse('2001:db8::'), 32],
  ['6to4', ipaddr.IPv6.parse('2002::'), 16],
  ['documentation', ipaddr.IPv6.parse('3fff::'), 20],
  ['SRv6 segment identifiers', ipaddr.IPv6.parse('5f00::'), 16],
];

/**
 * Why an address may not be called, or undefined when it may. IPv4: ordinary public unicast
 * only. IPv6: global unicast (2000::/3) minus {@link RESERVED_IN_GLOBAL}; an IPv4-mapped
 * address (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries, and everything else
 * outside 2000::/3 (the deprecated IPv4-compatible `::127.0.0.1`, NAT64, unique-local,
 * link-local…) is refused.
 *
 * @example
 * forbiddenAddress('::169.254.169.254'); // 'is outside IPv6 global unicast (2000::/3)'
 */
export function forbiddenAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (!v6.match(GLOBAL_UNICAST)) return 'is outside IPv6 global unicast (2000::/3)';
    const reserved = RESERVED_IN_GLOBAL.find(([, block, bits]) => v6.match(block, bits));
    if (reserved !== undefined) return `is in a reserved range (${reserved[0]})`;
  }
  const range = parsed.range();
  // Only ordinary public addresses: loopback, private (10/8, 172.16/12, 192.168/16),
  // link-local, unspecified, carrier-grade NAT, multicast, broadcast and the reserved and
  // transition blocks are all refused.
  return range === 'unicast' ? undefined : `is in a reserved range (${range})`;
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** The syntax rules alone (no DNS): a parsable http(s) URL, https unless `allowPrivate`. */
export function checkUrlSyntax(raw: string, allowPrivate: boolean): UrlVerdict {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) {
    return { ok: false, reason: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute https URL' };
  }
  const protocols = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(url.protocol)) return { ok: false, reason: 'must be an https URL' };
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'must not contain credentials' };
  }
  return { ok: true, url };
}

/** The bare host of a URL (`[::1]` → `::1`). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type Resolver = (host: string) => Promise<string[]>;

/** Every address `host` resolves to, as the operating system's resolver answers (node:dns lookup). */
export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses.map((entry) => entry.address));
    });
  });

/**
 * Checks a webhook URL: its syntax, then every address its host resolves to. A host that
 * does not resolve is refused too (nothing could be delivered to it).
 *
 * @example
 * const verdict = await checkWebhookUrl('https://hooks.example.com/pgs', { allowPrivate: false });
 * if (!verdict.ok) throw invalid('url', verdict.reason);
 */
export async function checkWebhookUrl(
  raw: string,
  { allowPrivate, resolve = systemResolver }: { allowPrivate: boolean; resolve?: Resolver },
): Promise<UrlVerdict> {
  const syntax = checkUrlSyntax(raw, allowPrivate);
  if (!syntax.ok || allowPrivate) return syntax;
  const host = hostOf(syntax.url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return { ok: false, reason: `must name a host that resolves (${host} does not)` };
  }
  if (addresses.length === 0) return { ok: false, reason: `must name a host that resolves` };
  for (const address of addresses) {
    const why = forbiddenAddress(address);
    if (why !== undefined) {
      return {
        ok: false,
        reason: `must not point to a private or reserved address (${host} → ${address} ${why})`,
      };
    }
  }
  return syntax;
}
