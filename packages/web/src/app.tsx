import type { CreditBalance } from '@pgs/client';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { PageHeading } from './components.tsx';
import { describeError, type Problem } from './messages.ts';
import {
  CONNECTIONS_HREF,
  CONVENTIONS_HREF,
  NEW_PROJECT_HREF,
  PROJECTS_HREF,
  parseHash,
  type Route,
} from './routes.ts';
import { ConnectionsScreen } from './screens/connections.tsx';
import { ConventionsScreen } from './screens/conventions.tsx';
import { KeyScreen } from './screens/key.tsx';
import { NewProjectScreen } from './screens/new-project.tsx';
import { ProjectScreen } from './screens/project.tsx';
import { ProjectsScreen } from './screens/projects.tsx';
import { SyncScreen } from './screens/sync.tsx';
import {
  forgetKey,
  loadKey,
  makeClient,
  type Session,
  SessionContext,
  saveKey,
} from './session.ts';

/**
 * The console: the key screen until a key is stored, then the signed-in header and the
 * screen the hash names. Focus moves to the new screen's `<h1>` after every navigation.
 *
 * @example
 * render(<App />, document.getElementById('app')!);
 */
export function App() {
  const [apiKey, setApiKey] = useState(loadKey);
  const [credits, setCredits] = useState<CreditBalance | undefined>(undefined);
  const [signInProblem, setSignInProblem] = useState<Problem | undefined>(undefined);
  const [hash, setHash] = useState(() => window.location.hash);
  // Bumped on every navigation (and sign-in/out), so focus moves even when the hash is unchanged.
  const [visit, setVisit] = useState(0);
  const [focusKeyInput, setFocusKeyInput] = useState(false);

  useEffect(() => {
    const onHashChange = () => {
      setHash(window.location.hash);
      setVisit((n) => n + 1);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  const pgs = useMemo(() => (apiKey ? makeClient(apiKey) : undefined), [apiKey]);

  const signOut = useCallback((problem?: Problem) => {
    forgetKey();
    setApiKey(undefined);
    setCredits(undefined);
    setSignInProblem(problem);
    setFocusKeyInput(true);
    setVisit((n) => n + 1);
  }, []);

  const refreshCredits = useCallback(async () => {
    if (!pgs) return;
    try {
      setCredits(await pgs.credits.get());
    } catch (error) {
      const problem = describeError(error);
      if (problem.signOut) signOut(problem);
      // Otherwise the last balance stays shown; the screen that acted shows its own problem.
    }
  }, [pgs, signOut]);

  useEffect(() => {
    if (pgs && credits === undefined) void refreshCredits();
  }, [pgs, credits, refreshCredits]);

  const signIn = useCallback((key: string, balance: CreditBalance) => {
    saveKey(key);
    setApiKey(key);
    setCredits(balance);
    setSignInProblem(undefined);
    setFocusKeyInput(false);
    if (parseHash(window.location.hash).name === 'projects') setVisit((n) => n + 1);
    else window.location.hash = PROJECTS_HREF;
  }, []);

  // After each navigation (visit), move focus within what was just rendered.
  useEffect(() => {
    const target = focusKeyInput
      ? document.getElementById('api-key')
      : document.querySelector<HTMLElement>('main h1');
    target?.focus();
  }, [visit, focusKeyInput]);

  if (!pgs) {
    return (
      <main id="main">
        <KeyScreen onSignedIn={signIn} problem={signInProblem} />
      </main>
    );
  }

  const session: Session = { pgs, credits, refreshCredits, signOut };
  const route = parseHash(hash);
  return (
    <SessionContext.Provider value={session}>
      <Header credits={credits} route={route} onSignOut={() => signOut()} />
      <main id="main">{screenFor(route)}</main>
    </SessionContext.Provider>
  );
}

function screenFor(route: Route) {
  switch (route.name) {
    case 'projects':
      return <ProjectsScreen />;
    case 'new':
      return <NewProjectScreen />;
    case 'connections':
      return <ConnectionsScreen />;
    case 'conventions':
      return <ConventionsScreen />;
    case 'project':
      return <ProjectScreen key={route.projectId} projectId={route.projectId} />;
    case 'sync':
      return <SyncScreen key={route.projectId} projectId={route.projectId} />;
    case 'not-found':
      return (
        <>
          <PageHeading>Page not found</PageHeading>
          <p>
            The console has no page at this address. <a href={PROJECTS_HREF}>See your projects</a>.
          </p>
        </>
      );
  }
}

function Header({
  credits,
  route,
  onSignOut,
}: {
  credits: CreditBalance | undefined;
  route: Route;
  onSignOut: () => void;
}) {
  const mode = credits?.mode;
  return (
    <header class="site-header">
      <div class="brand">
        <span class="logo">PGS</span>
        {mode && (
          <span class={`badge badge-${mode}`}>{mode === 'live' ? 'Live mode' : 'Test mode'}</span>
        )}
      </div>
      <p class="balance">
        <span>Balance: {credits ? credits.balance : '…'} credits</span>
        <span>Reserved: {credits ? credits.reserved : '…'} credits</span>
      </p>
      <nav aria-label="Main">
        <a href={PROJECTS_HREF} aria-current={route.name === 'projects' ? 'page' : undefined}>
          Projects
        </a>
        <a href={NEW_PROJECT_HREF} aria-current={route.name === 'new' ? 'page' : undefined}>
          New project
        </a>
        <a href={CONNECTIONS_HREF} aria-current={route.name === 'connections' ? 'page' : undefined}>
          Connections
        </a>
        <a href={CONVENTIONS_HREF} aria-current={route.name === 'conventions' ? 'page' : undefined}>
          Conventions
        </a>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </nav>
    </header>
  );
}
