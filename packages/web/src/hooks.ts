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
 * describeError for a screen's reads and writes: a problem that ends the session (the key
 * refused) signs out as well. A write may add what it knows of the price and the balance, for
 * the "not enough credits" text. The function is stable while the session is, for effects'
 * dependencies.
 *
 * @example
 * const problemOf = useProblemOf('revision');
 * pgs.projects.questions(projectId).catch((error) => setProblem(problemOf(error)));
 */
export function useProblemOf(
  subject?: ProblemContext['subject'],
): (error: unknown, context?: Omit<ProblemContext, 'subject'>) => Problem {
  const { signOut } = useSession();
  return useCallback(
    (error: unknown, context: Omit<ProblemContext, 'subject'> = {}) => {
      const problem = describeError(error, { ...context, subject });
      if (problem.signOut) signOut(problem);
      return problem;
    },
    [signOut, subject],
  );
}
