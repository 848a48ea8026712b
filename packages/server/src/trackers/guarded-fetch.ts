/**
 * The one way PGS reaches a tracker (issue 31's SSRF review): a fetch per connection that
 * connects only to addresses the webhook address policy allows and never follows a
 * redirect. `baseUrl` is checked once at creation, but a host's DNS answer may change
 * afterwards (rebinding: public at the check, 169.254.169.254 later) and a tracker may answer
 * 302 to an internal address; so the check is made again on every connection, by the lookup
 * the socket connects with (the addresses checked are the addresses used, as in outbound
 * webhooks), and a redirect is refused instead of followed.
 */
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { forbiddenAddress, type Resolver, systemResolver } from '../webhooks/url-policy.ts';
import { TrackerRequestError, trackerErrorIn } from './providers/provider.ts';

/** A fetch as the SDKs call it. */
export type Fetch = typeof fetch;

/** Why a host may not be connected to, or undefined; every address is checked. */
function refusal(host: string, addresses: readonly string[]): string | undefined {
  if (addresses.length === 0) return `${host} does not resolve`;
  for (const address of addresses) {
    const why = forbiddenAddress(address);
    if (why !== undefined) return `${host} → ${address} ${why}`;
  }
  return undefined;
}

/** A refused address, as a tracker error no retry will repeat. */
const refused = (why: string) =>
  new TrackerRequestError(`refused to connect: ${why}`, { retryable: false });

/** A socket lookup that resolves with `resolve` and fails when any address is forbidden. */
export function guardedLookup(resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const why = refusal(hostname, addresses);
        if (why !== undefined) return callback(refused(why), '', 0);
        const entries: LookupAddress[] = addresses.map((address) => ({
          address,
          family: isIP(address) === 6 ? 6 : 4,
        }));
        if (options.all) {
          return (callback as (e: null, a: LookupAddress[]) => void)(null, entries);
        }
        return callback(null, entries[0]!.address, entries[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/**
 * One connection's fetch: an undici Agent whose `connect.lookup` is {@link guardedLookup}
 * (unless `allowPrivate`, PGS_CONNECTIONS_ALLOW_PRIVATE, for trackers on loopback in
 * development and tests), and `redirect: 'manual'` always: a 3xx answer becomes a
 * non-retryable {@link TrackerRequestError} "the tracker redirected to …", never followed.
 *
 * @example
 * const fetch = guardedFetch({ allowPrivate: false });
 * adapter.connect({ baseUrl, credentials, target, fetch });
 */
export function guardedFetch({
  allowPrivate,
  resolve = systemResolver,
}: {
  allowPrivate: boolean;
  resolve?: Resolver;
}): Fetch {
  const dispatcher = new Agent(allowPrivate ? {} : { connect: { lookup: guardedLookup(resolve) } });
  const guarded = async (input: Parameters<Fetch>[0], init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // A literal address never reaches the lookup: the socket connects to it directly.
    if (!allowPrivate && isIP(host) !== 0) {
      const why = refusal(host, [host]);
      if (why !== undefined) throw refused(why);
    }
    let response: Response;
    try {
      response = (await undiciFetch(
        input as Parameters<typeof undiciFetch>[0],
        { ...init, redirect: 'manual', dispatcher } as Parameters<typeof undiciFetch>[1],
      )) as unknown as Response;
    } catch (error) {
      throw trackerErrorIn(error) ?? error;
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel();
      const location = new URL(response.headers.get('location')!, url);
      throw new TrackerRequestError(
        `the tracker redirected to ${location.origin}${location.pathname}; redirects are not followed`,
        { status: response.status, retryable: false },
      );
    }
    return response;
  };
  return guarded as Fetch;
}
