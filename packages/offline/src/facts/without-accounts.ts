/**
 * What a product answered "No accounts" promises instead of accounts (docs/clarify.md,
 * docs/decisions.md): a web product's data is shared by everyone who reaches it; a phone app's
 * stays with the install that made it, under a random key that names no one. The brief's risk
 * and its NFR-3 and NFR-4 say so, and the plan's release checks them.
 */
import { listing } from '../text/words.ts';
import type { Facts } from './facts.ts';
import { keptPerInstall, settledOf, withoutAccounts } from './settled.ts';

const things = (f: Facts) => listing(f.entities.slice(0, 3).map((e) => e.plural));

/** A risk of the brief (brief-model.ts's Risk without its ID), named here to import no cycle. */
interface NoAccountsRisk {
  risk: string;
  likelihood: 'Medium';
  impact: 'High';
  mitigation: string;
  threatens: string[];
  spike: string;
}

/**
 * The risk a product without accounts runs: on the web, whoever has its address reads and
 * changes it all; on a phone, no sign-in brings the data back or onto a second phone.
 *
 * @example
 * noAccountsRisk(f).risk; // 'GroomBook has no accounts, so anyone with its address can …'
 */
export function noAccountsRisk(f: Facts): NoAccountsRisk {
  if (keptPerInstall(f))
    return {
      risk: `${f.name} has no accounts, so the ${f.main.plural} of a lost or reset phone come back only from a backup, and a second phone does not see them`,
      likelihood: 'Medium',
      impact: 'High',
      mitigation: `Keep the install key in the platform's backup, let Settings export the ${f.main.plural} as a file, and ask for accounts again if people need them on several devices`,
      threatens: [],
      spike: '',
    };
  return {
    risk: `${f.name} has no accounts, so anyone with its address can read and change every ${f.main.label}`,
    likelihood: 'Medium',
    impact: 'High',
    mitigation: `Share the address only with the people meant to use it, keep backups, and ask for accounts again if the ${f.main.plural} hold anything private`,
    threatens: [],
    spike: '',
  };
}

/**
 * NFR-3 (Security) without accounts: open data protected by input checks, a rate limit and
 * backups on the web; each install's own rows on a phone.
 *
 * @example
 * noAccountsSecurity(f); // 'Without accounts, GroomBook rejects malformed input, …'
 */
export function noAccountsSecurity(f: Facts): string {
  return keptPerInstall(f)
    ? `Without accounts, ${f.name} keeps each install's ${things(f)} under a random key the app makes at first launch, which names no one: the API serves an install only its own rows, rejects malformed input, limits each install to 600 requests a minute and stores no personal data beyond what people type, checked by isolation, validation and rate-limit tests on every build.`
    : `Without accounts, ${f.name} rejects malformed input, limits each client address to 600 requests a minute, stores no personal data beyond what people type, and backs up its ${things(f)} daily, checked by validation and rate-limit tests on every build and a restore test before each release.`;
}

/**
 * NFR-4 (Data) without accounts: everything exported and anything deleted on the web; an
 * install's own data on a phone.
 *
 * @example
 * noAccountsData(f); // "All of GroomBook's appointments … can be exported as JSON, …"
 */
export function noAccountsData(f: Facts): string {
  return keptPerInstall(f)
    ? `An install's ${things(f)} can be exported as JSON from Settings, and deleted from the phone and the server within 7 days of a request, checked in the release checklist.`
    : `All of ${f.name}'s ${things(f)} can be exported as JSON, and any one of them deleted within 7 days of a request, checked in the release checklist.`;
}

/**
 * What the release checks of NFR-3 and NFR-4 (the plan's last task names them).
 *
 * @example
 * releaseChecks(f); // 'access, data export and deletion' for a product with accounts
 */
export function releaseChecks(f: Facts): string {
  if (!withoutAccounts(f)) return 'access, data export and deletion';
  return keptPerInstall(f)
    ? 'install isolation, input checks, rate limits, data export and deletion'
    : 'input checks, rate limits, backups, data export and deletion';
}

/**
 * What the brief tells the team when "No accounts" was answered after a requirement that signs
 * people in was written (docs/clarify.md#answer-later): the answer is recorded, the requirement
 * stands, and the change request that removes it makes every document account-free.
 *
 * @example
 * keptSignInNote(f); // 'The team answered "No accounts", but FR-3 (Sign in …) still …'
 */
export function keptSignInNote(f: Facts): string | undefined {
  const signIn = settledOf(f).answered.signIn;
  const kept = f.requirements.find((req) => req.id === signIn?.kept);
  if (signIn === undefined || kept === undefined) return undefined;
  return `The team answered "${signIn.answer}", but ${kept.id} (${kept.text}) still signs people in: an answer removes no requirement, so ${f.name}'s documents keep sign-in and accounts. To drop them, send the change request "Remove sign-in": it removes ${kept.id}, and every document is then written without accounts.`;
}
