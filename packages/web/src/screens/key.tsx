import type { CreditBalance } from '@pgs/client';
import { useState } from 'preact/hooks';
import { PageHeading, ProblemAlert } from '../components.tsx';
import { describeError, PLAIN, type Problem } from '../messages.ts';
import { makeClient } from '../session.ts';

/**
 * The key screen: checks a key against the credits endpoint before keeping it.
 *
 * @example
 * <KeyScreen onSignedIn={(key, credits) => …} problem={undefined} />
 */
export function KeyScreen({
  onSignedIn,
  problem: initialProblem,
}: {
  onSignedIn: (key: string, credits: CreditBalance) => void;
  problem: Problem | undefined;
}) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>(initialProblem);

  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (trimmed === '') {
      setProblem({
        kind: 'invalid',
        text: 'Enter an API key (it starts with pgs_test_ or pgs_live_).',
      });
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      const credits = await makeClient(trimmed).credits.get();
      onSignedIn(trimmed, credits);
    } catch (error) {
      const described = describeError(error);
      setProblem(described.kind === 'bad-key' ? { ...described, text: PLAIN.badKey } : described);
      setBusy(false);
    }
  };

  return (
    <section class="card narrow">
      <PageHeading>Sign in to PGS</PageHeading>
      <p>
        Paste an API key. <code>npm start</code> prints a test key on its first start; the console
        keeps it in this tab only and forgets it when you sign out or close the tab.
      </p>
      <form onSubmit={submit} noValidate>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
          aria-describedby={problem ? 'key-problem' : undefined}
        />
        <div id="key-problem">{problem && <ProblemAlert problem={problem} />}</div>
        <button type="submit" disabled={busy} aria-busy={busy}>
          Sign in
        </button>
      </form>
    </section>
  );
}
