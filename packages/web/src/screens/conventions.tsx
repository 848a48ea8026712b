import { NotFoundError } from '@pgs/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { PageHeading, ProblemAlert, ProblemRetry, StatusLine } from '../components.tsx';
import {
  COMMON_COMPLIANCE,
  type ConventionsForm,
  type ConventionsVersion,
  conventionsBody,
  formOf,
  versionText,
} from '../conventions.ts';
import { useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';
import {
  type Edit,
  LanguageAndDetail,
  ListArea,
  OwnSections,
  RequirementStyle,
} from './conventions-fields.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (date: Date) => dateFormat.format(date);

/**
 * The house conventions of the key's account in its mode (docs/conventions.md): free
 * markdown, the stack required and forbidden, compliance, language, requirement style,
 * detail, naming rules and extra sections. Every save writes a new version, which every new
 * project follows; a field left empty is a convention not set.
 *
 * @example
 * <ConventionsScreen />
 */
export function ConventionsScreen() {
  const { credits } = useSession();
  const conventions = useConventions();
  const { version, problem } = conventions;
  return (
    <>
      <PageHeading>Conventions</PageHeading>
      <p>
        What every new project of this account follows in{' '}
        {credits ? `${credits.mode} mode` : "this key's mode"}: your stack, the compliance it must
        meet, the documents' language and style, naming rules and sections of your own. A project
        records the version it followed; its revisions keep to it.
      </p>
      {problem && <ProblemRetry problem={problem} onRetry={conventions.reload} />}
      <StatusLine text={version === null && !problem ? 'Loading…' : ''} />
      {version !== null && <ConventionsEditor {...conventions} version={version} />}
    </>
  );
}

/** The conventions as read and edited: `null` while the first read runs, `undefined` when none are set. */
interface Conventions {
  version: ConventionsVersion | undefined | null;
  form: ConventionsForm;
  edit: Edit;
  problem: Problem | undefined;
  reload: () => void;
  save: (event: Event) => Promise<void>;
  saveProblem: Problem | undefined;
  busy: boolean;
  note: string;
}

/** Reads the conventions (a 404 is an empty form, not a problem) and saves a new version. */
function useConventions(): Conventions {
  const { pgs } = useSession();
  const problemOf = useProblemOf();
  const [version, setVersion] = useState<ConventionsVersion | undefined | null>(null);
  const [form, setForm] = useState<ConventionsForm>(formOf(undefined));
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [saveProblem, setSaveProblem] = useState<Problem | undefined>(undefined);
  const [reads, setReads] = useState(0);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');
  const inFlight = useRef(false);
  const shown = (read: ConventionsVersion | undefined) => {
    setVersion(read);
    setForm(formOf(read));
  };

  useEffect(() => {
    const controller = new AbortController();
    setProblem(undefined);
    pgs.conventions.get({ signal: controller.signal }).then(shown, (error: unknown) => {
      if (controller.signal.aborted) return;
      if (error instanceof NotFoundError) shown(undefined);
      else setProblem(problemOf(error));
    });
    return () => controller.abort();
  }, [pgs, problemOf, reads]);

  const save = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current) return;
    const built = conventionsBody(form);
    if (!built.ok) {
      setSaveProblem({ kind: 'invalid', text: built.problem });
      return;
    }
    inFlight.current = true;
    setBusy(true);
    setSaveProblem(undefined);
    setNote('');
    try {
      const saved = await pgs.conventions.put(built.body);
      shown(saved);
      setNote(`Saved as version ${saved.version}.`);
    } catch (error) {
      setSaveProblem(problemOf(error));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const edit: Edit = (field, value) => setForm((current) => ({ ...current, [field]: value }));
  const reload = () => setReads((n) => n + 1);
  return { version, form, edit, problem, reload, save, saveProblem, busy, note };
}

/** The form of a read: every convention, its version line and the save button. */
function ConventionsEditor(props: Conventions & { version: ConventionsVersion | undefined }) {
  const { version, form, edit, save, saveProblem, busy, note } = props;
  const fields = { form, edit };
  return (
    <form class="card" onSubmit={save} aria-labelledby="conventions-heading">
      <h2 id="conventions-heading">House conventions</h2>
      <p data-testid="conventions-version">{versionText(version, formatDate)}</p>
      <div class="row">
        <ListArea
          id="required"
          label="Required technologies"
          hint="One a line or separated by commas, e.g. PostgreSQL."
          {...fields}
        />
        <ListArea
          id="forbidden"
          label="Forbidden technologies"
          hint="Never proposed unless the idea itself names one."
          {...fields}
        />
      </div>
      <ListArea
        id="compliance"
        label="Compliance"
        hint={`Standards the documents must address, e.g. ${COMMON_COMPLIANCE.join(', ')}.`}
        {...fields}
      />
      <LanguageAndDetail {...fields} />
      <RequirementStyle {...fields} />
      <ListArea
        id="naming"
        label="Naming rules"
        hint='One rule a line, e.g. "Tables are plural snake_case".'
        {...fields}
      />
      <label for="conventions-markdown">Anything else</label>
      <textarea
        id="conventions-markdown"
        rows={5}
        aria-describedby="conventions-markdown-hint"
        value={form.markdown}
        onInput={(event) => edit('markdown', event.currentTarget.value)}
      />
      <p id="conventions-markdown-hint" class="hint">
        Your rules in your own words (markdown), given to every document as data.
      </p>
      <OwnSections {...fields} />
      {saveProblem && <ProblemAlert problem={saveProblem} />}
      <StatusLine text={note} />
      <div>
        <button type="submit" disabled={busy} aria-busy={busy}>
          Save conventions
        </button>
      </div>
    </form>
  );
}
