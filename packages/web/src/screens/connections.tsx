import type { Connection, ConnectionCreated, TrackerProvider } from '@pgs/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { PageHeading, ProblemAlert, ProblemRetry, StatusLine } from '../components.tsx';
import {
  type ConnectionForm,
  connectionRequest,
  emptyForm,
  PROVIDER_LABELS,
  targetText,
} from '../connections.ts';
import { useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The key's issue-tracker connections (docs/trackers.md): the list, a form to connect a
 * GitHub repository, a Linear team or a Jira project, the webhook to configure (its secret
 * shown once, right after connecting), and deletion. The token is sent once and dropped from
 * the form; the console never stores it.
 *
 * @example
 * <ConnectionsScreen />
 */
export function ConnectionsScreen() {
  const { connections, problem, made, confirming, setConfirming, remove, retry, connected } =
    useConnections();
  return (
    <>
      <PageHeading>Connections</PageHeading>
      <p>
        Issue trackers your projects' tasks are pushed to. A task turns done when its issue is
        closed there, once the tracker's webhook is set up.
      </p>
      {problem && <ProblemRetry problem={problem} onRetry={retry} />}
      {made && <WebhookPanel made={made} />}
      <StatusLine text={connections === undefined && !problem ? 'Loading…' : ''} />
      {connections !== undefined && connections.length === 0 && <p>No connections yet.</p>}
      {connections !== undefined && connections.length > 0 && (
        <ConnectionsTable
          connections={connections}
          confirming={confirming}
          onDelete={(connection) => void remove(connection)}
          onCancel={() => setConfirming(undefined)}
        />
      )}
      <ConnectForm onConnected={connected} />
    </>
  );
}

/**
 * The key's connections as read, deletion (a second click on the same row confirms) and the
 * connection just made, whose webhook is shown until it is deleted.
 */
function useConnections() {
  const { pgs } = useSession();
  const problemOf = useProblemOf();
  const [connections, setConnections] = useState<Connection[] | undefined>(undefined);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [reload, setReload] = useState(0);
  const [made, setMade] = useState<ConnectionCreated | undefined>(undefined);
  // Deleting takes a second click on the same row (no browser dialog: the console opens none).
  const [confirming, setConfirming] = useState<string | undefined>(undefined);

  useEffect(() => {
    const controller = new AbortController();
    setProblem(undefined);
    pgs.connections.list({ signal: controller.signal }).then(setConnections, (error: unknown) => {
      if (!controller.signal.aborted) setProblem(problemOf(error));
    });
    return () => controller.abort();
  }, [pgs, problemOf, reload]);

  const retry = () => setReload((n) => n + 1);
  const remove = async (connection: Connection) => {
    if (confirming !== connection.id) {
      setConfirming(connection.id);
      return;
    }
    setConfirming(undefined);
    try {
      await pgs.connections.delete(connection.id);
      if (made?.connection.id === connection.id) setMade(undefined);
      retry();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };
  const connected = (created: ConnectionCreated) => {
    setMade(created);
    retry();
  };
  return { connections, problem, made, confirming, setConfirming, remove, retry, connected };
}

/** The connections, a row each, with a Delete button that asks for a second click. */
function ConnectionsTable({
  connections,
  confirming,
  onDelete,
  onCancel,
}: {
  connections: Connection[];
  confirming: string | undefined;
  onDelete: (connection: Connection) => void;
  onCancel: () => void;
}) {
  return (
    <div class="table-wrap">
      <table aria-label="Connections">
        <thead>
          <tr>
            <th scope="col">Tracker</th>
            <th scope="col">Name</th>
            <th scope="col">Target</th>
            <th scope="col">Last reconciled</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {connections.map((connection) => (
            <tr key={connection.id}>
              <td>{PROVIDER_LABELS[connection.provider]}</td>
              <td>{connection.name}</td>
              <td>{targetText(connection)}</td>
              <td>
                {connection.reconciledAt
                  ? dateFormat.format(new Date(connection.reconciledAt))
                  : 'Not yet'}
              </td>
              <td>
                <button
                  type="button"
                  class="secondary"
                  aria-label={
                    confirming === connection.id
                      ? `Confirm: delete the connection ${connection.name} and its links`
                      : `Delete the connection ${connection.name}`
                  }
                  onClick={() => onDelete(connection)}
                >
                  {confirming === connection.id ? 'Confirm delete' : 'Delete'}
                </button>
                {confirming === connection.id && (
                  <button type="button" class="secondary" onClick={onCancel}>
                    Cancel
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The webhook to configure on the tracker, with its secret: shown once. */
function WebhookPanel({ made }: { made: ConnectionCreated }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="card" aria-labelledby="webhook-heading">
      <h2 id="webhook-heading" tabIndex={-1} ref={heading}>
        Connected {made.connection.name}: set up the webhook
      </h2>
      <p>{made.webhook.help}</p>
      <dl>
        <dt>Payload URL</dt>
        <dd>
          <code>{made.webhook.url}</code>
        </dd>
        <dt>Secret</dt>
        <dd>
          <code>{made.webhook.secret}</code>
        </dd>
      </dl>
      <p class="hint">The secret is shown only now: paste it into the tracker before leaving.</p>
    </section>
  );
}

/** The form that connects a tracker; the token is cleared once sent, whatever the answer. */
function ConnectForm({ onConnected }: { onConnected: (made: ConnectionCreated) => void }) {
  const { form, setForm, busy, problem, submit } = useConnectForm(onConnected);
  return (
    <form class="card" onSubmit={submit} aria-labelledby="connect-heading">
      <h2 id="connect-heading">Connect a tracker</h2>
      <label for="connection-provider">Tracker</label>
      <select
        id="connection-provider"
        value={form.provider}
        onChange={(event) => setForm(emptyForm(event.currentTarget.value as TrackerProvider))}
      >
        {(Object.keys(PROVIDER_LABELS) as TrackerProvider[]).map((provider) => (
          <option key={provider} value={provider}>
            {PROVIDER_LABELS[provider]}
          </option>
        ))}
      </select>
      <TrackerFields form={form} setForm={setForm} />
      <p class="hint">
        The token is sent to the server once and kept there encrypted; the console never stores it.
      </p>
      {problem && <ProblemAlert problem={problem} />}
      <button type="submit" disabled={busy}>
        {busy ? 'Connecting…' : 'Connect'}
      </button>
    </form>
  );
}

/** The connect form's fields, its problem and its submission, one at a time. */
function useConnectForm(onConnected: (made: ConnectionCreated) => void) {
  const { pgs } = useSession();
  const problemOf = useProblemOf();
  const [form, setForm] = useState<ConnectionForm>(emptyForm());
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const built = connectionRequest(form);
    if (!built.ok) {
      setProblem({ kind: 'invalid', text: built.problem });
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      const made = await pgs.connections.create(built.request);
      setForm(emptyForm(form.provider));
      onConnected(made);
    } catch (error) {
      setProblem(problemOf(error));
      setForm({ ...form, token: '' });
    } finally {
      setBusy(false);
    }
  };
  return { form, setForm, busy, problem, submit };
}

/** The fields the chosen tracker needs, then the connection's name and the token. */
function TrackerFields({
  form,
  setForm,
}: {
  form: ConnectionForm;
  setForm: (form: ConnectionForm) => void;
}) {
  const set = (field: keyof ConnectionForm) => (event: { currentTarget: { value: string } }) =>
    setForm({ ...form, [field]: event.currentTarget.value });
  const field = (id: keyof ConnectionForm, label: string, extra: Record<string, unknown> = {}) => (
    <div>
      <label for={`connection-${id}`}>{label}</label>
      <input
        id={`connection-${id}`}
        name={id}
        value={form[id]}
        onInput={set(id)}
        autoComplete="off"
        {...extra}
      />
    </div>
  );
  return (
    <>
      {form.provider === 'github' && (
        <>
          {field('repo', 'Repository (owner/repo)', { required: true })}
          {field('apiUrl', 'GitHub Enterprise Server API (optional)', { type: 'url' })}
        </>
      )}
      {form.provider === 'linear' && field('team', 'Team key', { required: true })}
      {form.provider === 'jira' && (
        <>
          {field('site', 'Site', { type: 'url', required: true })}
          {field('projectKey', 'Project key', { required: true })}
          {field('email', 'Account email', { type: 'email', required: true })}
        </>
      )}
      {field('name', 'Name (optional)')}
      {field('token', form.provider === 'jira' ? 'API token' : 'Token', {
        type: 'password',
        required: true,
        autoComplete: 'new-password',
      })}
    </>
  );
}
