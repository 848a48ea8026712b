import type { Connection, ProjectStatus, ProjectSync } from '@pgs/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { PageHeading, ProblemAlert, ProblemRetry, StatusLine } from '../components.tsx';
import { PROVIDER_LABELS, targetText } from '../connections.ts';
import { useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';
import { CONNECTIONS_HREF, projectHref } from '../routes.ts';
import {
  actionLabel,
  pendingText,
  SYNC_SCOPES,
  type SyncScope,
  safeUrl,
  syncSummary,
} from '../sync.ts';

/** Between reads of a running sync: a sync of a plan usually ends within a few seconds. */
const POLL_MS = 1_000;

/**
 * Pushing a completed project to a connected tracker (docs/trackers.md): choose a connection
 * and a scope, Preview (a dry run: what would be created, updated, closed, reopened) or Sync
 * (for real: each item's action, its issue and, when it failed, the tracker's reason). The sync
 * is read every second until it ends, as the SDK's `waitForCompletion` does; leaving the screen
 * stops the reads (the sync itself goes on on the server).
 *
 * @example
 * <SyncScreen projectId="0b6f…" />
 */
export function SyncScreen({ projectId }: { projectId: string }) {
  const { pgs } = useSession();
  const problemOf = useProblemOf();
  const [project, setProject] = useState<ProjectStatus | undefined>(undefined);
  const [connections, setConnections] = useState<Connection[] | undefined>(undefined);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [reads, setReads] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    setProblem(undefined);
    Promise.all([pgs.projects.get(projectId, { signal }), pgs.connections.list({ signal })]).then(
      ([status, list]) => {
        setProject(status);
        setConnections(list);
      },
      (error: unknown) => {
        if (!signal.aborted) setProblem(problemOf(error));
      },
    );
    return () => controller.abort();
  }, [pgs, projectId, problemOf, reads]);

  const name = project?.status === 'completed' ? project.project.name : undefined;
  return (
    <>
      <PageHeading>{name ? `Sync ${name}` : 'Sync'}</PageHeading>
      <p>
        <a href={projectHref(projectId)}>Back to the project</a>
      </p>
      {problem && <ProblemRetry problem={problem} onRetry={() => setReads((n) => n + 1)} />}
      <StatusLine text={connections === undefined && !problem ? 'Loading…' : ''} />
      {project && project.status !== 'completed' && (
        <p>
          Only a completed project has tasks to push: this one{' '}
          {project.status === 'in_progress' ? 'is still being written' : 'failed'}.
        </p>
      )}
      {project?.status === 'completed' && connections?.length === 0 && (
        <p>
          No tracker is connected yet. <a href={CONNECTIONS_HREF}>Connect one</a>, then come back.
        </p>
      )}
      {project?.status === 'completed' && connections && connections.length > 0 && (
        <SyncForm projectId={projectId} connections={connections} />
      )}
    </>
  );
}

/** The choice of a connection and a scope, Preview and Sync, then what the sync did. */
function SyncForm({ projectId, connections }: { projectId: string; connections: Connection[] }) {
  const [connectionId, setConnectionId] = useState(connections[0]?.id ?? '');
  const [scope, setScope] = useState<SyncScope>('tasks');
  const { sync, problem, busy, run } = useSyncRun(projectId);
  const start = (dryRun: boolean) => void run({ connectionId, scope, dryRun });

  const connection = connections.find((each) => each.id === connectionId);
  return (
    <>
      <form
        class="card"
        aria-labelledby="sync-form-heading"
        onSubmit={(event) => {
          event.preventDefault();
          start(false);
        }}
      >
        <h2 id="sync-form-heading">Push the plan to a tracker</h2>
        <label for="sync-connection">Connection</label>
        <select
          id="sync-connection"
          value={connectionId}
          onChange={(event) => setConnectionId(event.currentTarget.value)}
        >
          {connections.map((each) => (
            <option key={each.id} value={each.id}>
              {each.name} ({PROVIDER_LABELS[each.provider]}: {targetText(each)})
            </option>
          ))}
        </select>
        <ScopeChoices scope={scope} onChange={setScope} />
        <p class="hint">
          Preview lists what a sync would create, update, close or reopen and changes nothing.
          Syncing again later writes only what changed and never makes a second issue for an item.
        </p>
        {problem && <ProblemAlert problem={problem} />}
        <div class="button-row">
          <button
            type="button"
            class="secondary"
            disabled={busy}
            aria-busy={busy}
            onClick={() => start(true)}
          >
            Preview
          </button>
          <button type="submit" disabled={busy} aria-busy={busy}>
            Sync
          </button>
        </div>
      </form>
      {sync && <SyncResult sync={sync} connectionName={connection?.name ?? ''} />}
    </>
  );
}

