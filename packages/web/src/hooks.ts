import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import { describeError, type Problem, type ProblemContext } from './messages.ts';
import { type Session, SessionContext } from './session.ts';

/**
 * The current time, re-read every `intervalMs` while `active`, for countdowns.
 *
 * @example
 * const now = useNow(1000);
 */
export function useNow(intervalMs = 1000, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}

/**
 * The signed-in session; screens behind the key screen only.
 *
 * @example
 * const { pgs, refreshCredits } = useSession();
 */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === undefined) throw new Error('useSession outside a signed-in screen');
  return session;
}

/**
 * describeError for a screen's reads: a problem that ends the session (the key refused)
 * signs out as well. The function is stable while the session is, for effects' dependencies.
 *
 * @example
 * const problemOf = useProblemOf('revision');
 * pgs.projects.questions(projectId).catch((error) => setProblem(problemOf(error)));
 */
export function useProblemOf(subject?: ProblemContext['subject']): (error: unknown) => Problem {
  const { signOut } = useSession();
  return useCallback(
    (error: unknown) => {
      const problem = describeError(error, { subject });
      if (problem.signOut) signOut(problem);
      return problem;
    },
    [signOut, subject],
  );
}
