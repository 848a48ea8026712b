import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { useNow } from './hooks.ts';
import { type Problem, rateLimitText } from './messages.ts';

/**
 * A problem where it happened, as an alert. A 429 counts its wait down; the countdown is
 * not re-announced every second (aria-live off inside the alert), only the first text is.
 *
 * @example
 * {problem && <ProblemAlert problem={problem} />}
 */
export function ProblemAlert({ problem }: { problem: Problem }) {
  // A new problem (another 429) restarts the countdown.
  const shownAt = useMemo(() => (problem ? Date.now() : 0), [problem]);
  const counting = problem.kind === 'rate-limited' && problem.retryAfter !== undefined;
  const now = useNow(250, counting);
  if (!counting) {
    return (
      <p class="alert" role="alert">
        {problem.text}
      </p>
    );
  }
  const left = Math.max(0, Math.ceil((problem.retryAfter ?? 0) - (now - shownAt) / 1000));
  const [first, ...rest] = rateLimitText(left).split('. ');
  return (
    <p class="alert" role="alert">
      {first}. <span aria-live="off">{rest.join('. ')}</span>
    </p>
  );
}

/**
 * A page's `<h1>`, focusable by script only (tabindex -1): the app moves focus to it after
 * every navigation, so a screen reader reads where it landed.
 *
 * @example
 * <PageHeading>Projects</PageHeading>
 */
export function PageHeading({ children }: { children: ComponentChildren }) {
  return <h1 tabIndex={-1}>{children}</h1>;
}

/**
 * A polite status line (loading, copied, reconnecting).
 *
 * @example
 * <StatusLine text={loading ? 'Loading…' : ''} />
 */
export function StatusLine({ text }: { text: string }) {
  return (
    <p class="status-line" role="status">
      {text}
    </p>
  );
}

/**
 * A read that failed, as an alert, and a button that tries it again.
 *
 * @example
 * {problem && <ProblemRetry problem={problem} onRetry={() => setReads((n) => n + 1)} />}
 */
export function ProblemRetry({ problem, onRetry }: { problem: Problem; onRetry: () => void }) {
  return (
    <>
      <ProblemAlert problem={problem} />
      <button type="button" class="secondary" onClick={onRetry}>
        Try again
      </button>
    </>
  );
}