/**
 * One sync at a time: started, then read every POLL_MS until it ends. A new sync or leaving
 * the screen stops the reads of the last one.
 */
function useSyncRun(projectId: string) {
  const { pgs } = useSession();
  const problemOf = useProblemOf();
  const [sync, setSync] = useState<ProjectSync | undefined>(undefined);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  // A second click can arrive before the disabled buttons render: this closes that gap.
  const inFlight = useRef(false);
  const reading = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => reading.current?.abort(), []);

  const run = async (request: { connectionId: string; scope: SyncScope; dryRun: boolean }) => {
    if (inFlight.current) return;
    inFlight.current = true;
    reading.current?.abort();
    const controller = new AbortController();
    reading.current = controller;
    setBusy(true);
    setProblem(undefined);
    setSync(undefined);
    try {
      const created = await pgs.projects.syncs.create(projectId, request);
      setSync(created);
      const ended = await pgs.projects.syncs.waitForCompletion(projectId, created.id, {
        intervalMs: POLL_MS,
        signal: controller.signal,
      });
      setSync(ended);
    } catch (error) {
      if (!controller.signal.aborted) setProblem(problemOf(error));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  return { sync, problem, busy, run };
}

/** The scope of a sync, a radio button each with its hint. */
function ScopeChoices({
  scope,
  onChange,
}: {
  scope: SyncScope;
  onChange: (scope: SyncScope) => void;
}) {
  return (
    <fieldset class="choices">
      <legend>Scope</legend>
      {SYNC_SCOPES.map((option) => (
        <div class="choice" key={option.value}>
          <input
            id={`scope-${option.value}`}
            type="radio"
            name="scope"
            value={option.value}
            checked={scope === option.value}
            onChange={() => onChange(option.value)}
            aria-describedby={`scope-${option.value}-hint`}
          />
          <label for={`scope-${option.value}`}>{option.label}</label>
          <p id={`scope-${option.value}-hint`} class="hint">
            {option.hint}
          </p>
        </div>
      ))}
    </fieldset>
  );
}

/** A sync as it stands: pending, or what it did (would do) per item. Focused when it starts. */
function SyncResult({ sync, connectionName }: { sync: ProjectSync; connectionName: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [sync.id]);
  const pending = sync.status === 'queued' || sync.status === 'running';
  const title = sync.dryRun ? `Preview: a sync to ${connectionName}` : `Sync to ${connectionName}`;
  return (
    <section class="card" aria-labelledby="sync-result-heading" aria-busy={pending}>
      <h2 id="sync-result-heading" tabIndex={-1} ref={heading}>
        {title}
      </h2>
      <StatusLine text={pending ? pendingText(sync.status, sync.dryRun) : ''} />
      {!pending && (
        <p data-testid="sync-summary" class={sync.status === 'failed' ? 'alert' : undefined}>
          {sync.status === 'failed' && !sync.dryRun ? 'The sync failed. ' : ''}
          {syncSummary(sync)}
        </p>
      )}
      {sync.error && (
        <p class="alert" role="alert">
          {sync.error.message}
        </p>
      )}
      {!pending && sync.items.length > 0 && (
        <div class="table-wrap">
          <table aria-label={sync.dryRun ? 'What a sync would do' : 'What the sync did'}>
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Action</th>
                <th scope="col">Issue</th>
              </tr>
            </thead>
            <tbody>
              {sync.items.map((item) => {
                const url = safeUrl(item.url);
                return (
                  <tr key={item.id} class={item.action === 'failed' ? 'sync-failed' : undefined}>
                    <th scope="row">{item.id}</th>
                    <td>{actionLabel(item.action, sync.dryRun)}</td>
                    <td>
                      {url ? (
                        <a href={url} target="_blank" rel="noopener noreferrer">
                          {item.externalId ?? url}
                        </a>
                      ) : (
                        (item.externalId ?? '—')
                      )}
                      {item.error && <p class="sync-error">{item.error}</p>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
